/* SPDX-License-Identifier: MIT */
/*
 * perf's tracing data (HEADER_TRACING_DATA), as perf's trace-event-read.c
 * reads it and perfdata/write_tracing.c writes it:
 *
 *	0x17 0x08 0x44 "tracing" | version "0.6\0" | big-endian byte | long size byte |
 *	u32 page size | "header_page\0" u64 size + text | "header_event\0" u64 size + text |
 *	u32 n, n x (u64 size + format) of system ftrace |
 *	u32 systems, each: name\0, u32 n, n x (u64 size + format) |
 *	u32 size + kallsyms | u32 size + printk formats | (0.6) u64 size + saved cmdlines
 *
 * Numbers are in the recording machine's byte order, which the big-endian
 * byte names.  Every size is checked against what remains.
 */
#include <stdlib.h>
#include <string.h>

#include "util/internal.h"
#include "tracefmt/tracefmt_int.h"

#define TD_NAME_MAX 256

struct td_reader {
	const unsigned char *p;
	size_t size, pos;
	bool big;
};

static int td_bad(const struct td_reader *r, const char *what)
{
	return set_error(PERFEV_ERR_FORMAT, "tracing data, byte %zu of %zu: %s", r->pos, r->size,
			 what);
}

static int td_bytes(struct td_reader *r, size_t n, const unsigned char **out, const char *what)
{
	if (n > r->size - r->pos)
		return td_bad(r, what);
	*out = r->p + r->pos;
	r->pos += n;
	return 0;
}

static int td_num(struct td_reader *r, size_t n, uint64_t *v, const char *what)
{
	const unsigned char *b = NULL;
	int ret = td_bytes(r, n, &b, what);

	if (ret)
		return ret;
	*v = 0;
	for (size_t i = 0; i < n; i++)
		*v |= (uint64_t)b[r->big ? n - 1 - i : i] << (8 * i);
	return 0;
}

/* A NUL-terminated string of at most TD_NAME_MAX bytes. */
static int td_string(struct td_reader *r, const char **s, const char *what)
{
	size_t left = r->size - r->pos;
	const unsigned char *z = memchr(r->p + r->pos, '\0', left < TD_NAME_MAX ? left : TD_NAME_MAX);

	if (!z)
		return td_bad(r, what);
	*s = (const char *)r->p + r->pos;
	r->pos = (size_t)(z - r->p) + 1;
	return 0;
}

/* A u32- or u64-sized blob, stepped over. */
static int td_skip_sized(struct td_reader *r, size_t size_bytes, const char *what)
{
	const unsigned char *b = NULL;
	uint64_t n;
	int ret = td_num(r, size_bytes, &n, what);

	if (ret)
		return ret;
	if (n > r->size - r->pos)
		return td_bad(r, what);
	return td_bytes(r, (size_t)n, &b, what);
}

static int td_expect_name(struct td_reader *r, const char *name)
{
	const char *s = "";
	int ret = td_string(r, &s, "a section name that does not end");

	if (ret)
		return ret;
	if (strcmp(s, name)) {
		char why[128];

		snprintf(why, sizeof(why), "'%s' expected", name);
		return td_bad(r, why);
	}
	return td_skip_sized(r, 8, "a header section longer than the data");
}

/* n formats of system sys, each a u64 size and its text. */
static int td_formats(struct td_reader *r, struct perfev_tracefmt *t, const char *sys)
{
	uint64_t n;
	int ret = td_num(r, 4, &n, "a count of event formats past the end");

	/* Every format takes at least its 8-byte size. */
	if (!ret && n > (r->size - r->pos) / 8)
		return td_bad(r, "more event formats than the data can hold");
	for (uint64_t i = 0; i < n && !ret; i++) {
		const unsigned char *text;
		uint64_t len;

		ret = td_num(r, 8, &len, "an event format's size past the end");
		if (!ret && len > r->size - r->pos)
			return td_bad(r, "an event format longer than the data");
		if (!ret)
			ret = td_bytes(r, (size_t)len, &text, "an event format");
		if (!ret) {
			ret = perfev_tracefmt__add_format(t, sys, (const char *)text, (size_t)len);
			if (ret == -EEXIST)
				ret = 0; /* the same event twice: the first is kept */
		}
	}
	return ret;
}

/* The printk formats: a u32 size and the text of tracefs's printk_formats. */
static int td_printk(struct td_reader *r, struct perfev_tracefmt *t)
{
	const unsigned char *b = NULL;
	uint64_t n;
	int ret = td_num(r, 4, &n, "no size of the printk formats");

	if (!ret && n > r->size - r->pos)
		return td_bad(r, "printk formats longer than the data");
	if (!ret)
		ret = td_bytes(r, (size_t)n, &b, "printk formats");
	return ret ? ret : tf_printk_parse(t, (const char *)b, (size_t)n);
}

static int td_preamble(struct td_reader *r, struct perfev_tracefmt *t, bool *v06)
{
	static const unsigned char magic[] = { 0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n', 'g' };
	const unsigned char *b = NULL;
	const char *version;
	uint64_t page;
	int ret;

	if ((ret = td_bytes(r, sizeof(magic), &b, "shorter than its magic")) < 0)
		return ret;
	if (memcmp(b, magic, sizeof(magic)))
		return td_bad(r, "not perf's tracing data (no \\x17\\x08\\x44tracing magic)");
	if ((ret = td_string(r, &version, "a version string that does not end")) < 0)
		return ret;
	*v06 = strcmp(version, "0.5") != 0;
	if ((ret = td_bytes(r, 2, &b, "no byte order and long size")) < 0)
		return ret;
	if (b[0] > 1 || (b[1] != 4 && b[1] != 8))
		return td_bad(r, "a byte order other than 0 or 1, or a long size other than 4 or 8");
	r->big = b[0];
	{
		const uint16_t one = 1;
		bool host_big = *(const unsigned char *)&one == 0;

		t->swap = r->big != host_big;
	}
	t->long_size = b[1];
	return td_num(r, 4, &page, "no page size");
}

static int td_parse(struct td_reader *r, struct perfev_tracefmt *t)
{
	uint64_t systems = 0;
	bool v06 = true;
	int ret;

	if ((ret = td_preamble(r, t, &v06)) < 0 || (ret = td_expect_name(r, "header_page")) < 0 ||
	    (ret = td_expect_name(r, "header_event")) < 0 || (ret = td_formats(r, t, "ftrace")) < 0)
		return ret;
	if ((ret = td_num(r, 4, &systems, "no count of systems")) < 0)
		return ret;
	if (systems > r->size - r->pos)
		return td_bad(r, "more systems than the data can hold");
	for (uint64_t i = 0; i < systems; i++) {
		const char *sys;

		if ((ret = td_string(r, &sys, "a system name that does not end")) < 0 ||
		    (ret = td_formats(r, t, sys)) < 0)
			return ret;
	}
	/*
	 * What follows only names kernel strings and tasks: a file cut short
	 * there still reads, with what could be taken of it.
	 */
	if (r->pos < r->size && td_skip_sized(r, 4, "kallsyms longer than the data") == 0 &&
	    r->pos < r->size && (ret = td_printk(r, t)) == -ENOMEM)
		return ret;
	(void)v06; /* saved_cmdlines (0.6) follow; perf's names of tasks come from the records */
	return 0;
}

int perfev_tracefmt__add_tracing_data(struct perfev_tracefmt *t, const void *data, size_t size)
{
	struct td_reader r = { data, size, 0, false };
	struct perfev_tracefmt tmp = { .long_size = sizeof(long) };
	int ret;

	if (!t || (!data && size))
		return set_error(EINVAL, "perfev_tracefmt__add_tracing_data: NULL argument");
	ret = td_parse(&r, &tmp);
	if (!ret && t->nr && (tmp.swap != t->swap || tmp.long_size != t->long_size))
		ret = set_error(EINVAL, "tracing data of another byte order or long size than the "
					"formats already in the set; use a set of their own");
	for (size_t i = 0; i < tmp.nr && !ret; i++) {
		struct perfev_tp_format *f = tmp.formats[i];

		tmp.formats[i] = NULL;
		f->set = t;
		ret = tf_set_add(t, f);
		if (ret == -EEXIST)
			ret = 0;
	}
	if (!ret && tmp.nr_printk) {
		/* The strings stay in tmp's arena, which t takes over. */
		free(t->printk);
		t->printk = tmp.printk;
		t->nr_printk = tmp.nr_printk;
		tmp.printk = NULL;
		t->printk_loaded = true;
	}
	if (!ret) {
		t->swap = tmp.swap;
		t->long_size = tmp.long_size;
		ret = (int)tmp.nr;
	}
	if (tmp.arena) {
		struct tf_chunk *last = tmp.arena;

		while (last->next)
			last = last->next;
		last->next = t->arena;
		t->arena = tmp.arena;
	}
	for (size_t i = 0; i < tmp.nr; i++)
		tf_format_free(tmp.formats[i]);
	free(tmp.formats);
	free(tmp.printk);
	return ret;
}
