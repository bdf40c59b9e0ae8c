/* Pure functions of counting: scaling, read_format layouts, CPU lists, errors, JSON-free. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <unistd.h>
#include <string.h>

#include "perfev/perfev.h"

static void test_scale(void **state)
{
	(void)state;
	assert_int_equal(perfev_scale(100, 10, 10), 100);
	assert_int_equal(perfev_scale(100, 20, 10), 200);
	assert_int_equal(perfev_scale(100, 20, 0), 0); /* never ran: not counted */
	assert_int_equal(perfev_scale(0, 20, 5), 0);
	/* val * ena overflows 64 bits; the 128-bit product does not. */
	assert_int_equal(perfev_scale(UINT64_MAX / 2, 3000000000ull, 2000000000ull),
			 (uint64_t)((unsigned __int128)(UINT64_MAX / 2) * 3 / 2));
	assert_int_equal(perfev_scale(UINT64_MAX, 4, 1), UINT64_MAX); /* saturates */
	assert_int_equal(perfev_scale(1000000007ull, 999999999999ull, 333333333333ull), 3000000021ull);
	struct perfev_counts c = { .val = 50, .ena = 200, .run = 50 };
	assert_int_equal(perfev_counts__scaled(&c), 200);
	assert_true(perfev_counts__running_pct(&c) > 24.99 && perfev_counts__running_pct(&c) < 25.01);
}

static void test_read_format_single(void **state)
{
	(void)state;
	uint64_t all = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING |
		       PERF_FORMAT_ID | PERF_FORMAT_LOST;
	/* Every subset of the optional fields, in the kernel's order. */
	for (uint64_t rf = 0; rf <= all; rf++) {
		if (rf & ~all)
			continue;
		uint64_t buf[5], n = 0, val = 11, ena = 22, run = 33, id = 44, lost = 55;
		struct perfev_counts c;

		buf[n++] = val;
		if (rf & PERF_FORMAT_TOTAL_TIME_ENABLED)
			buf[n++] = ena;
		if (rf & PERF_FORMAT_TOTAL_TIME_RUNNING)
			buf[n++] = run;
		if (rf & PERF_FORMAT_ID)
			buf[n++] = id;
		if (rf & PERF_FORMAT_LOST)
			buf[n++] = lost;
		assert_int_equal(perfev_read_format__size(rf, 1), n * 8);
		assert_int_equal(perfev_read_format__parse(rf, buf, n * 8, &c, 1), 1);
		assert_int_equal(c.val, val);
		assert_int_equal(c.ena, rf & PERF_FORMAT_TOTAL_TIME_ENABLED ? ena : 0);
		assert_int_equal(c.run, rf & PERF_FORMAT_TOTAL_TIME_RUNNING ? run : 0);
		assert_int_equal(c.id, rf & PERF_FORMAT_ID ? id : 0);
		assert_int_equal(c.lost, rf & PERF_FORMAT_LOST ? lost : 0);
		assert_int_equal(perfev_read_format__parse(rf, buf, n * 8 - 1, &c, 1), -PERFEV_ERR_FORMAT);
	}
}

static void test_read_format_group(void **state)
{
	(void)state;
	uint64_t rf = PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED |
		      PERF_FORMAT_TOTAL_TIME_RUNNING | PERF_FORMAT_ID | PERF_FORMAT_LOST;
	uint64_t buf[] = { 3, 1000, 500, 10, 101, 0, 20, 102, 1, 30, 103, 2 };
	struct perfev_counts c[3];

	assert_int_equal(perfev_read_format__size(rf, 3), sizeof(buf));
	assert_int_equal(perfev_read_format__parse(rf, buf, sizeof(buf), c, 3), 3);
	for (int i = 0; i < 3; i++) {
		assert_int_equal(c[i].val, 10 * (i + 1));
		assert_int_equal(c[i].id, 101 + i);
		assert_int_equal(c[i].lost, i);
		assert_int_equal(c[i].ena, 1000);
		assert_int_equal(c[i].run, 500);
		assert_int_equal(perfev_counts__scaled(&c[i]), 20 * (i + 1));
	}
	/* Fewer slots than members: the count is still reported, only max filled. */
	assert_int_equal(perfev_read_format__parse(rf, buf, sizeof(buf), c, 1), 3);
	/* Truncated, empty, and absurd member counts are errors, not overruns. */
	assert_int_equal(perfev_read_format__parse(rf, buf, sizeof(buf) - 8, c, 3), -PERFEV_ERR_FORMAT);
	assert_int_equal(perfev_read_format__parse(rf, buf, 4, c, 3), -PERFEV_ERR_FORMAT);
	buf[0] = UINT64_MAX / 2;
	assert_int_equal(perfev_read_format__parse(rf, buf, sizeof(buf), c, 3), -PERFEV_ERR_FORMAT);
	assert_non_null(strstr(perfev_last_error(), "too short"));
	assert_int_equal(perfev_read_format__size(rf, UINT64_MAX), 0);
	buf[0] = 0;
	assert_int_equal(perfev_read_format__parse(rf, buf, 24, c, 3), 0);
}

static void test_cpu_list(void **state)
{
	(void)state;
	int cpus[64];

	assert_int_equal(perfev_cpu_list__parse("0-3,7", cpus, 64), 5);
	assert_int_equal(cpus[4], 7);
	assert_int_equal(perfev_cpu_list__parse("5,1-2,2,1\n", cpus, 64), 3);
	assert_int_equal(cpus[0], 1);
	assert_int_equal(cpus[2], 5);
	assert_int_equal(perfev_cpu_list__parse("0", cpus, 64), 1);
	static const char *const bad[] = { "", "-", "1-", "3-1", "a", "1,,2", "1 2", "99999999",
					   "1-2-3", ",", "0x1" };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int r = perfev_cpu_list__parse(bad[i], cpus, 64);

		if (r >= 0)
			print_message("'%s' accepted\n", bad[i]);
		assert_true(r < 0);
		assert_true(strlen(perfev_last_error()) > 0);
	}
	assert_int_equal(perfev_cpu_list__parse("0-100", cpus, 64), -E2BIG);
}

static void test_cpu_map(void **state)
{
	(void)state;
	struct perfev_cpu_map *m = perfev_cpu_map__new(NULL);

	assert_non_null(m);
	assert_true(perfev_cpu_map__nr(m) >= 1);
	assert_int_equal(perfev_cpu_map__cpu(m, 0), 0);
	assert_int_equal(perfev_cpu_map__cpu(m, 100000), -1);
	perfev_cpu_map__delete(m);
	m = perfev_cpu_map__new("4095");
	assert_null(m);
	assert_int_equal(errno, ENODEV);
	assert_non_null(strstr(perfev_last_error(), "not online"));
	m = perfev_cpu_map__new_any();
	assert_int_equal(perfev_cpu_map__cpu(m, 0), -1);
	perfev_cpu_map__delete(m);
	perfev_cpu_map__delete(NULL);
}

static void test_thread_map(void **state)
{
	(void)state;
	struct perfev_thread_map *t = perfev_thread_map__new(getpid(), 1);

	assert_non_null(t);
	assert_int_equal(perfev_thread_map__nr(t), 1);
	assert_int_equal(perfev_thread_map__tid(t, 0), getpid());
	perfev_thread_map__delete(t);
	assert_null(perfev_thread_map__new(0x7ffffff0, 1));
	assert_int_equal(errno, ESRCH);
}

static void test_strerror(void **state)
{
	(void)state;
	char buf[128];

	perfev_strerror(-PERFEV_ERR_UNKNOWN_EVENT, buf, sizeof(buf));
	assert_string_equal(buf, "Unknown event");
	perfev_strerror(ENOENT, buf, sizeof(buf));
	assert_string_equal(buf, "No such file or directory");
	assert_int_equal(perfev_strerror(1, NULL, 0), -EINVAL);
	assert_non_null(perfev_version());
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_scale),	    cmocka_unit_test(test_read_format_single),
		cmocka_unit_test(test_read_format_group), cmocka_unit_test(test_cpu_list),
		cmocka_unit_test(test_cpu_map),	    cmocka_unit_test(test_thread_map),
		cmocka_unit_test(test_strerror),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
