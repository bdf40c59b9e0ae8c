/* SPDX-License-Identifier: MIT */
/*
 * perfev: a profile's nodes grouped into entries by sort keys, as perf
 * report's rows are (perf's "hists"): nodes whose thread and frame agree on
 * every key are one entry.  Each entry has a self weight (samples whose
 * innermost frame it is) and, when asked for, a children weight (samples
 * with it anywhere on the stack, counted once however often recursion
 * repeats it).  Every node knows its entry and every entry its nodes, for
 * the call graph below it.
 *
 *	enum perfev_profile_key keys[] = { PERFEV_PROFILE_KEY_COMM, PERFEV_PROFILE_KEY_SYM };
 *	struct perfev_profile_table_opts o = { .sz = sizeof(o), .keys = keys, .nr_keys = 2,
 *					       .children = true };
 *	struct perfev_profile_table *t = perfev_profile_table__new(p, &o);
 *	for (size_t i = 0; i < perfev_profile_table__nr_entries(t); i++)
 *		use(perfev_profile_table__entry(t, i));
 */
#ifndef PERFEV_PROFILE_TABLE_H
#define PERFEV_PROFILE_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "perfev/common.h"
#include "perfev/profile.h"

#ifdef __cplusplus
extern "C" {
#endif

struct perfev_profile_table;

/* What tells entries apart (perf report's --sort keys). */
enum perfev_profile_key {
	PERFEV_PROFILE_KEY_COMM,    /* the thread's command */
	PERFEV_PROFILE_KEY_PID,	    /* the process (and its command) */
	PERFEV_PROFILE_KEY_TID,	    /* the thread (and its command) */
	PERFEV_PROFILE_KEY_DSO,	    /* the file the frame is in (the kernel is one) */
	PERFEV_PROFILE_KEY_SYM,	    /* the function, or the address in its file when unresolved */
	PERFEV_PROFILE_KEY_SRCLINE, /* the source line (needs perfev_profile_opts.srcline) */
	PERFEV_PROFILE_NR_KEYS,
};

struct perfev_profile_table_opts {
	size_t sz; /* sizeof(struct perfev_profile_table_opts) */
	/* The keys, in any order (a repeated one changes nothing); none: comm, dso, sym as perf's. */
	const enum perfev_profile_key *keys;
	size_t nr_keys;
	/* Also each entry's children weight (a walk of the whole tree); else 0. */
	bool children;
	size_t :0;
};

/* One entry: the node its keys were taken from first, and its weights. */
struct perfev_profile_entry {
	uint32_t thread; /* perfev_profile__thread(): the comm, pid and tid keys' values */
	uint32_t frame;	 /* perfev_profile__frame(): the dso, sym and srcline keys' values */
	uint64_t self;	 /* weight of the samples whose innermost frame is the entry's */
	uint64_t children; /* weight of the samples with the entry on their stack */
	uint64_t samples;  /* number of samples whose innermost frame is the entry's */
};

/*
 * Groups profile p's nodes (those it has now: the table does not follow
 * stacks added later) by opts' keys (NULL opts: the default keys, no
 * children weights); NULL with errno (EINVAL: an unknown key; ENOMEM).
 */
PERFEV_API struct perfev_profile_table *
perfev_profile_table__new(const struct perfev_profile *p, const struct perfev_profile_table_opts *opts);
PERFEV_API void perfev_profile_table__delete(struct perfev_profile_table *t);

/* Entries in the order of their first node. */
PERFEV_API size_t perfev_profile_table__nr_entries(const struct perfev_profile_table *t);
PERFEV_API const struct perfev_profile_entry *
perfev_profile_table__entry(const struct perfev_profile_table *t, size_t i);
/* Node i's entry, or PERFEV_PROFILE_NONE (the root, thread nodes, nodes past the table's). */
PERFEV_API uint32_t perfev_profile_table__node_entry(const struct perfev_profile_table *t, size_t node);
/*
 * Entry i's nodes in index order (so a node's ancestors of the same entry
 * come before it): the first, then each next; PERFEV_PROFILE_NONE ends them.
 */
PERFEV_API uint32_t perfev_profile_table__first_node(const struct perfev_profile_table *t, size_t i);
PERFEV_API uint32_t perfev_profile_table__next_node(const struct perfev_profile_table *t, size_t node);

#ifdef __cplusplus
}
#endif
#endif
