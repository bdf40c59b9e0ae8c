// SPDX-License-Identifier: MIT
/*
 * perfev report's call graphs, drawn below each entry the way perf report
 * --stdio draws them: the chains of the entry's samples merged into a tree,
 * single-child runs as columns, branches as "|--12.34%--name", percentages
 * of the event's total, branches below the threshold left out.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"

struct cnode {
	uint32_t frame;
	uint32_t first_child, next_sibling;
	uint32_t parent;
	uint64_t weight;
	uint64_t ends; /* weight of chains ending here */
};

/*
 * The merged chains.  A node's child for a frame is found through a hash of
 * (parent, frame): an entry high in the stacks (main, a dispatcher) has
 * hundreds of callees, and its subtree is merged from every caller.
 */
struct chains {
	struct cnode *n;
	size_t nr, cap;
	uint32_t *slots; /* node + 1; 0: empty */
	size_t cap_slots; /* a power of two, at most half full */
	bool nomem;
};

#define NONE PERFEV_PROFILE_NONE

static size_t slot_of(const struct chains *c, uint32_t parent, uint32_t frame)
{
	uint64_t h = ((uint64_t)parent << 32 | frame) * 0x9e3779b97f4a7c15ull;

	return (size_t)(h >> 32) & (c->cap_slots - 1);
}

static bool slots_grow(struct chains *c)
{
	size_t cap = c->cap_slots ? c->cap_slots * 2 : 256;
	uint32_t *old = c->slots;
	size_t old_cap = c->cap_slots;

	c->slots = calloc(cap, sizeof(*c->slots));
	if (!c->slots) {
		c->slots = old;
		return false;
	}
	c->cap_slots = cap;
	for (size_t i = 0; i < old_cap; i++) {
		size_t j;

		if (!old[i])
			continue;
		for (j = slot_of(c, c->n[old[i] - 1].parent, c->n[old[i] - 1].frame); c->slots[j];
		     j = (j + 1) & (cap - 1))
			;
		c->slots[j] = old[i];
	}
	free(old);
	return true;
}

static uint32_t cnode_new(struct chains *c, uint32_t frame)
{
	if (c->nr == c->cap) {
		size_t cap = c->cap ? c->cap * 2 : 64;
		struct cnode *n = realloc(c->n, cap * sizeof(*n));

		if (!n) {
			c->nomem = true;
			return NONE;
		}
		c->n = n;
		c->cap = cap;
	}
	c->n[c->nr] = (struct cnode){ .frame = frame, .first_child = NONE, .next_sibling = NONE,
				      .parent = NONE };
	return c->nr++;
}

/* The child of chain node parent for frame, made when missing; NONE when out of memory. */
static uint32_t child_of(struct chains *c, uint32_t parent, uint32_t frame)
{
	uint32_t k;
	size_t j;

	if ((c->nr + 1) * 2 > c->cap_slots && !slots_grow(c)) {
		c->nomem = true;
		return NONE;
	}
	for (j = slot_of(c, parent, frame); c->slots[j]; j = (j + 1) & (c->cap_slots - 1)) {
		k = c->slots[j] - 1;
		if (c->n[k].parent == parent && c->n[k].frame == frame)
			return k;
	}
	k = cnode_new(c, frame);
	if (k == NONE)
		return NONE;
	c->slots[j] = k + 1;
	c->n[k].parent = parent;
	c->n[k].next_sibling = c->n[parent].first_child;
	c->n[parent].first_child = k;
	return k;
}

static void chain_add(struct chains *c, const uint32_t *frames, size_t nr, uint64_t w, bool ends)
{
	uint32_t cur = 0;

	if (!w)
		return;
	c->n[0].weight += w;
	for (size_t i = 0; i < nr; i++) {
		uint32_t k = child_of(c, cur, frames[i]);

		if (k == NONE)
			return;
		c->n[k].weight += w;
		cur = k;
	}
	if (ends)
		c->n[cur].ends += w;
}

struct gctx {
	FILE *f;
	const struct perfev_profile *p;
	const struct report_opts *o;
	struct chains c;
	uint64_t total, min;
	uint32_t *path;
	size_t cap_path;
};

static bool path_room(struct gctx *g, size_t n)
{
	if (n <= g->cap_path)
		return true;
	size_t cap = g->cap_path ? g->cap_path * 2 : 64;

	while (cap < n)
		cap *= 2;
	uint32_t *p = realloc(g->path, cap * sizeof(*p));

	if (!p)
		return false;
	g->path = p;
	g->cap_path = cap;
	return true;
}

/* Call graphs show an unresolved address unpadded ("0x3b952c90", "0"), as perf's do. */
static const char *fname(struct gctx *g, uint32_t frame, char *buf, size_t size)
{
	const struct perfev_profile_frame *f = perfev_profile__frame(g->p, frame);

	if (!f->sym && !f->inline_name) {
		snprintf(buf, size, "%#" PRIx64, f->addr);
		return buf;
	}
	if (f->inline_name) {
		/* As perf's graphs name an inlined function. */
		snprintf(buf, size, "%s (inlined)", f->inline_name);
		return buf;
	}
	return perfev_profile_frame__name(f, buf, size);
}

/* A frame that only holds a sample's self weight under its inlined functions: drawn as none. */
static bool self_only(const struct perfev_profile *p, uint32_t node)
{
	return perfev_profile__frame(p, perfev_profile__node(p, node)->frame)->self_only;
}

static double pct(const struct gctx *g, uint64_t w)
{
	return g->total ? 100.0 * (double)w / (double)g->total : 0;
}

/* The children of n at or above the threshold, heaviest first. */
static size_t visible_children(struct gctx *g, uint32_t n, uint32_t *out, size_t max)
{
	size_t k = 0;

	for (uint32_t c = g->c.n[n].first_child; c != NONE && k < max; c = g->c.n[c].next_sibling)
		if (g->c.n[c].weight >= g->min && g->c.n[c].weight)
			out[k++] = c;
	for (size_t i = 1; i < k; i++)
		for (size_t j = i; j > 0 && g->c.n[out[j]].weight > g->c.n[out[j - 1]].weight; j--) {
			uint32_t t = out[j];

			out[j] = out[j - 1];
			out[j - 1] = t;
		}
	return k;
}

#define MAX_BRANCHES 256
#define MAX_PREFIX 1024
#define COLUMN 11 /* "|" and ten spaces: one depth of a call graph */

static void print_below(struct gctx *g, uint32_t n, const char *prefix, int depth);

static void print_branches(struct gctx *g, uint32_t n, const char *prefix, int depth)
{
	uint32_t kids[MAX_BRANCHES];
	size_t k = visible_children(g, n, kids, MAX_BRANCHES);
	char name[1024], head[32], sub[MAX_PREFIX];

	for (size_t i = 0; i < k; i++) {
		bool last = i + 1 == k;

		fprintf(g->f, "%s|          \n", prefix);
		snprintf(head, sizeof(head), "--%.2f%%--", pct(g, g->c.n[kids[i]].weight));
		fprintf(g->f, "%s%c%s%s\n", prefix, last ? ' ' : '|', head,
			fname(g, g->c.n[kids[i]].frame, name, sizeof(name)));
		if (strlen(prefix) + COLUMN + 1 >= sizeof(sub))
			continue; /* deeper than anyone can read */
		/* perf's columns are as wide at every depth, whatever the percentage's width. */
		snprintf(sub, sizeof(sub), "%s%c%*s", prefix, last ? ' ' : '|', COLUMN - 1, "");
		print_below(g, kids[i], sub, depth + 1);
	}
}

/* Prints what follows node n (already printed): a column while it does not branch. */
static void print_below(struct gctx *g, uint32_t n, const char *prefix, int depth)
{
	uint32_t kids[2];
	char name[1024];

	if (depth > 512)
		return;
	for (;;) {
		size_t k = visible_children(g, n, kids, 2);

		if (k == 1 && g->c.n[kids[0]].weight == g->c.n[n].weight) {
			n = kids[0];
			fprintf(g->f, "%s%s\n", prefix, fname(g, g->c.n[n].frame, name, sizeof(name)));
			continue;
		}
		if (k)
			print_branches(g, n, prefix, depth);
		return;
	}
}

/* Flat and folded: one line (or block) per chain end. */
static void print_ends(struct gctx *g, uint32_t n, size_t depth)
{
	char name[1024];

	if (!path_room(g, depth + 1))
		return;
	if (n)
		g->path[depth - 1] = g->c.n[n].frame;
	if (n && g->c.n[n].ends >= g->min && g->c.n[n].ends) {
		if (g->o->graph == GRAPH_FOLDED) {
			fprintf(g->f, "            %.2f%% ", pct(g, g->c.n[n].ends));
			for (size_t i = 0; i < depth; i++)
				fprintf(g->f, "%s%s", i ? ";" : "", fname(g, g->path[i], name, sizeof(name)));
			fputc('\n', g->f);
		} else {
			fprintf(g->f, "            %.2f%%\n", pct(g, g->c.n[n].ends));
			for (size_t i = 0; i < depth; i++)
				fprintf(g->f, "                %s\n", fname(g, g->path[i], name, sizeof(name)));
			fputc('\n', g->f);
		}
	}
	for (uint32_t c = g->c.n[n].first_child; c != NONE; c = g->c.n[c].next_sibling)
		print_ends(g, c, depth + 1);
}

/* Whether no ancestor of node is of entry e: the outermost of a recursion counts its total. */
static bool outermost(const struct perfev_profile *p, const struct perfev_profile_table *t,
		      uint32_t node, uint32_t e)
{
	for (uint32_t a = perfev_profile__node(p, node)->parent; a != NONE;
	     a = perfev_profile__node(p, a)->parent)
		if (perfev_profile_table__node_entry(t, a) == e)
			return false;
	return true;
}

/*
 * The frames from the thread's outermost caller down to node, into g->path;
 * their number.  A self_only node's stack ends at its parent.
 */
static size_t path_to(struct gctx *g, uint32_t node)
{
	size_t d, n;

	if (self_only(g->p, node))
		node = perfev_profile__node(g->p, node)->parent;
	d = perfev_profile__node(g->p, node)->depth;

	if (d < 2 || !path_room(g, d))
		return 0;
	n = d - 1;
	for (uint32_t a = node; a != NONE && perfev_profile__node(g->p, a)->depth >= 2;
	     a = perfev_profile__node(g->p, a)->parent)
		g->path[perfev_profile__node(g->p, a)->depth - 2] = perfev_profile__node(g->p, a)->frame;
	return n;
}

static void reverse(uint32_t *a, size_t n)
{
	for (size_t i = 0; i < n / 2; i++) {
		uint32_t t = a[i];

		a[i] = a[n - 1 - i];
		a[n - 1 - i] = t;
	}
}

/*
 * Merges the profile's subtree below node into chain node cn (children mode,
 * caller order: the stacks through the entry, from it down to where each
 * ended); the weight added.  As perf: a sample that ended in the entry itself
 * (recursion) is drawn from its thread's root instead, so it is left out
 * here.  Every chain counts, however light: the same path below the entry
 * comes from many callers, and only the merged weight meets the threshold.
 */
static uint64_t merge_below(struct gctx *g, const struct perfev_profile_table *t, size_t idx,
			    uint32_t node, uint32_t cn, int depth)
{
	uint64_t sum = 0;

	if (depth > 4096)
		return 0;
	for (uint32_t v = perfev_profile__node(g->p, node)->first_child; v != NONE;
	     v = perfev_profile__node(g->p, v)->next_sibling) {
		const struct perfev_profile_node *n = perfev_profile__node(g->p, v);
		uint64_t own = perfev_profile_table__node_entry(t, v) == idx ? 0 : n->self, w;
		uint32_t k;

		if (self_only(g->p, v)) {
			/* Its samples ended in the frame above it. */
			g->c.n[cn].ends += own;
			sum += own;
			continue;
		}
		k = child_of(&g->c, cn, n->frame);
		if (k == NONE)
			return sum;
		w = own + merge_below(g, t, idx, v, k, depth + 1);
		g->c.n[k].weight += w;
		g->c.n[k].ends += own;
		sum += w;
	}
	return sum;
}

static uint64_t graph_min(const struct report_opts *o, uint64_t total)
{
	return (uint64_t)((double)total * o->graph_threshold / 100.0);
}

bool report_graph_wanted(const struct perfev_profile_table *t, size_t idx,
			 const struct report_opts *o, uint64_t total)
{
	const struct perfev_profile_entry *e = perfev_profile_table__entry(t, idx);
	uint64_t weight = o->children ? e->children : e->self;

	/* A graph whose every branch would fall below the threshold shows nothing. */
	return o->graph != GRAPH_NONE && weight && weight >= graph_min(o, total);
}

/* The stack of samples of weight w that ended in node. */
static void add_chain_to(struct gctx *g, uint32_t node, uint64_t w)
{
	size_t len;

	if (!w)
		return;
	len = path_to(g, node);
	if (g->o->caller) {
		chain_add(&g->c, g->path, len, w, true);
	} else {
		/* The entry's frame, then its callers nearest first, as perf draws it. */
		reverse(g->path, len);
		chain_add(&g->c, g->path, len, w, true);
	}
}

/* Without children: the stack of each sample taken in the entry's node. */
static void add_self_chain(struct gctx *g, uint32_t node, const struct perfev_profile_node *n)
{
	add_chain_to(g, node, n->self);
}

/*
 * With children: callers first, the stacks through the entry's node down to
 * where each ended; callees first, its callers with the node's total (once,
 * at the outermost node of a recursion).
 */
static void add_children_chains(struct gctx *g, const struct perfev_profile_table *t, size_t idx,
				uint32_t node, const struct perfev_profile_node *n)
{
	size_t len;

	if (n->self && g->o->caller) {
		len = path_to(g, node);
		chain_add(&g->c, g->path, len, n->self, true);
	}
	if (!outermost(g->p, t, node, idx))
		return;
	if (self_only(g->p, node)) {
		/* Its own samples are all it holds (drawn above, callers first). */
		if (!g->o->caller) {
			len = path_to(g, node);
			reverse(g->path, len);
			chain_add(&g->c, g->path, len, n->self, true);
		}
		return;
	}
	if (g->o->caller) {
		uint32_t k = child_of(&g->c, 0, n->frame);
		uint64_t w = k == NONE ? 0 : merge_below(g, t, idx, node, k, 0);

		if (k != NONE) {
			g->c.n[k].weight += w;
			g->c.n[0].weight += w;
		}
	} else {
		len = path_to(g, node);
		reverse(g->path, len);
		chain_add(&g->c, g->path, len, n->total, true);
	}
}

/* Draws the merged chains in o's mode. */
static void print_chains(struct gctx *g)
{
	uint32_t kids[2];
	char name[1024];
	size_t k;

	if (g->o->graph != GRAPH_GRAPH) {
		print_ends(g, 0, 0);
		return;
	}
	k = visible_children(g, 0, kids, 2);
	if (k == 1 && g->c.n[kids[0]].weight == g->c.n[0].weight) {
		uint32_t first = kids[0];

		/*
		 * Sorted by symbol first, perf leaves out the line that would repeat
		 * the row's symbol (the first of the straight line, whatever it is).
		 */
		if (g->o->sym_first) {
			k = visible_children(g, first, kids, 2);
			if (k == 1 && g->c.n[kids[0]].weight == g->c.n[first].weight) {
				first = kids[0];
			} else {
				if (k) {
					print_branches(g, first, "            ", 0);
					fputc('\n', g->f);
				}
				return;
			}
		}
		fprintf(g->f, "            |\n            ---%s\n",
			fname(g, g->c.n[first].frame, name, sizeof(name)));
		print_below(g, first, "               ", 0);
	} else if (k) {
		print_branches(g, 0, "            ", 0);
	}
	if (k)
		fputc('\n', g->f);
}

void report_graph_print(FILE *f, const struct perfev_profile *p,
			const struct perfev_profile_table *t, size_t idx, const struct report_opts *o,
			uint64_t total)
{
	struct gctx g = { .f = f, .p = p, .o = o, .total = total, .min = graph_min(o, total) };

	if (!report_graph_wanted(t, idx, o, total) || cnode_new(&g.c, NONE) == NONE)
		return;
	for (uint32_t i = perfev_profile_table__first_node(t, idx); i != NONE;
	     i = perfev_profile_table__next_node(t, i)) {
		const struct perfev_profile_node *n = perfev_profile__node(p, i);

		if (o->children)
			add_children_chains(&g, t, idx, i, n);
		else
			add_self_chain(&g, i, n);
	}
	if (!g.c.nomem && g.c.n[0].first_child)
		print_chains(&g);
	free(g.c.n);
	free(g.c.slots);
	free(g.path);
}

void report_graph_print_nodes(FILE *f, const struct perfev_profile *p, const uint32_t *nodes,
			      const uint64_t *weights, size_t n, const struct report_opts *o,
			      uint64_t total)
{
	struct gctx g = { .f = f, .p = p, .o = o, .total = total, .min = graph_min(o, total) };
	uint64_t sum = 0;

	for (size_t i = 0; i < n; i++)
		sum += weights[i];
	if (!sum || sum < g.min || cnode_new(&g.c, NONE) == NONE)
		return;
	for (size_t i = 0; i < n; i++)
		add_chain_to(&g, nodes[i], weights[i]);
	if (!g.c.nomem && g.c.n[0].first_child)
		print_chains(&g);
	free(g.c.n);
	free(g.c.slots);
	free(g.path);
}
