// SPDX-License-Identifier: MIT
/*
 * A profile's nodes grouped into entries by sort keys.  A big profile has
 * millions of nodes and hundreds of thousands of entries (every unresolved
 * address is one), so most nodes find their entry by their (thread, frame)
 * pair, which they share with an earlier node; only a pair not seen before
 * is projected onto the keys and looked up among the entries by that
 * projection.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util/idxhash.h"
#include "util/internal.h"
#include "util/opts.h"
#include "profile/profile_int.h"
#include "perfev/profile_table.h"

#define NONE PERFEV_PROFILE_NONE
#define KEY_BIT(k) (1u << (k))

struct perfev_profile_table {
	struct perfev_profile_entry *e;
	size_t nr, cap;
	size_t nr_nodes;
	uint32_t *node_entry; /* per node: its entry, or NONE */
	/* Each entry's nodes as a list: entry_first[e], then node_next[n]; NONE ends it. */
	uint32_t *entry_first, *node_next;
};

/* What the keys see of a (thread, frame) pair; the rest is zero. */
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

static void project(const struct perfev_profile *p, unsigned keys, uint32_t thread, uint32_t frame,
		    struct proj *out)
{
	const struct perfev_profile_thread *t = &p->threads[thread];
	const struct perfev_profile_frame *f = &p->frames[frame];

	memset(out, 0, sizeof(*out));
	if (keys & KEY_BIT(PERFEV_PROFILE_KEY_COMM))
		out->comm = t->comm;
	if (keys & KEY_BIT(PERFEV_PROFILE_KEY_PID))
		out->pid = t->pid;
	if (keys & KEY_BIT(PERFEV_PROFILE_KEY_TID))
		out->tid = t->tid;
	if (keys & KEY_BIT(PERFEV_PROFILE_KEY_DSO)) {
		out->dso = f->dso;
		out->kernel = f->kernel;
	}
	if (keys & KEY_BIT(PERFEV_PROFILE_KEY_SYM)) {
		out->sym = f->sym;
		out->addr = f->addr;
		out->inline_name = f->inline_name;
		out->kernel = f->kernel;
		if (!f->sym)
			out->dso = f->dso; /* an unresolved address means something only in its DSO */
	}
	if (keys & KEY_BIT(PERFEV_PROFILE_KEY_SRCLINE)) {
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

#define PAIR_CACHE 65536
/* Up to this many (thread, frame) cells, each pair's entry is kept in a table of its own. */
#define PAIR_TABLE_MAX (4u << 20)

/* The state of one grouping pass over the nodes. */
struct grouping {
	const struct perfev_profile *p;
	struct perfev_profile_table *t;
	unsigned keys; /* KEY_BIT()s */
	struct idxhash entries; /* entries by the hash of their projection */
	const struct proj *want; /* the projection being looked up */
	/*
	 * Each (thread, frame) pair's entry: from a table of every pair when
	 * that is small enough (threads are as few as the keys tell apart),
	 * else from a cache.
	 */
	uint32_t *pair_table; /* [frame * nth + thread]: entry or NONE */
	size_t nth;
	struct pair_ent {
		uint64_t pair;
		uint32_t entry1; /* entry + 1; 0: empty */
	} *pair_cache;
};

static bool pairs_init(struct grouping *g, size_t nth, size_t nfr)
{
	g->nth = nth;
	if (nth && nfr <= PAIR_TABLE_MAX / nth) {
		g->pair_table = malloc(nth * nfr * sizeof(*g->pair_table));
		if (g->pair_table)
			memset(g->pair_table, 0xff, nth * nfr * sizeof(*g->pair_table));
	} else {
		g->pair_cache = calloc(PAIR_CACHE, sizeof(*g->pair_cache));
	}
	return g->pair_table || g->pair_cache;
}

static inline uint64_t pair_of(uint32_t thread, uint32_t frame)
{
	return ((uint64_t)thread << 32) | frame;
}

static inline struct pair_ent *pair_cached(const struct grouping *g, uint64_t pair)
{
	return &g->pair_cache[hash_mix(pair, 5) & (PAIR_CACHE - 1)];
}

/* The entry remembered for (thread, frame), or -1. */
static inline int64_t pair_get(const struct grouping *g, uint32_t thread, uint32_t frame)
{
	if (g->pair_table) {
		uint32_t e = g->pair_table[(size_t)frame * g->nth + thread];

		return e == NONE ? -1 : (int64_t)e;
	}
	uint64_t pair = pair_of(thread, frame);
	const struct pair_ent *pc = pair_cached(g, pair);

	return pc->entry1 && pc->pair == pair ? (int64_t)pc->entry1 - 1 : -1;
}

static inline void pair_set(struct grouping *g, uint32_t thread, uint32_t frame, uint32_t e)
{
	uint64_t pair = pair_of(thread, frame);

	if (g->pair_table)
		g->pair_table[(size_t)frame * g->nth + thread] = e;
	else
		*pair_cached(g, pair) = (struct pair_ent){ pair, e + 1 };
}

static bool entry_eq(const void *ctx, uint32_t idx)
{
	const struct grouping *g = ctx;
	struct proj have;

	project(g->p, g->keys, g->t->e[idx].thread, g->t->e[idx].frame, &have);
	return proj_eq(&have, g->want);
}

/* The entry whose keys (thread, frame) has, added when there is none; -1 when out of memory. */
static int64_t entry_by_keys(struct grouping *g, uint32_t thread, uint32_t frame)
{
	struct perfev_profile_table *t = g->t;
	struct proj want;
	uint64_t hv;
	int64_t e;

	project(g->p, g->keys, thread, frame, &want);
	hv = proj_hash(&want);
	g->want = &want;
	e = idxhash_find(&g->entries, hv, entry_eq, g);
	if (e >= 0)
		return e;
	if (t->nr == t->cap) {
		size_t nc = t->cap ? t->cap * 2 : 256;
		struct perfev_profile_entry *ne = realloc(t->e, nc * sizeof(*ne));

		if (!ne)
			return -1;
		t->e = ne;
		t->cap = nc;
	}
	if (idxhash_insert(&g->entries, hv, t->nr) < 0)
		return -1;
	t->e[t->nr] = (struct perfev_profile_entry){ .thread = thread, .frame = frame };
	return t->nr++;
}

/* Every node's entry, and the entries' self weights; false when out of memory. */
static bool group_nodes(struct grouping *g)
{
	const struct perfev_profile *p = g->p;
	struct perfev_profile_table *t = g->t;

	for (size_t i = 0; i < t->nr_nodes; i++) {
		const struct perfev_profile_node *n = &p->nodes[i];
		int64_t e;

		t->node_entry[i] = NONE;
		if (n->frame == NONE)
			continue;
		e = pair_get(g, n->thread, n->frame);
		if (e < 0) {
			e = entry_by_keys(g, n->thread, n->frame);
			if (e < 0)
				return false;
			pair_set(g, n->thread, n->frame, (uint32_t)e);
		}
		t->node_entry[i] = (uint32_t)e;
		t->e[e].self += n->self;
		t->e[e].samples += n->self_samples;
	}
	return true;
}

/* Each entry's nodes as a list in index order; false when out of memory. */
static bool link_nodes(struct perfev_profile_table *t)
{
	t->entry_first = malloc((t->nr ? t->nr : 1) * sizeof(*t->entry_first));
	t->node_next = malloc((t->nr_nodes ? t->nr_nodes : 1) * sizeof(*t->node_next));
	if (!t->entry_first || !t->node_next)
		return false;
	for (size_t e = 0; e < t->nr; e++)
		t->entry_first[e] = NONE;
	for (size_t i = t->nr_nodes; i-- > 0;) {
		uint32_t e = t->node_entry[i];

		t->node_next[i] = NONE;
		if (e != NONE) {
			t->node_next[i] = t->entry_first[e];
			t->entry_first[e] = i;
		}
	}
	return true;
}

/*
 * Children: a node's total counts for its entry unless an ancestor has the
 * same entry (recursion), found by a depth-first walk that keeps how often
 * each entry is open on the current path.  False when out of memory.
 */
static bool add_children(struct perfev_profile_table *t, const struct perfev_profile *p)
{
	uint32_t *active = calloc(t->nr ? t->nr : 1, sizeof(*active));
	uint32_t *stack = malloc((t->nr_nodes + 1) * sizeof(*stack));
	size_t sp = 0;

	if (!active || !stack) {
		free(active);
		free(stack);
		return false;
	}
	stack[sp++] = 0;
	while (sp) {
		uint32_t v = stack[sp - 1];
		const struct perfev_profile_node *n;

		if (v & 0x80000000u) {
			/* Leaving the node: close its entry. */
			uint32_t e = t->node_entry[v & 0x7fffffffu];

			sp--;
			if (e != NONE)
				active[e]--;
			continue;
		}
		n = &p->nodes[v];
		stack[sp - 1] = v | 0x80000000u;
		if (t->node_entry[v] != NONE) {
			uint32_t e = t->node_entry[v];

			if (!active[e]++)
				t->e[e].children += n->total;
		}
		for (uint32_t c = n->first_child; c != NONE; c = p->nodes[c].next_sibling)
			stack[sp++] = c;
	}
	free(active);
	free(stack);
	return true;
}

/* opts' keys as KEY_BIT()s, perf's default without any; false when one is unknown. */
static bool keys_of(const struct perfev_profile_table_opts *o, unsigned *keys)
{
	*keys = 0;
	for (size_t i = 0; i < o->nr_keys && o->keys; i++) {
		if ((unsigned)o->keys[i] >= PERFEV_PROFILE_NR_KEYS)
			return false;
		*keys |= KEY_BIT(o->keys[i]);
	}
	if (!*keys)
		*keys = KEY_BIT(PERFEV_PROFILE_KEY_COMM) | KEY_BIT(PERFEV_PROFILE_KEY_DSO) |
			KEY_BIT(PERFEV_PROFILE_KEY_SYM);
	return true;
}

struct perfev_profile_table *perfev_profile_table__new(const struct perfev_profile *p,
							const struct perfev_profile_table_opts *opts)
{
	struct perfev_profile_table_opts o;
	struct perfev_profile_table *t;
	struct grouping g = { .p = p };
	bool ok;

	if (!p)
		return set_error_ptr(EINVAL, "no profile given");
	if (OPTS_COPY(&o, opts, perfev_profile_table_opts, children) < 0)
		return NULL;
	if (!keys_of(&o, &g.keys))
		return set_error_ptr(EINVAL, "profile table: unknown sort key");
	t = calloc(1, sizeof(*t));
	if (!t)
		return set_error_ptr(ENOMEM, "profile table: out of memory");
	/* The accessor waits for stacks still being inserted; the tree is read directly after it. */
	t->nr_nodes = perfev_profile__nr_nodes(p);
	g.t = t;
	t->node_entry = malloc((t->nr_nodes ? t->nr_nodes : 1) * sizeof(*t->node_entry));
	ok = t->node_entry && pairs_init(&g, p->nr_threads, p->nr_frames) && group_nodes(&g) &&
	     link_nodes(t) && (!o.children || add_children(t, p));
	idxhash_free(&g.entries);
	free(g.pair_cache);
	free(g.pair_table);
	if (!ok) {
		perfev_profile_table__delete(t);
		return set_error_ptr(ENOMEM, "profile table: out of memory");
	}
	return t;
}

void perfev_profile_table__delete(struct perfev_profile_table *t)
{
	if (!t)
		return;
	free(t->e);
	free(t->node_entry);
	free(t->entry_first);
	free(t->node_next);
	free(t);
}

size_t perfev_profile_table__nr_entries(const struct perfev_profile_table *t)
{
	return t->nr;
}

const struct perfev_profile_entry *perfev_profile_table__entry(const struct perfev_profile_table *t,
								size_t i)
{
	return i < t->nr ? &t->e[i] : NULL;
}

uint32_t perfev_profile_table__node_entry(const struct perfev_profile_table *t, size_t node)
{
	return node < t->nr_nodes ? t->node_entry[node] : NONE;
}

uint32_t perfev_profile_table__first_node(const struct perfev_profile_table *t, size_t i)
{
	return i < t->nr ? t->entry_first[i] : NONE;
}

uint32_t perfev_profile_table__next_node(const struct perfev_profile_table *t, size_t node)
{
	return node < t->nr_nodes ? t->node_next[node] : NONE;
}
