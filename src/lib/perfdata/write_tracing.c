/* SPDX-License-Identifier: MIT */
/*
 * The tracing data perf needs to decode tracepoint samples (the
 * HEADER_TRACING_DATA feature, or what follows a pipe's
 * PERF_RECORD_HEADER_TRACING_DATA): tracefs's descriptions of the ring
 * buffer and of each event used, laid out as tools/perf/util/
 * trace-event-read.c reads them (version 0.6):
 *
 *	0x17 0x08 0x44 "tracing" "0.6\0" | big-endian byte | sizeof(long) byte |
 *	u32 page size | "header_page\0" u64 size, contents |
 *	"header_event\0" u64 size, contents |
 *	u32 count, then u64 size + format per event of system "ftrace" |
 *	u32 systems, then per system: name\0, u32 count, u64 size + format
 *	per event | u32 kallsyms size (0) | u32 size + printk_formats |
 *	u64 size + saved_cmdlines
 *
 * Numbers are in the host's byte order, which the endianness byte names.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include "events/events_int.h"
#include "perfdata/writer_int.h"

#define TD_PATH_MAX 4096
/* Far above any real tracefs file; a bound so a misbehaving one cannot eat memory. */
#define TD_FILE_MAX (64u << 20)

struct td_event {
	char *sys, *name;
};

struct td_set {
	struct td_event *ev;
	size_t nr;
	char events[TD_PATH_MAX]; /* <tracefs>/events */
};

bool pd_has_tracepoints(const struct perfev_data_writer *w)
{
	for (size_t i = 0; i < w->nr_attrs; i++)
		if (w->attrs[i].attr.type == PERF_TYPE_TRACEPOINT)
			return true;
	return false;
}

static void td_set_free(struct td_set *s)
{
	for (size_t i = 0; i < s->nr; i++) {
		free(s->ev[i].sys);
		free(s->ev[i].name);
	}
	free(s->ev);
}

static int td_add(struct td_set *s, const char *sys, const char *name)
{
	struct td_event *ev;

	for (size_t i = 0; i < s->nr; i++)
		if (!strcmp(s->ev[i].sys, sys) && !strcmp(s->ev[i].name, name))
			return 0;
	ev = realloc(s->ev, (s->nr + 1) * sizeof(*ev));
	if (!ev)
		return set_error(ENOMEM, "out of memory for the tracing data");
	s->ev = ev;
	ev = &ev[s->nr];
	ev->sys = strdup(sys);
	ev->name = strdup(name);
	if (!ev->sys || !ev->name) {
		free(ev->sys);
		free(ev->name);
		return set_error(ENOMEM, "out of memory for the tracing data");
	}
	s->nr++;
	return 0;
}

/* True when events/SYS/NAME/id holds id. */
static bool id_matches(const char *events, const char *sys, const char *name, uint64_t id)
{
	char path[TD_PATH_MAX];
	uint64_t v;

	return name_is_path_safe(sys) && name_is_path_safe(name) &&
	       path_join(path, sizeof(path), events, sys, name, "id") &&
	       read_u64_file(path, &v) == 0 && v == id;
}

struct td_scan {
	const char *events;
	uint64_t id;
	char sys[TD_PATH_MAX], name[TD_PATH_MAX];
};

static int scan_cb(const char *sys, const char *name, void *ctx)
{
	struct td_scan *s = ctx;

	if (!id_matches(s->events, sys, name, s->id))
		return 0;
	return str_copy(s->sys, sizeof(s->sys), sys) && str_copy(s->name, sizeof(s->name), name);
}

/*
 * The tracepoint an attr counts.  Its name is normally "sys:event" (perhaps
 * with ":modifiers"), which is taken when that event's id is attr.config;
 * otherwise every event's id is looked at, as perf does for unnamed ones.
 */
static int td_resolve(struct td_set *s, const struct pd_attr *a)
{
	const char *colon = strchr(a->name, ':');
	struct td_scan scan = { .events = s->events, .id = a->attr.config };
	int ret;

	if (colon && (size_t)(colon - a->name) < sizeof(scan.sys)) {
		const char *end = strchr(colon + 1, ':');
		size_t n = end ? (size_t)(end - colon - 1) : strlen(colon + 1);

		memcpy(scan.sys, a->name, (size_t)(colon - a->name));
		scan.sys[colon - a->name] = '\0';
		if (n < sizeof(scan.name)) {
			memcpy(scan.name, colon + 1, n);
			scan.name[n] = '\0';
			if (id_matches(s->events, scan.sys, scan.name, scan.id))
				return td_add(s, scan.sys, scan.name);
		}
	}
	ret = tracepoint__for_each(scan_cb, &scan);
	if (ret < 0)
		return ret;
	if (!ret)
		return set_error(ENOENT, "event %s is tracepoint %llu, but no tracepoint in %s has "
					 "that id, so perf could not decode its samples; give the "
					 "id from tracefs's events/SYSTEM/EVENT/id on this machine",
				 a->name, (unsigned long long)a->attr.config, s->events);
	return td_add(s, scan.sys, scan.name);
}

static int cmp_event(const void *x, const void *y)
{
	const struct td_event *a = x, *b = y;
	int c = strcmp(a->sys, b->sys);

	return c ? c : strcmp(a->name, b->name);
}

/*
 * Appends the whole file (tracefs files claim size 0, so it is read to its
 * end); the byte count goes to *len.  -errno on failure, nothing explained.
 */
static int put_file(struct pd_buf *b, const char *path, size_t *len)
{
	size_t start = b->len;
	int fd = open(path, O_RDONLY | O_CLOEXEC), err = 0;

	if (fd < 0)
		return -errno;
	for (;;) {
		ssize_t n;

		if (!pd_buf_reserve(b, 4096)) {
			err = -ENOMEM;
			break;
		}
		n = read(fd, b->p + b->len, b->cap - b->len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			err = -errno;
			break;
		}
		if (!n)
			break;
		b->len += (size_t)n;
		if (b->len - start > TD_FILE_MAX) {
			err = -EFBIG;
			break;
		}
	}
	close(fd);
	if (err)
		b->len = start;
	*len = b->len - start;
	return err;
}

/* A file after its size in a u32 or u64 (size_bytes); the size is patched in once known. */
static int put_sized_file(struct pd_buf *b, const char *path, size_t size_bytes)
{
	size_t at = b->len, len;
	int ret;

	pd_put_zero(b, size_bytes);
	if (b->nomem)
		return -ENOMEM;
	ret = put_file(b, path, &len);
	if (ret < 0) {
		b->len = at;
		return ret;
	}
	if (size_bytes == 4) {
		uint32_t v = (uint32_t)len;

		memcpy(b->p + at, &v, 4);
	} else {
		uint64_t v = len;

		memcpy(b->p + at, &v, 8);
	}
	return 0;
}

static int unreadable(const char *path, const char *what, int err)
{
	char why[128];

	if (err == -ENOMEM)
		return set_error(ENOMEM, "out of memory for the tracing data");
	perfev_strerror(-err, why, sizeof(why));
	return set_error(-err, "cannot read %s (%s), which perf needs to decode tracepoint "
			       "samples: %s; mount tracefs ('mount -t tracefs nodev "
			       "/sys/kernel/tracing') and write the file as a user who may read it "
			       "(root, or one given access to tracefs)",
			 path, what, why);
}

static int put_required(struct pd_buf *b, const char *events, const char *a, const char *c,
			const char *what)
{
	char path[TD_PATH_MAX];
	int ret;

	if (!path_join(path, sizeof(path), events, a, c, NULL))
		return set_error(ENAMETOOLONG, "the path of %s under %s is too long", what, events);
	ret = put_sized_file(b, path, 8);
	return ret < 0 ? unreadable(path, what, ret) : 0;
}

/*
 * A file perf's reader takes as empty when it is not there (printk formats
 * only matter to bprint events; saved command lines only name tasks):
 * like perf, a missing or unreadable one is written with size 0.
 */
static void put_optional(struct pd_buf *b, const char *dir, const char *file, size_t size_bytes)
{
	char path[TD_PATH_MAX];
	int ret = -ENAMETOOLONG;

	if (path_join(path, sizeof(path), dir, file, NULL, NULL))
		ret = put_sized_file(b, path, size_bytes);
	if (ret < 0) {
		pr_debug("perf.data: %s/%s left empty in the tracing data: %s\n", dir, file,
			 strerror(-ret));
		pd_put_zero(b, size_bytes);
	}
}

static int put_format(struct pd_buf *b, const struct td_set *s, const struct td_event *ev)
{
	char what[TD_PATH_MAX], dir[TD_PATH_MAX];

	snprintf(what, sizeof(what), "the format of tracepoint %s:%s", ev->sys, ev->name);
	if (!path_join(dir, sizeof(dir), ev->sys, ev->name, NULL, NULL))
		return set_error(ENAMETOOLONG, "tracepoint %s:%s: name too long", ev->sys, ev->name);
	return put_required(b, s->events, dir, "format", what);
}

/* The events of one system, [first, end) of the sorted set, after their count. */
static int put_system(struct pd_buf *b, const struct td_set *s, size_t first, size_t end)
{
	int ret = 0;

	pd_put_u32(b, (uint32_t)(end - first));
	for (size_t i = first; i < end && !ret; i++)
		ret = put_format(b, s, &s->ev[i]);
	return ret;
}

static size_t system_end(const struct td_set *s, size_t first)
{
	size_t end = first + 1;

	while (end < s->nr && !strcmp(s->ev[end].sys, s->ev[first].sys))
		end++;
	return end;
}

static void put_preamble(struct pd_buf *b)
{
	static const unsigned char magic[] = { 0x17, 0x08, 0x44 };
	const uint16_t one = 1;
	unsigned char big = *(const unsigned char *)&one == 0, lsize = sizeof(long);
	long page = sysconf(_SC_PAGESIZE);

	pd_put(b, magic, sizeof(magic));
	pd_put(b, "tracing", 7);
	/* 0.6: the version whose readers expect saved_cmdlines at the end. */
	pd_put(b, "0.6", 4);
	pd_put(b, &big, 1);
	pd_put(b, &lsize, 1);
	pd_put_u32(b, page > 0 ? (uint32_t)page : 4096);
}

static int put_tracing(struct pd_buf *b, struct td_set *s, const char *root)
{
	size_t ftrace_first = s->nr, ftrace_end = s->nr, systems = 0;
	int ret;

	put_preamble(b);
	pd_put(b, "header_page", 12);
	if ((ret = put_required(b, s->events, "header_page", NULL, "the ring buffer's page "
								   "layout")) < 0)
		return ret;
	pd_put(b, "header_event", 13);
	if ((ret = put_required(b, s->events, "header_event", NULL, "the ring buffer's event "
								    "header layout")) < 0)
		return ret;

	/* perf's reader takes system "ftrace" apart, before the others, and without its name. */
	for (size_t i = 0; i < s->nr; i = system_end(s, i)) {
		if (!strcmp(s->ev[i].sys, "ftrace")) {
			ftrace_first = i;
			ftrace_end = system_end(s, i);
		} else {
			systems++;
		}
	}
	if ((ret = put_system(b, s, ftrace_first, ftrace_end)) < 0)
		return ret;
	pd_put_u32(b, (uint32_t)systems);
	for (size_t i = 0; i < s->nr && !ret; i = system_end(s, i)) {
		if (i == ftrace_first)
			continue;
		pd_put(b, s->ev[i].sys, strlen(s->ev[i].sys) + 1);
		ret = put_system(b, s, i, system_end(s, i));
	}
	if (ret < 0)
		return ret;
	/* perf stopped storing kallsyms (it resolves symbols itself) and writes size 0. */
	pd_put_u32(b, 0);
	put_optional(b, root, "printk_formats", 4);
	put_optional(b, root, "saved_cmdlines", 8);
	return b->nomem ? set_error(ENOMEM, "out of memory for the tracing data") : 0;
}

int pd_tracing_data(const struct perfev_data_writer *w, struct pd_buf *b)
{
	char root[TD_PATH_MAX];
	struct td_set s = { 0 };
	const char *first = NULL;
	int ret;

	for (size_t i = 0; i < w->nr_attrs && !first; i++)
		if (w->attrs[i].attr.type == PERF_TYPE_TRACEPOINT)
			first = w->attrs[i].name;
	if (!first)
		return 0;
	if ((ret = tracefs__find(root, sizeof(root))) < 0) {
		char why[512];

		snprintf(why, sizeof(why), "%s", perfev_last_error());
		return set_error(-ret, "event %s is a tracepoint, whose samples perf decodes with "
				       "the formats in tracefs: %s", first, why);
	}
	if (!path_join(s.events, sizeof(s.events), root, "events", NULL, NULL))
		return set_error(ENAMETOOLONG, "the tracefs path %s is too long", root);
	ret = 0;
	for (size_t i = 0; i < w->nr_attrs && !ret; i++)
		if (w->attrs[i].attr.type == PERF_TYPE_TRACEPOINT)
			ret = td_resolve(&s, &w->attrs[i]);
	if (!ret) {
		sort_array(s.ev, s.nr, sizeof(*s.ev), cmp_event);
		ret = put_tracing(b, &s, root);
	}
	td_set_free(&s);
	return ret;
}
