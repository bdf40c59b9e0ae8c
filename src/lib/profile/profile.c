// SPDX-License-Identifier: MIT
/*
 * The profile's API: frames and threads interned so that equal functions
 * compare by index, a session's stacks turned into frame indices and
 * handed to the tree (tree.c) in place or through the background inserter
 * (inserter.c), and the accessors every output reads the tree with.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/internal.h"
#include "profile/profile_int.h"
#include "session/session_int.h"
#include "util/opts.h"

#define MAX_INLINES 16

struct perfev_profile *perfev_profile__new(const struct perfev_profile_opts *opts)
{
	struct perfev_profile_opts o;
	struct perfev_profile *p;

	if (OPTS_COPY(&o, opts, perfev_profile_opts, srcline) < 0)
		return NULL;
	p = calloc(1, sizeof(*p));
	if (!p)
		return set_error_ptr(ENOMEM, "profile: out of memory");
	p->opts = o;
	if (!array_grow((void **)&p->nodes, &p->cap_nodes, 1, sizeof(*p->nodes))) {
		free(p);
		return set_error_ptr(ENOMEM, "profile: out of memory");
	}
	p->nodes[0] = (struct perfev_profile_node){ .frame = PERFEV_PROFILE_NONE,
						    .thread = PERFEV_PROFILE_NONE,
						    .parent = PERFEV_PROFILE_NONE,
						    .first_child = PERFEV_PROFILE_NONE,
						    .next_sibling = PERFEV_PROFILE_NONE };
	p->nr_nodes = 1;
	if (p->opts.background)
		profile_bg_start(p);
	return p;
}

void perfev_profile__delete(struct perfev_profile *p)
{
	if (!p)
		return;
	profile_bg_stop(p->bg);
	big_array_free(p->nodes, p->cap_nodes, sizeof(*p->nodes));
	free(p->frames);
	free(p->frame_maps);
	free(p->threads);
	free(p->path);
	free(p->keys);
	for (size_t i = 0; i < p->cap_prev; i++) {
		free(p->prev[i].path);
		free(p->prev[i].nodes);
	}
	free(p->prev);
	table_free(p->children, p->cap_children, sizeof(*p->children));
	free(p->frame_of_id);
	free(p->times);
	free(p->time_nodes);
	free(p->time_weights);
	idxhash_free(&p->frame_hash);
	idxhash_free(&p->thread_hash);
	free(p);
}

struct frame_key {
	const struct perfev_profile *p;
	const struct perfev_profile_frame *f;
};

static bool str_eq(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

static bool frame_eq(const void *ctx, uint32_t idx)
{
	const struct frame_key *k = ctx;
	const struct perfev_profile_frame *a = &k->p->frames[idx], *b = k->f;

	return a->dso == b->dso && a->sym == b->sym && a->addr == b->addr &&
	       a->kernel == b->kernel && a->self_only == b->self_only &&
	       str_eq(a->inline_name, b->inline_name) &&
	       a->src.line == b->src.line && str_eq(a->src.file, b->src.file);
}

static uint64_t frame_hash(const struct perfev_profile_frame *f)
{
	uint64_t h = hash_mix((uintptr_t)f->dso, (uintptr_t)f->sym);

	h = hash_mix(h, f->addr ^ ((uint64_t)f->kernel << 63) ^ ((uint64_t)f->self_only << 62) ^
			       f->src.line);
	if (f->inline_name)
		h = hash_mix(h, hash_str(f->inline_name));
	return h;
}

/* A new frame, f's copy, without looking for an equal one: -1 when out of memory. */
static int64_t append_frame(struct perfev_profile *p, const struct perfev_profile_frame *f)
{
	if (p->nr_frames >= PERFEV_PROFILE_NONE - 1 ||
	    !array_grow((void **)&p->frames, &p->cap_frames, p->nr_frames + 1, sizeof(*p->frames)) ||
	    !array_grow((void **)&p->frame_maps, &p->cap_frame_maps, p->nr_frames + 1,
			sizeof(*p->frame_maps)))
		return -1;
	p->frames[p->nr_frames] = *f;
	p->frame_maps[p->nr_frames] = p->cur_map;
	return p->nr_frames++;
}

/* The frame equal to f, added when there is none; -1 when out of memory. */
static int64_t intern_frame(struct perfev_profile *p, const struct perfev_profile_frame *f)
{
	struct frame_key k = { p, f };
	uint64_t h = frame_hash(f);
	int64_t i;

	/* Frames added by id alone go into the hash the first time it is needed. */
	for (; p->nr_hashed < p->nr_frames; p->nr_hashed++)
		if (idxhash_insert(&p->frame_hash, frame_hash(&p->frames[p->nr_hashed]), p->nr_hashed) < 0)
			return -1;
	i = idxhash_find(&p->frame_hash, h, frame_eq, &k);
	if (i >= 0)
		return i;
	i = append_frame(p, f);
	if (i < 0 || idxhash_insert(&p->frame_hash, h, i) < 0)
		return -1;
	p->nr_hashed++;
	return i;
}

struct thread_key {
	const struct perfev_profile *p;
	const struct perfev_profile_thread *t;
};

static bool thread_eq(const void *ctx, uint32_t idx)
{
	const struct thread_key *k = ctx;
	const struct perfev_profile_thread *a = &k->p->threads[idx];

	return a->comm == k->t->comm && a->pid == k->t->pid && a->tid == k->t->tid;
}

static int64_t intern_thread(struct perfev_profile *p, const struct perfev_profile_thread *pt)
{
	struct thread_key k = { p, pt };
	uint64_t h = hash_mix((uintptr_t)pt->comm, ((uint64_t)(uint32_t)pt->pid << 32) | (uint32_t)pt->tid);
	int64_t i = idxhash_find(&p->thread_hash, h, thread_eq, &k);

	if (i >= 0)
		return i;
	if (!array_grow((void **)&p->threads, &p->cap_threads, p->nr_threads + 1, sizeof(*p->threads)) ||
	    idxhash_insert(&p->thread_hash, h, p->nr_threads) < 0)
		return -1;
	p->threads[p->nr_threads] = *pt;
	return p->nr_threads++;
}

static bool push(struct perfev_profile *p, size_t *n, int64_t frame)
{
	if (frame < 0 || !array_grow((void **)&p->path, &p->cap_path, *n + 1, sizeof(*p->path)))
		return false;
	p->path[(*n)++] = frame;
	return true;
}

/*
 * A DWARF-unwound frame's path entries as perf 6.1 makes them (its
 * append_inlines()): the functions inlined at the address, outermost first,
 * each "NAME (inlined)" in its symbol; the symbol itself first only when
 * DWARF names the outermost function as the symbol is named (a clone such
 * as foo.constprop.0 shows only as foo, inlined).  The sample's own frame
 * (leaf) ends in the symbol marked self_only, which takes the sample's self
 * weight: perf keeps Self on the ELF symbol.  0: no inline chain there (the
 * frame goes in as usual); -1: out of memory.
 */
static int add_unwound(struct perfev_profile *p, size_t *n, const struct perfev_frame *fr,
		       bool leaf)
{
	struct perfev_inline_frame in[MAX_INLINES];
	struct perfev_profile_frame f = { .dso = fr->dso, .sym = fr->sym };
	int k, j;

	if (fr->kernel || !fr->dso || !fr->sym)
		return 0;
	k = perfev_dso__inline_frames(fr->dso, fr->addr, in, MAX_INLINES);
	if (k <= 0)
		return 0;
	if (k > MAX_INLINES)
		k = MAX_INLINES;
	j = k - 1;
	if (!strcmp(in[j].name, fr->sym->name)) {
		if (!j)
			return 0;
		if (!push(p, n, intern_frame(p, &f)))
			return -1;
		j--;
	}
	for (; j >= 0; j--) {
		struct perfev_profile_frame g = f;

		g.inline_name = in[j].name;
		if (!push(p, n, intern_frame(p, &g)))
			return -1;
	}
	if (leaf) {
		f.self_only = true;
		if (!push(p, n, intern_frame(p, &f)))
			return -1;
	}
	return 1;
}

/*
 * Appends one sampled frame's path entries (outermost first: the symbol, then
 * what is inlined in it).  by_id: fr->id numbers frames in p's id space.
 * leaf: the frame the sample was taken in.
 */
static bool add_frame(struct perfev_profile *p, size_t *n, const struct perfev_frame *fr, bool by_id,
		      bool leaf)
{
	p->cur_map = fr->map;
	if (p->opts.unwound_inlines && fr->unwound && !p->opts.srcline) {
		int r = add_unwound(p, n, fr, leaf);

		if (r)
			return r > 0;
	}
	/* The common case first: a frame seen before, by its session id. */
	if (by_id && fr->id && !p->opts.srcline && !p->opts.inlines && fr->id < p->cap_ids &&
	    p->frame_of_id[fr->id])
		return push(p, n, p->frame_of_id[fr->id] - 1);

	struct perfev_profile_frame f = { .dso = fr->dso, .sym = fr->sym, .kernel = fr->kernel };

	if (!f.sym)
		f.addr = fr->addr;
	if (p->opts.inlines && f.dso && f.sym && !f.kernel) {
		struct perfev_inline_frame in[MAX_INLINES];
		int k = perfev_dso__inline_frames(f.dso, fr->addr, in, MAX_INLINES);

		if (k > 1) {
			if (k > MAX_INLINES)
				k = MAX_INLINES;
			/* in[k - 1] is the symbol itself; the others were inlined into it. */
			if (p->opts.srcline)
				f.src = in[k - 1].where;
			if (!push(p, n, intern_frame(p, &f)))
				return false;
			for (int j = k - 2; j >= 0; j--) {
				struct perfev_profile_frame g = f;

				g.inline_name = in[j].name;
				g.src = p->opts.srcline ? in[j].where : (struct perfev_srcline){ 0 };
				if (!push(p, n, intern_frame(p, &g)))
					return false;
			}
			return true;
		}
	}
	if (by_id && fr->id && !p->opts.srcline) {
		int64_t idx;

		if (fr->id < p->cap_ids && p->frame_of_id[fr->id])
			return push(p, n, p->frame_of_id[fr->id] - 1);
		/* A new id is a new frame, unless frames came another way too. */
		idx = p->nr_hashed ? intern_frame(p, &f) : append_frame(p, &f);
		if (idx >= 0 && fr->id >= p->cap_ids) {
			size_t old = p->cap_ids;

			if (!array_grow((void **)&p->frame_of_id, &p->cap_ids, (size_t)fr->id + 1,
					sizeof(*p->frame_of_id)))
				return false;
			memset(p->frame_of_id + old, 0, (p->cap_ids - old) * sizeof(*p->frame_of_id));
		}
		if (idx >= 0)
			p->frame_of_id[fr->id] = (uint32_t)idx + 1;
		return push(p, n, idx);
	}
	if (!p->opts.srcline && !f.inline_name) {
		struct fcache_ent *c = &p->fcache[hash_mix((uintptr_t)f.dso ^ f.addr, (uintptr_t)f.sym) &
						  (ARRAY_SIZE(p->fcache) - 1)];
		int64_t idx;

		if (c->idx1 && c->dso == f.dso && c->sym == f.sym && c->addr == f.addr &&
		    c->kernel == f.kernel)
			return push(p, n, c->idx1 - 1);
		idx = intern_frame(p, &f);
		if (idx >= 0)
			*c = (struct fcache_ent){ f.dso, f.sym, f.addr, (uint32_t)idx + 1, f.kernel };
		return push(p, n, idx);
	}
	if (p->opts.srcline &&
	    (!f.dso || f.kernel || perfev_dso__srcline(f.dso, fr->addr, &f.src) < 0)) {
		/* No line known: the address itself tells places apart (perf's "sym+off"). */
		f.src = (struct perfev_srcline){ 0 };
		f.addr = fr->addr;
	}
	return push(p, n, intern_frame(p, &f));
}

int perfev_profile__add(struct perfev_profile *p, const struct perfev_thread *t,
			const struct perfev_frame *frames, size_t nr, uint64_t weight)
{
	return perfev_profile__add_at(p, t, frames, nr, weight, 0);
}

int perfev_profile__add_at(struct perfev_profile *p, const struct perfev_thread *t,
			   const struct perfev_frame *frames, size_t nr, uint64_t weight, uint64_t time)
{
	struct perfev_profile_thread pt = { "", -1, -1 };
	int64_t th;
	size_t n = 0;

	if (t && !p->opts.merge_threads) {
		pt.comm = perfev_thread__comm(t);
		if (!p->opts.merge_pids) {
			pt.pid = perfev_thread__pid(t);
			pt.tid = perfev_thread__tid(t);
		}
	}
	/*
	 * Threads and frames are interned here, on the caller's thread (which
	 * owns the DSOs they may read); only the tree of frame indices is
	 * built in the background.
	 */
	th = intern_thread(p, &pt);
	if (th < 0)
		return set_error(ENOMEM, "profile: out of memory");
	/* Frame ids are good within one session: the first one's are used. */
	if (t && !p->id_space)
		p->id_space = t->id_space;
	bool by_id = t && t->id_space == p->id_space;

	for (size_t i = nr; i-- > 0;)
		if (!add_frame(p, &n, &frames[i], by_id, i == 0))
			return set_error(ENOMEM, "profile: out of memory");
	if (p->bg)
		return profile_bg_add(p, th, p->path, n, weight, time);
	return profile_insert(p, th, p->path, n, weight, time);
}

int perfev_profile__sync(struct perfev_profile *p)
{
	return p->bg ? profile_bg_sync(p->bg) : 0;
}

int perfev_profile__trim(struct perfev_profile *p)
{
	int err;

	if (!p)
		return set_error(EINVAL, "perfev_profile__trim: no profile");
	err = perfev_profile__sync(p);
	if (err < 0)
		return err;
	profile_drop_index(p);
	free(p->keys);
	p->keys = NULL;
	p->cap_keys = 0;
	for (size_t i = 0; i < p->cap_prev; i++) {
		free(p->prev[i].path);
		free(p->prev[i].nodes);
	}
	free(p->prev);
	p->prev = NULL;
	p->cap_prev = 0;
	return 0;
}

int perfev_profile__decay(struct perfev_profile *p, uint64_t num, uint64_t den)
{
	int err;

	if (!den || num > den)
		return set_error(EINVAL, "profile: decay by %" PRIu64 "/%" PRIu64 " is not a fraction of "
				 "at most 1", num, den);
	err = perfev_profile__sync(p);
	if (err < 0)
		return err;
	for (size_t i = 1; i < p->nr_nodes; i++) {
		struct perfev_profile_node *n = &p->nodes[i];

		/* 128 bits: a weight times the numerator may not fit 64. */
		n->self = (uint64_t)((unsigned __int128)n->self * num / den);
		n->self_samples = (uint64_t)((unsigned __int128)n->self_samples * num / den);
	}
	profile_sum_totals(p);
	return 0;
}

/* Reading waits for the stacks still being inserted (the tree is the inserting thread's until then). */
static void settle(const struct perfev_profile *p)
{
	if (p->bg && profile_bg_pending(p->bg))
		profile_bg_sync(p->bg);
}

size_t perfev_profile__nr_nodes(const struct perfev_profile *p)
{
	settle(p);
	return p->nr_nodes;
}

const struct perfev_profile_node *perfev_profile__node(const struct perfev_profile *p, size_t i)
{
	settle(p);
	return i < p->nr_nodes ? &p->nodes[i] : NULL;
}

size_t perfev_profile__nr_frames(const struct perfev_profile *p)
{
	settle(p);
	return p->nr_frames;
}

const struct perfev_profile_frame *perfev_profile__frame(const struct perfev_profile *p, size_t i)
{
	settle(p);
	return i < p->nr_frames ? &p->frames[i] : NULL;
}

size_t perfev_profile__nr_threads(const struct perfev_profile *p)
{
	settle(p);
	return p->nr_threads;
}

const struct perfev_profile_thread *perfev_profile__thread(const struct perfev_profile *p,
							   size_t i)
{
	settle(p);
	return i < p->nr_threads ? &p->threads[i] : NULL;
}

const struct perfev_map *perfev_profile__frame_map(const struct perfev_profile *p, size_t i)
{
	settle(p);
	return i < p->nr_frames ? p->frame_maps[i] : NULL;
}

size_t perfev_profile__nr_timed(const struct perfev_profile *p)
{
	settle(p);
	return p->nr_times;
}

int perfev_profile__timed(const struct perfev_profile *p, size_t i, uint64_t *time, uint32_t *node,
			  uint64_t *weight)
{
	settle(p);
	if (i >= p->nr_times)
		return -ENOENT;
	*time = p->times[i];
	*node = p->time_nodes[i];
	*weight = p->time_weights[i];
	return 0;
}

const char *perfev_profile_frame__name(const struct perfev_profile_frame *f, char *buf,
				       size_t size)
{
	if (f->inline_name)
		snprintf(buf, size, "%s", f->inline_name);
	else if (f->sym)
		snprintf(buf, size, "%s", f->sym->name);
	else if (size) {
		/*
		 * "0x%016llx", or without the 0x for a zero, as perf's table shows
		 * it: by hand, as a flat report of a program without symbols names
		 * tens of thousands of addresses and snprintf was a tenth of its
		 * table's time.
		 */
		char hex[2 + 16] = "0x";
		const char *from = f->addr ? hex : hex + 2;
		size_t n = f->addr ? 18 : 16;
		uint64_t a = f->addr;

		for (size_t i = 0; i < 16; i++, a >>= 4)
			hex[17 - i] = "0123456789abcdef"[a & 15];
		if (n > size - 1)
			n = size - 1;
		memcpy(buf, from, n);
		buf[n] = '\0';
	}
	return buf;
}
