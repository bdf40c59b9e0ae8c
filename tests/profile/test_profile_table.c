// SPDX-License-Identifier: MIT
/*
 * The profile's table (src/lib/profile/table.c) against its definition,
 * checked node by node: nodes are one entry exactly when their threads and
 * frames agree on every sort key; an entry's self weight is its nodes' self
 * weights, its children weight the totals of its nodes that have no ancestor
 * of the same entry; every entry lists exactly its nodes, in index order.
 * Profiles of random stacks over a few threads and frames (so recursion and
 * shared pairs abound) for every set of keys, and one with more (thread,
 * frame) pairs than the table keeps in a table of every pair.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "perfev/perfev.h"
#include "session/session_int.h"

#define NONE PERFEV_PROFILE_NONE

/* DSOs are only compared by address here: the profile reads none without inlines or source lines. */
static uint64_t dso_mem[2];
#define DSO(i) ((struct perfev_dso *)&dso_mem[i])

static const struct perfev_symbol syms[] = {
	{ .start = 0x100, .size = 16, .name = "do_syscall_64" },
	{ .start = 0x200, .size = 16, .name = "schedule" },
	{ .start = 0x300, .size = 16, .name = "main" },
	{ .start = 0x400, .size = 16, .name = "work" },
	{ .start = 0x500, .size = 16, .name = "work" }, /* the same name, another symbol */
	{ .start = 0x600, .size = 16, .name = "leaf" },
};

/* The alphabet of frames: symbols in the kernel and in two DSOs, and unresolved addresses. */
static const struct perfev_frame frames[] = {
	{ .ip = 1, .kernel = true, .dso = DSO(0), .sym = &syms[0] },
	{ .ip = 2, .kernel = true, .dso = DSO(0), .sym = &syms[1] },
	{ .ip = 3, .dso = DSO(1), .sym = &syms[2] },
	{ .ip = 4, .dso = DSO(1), .sym = &syms[3] },
	{ .ip = 5, .dso = DSO(0), .sym = &syms[4] },
	{ .ip = 6, .dso = DSO(1), .sym = &syms[5] },
	{ .ip = 7, .dso = DSO(0), .addr = 0x7000 },
	{ .ip = 8, .dso = DSO(1), .addr = 0x7000 }, /* the same address in another DSO */
	{ .ip = 9, .addr = 0x7000 },		     /* and in none */
	{ .ip = 10, .dso = DSO(1), .addr = 0x9000 },
};
#define NR_FRAMES (sizeof(frames) / sizeof(frames[0]))

/* Threads sharing a command, a pid, or neither (the profile keeps command names by pointer). */
static struct perfev_thread threads[] = {
	{ .pid = 10, .tid = 10, .comm = "cc1" },
	{ .pid = 10, .tid = 11, .comm = "cc1" },
	{ .pid = 20, .tid = 20, .comm = "make" },
	{ .pid = 30, .tid = 30, .comm = "cc1" },
};
#define NR_THREADS (sizeof(threads) / sizeof(threads[0]))

static uint64_t rnd(uint64_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return *x;
}

static struct perfev_profile *random_profile(uint64_t seed)
{
	struct perfev_profile *p = perfev_profile__new(NULL);
	struct perfev_frame stack[9];
	uint64_t x = seed;

	assert_non_null(p);
	for (int i = 0; i < 3000; i++) {
		size_t nr = rnd(&x) % 9;

		for (size_t j = 0; j < nr; j++)
			stack[j] = frames[rnd(&x) % NR_FRAMES];
		assert_int_equal(perfev_profile__add(p, &threads[rnd(&x) % NR_THREADS], stack, nr,
						     1 + rnd(&x) % 7),
				 0);
	}
	return p;
}

static bool str_same(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

/* Whether (thread a, frame fa) and (thread b, frame fb) agree on every key, as perf's sort keys compare. */
static bool same_keys(const struct perfev_profile *p, unsigned keys, uint32_t a, uint32_t fa,
		      uint32_t b, uint32_t fb)
{
	const struct perfev_profile_thread *ta = perfev_profile__thread(p, a),
					   *tb = perfev_profile__thread(p, b);
	const struct perfev_profile_frame *x = perfev_profile__frame(p, fa),
					  *y = perfev_profile__frame(p, fb);

	if ((keys & 1u << PERFEV_PROFILE_KEY_COMM) && strcmp(ta->comm, tb->comm))
		return false;
	if ((keys & 1u << PERFEV_PROFILE_KEY_PID) && ta->pid != tb->pid)
		return false;
	if ((keys & 1u << PERFEV_PROFILE_KEY_TID) && ta->tid != tb->tid)
		return false;
	if ((keys & 1u << PERFEV_PROFILE_KEY_DSO) && (x->dso != y->dso || x->kernel != y->kernel))
		return false;
	if ((keys & 1u << PERFEV_PROFILE_KEY_SYM) &&
	    (x->sym != y->sym || x->addr != y->addr || x->kernel != y->kernel ||
	     !str_same(x->inline_name, y->inline_name) || (!x->sym && x->dso != y->dso)))
		return false;
	if ((keys & 1u << PERFEV_PROFILE_KEY_SRCLINE) &&
	    (!str_same(x->src.file, y->src.file) || x->src.line != y->src.line ||
	     (!x->src.file && (x->dso != y->dso || x->addr != y->addr))))
		return false;
	return true;
}

/* The children weight by its definition: nodes of the entry without an ancestor of it. */
static uint64_t children_of(const struct perfev_profile *p, const struct perfev_profile_table *t,
			    uint32_t e)
{
	uint64_t sum = 0;

	for (size_t i = 0; i < perfev_profile__nr_nodes(p); i++) {
		bool outermost = perfev_profile_table__node_entry(t, i) == e;

		for (uint32_t a = perfev_profile__node(p, i)->parent; a != NONE && outermost;
		     a = perfev_profile__node(p, a)->parent)
			outermost = perfev_profile_table__node_entry(t, a) != e;
		if (outermost)
			sum += perfev_profile__node(p, i)->total;
	}
	return sum;
}

static void check_table(const struct perfev_profile *p, unsigned keys, bool children)
{
	enum perfev_profile_key k[PERFEV_PROFILE_NR_KEYS];
	struct perfev_profile_table_opts o = { .sz = sizeof(o), .keys = k, .children = children };
	size_t nn = perfev_profile__nr_nodes(p), ne;
	struct perfev_profile_table *t;
	uint64_t *self, *samples;
	uint32_t *prev;

	for (int i = PERFEV_PROFILE_NR_KEYS; i-- > 0;)
		if (keys & 1u << i)
			k[o.nr_keys++] = (enum perfev_profile_key)i;
	t = perfev_profile_table__new(p, &o);
	assert_non_null(t);
	ne = perfev_profile_table__nr_entries(t);
	assert_true(ne > 0);
	self = calloc(ne, sizeof(*self));
	samples = calloc(ne, sizeof(*samples));
	prev = malloc(ne * sizeof(*prev));
	assert_non_null(self);
	assert_non_null(samples);
	assert_non_null(prev);
	for (size_t e = 0; e < ne; e++)
		prev[e] = perfev_profile_table__first_node(t, e);
	for (size_t i = 0; i < nn; i++) {
		const struct perfev_profile_node *n = perfev_profile__node(p, i);
		uint32_t e = perfev_profile_table__node_entry(t, i);
		const struct perfev_profile_entry *en;

		if (n->frame == NONE) {
			assert_int_equal(e, NONE);
			continue;
		}
		assert_true(e < ne);
		en = perfev_profile_table__entry(t, e);
		if (!same_keys(p, keys, n->thread, n->frame, en->thread, en->frame))
			fail_msg("keys %#x: node %zu is in entry %u, whose keys differ", keys, i, e);
		self[e] += n->self;
		samples[e] += n->self_samples;
		/* The entry's list holds this node next. */
		assert_int_equal(prev[e], i);
		prev[e] = perfev_profile_table__next_node(t, i);
	}
	for (size_t e = 0; e < ne; e++) {
		const struct perfev_profile_entry *a = perfev_profile_table__entry(t, e);

		assert_int_equal(prev[e], NONE);
		assert_int_equal(a->self, self[e]);
		assert_int_equal(a->samples, samples[e]);
		assert_int_equal(a->children, children ? children_of(p, t, e) : 0);
		for (size_t f = 0; f < e; f++) {
			const struct perfev_profile_entry *b = perfev_profile_table__entry(t, f);

			if (same_keys(p, keys, a->thread, a->frame, b->thread, b->frame))
				fail_msg("keys %#x: entries %zu and %zu have the same keys", keys, f, e);
		}
	}
	assert_null(perfev_profile_table__entry(t, ne));
	assert_int_equal(perfev_profile_table__first_node(t, ne), NONE);
	assert_int_equal(perfev_profile_table__node_entry(t, nn), NONE);
	free(self);
	free(samples);
	free(prev);
	perfev_profile_table__delete(t);
}

static void test_every_key_set(void **state)
{
	struct perfev_profile *p = random_profile(88172645463325252ull);

	(void)state;
	for (unsigned keys = 1; keys < 1u << PERFEV_PROFILE_NR_KEYS; keys++) {
		check_table(p, keys, true);
		check_table(p, keys, false);
	}
	perfev_profile__delete(p);
}

/* Recursion counts once: main → work → main → leaf charges main's children once. */
static void test_recursion(void **state)
{
	struct perfev_profile *p = perfev_profile__new(NULL);
	/* Innermost first, as the session gives stacks. */
	struct perfev_frame st[] = { frames[5], frames[2], frames[3], frames[2] };
	enum perfev_profile_key sym = PERFEV_PROFILE_KEY_SYM;
	struct perfev_profile_table_opts o = { .sz = sizeof(o), .keys = &sym, .nr_keys = 1,
					       .children = true };
	struct perfev_profile_table *t;

	(void)state;
	assert_non_null(p);
	assert_int_equal(perfev_profile__add(p, &threads[0], st, 4, 100), 0);
	assert_int_equal(perfev_profile__add(p, &threads[0], st + 1, 3, 10), 0);
	t = perfev_profile_table__new(p, &o);
	assert_non_null(t);
	assert_int_equal(perfev_profile_table__nr_entries(t), 3); /* main, work, leaf */
	for (size_t e = 0; e < 3; e++) {
		const struct perfev_profile_entry *en = perfev_profile_table__entry(t, e);
		const struct perfev_symbol *s = perfev_profile__frame(p, en->frame)->sym;

		if (s == &syms[2]) {
			assert_int_equal(en->children, 110);
			assert_int_equal(en->self, 10);
		} else if (s == &syms[3]) {
			assert_int_equal(en->children, 110);
			assert_int_equal(en->self, 0);
		} else {
			assert_ptr_equal(s, &syms[5]);
			assert_int_equal(en->children, 100);
			assert_int_equal(en->self, 100);
			assert_int_equal(en->samples, 1);
		}
	}
	perfev_profile_table__delete(t);
	perfev_profile__delete(p);
}

/*
 * More (thread, frame) pairs than a table of every pair may hold: pairs are
 * remembered in a cache of fewer slots, whose collisions must not mix
 * entries up.
 */
static void test_many_pairs(void **state)
{
	enum { THREADS = 64, FRAMES = 70000 };
	struct perfev_profile *p = perfev_profile__new(NULL);
	struct perfev_thread *th = calloc(THREADS, sizeof(*th));
	enum perfev_profile_key sym = PERFEV_PROFILE_KEY_SYM, comm = PERFEV_PROFILE_KEY_COMM;
	struct perfev_profile_table_opts o = { .sz = sizeof(o), .keys = &sym, .nr_keys = 1 };
	struct perfev_profile_table *t;

	(void)state;
	assert_non_null(p);
	assert_non_null(th);
	for (int i = 0; i < THREADS; i++)
		th[i] = (struct perfev_thread){ .pid = i + 1, .tid = i + 1, .comm = i % 2 ? "a" : "b" };
	for (uint32_t i = 0; i < 3 * FRAMES; i++) {
		struct perfev_frame st[2] = {
			{ .ip = 1, .addr = 0x10000 + (i * 7 + 1) % FRAMES },
			{ .ip = 1, .addr = 0x10000 + i % FRAMES },
		};

		assert_int_equal(perfev_profile__add(p, &th[i % THREADS], st, 2, 1), 0);
	}
	assert_int_equal(perfev_profile__nr_frames(p), FRAMES);
	assert_int_equal(perfev_profile__nr_threads(p), THREADS);
	t = perfev_profile_table__new(p, &o);
	assert_non_null(t);
	/* Every frame is an address of its own: an entry of its own. */
	assert_int_equal(perfev_profile_table__nr_entries(t), FRAMES);
	for (size_t i = 0; i < perfev_profile__nr_nodes(p); i++) {
		const struct perfev_profile_node *n = perfev_profile__node(p, i);
		uint32_t e = perfev_profile_table__node_entry(t, i);

		if (n->frame == NONE)
			assert_int_equal(e, NONE);
		else
			assert_int_equal(perfev_profile_table__entry(t, e)->frame, n->frame);
	}
	perfev_profile_table__delete(t);
	o.keys = &comm;
	t = perfev_profile_table__new(p, &o);
	assert_non_null(t);
	assert_int_equal(perfev_profile_table__nr_entries(t), 2);
	perfev_profile_table__delete(t);
	perfev_profile__delete(p);
	free(th);
}

static void test_opts(void **state)
{
	struct perfev_profile *p = random_profile(7);
	enum perfev_profile_key bad = PERFEV_PROFILE_NR_KEYS;
	const enum perfev_profile_key dflt[] = { PERFEV_PROFILE_KEY_SYM, PERFEV_PROFILE_KEY_COMM,
						 PERFEV_PROFILE_KEY_DSO };
	struct {
		struct perfev_profile_table_opts o;
		uint64_t newer;
	} big = { { .sz = sizeof(big) }, 1 };
	struct perfev_profile_table_opts o = { .sz = sizeof(o), .keys = &bad, .nr_keys = 1 };
	struct perfev_profile_table *t, *d;

	(void)state;
	errno = 0;
	assert_null(perfev_profile_table__new(p, &o));
	assert_int_equal(errno, EINVAL);
	assert_null(perfev_profile_table__new(NULL, NULL));
	assert_int_equal(errno, EINVAL);
	/* A newer caller's field this library does not know. */
	assert_null(perfev_profile_table__new(p, &big.o));
	assert_int_equal(errno, EINVAL);
	big.newer = 0;
	t = perfev_profile_table__new(p, &big.o);
	assert_non_null(t);
	perfev_profile_table__delete(t);
	/* No options: perf's default keys, comm, dso and sym, and no children weights. */
	t = perfev_profile_table__new(p, NULL);
	o.keys = dflt;
	o.nr_keys = 3;
	o.children = true;
	d = perfev_profile_table__new(p, &o);
	assert_non_null(t);
	assert_non_null(d);
	assert_int_equal(perfev_profile_table__nr_entries(t), perfev_profile_table__nr_entries(d));
	for (size_t e = 0; e < perfev_profile_table__nr_entries(t); e++) {
		assert_int_equal(perfev_profile_table__entry(t, e)->children, 0);
		assert_true(perfev_profile_table__entry(d, e)->children > 0);
	}
	for (size_t i = 0; i < perfev_profile__nr_nodes(p); i++)
		assert_int_equal(perfev_profile_table__node_entry(t, i),
				 perfev_profile_table__node_entry(d, i));
	perfev_profile_table__delete(t);
	perfev_profile_table__delete(d);
	perfev_profile_table__delete(NULL);
	perfev_profile__delete(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_key_set),
		cmocka_unit_test(test_recursion),
		cmocka_unit_test(test_many_pairs),
		cmocka_unit_test(test_opts),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
