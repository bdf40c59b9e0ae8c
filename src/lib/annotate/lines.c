/* SPDX-License-Identifier: MIT */
/*
 * Per-source-line totals of an annotation.  An instruction of inlined code
 * counts for the line it executes in the callee's own file (its self) and,
 * through its inline chain, for every call site that brought it there (the
 * callers' totals): so a helper's hot line shows in the helper's header,
 * and the caller's line that calls it shows the helper's cost as its own.
 */
#include <stdlib.h>
#include <string.h>

#include "util/internal.h"
#include "util/idxhash.h"
#include "annotate/annotate_int.h"

struct line_key {
	const struct perfev_annotate_line *lines;
	const char *file;
	uint32_t line;
};

static bool line_eq(const void *ctx, uint32_t idx)
{
	const struct line_key *k = ctx;
	const struct perfev_annotate_line *l = &k->lines[idx];

	return l->where.line == k->line && !strcmp(l->where.file, k->file);
}

struct line_builder {
	struct perfev_annotation *a;
	struct idxhash index;
	size_t cap;
};

/* The line of (file, line), made when new; NULL on ENOMEM. */
static struct perfev_annotate_line *line_get(struct line_builder *b, const struct perfev_srcline *w,
					     const char *function, bool inlined, uint32_t *idx)
{
	struct perfev_annotation *a = b->a;
	struct line_key k = { a->lines, w->file, w->line };
	uint64_t hash = hash_mix(hash_str(w->file), w->line);
	int64_t i = idxhash_find(&b->index, hash, line_eq, &k);

	if (i < 0) {
		if (a->nr_lines >= UINT32_MAX - 1 ||
		    !array_grow((void **)&a->lines, &b->cap, a->nr_lines + 1, sizeof(*a->lines)) ||
		    idxhash_insert(&b->index, hash, (uint32_t)a->nr_lines))
			return NULL;
		i = (int64_t)a->nr_lines++;
		a->lines[i] = (struct perfev_annotate_line){ .where = *w, .function = function,
							     .inlined = inlined };
	} else if (!inlined && a->lines[i].inlined) {
		/* A line both of the function and of code inlined into it is the function's. */
		a->lines[i].inlined = false;
		a->lines[i].function = function;
	}
	*idx = (uint32_t)i;
	return &a->lines[i];
}

static bool known(const struct perfev_srcline *w)
{
	return w->file && w->line;
}

/* Counts instruction i for its innermost line (self) and each distinct line of its chain (total). */
static int count_insn(struct line_builder *b, size_t i)
{
	struct perfev_annotation *a = b->a;
	struct perfev_annotate_insn *in = &a->insns[i];
	/* Lines already counted for this instruction: a chain is short, a linear check is enough. */
	uint32_t seen[64];
	size_t nseen = 0;
	uint32_t n = in->nr_inlines;

	for (uint32_t k = 0; k < (n ? n : 1); k++) {
		const struct perfev_srcline *w = n ? &in->inlines[k].where : &in->line;
		const char *fn = n ? in->inlines[k].name : a->info.name;
		struct perfev_annotate_line *l;
		uint32_t idx;
		bool dup = false;

		if (!known(w))
			continue;
		l = line_get(b, w, fn, n && k + 1 < n, &idx);
		if (!l)
			return -ENOMEM;
		if (k == 0) {
			l->self_samples += in->nr_samples;
			l->self_period += in->period;
			l->nr_insns++;
			in->line_index = idx;
		}
		for (size_t s = 0; s < nseen; s++)
			dup |= seen[s] == idx;
		if (dup)
			continue;
		if (nseen < ARRAY_SIZE(seen))
			seen[nseen++] = idx;
		l->total_samples += in->nr_samples;
		l->total_period += in->period;
	}
	return 0;
}

/* The function's own file first, then by file name, then line. */
static int cmp_line(const void *pa, const void *pb, void *ctx)
{
	const struct perfev_annotate_line *x = pa, *y = pb;
	const char *own = ctx;
	int c;

	if (own && strcmp(x->where.file, y->where.file)) {
		if (!strcmp(x->where.file, own))
			return -1;
		if (!strcmp(y->where.file, own))
			return 1;
	}
	c = strcmp(x->where.file, y->where.file);
	if (c)
		return c;
	return (x->where.line > y->where.line) - (x->where.line < y->where.line);
}

/* After sorting: each line's instructions, and each instruction's line index. */
static int index_insns(struct perfev_annotation *a)
{
	struct line_builder b = { .a = a };
	uint32_t *fill;
	size_t total = 0;
	int err = 0;

	/* The lines moved; find each instruction's again through a fresh index. */
	for (size_t i = 0; i < a->nr_lines && !err; i++) {
		err = idxhash_insert(&b.index, hash_mix(hash_str(a->lines[i].where.file),
							a->lines[i].where.line), (uint32_t)i);
		total += a->lines[i].nr_insns;
	}
	a->line_insns = malloc((total ? total : 1) * sizeof(*a->line_insns));
	fill = calloc(a->nr_lines ? a->nr_lines : 1, sizeof(*fill));
	if (err || !a->line_insns || !fill) {
		idxhash_free(&b.index);
		free(fill);
		return -ENOMEM;
	}
	for (size_t i = 0, at = 0; i < a->nr_lines; i++) {
		a->lines[i].insns = a->line_insns + at;
		at += a->lines[i].nr_insns;
	}
	for (size_t i = 0; i < a->nr_insns; i++) {
		struct perfev_annotate_insn *in = &a->insns[i];
		const struct perfev_srcline *w = in->nr_inlines ? &in->inlines[0].where : &in->line;
		struct line_key k = { a->lines, w->file, w->line };
		int64_t l;

		if (in->line_index == UINT32_MAX)
			continue;
		l = idxhash_find(&b.index, hash_mix(hash_str(w->file), w->line), line_eq, &k);
		if (l < 0 || fill[l] >= a->lines[l].nr_insns) {
			in->line_index = UINT32_MAX; /* cannot happen: the lines are the ones counted */
			continue;
		}
		in->line_index = (uint32_t)l;
		((uint32_t *)a->lines[l].insns)[fill[l]++] = (uint32_t)i;
	}
	idxhash_free(&b.index);
	free(fill);
	return 0;
}

int lines__build(struct perfev_annotation *a)
{
	struct line_builder b = { .a = a };
	int err = 0;

	for (size_t i = 0; i < a->nr_insns && !err; i++)
		err = count_insn(&b, i);
	idxhash_free(&b.index);
	if (err)
		return err;
	if (a->nr_lines)
		qsort_r(a->lines, a->nr_lines, sizeof(*a->lines), cmp_line, (void *)a->info.file);
	return index_insns(a);
}
