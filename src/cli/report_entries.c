// SPDX-License-Identifier: MIT
/*
 * perfev report's table: the profile's nodes grouped by the sort keys into
 * entries, each with its self weight (samples whose innermost frame it is)
 * and children weight (samples with it anywhere on the stack, counted once
 * however often recursion repeats it).
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "util/idxhash.h"
#include "report.h"

struct proj {
	const char *comm;
	int pid, tid;
	struct perfev_dso *dso;
	const struct perfev_symbol *sym;
	uint64_t addr;
	const char *inline_name;
	const char *src_file;
	uint32_t src_line;
	bool kernel;
};

static bool has_key(const struct report_opts *o, enum report_key k)
{
	for (int i = 0; i < o->nr_keys; i++)
		if (o->keys[i] == k)
			return true;
	return false;
}

static void project(const struct perfev_profile *p, const struct report_opts *o, uint32_t thread,
		    uint32_t frame, struct proj *out)
{
	const struct perfev_profile_thread *t = perfev_profile__thread(p, thread);
	const struct perfev_profile_frame *f = perfev_profile__frame(p, frame);

	memset(out, 0, sizeof(*out));
	if (has_key(o, KEY_COMM))
		out->comm = t->comm;
	if (has_key(o, KEY_PID))
		out->pid = t->pid;
	if (has_key(o, KEY_TID))
		out->tid = t->tid;
	if (has_key(o, KEY_DSO)) {
		out->dso = f->dso;
		out->kernel = f->kernel;
	}
	if (has_key(o, KEY_SYM)) {
		out->sym = f->sym;
		out->addr = f->addr;
		out->inline_name = f->inline_name;
		out->kernel = f->kernel;
		if (!f->sym)
			out->dso = f->dso; /* an unresolved address means something only in its DSO */
	}
	if (has_key(o, KEY_SRCLINE)) {
		out->src_file = f->src.file;
		out->src_line = f->src.line;
		if (!f->src.file) {
			out->dso = f->dso;
			out->addr = f->addr;
		}
	}
}

static bool s_eq(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

static bool proj_eq(const struct proj *a, const struct proj *b)
{
	return a->comm == b->comm && a->pid == b->pid && a->tid == b->tid && a->dso == b->dso &&
	       a->sym == b->sym && a->addr == b->addr && a->kernel == b->kernel &&
	       s_eq(a->inline_name, b->inline_name) && s_eq(a->src_file, b->src_file) &&
	       a->src_line == b->src_line;
}

static uint64_t proj_hash(const struct proj *a)
{
	uint64_t h = hash_mix((uintptr_t)a->comm, ((uint64_t)(uint32_t)a->pid << 32) | (uint32_t)a->tid);

	h = hash_mix(h, (uintptr_t)a->dso ^ ((uint64_t)a->kernel << 63));
	h = hash_mix(h, (uintptr_t)a->sym ^ a->addr);
	if (a->inline_name)
		h = hash_mix(h, hash_str(a->inline_name));
	if (a->src_file)
		h = hash_mix(h, hash_str(a->src_file) ^ a->src_line);
	return h;
}

struct eq_ctx {
	const struct perfev_profile *p;
	const struct report_opts *o;
	const struct report_table *t;
	const struct proj *want;
};

static bool entry_eq(const void *ctx, uint32_t idx)
{
	const struct eq_ctx *c = ctx;
	struct proj have;

	project(c->p, c->o, c->t->e[idx].thread, c->t->e[idx].frame, &have);
	return proj_eq(&have, c->want);
}

#define PAIR_CACHE 65536
/* Up to this many (thread, frame) cells, each pair's entry is kept in a table of its own. */
#define PAIR_TABLE_MAX (4u << 20)

int report_table_build(const struct perfev_profile *p, const struct report_opts *o,
		       struct report_table *t)
{
	size_t nn = perfev_profile__nr_nodes(p), cap = 0;
	size_t nth = perfev_profile__nr_threads(p), nfr = perfev_profile__nr_frames(p);
	struct idxhash h = { 0 };
	uint32_t *active = NULL, *stack = NULL, *pair_table = NULL;
	struct pair_ent {
		uint64_t pair;
		uint32_t entry1;
	} *pair_cache = NULL;
	size_t sp = 0;
	int ret = -1;

	memset(t, 0, sizeof(*t));
	t->node_entry = malloc(nn * sizeof(*t->node_entry));
	/*
	 * Most nodes repeat a (thread, frame) pair seen before, whose entry is
	 * then known: from a table of every pair when that is small enough
	 * (threads are as few as the keys tell apart), else from a cache.
	 */
	if (nth && nfr <= PAIR_TABLE_MAX / nth) {
		pair_table = malloc(nth * nfr * sizeof(*pair_table));
		if (pair_table)
			memset(pair_table, 0xff, nth * nfr * sizeof(*pair_table));
	} else {
		pair_cache = calloc(PAIR_CACHE, sizeof(*pair_cache));
	}
	if (!t->node_entry || (!pair_table && !pair_cache))
		goto out;
	for (size_t i = 0; i < nn; i++) {
		const struct perfev_profile_node *n = perfev_profile__node(p, i);
		struct proj want;
		struct eq_ctx c = { p, o, t, &want };
		struct pair_ent *pc = NULL;
		uint32_t *pt = NULL;
		uint64_t hv, pair = 0;
		int64_t e;

		t->node_entry[i] = PERFEV_PROFILE_NONE;
		if (n->frame == PERFEV_PROFILE_NONE)
			continue;
		if (pair_table) {
			pt = &pair_table[(size_t)n->frame * nth + n->thread];
			if (*pt != PERFEV_PROFILE_NONE) {
				e = *pt;
				goto found;
			}
		} else {
			pair = ((uint64_t)n->thread << 32) | n->frame;
			pc = &pair_cache[hash_mix(pair, 5) & (PAIR_CACHE - 1)];
			if (pc->entry1 && pc->pair == pair) {
				e = pc->entry1 - 1;
				goto found;
			}
		}
		project(p, o, n->thread, n->frame, &want);
		hv = proj_hash(&want);
		e = idxhash_find(&h, hv, entry_eq, &c);
		if (e < 0) {
			if (t->nr == cap) {
				size_t nc = cap ? cap * 2 : 256;
				struct report_entry *ne = realloc(t->e, nc * sizeof(*ne));

				if (!ne)
					goto out;
				t->e = ne;
				cap = nc;
			}
			if (idxhash_insert(&h, hv, t->nr) < 0)
				goto out;
			e = t->nr++;
			t->e[e] = (struct report_entry){ .thread = n->thread, .frame = n->frame };
		}
		if (pt)
			*pt = (uint32_t)e;
		else
			*pc = (struct pair_ent){ pair, (uint32_t)e + 1 };
found:
		t->node_entry[i] = e;
		t->e[e].self += n->self;
		t->e[e].samples += n->self_samples;
	}
	t->entry_first = malloc((t->nr ? t->nr : 1) * sizeof(*t->entry_first));
	t->node_next = malloc(nn * sizeof(*t->node_next));
	if (!t->entry_first || !t->node_next)
		goto out;
	for (size_t e = 0; e < t->nr; e++)
		t->entry_first[e] = PERFEV_PROFILE_NONE;
	for (size_t i = nn; i-- > 0;) {
		uint32_t e = t->node_entry[i];

		t->node_next[i] = PERFEV_PROFILE_NONE;
		if (e != PERFEV_PROFILE_NONE) {
			t->node_next[i] = t->entry_first[e];
			t->entry_first[e] = i;
		}
	}
	/*
	 * Children: a node's total counts for its entry unless an ancestor
	 * has the same entry (recursion), found by a depth-first walk that
	 * keeps how often each entry is open on the current path.
	 */
	active = calloc(t->nr ? t->nr : 1, sizeof(*active));
	stack = malloc((nn + 1) * sizeof(*stack));
	if (!active || !stack)
		goto out;
	stack[sp++] = 0;
	while (sp) {
		uint32_t v = stack[sp - 1];
		const struct perfev_profile_node *n;

		if (v & 0x80000000u) {
			/* Leaving the node: close its entry. */
			uint32_t e = t->node_entry[v & 0x7fffffffu];

			sp--;
			if (e != PERFEV_PROFILE_NONE)
				active[e]--;
			continue;
		}
		n = perfev_profile__node(p, v);
		stack[sp - 1] = v | 0x80000000u;
		if (t->node_entry[v] != PERFEV_PROFILE_NONE) {
			uint32_t e = t->node_entry[v];

			if (!active[e]++)
				t->e[e].children += n->total;
		}
		for (uint32_t c = n->first_child; c != PERFEV_PROFILE_NONE;
		     c = perfev_profile__node(p, c)->next_sibling)
			stack[sp++] = c;
	}
	ret = 0;
out:
	idxhash_free(&h);
	free(pair_cache);
	free(pair_table);
	free(active);
	free(stack);
	if (ret)
		report_table_free(t);
	return ret;
}

void report_table_free(struct report_table *t)
{
	free(t->e);
	free(t->node_entry);
	free(t->entry_first);
	free(t->node_next);
	memset(t, 0, sizeof(*t));
}
