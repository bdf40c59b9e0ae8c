/*
 * What a refused perf_event_open() is explained as, and what hidden kernel
 * addresses are: each hint must hold on the machine where it is shown, so
 * the sysctls and capabilities are fed through the library's /proc root
 * (sys_root__set) and every explanation is checked for what it must say
 * and for the hints that would be false there.  The real refusals, as an
 * unprivileged user, are tests/cli/test_nonroot.sh's.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <inttypes.h>
#include <sys/resource.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "evlist/evlist_int.h"

static char fake_root[64];

static void put_file(const char *rel, const char *text)
{
	char path[256], cmd[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", fake_root, rel);
	snprintf(cmd, sizeof(cmd), "mkdir -p \"$(dirname '%s')\"", path);
	assert_int_equal(system(cmd), 0);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void rm_file(const char *rel)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/%s", fake_root, rel);
	unlink(path);
}

/* A machine with that paranoid level (NULL: unreadable) and those effective capabilities. */
static void machine(const char *paranoid, const char *capeff)
{
	char status[128];

	if (paranoid)
		put_file("proc/sys/kernel/perf_event_paranoid", paranoid);
	else
		rm_file("proc/sys/kernel/perf_event_paranoid");
	snprintf(status, sizeof(status), "Name:\ttest\nCapInh:\t0000000000000000\nCapEff:\t%s\n",
		 capeff);
	put_file("proc/self/status", status);
}

static int setup(void **state)
{
	(void)state;
	snprintf(fake_root, sizeof(fake_root), "/tmp/perfev-root-XXXXXX");
	assert_non_null(mkdtemp(fake_root));
	sys_root__set(fake_root);
	return 0;
}

static int teardown(void **state)
{
	char cmd[128];

	(void)state;
	sys_root__set(NULL);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", fake_root);
	return system(cmd);
}

static const char *explain(const struct perf_event_attr *a, bool cpu_wide)
{
	static char buf[1024];
	struct open_target t = { .cpu_wide = cpu_wide };

	explain_open_error(-EACCES, a, "ev", &t, buf, sizeof(buf));
	return buf;
}

#define HAS(s, sub) assert_non_null(strstr((s), (sub)))
#define LACKS(s, sub) assert_null(strstr((s), (sub)))

static void test_denied_at_paranoid_2(void **state)
{
	struct perf_event_attr both = { .type = PERF_TYPE_SOFTWARE };
	struct perf_event_attr kernel_only = { .type = PERF_TYPE_SOFTWARE, .exclude_user = 1 };
	struct perf_event_attr tp = { .type = PERF_TYPE_TRACEPOINT, .exclude_kernel = 1 };
	const char *s;

	(void)state;
	machine("2\n", "0000000000000000");
	/* User and kernel on a task: ':u' would open (this process may open a user-space event). */
	s = explain(&both, false);
	HAS(s, "kernel.perf_event_paranoid is 2");
	HAS(s, "CAP_PERFMON");
	HAS(s, "kernel.perf_event_paranoid=1");
	HAS(s, "add ':u'");
	/* Only the kernel: ':u' would measure something else. */
	s = explain(&kernel_only, false);
	HAS(s, "only the kernel");
	HAS(s, "kernel.perf_event_paranoid=1");
	LACKS(s, ":u");
	/* A tracepoint fires in the kernel: ':u' would count nothing. */
	s = explain(&tp, false);
	HAS(s, "tracepoint");
	LACKS(s, ":u");
	/* CPU-wide: ':u' does not help, level 0 does. */
	s = explain(&both, true);
	HAS(s, "kernel.perf_event_paranoid=0");
	HAS(s, "CAP_PERFMON");
	LACKS(s, ":u");
	LACKS(s, "paranoid=1");
}

static void test_denied_elsewhere(void **state)
{
	struct perf_event_attr user = { .type = PERF_TYPE_SOFTWARE, .exclude_kernel = 1 };
	struct perf_event_attr both = { .type = PERF_TYPE_SOFTWARE };
	const char *s;

	(void)state;
	/* With CAP_PERFMON the paranoid level is not what refused: no sysctl advice. */
	machine("2\n", "0000004000000000");
	s = explain(&both, false);
	HAS(s, "security policy");
	LACKS(s, "sysctl");
	LACKS(s, ":u");
	/* CAP_SYS_ADMIN lifts the checks as well. */
	machine("2\n", "0000000000200000");
	HAS(explain(&both, true), "security policy");
	/* A level that cannot be read is not made up. */
	machine(NULL, "0000000000000000");
	s = explain(&user, false);
	LACKS(s, "is 2");
	LACKS(s, "paranoid is");
	HAS(s, "CAP_PERFMON");
	/* Level 1: the kernel is allowed to users; a user-space event refused is not about it. */
	machine("1\n", "0000000000000000");
	s = explain(&user, false);
	LACKS(s, ":u");
	LACKS(s, "paranoid=1");
	/* The public entry point knows no target: a task's explanation, with the level. */
	machine("2\n", "0000000000000000");
	char buf[512];

	assert_int_equal(perfev_explain_open_error(-EPERM, &both, "ev", buf, sizeof(buf)), 0);
	HAS(buf, "kernel.perf_event_paranoid is 2");
}

static void test_hidden_kernel_addresses(void **state)
{
	char buf[512];

	(void)state;
	machine("2\n", "0000000000000000");
	/* kptr_restrict 0 hides them from users above paranoid 1: never "set it to 0". */
	put_file("proc/sys/kernel/kptr_restrict", "0\n");
	explain_hidden_kptrs(buf, sizeof(buf));
	HAS(buf, "kernel.kptr_restrict is 0");
	HAS(buf, "(it is 2)");
	HAS(buf, "kernel.perf_event_paranoid=1");
	LACKS(buf, "kptr_restrict=0");
	put_file("proc/sys/kernel/kptr_restrict", "1\n");
	explain_hidden_kptrs(buf, sizeof(buf));
	HAS(buf, "CAP_SYSLOG");
	HAS(buf, "kptr_restrict=0");
	put_file("proc/sys/kernel/kptr_restrict", "2\n");
	explain_hidden_kptrs(buf, sizeof(buf));
	HAS(buf, "root included");
	HAS(buf, "kptr_restrict=1");
	LACKS(buf, "run as root");
	/* Settings that should show them: something else hides them. */
	put_file("proc/sys/kernel/kptr_restrict", "0\n");
	machine("1\n", "0000000000000000");
	explain_hidden_kptrs(buf, sizeof(buf));
	HAS(buf, "should show them");
	LACKS(buf, "sysctl");
	put_file("proc/sys/kernel/kptr_restrict", "1\n");
	machine("2\n", "0000000400000000"); /* CAP_SYSLOG */
	explain_hidden_kptrs(buf, sizeof(buf));
	HAS(buf, "should show them");
}

/* Too many open files: 'ulimit -n' is offered only while the soft limit is below the hard one. */
static void test_too_many_files(void **state)
{
	struct perf_event_attr a = { .type = PERF_TYPE_SOFTWARE };
	struct open_target t = { 0 };
	struct rlimit saved, rl;
	char buf[512];

	(void)state;
	assert_int_equal(getrlimit(RLIMIT_NOFILE, &saved), 0);
	rl = saved;
	rl.rlim_cur = rl.rlim_max;
	assert_int_equal(setrlimit(RLIMIT_NOFILE, &rl), 0);
	explain_open_error(-EMFILE, &a, "ev", &t, buf, sizeof(buf));
	HAS(buf, "hard limit");
	LACKS(buf, "ulimit");
	rl.rlim_cur = 64;
	assert_int_equal(setrlimit(RLIMIT_NOFILE, &rl), 0);
	explain_open_error(-EMFILE, &a, "ev", &t, buf, sizeof(buf));
	HAS(buf, "ulimit -n");
	HAS(buf, "(64)");
	assert_int_equal(setrlimit(RLIMIT_NOFILE, &saved), 0);
}

/* The frequency is blamed only when it is above the kernel's limit. */
static void test_invalid_frequency(void **state)
{
	struct perf_event_attr a = { .type = PERF_TYPE_SOFTWARE, .freq = 1, .sample_freq = 100 };
	struct open_target t = { 0 };
	uint64_t max = 0;
	char buf[512];
	FILE *f = fopen("/proc/sys/kernel/perf_event_max_sample_rate", "r");

	(void)state;
	assert_non_null(f);
	assert_int_equal(fscanf(f, "%" SCNu64, &max), 1);
	fclose(f);
	explain_open_error(-EINVAL, &a, "ev", &t, buf, sizeof(buf));
	LACKS(buf, "max_sample_rate");
	a.sample_freq = max + 1;
	explain_open_error(-EINVAL, &a, "ev", &t, buf, sizeof(buf));
	HAS(buf, "exceeds kernel.perf_event_max_sample_rate");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_denied_at_paranoid_2),
		cmocka_unit_test(test_denied_elsewhere),
		cmocka_unit_test(test_hidden_kernel_addresses),
		cmocka_unit_test(test_too_many_files),
		cmocka_unit_test(test_invalid_frequency),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
