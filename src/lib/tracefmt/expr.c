/* SPDX-License-Identifier: MIT */
/*
 * A print fmt argument as perf's libtraceevent reads it.  Its reading is
 * not C's: an operator's right operand is one term, and a term that is
 * itself an operation (a parenthesised one, a unary one) is rotated into
 * the tree by the operators' priorities as if it had no parentheses, and an
 * operator that binds as tightly as the one before it goes to the right.
 * So timer_start's "REC->flags & (0x40000 | 0x80000 | ...)" is read as
 * "(REC->flags & 0x40000) | 0x80000 | ...".  perf prints what that reading
 * gives, and so must we to print what perf prints: this follows
 * libtraceevent's process_arg() and process_op() step by step.
 *
 * A term: a number, a string, REC->field, a helper call, a cast, a
 * parenthesised expression, or a unary operator (~ ! + -) on a term, which
 * takes the operators after it too.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "util/internal.h"
#include "tracefmt/parser.h"

static uint32_t term(struct parser *ps);
static bool op(struct parser *ps, uint32_t arg);

/* libtraceevent's get_op_prio(): lower binds tighter; -1 for what is not an operator. */
static int op_prio(const char *o)
{
	static const struct {
		const char *op;
		int prio;
	} table[] = { { "~", 4 },   { "!", 4 },	  { "*", 6 },	{ "/", 6 },   { "%", 6 },   { "+", 7 },
		      { "-", 7 },   { "<<", 8 },  { ">>", 8 },	{ "<", 9 },   { ">", 9 },   { "<=", 9 },
		      { ">=", 9 },  { "==", 10 }, { "!=", 10 }, { "&", 11 },  { "^", 12 },  { "|", 13 },
		      { "&&", 14 }, { "||", 15 }, { "?", 16 } };

	for (size_t i = 0; i < ARRAY_SIZE(table); i++)
		if (!strcmp(table[i].op, o))
			return table[i].prio;
	return -1;
}

/* The operator's text (at most two characters) into buf. */
static void tok_op(const struct tok *t, char buf[3])
{
	size_t n = t->n < 2 ? t->n : 2;

	memcpy(buf, t->s, n);
	buf[n] = '\0';
	if (t->n > 2)
		buf[0] = '\0';
}

/* The operators between two operands; ~ and ! only come before one. */
static bool is_binary(const struct tok *t)
{
	char o[3];
	int p;

	tok_op(t, o);
	p = op_prio(o);
	return t->kind == T_OP && p >= 6 && p <= 15;
}

/* An operator token that continues an expression (libtraceevent's TEP_EVENT_OP but ':'). */
static bool is_op_token(const struct tok *t)
{
	return t->kind == T_OP && !pf_tok_is(t, "(") && !pf_tok_is(t, ")") && !pf_tok_is(t, ",") &&
	       !pf_tok_is(t, ":");
}

/* Whether node n is an operation (libtraceevent's TEP_PRINT_OP) and its operator. */
static const char *node_op(const struct tf_node *x)
{
	switch (x->kind) {
	case N_BINARY:
		return x->op;
	case N_COND:
		return "?";
	case N_INDEX:
		return "[";
	default:
		return NULL;
	}
}

/* Moves node arg to a new index and returns that index: arg's place becomes an operation's. */
static uint32_t push_down(struct parser *ps, uint32_t arg)
{
	uint32_t left = pf_new_node(ps, N_NUM);

	if (left != TF_NONE)
		ps->f->nodes[left] = ps->f->nodes[arg];
	return left;
}

/* a ? b : c, with arg the condition; the else part is one term, as in libtraceevent. */
static bool op_cond(struct parser *ps, uint32_t arg)
{
	uint32_t cond = push_down(ps, arg), then, other;

	if (cond == TF_NONE)
		return false;
	ps->f->nodes[arg] = (struct tf_node){ .kind = N_COND, .a = cond, .b = TF_NONE,
					      .c = TF_NONE, .field = -1 };
	pf_lex(ps);
	then = term(ps);
	if (then == TF_NONE)
		return false;
	while (is_op_token(&ps->cur))
		if (!op(ps, then))
			return false;
	if (!pf_expect(ps, ":") || (other = term(ps)) == TF_NONE)
		return false;
	ps->f->nodes[arg].b = then;
	ps->f->nodes[arg].c = other;
	return true;
}

/* a[i]: the index is one term. */
static bool op_index(struct parser *ps, uint32_t arg)
{
	uint32_t arr = push_down(ps, arg), idx;

	if (arr == TF_NONE)
		return false;
	pf_lex(ps);
	idx = term(ps);
	if (idx == TF_NONE || !pf_expect(ps, "]"))
		return false;
	ps->f->nodes[arg] = (struct tf_node){ .kind = N_INDEX, .a = arr, .b = idx, .c = TF_NONE,
					      .field = -1 };
	return true;
}

/* a OP b, b one term; returns the node that holds the right side for what follows. */
static uint32_t op_binary(struct parser *ps, uint32_t arg, const struct tok *t)
{
	struct tf_node *n = ps->f->nodes;
	uint32_t left = push_down(ps, arg), right;
	const char *rop;

	if (left == TF_NONE)
		return TF_NONE;
	n = ps->f->nodes;
	n[arg] = (struct tf_node){ .kind = N_BINARY, .a = left, .b = TF_NONE, .c = TF_NONE,
				   .field = -1 };
	memcpy(n[arg].op, t->s, t->n);
	n[arg].prio = (int8_t)op_prio(n[arg].op);
	right = term(ps);
	if (right == TF_NONE)
		return TF_NONE;
	n = ps->f->nodes;
	rop = node_op(&n[right]);
	if (rop && op_prio(n[arg].op) < op_prio(rop)) {
		/* libtraceevent's rotation: the right operation's left side becomes ours. */
		struct tf_node tmp;

		n[arg].b = n[right].a;
		tmp = n[arg];
		n[arg] = n[right];
		n[right] = tmp;
		n[arg].a = right;
	} else {
		n[arg].b = right;
	}
	return right;
}

/* libtraceevent's process_op(): the operator at ps->cur applied to arg, and those after it. */
static bool op(struct parser *ps, uint32_t arg)
{
	struct tok t = ps->cur;
	uint32_t right = TF_NONE;

	if (++ps->depth > TF_DEPTH_MAX)
		return pf_failed(ps, "expressions nested deeper than %u", TF_DEPTH_MAX);
	if (pf_tok_is(&t, "?")) {
		if (!op_cond(ps, arg))
			return false;
	} else if (pf_tok_is(&t, "[")) {
		if (!op_index(ps, arg))
			return false;
	} else if (is_binary(&t)) {
		pf_lex(ps);
		right = op_binary(ps, arg, &t);
		if (right == TF_NONE)
			return false;
	} else {
		return pf_failed(ps, "unknown operator '%.*s'", (int)t.n, t.s);
	}
	if (is_op_token(&ps->cur)) {
		char next[3];
		bool ok;

		tok_op(&ps->cur, next);
		/* An operator binding less tightly takes the whole; one binding as tightly or more, the right. */
		if (op_prio(next) > ps->f->nodes[arg].prio)
			ok = op(ps, arg);
		else if (right != TF_NONE)
			ok = op(ps, right);
		else
			ok = pf_failed(ps, "unknown operator '%s'", next);
		ps->depth--;
		return ok;
	}
	ps->depth--;
	return true;
}

uint32_t pf_expr(struct parser *ps)
{
	uint32_t t = term(ps);

	if (t != TF_NONE && is_op_token(&ps->cur) && !op(ps, t))
		return TF_NONE;
	return t;
}

/* ~x, !x, +x, -x: 0 OP x in libtraceevent, and the operators after it too. */
static uint32_t unary(struct parser *ps)
{
	uint32_t n = pf_new_node(ps, N_BINARY), v;

	if (n == TF_NONE)
		return n;
	ps->f->nodes[n].op[0] = ps->cur.s[0];
	pf_lex(ps);
	v = term(ps);
	if (v == TF_NONE)
		return TF_NONE;
	ps->f->nodes[n].b = v;
	if (is_op_token(&ps->cur) && !op(ps, n))
		return TF_NONE;
	return n;
}

/* REC->field, at "REC". */
static uint32_t rec_field(struct parser *ps)
{
	uint32_t n;

	pf_lex(ps);
	if (!pf_expect(ps, "->") || ps->cur.kind != T_IDENT) {
		pf_failed(ps, "expected REC->field");
		return TF_NONE;
	}
	n = pf_new_node(ps, N_FIELD);
	if (n != TF_NONE)
		ps->f->nodes[n].field = pf_find_field(ps->f, ps->cur.s, ps->cur.n);
	pf_lex(ps);
	return n;
}

/* Whether node n is made of constants only (flag and symbol values must be). */
static bool is_constant(const struct perfev_tp_format *f, uint32_t n, unsigned depth)
{
	const struct tf_node *x;

	if (n == TF_NONE)
		return true; /* the empty left side of a unary operator */
	x = &f->nodes[n];
	if (depth > TF_DEPTH_MAX)
		return false;
	switch (x->kind) {
	case N_NUM:
		return true;
	case N_CAST:
		return is_constant(f, x->a, depth + 1);
	case N_BINARY:
		return is_constant(f, x->a, depth + 1) && is_constant(f, x->b, depth + 1);
	case N_COND:
		return is_constant(f, x->a, depth + 1) && is_constant(f, x->b, depth + 1) &&
		       is_constant(f, x->c, depth + 1);
	default:
		return false;
	}
}

/* The field named as the only argument of __get_str(NAME) and its kin. */
static uint32_t field_func(struct parser *ps, enum tf_kind kind, bool must_exist)
{
	uint32_t n = pf_new_node(ps, kind);

	if (n == TF_NONE)
		return n;
	if (ps->cur.kind != T_IDENT) {
		pf_failed(ps, "a field name expected");
		return TF_NONE;
	}
	ps->f->nodes[n].field = pf_find_field(ps->f, ps->cur.s, ps->cur.n);
	if (must_exist && ps->f->nodes[n].field < 0) {
		pf_failed(ps, "no field '%.*s'", (int)ps->cur.n, ps->cur.s);
		return TF_NONE;
	}
	pf_lex(ps);
	return pf_expect(ps, ")") ? n : TF_NONE;
}

/* A symbol's text: a string, or a constant (NULL ends the kernel's tables) taken as its number. */
static bool sym_text(struct parser *ps, struct tf_sym *sym)
{
	char num[24];
	uint32_t v;

	if (ps->cur.kind == T_STR)
		return (sym->str = pf_take_string(ps)) != NULL;
	v = term(ps);
	if (v == TF_NONE || !is_constant(ps->f, v, 0))
		return pf_failed(ps, "a { value, \"text\" } pair expected");
	snprintf(num, sizeof(num), "%lld", (long long)tf_eval_num(ps->f, v, NULL, 0, 0));
	sym->str = tf_strndup(&ps->f->arena, num, strlen(num));
	return sym->str || pf_failed(ps, "out of memory");
}

/* A symbol's value: evaluated once, here, as perf does; one perf cannot evaluate never matches. */
static bool sym_value(struct parser *ps, struct tf_sym *sym)
{
	static const struct {
		const char *name;
		uint64_t value;
	} known[] = { /* the names perf's libtraceevent knows */
		{ "HI_SOFTIRQ", 0 },	  { "TIMER_SOFTIRQ", 1 },    { "NET_TX_SOFTIRQ", 2 },
		{ "NET_RX_SOFTIRQ", 3 },  { "BLOCK_SOFTIRQ", 4 },    { "IRQ_POLL_SOFTIRQ", 5 },
		{ "TASKLET_SOFTIRQ", 6 }, { "SCHED_SOFTIRQ", 7 },    { "HRTIMER_SOFTIRQ", 8 },
		{ "RCU_SOFTIRQ", 9 },	  { "HRTIMER_NORESTART", 0 }, { "HRTIMER_RESTART", 1 },
	};
	uint32_t v;

	if (ps->cur.kind == T_IDENT && !pf_tok_is(&ps->cur, "sizeof") &&
	    !pf_tok_is(&ps->cur, "REC")) {
		for (size_t i = 0; i < ARRAY_SIZE(known); i++)
			if (strlen(known[i].name) == ps->cur.n &&
			    !memcmp(known[i].name, ps->cur.s, ps->cur.n)) {
				sym->value = known[i].value;
				sym->valid = true;
			}
		pf_lex(ps);
		return true;
	}
	v = pf_expr(ps);
	if (v == TF_NONE)
		return false;
	sym->valid = is_constant(ps->f, v, 0);
	sym->value = sym->valid ? tf_eval_num(ps->f, v, NULL, 0, 0) : 0;
	sym->valid = sym->valid && (int64_t)sym->value >= 0;
	return true;
}

/* { value, "text" }, ... ) of __print_flags and __print_symbolic. */
static bool syms(struct parser *ps, uint32_t node)
{
	struct tf_sym *list = NULL;
	size_t nr = 0, cap = 0;

	while (pf_tok_is(&ps->cur, "{")) {
		struct tf_sym sym = { 0 };

		pf_lex(ps);
		if (pf_tok_is(&ps->cur, "}")) { /* an empty table: nothing matches */
			pf_lex(ps);
			break;
		}
		if (!sym_value(ps, &sym) || !pf_expect(ps, ",") || !sym_text(ps, &sym) ||
		    !pf_expect(ps, "}"))
			goto fail;
		if (nr >= TF_SYMS_MAX || !array_grow((void **)&list, &cap, nr + 1, sizeof(*list))) {
			pf_failed(ps, "too many flags or symbols");
			goto fail;
		}
		list[nr++] = sym;
		if (!pf_tok_is(&ps->cur, ","))
			break;
		pf_lex(ps);
	}
	if (!pf_expect(ps, ")"))
		goto fail;
	if (nr) {
		struct tf_sym *kept = tf_alloc(&ps->f->arena, nr * sizeof(*kept));

		if (!kept)
			goto fail;
		memcpy(kept, list, nr * sizeof(*kept));
		ps->f->nodes[node].syms = kept;
		ps->f->nodes[node].nr_syms = (uint32_t)nr;
	}
	free(list);
	return true;
fail:
	free(list);
	return pf_failed(ps, "bad flags or symbols");
}

static uint32_t print_flags(struct parser *ps, enum tf_kind kind)
{
	uint32_t n = pf_new_node(ps, kind), v;

	if (n == TF_NONE || (v = pf_expr(ps)) == TF_NONE || !pf_expect(ps, ","))
		return TF_NONE;
	ps->f->nodes[n].a = v;
	if (kind == N_FLAGS && ps->cur.kind == T_STR) {
		if (!(ps->f->nodes[n].str = pf_take_string(ps)) || !pf_expect(ps, ","))
			return TF_NONE;
	}
	return syms(ps, n) ? n : TF_NONE;
}

/* Arguments of a helper taking expressions: __print_hex(a, b), __print_array(a, b, c). */
static uint32_t args_n(struct parser *ps, enum tf_kind kind, unsigned nr)
{
	uint32_t n = pf_new_node(ps, kind), v[3] = { TF_NONE, TF_NONE, TF_NONE };

	if (n == TF_NONE)
		return n;
	for (unsigned i = 0; i < nr; i++) {
		v[i] = pf_expr(ps);
		if (v[i] == TF_NONE || !pf_expect(ps, i + 1 < nr ? "," : ")"))
			return TF_NONE;
	}
	ps->f->nodes[n].a = v[0];
	ps->f->nodes[n].b = v[1];
	ps->f->nodes[n].c = v[2];
	return n;
}

/* sizeof(TYPE) or sizeof(REC->field), for the types perf knows. */
static uint32_t size_of(struct parser *ps)
{
	static const struct {
		const char *name;
		uint64_t size;
	} types[] = { { "int", 4 },   { "u64", 8 },   { "s64", 8 },	{ "__u64", 8 }, { "__s64", 8 },
		      { "u32", 4 },   { "s32", 4 },   { "__u32", 4 }, { "__s32", 4 }, { "u16", 2 },
		      { "s16", 2 },   { "__u16", 2 }, { "__s16", 2 }, { "u8", 1 },	{ "s8", 1 },
		      { "__u8", 1 } };
	uint32_t n = pf_new_node(ps, N_NUM);
	uint64_t size = 0;
	bool ok = false;

	if (n == TF_NONE)
		return n;
	if (pf_tok_is(&ps->cur, "unsigned"))
		pf_lex(ps);
	if (pf_tok_is(&ps->cur, "long")) {
		pf_lex(ps);
		size = pf_tok_is(&ps->cur, "long") ? 8 : ps->f->set->long_size;
		if (pf_tok_is(&ps->cur, "long"))
			pf_lex(ps);
		ok = true;
	} else if (pf_tok_is(&ps->cur, "REC")) {
		uint32_t fnode = rec_field(ps);

		if (fnode != TF_NONE && ps->f->nodes[fnode].field >= 0) {
			size = ps->f->fields[ps->f->nodes[fnode].field].size;
			ok = true;
		}
	} else if (pf_tok_is(&ps->cur, ")")) {
		size = 4; /* "unsigned" alone */
		ok = true;
	} else {
		for (size_t i = 0; i < ARRAY_SIZE(types) && !ok; i++)
			if (pf_tok_is(&ps->cur, types[i].name)) {
				size = types[i].size;
				ok = true;
				pf_lex(ps);
			}
	}
	if (!ok || !pf_expect(ps, ")")) {
		pf_failed(ps, "sizeof of a type perf does not know");
		return TF_NONE;
	}
	ps->f->nodes[n].val = size;
	return n;
}

static uint32_t function(struct parser *ps, const char *name, size_t len)
{
	static const struct {
		const char *name;
		enum tf_kind kind;
		bool must_exist;
	} field_funcs[] = {
		{ "__get_str", N_GET_STR, false },
		{ "__get_rel_str", N_GET_STR, false },
		{ "__get_bitmask", N_BITMASK, false },
		{ "__get_rel_bitmask", N_BITMASK, false },
		{ "__get_cpumask", N_CPUMASK, false },
		{ "__get_rel_cpumask", N_CPUMASK, false },
		{ "__get_dynamic_array", N_DYN_ARRAY, true },
		{ "__get_rel_dynamic_array", N_DYN_ARRAY, true },
		{ "__get_sockaddr", N_DYN_ARRAY, true },
		{ "__get_sockaddr_rel", N_DYN_ARRAY, true },
		{ "__get_dynamic_array_len", N_DYN_LEN, true },
		{ "__get_rel_dynamic_array_len", N_DYN_LEN, true },
	};
	struct tok t = { T_IDENT, name, len };

	for (size_t i = 0; i < ARRAY_SIZE(field_funcs); i++)
		if (pf_tok_is(&t, field_funcs[i].name))
			return field_func(ps, field_funcs[i].kind, field_funcs[i].must_exist);
	if (pf_tok_is(&t, "__print_flags") || pf_tok_is(&t, "__print_flags_u64"))
		return print_flags(ps, N_FLAGS);
	if (pf_tok_is(&t, "__print_symbolic") || pf_tok_is(&t, "__print_symbolic_u64"))
		return print_flags(ps, N_SYMBOLIC);
	if (pf_tok_is(&t, "__print_hex"))
		return args_n(ps, N_HEX, 2);
	if (pf_tok_is(&t, "__print_hex_str"))
		return args_n(ps, N_HEX_STR, 2);
	if (pf_tok_is(&t, "__print_array"))
		return args_n(ps, N_INT_ARRAY, 3);
	if (pf_tok_is(&t, "sizeof"))
		return size_of(ps);
	if (pf_tok_is(&t, "__builtin_expect")) {
		uint32_t v = term(ps);

		if (v == TF_NONE || !pf_expect(ps, ","))
			return TF_NONE;
		pf_lex(ps); /* the expected value */
		return pf_expect(ps, ")") ? v : TF_NONE;
	}
	pf_failed(ps, "function %.*s is not defined", (int)len, name);
	return TF_NONE;
}

/* After "(": a cast is a type ("unsigned long", "char *") closed by ')' before a term. */
static bool looks_like_cast(const struct parser *ps)
{
	struct parser la = *ps;
	bool ident = false;

	while (la.cur.kind == T_IDENT && !pf_tok_is(&la.cur, "REC")) {
		ident = true;
		pf_lex(&la);
	}
	while (pf_tok_is(&la.cur, "*"))
		pf_lex(&la);
	if (!ident || !pf_tok_is(&la.cur, ")"))
		return false;
	pf_lex(&la);
	return la.cur.kind == T_IDENT || la.cur.kind == T_NUM || la.cur.kind == T_STR ||
	       la.cur.kind == T_CHAR || pf_tok_is(&la.cur, "(");
}

/* After "(": "REC)->", which libtraceevent reads as REC->; leaves the parser at "REC". */
static bool rec_in_parens(struct parser *ps)
{
	struct parser la = *ps;

	if (!pf_tok_is(&la.cur, "REC"))
		return false;
	pf_lex(&la);
	if (!pf_tok_is(&la.cur, ")"))
		return false;
	pf_lex(&la);
	if (!pf_tok_is(&la.cur, "->"))
		return false;
	ps->cur = (struct tok){ T_IDENT, "REC", 3 };
	ps->p = la.cur.s;
	return true;
}

/* (TYPE) term: the type's words joined by single spaces, as libtraceevent keeps them. */
static uint32_t cast(struct parser *ps)
{
	uint32_t n = pf_new_node(ps, N_CAST), v;
	char type[64];
	size_t tl = 0;

	if (n == TF_NONE)
		return n;
	while (!pf_tok_is(&ps->cur, ")")) {
		if (tl && tl < sizeof(type) - 1)
			type[tl++] = ' ';
		for (size_t i = 0; i < ps->cur.n && tl < sizeof(type) - 1; i++)
			type[tl++] = ps->cur.s[i];
		pf_lex(ps);
	}
	type[tl] = '\0';
	pf_lex(ps);
	ps->f->nodes[n].str = tf_strndup(&ps->f->arena, type, tl);
	v = term(ps);
	if (v == TF_NONE || !ps->f->nodes[n].str)
		return TF_NONE;
	ps->f->nodes[n].a = v;
	return n;
}

static uint32_t paren(struct parser *ps)
{
	uint32_t n;

	pf_lex(ps);
	if (rec_in_parens(ps))
		return rec_field(ps);
	if (looks_like_cast(ps))
		return cast(ps);
	n = pf_expr(ps);
	return n != TF_NONE && pf_expect(ps, ")") ? n : TF_NONE;
}

static uint32_t number(struct parser *ps, uint64_t v)
{
	uint32_t n = pf_new_node(ps, N_NUM);

	if (n != TF_NONE)
		ps->f->nodes[n].val = v;
	pf_lex(ps);
	return n;
}

static uint32_t term_inner(struct parser *ps)
{
	struct tok t = ps->cur;
	uint32_t n;

	switch (t.kind) {
	case T_NUM:
		return number(ps, pf_num_value(t.s, t.n));
	case T_CHAR:
		/* libtraceevent reads a char constant's text as a number: 0 unless a digit. */
		return number(ps, t.n && isdigit((unsigned char)*t.s) ? pf_num_value(t.s, t.n) : 0);
	case T_STR:
		n = pf_new_node(ps, N_STR);
		if (n != TF_NONE && !(ps->f->nodes[n].str = pf_take_string(ps)))
			return TF_NONE;
		return n;
	case T_IDENT:
		if (pf_tok_is(&t, "REC"))
			return rec_field(ps);
		pf_lex(ps);
		if (pf_tok_is(&ps->cur, "(")) {
			pf_lex(ps);
			return function(ps, t.s, t.n);
		}
		/* A name without a value (an enum the kernel did not resolve): 0, as perf has it. */
		n = pf_new_node(ps, N_NUM);
		while (ps->cur.kind == T_IDENT)
			pf_lex(ps);
		return n;
	case T_OP:
		if (pf_tok_is(&t, "("))
			return paren(ps);
		if (t.n == 1 && strchr("~!+-", t.s[0]))
			return unary(ps);
		break;
	default:
		break;
	}
	pf_failed(ps, "unexpected \"%.20s\"", t.s);
	return TF_NONE;
}

static uint32_t term(struct parser *ps)
{
	uint32_t n;

	if (++ps->depth > TF_DEPTH_MAX) {
		pf_failed(ps, "expressions nested deeper than %u", TF_DEPTH_MAX);
		return TF_NONE;
	}
	n = term_inner(ps);
	ps->depth--;
	return n;
}
