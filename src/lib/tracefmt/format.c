/* SPDX-License-Identifier: MIT */
/*
 * A tracefs format file: the event's name and id, its fields, and its print
 * fmt.  The lines are the kernel's (kernel/trace/trace_events.c):
 *
 *	name: sched_switch
 *	ID: 372
 *	format:
 *		field:unsigned short common_type;	offset:0;	size:2;	signed:0;
 *		...                                  (a blank line after the common fields)
 *		field:char prev_comm[16];	offset:8;	size:16;	signed:0;
 *		field:__data_loc char[] name;	offset:12;	size:4;	signed:0;
 *
 *	print fmt: "prev_comm=%s ...", REC->prev_comm, ...
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "util/internal.h"
#include "tracefmt/tracefmt_int.h"

#define TF_OFFSET_MAX (1u << 20)

struct line_reader {
	const char *p, *end;
	unsigned lineno;
};

/* The next line without its newline; false at the end. */
static bool next_line(struct line_reader *lr, const char **s, size_t *n)
{
	const char *nl;

	if (lr->p >= lr->end)
		return false;
	nl = memchr(lr->p, '\n', (size_t)(lr->end - lr->p));
	*s = lr->p;
	*n = nl ? (size_t)(nl - lr->p) : (size_t)(lr->end - lr->p);
	lr->p = nl ? nl + 1 : lr->end;
	lr->lineno++;
	return true;
}

static bool is_ident_start(char c)
{
	return isalpha((unsigned char)c) || c == '_';
}

static bool is_ident_char(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

/* s[0..n) without leading and trailing blanks. */
static void trim(const char **s, size_t *n)
{
	while (*n && isspace((unsigned char)**s))
		(*s)++, (*n)--;
	while (*n && isspace((unsigned char)(*s)[*n - 1]))
		(*n)--;
}

/* The line starts with key (then blanks are skipped); the rest in *s, *n. */
static bool take_key(const char **s, size_t *n, const char *key)
{
	size_t k = strlen(key);

	if (*n < k || memcmp(*s, key, k))
		return false;
	*s += k, *n -= k;
	trim(s, n);
	return true;
}

/* A decimal number filling s[0..n) exactly, at most max. */
static bool parse_uint(const char *s, size_t n, uint64_t max, uint64_t *out)
{
	uint64_t v = 0;

	if (!n)
		return false;
	for (size_t i = 0; i < n; i++) {
		if (!isdigit((unsigned char)s[i]))
			return false;
		v = v * 10 + (uint64_t)(s[i] - '0');
		if (v > max)
			return false;
	}
	*out = v;
	return true;
}

static int bad(const struct perfev_tp_format *f, unsigned lineno, const char *what)
{
	return set_error(PERFEV_ERR_FORMAT, "tracepoint format %s:%s, line %u: %s", f->sys,
			 f->name ? f->name : "?", lineno, what);
}

/* Element sizes of the types perf knows for arrays (libtraceevent's type_size()). */
static uint32_t type_size(const char *t, size_t n)
{
	static const struct {
		const char *name;
		uint32_t size;
	} table[] = { { "u8", 1 },  { "u16", 2 }, { "u32", 4 }, { "u64", 8 }, { "s8", 1 },
		      { "s16", 2 }, { "s32", 4 }, { "s64", 8 }, { "char", 1 } };

	for (size_t i = 0; i < ARRAY_SIZE(table); i++)
		if (strlen(table[i].name) == n && !memcmp(table[i].name, t, n))
			return table[i].size;
	return 0;
}

/* The element type of a dynamic array type ("__data_loc char[]" -> "char"). */
static uint32_t dynamic_elem_size(const char *type)
{
	const char *s = strchr(type, ' '), *e;

	if (!s)
		return 0;
	while (*s == ' ')
		s++;
	e = strchr(s, '[');
	if (!e)
		e = s + strlen(s);
	while (e > s && e[-1] == ' ')
		e--;
	return type_size(s, (size_t)(e - s));
}

static void set_flags(struct perfev_tp_field *fl, bool array, unsigned long_size)
{
	const char *t = fl->type;

	if (array)
		fl->flags |= PERFEV_TP_FIELD_ARRAY;
	if (STARTS_WITH(t, "__data_loc"))
		fl->flags |= PERFEV_TP_FIELD_DYNAMIC | PERFEV_TP_FIELD_ARRAY;
	if (STARTS_WITH(t, "__rel_loc"))
		fl->flags |= PERFEV_TP_FIELD_DYNAMIC | PERFEV_TP_FIELD_RELATIVE | PERFEV_TP_FIELD_ARRAY;
	if ((fl->flags & PERFEV_TP_FIELD_ARRAY) &&
	    (strstr(t, "char") || strstr(t, "u8") || strstr(t, "s8")))
		fl->flags |= PERFEV_TP_FIELD_STRING;
	if (strchr(t, '*'))
		fl->flags |= PERFEV_TP_FIELD_POINTER;
	if (strstr(t, "long"))
		fl->flags |= PERFEV_TP_FIELD_LONG;
	if (STARTS_WITH(fl->name, "common_"))
		fl->flags |= PERFEV_TP_FIELD_COMMON;

	if (!(fl->flags & PERFEV_TP_FIELD_ARRAY))
		fl->elem_size = fl->size;
	else if (fl->array_len)
		fl->elem_size = fl->size / fl->array_len;
	else if (fl->flags & PERFEV_TP_FIELD_DYNAMIC)
		fl->elem_size = dynamic_elem_size(t);
	else if (fl->flags & PERFEV_TP_FIELD_STRING)
		fl->elem_size = 1;
	else if (fl->flags & PERFEV_TP_FIELD_LONG)
		fl->elem_size = long_size;
}

/*
 * "TYPE NAME" or "TYPE NAME[DIM]" (ftrace's own events may say
 * "special TYPE NAME"): the name, the type, and the array dimension.
 */
static int parse_decl(struct perfev_tp_format *f, struct perfev_tp_field *fl, const char *s,
		      size_t n, unsigned lineno)
{
	const char *name;
	size_t tn, name_len;
	bool array = false;
	uint64_t dim = 0;

	trim(&s, &n);
	if (n > 8 && !memcmp(s, "special ", 8) && !strcmp(f->sys, "ftrace"))
		s += 8, n -= 8;
	if (n && s[n - 1] == ']') {
		const char *lb = memchr(s, '[', n);
		const char *last = lb;

		while (last && (last = memchr(last + 1, '[', n - (size_t)(last + 1 - s))))
			lb = last;
		if (!lb)
			return bad(f, lineno, "a ']' without '[' in a field's declaration");
		array = true;
		/* A symbolic dimension (TASK_COMM_LEN) says nothing; the size still holds. */
		if (!parse_uint(lb + 1, (size_t)(s + n - 1 - (lb + 1)), TF_OFFSET_MAX, &dim))
			dim = 0;
		n = (size_t)(lb - s);
		trim(&s, &n);
	}
	name = s + n;
	while (name > s && is_ident_char(name[-1]))
		name--;
	if (name == s + n || !is_ident_start(*name))
		return bad(f, lineno, "a field without a name");
	name_len = (size_t)(s + n - name);
	tn = (size_t)(name - s);
	trim(&s, &tn);
	if (!tn)
		return bad(f, lineno, "a field without a type");
	fl->name = tf_strndup(&f->arena, name, name_len);
	fl->type = tf_strndup(&f->arena, s, tn);
	if (!fl->name || !fl->type)
		return set_error(ENOMEM, "out of memory for a tracepoint format");
	if (strchr(fl->type, '[') && !STARTS_WITH(fl->type, "__data_loc") &&
	    !STARTS_WITH(fl->type, "__rel_loc"))
		array = true;
	fl->array_len = (uint32_t)dim;
	set_flags(fl, array, f->set ? f->set->long_size : sizeof(long));
	return 0;
}

/* "offset:N;" "size:N;" "signed:N;" after the declaration, in any order. */
static int parse_attrs(struct perfev_tp_format *f, struct perfev_tp_field *fl, const char *s,
		       size_t n, unsigned lineno)
{
	bool has_off = false, has_size = false;

	while (n) {
		const char *semi = memchr(s, ';', n), *colon;
		size_t len = semi ? (size_t)(semi - s) : n;
		const char *k = s;
		size_t kn = len;
		uint64_t v;

		s += semi ? len + 1 : len;
		n -= semi ? len + 1 : len;
		trim(&k, &kn);
		if (!kn)
			continue;
		colon = memchr(k, ':', kn);
		if (!colon)
			return bad(f, lineno, "a field attribute without ':'");
		const char *vs = colon + 1;
		size_t vn = kn - (size_t)(vs - k);

		trim(&vs, &vn);
		if (!parse_uint(vs, vn, TF_OFFSET_MAX, &v))
			return bad(f, lineno, "a field attribute that is not a number below 2^20");
		if ((size_t)(colon - k) == 6 && !memcmp(k, "offset", 6)) {
			fl->offset = (uint32_t)v;
			has_off = true;
		} else if ((size_t)(colon - k) == 4 && !memcmp(k, "size", 4)) {
			fl->size = (uint32_t)v;
			has_size = true;
		} else if ((size_t)(colon - k) == 6 && !memcmp(k, "signed", 6)) {
			if (v)
				fl->flags |= PERFEV_TP_FIELD_SIGNED;
		}
	}
	if (!has_off || !has_size)
		return bad(f, lineno, "a field without offset or size");
	return 0;
}

static int parse_field(struct perfev_tp_format *f, const char *s, size_t n, unsigned lineno)
{
	struct perfev_tp_field *fl;
	const char *semi = memchr(s, ';', n);
	int ret;

	if (!semi || memchr(s, ':', (size_t)(semi - s)))
		return bad(f, lineno, "a field declaration without ';'");
	if (f->nr_fields >= TF_FIELDS_MAX)
		return bad(f, lineno, "more than 1024 fields");
	if (!array_grow((void **)&f->fields, &f->cap_fields, f->nr_fields + 1, sizeof(*f->fields)))
		return set_error(ENOMEM, "out of memory for a tracepoint format");
	fl = &f->fields[f->nr_fields];
	memset(fl, 0, sizeof(*fl));
	ret = parse_attrs(f, fl, semi + 1, n - (size_t)(semi + 1 - s), lineno);
	if (!ret)
		ret = parse_decl(f, fl, s, (size_t)(semi - s), lineno);
	if (ret)
		return ret;
	f->nr_fields++;
	return 0;
}

static int parse_header(struct perfev_tp_format *f, const char *s, size_t n, unsigned lineno,
			bool *has_id)
{
	if (take_key(&s, &n, "name:")) {
		for (size_t i = 0; i < n; i++)
			if (!is_ident_char(s[i]) && s[i] != '-' && s[i] != '.')
				return bad(f, lineno, "an event name with other than letters, digits, "
						      "'_', '-' and '.'");
		if (!n)
			return bad(f, lineno, "an empty event name");
		f->name = tf_strndup(&f->arena, s, n);
		return f->name ? 0 : set_error(ENOMEM, "out of memory for a tracepoint format");
	}
	if (take_key(&s, &n, "ID:")) {
		if (!parse_uint(s, n, UINT32_MAX, &f->id))
			return bad(f, lineno, "an ID that is not a number");
		*has_id = true;
	}
	return 0;
}

int tf_format_parse(struct perfev_tp_format *f, const char *sys, const char *text, size_t len)
{
	struct line_reader lr = { text, text + len, 0 };
	bool in_fields = false, has_id = false;
	const char *s;
	size_t n;
	int ret;

	if (len > TF_TEXT_MAX)
		return set_error(PERFEV_ERR_FORMAT, "tracepoint format of system %s: %zu bytes, more "
				 "than the 1 MiB any kernel writes", sys, len);
	if (memchr(text, '\0', len))
		return set_error(PERFEV_ERR_FORMAT, "tracepoint format of system %s holds a NUL byte",
				 sys);
	f->sys = tf_strndup(&f->arena, sys, strlen(sys));
	if (!f->sys)
		return set_error(ENOMEM, "out of memory for a tracepoint format");
	while (next_line(&lr, &s, &n)) {
		const char *t = s;
		size_t tn = n;

		trim(&t, &tn);
		if (take_key(&t, &tn, "print fmt:")) {
			/* To the end: a TP_printk() with a raw newline in a string runs on. */
			tn = (size_t)(lr.end - t);
			trim(&t, &tn);
			f->print_fmt = tf_strndup(&f->arena, t, tn);
			if (!f->print_fmt)
				return set_error(ENOMEM, "out of memory for a tracepoint format");
			break;
		}
		if (in_fields && take_key(&t, &tn, "field:")) {
			if ((ret = parse_field(f, t, tn, lr.lineno)) < 0)
				return ret;
		} else if (!in_fields && !strncmp(t, "format:", tn > 7 ? 7 : tn) && tn == 7) {
			in_fields = true;
		} else if (!in_fields && (ret = parse_header(f, t, tn, lr.lineno, &has_id)) < 0) {
			return ret;
		}
	}
	if (!f->name || !has_id)
		return set_error(PERFEV_ERR_FORMAT, "tracepoint format of system %s has no %s line",
				 sys, f->name ? "ID:" : "name:");
	if (!f->print_fmt)
		f->print_fmt = "";
	return 0;
}
