/* SPDX-License-Identifier: MIT */
/*
 * One line of /proc/PID/maps:
 *
 *	00400000-0040c000 r-xp 00000000 fd:01 41038        /usr/bin/cat
 *
 * The kernel writes it with a fixed format (show_vma_header_prefix), so
 * anything else means the input is not what we think it is: every field is
 * checked, and the error names the column, rather than guessing.
 */
#include <string.h>
#include <sys/mman.h>

#include "util/internal.h"
#include "perfev/synth.h"

struct line {
	const char *s;
	size_t pos, len;
};

static int col_error(const struct line *l, const char *col, const char *why)
{
	return set_error(PERFEV_ERR_FORMAT, "maps line '%.*s': column %s: %s at byte %zu",
			 (int)(l->len < 120 ? l->len : 120), l->s, col, why, l->pos);
}

/* A hex number of 1..max_digits digits, then the byte sep (which is consumed). */
static int get_hex(struct line *l, unsigned max_digits, char sep, uint64_t *out, const char *col)
{
	uint64_t v = 0;
	unsigned n = 0;
	int d;

	while (l->pos < l->len && (d = hex_digit(l->s[l->pos])) >= 0) {
		if (++n > max_digits)
			return col_error(l, col, "too many hex digits");
		v = v << 4 | (unsigned)d;
		l->pos++;
	}
	if (!n)
		return col_error(l, col, l->pos < l->len ? "expected a hex digit" : "line ends early");
	if (l->pos >= l->len)
		return col_error(l, col, "line ends early");
	if (l->s[l->pos] != sep) {
		char why[32];

		snprintf(why, sizeof(why), "expected '%c' after the number", sep);
		return col_error(l, col, why);
	}
	l->pos++;
	*out = v;
	return 0;
}

static int get_perms(struct line *l, struct perfev_proc_map *m)
{
	static const char yes[4] = { 'r', 'w', 'x', 'p' };
	static const char no[4] = { '-', '-', '-', 's' };
	static const uint32_t prot[3] = { PROT_READ, PROT_WRITE, PROT_EXEC };

	if (l->len - l->pos < 5)
		return col_error(l, "perms", "line ends early");
	for (int i = 0; i < 4; i++) {
		char c = l->s[l->pos];

		if (c != yes[i] && c != no[i])
			return col_error(l, "perms",
					 "expected exactly 4 characters [r-][w-][x-][ps]");
		if (i < 3)
			m->prot |= c == yes[i] ? prot[i] : 0;
		else
			m->flags = c == 'p' ? MAP_PRIVATE : MAP_SHARED;
		l->pos++;
	}
	if (l->s[l->pos] != ' ')
		return col_error(l, "perms", "expected exactly 4 characters [r-][w-][x-][ps]");
	l->pos++;
	return 0;
}

static int get_inode(struct line *l, uint64_t *out)
{
	uint64_t v = 0;
	size_t start = l->pos;

	while (l->pos < l->len && l->s[l->pos] >= '0' && l->s[l->pos] <= '9') {
		unsigned d = (unsigned)(l->s[l->pos] - '0');

		if (v > (UINT64_MAX - d) / 10)
			return col_error(l, "inode", "number too large");
		v = v * 10 + d;
		l->pos++;
	}
	if (l->pos == start)
		return col_error(l, "inode",
				 l->pos < l->len ? "expected a decimal digit" : "line ends early");
	/* The kernel ends the inode with a space even when no path follows. */
	if (l->pos < l->len && l->s[l->pos] != ' ')
		return col_error(l, "inode", "expected a space after the number");
	*out = v;
	return 0;
}

int perfev_proc_map__parse(const char *line, size_t len, struct perfev_proc_map *out)
{
	struct line l = { .s = line, .len = len };
	const char *nl;
	uint64_t v;
	int err;

	if (!line || !out)
		return set_error(EINVAL, "maps line: no line or no output given");
	*out = (struct perfev_proc_map){ .path = "" };
	nl = memchr(line, '\n', len);
	if (nl) {
		if ((size_t)(nl - line) != len - 1)
			return set_error(PERFEV_ERR_FORMAT,
					 "maps line: a newline at byte %td is not the last byte of the %zu",
					 nl - line, len);
		l.len = --len;
	}
	if ((err = get_hex(&l, 16, '-', &out->start, "start")) ||
	    (err = get_hex(&l, 16, ' ', &out->end, "end")))
		return err;
	if (out->start >= out->end) {
		l.pos = 0;
		return col_error(&l, "end", "the end address is not above the start address");
	}
	if ((err = get_perms(&l, out)) || (err = get_hex(&l, 16, ' ', &out->pgoff, "offset")) ||
	    (err = get_hex(&l, 8, ':', &v, "dev (major)")))
		return err;
	out->maj = (uint32_t)v;
	if ((err = get_hex(&l, 8, ' ', &v, "dev (minor)")))
		return err;
	out->min = (uint32_t)v;
	if ((err = get_inode(&l, &out->ino)))
		return err;
	while (l.pos < l.len && l.s[l.pos] == ' ')
		l.pos++;
	if (l.pos < l.len) {
		/* The path ends up in NUL-terminated records; an inner NUL would cut it short. */
		if (memchr(l.s + l.pos, '\0', l.len - l.pos))
			return col_error(&l, "path", "contains a NUL byte");
		out->path = l.s + l.pos;
		out->path_len = l.len - l.pos;
	}
	return 0;
}
