/* SPDX-License-Identifier: MIT */
/*
 * A DSO's symbol table as a loader builds it: names interned in the DSO's
 * arena, symbols gathered by a builder that sorts them and settles which
 * of several names at one address to keep, and the reason a DSO has no
 * symbols.  The bottom of the symbol files: the loaders (elf.c, jit.c,
 * kallsyms.c) and the demangler use it, it uses nothing of theirs.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "util/internal.h"
#include "symbols/symbols_int.h"

/* ---- string arena ---- */

struct arena_chunk {
	struct arena_chunk *next;
	size_t size;
	_Alignas(16) unsigned char data[];
};

#define ARENA_CHUNK (64u << 10)

void *arena_alloc(struct arena *a, size_t size)
{
	size_t need = (size + 15) & ~(size_t)15;

	if (need < size)
		return NULL;
	if (!a->head || a->cap - a->used < need) {
		size_t cap = need > ARENA_CHUNK ? need : ARENA_CHUNK, total;
		struct arena_chunk *c;

		if (!size_add_ok(cap, sizeof(*c), &total))
			return NULL;
		c = malloc(total);
		if (!c)
			return NULL;
		c->size = cap;
		if (a->head && need > ARENA_CHUNK && a->cap - a->used > 1024) {
			/* A big one-off: keep filling the current chunk afterwards. */
			c->next = a->head->next;
			a->head->next = c;
			return c->data;
		}
		c->next = a->head;
		a->head = c;
		a->used = 0;
		a->cap = cap;
	}
	void *p = a->head->data + a->used;

	a->used += need;
	return p;
}

char *arena_strndup(struct arena *a, const char *s, size_t len)
{
	char *p;

	if (len == SIZE_MAX)
		return NULL;
	p = arena_alloc(a, len + 1);
	if (!p)
		return NULL;
	memcpy(p, s, len);
	p[len] = 0;
	return p;
}

void arena_free(struct arena *a)
{
	struct arena_chunk *c = a->head;

	while (c) {
		struct arena_chunk *n = c->next;

		free(c);
		c = n;
	}
	a->head = NULL;
	a->used = a->cap = 0;
}

/* ---- symbol tables ---- */

int sym_builder__add(struct sym_builder *b, uint64_t start, uint64_t size, const char *name,
		     size_t name_len, unsigned prio)
{
	if (b->n == b->cap) {
		size_t cap = b->cap ? b->cap * 2 : 256, bytes;
		struct perfev_symbol *s;
		unsigned char *p;

		if (!size_mul_ok(cap, sizeof(*s), &bytes))
			return -ENOMEM;
		s = realloc(b->syms, bytes);
		if (!s)
			return -ENOMEM;
		b->syms = s;
		p = realloc(b->prio, cap);
		if (!p)
			return -ENOMEM;
		b->prio = p;
		b->cap = cap;
	}
	char *n = arena_strndup(&b->d->names, name, name_len);

	if (!n)
		return -ENOMEM;
	b->syms[b->n] = (struct perfev_symbol){ .start = start, .size = size, .raw_name = n };
	b->prio[b->n] = (unsigned char)(prio > 255 ? 255 : prio);
	b->n++;
	return 0;
}

/* Sorting carries the priority along: sort indexes, then permute. */
struct sym_sort {
	struct perfev_symbol s;
	unsigned char prio;
	bool last_wins; /* the builder's */
	bool primary;	/* an exported name a local alias spells out (__cosf: cosf, not cosf32) */
	size_t idx;	/* the order added */
};

static size_t leading_underscores(const char *s)
{
	size_t n = 0;

	while (s[n] == '_')
		n++;
	return n;
}

/* Is a a better name than b for one address?  perf's order: prio (binding), underscores, length. */
static bool better(const struct sym_sort *a, const struct sym_sort *b)
{
	size_t ua, ub, la, lb;

	if ((a->s.size != 0) != (b->s.size != 0))
		return a->s.size != 0;
	if (a->prio != b->prio)
		return a->prio > b->prio;
	ua = leading_underscores(a->s.raw_name);
	ub = leading_underscores(b->s.raw_name);
	if (ua != ub)
		return ua < ub;
	if (a->primary != b->primary)
		return a->primary;
	la = strlen(a->s.raw_name);
	lb = strlen(b->s.raw_name);
	if (la != lb)
		return la > lb;
	/* perf keeps the first of the table (its tie goes to the symbol met first). */
	return a->idx < b->idx;
}

/*
 * A glibc name without its internal prefixes and suffix, as perf's name
 * and the exported one compare: __GI___libc_open, __libc_open and __open
 * are open, __cosf_ifunc is cosf, libm's wrapper __wrap_scalbn is scalbn.
 * *len: its length.
 */
static const char *core_name(const char *n, size_t *len)
{
	if (!strncmp(n, "__GI_", 5))
		n += 5;
	n += leading_underscores(n);
	if (!strncmp(n, "libc_", 5) || !strncmp(n, "wrap_", 5))
		n += 5;
	n += leading_underscores(n);
	*len = strlen(n);
	if (*len > 6 && !strcmp(n + *len - 6, "_ifunc"))
		*len -= 6;
	return n;
}

/* perf's choice of two names for one address (choose_best_symbol): whether a beats b. */
static bool perf_better(const struct sym_sort *a, const struct sym_sort *b)
{
	size_t ua, ub, la, lb;

	if ((a->s.size != 0) != (b->s.size != 0))
		return a->s.size != 0;
	if ((a->prio == 2) != (b->prio == 2))
		return b->prio == 2; /* non-weak over weak */
	if ((a->prio == 3) != (b->prio == 3))
		return a->prio == 3; /* global over local */
	ua = leading_underscores(a->s.raw_name);
	ub = leading_underscores(b->s.raw_name);
	if (ua != ub)
		return ua < ub;
	la = strlen(a->s.raw_name);
	lb = strlen(b->s.raw_name);
	if (la != lb)
		return la > lb;
	return a->idx < b->idx;
}

/*
 * Marks, where a function's best names are weak, those that are the name
 * perf would show without glibc's prefixes: perf prefers any non-weak name
 * to a weak one, so it shows a local alias (__GI___libc_open, __cosf_ifunc),
 * and the weak name it stands for (open, not open64; cosf, not cosf32) is
 * the one to prefer among the weak names.  Among global names perf's rules
 * stand.  t is sorted by start.
 */
static void mark_primary(struct sym_sort *t, size_t n)
{
	for (size_t i = 0, j; i < n; i = j) {
		size_t perf = i, clen;
		const char *c;

		for (j = i + 1; j < n && t[j].s.start == t[i].s.start; j++)
			if (perf_better(&t[j], &t[perf]))
				perf = j;
		if (j - i < 2 || t[perf].prio != 1)
			continue;
		c = core_name(t[perf].s.raw_name, &clen);
		for (size_t a = i; a < j; a++)
			t[a].primary = t[a].prio == 2 && strlen(t[a].s.raw_name) == clen &&
				       !memcmp(t[a].s.raw_name, c, clen);
	}
}

static int cmp_start(const void *pa, const void *pb)
{
	const struct sym_sort *a = pa, *b = pb;

	if (a->s.start != b->s.start)
		return a->s.start < b->s.start ? -1 : 1;
	return a->idx < b->idx ? -1 : a->idx > b->idx;
}

static int cmp_sort(const void *pa, const void *pb)
{
	const struct sym_sort *a = pa, *b = pb;

	if (a->s.start != b->s.start)
		return a->s.start < b->s.start ? -1 : 1;
	if (a->last_wins)
		return a->idx > b->idx ? -1 : a->idx < b->idx;
	/* Best first, so dedup keeps the first of each run. */
	if (better(a, b))
		return -1;
	if (better(b, a))
		return 1;
	return 0;
}

int sym_builder__finish(struct sym_builder *b, uint64_t last_end)
{
	struct perfev_dso *d = b->d;
	struct sym_sort *t;
	size_t n = 0, bytes;

	if (!b->n) {
		sym_builder__abort(b);
		return 0;
	}
	if (!size_mul_ok(b->n, sizeof(*t), &bytes) || !(t = malloc(bytes))) {
		sym_builder__abort(b);
		return -ENOMEM;
	}
	for (size_t i = 0; i < b->n; i++)
		t[i] = (struct sym_sort){ b->syms[i], b->prio[i], b->last_wins, false, i };
	if (!b->last_wins) {
		sort_array(t, b->n, sizeof(*t), cmp_start);
		mark_primary(t, b->n);
	}
	sort_array(t, b->n, sizeof(*t), cmp_sort);
	uint64_t sized_end = 0;

	for (size_t i = 0; i < b->n; i++) {
		if (n && t[i].s.start == b->syms[n - 1].start)
			continue; /* an alias of the one kept */
		/* A code label (prio 0) inside a sized function is part of it, not a symbol of its own. */
		if (t[i].prio == 0 && t[i].s.start < sized_end)
			continue;
		b->syms[n++] = t[i].s;
		if (t[i].s.size && t[i].s.start + t[i].s.size > sized_end)
			sized_end = t[i].s.start + t[i].s.size;
	}
	free(t);
	for (size_t i = 0; i < n; i++) {
		struct perfev_symbol *s = &b->syms[i];

		if (s->size)
			continue;
		if (i + 1 < n)
			s->size = b->syms[i + 1].start - s->start;
		else if (last_end > s->start)
			s->size = last_end - s->start;
	}
	free(b->prio);
	d->syms = n < b->cap / 2 ? realloc(b->syms, n * sizeof(*b->syms)) : b->syms;
	if (!d->syms)
		d->syms = b->syms;
	d->nsyms = n;
	b->syms = NULL;
	b->prio = NULL;
	b->n = b->cap = 0;
	return 0;
}

void sym_builder__abort(struct sym_builder *b)
{
	free(b->syms);
	free(b->prio);
	b->syms = NULL;
	b->prio = NULL;
	b->n = b->cap = 0;
}

/* ---- why a DSO has no symbols ---- */

void dso__set_error(struct perfev_dso *d, int err, const char *fmt, ...)
{
	char buf[2048];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	set_error(err, "%s", buf);
	pr_debug("symbols: %s\n", buf);
	if (!d->error)
		d->error = strdup(buf); /* NULL on ENOMEM: perfev_dso__error() says so then */
}
