/* SPDX-License-Identifier: MIT */
/* A set of tracepoint formats: adding them (one format's text, or from tracefs), finding them. */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "events/events_int.h"
#include "util/internal.h"
#include "tracefmt/tracefmt_int.h"

void tf_format_free(struct perfev_tp_format *f)
{
	if (!f)
		return;
	free(f->fields);
	free(f->nodes);
	free(f->pieces);
	tf_arena_free(f->arena);
	free(f);
}

struct perfev_tracefmt *perfev_tracefmt__new(void)
{
	struct perfev_tracefmt *t = calloc(1, sizeof(*t));

	if (!t)
		return set_error_ptr(ENOMEM, "out of memory for tracepoint formats");
	t->long_size = sizeof(long);
	return t;
}

void perfev_tracefmt__delete(struct perfev_tracefmt *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->nr; i++)
		tf_format_free(t->formats[i]);
	free(t->formats);
	free(t->printk);
	tf_arena_free(t->arena);
	free(t);
}

int tf_set_add(struct perfev_tracefmt *t, struct perfev_tp_format *f)
{
	if (perfev_tracefmt__find_id(t, f->id)) {
		int ret = set_error(EEXIST, "tracepoint %s:%s: a format with ID %llu is there already",
				    f->sys, f->name, (unsigned long long)f->id);

		tf_format_free(f);
		return ret;
	}
	if (!array_grow((void **)&t->formats, &t->cap, t->nr + 1, sizeof(*t->formats))) {
		tf_format_free(f);
		return set_error(ENOMEM, "out of memory for tracepoint formats");
	}
	t->formats[t->nr++] = f;
	return 0;
}

/* Parses a format (fields and print fmt) for set t without adding it. */
static struct perfev_tp_format *parse_one(const struct perfev_tracefmt *t, const char *sys,
					  const char *text, size_t len, int *err)
{
	struct perfev_tp_format *f = calloc(1, sizeof(*f));

	if (!f) {
		*err = set_error(ENOMEM, "out of memory for a tracepoint format");
		return NULL;
	}
	f->set = t;
	*err = tf_format_parse(f, sys, text, len);
	if (!*err)
		*err = tf_print_parse(f);
	if (*err) {
		tf_format_free(f);
		return NULL;
	}
	return f;
}

int perfev_tracefmt__add_format(struct perfev_tracefmt *t, const char *sys, const char *text,
				size_t len)
{
	struct perfev_tp_format *f;
	int err;

	if (!t || !sys || (!text && len))
		return set_error(EINVAL, "perfev_tracefmt__add_format: NULL argument");
	f = parse_one(t, sys, text ? text : "", len, &err);
	return f ? tf_set_add(t, f) : err;
}

/* tracefs's printk_formats, for the formats of this machine; unreadable means none. */
static void load_printk(struct perfev_tracefmt *t, const char *root)
{
	char path[4096], *text = NULL;
	size_t cap = 0;
	ssize_t n;
	int fd;

	t->printk_loaded = true;
	if (!path_join(path, sizeof(path), root, "printk_formats", NULL, NULL))
		return;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	n = read_fd_all(fd, &text, &cap);
	close(fd);
	if (n > 0)
		tf_printk_parse(t, text, (size_t)n);
	free(text);
}

int perfev_tracefmt__add_tracefs(struct perfev_tracefmt *t, const char *sys, const char *name)
{
	char root[4096], events[4096], path[4096];
	char *text = NULL;
	size_t cap = 0;
	ssize_t n;
	int fd, ret;

	if (!t || !sys || !name)
		return set_error(EINVAL, "perfev_tracefmt__add_tracefs: NULL argument");
	if (perfev_tracefmt__find(t, sys, name))
		return 0;
	if (!name_is_path_safe(sys) || !name_is_path_safe(name))
		return set_error(EINVAL, "'%s:%s' is not a tracepoint name", sys, name);
	if ((ret = tracefs__find(root, sizeof(root))) < 0)
		return ret;
	if (!path_join(events, sizeof(events), root, "events", NULL, NULL) ||
	    !path_join(path, sizeof(path), events, sys, name, "format"))
		return set_error(ENAMETOOLONG, "tracepoint name %s:%s is too long", sys, name);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return set_error(errno, "cannot read the format of tracepoint %s:%s (%s): %s%s", sys,
				 name, path, strerror(errno),
				 errno == ENOENT ? "; 'perfev list tracepoint' shows those there are"
						 : errno == EACCES ? "; tracefs needs root here" : "");
	n = read_fd_all(fd, &text, &cap);
	close(fd);
	if (n >= 0 && !t->printk_loaded)
		load_printk(t, root);
	if (n < 0) {
		free(text);
		return set_error((int)-n, "cannot read %s: %s", path, strerror((int)-n));
	}
	ret = perfev_tracefmt__add_format(t, sys, text, (size_t)n);
	free(text);
	return ret;
}

size_t perfev_tracefmt__nr_formats(const struct perfev_tracefmt *t)
{
	return t ? t->nr : 0;
}

const struct perfev_tp_format *perfev_tracefmt__format(const struct perfev_tracefmt *t, size_t i)
{
	return t && i < t->nr ? t->formats[i] : NULL;
}

const struct perfev_tp_format *perfev_tracefmt__find_id(const struct perfev_tracefmt *t,
							uint64_t id)
{
	for (size_t i = 0; t && i < t->nr; i++)
		if (t->formats[i]->id == id)
			return t->formats[i];
	return NULL;
}

const struct perfev_tp_format *perfev_tracefmt__find(const struct perfev_tracefmt *t,
						     const char *sys, const char *name)
{
	for (size_t i = 0; t && i < t->nr; i++)
		if (!strcmp(t->formats[i]->sys, sys) && !strcmp(t->formats[i]->name, name))
			return t->formats[i];
	return NULL;
}

const char *perfev_tp_format__system(const struct perfev_tp_format *f)
{
	return f->sys;
}

const char *perfev_tp_format__name(const struct perfev_tp_format *f)
{
	return f->name;
}

uint64_t perfev_tp_format__id(const struct perfev_tp_format *f)
{
	return f->id;
}

const char *perfev_tp_format__print_fmt(const struct perfev_tp_format *f)
{
	return f->print_fmt;
}

const char *perfev_tp_format__print_error(const struct perfev_tp_format *f)
{
	return f->print_error;
}
