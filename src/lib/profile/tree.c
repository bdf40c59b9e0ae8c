// SPDX-License-Identifier: MIT
/*
 * The profile's tree of nodes: a stack of interned frame indices goes in
 * below its thread's node, each level found by the hash of its path.  The
 * bottom of the profile: the background inserter (inserter.c) and the
 * profile's API (profile.c) call it; it calls neither.
 */
#include <stdlib.h>
#include <string.h>

#include "util/internal.h"
#include "profile/profile_int.h"

/*
 * Nodes are found by a hash of their whole path (thread, then frames from the
 * outermost), which a stack gives for every level before any lookup: the
 * slots of all levels are prefetched together instead of one miss after
 * another.  The node's parent and frame are compared too, so a collision of
 * path hashes cannot merge two paths.
 */
static uint64_t thread_key(uint32_t thread)
{
	return hash_mix(thread, 0x7468726561640000ull);
}

static uint32_t key_tag(uint64_t key)
{
	return (uint32_t)(key >> 32);
}

/* A tag's home slot: Fibonacci hashing, so that slots near each other hold unrelated tags. */
static size_t child_slot(uint32_t tag, unsigned bits)
{
	return bits ? (uint32_t)(tag * 0x9e3779b1u) >> (32 - bits) : 0;
}

static bool children_grow(struct perfev_profile *p)
{
	unsigned bits = p->cap_children ? p->children_bits + 1 : 10;
	size_t cap = (size_t)1 << bits;
	struct child_slot *n;

	if (bits > 31 || !(n = table_calloc(cap, sizeof(*n))))
		return false;
	for (size_t i = 0; i < p->cap_children; i++) {
		struct child_slot *o = &p->children[i];
		size_t j;

		if (!o->node1)
			continue;
		for (j = child_slot(o->tag, bits); n[j].node1; j = (j + 1) & (cap - 1))
			;
		n[j] = *o;
	}
	table_free(p->children, p->cap_children, sizeof(*p->children));
	p->children = n;
	p->cap_children = cap;
	p->children_bits = bits;
	return true;
}

/*
 * The index again after profile_drop_index(), from the nodes: a parent
 * precedes its children, so one pass in node order has every parent's key
 * before its children need it.  0 or -1 (ENOMEM: the profile stays as it
 * was, without an index, and the next insertion tries again).
 */
static int rebuild_index(struct perfev_profile *p)
{
	uint64_t *key;

	if (p->cap_children || p->nr_nodes <= 1)
		return 0;
	key = malloc(p->nr_nodes * sizeof(*key));
	if (!key)
		return -1;
	while (p->nr_nodes * 2 > p->cap_children)
		if (!children_grow(p)) {
			free(key);
			table_free(p->children, p->cap_children, sizeof(*p->children));
			p->children = NULL;
			p->cap_children = 0;
			p->children_bits = 0;
			return -1;
		}
	key[0] = 0;
	for (size_t i = 1; i < p->nr_nodes; i++) {
		const struct perfev_profile_node *n = &p->nodes[i];
		uint32_t tag;
		size_t j;

		key[i] = profile_key(key[n->parent], n->frame, n->thread,
				     n->frame == PERFEV_PROFILE_NONE);
		tag = key_tag(key[i]);
		for (j = child_slot(tag, p->children_bits); p->children[j].node1;
		     j = (j + 1) & (p->cap_children - 1))
			;
		p->children[j].tag = tag;
		p->children[j].node1 = (uint32_t)i + 1;
	}
	p->nr_children = p->nr_nodes - 1;
	free(key);
	return 0;
}

void profile_drop_index(struct perfev_profile *p)
{
	table_free(p->children, p->cap_children, sizeof(*p->children));
	p->children = NULL;
	p->cap_children = p->nr_children = 0;
	p->children_bits = 0;
}

static int64_t child(struct perfev_profile *p, uint32_t parent, uint32_t frame, uint32_t thread,
		     uint64_t key)
{
	struct perfev_profile_node *n;
	uint32_t tag = key_tag(key);
	size_t j;

	if ((p->nr_children + 1) * 2 > p->cap_children && !children_grow(p))
		return -1;
	for (j = child_slot(tag, p->children_bits); p->children[j].node1;
	     j = (j + 1) & (p->cap_children - 1)) {
		const struct child_slot *c = &p->children[j];

		/* Thread nodes share their parent (the root) and frame (none): the thread tells them apart. */
		if (c->tag == tag && p->nodes[c->node1 - 1].parent == parent &&
		    p->nodes[c->node1 - 1].frame == frame && p->nodes[c->node1 - 1].thread == thread)
			return c->node1 - 1;
	}
	if (p->nr_nodes >= PERFEV_PROFILE_NONE - 1 ||
	    !big_array_grow((void **)&p->nodes, &p->cap_nodes, p->nr_nodes + 1, sizeof(*p->nodes)))
		return -1;
	p->children[j].tag = tag;
	p->children[j].node1 = p->nr_nodes + 1;
	p->nr_children++;
	n = &p->nodes[p->nr_nodes];
	*n = (struct perfev_profile_node){ .frame = frame, .thread = thread, .parent = parent,
					   .first_child = PERFEV_PROFILE_NONE,
					   .next_sibling = p->nodes[parent].first_child,
					   .depth = p->nodes[parent].depth + 1 };
	p->nodes[parent].first_child = p->nr_nodes;
	return p->nr_nodes++;
}

/* With opts.times, the sample's time, the node it ended in and its weight. */
static int keep_time(struct perfev_profile *p, uint64_t time, uint32_t node, uint64_t weight)
{
	if (p->nr_times == p->cap_times) {
		size_t cap = p->cap_times ? p->cap_times * 2 : 4096;
		uint64_t *t = realloc(p->times, cap * sizeof(*t)), *w = NULL;
		uint32_t *n = NULL;

		if (t)
			p->times = t;
		w = t ? realloc(p->time_weights, cap * sizeof(*w)) : NULL;
		if (w)
			p->time_weights = w;
		n = w ? realloc(p->time_nodes, cap * sizeof(*n)) : NULL;
		if (!n)
			return set_error(ENOMEM, "profile: out of memory");
		p->time_nodes = n;
		p->cap_times = cap;
	}
	p->times[p->nr_times] = time;
	p->time_weights[p->nr_times] = weight;
	p->time_nodes[p->nr_times++] = node;
	return 0;
}

int profile_insert(struct perfev_profile *p, uint32_t th, const uint32_t *path, size_t n,
		   uint64_t weight, uint64_t time)
{
	int64_t node;
	uint64_t key = thread_key(th);

	if (rebuild_index(p))
		return set_error(ENOMEM, "profile: out of memory");
	node = child(p, 0, PERFEV_PROFILE_NONE, th, key);
	if (node < 0)
		return set_error(ENOMEM, "profile: out of memory");
	p->nodes[0].total += weight;
	p->nodes[0].total_samples++;
	p->nodes[node].total += weight;
	p->nodes[node].total_samples++;
	size_t same = 0;
	struct prev_stack *ps;

	if ((size_t)th >= p->cap_prev) {
		size_t cap = (size_t)th * 2 + 8;
		struct prev_stack *np = realloc(p->prev, cap * sizeof(*np));

		if (!np)
			return set_error(ENOMEM, "profile: out of memory");
		memset(np + p->cap_prev, 0, (cap - p->cap_prev) * sizeof(*np));
		p->prev = np;
		p->cap_prev = cap;
	}
	ps = &p->prev[th];
	while (same < n && same < ps->nr && path[same] == ps->path[same])
		same++;
	if (n > ps->cap) {
		size_t cap = n * 2;
		uint32_t *a = realloc(ps->path, cap * sizeof(*a)), *b;

		if (a)
			ps->path = a;
		b = a ? realloc(ps->nodes, cap * sizeof(*b)) : NULL;
		if (!b)
			return set_error(ENOMEM, "profile: out of memory");
		ps->nodes = b;
		ps->cap = cap;
	}
	if (!array_grow((void **)&p->keys, &p->cap_keys, n + 1, sizeof(*p->keys)))
		return set_error(ENOMEM, "profile: out of memory");
	if (same < n && (p->nr_children + n) * 2 > p->cap_children && !children_grow(p))
		return set_error(ENOMEM, "profile: out of memory");
	for (size_t i = 0; i < n; i++) {
		key = hash_mix(key, path[i]);
		p->keys[i] = key;
		if (i >= same && p->cap_children)
			__builtin_prefetch(&p->children[child_slot(key_tag(key), p->children_bits)]);
	}
	/* Then the nodes the slots name, whose parent and frame the lookup compares. */
	for (size_t i = same; i < n && p->cap_children; i++) {
		const struct child_slot *c =
			&p->children[child_slot(key_tag(p->keys[i]), p->children_bits)];

		if (c->node1 && c->tag == key_tag(p->keys[i]))
			__builtin_prefetch(&p->nodes[c->node1 - 1], 1);
	}
	for (size_t i = 0; i < n; i++) {
		if (i < same)
			node = ps->nodes[i];
		else
			node = child(p, node, path[i], th, p->keys[i]);
		if (node < 0) {
			ps->nr = 0;
			return set_error(ENOMEM, "profile: out of memory");
		}
		p->nodes[node].total += weight;
		p->nodes[node].total_samples++;
		ps->path[i] = path[i];
		ps->nodes[i] = node;
	}
	ps->nr = n;
	p->nodes[node].self += weight;
	p->nodes[node].self_samples++;
	return p->opts.times ? keep_time(p, time, (uint32_t)node, weight) : 0;
}

int64_t profile_node(struct perfev_profile *p, uint32_t parent, uint32_t frame, uint32_t thread,
		     uint64_t key)
{
	return rebuild_index(p) ? -1 : child(p, parent, frame, thread, key);
}

uint64_t profile_key(uint64_t parent_key, uint32_t frame, uint32_t thread, bool thread_node)
{
	return thread_node ? thread_key(thread) : hash_mix(parent_key, frame);
}

void profile_sum_totals(struct perfev_profile *p)
{
	for (size_t i = 0; i < p->nr_nodes; i++) {
		p->nodes[i].total = p->nodes[i].self;
		p->nodes[i].total_samples = p->nodes[i].self_samples;
	}
	/* A node's parent has a smaller index: one backward pass adds every subtree up. */
	for (size_t i = p->nr_nodes; i-- > 1;) {
		struct perfev_profile_node *n = &p->nodes[i], *up = &p->nodes[n->parent];

		up->total += n->total;
		up->total_samples += n->total_samples;
	}
}
