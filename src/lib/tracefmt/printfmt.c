/* SPDX-License-Identifier: MIT */
/*
 * A print fmt into what printing needs: the format string cut into literal
 * texts and conversions, and each conversion's argument as a tree of
 * nodes.  The language is the C the kernel's TP_printk() expands to, as
 * perf's libtraceevent reads it: REC->field, casts, the arithmetic and
 * logical operators, ?:, and the helpers __print_flags, __print_symbolic,
 * __get_str, __get_dynamic_array(_len), __get_bitmask, __print_hex(_str),
 * __print_array, sizeof and __builtin_expect.  A print fmt that uses anything
 * else is not an error of the file: the format keeps its fields and says
 * why its print fmt is not used, as perf marks such events.
 */
#include <stdlib.h>
#include <string.h>

#include "util/internal.h"
#include "tracefmt/parser.h"

/* The format string: adjacent literals joined, escapes kept for the piece splitter. */
static char *parse_format_string(struct parser *ps)
{
	size_t len = 0, cap = 0;
	char *s = NULL;

	if (ps->cur.kind != T_STR) {
		pf_failed(ps, "the print fmt does not start with a string");
		return NULL;
	}
	while (ps->cur.kind == T_STR) {
		if (!array_grow((void **)&s, &cap, len + ps->cur.n + 1, 1)) {
			free(s);
			pf_failed(ps, "out of memory");
			return NULL;
		}
		memcpy(s + len, ps->cur.s, ps->cur.n);
		len += ps->cur.n;
		s[len] = '\0';
		pf_lex(ps);
	}
	return s;
}

/* Pieces of the format string (pieces.c). */
bool tf_split_format(struct perfev_tp_format *f, const char *fmt, const uint32_t *args,
		     size_t nr_args, char *err, size_t err_size);

int tf_print_parse(struct perfev_tp_format *f)
{
	struct parser ps = { .f = f, .p = f->print_fmt, .end = f->print_fmt + strlen(f->print_fmt) };
	uint32_t *args = NULL;
	size_t nr = 0, cap = 0;
	char *fmt;
	bool ok = false;

	pf_lex(&ps);
	fmt = parse_format_string(&ps);
	if (!fmt)
		goto out;
	while (pf_tok_is(&ps.cur, ",")) {
		uint32_t a;

		pf_lex(&ps);
		a = pf_expr(&ps);
		if (a == TF_NONE)
			goto out;
		if (!array_grow((void **)&args, &cap, nr + 1, sizeof(*args))) {
			pf_failed(&ps, "out of memory");
			goto out;
		}
		args[nr++] = a;
	}
	if (ps.cur.kind != T_END) {
		pf_failed(&ps, "unexpected \"%.20s\" after the arguments", ps.cur.s);
		goto out;
	}
	ok = tf_split_format(f, fmt, args, nr, ps.err, sizeof(ps.err));
out:
	free(fmt);
	free(args);
	if (!ok) {
		if (!strcmp(ps.err, "out of memory"))
			return set_error(ENOMEM, "out of memory for the print fmt of %s:%s", f->sys,
					 f->name);
		f->print_error = tf_strndup(&f->arena, ps.err[0] ? ps.err : "cannot be parsed",
					    strlen(ps.err[0] ? ps.err : "cannot be parsed"));
		f->nr_pieces = 0;
		if (!f->print_error)
			return set_error(ENOMEM, "out of memory for the print fmt of %s:%s", f->sys,
					 f->name);
	}
	return 0;
}
