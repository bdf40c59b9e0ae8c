/* SPDX-License-Identifier: MIT */
/*
 * A profile's call tree as a flame graph shows it: nodes merged by what
 * they show (a label and a kind), so that two frames with one name are one
 * box, and each node's children in the order of their labels' bytes.
 * Folded stacks and the SVG are written from it.
 */
#ifndef PERFEV_PROFILE_FLAME_H
#define PERFEV_PROFILE_FLAME_H

#include "profile/write_int.h"

struct flame_node {
	uint32_t parent;
	uint32_t first_child, next_sibling; /* in label order, after flame_build() */
	uint32_t label;	 /* strtab index */
	uint32_t file;	 /* strtab index: the file of the first frame merged here */
	uint8_t kind;	 /* enum frame_kind */
	uint32_t depth;	 /* 0 root */
	uint64_t self, total;
	uint64_t self_samples, total_samples;
};

struct flame {
	struct flame_node *n; /* n[0] is the root */
	size_t nr, cap;
	struct idxhash h;
	struct strtab labels;
};

/*
 * Builds fl from profile p: stacks begin with the thread as prefix says;
 * folded: labels as stackcollapse-perf.pl --all writes them (tidied,
 * "_[k]", "_[j]", "_[i]"), else the frame's name ("[file]" when unresolved).
 * 0 or -ENOMEM.
 */
int flame_build(struct flame *fl, const struct perfev_profile *p, enum perfev_write_prefix prefix,
		bool folded);
void flame_free(struct flame *fl);
/*
 * For a differential flame graph: each node of a, the node of b on the same
 * path of labels and kinds (b_of[i], PERFEV_PROFILE_NONE when b has none);
 * b_of has a->nr entries.  0 or -ENOMEM.
 */
int flame_match(const struct flame *a, const struct flame *b, uint32_t *b_of);

#endif
