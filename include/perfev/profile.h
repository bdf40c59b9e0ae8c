/* SPDX-License-Identifier: MIT */
/*
 * perfev: the profile every output is built from: a call tree of weighted
 * stacks.  The root's children are threads (command, pid, tid); below a
 * thread, the outermost callers, down to the sampled functions.  Each node
 * has a self weight (samples whose innermost frame it is) and a total weight
 * (its own and its descendants').  Frames are interned: the same function
 * in two places of the tree is the same frame index.
 *
 *	struct perfev_profile *p = perfev_profile__new(NULL);
 *	... perfev_profile__add(p, s->thread, s->frames, s->nr_frames, s->period);
 *	for (size_t i = 0; i < perfev_profile__nr_nodes(p); i++)
 *		use(perfev_profile__node(p, i));
 */
#ifndef PERFEV_PROFILE_H
#define PERFEV_PROFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "perfev/common.h"
#include "perfev/session.h"
#include "perfev/symbols.h"

#ifdef __cplusplus
extern "C" {
#endif

struct perfev_profile;

#define PERFEV_PROFILE_NONE UINT32_MAX

struct perfev_profile_opts {
	size_t sz; /* sizeof(struct perfev_profile_opts) */
	/* Key frames by source line too (a function's lines become distinct frames). */
	bool srcline;
	/* Expand inlined functions into frames of their own (needs DWARF). */
	bool inlines;
	/* One thread node for everything (command, pid and tid not kept). */
	bool merge_threads;
	/* One thread node per command name (pid and tid not kept, as -1). */
	bool merge_pids;
	/*
	 * Build the tree on a thread of the profile's own: perfev_profile__add()
	 * interns the stack's frames (on the caller's thread, which owns the
	 * DSOs they may read), queues their indices and returns, and the
	 * caller's next sample is read while this one goes into the tree.
	 * Reading the profile (any accessor below) first waits for the stacks
	 * added so far.  Adding and reading from several threads at once is not
	 * supported either way.
	 */
	bool background;
	/*
	 * Keep each sample's time, weight and the node its stack ended in
	 * (20 bytes a sample), for timelines and time ranges chosen after
	 * the fact.
	 */
	bool times;
	/*
	 * As perf 6.1 reads DWARF-unwound stacks: each frame the unwinder
	 * found (perfev_frame.unwound) becomes its inline chain, and the
	 * sample's self weight stays on its ELF symbol (a frame marked
	 * self_only ends such a stack).  Frames of other stacks stay as they are.
	 */
	bool unwound_inlines;
	size_t :0;
};

/* A function (or an unresolved address) in the tree. */
struct perfev_profile_frame {
	struct perfev_dso *dso;		 /* NULL: no map held the address */
	const struct perfev_symbol *sym; /* NULL: unresolved */
	/* Unresolved: the address (in the DSO when dso, else as sampled); 0 with a sym. */
	uint64_t addr;
	const char *inline_name; /* an inlined function's name (sym is the one it is inlined into) */
	struct perfev_srcline src; /* with opts.srcline; { NULL, 0 } when unknown */
	bool kernel;
	/*
	 * With opts.unwound_inlines: the sample's ELF symbol after the inlined
	 * functions it was taken in, there only to hold the sample's self
	 * weight (perf's Self stays on the symbol); no frame of the stack, so
	 * call graphs end at its parent.
	 */
	bool self_only;
};

struct perfev_profile_thread {
	const char *comm; /* the session's string: valid while the session is */
	int pid, tid;
};

struct perfev_profile_node {
	uint32_t frame;	 /* PERFEV_PROFILE_NONE for the root and thread nodes */
	uint32_t thread; /* the thread the path belongs to; NONE for the root */
	uint32_t parent; /* NONE for the root (node 0) */
	uint32_t first_child, next_sibling; /* NONE when there is none */
	uint32_t depth;	 /* 0 root, 1 thread, 2 outermost frames... */
	uint64_t self, total;
	uint64_t self_samples, total_samples;
};

PERFEV_API struct perfev_profile *perfev_profile__new(const struct perfev_profile_opts *opts);
PERFEV_API void perfev_profile__delete(struct perfev_profile *p);

/*
 * Adds one stack (innermost frame first, as the session gives it) with its
 * weight.  0 or -ENOMEM (with opts.background, possibly met by an earlier
 * stack: the profile then stops growing).
 */
PERFEV_API int perfev_profile__add(struct perfev_profile *p, const struct perfev_thread *t,
				   const struct perfev_frame *frames, size_t nr, uint64_t weight);
/* The same, with the sample's time (kept with opts.times; 0: none). */
PERFEV_API int perfev_profile__add_at(struct perfev_profile *p, const struct perfev_thread *t,
				      const struct perfev_frame *frames, size_t nr, uint64_t weight,
				      uint64_t time);
/*
 * Waits until every stack added is in the tree (with opts.background; at
 * once otherwise); 0, or -ENOMEM when one could not be inserted.
 */
PERFEV_API int perfev_profile__sync(struct perfev_profile *p);

/* Node 0 is the root; a node's parent always has a smaller index. */
/*
 * Waits as perfev_profile__sync() does, then frees what only adding stacks
 * needs (the index that finds a node by its path, each thread's last
 * stack): for a profile complete before it is read, such as a report of a
 * file, whose tables then take that memory instead.  Adding a stack
 * afterwards rebuilds them (once, in time linear in the nodes).  0 or a
 * negative errno.
 */
PERFEV_API int perfev_profile__trim(struct perfev_profile *p);
PERFEV_API size_t perfev_profile__nr_nodes(const struct perfev_profile *p);
PERFEV_API const struct perfev_profile_node *perfev_profile__node(const struct perfev_profile *p,
								  size_t i);
PERFEV_API size_t perfev_profile__nr_frames(const struct perfev_profile *p);
PERFEV_API const struct perfev_profile_frame *
perfev_profile__frame(const struct perfev_profile *p, size_t i);
PERFEV_API size_t perfev_profile__nr_threads(const struct perfev_profile *p);
PERFEV_API const struct perfev_profile_thread *
perfev_profile__thread(const struct perfev_profile *p, size_t i);

/*
 * With opts.times: the samples added, in that order, each with its time,
 * the node its stack ended in and its weight (part of that node's self);
 * -ENOENT past the last.
 */
PERFEV_API size_t perfev_profile__nr_timed(const struct perfev_profile *p);
PERFEV_API int perfev_profile__timed(const struct perfev_profile *p, size_t i, uint64_t *time,
				     uint32_t *node, uint64_t *weight);

/*
 * Multiplies every node's weights and sample counts by num/den (rounded
 * down; num <= den), as perf top ages its entries (7/8 at each refresh);
 * 0/1 zeroes them.  Nodes stay, with zero weights, so the tree goes on
 * growing where it left off.  Timed samples (opts.times) keep their
 * weights.  0, -EINVAL for a fraction above 1, or an error of the
 * background inserter.
 */
PERFEV_API int perfev_profile__decay(struct perfev_profile *p, uint64_t num, uint64_t den);

/* Which part of a profile perfev_profile__zoom() keeps. */
struct perfev_profile_zoom_opts {
	size_t sz; /* sizeof(struct perfev_profile_zoom_opts) */
	/* Only the stacks of thread (a perfev_profile__thread() index). */
	bool by_thread;
	uint32_t thread;
	/* Only the stacks of threads running this command; NULL: any. */
	const char *comm;
	/*
	 * Only the stacks through frame, from its outermost call down: the
	 * function's callees, with the function as the outermost frame below
	 * each thread (perf report's zoom).
	 */
	bool by_frame;
	uint32_t frame;
	size_t :0;
};

/*
 * A new profile of the part of p opts keep (NULL: all of it), with p's
 * frames and threads under the same indices (the frames' DSOs, symbols and
 * names are p's session's: valid while it is).  It is for reading: adding
 * to it is not supported.  NULL with errno (EINVAL: an index out of range;
 * ENOMEM).
 */
PERFEV_API struct perfev_profile *perfev_profile__zoom(const struct perfev_profile *p,
						       const struct perfev_profile_zoom_opts *opts);

/*
 * The map frame i was first seen in (the session's: valid while it is), or
 * NULL: where its file was loaded, for outputs that name load addresses.
 */
PERFEV_API const struct perfev_map *perfev_profile__frame_map(const struct perfev_profile *p,
							      size_t i);

/*
 * A frame's name: the symbol's (or the inlined function's), else the
 * address as perf's table prints it ("0x00007f0012345678", and
 * "0000000000000000" for zero); into buf, returned.
 */
PERFEV_API const char *perfev_profile_frame__name(const struct perfev_profile_frame *f, char *buf,
						  size_t size);

#ifdef __cplusplus
}
#endif
#endif
