// SPDX-License-Identifier: MIT
/*
 * The profile's views and ageing (src/lib/profile/zoom.c, perfev_profile__decay):
 * random stacks over a few threads and frames (recursion included) go into
 * one profile, and the same stacks, cut as the definition says, into a
 * second built the ordinary way; the two are compared path by path (each
 * path from the thread down, named by thread and frame identity, with its
 * self weight and samples).  Zoom into a frame keeps each stack from the
 * frame's outermost call down; zoom into a thread or command keeps that
 * thread's stacks.  Decay scales each node's self (rounded down) and keeps
 * every total the sum of the selfs below it.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "perfev/perfev.h"
#include "session/session_int.h"

#define NONE PERFEV_PROFILE_NONE

static uint64_t dso_mem[2];
#define DSO(i) ((struct perfev_dso *)&dso_mem[i])

static const struct perfev_symbol syms[] = {
	{ .start = 0x100, .size = 16, .name = "main" },
	{ .start = 0x200, .size = 16, .name = "work" },
	{ .start = 0x300, .size = 16, .name = "recurse" },
	{ .start = 0x400, .size = 16, .name = "leaf" },
	{ .start = 0x500, .size = 16, .name = "syscall" },
};

static const struct perfev_frame frames[] = {
	{ .ip = 1, .dso = DSO(0), .sym = &syms[0] },
	{ .ip = 2, .dso = DSO(0), .sym = &syms[1] },
	{ .ip = 3, .dso = DSO(1), .sym = &syms[2] },
	{ .ip = 4, .dso = DSO(1), .sym = &syms[3] },
	{ .ip = 5, .kernel = true, .dso = DSO(0), .sym = &syms[4] },
	{ .ip = 6, .dso = DSO(1), .addr = 0x7000 },
};
#define NR_FRAMES (sizeof(frames) / sizeof(frames[0]))

static struct perfev_thread threads[] = {
	{ .pid = 10, .tid = 10, .comm = "cc1" },
	{ .pid = 10, .tid = 11, .comm = "cc1" },
	{ .pid = 20, .tid = 20, .comm = "make" },
};
#define NR_THREADS (sizeof(threads) / sizeof(threads[0]))

static uint64_t rnd(uint64_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return *x;
}

#define NR_STACKS 2000
#define MAX_DEPTH 9

struct stack {
	size_t th, nr;
	size_t f[MAX_DEPTH]; /* innermost first, as sessions give them */
	uint64_t w;
};

static struct stack stacks[NR_STACKS];

static void make_stacks(uint64_t seed)
{
	uint64_t x = seed;

	for (int i = 0; i < NR_STACKS; i++) {
		stacks[i].th = rnd(&x) % NR_THREADS;
		stacks[i].nr = 1 + rnd(&x) % MAX_DEPTH;
		for (size_t j = 0; j < stacks[i].nr; j++)
			stacks[i].f[j] = rnd(&x) % NR_FRAMES;
		stacks[i].w = 1 + rnd(&x) % 1000;
	}
}

static void add(struct perfev_profile *p, const struct stack *s, size_t from, size_t nr)
{
	struct perfev_frame fs[MAX_DEPTH];

	for (size_t j = 0; j < nr; j++)
		fs[j] = frames[s->f[from + j]];
	assert_int_equal(perfev_profile__add(p, &threads[s->th], fs, nr, s->w), 0);
}

/* Each path with a self weight, as "tid:f0,f1,...=self/samples", sorted: the profile's meaning. */
struct paths {
	char **s;
	size_t n, cap;
};

static size_t frame_ident(const struct perfev_profile *p, uint32_t f)
{
	const struct perfev_profile_frame *pf = perfev_profile__frame(p, f);

	for (size_t i = 0; i < NR_FRAMES; i++)
		if (frames[i].sym == pf->sym && frames[i].dso == pf->dso && frames[i].kernel == pf->kernel &&
		    (pf->sym || frames[i].addr == pf->addr))
			return i;
	fail_msg("frame %u matches no frame of the alphabet", f);
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void collect(const struct perfev_profile *p, struct paths *out, bool check_totals)
{
	size_t nr = perfev_profile__nr_nodes(p);

	out->n = 0;
	for (size_t i = 1; i < nr; i++) {
		const struct perfev_profile_node *n = perfev_profile__node(p, i);
		char buf[512];
		size_t len = 0;
		uint32_t chain[64], depth = 0;

		if (check_totals) {
			uint64_t sum = n->self, ss = n->self_samples;

			for (uint32_t c = n->first_child; c != NONE; c = perfev_profile__node(p, c)->next_sibling) {
				sum += perfev_profile__node(p, c)->total;
				ss += perfev_profile__node(p, c)->total_samples;
			}
			assert_int_equal(n->total, sum);
			assert_int_equal(n->total_samples, ss);
		}
		if (!n->self && !n->self_samples)
			continue;
		for (uint32_t a = (uint32_t)i; perfev_profile__node(p, a)->depth >= 2;
		     a = perfev_profile__node(p, a)->parent)
			chain[depth++] = a;
		len += snprintf(buf + len, sizeof(buf) - len, "%d:",
				perfev_profile__thread(p, n->thread)->tid);
		while (depth--)
			len += snprintf(buf + len, sizeof(buf) - len, "%zu,",
					frame_ident(p, perfev_profile__node(p, chain[depth])->frame));
		snprintf(buf + len, sizeof(buf) - len, "=%llu/%llu", (unsigned long long)n->self,
			 (unsigned long long)n->self_samples);
		if (out->n == out->cap) {
			out->cap = out->cap ? out->cap * 2 : 256;
			out->s = realloc(out->s, out->cap * sizeof(*out->s));
			assert_non_null(out->s);
		}
		out->s[out->n++] = strdup(buf);
	}
	qsort(out->s, out->n, sizeof(*out->s), cmp_str);
}

static void paths_free(struct paths *ps)
{
	for (size_t i = 0; i < ps->n; i++)
		free(ps->s[i]);
	free(ps->s);
	ps->s = NULL;
	ps->n = ps->cap = 0;
}

static void assert_same(const struct perfev_profile *got, const struct perfev_profile *want)
{
	struct paths a = { 0 }, b = { 0 };

	collect(got, &a, true);
	collect(want, &b, true);
	assert_int_equal(a.n, b.n);
	for (size_t i = 0; i < a.n; i++)
		assert_string_equal(a.s[i], b.s[i]);
	assert_int_equal(perfev_profile__node(got, 0)->total, perfev_profile__node(want, 0)->total);
	paths_free(&a);
	paths_free(&b);
}

static struct perfev_profile *whole(void)
{
	struct perfev_profile *p = perfev_profile__new(NULL);

	assert_non_null(p);
	for (int i = 0; i < NR_STACKS; i++)
		add(p, &stacks[i], 0, stacks[i].nr);
	return p;
}

/* The profile's frame index of frames[k] (it must have one). */
static uint32_t frame_index(const struct perfev_profile *p, size_t k)
{
	for (size_t f = 0; f < perfev_profile__nr_frames(p); f++)
		if (frame_ident(p, (uint32_t)f) == k)
			return (uint32_t)f;
	fail_msg("frame %zu is not in the profile", k);
	return 0;
}

static void test_zoom_frame(void **state)
{
	(void)state;
	for (uint64_t seed = 1; seed < 6; seed++) {
		make_stacks(seed * 0x9e3779b97f4a7c15ull);
		struct perfev_profile *p = whole();

		for (size_t k = 0; k < NR_FRAMES; k++) {
			struct perfev_profile_zoom_opts o = { .sz = sizeof(o), .by_frame = true,
							      .frame = frame_index(p, k) };
			struct perfev_profile *z = perfev_profile__zoom(p, &o), *want;

			assert_non_null(z);
			want = perfev_profile__new(NULL);
			assert_non_null(want);
			for (int i = 0; i < NR_STACKS; i++) {
				/* Innermost first: the outermost call is the last occurrence. */
				size_t j = stacks[i].nr;

				while (j-- > 0 && stacks[i].f[j] != k)
					;
				if (j != (size_t)-1)
					add(want, &stacks[i], 0, j + 1);
			}
			assert_same(z, want);
			/* The same indices: a frame of the view is the original's. */
			assert_int_equal(perfev_profile__nr_frames(z), perfev_profile__nr_frames(p));
			assert_ptr_equal(perfev_profile__frame(z, o.frame)->sym,
					 perfev_profile__frame(p, o.frame)->sym);
			perfev_profile__delete(z);
			perfev_profile__delete(want);
		}
		perfev_profile__delete(p);
	}
}

static void test_zoom_thread(void **state)
{
	(void)state;
	make_stacks(42);
	struct perfev_profile *p = whole();

	for (size_t t = 0; t < perfev_profile__nr_threads(p); t++) {
		const struct perfev_profile_thread *pt = perfev_profile__thread(p, t);
		struct perfev_profile_zoom_opts o = { .sz = sizeof(o), .by_thread = true,
						      .thread = (uint32_t)t };
		struct perfev_profile_zoom_opts oc = { .sz = sizeof(oc), .comm = pt->comm };
		struct perfev_profile *z = perfev_profile__zoom(p, &o), *zc = perfev_profile__zoom(p, &oc);
		struct perfev_profile *want = perfev_profile__new(NULL), *wantc = perfev_profile__new(NULL);

		assert_non_null(z);
		assert_non_null(zc);
		for (int i = 0; i < NR_STACKS; i++) {
			if (threads[stacks[i].th].tid == pt->tid)
				add(want, &stacks[i], 0, stacks[i].nr);
			if (!strcmp(threads[stacks[i].th].comm, pt->comm))
				add(wantc, &stacks[i], 0, stacks[i].nr);
		}
		assert_same(z, want);
		assert_same(zc, wantc);
		perfev_profile__delete(z);
		perfev_profile__delete(zc);
		perfev_profile__delete(want);
		perfev_profile__delete(wantc);
	}
	/* Both at once: the thread's stacks through a frame. */
	struct perfev_profile_zoom_opts o = { .sz = sizeof(o), .by_thread = true, .thread = 0,
					      .by_frame = true, .frame = frame_index(p, 2) };
	struct perfev_profile *z = perfev_profile__zoom(p, &o);

	assert_non_null(z);
	for (size_t i = 1; i < perfev_profile__nr_nodes(z); i++) {
		const struct perfev_profile_node *n = perfev_profile__node(z, i);

		assert_int_equal(n->thread, 0);
		if (n->depth == 2)
			assert_int_equal(n->frame, o.frame);
	}
	perfev_profile__delete(z);
	/* Out of range. */
	o.thread = (uint32_t)perfev_profile__nr_threads(p);
	assert_null(perfev_profile__zoom(p, &o));
	assert_int_equal(errno, EINVAL);
	o.thread = 0;
	o.frame = (uint32_t)perfev_profile__nr_frames(p);
	assert_null(perfev_profile__zoom(p, &o));
	assert_int_equal(errno, EINVAL);
	/* No options: a copy of all of it. */
	z = perfev_profile__zoom(p, NULL);
	assert_non_null(z);
	assert_same(z, p);
	perfev_profile__delete(z);
	perfev_profile__delete(p);
}

static void test_decay(void **state)
{
	(void)state;
	make_stacks(7);
	struct perfev_profile *p = whole(), *want;
	struct perfev_profile_opts bo = { .sz = sizeof(bo), .background = true };

	/* 7/8 as perf top ages, twice: each node's own weight rounded down each time. */
	for (int round = 0; round < 2; round++)
		assert_int_equal(perfev_profile__decay(p, 7, 8), 0);
	want = perfev_profile__new(NULL);
	for (int i = 0; i < NR_STACKS; i++)
		add(want, &stacks[i], 0, stacks[i].nr);
	/* The reference: the same tree with every self scaled the same way. */
	size_t nr = perfev_profile__nr_nodes(want);

	assert_int_equal(nr, perfev_profile__nr_nodes(p));
	for (size_t i = 1; i < nr; i++) {
		const struct perfev_profile_node *a = perfev_profile__node(p, i), *b = perfev_profile__node(want, i);

		assert_int_equal(a->self, b->self * 7 / 8 * 7 / 8);
		assert_int_equal(a->self_samples, b->self_samples * 7 / 8 * 7 / 8);
	}
	struct paths ps = { 0 };

	collect(p, &ps, true); /* totals are the sums of the selfs below */
	paths_free(&ps);
	/* Stacks go on adding where they left off. */
	add(p, &stacks[0], 0, stacks[0].nr);
	collect(p, &ps, true);
	paths_free(&ps);
	/* 0/1 zeroes; above 1 is refused. */
	assert_int_equal(perfev_profile__decay(p, 0, 1), 0);
	assert_int_equal(perfev_profile__node(p, 0)->total, 0);
	assert_int_equal(perfev_profile__node(p, 0)->total_samples, 0);
	assert_int_equal(perfev_profile__decay(p, 9, 8), -EINVAL);
	assert_int_equal(perfev_profile__decay(p, 1, 0), -EINVAL);
	perfev_profile__delete(p);
	perfev_profile__delete(want);
	/* A background inserter's stacks are all in before the weights change. */
	p = perfev_profile__new(&bo);
	assert_non_null(p);
	for (int i = 0; i < NR_STACKS; i++)
		add(p, &stacks[i], 0, stacks[i].nr);
	assert_int_equal(perfev_profile__decay(p, 1, 2), 0);
	collect(p, &ps, true);
	paths_free(&ps);
	perfev_profile__delete(p);
}

/*
 * Trimmed halfway (its index of nodes by path freed), a profile goes on as
 * if it had not been: the stacks added after it find their nodes again, so
 * the tree, node for node, is the one built without trimming.
 */
/*
 * An unresolved frame's name is printf's "0x%016llx" (no 0x for a zero),
 * cut as snprintf cuts it, in every room from none to more than enough.
 */
static void test_frame_name(void **state)
{
	static const uint64_t addrs[] = { 0, 1, 0x1a749e1, 0xffffffff81000000ull, UINT64_MAX,
					  0x8000000000000000ull };

	(void)state;
	for (size_t i = 0; i < sizeof(addrs) / sizeof(addrs[0]); i++) {
		struct perfev_profile_frame f = { .addr = addrs[i] };

		for (size_t size = 0; size <= 24; size++) {
			char got[32], want[32];

			memset(got, '#', sizeof(got));
			memset(want, '#', sizeof(want));
			snprintf(want, size, addrs[i] ? "0x%016" PRIx64 : "%016" PRIx64, addrs[i]);
			assert_ptr_equal(perfev_profile_frame__name(&f, got, size), got);
			assert_memory_equal(got, want, sizeof(got));
		}
	}
	/* A symbol's or an inlined function's name wins over the address. */
	struct perfev_symbol sym = { .start = 16, .size = 8, .name = "main", .raw_name = "main" };
	struct perfev_profile_frame named = { .sym = &sym, .addr = 20 };
	char buf[8];

	assert_string_equal(perfev_profile_frame__name(&named, buf, sizeof(buf)), "main");
	named.inline_name = "inlined_fn";
	assert_string_equal(perfev_profile_frame__name(&named, buf, sizeof(buf)), "inlined");
}

static void test_trim(void **state)
{
	struct perfev_profile_opts bo = { .sz = sizeof(bo), .background = true };
	struct perfev_profile *p, *want;
	(void)state;

	make_stacks(11);
	want = whole();
	for (int pass = 0; pass < 2; pass++) {
		p = perfev_profile__new(pass ? &bo : NULL);
		assert_non_null(p);
		for (int i = 0; i < NR_STACKS / 2; i++)
			add(p, &stacks[i], 0, stacks[i].nr);
		assert_int_equal(perfev_profile__trim(p), 0);
		assert_int_equal(perfev_profile__trim(p), 0); /* twice: nothing left to free */
		for (int i = NR_STACKS / 2; i < NR_STACKS; i++)
			add(p, &stacks[i], 0, stacks[i].nr);
		assert_int_equal(perfev_profile__sync(p), 0);
		assert_int_equal(perfev_profile__nr_nodes(p), perfev_profile__nr_nodes(want));
		assert_same(p, want);
		perfev_profile__delete(p);
	}
	assert_int_equal(perfev_profile__trim(NULL), -EINVAL);
	perfev_profile__delete(want);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_zoom_frame),
		cmocka_unit_test(test_zoom_thread),
		cmocka_unit_test(test_decay),
		cmocka_unit_test(test_trim),
		cmocka_unit_test(test_frame_name),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
