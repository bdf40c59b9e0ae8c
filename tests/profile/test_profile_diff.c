// SPDX-License-Identifier: MIT
/*
 * Profiles compared (src/lib/profile/diff.c) on profiles made by hand: a
 * program before and after a change, its two builds in two directories
 * under one name with every function at another address, so that rows
 * match by names only.  Each row's weights, shares, delta, ratio and
 * weighted difference against what they must be; perf diff's order; new
 * and gone rows; -b, -o, the filters with absolute and relative shares,
 * other keys, three profiles, and the options refused.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "perfev/perfev.h"
#include "session/session_int.h"

static struct perfev_symbolizer *sy;
static struct perfev_dso *before, *after, *lib;

/* The same functions at other addresses in the two builds. */
static const struct perfev_symbol old_syms[] = {
	{ .start = 0x1100, .size = 64, .name = "steady" },  { .start = 0x1200, .size = 64, .name = "shrinks" },
	{ .start = 0x1300, .size = 64, .name = "grows" },   { .start = 0x1400, .size = 64, .name = "gone" },
	{ .start = 0x1500, .size = 64, .name = "main" },
};
static const struct perfev_symbol new_syms[] = {
	{ .start = 0x2900, .size = 64, .name = "steady" },  { .start = 0x2800, .size = 64, .name = "shrinks" },
	{ .start = 0x2700, .size = 64, .name = "grows" },   { .start = 0x2600, .size = 64, .name = "fresh" },
	{ .start = 0x2500, .size = 64, .name = "main" },
};
enum { STEADY, SHRINKS, GROWS, OTHER, MAIN };

static struct perfev_thread thread = { .pid = 100, .tid = 100, .comm = "prog" };
static struct perfev_thread thread2 = { .pid = 200, .tid = 200, .comm = "prog" };

/* weight samples of weight 1 in function f (called from main), or at an unresolved address of lib. */
static void add(struct perfev_profile *p, bool is_new, int f, unsigned weight)
{
	const struct perfev_symbol *s = is_new ? new_syms : old_syms;
	struct perfev_dso *d = is_new ? after : before;
	struct perfev_frame st[2] = {
		{ .ip = 1, .dso = d, .sym = &s[f] },
		{ .ip = 2, .dso = d, .sym = &s[MAIN] },
	};

	if (f < 0)
		st[0] = (struct perfev_frame){ .ip = 3, .dso = lib, .addr = 0x4242 };
	for (unsigned i = 0; i < weight; i++)
		assert_int_equal(perfev_profile__add(p, i & 1 ? &thread2 : &thread, st, 2, 1), 0);
}

/*
 *	            before  after
 *	steady        18     18
 *	shrinks       50     15
 *	grows         15     50
 *	gone          15      -
 *	fresh          -     15
 *	lib 0x4242     2      2
 */
static struct perfev_profile *profile(bool is_new)
{
	struct perfev_profile *p = perfev_profile__new(NULL);

	assert_non_null(p);
	add(p, is_new, STEADY, 18);
	add(p, is_new, SHRINKS, is_new ? 15 : 50);
	add(p, is_new, GROWS, is_new ? 50 : 15);
	add(p, is_new, OTHER, 15);
	add(p, is_new, -1, 2);
	return p;
}

static int setup(void **state)
{
	(void)state;
	sy = perfev_symbolizer__new(NULL);
	assert_non_null(sy);
	before = perfev_symbolizer__dso(sy, "/nonexistent/before/prog", NULL, 0);
	after = perfev_symbolizer__dso(sy, "/nonexistent/after/prog", NULL, 0);
	lib = perfev_symbolizer__dso(sy, "/nonexistent/lib/libx.so", NULL, 0);
	assert_non_null(before);
	assert_non_null(after);
	assert_non_null(lib);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	perfev_symbolizer__delete(sy);
	return 0;
}

/* The name of row r's function ("0x..." for the unresolved address). */
static const char *row_name(const struct perfev_profile *const *p, const struct perfev_profile_diff *d,
			    size_t r)
{
	static char buf[64];
	const struct perfev_profile_diff_row *row = perfev_profile_diff__row(d, r);
	const struct perfev_profile_entry *e =
		perfev_profile_table__entry(perfev_profile_diff__table(d, row->profile), row->entry);
	const struct perfev_profile_frame *f = perfev_profile__frame(p[row->profile], e->frame);

	return f->sym ? f->sym->name : perfev_profile_frame__name(f, buf, sizeof(buf));
}

static const struct perfev_profile_diff_row *find(const struct perfev_profile *const *p,
						  const struct perfev_profile_diff *d, const char *name)
{
	for (size_t r = 0; r < perfev_profile_diff__nr_rows(d); r++)
		if (!strcmp(row_name(p, d, r), name))
			return perfev_profile_diff__row(d, r);
	return NULL;
}

static void expect_order(const struct perfev_profile *const *p, const struct perfev_profile_diff *d,
			 const char *const *names, size_t n)
{
	assert_int_equal(perfev_profile_diff__nr_rows(d), n);
	for (size_t r = 0; r < n; r++)
		assert_string_equal(row_name(p, d, r), names[r]);
}

#define CLOSE(a, b) assert_true(fabs((a) - (b)) < 1e-9)

static void test_delta_abs(void **state)
{
	const struct perfev_profile *p[2] = { profile(false), profile(true) };
	struct perfev_profile_diff *d = perfev_profile_diff__new(p, 2, NULL);
	static const char *const order[] = { "shrinks", "grows", "fresh", "steady", "0x0000000000004242", "gone" };
	const struct perfev_profile_diff_row *r;

	(void)state;
	assert_non_null(d);
	/* |delta| first (shrinks and grows tie: the larger baseline first), rows without one last. */
	expect_order(p, d, order, 6);
	assert_int_equal(perfev_profile_diff__total(d, 0), 100);
	assert_int_equal(perfev_profile_diff__total(d, 1), 100);
	r = find(p, d, "shrinks");
	assert_int_equal(r->cells[0].period, 50);
	assert_int_equal(r->cells[1].period, 15);
	assert_int_equal(r->cells[1].samples, 15);
	CLOSE(r->cells[0].share, 50);
	CLOSE(r->cells[1].delta, -35);
	CLOSE(r->cells[1].ratio, 0.3);
	r = find(p, d, "fresh"); /* new: no baseline, its share as delta */
	assert_int_equal(r->cells[0].period, 0);
	CLOSE(r->cells[1].delta, 15);
	CLOSE(r->cells[1].ratio, 15); /* perf's: the baseline's period taken as 1 */
	r = find(p, d, "gone"); /* gone: nothing computed */
	assert_int_equal(r->cells[0].period, 15);
	assert_int_equal(r->cells[1].period, 0);
	CLOSE(r->cells[1].delta, 0);
	/* Both threads' samples are one row: the default keys are the file and the function. */
	r = find(p, d, "steady");
	assert_int_equal(r->cells[0].period, 18);
	perfev_profile_diff__delete(d);
	perfev_profile__delete((struct perfev_profile *)p[0]);
	perfev_profile__delete((struct perfev_profile *)p[1]);
}

static void test_computations(void **state)
{
	const struct perfev_profile *p[2] = { profile(false), profile(true) };
	struct perfev_profile_diff_opts o = { .sz = sizeof(o), .compute = PERFEV_DIFF_DELTA };
	struct perfev_profile_diff *d = perfev_profile_diff__new(p, 2, &o);
	static const char *const by_delta[] = { "grows", "fresh", "steady", "0x0000000000004242", "shrinks", "gone" };
	static const char *const by_ratio[] = { "grows", "steady", "0x0000000000004242", "shrinks", "fresh", "gone" };
	static const char *const by_wdiff[] = { "grows", "steady", "0x0000000000004242", "shrinks", "fresh", "gone" };

	(void)state;
	assert_non_null(d);
	expect_order(p, d, by_delta, 6);
	perfev_profile_diff__delete(d);
	o.compute = PERFEV_DIFF_RATIO; /* new rows after the others: no ratio without a baseline */
	d = perfev_profile_diff__new(p, 2, &o);
	assert_non_null(d);
	expect_order(p, d, by_ratio, 6);
	perfev_profile_diff__delete(d);
	o.compute = PERFEV_DIFF_WDIFF;
	o.wdiff_base = 1;
	o.wdiff_new = 2;
	d = perfev_profile_diff__new(p, 2, &o);
	assert_non_null(d);
	expect_order(p, d, by_wdiff, 6);
	assert_int_equal(find(p, d, "grows")->cells[1].wdiff, 50 * 2 - 15 * 1);
	assert_int_equal(find(p, d, "shrinks")->cells[1].wdiff, 15 * 2 - 50 * 1);
	perfev_profile_diff__delete(d);
	/* -o 0: by the baseline's share. */
	o = (struct perfev_profile_diff_opts){ .sz = sizeof(o), .order_baseline = true };
	d = perfev_profile_diff__new(p, 2, &o);
	static const char *const by_base[] = { "shrinks", "steady", "grows", "gone", "0x0000000000004242", "fresh" };

	assert_non_null(d);
	expect_order(p, d, by_base, 6);
	perfev_profile_diff__delete(d);
	perfev_profile__delete((struct perfev_profile *)p[0]);
	perfev_profile__delete((struct perfev_profile *)p[1]);
}

static void test_selection(void **state)
{
	const struct perfev_profile *p[2] = { profile(false), profile(true) };
	struct perfev_profile_diff_opts o = { .sz = sizeof(o), .baseline_only = true };
	struct perfev_profile_diff *d = perfev_profile_diff__new(p, 2, &o);
	static const char *const both[] = { "shrinks", "grows", "steady", "0x0000000000004242" };

	(void)state;
	assert_non_null(d);
	/* -b: rows in both; the baseline's shares of those, the deltas of the whole (perf's). */
	expect_order(p, d, both, 4);
	CLOSE(find(p, d, "shrinks")->cells[0].share, 100.0 * 50 / 85);
	CLOSE(find(p, d, "shrinks")->cells[1].delta, -35);
	perfev_profile_diff__delete(d);
	/* -S: absolute shares by default, relative ones of what passes. */
	o = (struct perfev_profile_diff_opts){ .sz = sizeof(o), .syms = "grows,shrinks" };
	d = perfev_profile_diff__new(p, 2, &o);
	assert_non_null(d);
	assert_int_equal(perfev_profile_diff__nr_rows(d), 2);
	CLOSE(find(p, d, "grows")->cells[0].share, 15);
	perfev_profile_diff__delete(d);
	o.relative = true;
	d = perfev_profile_diff__new(p, 2, &o);
	assert_non_null(d);
	assert_int_equal(perfev_profile_diff__total(d, 0), 65);
	CLOSE(find(p, d, "grows")->cells[0].share, 100.0 * 15 / 65);
	CLOSE(find(p, d, "grows")->cells[1].delta, 100.0 * 50 / 65 - 100.0 * 15 / 65);
	perfev_profile_diff__delete(d);
	/* -d by the file's name (both builds' file) or path (one of them), -C by command: each file's entries filtered. */
	o = (struct perfev_profile_diff_opts){ .sz = sizeof(o), .dsos = "libx.so" };
	d = perfev_profile_diff__new(p, 2, &o);
	assert_non_null(d);
	assert_int_equal(perfev_profile_diff__nr_rows(d), 1);
	perfev_profile_diff__delete(d);
	o.dsos = "/nonexistent/after/prog";
	d = perfev_profile_diff__new(p, 2, &o);
	assert_non_null(d);
	/* Every function of the rebuilt file; the old build's file is another path: no baseline. */
	assert_int_equal(perfev_profile_diff__nr_rows(d), 4);
	assert_int_equal(find(p, d, "shrinks")->cells[0].period, 0);
	assert_int_equal(find(p, d, "shrinks")->cells[1].period, 15);
	perfev_profile_diff__delete(d);
	o = (struct perfev_profile_diff_opts){ .sz = sizeof(o), .comms = "other" };
	d = perfev_profile_diff__new(p, 2, &o);
	assert_non_null(d);
	assert_int_equal(perfev_profile_diff__nr_rows(d), 0);
	perfev_profile_diff__delete(d);
	perfev_profile__delete((struct perfev_profile *)p[0]);
	perfev_profile__delete((struct perfev_profile *)p[1]);
}

static void test_keys_and_files(void **state)
{
	const struct perfev_profile *p[3] = { profile(false), profile(true), profile(false) };
	enum perfev_profile_key comm = PERFEV_PROFILE_KEY_COMM, tid = PERFEV_PROFILE_KEY_TID;
	struct perfev_profile_diff_opts o = { .sz = sizeof(o), .keys = &comm, .nr_keys = 1 };
	struct perfev_profile_diff *d = perfev_profile_diff__new(p, 2, &o);

	(void)state;
	assert_non_null(d);
	assert_int_equal(perfev_profile_diff__nr_rows(d), 1); /* one command */
	CLOSE(perfev_profile_diff__row(d, 0)->cells[1].delta, 0);
	perfev_profile_diff__delete(d);
	o.keys = &tid;
	d = perfev_profile_diff__new(p, 2, &o);
	assert_non_null(d);
	assert_int_equal(perfev_profile_diff__nr_rows(d), 2); /* two threads, in both */
	perfev_profile_diff__delete(d);
	/* Three profiles: the third is the baseline again, so its deltas are 0; -o 2 orders by them. */
	o = (struct perfev_profile_diff_opts){ .sz = sizeof(o), .order = 2 };
	d = perfev_profile_diff__new(p, 3, &o);
	assert_non_null(d);
	assert_int_equal(perfev_profile_diff__nr_rows(d), 6);
	CLOSE(find(p, d, "shrinks")->cells[2].delta, 0);
	CLOSE(find(p, d, "shrinks")->cells[1].delta, -35);
	assert_int_equal(find(p, d, "gone")->cells[2].period, 15);
	assert_string_equal(row_name(p, d, 5), "fresh"); /* the only row file 2 has not */
	perfev_profile_diff__delete(d);
	for (int i = 0; i < 3; i++)
		perfev_profile__delete((struct perfev_profile *)p[i]);
}

static void test_refused(void **state)
{
	const struct perfev_profile *p[2] = { profile(false), profile(true) };
	enum perfev_profile_key bad = PERFEV_PROFILE_NR_KEYS;
	struct perfev_profile_diff_opts o = { .sz = sizeof(o), .compute = PERFEV_DIFF_WDIFF };

	(void)state;
	assert_null(perfev_profile_diff__new(p, 1, NULL));
	assert_int_equal(errno, EINVAL);
	assert_null(perfev_profile_diff__new(p, 2, &o)); /* wdiff without weights */
	assert_int_equal(errno, EINVAL);
	assert_non_null(strstr(perfev_last_error(), "wdiff"));
	o = (struct perfev_profile_diff_opts){ .sz = sizeof(o), .order = 2 };
	assert_null(perfev_profile_diff__new(p, 2, &o));
	assert_int_equal(errno, EINVAL);
	o = (struct perfev_profile_diff_opts){ .sz = sizeof(o), .keys = &bad, .nr_keys = 1 };
	assert_null(perfev_profile_diff__new(p, 2, &o));
	assert_int_equal(errno, EINVAL);
	o = (struct perfev_profile_diff_opts){ .sz = sizeof(o), .compute = (enum perfev_diff_compute)9 };
	assert_null(perfev_profile_diff__new(p, 2, &o));
	assert_int_equal(errno, EINVAL);
	perfev_profile__delete((struct perfev_profile *)p[0]);
	perfev_profile__delete((struct perfev_profile *)p[1]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_delta_abs),
		cmocka_unit_test(test_computations),
		cmocka_unit_test(test_selection),
		cmocka_unit_test(test_keys_and_files),
		cmocka_unit_test(test_refused),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
