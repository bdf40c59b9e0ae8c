/* Counting against the real kernel: software events, tracepoints, breakpoints, groups, inherit. */
#include <stdarg.h>
#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <linux/hw_breakpoint.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "perfev/perfev.h"

static char helper_path[4096];

static const char *helper(const char *name)
{
	const char *dir = getenv("HELPERS");

	snprintf(helper_path, sizeof(helper_path), "%s/%s", dir ? dir : "build/tests/helpers", name);
	return helper_path;
}

/* Runs argv under the events of spec with inherit and enable-on-exec; fills counts per event. */
static int run_counted(const char *spec, char *const argv[], bool inherit, uint64_t *vals, int max,
		       struct rusage *ru)
{
	struct perfev_evlist *el = perfev_evlist__new();
	struct perfev_workload *w;
	struct perfev_evsel *ev;
	int i = 0, status = -1;

	assert_non_null(el);
	assert_int_equal(perfev_evlist__add_events(el, spec), 0);
	w = perfev_workload__new(argv);
	assert_non_null(w);
	struct perfev_open_opts o = { .sz = sizeof(o),
				      .pid = perfev_workload__pid(w),
				      .inherit = inherit,
				      .enable_on_exec = true };
	int err = perfev_evlist__open(el, &o);
	if (err)
		print_message("open failed: %s\n", perfev_last_error());
	assert_int_equal(err, 0);
	assert_int_equal(perfev_workload__start(w), 0);
	assert_int_equal(wait4(perfev_workload__pid(w), &status, 0, ru), perfev_workload__pid(w));
	assert_true(WIFEXITED(status));
	assert_int_equal(perfev_evlist__read(el), 0);
	perfev_evlist__for_each_evsel(el, ev) {
		struct perfev_counts c;

		assert_int_equal(perfev_evsel__counts_total(ev, &c), 0);
		if (i < max)
			vals[i] = perfev_counts__scaled(&c);
		i++;
	}
	/* the workload is reaped already: its delete must not wait again */
	perfev_workload__delete(w);
	perfev_evlist__delete(el);
	return i;
}

static void test_page_faults_at_least_touched(void **state)
{
	(void)state;
	char *argv[] = { (char *)helper("touch_pages"), (char *)"5000", NULL };
	uint64_t v[2];
	struct rusage ru;

	assert_int_equal(run_counted("page-faults,minor-faults", argv, true, v, 2, &ru), 2);
	print_message("page-faults %llu minor-faults %llu for 5000 pages\n",
		      (unsigned long long)v[0], (unsigned long long)v[1]);
	assert_true(v[0] >= 5000);
	assert_true(v[1] >= 5000);
	assert_true(v[0] < 5000 + 2000); /* and not wildly more: it counts only the child */
}

static void test_task_clock_matches_cpu_time(void **state)
{
	(void)state;
	char *argv[] = { (char *)helper("spin"), (char *)"300", NULL };
	uint64_t v[1];
	struct rusage ru;

	run_counted("task-clock", argv, true, v, 1, &ru);
	double cpu = (double)ru.ru_utime.tv_sec * 1e9 + ru.ru_utime.tv_usec * 1e3 +
		     (double)ru.ru_stime.tv_sec * 1e9 + ru.ru_stime.tv_usec * 1e3;
	print_message("task-clock %.1f ms, rusage cpu %.1f ms\n", v[0] / 1e6, cpu / 1e6);
	/* rusage ticks are coarse; a tenth plus 20 ms covers them. */
	assert_true(v[0] >= 290e6);
	assert_true(fabs((double)v[0] - cpu) < 0.1 * cpu + 20e6);
}

static void test_context_switches_of_sleeper(void **state)
{
	(void)state;
	char *argv[] = { (char *)helper("sleeper"), (char *)"50", NULL };
	uint64_t v[1];
	struct rusage ru;

	run_counted("context-switches", argv, true, v, 1, &ru);
	print_message("context-switches %llu for 50 sleeps\n", (unsigned long long)v[0]);
	assert_true(v[0] >= 50);
}

static bool tracefs_ready(void)
{
	return access("/sys/kernel/tracing/events/syscalls/sys_enter_getppid/id", R_OK) == 0 ||
	       access("/sys/kernel/debug/tracing/events/syscalls/sys_enter_getppid/id", R_OK) == 0;
}

static void test_tracepoint_counts_exact_calls(void **state)
{
	(void)state;
	char *argv[] = { (char *)helper("getppid_loop"), (char *)"12345", NULL };
	uint64_t v[1];
	struct rusage ru;

	if (!tracefs_ready()) {
		print_message("skip: tracefs with syscalls:sys_enter_getppid is not available here\n");
		skip();
	}
	run_counted("syscalls:sys_enter_getppid", argv, true, v, 1, &ru);
	assert_int_equal(v[0], 12345);
}

static void test_inherit_counts_grandchildren(void **state)
{
	(void)state;
	char *argv[] = { (char *)helper("forker"), (char *)"4000", NULL };
	uint64_t with, without;
	struct rusage ru;

	run_counted("page-faults", argv, true, &with, 1, &ru);
	run_counted("page-faults", argv, false, &without, 1, &ru);
	print_message("page-faults with inherit %llu, without %llu\n", (unsigned long long)with,
		      (unsigned long long)without);
	assert_true(with >= 4000);
	assert_true(without < 4000);
}

static volatile long bp_target;

/*
 * Whether this machine delivers hardware breakpoints at all, asked of the kernel
 * without the library: some hypervisors accept the event but never raise its debug
 * exception, so it opens and counts nothing (perf stat shows 0 there too).
 */
static bool breakpoints_fire(void)
{
	struct perf_event_attr a = { .type = PERF_TYPE_BREAKPOINT, .size = sizeof(a) };
	uint64_t n = 0;

	a.bp_type = HW_BREAKPOINT_W;
	a.bp_addr = (uintptr_t)&bp_target;
	a.bp_len = HW_BREAKPOINT_LEN_8;
	a.exclude_kernel = 1;
	a.exclude_hv = 1;
	int fd = (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, 0);
	if (fd < 0)
		return false;
	for (int i = 0; i < 10; i++)
		bp_target = i;
	if (read(fd, &n, sizeof(n)) != (ssize_t)sizeof(n))
		n = 0;
	close(fd);
	return n == 10;
}

static void test_breakpoint_counts_writes(void **state)
{
	(void)state;
	char spec[64];
	struct perfev_evlist *el = perfev_evlist__new();
	struct perfev_open_opts o = { .sz = sizeof(o), .pid = 0 };
	struct perfev_counts c;

	snprintf(spec, sizeof(spec), "mem:%p/8:w", (void *)&bp_target);
	assert_int_equal(perfev_evlist__add_events(el, spec), 0);
	struct perf_event_attr *a = perfev_evsel__attr(perfev_evlist__next_evsel(el, NULL));
	assert_int_equal(a->type, PERF_TYPE_BREAKPOINT);
	assert_int_equal(a->bp_type, HW_BREAKPOINT_W);
	int err = perfev_evlist__open(el, &o);
	if (err == -ENOSPC || err == -ENODEV || err == -EOPNOTSUPP) {
		print_message("skip: no hardware breakpoint slot here: %s\n", perfev_last_error());
		perfev_evlist__delete(el);
		skip();
	}
	assert_int_equal(err, 0);
	for (int i = 0; i < 777; i++)
		bp_target = i;
	for (int i = 0; i < 100; i++)
		(void)bp_target; /* reads don't count for :w */
	assert_int_equal(perfev_evlist__read(el), 0);
	assert_int_equal(perfev_evsel__counts_total(perfev_evlist__next_evsel(el, NULL), &c), 0);
	if (c.val == 0 && !breakpoints_fire()) {
		print_message("skip: hardware breakpoints open here but never fire (a raw perf_event_open "
			      "of the same breakpoint counts 0 writes too): the hypervisor delivers no debug "
			      "exceptions\n");
		perfev_evlist__delete(el);
		skip();
	}
	assert_int_equal(c.val, 777);
	perfev_evlist__delete(el);
}

static volatile unsigned long sink;

static void burn(long ms)
{
	struct timespec t0, t;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t0);
	do {
		for (int i = 0; i < 10000; i++)
			sink += (unsigned long)i;
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	} while ((t.tv_sec - t0.tv_sec) * 1000 + (t.tv_nsec - t0.tv_nsec) / 1000000 < ms);
}

static void test_group_reads_consistently(void **state)
{
	(void)state;
	struct perfev_evlist *el = perfev_evlist__new();
	struct perfev_open_opts o = { .sz = sizeof(o), .pid = 0 };
	struct perfev_evsel *lead, *ev;
	struct perfev_counts c[3];
	int i = 0;

	assert_int_equal(perfev_evlist__add_events(el, "{task-clock,cpu-clock,page-faults}"), 0);
	lead = perfev_evlist__next_evsel(el, NULL);
	assert_int_equal(perfev_evsel__nr_members(lead), 3);
	assert_int_equal(perfev_evlist__open(el, &o), 0);
	assert_true(perfev_evsel__attr(lead)->read_format & PERF_FORMAT_GROUP);
	burn(50);
	assert_int_equal(perfev_evlist__read(el), 0);
	perfev_evlist__for_each_evsel(el, ev) {
		assert_ptr_equal(perfev_evsel__leader(ev), lead);
		assert_int_equal(perfev_evsel__counts(ev, 0, 0, &c[i]), 0);
		assert_int_not_equal(c[i].id, 0);
		i++;
	}
	/* One read gave the whole group: the same enabled/running times for every member. */
	assert_int_equal(c[0].ena, c[1].ena);
	assert_int_equal(c[0].run, c[2].run);
	print_message("task-clock %llu cpu-clock %llu\n", (unsigned long long)c[0].val,
		      (unsigned long long)c[1].val);
	assert_true(c[0].val >= 45000000);
	/* cpu-clock advances on timer ticks and reads: close to task-clock, not equal */
	assert_true(llabs((long long)c[0].val - (long long)c[1].val) < (long long)c[0].val / 10);
	perfev_evlist__delete(el);
}

static void test_enable_disable_reset_and_prctl(void **state)
{
	(void)state;
	struct perfev_evlist *el = perfev_evlist__new();
	struct perfev_open_opts o = { .sz = sizeof(o), .pid = 0, .start_disabled = true };
	struct perfev_evsel *ev;
	struct perfev_counts c;

	assert_int_equal(perfev_evlist__add_events(el, "task-clock"), 0);
	ev = perfev_evlist__next_evsel(el, NULL);
	assert_int_equal(perfev_evlist__open(el, &o), 0);
	burn(20);
	perfev_evlist__read(el);
	perfev_evsel__counts_total(ev, &c);
	assert_int_equal(c.val, 0); /* disabled: nothing counted */
	assert_int_equal(perfev_evlist__enable(el), 0);
	burn(20);
	perfev_evlist__read(el);
	perfev_evsel__counts_total(ev, &c);
	assert_true(c.val >= 15000000);
	assert_int_equal(perfev_process_events_disable(), 0);
	uint64_t before = c.val;
	burn(20);
	perfev_evlist__read(el);
	perfev_evsel__counts_total(ev, &c);
	assert_true(c.val - before < 2000000); /* prctl stopped it */
	assert_int_equal(perfev_process_events_enable(), 0);
	assert_int_equal(perfev_evlist__reset(el), 0);
	perfev_evlist__read(el);
	perfev_evsel__counts_total(ev, &c);
	assert_true(c.val < 2000000);
	perfev_evlist__delete(el);
}

static void test_system_wide_per_cpu(void **state)
{
	(void)state;
	struct perfev_evlist *el = perfev_evlist__new();
	struct perfev_open_opts o = { .sz = sizeof(o), .pid = -1, .system_wide = true };
	struct perfev_evsel *ev;
	struct perfev_counts c;
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);

	assert_int_equal(perfev_evlist__add_events(el, "cpu-clock"), 0);
	assert_int_equal(perfev_evlist__open(el, &o), 0);
	assert_int_equal(perfev_cpu_map__nr(perfev_evlist__cpus(el)), ncpu);
	burn(30);
	assert_int_equal(perfev_evlist__read(el), 0);
	ev = perfev_evlist__next_evsel(el, NULL);
	for (int i = 0; i < ncpu; i++) {
		assert_int_equal(perfev_evsel__counts(ev, i, 0, &c), 0);
		assert_true(c.ena > 0);
	}
	perfev_evsel__counts_total(ev, &c);
	assert_true(c.val >= 25000000 * (uint64_t)ncpu); /* cpu-clock runs on idle CPUs too */
	perfev_evlist__delete(el);
}

/* A child spinning inside a fresh cgroup is counted; the rest of the system is not. */
static void test_cgroup_counts_its_tasks(void **state)
{
	(void)state;
	struct perfev_evlist *el = perfev_evlist__new();
	struct perfev_open_opts o = { .sz = sizeof(o), .pid = -1, .system_wide = true, .cgroup = "/" };
	struct perfev_counts c;
	char dir[256] = "", procs[300];

	assert_int_equal(perfev_evlist__add_events(el, "task-clock"), 0);
	int err = perfev_evlist__open(el, &o);
	if (err == -ENOENT && strstr(perfev_last_error(), "no cgroup2")) {
		print_message("skip: %s\n", perfev_last_error());
		perfev_evlist__delete(el);
		skip();
	}
	if (err)
		print_message("cgroup open: %s\n", perfev_last_error());
	assert_int_equal(err, 0);
	perfev_evlist__delete(el);

	/* Where the library found the cgroup2 mount, make a child cgroup. */
	static const char *const mounts[] = { "/sys/fs/cgroup", "/sys/fs/cgroup/unified" };
	for (size_t i = 0; i < 2 && !dir[0]; i++) {
		char probe[256];

		snprintf(probe, sizeof(probe), "%s/cgroup.procs", mounts[i]);
		if (access(probe, W_OK) == 0) {
			snprintf(dir, sizeof(dir), "%s/perfev-test-%d", mounts[i], (int)getpid());
			if (mkdir(dir, 0755) && errno != EEXIST)
				dir[0] = '\0';
		}
	}
	if (!dir[0]) {
		print_message("skip: cannot create a cgroup to count in (not root or no cgroup2)\n");
		skip();
	}
	pid_t child = fork();
	if (child == 0) {
		char b[32];
		int fd;

		snprintf(procs, sizeof(procs), "%s/cgroup.procs", dir);
		fd = open(procs, O_WRONLY);
		snprintf(b, sizeof(b), "%d", (int)getpid());
		if (fd < 0 || write(fd, b, strlen(b)) < 0)
			_exit(2);
		close(fd);
		usleep(100000); /* the counter opens meanwhile */
		struct timespec t0, t;
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t0);
		do
			clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
		while ((t.tv_sec - t0.tv_sec) * 1000000000L + (t.tv_nsec - t0.tv_nsec) < 150000000L);
		_exit(0);
	}
	el = perfev_evlist__new();
	assert_int_equal(perfev_evlist__add_events(el, "task-clock"), 0);
	o.cgroup = strrchr(dir, '/') + 1; /* relative to the mount */
	assert_int_equal(perfev_evlist__open(el, &o), 0);
	int status;
	waitpid(child, &status, 0);
	assert_int_equal(perfev_evlist__read(el), 0);
	perfev_evsel__counts_total(perfev_evlist__next_evsel(el, NULL), &c);
	print_message("cgroup task-clock %.1f ms for a 150 ms spin\n", c.val / 1e6);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	assert_true(c.val >= 140000000 && c.val < 400000000);
	perfev_evlist__delete(el);
	rmdir(dir);

	el = perfev_evlist__new();
	assert_int_equal(perfev_evlist__add_events(el, "task-clock"), 0);
	o.cgroup = "no-such-cgroup-here";
	assert_int_equal(perfev_evlist__open(el, &o), -ENOENT);
	assert_non_null(strstr(perfev_last_error(), "no-such-cgroup-here"));
	perfev_evlist__delete(el);
}

static void test_attach_to_all_threads(void **state)
{
	(void)state;
	char *argv[] = { (char *)helper("spin"), (char *)"400", NULL };
	struct perfev_workload *w = perfev_workload__new(argv);
	struct perfev_evlist *el = perfev_evlist__new();
	struct perfev_counts c;
	int status;

	assert_int_equal(perfev_workload__start(w), 0);
	usleep(50000);
	struct perfev_open_opts o = { .sz = sizeof(o), .pid = perfev_workload__pid(w),
				      .attach_all_threads = true };
	assert_int_equal(perfev_evlist__add_events(el, "task-clock"), 0);
	assert_int_equal(perfev_evlist__open(el, &o), 0);
	assert_int_equal(perfev_thread_map__tid(perfev_evlist__threads(el), 0), perfev_workload__pid(w));
	/*
	 * The spinner burns 400 ms of its own CPU time, most of it after the
	 * attach; how soon depends on the machine's load, so poll rather than
	 * expect it within a fixed wall time.
	 */
	for (int i = 0; i < 500; i++) {
		assert_int_equal(perfev_evlist__read(el), 0);
		perfev_evsel__counts_total(perfev_evlist__next_evsel(el, NULL), &c);
		if (c.val >= 50000000)
			break;
		usleep(20000);
	}
	assert_true(c.val >= 50000000);
	perfev_evlist__delete(el);
	perfev_workload__wait(w, &status);
	perfev_workload__delete(w);
}

static void test_unsupported_events_explained(void **state)
{
	(void)state;
	struct perfev_evlist *el = perfev_evlist__new();
	struct perf_event_attr a = { .type = PERF_TYPE_HARDWARE, .config = PERF_COUNT_HW_INSTRUCTIONS };
	struct perf_event_attr bogus = { .type = 0x7ffffff0, .config = 1 };
	struct perfev_open_opts o = { .sz = sizeof(o), .pid = 0, .skip_unsupported = true };
	struct perfev_evsel *hw, *bad, *sw;
	char buf[512];

	hw = perfev_evlist__add_attr(el, &a, "instructions", NULL);
	bad = perfev_evlist__add_attr(el, &bogus, NULL, NULL);
	assert_string_equal(perfev_evsel__name(bad), "raw 0x7ffffff0:0x1");
	assert_int_equal(perfev_evlist__add_events(el, "task-clock"), 0);
	sw = perfev_evlist__next_evsel(el, bad);
	assert_int_equal(perfev_evlist__open(el, &o), 0);
	assert_int_equal(perfev_evsel__open_status(sw), 0);
	assert_int_not_equal(perfev_evsel__open_status(bad), 0);
	assert_non_null(strstr(perfev_evsel__open_error(bad), "not supported"));
	if (perfev_evsel__open_status(hw))
		assert_non_null(strstr(perfev_evsel__open_error(hw), "instructions"));
	perfev_evlist__delete(el);

	/* Without skip_unsupported, the open fails as a whole and says which event. */
	el = perfev_evlist__new();
	perfev_evlist__add_attr(el, &bogus, "bogus-event", NULL);
	o.skip_unsupported = false;
	assert_true(perfev_evlist__open(el, &o) < 0);
	assert_non_null(strstr(perfev_last_error(), "bogus-event"));
	perfev_evlist__delete(el);

	/* Which hints apply depends on the machine: test_open_errors.c feeds each case. */
	perfev_explain_open_error(-EACCES, &a, "cycles", buf, sizeof(buf));
	assert_non_null(strstr(buf, "CAP_PERFMON"));
	perfev_explain_open_error(-EMFILE, &a, "cycles", buf, sizeof(buf));
	assert_non_null(strstr(buf, "too many open files")); /* the limits: test_open_errors.c */
	perfev_explain_open_error(-ESRCH, &a, "cycles", buf, sizeof(buf));
	assert_non_null(strstr(buf, "process"));
	perfev_explain_open_error(-E2BIG, &a, "cycles", buf, sizeof(buf));
	assert_non_null(strstr(buf, "older"));
	perfev_explain_open_error(-EINVAL, &a, "cycles", buf, sizeof(buf));
	assert_non_null(strstr(buf, "invalid"));
}

static void test_workload_exec_failures(void **state)
{
	(void)state;
	char *nf[] = { (char *)"/nonexistent/perfev-no-such-command", NULL };
	char nxpath[] = "/tmp/perfev-noexec-XXXXXX";
	int nxfd = mkstemp(nxpath);
	char *nx[] = { nxpath, NULL };
	struct perfev_workload *w;
	int status;

	w = perfev_workload__new(nf);
	assert_non_null(w);
	assert_int_equal(perfev_workload__start(w), -ENOENT);
	assert_non_null(strstr(perfev_last_error(), "not found"));
	assert_int_equal(perfev_workload__wait(w, &status), 0);
	assert_int_equal(WEXITSTATUS(status), 127);
	perfev_workload__delete(w);

	w = perfev_workload__new(nx);
	assert_int_equal(perfev_workload__start(w), -EACCES);
	assert_int_equal(perfev_workload__wait(w, &status), 0);
	assert_int_equal(WEXITSTATUS(status), 126);
	perfev_workload__delete(w);
	close(nxfd);
	unlink(nxpath);

	/* Never started: delete kills and reaps it. */
	w = perfev_workload__new(nf);
	pid_t pid = perfev_workload__pid(w);
	perfev_workload__delete(w);
	assert_int_equal(kill(pid, 0), -1);
}

/* A CPU map instead of a list's text: the calling thread followed on each online CPU. */
static void test_open_on_a_cpu_map(void **state)
{
	(void)state;
	struct perfev_cpu_map *online = perfev_cpu_map__new(NULL);
	struct perfev_evlist *el = perfev_evlist__new();
	struct perfev_open_opts o = { .sz = sizeof(o), .pid = 0, .cpu_map = online };
	const struct perfev_cpu_map *cm;
	struct perfev_counts c;
	volatile uint64_t x = 0;

	assert_non_null(online);
	assert_int_equal(perfev_evlist__add_events(el, "task-clock"), 0);
	o.cpus = "0";
	assert_int_equal(perfev_evlist__open(el, &o), -EINVAL);
	assert_non_null(strstr(perfev_last_error(), "cpu_map"));
	o.cpus = NULL;
	assert_int_equal(perfev_evlist__open(el, &o), 0);
	/* The list keeps a copy: the caller's map may go. */
	perfev_cpu_map__delete(online);
	cm = perfev_evlist__cpus(el);
	assert_true(perfev_cpu_map__nr(cm) >= 1);
	assert_int_equal(perfev_cpu_map__cpu(cm, 0), 0);
	assert_int_equal(perfev_thread_map__nr(perfev_evlist__threads(el)), 1);
	for (int i = 0; i < 3000000; i++)
		x += (uint64_t)i;
	assert_true(x > 0);
	assert_int_equal(perfev_evlist__read(el), 0);
	assert_int_equal(perfev_evsel__counts_total(perfev_evlist__next_evsel(el, NULL), &c), 0);
	assert_true(c.val > 0);
	perfev_evlist__delete(el);
}

static void test_open_errors(void **state)
{
	(void)state;
	struct perfev_evlist *el = perfev_evlist__new();
	struct perfev_open_opts o = { .sz = sizeof(o), .pid = -1 };

	assert_int_equal(perfev_evlist__open(el, &o), -EINVAL); /* empty */
	assert_int_equal(perfev_evlist__add_events(el, "task-clock"), 0);
	assert_int_equal(perfev_evlist__open(el, &o), -EINVAL); /* pid -1 without CPUs */
	assert_non_null(strstr(perfev_last_error(), "CPU"));
	o.pid = 0x7ffffff0;
	assert_int_equal(perfev_evlist__open(el, &o), -ESRCH);
	assert_non_null(strstr(perfev_last_error(), "does not exist"));
	o.pid = 0;
	o.cpus = "0-100000";
	assert_true(perfev_evlist__open(el, &o) < 0);
	o.cpus = NULL;
	o.sz = 2;
	assert_int_equal(perfev_evlist__open(el, &o), -EINVAL);
	perfev_evlist__delete(el);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_page_faults_at_least_touched),
		cmocka_unit_test(test_task_clock_matches_cpu_time),
		cmocka_unit_test(test_context_switches_of_sleeper),
		cmocka_unit_test(test_tracepoint_counts_exact_calls),
		cmocka_unit_test(test_inherit_counts_grandchildren),
		cmocka_unit_test(test_breakpoint_counts_writes),
		cmocka_unit_test(test_group_reads_consistently),
		cmocka_unit_test(test_enable_disable_reset_and_prctl),
		cmocka_unit_test(test_system_wide_per_cpu),
		cmocka_unit_test(test_cgroup_counts_its_tasks),
		cmocka_unit_test(test_attach_to_all_threads),
		cmocka_unit_test(test_unsupported_events_explained),
		cmocka_unit_test(test_workload_exec_failures),
		cmocka_unit_test(test_open_on_a_cpu_map),
		cmocka_unit_test(test_open_errors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
