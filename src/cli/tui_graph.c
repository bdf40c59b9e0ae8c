// SPDX-License-Identifier: MIT
/*
 * One entry's call graph for the browser, as a tree of frames merged from
 * the profile's nodes of the entry: below its outermost calls, the subtrees
 * they lead to (its callees, with children weights); or, above the nodes
 * where its samples were taken, their callers (with self weights).
 */
#include <stdlib.h>
#include <string.h>

#include "tui.h"

static uint64_t slot_hash(uint32_t parent, uint32_t frame)
{
	uint64_t h = ((uint64_t)parent << 32 | frame) * 0x9e3779b97f4a7c15ull;

	return h ^ (h >> 29);
}

static bool slots_grow(struct tui_graph *g)
{
	size_t n = g->nr_slots ? g->nr_slots * 2 : 256;
	uint32_t *s = malloc(n * sizeof(*s));

	if (!s)
		return false;
	memset(s, 0xff, n * sizeof(*s));
	for (size_t i = 1; i < g->nr; i++) {
		size_t j = slot_hash(g->n[i].parent, g->n[i].frame) & (n - 1);

		while (s[j] != TUI_NONE)
			j = (j + 1) & (n - 1);
		s[j] = (uint32_t)i;
	}
	free(g->slot);
	g->slot = s;
	g->nr_slots = n;
	return true;
}

/* The child of parent for frame, made when there is none; TUI_NONE when out of memory. */
static uint32_t child(struct tui_graph *g, uint32_t parent, uint32_t frame)
{
	size_t j;

	if (g->nr * 2 >= g->nr_slots && !slots_grow(g))
		return TUI_NONE;
	for (j = slot_hash(parent, frame) & (g->nr_slots - 1); g->slot[j] != TUI_NONE;
	     j = (j + 1) & (g->nr_slots - 1)) {
		const struct tui_gnode *n = &g->n[g->slot[j]];

		if (n->parent == parent && n->frame == frame)
			return g->slot[j];
	}
	if (g->nr == g->cap) {
		size_t cap = g->cap ? g->cap * 2 : 64;
		struct tui_gnode *n = realloc(g->n, cap * sizeof(*n));

		if (!n)
			return TUI_NONE;
		g->n = n;
		g->cap = cap;
	}
	g->n[g->nr] = (struct tui_gnode){ .frame = frame, .parent = parent, .first_child = TUI_NONE,
					  .next_sibling = g->n[parent].first_child };
	g->n[parent].first_child = (uint32_t)g->nr;
	g->n[parent].nr_children++;
	g->slot[j] = (uint32_t)g->nr;
	return (uint32_t)g->nr++;
}

static bool outermost(const struct perfev_profile *p, const struct perfev_profile_table *t,
		      uint32_t node, uint32_t e)
{
	for (uint32_t a = perfev_profile__node(p, node)->parent; a != TUI_NONE;
	     a = perfev_profile__node(p, a)->parent)
		if (perfev_profile_table__node_entry(t, a) == e)
			return false;
	return true;
}

struct pair {
	uint32_t pnode, gnode;
};

/* Node's subtree merged below graph node 0. */
static bool add_callees(struct tui_graph *g, const struct perfev_profile *p, uint32_t node,
			struct pair **stack, size_t *cap)
{
	size_t sp = 0;

	g->n[0].weight += perfev_profile__node(p, node)->total;
	(*stack)[sp++] = (struct pair){ node, 0 };
	while (sp) {
		struct pair top = (*stack)[--sp];

		for (uint32_t c = perfev_profile__node(p, top.pnode)->first_child; c != TUI_NONE;
		     c = perfev_profile__node(p, c)->next_sibling) {
			const struct perfev_profile_node *n = perfev_profile__node(p, c);
			uint32_t k;

			/* A self_only mark holds its parent's samples: no frame to draw. */
			if (!n->total || perfev_profile__frame(p, n->frame)->self_only)
				continue;
			k = child(g, top.gnode, n->frame);
			if (k == TUI_NONE)
				return false;
			g->n[k].weight += n->total;
			if (sp == *cap) {
				struct pair *s = realloc(*stack, *cap * 2 * sizeof(*s));

				if (!s)
					return false;
				*stack = s;
				*cap *= 2;
			}
			(*stack)[sp++] = (struct pair){ c, k };
		}
	}
	return true;
}

/* The callers of node's samples, nearest first, below graph node 0. */
static bool add_callers(struct tui_graph *g, const struct perfev_profile *p, uint32_t node)
{
	const struct perfev_profile_node *n = perfev_profile__node(p, node);
	uint64_t w = n->self;
	uint32_t k = 0;

	if (!w)
		return true;
	g->n[0].weight += w;
	for (uint32_t a = n->parent; a != TUI_NONE && perfev_profile__node(p, a)->depth >= 2;
	     a = perfev_profile__node(p, a)->parent) {
		k = child(g, k, perfev_profile__node(p, a)->frame);
		if (k == TUI_NONE)
			return false;
		g->n[k].weight += w;
	}
	return true;
}

struct tui_graph *tui_graph_new(const struct perfev_profile *p, const struct perfev_profile_table *t,
				uint32_t idx, bool callees)
{
	struct tui_graph *g = calloc(1, sizeof(*g));
	size_t cap = 256;
	struct pair *stack = malloc(cap * sizeof(*stack));
	bool ok = g && stack;

	if (ok && (g->n = malloc(64 * sizeof(*g->n)))) {
		g->cap = 64;
		g->n[0] = (struct tui_gnode){ .frame = perfev_profile_table__entry(t, idx)->frame,
					      .parent = TUI_NONE, .first_child = TUI_NONE,
					      .next_sibling = TUI_NONE };
		g->nr = 1;
	} else {
		ok = false;
	}
	for (uint32_t i = ok ? perfev_profile_table__first_node(t, idx) : TUI_NONE; i != TUI_NONE && ok;
	     i = perfev_profile_table__next_node(t, i)) {
		if (callees)
			ok = !outermost(p, t, i, idx) || add_callees(g, p, i, &stack, &cap);
		else
			ok = add_callers(g, p, i);
	}
	free(stack);
	if (!ok) {
		tui_graph_delete(g);
		return NULL;
	}
	return g;
}

void tui_graph_delete(struct tui_graph *g)
{
	if (!g)
		return;
	free(g->n);
	free(g->slot);
	free(g);
}

size_t tui_graph_children(const struct tui_graph *g, uint32_t n, uint32_t *out, size_t max)
{
	size_t k = 0;

	for (uint32_t c = g->n[n].first_child; c != TUI_NONE; c = g->n[c].next_sibling) {
		size_t j;

		if (k < max) {
			j = k++;
		} else if (max && g->n[c].weight > g->n[out[max - 1]].weight) {
			j = max - 1;
		} else {
			continue;
		}
		/* Insertion by weight, heaviest first (a graph's fan-out is shown a screen at a time). */
		while (j > 0 && g->n[out[j - 1]].weight < g->n[c].weight) {
			out[j] = out[j - 1];
			j--;
		}
		out[j] = c;
	}
	return g->n[n].nr_children;
}
