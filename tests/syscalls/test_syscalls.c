/*
 * syscalls/: the generated tables (numbers of each architecture as its
 * kernel headers give them, checked against this machine's <sys/syscall.h>
 * and known numbers of the others), and the per-thread statistics: pairing,
 * errors, calls never entered or never returned, ordering, names, and
 * raw_syscalls samples read through their format, short ones refused.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <math.h>
#include <string.h>
#include <sys/syscall.h>

#include "perfev/perfev.h"

static void test_names(void **state)
{
	(void)state;
	/* This machine's table agrees with the C library's numbers. */
	assert_string_equal(perfev_syscall__name(NULL, SYS_getppid), "getppid");
	assert_string_equal(perfev_syscall__name(NULL, SYS_openat), "openat");
	assert_string_equal(perfev_syscall__name(NULL, SYS_clone), "clone");
	assert_int_equal(perfev_syscall__nr(NULL, "getppid"), SYS_getppid);
	assert_true(perfev_syscall__have_arch(NULL));
#if defined(__x86_64__)
	assert_string_equal(perfev_syscall__name("x86_64", 0), "read");
	assert_string_equal(perfev_syscall__name("x86_64", 110), "getppid");
	assert_string_equal(perfev_syscall__name("amd64", 435), "clone3");
	/* i386's numbers differ, and its aliases name it. */
	assert_string_equal(perfev_syscall__name("i386", 64), "getppid");
	assert_string_equal(perfev_syscall__name("i686", 3), "read");
	assert_int_equal(perfev_syscall__nr("i586", "exit_group"), 252);
#endif
	/* The asm-generic table (arm64 and the others that share it). */
	assert_string_equal(perfev_syscall__name("aarch64", 173), "getppid");
	assert_string_equal(perfev_syscall__name("arm64", 63), "read");
	assert_string_equal(perfev_syscall__name("riscv64", 56), "openat");
	assert_int_equal(perfev_syscall__nr("aarch64", "fork"), -ENOENT); /* arm64 has clone only */
	/* Out of range, unknown names and architectures. */
	assert_null(perfev_syscall__name(NULL, -1));
	assert_null(perfev_syscall__name(NULL, 1000000));
	assert_int_equal(perfev_syscall__nr(NULL, "no_such_call"), -ENOENT);
	assert_int_equal(perfev_syscall__nr(NULL, NULL), -ENOENT);
	assert_false(perfev_syscall__have_arch("pdp11"));
	assert_null(perfev_syscall__name("pdp11", 1));
	assert_int_equal(perfev_syscall__nr("pdp11", "read"), -EOPNOTSUPP);
}

static const struct perfev_syscall_stat *stat_of(const struct perfev_syscall_thread *t, long nr)
{
	for (size_t i = 0; i < t->nr_syscalls; i++)
		if (t->syscalls[i].nr == nr)
			return &t->syscalls[i];
	return NULL;
}

static void test_stats(void **state)
{
	struct perfev_syscall_stats *st = perfev_syscall_stats__new(NULL);
	const struct perfev_syscall_thread *t;
	const struct perfev_syscall_stat *s;
	long clone_nr = perfev_syscall__nr(NULL, "clone");

	(void)state;
	assert_non_null(st);
	/* Thread 10: execve's return without its entry, 3 reads of 1, 2 and 6 us, one failing. */
	assert_int_equal(perfev_syscall_stats__exit(st, 10, 10, 100, SYS_execve, 0), 0);
	for (int i = 0; i < 3; i++) {
		uint64_t t0 = 1000 + 100 * (uint64_t)i, d[] = { 1000, 2000, 6000 };

		assert_int_equal(perfev_syscall_stats__enter(st, 10, 10, t0 * 1000, SYS_read), 0);
		assert_int_equal(perfev_syscall_stats__exit(st, 10, 10, t0 * 1000 + d[i], SYS_read,
							    i == 1 ? -EAGAIN : 5), 0);
	}
	/* A large unsigned return (an address) is no error; -4096 is none either. */
	assert_int_equal(perfev_syscall_stats__enter(st, 10, 10, 5000000, SYS_mmap), 0);
	assert_int_equal(perfev_syscall_stats__exit(st, 10, 10, 5000100, SYS_mmap, -4096), 0);
	/* It forks thread 11, whose first event is clone's return: not a call of its own. */
	assert_int_equal(perfev_syscall_stats__enter(st, 10, 10, 6000000, clone_nr), 0);
	assert_int_equal(perfev_syscall_stats__exit(st, 10, 10, 6000500, clone_nr, 11), 0);
	assert_int_equal(perfev_syscall_stats__comm(st, 10, 10, "parent"), 0);
	assert_int_equal(perfev_syscall_stats__fork(st, 10, 10, 11), 0);
	assert_int_equal(perfev_syscall_stats__exit(st, 10, 11, 6000600, clone_nr, 0), 0);
	assert_int_equal(perfev_syscall_stats__enter(st, 10, 11, 7000000, SYS_getppid), 0);
	assert_int_equal(perfev_syscall_stats__exit(st, 10, 11, 7000010, SYS_getppid, 10), 0);
	/* exit_group never returns: not a call. */
	assert_int_equal(perfev_syscall_stats__enter(st, 10, 11, 8000000, SYS_exit_group), 0);
	/* An exit that does not match the pending entry is a call of no measured length. */
	assert_int_equal(perfev_syscall_stats__enter(st, 10, 10, 9000000, SYS_write), 0);
	assert_int_equal(perfev_syscall_stats__exit(st, 10, 10, 9000500, SYS_close, -EBADF), 0);

	assert_int_equal(perfev_syscall_stats__nr_events(st), 17);
	assert_int_equal(perfev_syscall_stats__nr_threads(st), 2);
	/* Most events first: thread 10 (13), then 11 (4). */
	t = perfev_syscall_stats__thread(st, 1);
	assert_int_equal(t->tid, 11);
	assert_string_equal(t->comm, "parent"); /* a forked thread takes its creator's name */
	assert_int_equal(t->nr_events, 4);
	assert_int_equal(t->nr_syscalls, 1);
	assert_int_equal(t->syscalls[0].nr, SYS_getppid);
	t = perfev_syscall_stats__thread(st, 0);
	assert_int_equal(t->tid, 10);
	assert_int_equal(t->nr_events, 13);
	/* By total time, the longest first: read (9 us), clone (0.5), then the rest by number. */
	assert_int_equal(t->syscalls[0].nr, SYS_read);
	assert_int_equal(t->syscalls[1].nr, clone_nr);
	s = stat_of(t, SYS_read);
	assert_int_equal(s->calls, 3);
	assert_int_equal(s->errors, 1);
	assert_int_equal(s->total_ns, 9000);
	assert_int_equal(s->min_ns, 1000);
	assert_int_equal(s->max_ns, 6000);
	assert_true(fabs(s->mean_ns - 3000) < 1e-6);
	/* sqrt(var / n) / mean: var = (4 + 1 + 9) / 2 us^2 = 7, so 100 * sqrt(7/3) / 3 %. */
	assert_true(fabs(perfev_syscall_stat__stddev_pct(s) - 100.0 * sqrt(7.0 / 3.0) / 3.0) < 1e-6);
	s = stat_of(t, SYS_execve);
	assert_int_equal(s->calls, 1);
	assert_int_equal(s->min_ns, 0);
	assert_true(perfev_syscall_stat__stddev_pct(s) == 0.0);
	assert_int_equal(stat_of(t, SYS_mmap)->errors, 0);
	assert_int_equal(stat_of(t, SYS_close)->errors, 1);
	assert_int_equal(stat_of(t, SYS_close)->total_ns, 0);
	assert_null(stat_of(t, SYS_write));
	assert_null(perfev_syscall_stats__thread(st, 2));
	/* A new name replaces the old; an unknown creator leaves the thread unnamed. */
	assert_int_equal(perfev_syscall_stats__comm(st, 10, 11, "worker"), 0);
	assert_int_equal(perfev_syscall_stats__fork(st, 99, 12, 12), 0);
	assert_string_equal(perfev_syscall_stats__thread(st, 1)->comm, "worker");
	perfev_syscall_stats__delete(st);
	perfev_syscall_stats__delete(NULL);
}

/* raw_syscalls' formats as this kernel writes them. */
static const char fmt_enter[] =
	"name: sys_enter\nID: 21\nformat:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
	"\tfield:long id;\toffset:8;\tsize:8;\tsigned:1;\n"
	"\tfield:unsigned long args[6];\toffset:16;\tsize:48;\tsigned:0;\n\n"
	"print fmt: \"NR %ld\", REC->id\n";
static const char fmt_exit[] =
	"name: sys_exit\nID: 22\nformat:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
	"\tfield:long id;\toffset:8;\tsize:8;\tsigned:1;\n"
	"\tfield:long ret;\toffset:16;\tsize:8;\tsigned:1;\n\n"
	"print fmt: \"NR %ld = %ld\", REC->id, REC->ret\n";
static const char fmt_noret[] = "name: sys_exit\nID: 23\nformat:\n"
				"\tfield:long id;\toffset:8;\tsize:8;\tsigned:1;\n\n"
				"print fmt: \"NR %ld\", REC->id\n";
static const char fmt_other[] = "name: other\nID: 24\nformat:\n"
				"\tfield:long id;\toffset:8;\tsize:8;\tsigned:1;\n\n"
				"print fmt: \"\"\n";

static void test_samples(void **state)
{
	struct perfev_tracefmt *tf = perfev_tracefmt__new(), *tf2 = perfev_tracefmt__new();
	struct perfev_syscall_stats *st = perfev_syscall_stats__new(NULL);
	unsigned char raw[64] = { 0 };
	int64_t id = SYS_getppid, ret = -ENOENT;

	(void)state;
	assert_int_equal(perfev_tracefmt__add_format(tf, "raw_syscalls", fmt_enter, strlen(fmt_enter)), 0);
	assert_int_equal(perfev_tracefmt__add_format(tf, "raw_syscalls", fmt_exit, strlen(fmt_exit)), 0);
	assert_int_equal(perfev_tracefmt__add_format(tf2, "raw_syscalls", fmt_noret, strlen(fmt_noret)), 0);
	assert_int_equal(perfev_tracefmt__add_format(tf2, "raw_syscalls", fmt_other, strlen(fmt_other)), 0);
	memcpy(raw + 8, &id, 8);
	memcpy(raw + 16, &ret, 8);
	assert_int_equal(perfev_syscall_stats__sample(st, perfev_tracefmt__find_id(tf, 21), 5, 5,
						      1000, raw, sizeof(raw)), 1);
	assert_int_equal(perfev_syscall_stats__sample(st, perfev_tracefmt__find_id(tf, 22), 5, 5,
						      3000, raw, 24), 1);
	assert_int_equal(perfev_syscall_stats__nr_threads(st), 1);
	assert_int_equal(perfev_syscall_stats__thread(st, 0)->syscalls[0].errors, 1);
	assert_int_equal(perfev_syscall_stats__thread(st, 0)->syscalls[0].total_ns, 2000);
	/* Short records: refused, counting nothing. */
	assert_int_equal(perfev_syscall_stats__sample(st, perfev_tracefmt__find_id(tf, 22), 5, 5,
						      4000, raw, 20), -PERFEV_ERR_FORMAT);
	assert_int_equal(perfev_syscall_stats__sample(st, perfev_tracefmt__find_id(tf, 21), 5, 5,
						      4000, raw, 0), -PERFEV_ERR_FORMAT);
	/* A format without ret; another event: not counted. */
	assert_int_equal(perfev_syscall_stats__sample(st, perfev_tracefmt__find_id(tf2, 23), 5, 5,
						      4000, raw, sizeof(raw)), -PERFEV_ERR_FORMAT);
	assert_non_null(strstr(perfev_last_error(), "'ret'"));
	assert_int_equal(perfev_syscall_stats__sample(st, perfev_tracefmt__find_id(tf2, 24), 5, 5,
						      4000, raw, sizeof(raw)), 0);
	/* An id of -1 (a task not in a syscall when tracing began) is no syscall. */
	id = -1;
	memcpy(raw + 8, &id, 8);
	assert_int_equal(perfev_syscall_stats__sample(st, perfev_tracefmt__find_id(tf, 22), 5, 5,
						      5000, raw, sizeof(raw)), 0);
	assert_int_equal(perfev_syscall_stats__nr_events(st), 2);
	perfev_syscall_stats__delete(st);
	perfev_tracefmt__delete(tf);
	perfev_tracefmt__delete(tf2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_stats),
		cmocka_unit_test(test_samples),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
