/* SPDX-License-Identifier: MIT */
/* The print fmt's tokens: strings, characters, numbers, names and C's operators. */
#include <ctype.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "util/internal.h"
#include "tracefmt/parser.h"

bool pf_failed(struct parser *ps, const char *fmt, ...)
{
	va_list ap;

	if (!ps->err[0]) {
		va_start(ap, fmt);
		vsnprintf(ps->err, sizeof(ps->err), fmt, ap);
		va_end(ap);
	}
	return false;
}

bool pf_tok_is(const struct tok *t, const char *op)
{
	return (t->kind == T_OP || t->kind == T_IDENT) && t->n == strlen(op) &&
	       !memcmp(t->s, op, t->n);
}

/* A quoted string or char from p (at the quote) to its closing quote. */
static void lex_quoted(struct parser *ps, char q, enum tok_kind kind)
{
	const char *s = ++ps->p;

	while (ps->p < ps->end && *ps->p != q) {
		if (*ps->p == '\\' && ps->p + 1 < ps->end)
			ps->p++;
		ps->p++;
	}
	if (ps->p >= ps->end) {
		ps->cur = (struct tok){ T_BAD, s, 0 };
		return;
	}
	ps->cur = (struct tok){ kind, s, (size_t)(ps->p - s) };
	ps->p++;
}

void pf_lex(struct parser *ps)
{
	static const char *const ops2[] = { "->", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||" };
	const char *s;

	while (ps->p < ps->end && isspace((unsigned char)*ps->p))
		ps->p++;
	s = ps->p;
	if (s >= ps->end) {
		ps->cur = (struct tok){ T_END, s, 0 };
		return;
	}
	if (*s == '"' || *s == '\'') {
		lex_quoted(ps, *s, *s == '"' ? T_STR : T_CHAR);
		return;
	}
	if (isalnum((unsigned char)*s) || *s == '_') {
		enum tok_kind k = isdigit((unsigned char)*s) ? T_NUM : T_IDENT;

		while (ps->p < ps->end && (isalnum((unsigned char)*ps->p) || *ps->p == '_'))
			ps->p++;
		ps->cur = (struct tok){ k, s, (size_t)(ps->p - s) };
		return;
	}
	for (size_t i = 0; i < ARRAY_SIZE(ops2); i++)
		if (ps->end - s >= 2 && !memcmp(s, ops2[i], 2)) {
			ps->p += 2;
			ps->cur = (struct tok){ T_OP, s, 2 };
			return;
		}
	if (strchr("+-*/%&|^~!<>?:=.()[]{},", *s)) {
		ps->p++;
		ps->cur = (struct tok){ T_OP, s, 1 };
		return;
	}
	ps->cur = (struct tok){ T_BAD, s, 1 };
}

uint32_t pf_new_node(struct parser *ps, enum tf_kind kind)
{
	struct perfev_tp_format *f = ps->f;

	if (f->nr_nodes >= TF_NODES_MAX) {
		pf_failed(ps, "more than %u expression nodes", TF_NODES_MAX);
		return TF_NONE;
	}
	if (!array_grow((void **)&f->nodes, &ps->cap_nodes, f->nr_nodes + 1, sizeof(*f->nodes))) {
		pf_failed(ps, "out of memory");
		return TF_NONE;
	}
	f->nodes[f->nr_nodes] = (struct tf_node){ .kind = (uint8_t)kind, .a = TF_NONE,
						  .b = TF_NONE, .c = TF_NONE, .field = -1 };
	return (uint32_t)f->nr_nodes++;
}

int32_t pf_find_field(const struct perfev_tp_format *f, const char *name, size_t n)
{
	for (size_t i = 0; i < f->nr_fields; i++)
		if (strlen(f->fields[i].name) == n && !memcmp(f->fields[i].name, name, n))
			return (int32_t)i;
	return -1;
}

/* The value of a number token as strtoull(s, NULL, 0) reads it: suffixes ignored. */
uint64_t pf_num_value(const char *s, size_t n)
{
	char buf[64];
	size_t k = n < sizeof(buf) - 1 ? n : sizeof(buf) - 1;

	memcpy(buf, s, k);
	buf[k] = '\0';
	return strtoull(buf, NULL, 0);
}

/* Adjacent string literals joined into one, as C joins them. */
const char *pf_take_string(struct parser *ps)
{
	size_t len = 0;
	char *s = NULL, *kept;

	for (; ps->cur.kind == T_STR; pf_lex(ps)) {
		char *n = realloc(s, len + ps->cur.n + 1);

		if (!n) {
			free(s);
			pf_failed(ps, "out of memory");
			return NULL;
		}
		s = n;
		memcpy(s + len, ps->cur.s, ps->cur.n);
		len += ps->cur.n;
	}
	kept = s ? tf_strndup(&ps->f->arena, s, len) : NULL;
	free(s);
	if (!kept)
		pf_failed(ps, "out of memory");
	return kept;
}

bool pf_expect(struct parser *ps, const char *op)
{
	if (!pf_tok_is(&ps->cur, op))
		return pf_failed(ps, "expected '%s' at \"%.20s\"", op, ps->cur.s);
	pf_lex(ps);
	return true;
}
