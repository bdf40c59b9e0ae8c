/* SPDX-License-Identifier: MIT */
/* The print fmt parser's tokens and state, shared by lex.c, expr.c and printfmt.c. */
#ifndef PERFEV_TRACEFMT_PARSER_H
#define PERFEV_TRACEFMT_PARSER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tracefmt/tracefmt_int.h"

enum tok_kind { T_END, T_STR, T_CHAR, T_NUM, T_IDENT, T_OP, T_BAD };

struct tok {
	enum tok_kind kind;
	const char *s; /* its text (T_STR, T_CHAR: between the quotes) */
	size_t n;
};

struct parser {
	struct perfev_tp_format *f;
	const char *p, *end;
	struct tok cur;
	char err[160];
	size_t cap_nodes;
	unsigned depth;
};

/* Records why the print fmt cannot be used (the first reason only); returns false. */
bool pf_failed(struct parser *ps, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
bool pf_tok_is(const struct tok *t, const char *op);
/* Moves ps->cur to the next token. */
void pf_lex(struct parser *ps);
/* Steps over op, or fails. */
bool pf_expect(struct parser *ps, const char *op);
/* A new node of f (TF_NONE after failing: too many, out of memory). */
uint32_t pf_new_node(struct parser *ps, enum tf_kind kind);
int32_t pf_find_field(const struct perfev_tp_format *f, const char *name, size_t n);
/* A number token's value as strtoull(s, NULL, 0) reads it: suffixes ignored. */
uint64_t pf_num_value(const char *s, size_t n);
/* Adjacent string literals joined, kept in f's arena; NULL after failing. */
const char *pf_take_string(struct parser *ps);

/* One argument expression, as libtraceevent reads it (expr.c); TF_NONE after failing. */
uint32_t pf_expr(struct parser *ps);

#endif
