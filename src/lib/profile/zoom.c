// SPDX-License-Identifier: MIT
/*
 * Views of a profile as profiles of their own, for browsing: one thread's
 * (or one command's) stacks, and a function's callees (the stacks through
 * it, cut above its outermost call, so it becomes the outermost frame).
 * The copy shares the original's frame and thread numbering, so an entry
 * of either names the same function and thread.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util/internal.h"
#include "profile/profile_int.h"
#include "util/opts.h"

#define NONE PERFEV_PROFILE_NONE

/* Where a node of the original stands in the view. */
enum { OUT = NONE, ABOVE = NONE - 1 };

static bool thread_ok(const struct perfev_profile *p, const struct perfev_profile_zoom_opts *o,
		      uint32_t th)
{
	const struct perfev_profile_thread *t = &p->threads[th];

	if (o->by_thread && th != o->thread)
		return false;
	return !o->comm || (t->comm && !strcmp(t->comm, o->comm));
}

static int copy_tables(struct perfev_profile *q, const struct perfev_profile *p)
{
	size_t nf = p->nr_frames ? p->nr_frames : 1, nt = p->nr_threads ? p->nr_threads : 1;

	q->frames = malloc(nf * sizeof(*q->frames));
	q->frame_maps = malloc(nf * sizeof(*q->frame_maps));
	q->threads = malloc(nt * sizeof(*q->threads));
	if (!q->frames || !q->frame_maps || !q->threads)
		return set_error(ENOMEM, "profile: out of memory");
	/* An empty profile has no arrays to copy from (memcpy may not be given NULL). */
	if (p->nr_frames) {
		memcpy(q->frames, p->frames, p->nr_frames * sizeof(*q->frames));
		memcpy(q->frame_maps, p->frame_maps, p->nr_frames * sizeof(*q->frame_maps));
	}
	if (p->nr_threads)
		memcpy(q->threads, p->threads, p->nr_threads * sizeof(*q->threads));
	q->nr_frames = q->cap_frames = q->cap_frame_maps = p->nr_frames;
	q->nr_threads = q->cap_threads = p->nr_threads;
	/* Read-only: nothing is ever looked up by identity in it. */
	q->nr_hashed = q->nr_frames;
	return 0;
}

struct zoom {
	struct perfev_profile *q;
	const struct perfev_profile *p;
	const struct perfev_profile_zoom_opts *o;
	uint32_t *map;	   /* original node -> the copy's, OUT or ABOVE */
	uint32_t *qthread; /* thread -> the copy's thread node, NONE before its first stack */
	uint64_t *keys;	   /* the copy's node -> its path hash */
};

static int64_t node_in(struct zoom *z, uint32_t up, uint32_t frame, uint32_t th)
{
	bool thread_node = frame == NONE;
	uint64_t key = profile_key(z->keys[up], frame, th, thread_node);
	int64_t k = profile_node(z->q, up, frame, th, key);

	if (k >= 0)
		z->keys[k] = key;
	return k;
}

static int64_t thread_node(struct zoom *z, uint32_t th)
{
	int64_t k;

	if (z->qthread[th] != NONE)
		return z->qthread[th];
	k = node_in(z, 0, NONE, th);
	if (k >= 0)
		z->qthread[th] = (uint32_t)k;
	return k;
}

/* Places original node i (its parent placed before it): the copy's node, OUT, ABOVE, or -1. */
static int64_t place(struct zoom *z, size_t i)
{
	const struct perfev_profile_node *n = &z->p->nodes[i];
	uint32_t up = z->map[n->parent];

	if (n->depth == 1) {
		if (!thread_ok(z->p, z->o, n->thread))
			return OUT;
		return z->o->by_frame ? ABOVE : thread_node(z, n->thread);
	}
	if (up == OUT)
		return OUT;
	if (up == ABOVE) {
		int64_t t;

		if (n->frame != z->o->frame)
			return ABOVE;
		t = thread_node(z, n->thread);
		return t < 0 ? -1 : node_in(z, (uint32_t)t, n->frame, n->thread);
	}
	return node_in(z, up, n->frame, n->thread);
}

static void zoom_free(struct zoom *z)
{
	free(z->map);
	free(z->qthread);
	free(z->keys);
}

struct perfev_profile *perfev_profile__zoom(const struct perfev_profile *p,
					    const struct perfev_profile_zoom_opts *opts)
{
	struct perfev_profile_zoom_opts o;
	struct perfev_profile_opts po = { .sz = sizeof(po) };
	struct zoom z = { .p = p, .o = &o };
	size_t nr = perfev_profile__nr_nodes(p); /* waits for a background inserter */
	int err;

	if (OPTS_COPY(&o, opts, perfev_profile_zoom_opts, frame) < 0)
		return NULL;
	if (o.by_thread && o.thread >= p->nr_threads)
		return set_error_ptr(EINVAL, "profile: zoom into thread %u of %zu", o.thread, p->nr_threads);
	if (o.by_frame && o.frame >= p->nr_frames)
		return set_error_ptr(EINVAL, "profile: zoom into frame %u of %zu", o.frame, p->nr_frames);
	po.srcline = p->opts.srcline;
	po.inlines = p->opts.inlines;
	po.unwound_inlines = p->opts.unwound_inlines;
	po.merge_threads = p->opts.merge_threads;
	po.merge_pids = p->opts.merge_pids;
	z.q = perfev_profile__new(&po);
	z.map = malloc(nr * sizeof(*z.map));
	z.qthread = malloc((p->nr_threads ? p->nr_threads : 1) * sizeof(*z.qthread));
	z.keys = calloc(nr, sizeof(*z.keys));
	if (!z.q || !z.map || !z.qthread || !z.keys) {
		err = -ENOMEM;
		set_error(ENOMEM, "profile: out of memory");
		goto err_out;
	}
	err = copy_tables(z.q, p);
	if (err < 0)
		goto err_out;
	memset(z.qthread, 0xff, (p->nr_threads ? p->nr_threads : 1) * sizeof(*z.qthread));
	z.map[0] = 0;
	for (size_t i = 1; i < nr; i++) {
		int64_t k = place(&z, i);

		if (k == -1) {
			err = set_error(ENOMEM, "profile: out of memory");
			goto err_out;
		}
		z.map[i] = (uint32_t)k;
		if (k != OUT && k != ABOVE) {
			z.q->nodes[k].self += p->nodes[i].self;
			z.q->nodes[k].self_samples += p->nodes[i].self_samples;
		}
	}
	profile_sum_totals(z.q);
	zoom_free(&z);
	return z.q;
err_out:
	zoom_free(&z);
	perfev_profile__delete(z.q);
	errno = -err;
	return NULL;
}
