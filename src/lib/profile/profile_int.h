/* SPDX-License-Identifier: MIT */
/* The profile's insides, shared by its tree (tree.c), its background inserter (inserter.c) and its API (profile.c). */
#ifndef PERFEV_PROFILE_INT_H
#define PERFEV_PROFILE_INT_H

#include "util/idxhash.h"
#include "perfev/profile.h"

struct profile_bg;

struct perfev_profile {
	struct perfev_profile_opts opts;
	struct perfev_profile_node *nodes;
	size_t nr_nodes, cap_nodes;
	/*
	 * Nodes by the hash of their path: a slot holds the hash's upper half
	 * as a tag, so a probe rarely touches a node that is not the one sought
	 * (the node's parent and frame decide).  2^children_bits slots.
	 */
	struct child_slot {
		uint32_t tag;
		uint32_t node1; /* node + 1; 0: empty */
	} *children;
	size_t cap_children, nr_children;
	unsigned children_bits;
	struct perfev_profile_frame *frames;
	size_t nr_frames, cap_frames;
	/* Each frame's first map, beside frames; cur_map: the map of the frame being added. */
	const struct perfev_map **frame_maps;
	size_t cap_frame_maps;
	const struct perfev_map *cur_map;
	/*
	 * Frames [0, nr_hashed) are in frame_hash.  While every frame came by
	 * a new id of one session, none need be: ids already tell them apart.
	 */
	struct idxhash frame_hash;
	size_t nr_hashed;
	struct perfev_profile_thread *threads;
	size_t nr_threads, cap_threads;
	struct idxhash thread_hash;
	/* One stack's frame indices, outermost first. */
	uint32_t *path;
	size_t cap_path;
	uint64_t *keys; /* the path hash of each level */
	size_t cap_keys;
	/*
	 * Each thread's previous stack, path and nodes: a thread's consecutive
	 * samples mostly share their outer callers, whose nodes are then found
	 * without a lookup.
	 */
	struct prev_stack {
		uint32_t *path, *nodes;
		size_t nr, cap;
	} *prev;
	size_t cap_prev;
	/* Recently interned frames by their identity (direct-mapped): no hashing of names. */
	struct fcache_ent {
		struct perfev_dso *dso;
		const struct perfev_symbol *sym;
		uint64_t addr;
		uint32_t idx1; /* frame + 1; 0: empty */
		bool kernel;
	} fcache[4096];
	/*
	 * Frames by their session's perfev_frame.id (frame + 1; 0: not yet),
	 * for the session id_space: no hashing for frames seen before.
	 */
	uint32_t *frame_of_id;
	size_t cap_ids;
	uint32_t id_space;
	/* With opts.background: the thread that inserts stacks, else NULL. */
	struct profile_bg *bg;
	/* With opts.times: each sample's time, the node it ended in and its weight, in the order added. */
	uint64_t *times, *time_weights;
	uint32_t *time_nodes;
	size_t nr_times, cap_times;
};


/*
 * Node i of p, for the writers' loops over millions of nodes: no call, no
 * wait.  Valid once the profile has settled (write_opts() makes sure).
 */
#define PNODE(p, i) (&(p)->nodes[(i)])

/*
 * Inserts one stack of thread th, as frame indices outermost first, now, on
 * the calling thread; 0 or -errno with the error set.
 */
/* Frees the index of nodes by path (rebuilt from the nodes when a stack is added again). */
void profile_drop_index(struct perfev_profile *p);
int profile_insert(struct perfev_profile *p, uint32_t th, const uint32_t *path, size_t n,
		   uint64_t weight, uint64_t time);

/*
 * The node of frame (NONE for a thread node) below parent, made when there
 * is none; key is the path's hash, profile_key() of the parent's; -1 when
 * out of memory.  For copies of another profile's tree.
 */
int64_t profile_node(struct perfev_profile *p, uint32_t parent, uint32_t frame, uint32_t thread,
		     uint64_t key);
uint64_t profile_key(uint64_t parent_key, uint32_t frame, uint32_t thread, bool thread_node);
/* Every node's totals again from the selfs below it (after selfs changed). */
void profile_sum_totals(struct perfev_profile *p);

/* Starts the inserting thread; false when it cannot (then stacks are inserted in place). */
bool profile_bg_start(struct perfev_profile *p);
/* Queues one stack for profile_insert(), copied; 0, or the error an earlier stack met (-errno, error set). */
int profile_bg_add(struct perfev_profile *p, uint32_t th, const uint32_t *path, size_t n,
		   uint64_t weight, uint64_t time);
/* Waits until every queued stack is in the tree; 0 or the first error. */
int profile_bg_sync(struct profile_bg *bg);
/* True when stacks were queued since the last sync (read by the adding thread only). */
bool profile_bg_pending(const struct profile_bg *bg);
/* Stops and frees the inserting thread (queued stacks are dropped). */
void profile_bg_stop(struct profile_bg *bg);

#endif
