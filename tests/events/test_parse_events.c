/*
 * The event parser and catalogue: every kind's attribute fields, modifiers,
 * groups, malformed specs, suggestions, a fake sysfs PMU tree for the
 * format/alias machinery, and the real msr PMU and tracefs of this machine.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <inttypes.h>
#include <linux/hw_breakpoint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "perfev/perfev.h"
#include "events/events_int.h" /* the sysfs and tracefs overrides for tests */

static struct perf_event_attr attr;
static char name[512];

static int parse(const char *spec)
{
	return perfev_parse_event(spec, &attr, name, sizeof(name));
}

/* A failure must come with its explanation. */
static void assert_fails(const char *spec, int err)
{
	int ret = parse(spec);

	if (ret != err)
		print_message("spec '%s': got %d, want %d (%s)\n", spec, ret, err,
			      perfev_last_error());
	assert_int_equal(ret, err);
	assert_true(strlen(perfev_last_error()) > 0);
}

static void assert_error_has(const char *what)
{
	if (!strstr(perfev_last_error(), what))
		print_message("error '%s' lacks '%s'\n", perfev_last_error(), what);
	assert_non_null(strstr(perfev_last_error(), what));
}

static void test_hardware(void **state)
{
	static const struct {
		const char *spec, *name;
		uint64_t config;
	} hw[] = {
		{ "cycles", "cycles", PERF_COUNT_HW_CPU_CYCLES },
		{ "cpu-cycles", "cycles", PERF_COUNT_HW_CPU_CYCLES },
		{ "instructions", "instructions", PERF_COUNT_HW_INSTRUCTIONS },
		{ "cache-references", "cache-references", PERF_COUNT_HW_CACHE_REFERENCES },
		{ "cache-misses", "cache-misses", PERF_COUNT_HW_CACHE_MISSES },
		{ "branches", "branches", PERF_COUNT_HW_BRANCH_INSTRUCTIONS },
		{ "branch-instructions", "branches", PERF_COUNT_HW_BRANCH_INSTRUCTIONS },
		{ "branch-misses", "branch-misses", PERF_COUNT_HW_BRANCH_MISSES },
		{ "bus-cycles", "bus-cycles", PERF_COUNT_HW_BUS_CYCLES },
		{ "stalled-cycles-frontend", "stalled-cycles-frontend",
		  PERF_COUNT_HW_STALLED_CYCLES_FRONTEND },
		{ "idle-cycles-frontend", "stalled-cycles-frontend",
		  PERF_COUNT_HW_STALLED_CYCLES_FRONTEND },
		{ "stalled-cycles-backend", "stalled-cycles-backend",
		  PERF_COUNT_HW_STALLED_CYCLES_BACKEND },
		{ "idle-cycles-backend", "stalled-cycles-backend",
		  PERF_COUNT_HW_STALLED_CYCLES_BACKEND },
		{ "ref-cycles", "ref-cycles", PERF_COUNT_HW_REF_CPU_CYCLES },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(hw) / sizeof(hw[0]); i++) {
		assert_int_equal(parse(hw[i].spec), 0);
		assert_int_equal(attr.type, PERF_TYPE_HARDWARE);
		assert_int_equal(attr.config, hw[i].config);
		assert_string_equal(name, hw[i].name);
		assert_int_equal(attr.exclude_user | attr.exclude_kernel | attr.exclude_hv, 0);
		assert_int_equal(attr.sample_period, 0);
	}
}

static void test_software(void **state)
{
	static const struct {
		const char *spec, *name;
		uint64_t config;
	} sw[] = {
		{ "cpu-clock", "cpu-clock", PERF_COUNT_SW_CPU_CLOCK },
		{ "task-clock", "task-clock", PERF_COUNT_SW_TASK_CLOCK },
		{ "page-faults", "page-faults", PERF_COUNT_SW_PAGE_FAULTS },
		{ "faults", "page-faults", PERF_COUNT_SW_PAGE_FAULTS },
		{ "minor-faults", "minor-faults", PERF_COUNT_SW_PAGE_FAULTS_MIN },
		{ "major-faults", "major-faults", PERF_COUNT_SW_PAGE_FAULTS_MAJ },
		{ "context-switches", "context-switches", PERF_COUNT_SW_CONTEXT_SWITCHES },
		{ "cs", "context-switches", PERF_COUNT_SW_CONTEXT_SWITCHES },
		{ "cpu-migrations", "cpu-migrations", PERF_COUNT_SW_CPU_MIGRATIONS },
		{ "migrations", "cpu-migrations", PERF_COUNT_SW_CPU_MIGRATIONS },
		{ "alignment-faults", "alignment-faults", PERF_COUNT_SW_ALIGNMENT_FAULTS },
		{ "emulation-faults", "emulation-faults", PERF_COUNT_SW_EMULATION_FAULTS },
		{ "dummy", "dummy", PERF_COUNT_SW_DUMMY },
		{ "bpf-output", "bpf-output", PERF_COUNT_SW_BPF_OUTPUT },
		{ "cgroup-switches", "cgroup-switches", PERF_COUNT_SW_CGROUP_SWITCHES },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(sw) / sizeof(sw[0]); i++) {
		assert_int_equal(parse(sw[i].spec), 0);
		assert_int_equal(attr.type, PERF_TYPE_SOFTWARE);
		assert_int_equal(attr.config, sw[i].config);
		assert_string_equal(name, sw[i].name);
	}
}

static const char *const caches[][5] = {
	{ "L1-dcache", "l1-d", "l1d", "L1-data" },
	{ "L1-icache", "l1-i", "l1i", "L1-instruction" },
	{ "LLC", "L2" },
	{ "dTLB", "d-tlb", "Data-TLB" },
	{ "iTLB", "i-tlb", "Instruction-TLB" },
	{ "branch", "branches", "bpu", "btb", "bpc" },
	{ "node" },
};
static const char *const cache_ops[][4] = {
	{ "load", "loads", "read" },
	{ "store", "stores", "write" },
	{ "prefetch", "prefetches", "speculative-read", "speculative-load" },
};
static const char *const cache_results[][5] = {
	{ "refs", "Reference", "ops", "access", "accesses" },
	{ "misses", "miss" },
};

static void test_cache_every_combination(void **state)
{
	char spec[128];
	int n = 0;

	(void)state;
	for (int c = 0; c < 7; c++)
		for (int a = 0; a < 5 && caches[c][a]; a++)
			for (int op = 0; op < 3; op++)
				for (int b = 0; b < 4 && cache_ops[op][b]; b++)
					for (int r = 0; r < 2; r++)
						for (int d = 0; d < 5 && cache_results[r][d]; d++) {
							uint64_t want = (uint64_t)c | (uint64_t)op << 8 |
									(uint64_t)r << 16;

							snprintf(spec, sizeof(spec), "%s-%s-%s",
								 caches[c][a], cache_ops[op][b],
								 cache_results[r][d]);
							assert_int_equal(parse(spec), 0);
							assert_int_equal(attr.type, PERF_TYPE_HW_CACHE);
							assert_int_equal(attr.config, want);
							n++;
						}
	print_message("%d cache spellings parsed\n", n);

	/* Canonical names are perf's. */
	assert_int_equal(parse("L1-dcache-load-misses"), 0);
	assert_int_equal(attr.config, 0x10000);
	assert_string_equal(name, "L1-dcache-load-misses");
	assert_int_equal(parse("LLC-loads"), 0);
	assert_int_equal(attr.config, PERF_COUNT_HW_CACHE_LL);
	assert_string_equal(name, "LLC-loads");
	assert_int_equal(parse("l1d-write-miss"), 0);
	assert_string_equal(name, "L1-dcache-store-misses");
	assert_int_equal(parse("dTLB-misses-prefetch"), 0); /* either order, like perf */
	assert_string_equal(name, "dTLB-prefetch-misses");
	assert_int_equal(parse("iTLB"), 0); /* op and result default to load, access */
	assert_string_equal(name, "iTLB-loads");
	assert_int_equal(parse("L1-ICACHE-LOADS"), 0);
	assert_int_equal(attr.config, PERF_COUNT_HW_CACHE_L1I);
	assert_int_equal(parse("L1-icache-stores"), 0); /* the kernel decides, not the parser */
	assert_int_equal(attr.config, 0x101);
	assert_fails("L1-dcache-load-load", -PERFEV_ERR_UNKNOWN_EVENT);
	assert_fails("L1-dcache-load-misses-misses", -PERFEV_ERR_UNKNOWN_EVENT);
	assert_fails("LLC-", -PERFEV_ERR_UNKNOWN_EVENT);
}

static void test_modifiers(void **state)
{
	(void)state;
	assert_int_equal(parse("cycles:u"), 0);
	assert_int_equal(attr.exclude_user, 0);
	assert_int_equal(attr.exclude_kernel, 1);
	assert_int_equal(attr.exclude_hv, 1);
	assert_string_equal(name, "cycles:u");

	assert_int_equal(parse("instructions:k"), 0);
	assert_int_equal(attr.exclude_user, 1);
	assert_int_equal(attr.exclude_kernel, 0);
	assert_int_equal(attr.exclude_hv, 1);

	assert_int_equal(parse("cpu-clock:h"), 0);
	assert_int_equal(attr.exclude_user, 1);
	assert_int_equal(attr.exclude_kernel, 1);
	assert_int_equal(attr.exclude_hv, 0);

	assert_int_equal(parse("cpu-clock:uk"), 0);
	assert_int_equal(attr.exclude_user, 0);
	assert_int_equal(attr.exclude_kernel, 0);
	assert_int_equal(attr.exclude_hv, 1);

	assert_int_equal(parse("cycles:G"), 0);
	assert_int_equal(attr.exclude_guest, 0);
	assert_int_equal(attr.exclude_host, 1);
	assert_int_equal(parse("cycles:H"), 0);
	assert_int_equal(attr.exclude_guest, 1);
	assert_int_equal(attr.exclude_host, 0);
	assert_int_equal(parse("cycles:GH"), 0);
	assert_int_equal(attr.exclude_guest, 0);
	assert_int_equal(attr.exclude_host, 0);

	assert_int_equal(parse("cycles:p"), 0);
	assert_int_equal(attr.precise_ip, 1);
	assert_int_equal(attr.exclude_guest, 1); /* precise excludes the guest, as in perf */
	assert_int_equal(parse("cycles:pp"), 0);
	assert_int_equal(attr.precise_ip, 2);
	assert_int_equal(parse("cycles:ppp"), 0);
	assert_int_equal(attr.precise_ip, 3);
	assert_int_equal(parse("cycles:Gppp"), 0);
	assert_int_equal(attr.exclude_guest, 0);
	assert_fails("cycles:pppp", -PERFEV_ERR_SYNTAX);

	assert_int_equal(parse("task-clock:D"), 0);
	assert_int_equal(attr.pinned, 1);
	assert_int_equal(parse("task-clock:S"), 0);
	assert_true(attr.sample_type & PERF_SAMPLE_READ);
	assert_int_equal(parse("task-clock:I"), 0);
	assert_int_equal(attr.exclude_idle, 1);
	assert_int_equal(parse("task-clock:e"), 0);
	assert_int_equal(attr.exclusive, 1);
	assert_int_equal(parse("task-clock:ukDp"), 0);
	assert_string_equal(name, "task-clock:ukDp");

	assert_fails("cycles:z", -PERFEV_ERR_SYNTAX);
	assert_error_has("'z'");
	assert_fails("cycles:uz", -PERFEV_ERR_SYNTAX);
	assert_error_has("'z'");
	assert_fails("cycles:", -PERFEV_ERR_SYNTAX);
	assert_fails("cycles:u:k", -PERFEV_ERR_SYNTAX);
}

/* The line of path that contains marker, or "" (static storage). */
static const char *doc_line(const char *path, const char *marker)
{
	static char line[1024];
	char full[4096];
	const char *root = getenv("ROOT_DIR");
	FILE *f;

	snprintf(full, sizeof(full), "%s/%s", root ? root : ".", path);
	f = fopen(full, "r");
	if (!f)
		print_message("cannot open %s\n", full);
	assert_non_null(f);
	while (fgets(line, sizeof(line), f))
		if (strstr(line, marker))
			break;
	if (feof(f))
		line[0] = '\0';
	fclose(f);
	return line;
}

/*
 * One table says which modifiers there are: every one the event error lists
 * parses, the group error lists it too, and so do the man page and README.
 */
static void test_modifier_table(void **state)
{
	char listed[512], group_err[512], *save = NULL;
	const char *man = doc_line("docs/libperfev.3", "with modifiers");
	const char *readme = doc_line("README.md", "modifiers `");
	struct perfev_evlist *el = perfev_evlist__new();
	int n = 0;

	(void)state;
	assert_non_null(el);
	assert_int_equal(perfev_evlist__add_events(el, "{task-clock}:z"), -PERFEV_ERR_SYNTAX);
	snprintf(group_err, sizeof(group_err), "%s ", perfev_last_error());
	perfev_evlist__delete(el);
	assert_fails("task-clock:z", -PERFEV_ERR_SYNTAX);
	assert_non_null(strstr(perfev_last_error(), "; modifiers are "));
	snprintf(listed, sizeof(listed), "%s", strstr(perfev_last_error(), "; modifiers are ") + 16);
	/* "u (user), k (kernel), ..., p/pp/ppp (precise), ..." */
	for (char *item = strtok_r(listed, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
		char *save2 = NULL, spec[64], token[16];

		item += strspn(item, " ");
		item[strcspn(item, " ")] = '\0';
		for (char *m = strtok_r(item, "/", &save2); m; m = strtok_r(NULL, "/", &save2)) {
			snprintf(spec, sizeof(spec), "task-clock:%s", m);
			if (parse(spec))
				print_message("'%s': %s\n", spec, perfev_last_error());
			assert_int_equal(parse(spec), 0);
			snprintf(token, sizeof(token), " %s ", m);
			assert_non_null(strstr(group_err, token));
			snprintf(token, sizeof(token), ":%s", m);
			if (!strstr(man, token) || !strstr(readme, token))
				print_message("modifier '%s' is missing from the docs\n", m);
			assert_non_null(strstr(man, token));
			assert_non_null(strstr(readme, token));
			n++;
		}
	}
	assert_true(n >= 12);
}

static void test_raw(void **state)
{
	(void)state;
	assert_int_equal(parse("r01c2"), 0);
	assert_int_equal(attr.type, PERF_TYPE_RAW);
	assert_int_equal(attr.config, 0x1c2);
	assert_string_equal(name, "r01c2");
	assert_int_equal(parse("r0123"), 0); /* hexadecimal even when it looks decimal */
	assert_int_equal(attr.config, 0x123);
	assert_int_equal(parse("rFFFFFFFFFFFFFFFF"), 0);
	assert_int_equal(attr.config, UINT64_MAX);
	assert_int_equal(parse("r0000000000000000001"), 0);
	assert_int_equal(attr.config, 1);
	assert_int_equal(parse("r1a:u"), 0);
	assert_int_equal(attr.config, 0x1a);
	assert_int_equal(attr.exclude_kernel, 1);
	assert_string_equal(name, "r1a:u");
	assert_fails("r10000000000000000", -PERFEV_ERR_SYNTAX);
	assert_fails("r", -PERFEV_ERR_UNKNOWN_EVENT);
	assert_fails("rxyz", -PERFEV_ERR_UNKNOWN_EVENT);
	assert_fails("r12g", -PERFEV_ERR_UNKNOWN_EVENT);
}

static void test_breakpoint(void **state)
{
	(void)state;
	assert_int_equal(parse("mem:0x1234"), 0);
	assert_int_equal(attr.type, PERF_TYPE_BREAKPOINT);
	assert_int_equal(attr.bp_type, HW_BREAKPOINT_RW);
	assert_int_equal(attr.bp_addr, 0x1234);
	assert_int_equal(attr.bp_len, HW_BREAKPOINT_LEN_4);
	assert_int_equal(attr.config, 0);
	assert_string_equal(name, "mem:0x1234:rw");

	assert_int_equal(parse("mem:0x1234:w"), 0);
	assert_int_equal(attr.bp_type, HW_BREAKPOINT_W);
	assert_string_equal(name, "mem:0x1234:w");
	assert_int_equal(parse("mem:4096:r"), 0); /* decimal */
	assert_int_equal(attr.bp_addr, 4096);
	assert_int_equal(attr.bp_type, HW_BREAKPOINT_R);
	assert_int_equal(parse("mem:0x1000:x"), 0);
	assert_int_equal(attr.bp_type, HW_BREAKPOINT_X);
	assert_int_equal(attr.bp_len, sizeof(long));
	assert_int_equal(parse("mem:0x1000/8:w"), 0);
	assert_int_equal(attr.bp_len, 8);
	assert_int_equal(attr.bp_type, HW_BREAKPOINT_W);
	assert_int_equal(parse("mem:0x1000/1"), 0);
	assert_int_equal(attr.bp_len, 1);
	assert_int_equal(attr.bp_type, HW_BREAKPOINT_RW);
	assert_int_equal(parse("mem:0x1000:rwx"), 0);
	assert_int_equal(attr.bp_type, HW_BREAKPOINT_RW | HW_BREAKPOINT_X);
	assert_int_equal(parse("mem:0x1000:wr"), 0);
	assert_int_equal(attr.bp_type, HW_BREAKPOINT_RW);

	/* An access group, then modifiers; or modifiers straight away. */
	assert_int_equal(parse("mem:0x1000:w:u"), 0);
	assert_int_equal(attr.bp_type, HW_BREAKPOINT_W);
	assert_int_equal(attr.exclude_kernel, 1);
	assert_int_equal(attr.exclude_user, 0);
	assert_string_equal(name, "mem:0x1000:w:u");
	assert_int_equal(parse("mem:0x1000:u"), 0);
	assert_int_equal(attr.bp_type, HW_BREAKPOINT_RW);
	assert_int_equal(attr.exclude_kernel, 1);

	assert_fails("mem:", -PERFEV_ERR_SYNTAX);
	assert_fails("mem:0x10/3", -PERFEV_ERR_SYNTAX);
	assert_fails("mem:0x10/", -PERFEV_ERR_SYNTAX);
	assert_fails("mem:0x10/16", -PERFEV_ERR_SYNTAX);
	assert_fails("mem:zz", -PERFEV_ERR_SYNTAX);
	assert_fails("mem:0x", -PERFEV_ERR_SYNTAX);
	assert_fails("mem:0x10000000000000000", -PERFEV_ERR_SYNTAX);
	assert_fails("mem:0x10:rr", -PERFEV_ERR_SYNTAX);
	assert_fails("mem:0x10:", -PERFEV_ERR_SYNTAX);
	assert_fails("mem:0x10:w:", -PERFEV_ERR_SYNTAX);
	assert_fails("mem:0x10:w:q", -PERFEV_ERR_SYNTAX);
	assert_error_has("'q'");
}

/* The tracefs this machine has, or NULL (the test then skips). */
static const char *tracefs_dir(void)
{
	static char dir[4096];

	if (tracefs__find(dir, sizeof(dir)))
		return NULL;
	return dir;
}

static void test_tracepoint(void **state)
{
	const char *dir = tracefs_dir();
	char path[4200];
	uint64_t id;
	FILE *f;

	(void)state;
	if (!dir) {
		print_message("skip: tracefs is not mounted here: %s\n", perfev_last_error());
		skip();
	}
	snprintf(path, sizeof(path), "%s/events/syscalls/sys_enter_getppid/id", dir);
	f = fopen(path, "r");
	if (!f) {
		print_message("skip: %s is missing (no syscall tracepoints)\n", path);
		skip();
	}
	assert_int_equal(fscanf(f, "%" SCNu64, &id), 1);
	fclose(f);

	assert_int_equal(parse("syscalls:sys_enter_getppid"), 0);
	assert_int_equal(attr.type, PERF_TYPE_TRACEPOINT);
	assert_int_equal(attr.config, id);
	assert_int_equal(attr.sample_period, 0);
	assert_int_equal(attr.sample_type, 0);
	assert_string_equal(name, "syscalls:sys_enter_getppid");
	assert_int_equal(parse("syscalls:sys_enter_getppid:u"), 0);
	assert_int_equal(attr.config, id);
	assert_int_equal(attr.exclude_kernel, 1);
	assert_string_equal(name, "syscalls:sys_enter_getppid:u");

	assert_fails("syscalls:sys_enter_getppidd", -PERFEV_ERR_UNKNOWN_EVENT);
	assert_error_has("sys_enter_getppid'");
	assert_fails("syscals:sys_enter_getppid", -PERFEV_ERR_UNKNOWN_EVENT);
	assert_error_has("syscalls:sys_enter_getppid");
	assert_fails("syscalls:sys_enter_getppid:", -PERFEV_ERR_SYNTAX);
	assert_fails("syscalls:sys_enter_getppid:q", -PERFEV_ERR_SYNTAX);
	assert_fails("syscalls:..", -PERFEV_ERR_SYNTAX);
	assert_fails("nosuchsys:nosuchevent", -PERFEV_ERR_UNKNOWN_EVENT);
}

static void test_no_tracefs(void **state)
{
	(void)state;
	tracefs__set_root("/nonexistent/tracefs");
	assert_fails("sched:sched_switch", -PERFEV_ERR_NOTRACEFS);
	assert_error_has("mount -t tracefs nodev /sys/kernel/tracing");
	/* Non-tracepoint specs are unaffected. */
	assert_int_equal(parse("cycles:u"), 0);
	tracefs__set_root(NULL);
}

/* Writes root/rel, making its directories. */
static void put_tree_file(const char *root, const char *rel, const char *text)
{
	char path[512], *slash;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	for (slash = strchr(path + 1, '/'); slash; slash = strchr(slash + 1, '/')) {
		*slash = '\0';
		mkdir(path, 0755);
		*slash = '/';
	}
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static int rm_tree_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

/* Globs over a fake tracefs: which events, in what order, with what modifiers, and no match. */
static void test_tracepoint_glob(void **state)
{
	char root[] = "/tmp/perfev-tracefs-XXXXXX";
	struct perfev_evlist *el;
	struct perfev_evsel *ev;
	const char *want[] = { "sa:ev_a", "sa:ev_b", "sb:ev_a" };
	int i = 0;

	(void)state;
	assert_non_null(mkdtemp(root));
	put_tree_file(root, "events/sa/ev_b/id", "12\n");
	put_tree_file(root, "events/sa/ev_a/id", "11\n");
	put_tree_file(root, "events/sa/enable", "0\n");
	put_tree_file(root, "events/sa/noid/format", "x\n"); /* no id: not an event */
	put_tree_file(root, "events/sb/ev_a/id", "21\n");
	put_tree_file(root, "events/header_page", "x\n");
	tracefs__set_root(root);

	el = perfev_evlist__new();
	assert_int_equal(perfev_evlist__add_events(el, "s*:ev_*"), 0);
	assert_int_equal(perfev_evlist__nr_evsels(el), 3);
	perfev_evlist__for_each_evsel(el, ev) {
		assert_string_equal(perfev_evsel__name(ev), want[i]);
		assert_int_equal(perfev_evsel__attr(ev)->type, PERF_TYPE_TRACEPOINT);
		assert_int_equal(perfev_evsel__leader(ev), ev);
		i++;
	}
	assert_int_equal(perfev_evsel__attr(perfev_evlist__next_evsel(el, NULL))->config, 11);
	perfev_evlist__delete(el);

	/* Modifiers go to each match; in a group the matches are members. */
	el = perfev_evlist__new();
	assert_int_equal(perfev_evlist__add_events(el, "{sb:ev_a,sa:ev_?:u}"), 0);
	assert_int_equal(perfev_evlist__nr_evsels(el), 3);
	ev = perfev_evlist__next_evsel(el, NULL);
	assert_int_equal(perfev_evsel__nr_members(ev), 3);
	ev = perfev_evlist__next_evsel(el, ev);
	assert_string_equal(perfev_evsel__name(ev), "sa:ev_a:u");
	assert_int_equal(perfev_evsel__attr(ev)->exclude_kernel, 1);
	assert_int_equal(perfev_evsel__leader(ev), perfev_evlist__next_evsel(el, NULL));
	perfev_evlist__delete(el);

	/* Nothing matches: a clear error, and the list is left as it was. */
	el = perfev_evlist__new();
	assert_int_equal(perfev_evlist__add_events(el, "sa:ev_a"), 0);
	assert_int_equal(perfev_evlist__add_events(el, "sa:ev_b,zz*:*"), -PERFEV_ERR_UNKNOWN_EVENT);
	assert_error_has("no tracepoint matches 'zz*:*'");
	assert_error_has("offset 8 of the list");
	assert_int_equal(perfev_evlist__nr_evsels(el), 1);
	assert_int_equal(perfev_evlist__add_events(el, "sa:nomatch*"), -PERFEV_ERR_UNKNOWN_EVENT);
	/* A bad modifier after a glob is the modifier's error. */
	assert_int_equal(perfev_evlist__add_events(el, "sa:*:q"), -PERFEV_ERR_SYNTAX);
	assert_int_equal(perfev_evlist__nr_evsels(el), 1);
	perfev_evlist__delete(el);

	tracefs__set_root(NULL);
	assert_int_equal(nftw(root, rm_tree_entry, 16, FTW_DEPTH | FTW_PHYS), 0);
}

static bool have_pmu(const char *pmu)
{
	char path[256];

	snprintf(path, sizeof(path), "/sys/bus/event_source/devices/%s/type", pmu);
	return !access(path, R_OK);
}

static void test_msr_tsc(void **state)
{
	uint64_t type;

	(void)state;
	if (!have_pmu("msr") || access("/sys/bus/event_source/devices/msr/events/tsc", R_OK)) {
		print_message("skip: no msr PMU with a tsc event here\n");
		skip();
	}
	assert_int_equal(read_u64_file("/sys/bus/event_source/devices/msr/type", &type), 0);
	assert_int_equal(parse("msr/tsc/"), 0);
	assert_int_equal(attr.type, type);
	assert_int_equal(attr.config, 0);
	assert_string_equal(name, "msr/tsc/");
	assert_int_equal(parse("msr/tsc/u"), 0);
	assert_int_equal(attr.exclude_kernel, 1);
	assert_string_equal(name, "msr/tsc/u");
	assert_int_equal(parse("msr/tsc/:k"), 0);
	assert_int_equal(attr.exclude_user, 1);
	assert_string_equal(name, "msr/tsc/k");
	assert_int_equal(parse("msr/TSC/"), 0); /* aliases match case-insensitively */
	assert_int_equal(attr.type, type);
	assert_int_equal(parse("tsc"), 0); /* an alias only one PMU has */
	assert_int_equal(attr.type, type);
	assert_string_equal(name, "msr/tsc/");
	assert_int_equal(parse("msr/event=0x1,name=mine/"), 0);
	assert_int_equal(attr.config, 1);
	assert_string_equal(name, "mine");

	assert_fails("msr/nope=1/", -PERFEV_ERR_UNKNOWN_EVENT);
	assert_error_has("'nope'");
	assert_error_has("event"); /* the valid terms */
	assert_fails("nope/tsc/", -PERFEV_ERR_UNKNOWN_PMU);
	assert_error_has("msr");
	assert_fails("msr/tsc", -PERFEV_ERR_SYNTAX);
	assert_fails("msr/tsc/x/", -PERFEV_ERR_SYNTAX);
	assert_fails("msr/tsc=1/", -PERFEV_ERR_SYNTAX);
	/* cpu/ needs a cpu PMU, which VMs lack: then it is unknown, not a crash. */
	if (!have_pmu("cpu"))
		assert_fails("cpu/cycles/", -PERFEV_ERR_UNKNOWN_PMU);
}

/* A fake sysfs tree in a temporary directory. */
static char fake_root[64];

static void put_file(const char *rel, const char *text)
{
	char path[512], *slash;
	FILE *f;

	snprintf(path, sizeof(path), "%s/bus/event_source/devices/%s", fake_root, rel);
	/* mkdir -p of the parent */
	for (slash = strchr(path + 1, '/'); slash; slash = strchr(slash + 1, '/')) {
		*slash = '\0';
		mkdir(path, 0755);
		*slash = '/';
	}
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static int fake_setup(void **state)
{
	char big[400];

	(void)state;
	strcpy(fake_root, "/tmp/perfev-sysfs-XXXXXX");
	if (!mkdtemp(fake_root))
		return -1;
	put_file("fake/type", "42\n");
	put_file("fake/format/event", "config:0-7\n");
	put_file("fake/format/umask", "config:8-15\n");
	put_file("fake/format/split", "config1:0-3,8-11\n");
	put_file("fake/format/top", "config:63\n");
	put_file("fake/format/wide", "config2:0-63");
	put_file("fake/format/c3", "config3:0-3\n");
	put_file("fake/events/hits", "event=0x3c,umask=0x01\n");
	put_file("fake/events/hits.scale", "1e-9\n");
	put_file("fake/events/hits.desc", "Cache hits\n");
	put_file("fake/events/askme", "event=0x12,umask=?\n");
	put_file("fake/events/dup", "event=1\n");
	put_file("fake/events/badterm", "nosuch=1\n");
	put_file("fake/events/badval", "event=zz\n");
	put_file("fake/events/empty", "\n");

	put_file("broken/type", "43\n");
	put_file("broken/format/backwards", "config:9-3\n");
	put_file("broken/format/toohigh", "config:0-64\n");
	put_file("broken/format/word", "foo:1\n");
	put_file("broken/format/empty", "");
	put_file("broken/format/nobits", "config:\n");
	put_file("broken/format/junk", "config:1-2x\n");
	put_file("broken/format/comma", "config:1,\n");
	memset(big, '1', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	memcpy(big, "config:", 7);
	put_file("broken/format/long", big);

	put_file("badtype/type", "forty-two\n");
	put_file("bigtype/type", "0x100000000\n");

	/* A core PMU: generic names become hardware events, hybrid ones with an extended type. */
	put_file("cpu/type", "4\n");
	put_file("cpu/format/event", "config:0-7\n");
	put_file("cpu/events/dup", "event=2\n");
	put_file("cpu_core/type", "8\n");
	put_file("cpu_core/format/event", "config:0-7\n");
	pmu__set_sysfs_root(fake_root);
	return 0;
}

static int rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

static int fake_teardown(void **state)
{
	(void)state;
	pmu__set_sysfs_root(NULL);
	return nftw(fake_root, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

static void test_pmu_format_terms(void **state)
{
	(void)state;
	assert_int_equal(parse("fake/event=0x3c,umask=1/"), 0);
	assert_int_equal(attr.type, 42);
	assert_int_equal(attr.config, 0x13c);
	assert_string_equal(name, "fake/event=0x3c,umask=1/");
	/* Bits scatter in order: the value's low nibble to 0-3, the next to 8-11. */
	assert_int_equal(parse("fake/split=0x5a/"), 0);
	assert_int_equal(attr.config1, 0x50a);
	assert_int_equal(attr.config, 0);
	assert_int_equal(parse("fake/split=0xff/"), 0);
	assert_int_equal(attr.config1, 0xf0f);
	assert_int_equal(parse("fake/top/"), 0); /* a bare term means 1 */
	assert_int_equal(attr.config, 1ULL << 63);
	assert_int_equal(parse("fake/wide=0xffffffffffffffff/"), 0);
	assert_int_equal(attr.config2, UINT64_MAX);
	assert_int_equal(parse("fake/event=255/"), 0);
	assert_int_equal(attr.config, 255);
	/* A later term overrides an earlier one's bits. */
	assert_int_equal(parse("fake/event=0xff,event=0x01/"), 0);
	assert_int_equal(attr.config, 1);

	assert_fails("fake/event=0x100/", -ERANGE);
	assert_error_has("8 bits");
	assert_fails("fake/top=2/", -ERANGE);
	assert_fails("fake/split=0x100/", -ERANGE);

#ifdef PERF_ATTR_SIZE_VER8
	assert_int_equal(parse("fake/c3=5/"), 0);
	assert_int_equal(attr.config3, 5);
#else
	assert_fails("fake/c3=5/", -EOPNOTSUPP);
	assert_error_has("config3");
#endif

	/* perf's built-in terms. */
	assert_int_equal(parse("fake/config=0x1234,config1=5,config2=6,period=1000,name=mine/"),
			 0);
	assert_int_equal(attr.config, 0x1234);
	assert_int_equal(attr.config1, 5);
	assert_int_equal(attr.config2, 6);
	assert_int_equal(attr.sample_period, 1000);
	assert_int_equal(attr.freq, 0);
	assert_string_equal(name, "mine");
	assert_int_equal(parse("fake/freq=99,time=1/"), 0);
	assert_int_equal(attr.freq, 1);
	assert_int_equal(attr.sample_freq, 99);
	assert_true(attr.sample_type & PERF_SAMPLE_TIME);
	assert_int_equal(parse("fake//"), 0);
	assert_int_equal(attr.type, 42);
	assert_int_equal(parse("fake/event=1/uk"), 0);
	assert_int_equal(attr.exclude_hv, 1);
	assert_int_equal(attr.exclude_kernel, 0);
	assert_string_equal(name, "fake/event=1/uk");

	assert_fails("fake/nope=1/", -PERFEV_ERR_UNKNOWN_EVENT);
	assert_error_has("'nope'");
	assert_error_has("umask");
	assert_error_has("hits");
	assert_fails("fake/evnt=1/", -PERFEV_ERR_UNKNOWN_EVENT);
	assert_error_has("did you mean 'event'");
	assert_fails("fake/event=xyz/", -PERFEV_ERR_SYNTAX);
	assert_fails("fake/event=/", -PERFEV_ERR_SYNTAX);
	assert_fails("fake/event=0x1g/", -PERFEV_ERR_SYNTAX);
	assert_fails("fake/event=99999999999999999999/", -PERFEV_ERR_SYNTAX);
	assert_fails("fake/event,,umask/", -PERFEV_ERR_SYNTAX);
	assert_fails("fake/,event/", -PERFEV_ERR_SYNTAX);
	assert_fails("fake/event,/", -PERFEV_ERR_SYNTAX);
	assert_fails("fake/ev?nt=1/", -PERFEV_ERR_SYNTAX);
	assert_fails("fake/../", -PERFEV_ERR_SYNTAX);
	assert_fails("fake/config/", -PERFEV_ERR_SYNTAX);
	assert_fails("fake/name=/", -PERFEV_ERR_SYNTAX);
	assert_fails("fake/call-graph=fp/", -EOPNOTSUPP);
	assert_fails("../fake/event=1/", -PERFEV_ERR_SYNTAX);
	assert_fails("fake/event=1/z", -PERFEV_ERR_SYNTAX);
}

static void test_pmu_aliases(void **state)
{
	(void)state;
	assert_int_equal(parse("fake/hits/"), 0);
	assert_int_equal(attr.config, 0x13c);
	assert_int_equal(parse("fake/HITS/"), 0);
	assert_int_equal(attr.config, 0x13c);
	assert_int_equal(parse("fake/hits,umask=2/"), 0); /* the user's term wins */
	assert_int_equal(attr.config, 0x23c);
	assert_int_equal(parse("fake/askme,umask=3/"), 0); /* '?' left for the user */
	assert_int_equal(attr.config, 0x312);
	assert_int_equal(parse("hits"), 0); /* unique across PMUs */
	assert_int_equal(attr.type, 42);
	assert_string_equal(name, "fake/hits/");
	assert_int_equal(parse("hits:u"), 0);
	assert_string_equal(name, "fake/hits/u");

	assert_fails("dup", -PERFEV_ERR_SYNTAX); /* in cpu and fake: say which */
	assert_error_has("cpu");
	assert_error_has("fake");
	assert_fails("fake/hits=1/", -PERFEV_ERR_SYNTAX);
	assert_fails("fake/hits.scale/", -PERFEV_ERR_SYNTAX);
	assert_fails("fake/badterm/", -PERFEV_ERR_FORMAT);
	assert_error_has("nosuch");
	assert_fails("fake/badval/", -PERFEV_ERR_FORMAT);
	assert_fails("fake/empty/", -PERFEV_ERR_FORMAT);
}

static void test_pmu_malformed_sysfs(void **state)
{
	(void)state;
	assert_fails("broken/backwards=1/", -PERFEV_ERR_FORMAT);
	assert_error_has("config:9-3");
	assert_fails("broken/toohigh=1/", -PERFEV_ERR_FORMAT);
	assert_error_has("0-64");
	assert_fails("broken/word=1/", -PERFEV_ERR_FORMAT);
	assert_error_has("foo:1");
	assert_fails("broken/empty=1/", -PERFEV_ERR_FORMAT);
	assert_fails("broken/nobits=1/", -PERFEV_ERR_FORMAT);
	assert_fails("broken/junk=1/", -PERFEV_ERR_FORMAT);
	assert_fails("broken/comma=1/", -PERFEV_ERR_FORMAT);
	assert_fails("broken/long=1/", -PERFEV_ERR_FORMAT);
	assert_fails("badtype/x/", -PERFEV_ERR_FORMAT);
	assert_fails("bigtype/x/", -PERFEV_ERR_FORMAT);
	assert_fails("nosuch/event=1/", -PERFEV_ERR_UNKNOWN_PMU);
	assert_error_has("fake");
	assert_fails("fakee/event=1/", -PERFEV_ERR_UNKNOWN_PMU);
	assert_error_has("did you mean 'fake'");
}

static void test_pmu_core_generic_names(void **state)
{
	(void)state;
	assert_int_equal(parse("cpu/event=0x3c/"), 0);
	assert_int_equal(attr.type, 4);
	assert_int_equal(attr.config, 0x3c);
	assert_int_equal(parse("cpu/cycles/"), 0);
	assert_int_equal(attr.type, PERF_TYPE_HARDWARE);
	assert_int_equal(attr.config, PERF_COUNT_HW_CPU_CYCLES);
	assert_int_equal(parse("cpu/L1-dcache-load-misses/u"), 0);
	assert_int_equal(attr.type, PERF_TYPE_HW_CACHE);
	assert_int_equal(attr.config, 0x10000);
	assert_int_equal(attr.exclude_kernel, 1);
	assert_int_equal(parse("cpu_core/instructions/"), 0);
	assert_int_equal(attr.type, PERF_TYPE_HARDWARE);
	assert_int_equal(attr.config, PERF_COUNT_HW_INSTRUCTIONS | 8ULL << PERF_PMU_TYPE_SHIFT);
	/* Only core PMUs take generic names. */
	assert_fails("fake/cycles/", -PERFEV_ERR_UNKNOWN_EVENT);
}

static struct perfev_evsel *nth(struct perfev_evlist *el, int n)
{
	struct perfev_evsel *ev;
	int i = 0;

	perfev_evlist__for_each_evsel(el, ev)
		if (i++ == n)
			return ev;
	return NULL;
}

static void test_groups(void **state)
{
	struct perfev_evlist *el = perfev_evlist__new();
	struct perfev_evsel *a, *b, *c, *d;

	(void)state;
	assert_non_null(el);
	assert_int_equal(perfev_evlist__add_events(el, "cpu-clock,{page-faults,context-switches}:S"),
			 0);
	assert_int_equal(perfev_evlist__nr_evsels(el), 3);
	a = nth(el, 0);
	b = nth(el, 1);
	c = nth(el, 2);
	assert_ptr_equal(perfev_evsel__leader(a), a);
	assert_ptr_equal(perfev_evsel__leader(b), b);
	assert_ptr_equal(perfev_evsel__leader(c), b);
	assert_int_equal(perfev_evsel__nr_members(b), 2);
	assert_false(perfev_evsel__sample_read(a));
	assert_true(perfev_evsel__sample_read(b));
	assert_false(perfev_evsel__sample_read(c));
	assert_string_equal(perfev_evsel__name(a), "cpu-clock");
	assert_string_equal(perfev_evsel__name(b), "page-faults:S");
	assert_string_equal(perfev_evsel__name(c), "context-switches");

	/* Group modifiers reach every member and stack on their own, as in perf. */
	assert_int_equal(perfev_evlist__add_events(el, "{task-clock:k,page-faults}:u"), 0);
	d = nth(el, 3);
	assert_int_equal(perfev_evsel__attr(d)->exclude_kernel, 0);
	assert_int_equal(perfev_evsel__attr(d)->exclude_user, 0);
	assert_int_equal(perfev_evsel__attr(d)->exclude_hv, 1);
	assert_string_equal(perfev_evsel__name(d), "task-clock:ku");
	d = nth(el, 4);
	assert_int_equal(perfev_evsel__attr(d)->exclude_kernel, 1);
	assert_int_equal(perfev_evsel__attr(d)->exclude_user, 0);
	assert_ptr_equal(perfev_evsel__leader(d), nth(el, 3));
	assert_string_equal(perfev_evsel__name(d), "page-faults:u");

	/* ":S" on a lone event, and on a member (its leader then samples the group). */
	assert_int_equal(perfev_evlist__add_events(el, "task-clock:S , {cpu-clock,faults:S}"), 0);
	assert_int_equal(perfev_evlist__nr_evsels(el), 8);
	assert_true(perfev_evsel__sample_read(nth(el, 5)));
	assert_true(perfev_evsel__sample_read(nth(el, 6)));
	assert_false(perfev_evsel__sample_read(nth(el, 7)));
	assert_int_equal(perfev_evsel__attr(nth(el, 5))->sample_type & PERF_SAMPLE_READ, 0);
	perfev_evlist__delete(el);
}

static void test_group_pmu_commas(void **state)
{
	struct perfev_evlist *el = perfev_evlist__new();

	(void)state;
	assert_non_null(el);
	/* Commas inside PMU terms do not split events. */
	assert_int_equal(perfev_evlist__add_events(
				 el, "{fake/event=0x3c,umask=1,name=x/,cpu-clock},fake/split=1,top/u"),
			 0);
	assert_int_equal(perfev_evlist__nr_evsels(el), 3);
	assert_string_equal(perfev_evsel__name(nth(el, 0)), "x");
	assert_int_equal(perfev_evsel__attr(nth(el, 0))->config, 0x13c);
	assert_string_equal(perfev_evsel__name(nth(el, 1)), "cpu-clock");
	assert_ptr_equal(perfev_evsel__leader(nth(el, 1)), nth(el, 0));
	assert_string_equal(perfev_evsel__name(nth(el, 2)), "fake/split=1,top/u");
	assert_int_equal(perfev_evsel__attr(nth(el, 2))->config1, 1);
	assert_int_equal(perfev_evsel__attr(nth(el, 2))->exclude_kernel, 1);
	assert_int_equal(perfev_evlist__add_events(el, "fake/event=1,{,}/"), -PERFEV_ERR_SYNTAX);
	assert_int_equal(perfev_evlist__add_events(el, "fake/event=1,cpu-clock"),
			 -PERFEV_ERR_SYNTAX);
	assert_non_null(strstr(perfev_last_error(), "offset 4"));
	assert_int_equal(perfev_evlist__nr_evsels(el), 3);
	perfev_evlist__delete(el);
}

static void test_malformed_lists(void **state)
{
	static const struct {
		const char *spec;
		int err;
		const char *has;
	} bad[] = {
		{ "{cpu-clock", -PERFEV_ERR_SYNTAX, "offset 0" },
		{ "cpu-clock}", -PERFEV_ERR_SYNTAX, "offset 9" },
		{ "{{cpu-clock}}", -PERFEV_ERR_SYNTAX, "offset 1" },
		{ "{cpu-clock,{faults}}", -PERFEV_ERR_SYNTAX, "offset 11" },
		{ ",", -PERFEV_ERR_SYNTAX, "offset 0" },
		{ "", -PERFEV_ERR_SYNTAX, "empty" },
		{ "   ", -PERFEV_ERR_SYNTAX, "empty" },
		{ "cpu-clock,", -PERFEV_ERR_SYNTAX, "offset 10" },
		{ "cpu-clock,,faults", -PERFEV_ERR_SYNTAX, "offset 10" },
		{ "{}", -PERFEV_ERR_SYNTAX, "offset 1" },
		{ "{cpu-clock,}", -PERFEV_ERR_SYNTAX, "offset 11" },
		{ "{cpu-clock}:", -PERFEV_ERR_SYNTAX, "offset 12" },
		{ "{cpu-clock}:z", -PERFEV_ERR_SYNTAX, "'z'" },
		{ "{cpu-clock}x", -PERFEV_ERR_SYNTAX, "offset 11" },
		{ "}", -PERFEV_ERR_SYNTAX, "offset 0" },
		{ "cycles:z", -PERFEV_ERR_SYNTAX, "'z'" },
		{ "mem:", -PERFEV_ERR_SYNTAX, "address" },
		{ "mem:0x10/3", -PERFEV_ERR_SYNTAX, "length" },
		{ "r", -PERFEV_ERR_UNKNOWN_EVENT, "'r'" },
		{ "rxyz", -PERFEV_ERR_UNKNOWN_EVENT, "'rxyz'" },
		{ "fake/nope=1/", -PERFEV_ERR_UNKNOWN_EVENT, "nope" },
		{ "nope/tsc/", -PERFEV_ERR_UNKNOWN_PMU, "nope" },
		{ "cpu-clock,cyc\x01les", -PERFEV_ERR_SYNTAX, "0x01" },
		{ "cycles\n", -PERFEV_ERR_SYNTAX, "0x0a" },
		{ "cyc\xffles", -PERFEV_ERR_SYNTAX, "0xff" },
		{ "cpu-clock,nosuchevent", -PERFEV_ERR_UNKNOWN_EVENT, "offset 10" },
		{ "cpu-clock,a/b", -PERFEV_ERR_SYNTAX, "offset 11" },
	};
	struct perfev_evlist *el = perfev_evlist__new();

	(void)state;
	assert_non_null(el);
	/* Whatever was in the list before a failure stays, and only that. */
	assert_int_equal(perfev_evlist__add_events(el, "task-clock"), 0);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int ret = perfev_evlist__add_events(el, bad[i].spec);

		if (ret != bad[i].err || !strstr(perfev_last_error(), bad[i].has))
			print_message("'%s': got %d '%s', want %d with '%s'\n", bad[i].spec, ret,
				      perfev_last_error(), bad[i].err, bad[i].has);
		assert_int_equal(ret, bad[i].err);
		assert_non_null(strstr(perfev_last_error(), bad[i].has));
		assert_int_equal(perfev_evlist__nr_evsels(el), 1);
	}
	/* A valid prefix before the error is undone too. */
	assert_int_equal(perfev_evlist__add_events(el, "cpu-clock,{faults,cs},cylces"),
			 -PERFEV_ERR_UNKNOWN_EVENT);
	assert_int_equal(perfev_evlist__nr_evsels(el), 1);
	assert_int_equal(perfev_evlist__add_events(NULL, "cycles"), -EINVAL);
	assert_int_equal(perfev_evlist__add_events(el, NULL), -EINVAL);
	perfev_evlist__delete(el);
}

static void test_malformed_single(void **state)
{
	(void)state;
	assert_fails("", -PERFEV_ERR_SYNTAX);
	assert_fails("cycles,instructions", -PERFEV_ERR_SYNTAX);
	assert_fails("{cycles}", -PERFEV_ERR_SYNTAX);
	assert_fails("cyc\x01les", -PERFEV_ERR_SYNTAX);
	assert_fails("cycles ", -PERFEV_ERR_UNKNOWN_EVENT);
	assert_fails("/", -PERFEV_ERR_SYNTAX);
	assert_fails("a::b", -PERFEV_ERR_UNKNOWN_EVENT);
	assert_fails(":u", -PERFEV_ERR_UNKNOWN_EVENT);
	assert_fails("::", -PERFEV_ERR_UNKNOWN_EVENT);
	assert_int_equal(perfev_parse_event(NULL, &attr, NULL, 0), -EINVAL);
	assert_int_equal(perfev_parse_event("cycles", NULL, NULL, 0), -EINVAL);
	/* No name wanted, or a short buffer (truncated, still terminated). */
	assert_int_equal(perfev_parse_event("cycles", &attr, NULL, 0), 0);
	char tiny[4];
	assert_int_equal(perfev_parse_event("instructions", &attr, tiny, sizeof(tiny)), 0);
	assert_string_equal(tiny, "ins");
}

static void test_long_specs(void **state)
{
	size_t n = 4 << 20;
	char *s = malloc(n + 1);
	struct perfev_evlist *el = perfev_evlist__new();

	(void)state;
	assert_non_null(s);
	assert_non_null(el);
	memset(s, 'a', n);
	s[n] = '\0';
	assert_fails(s, -PERFEV_ERR_SYNTAX); /* one huge event */
	assert_int_equal(perfev_evlist__add_events(el, s), -PERFEV_ERR_SYNTAX); /* huge list */
	s[2000] = '\0';
	assert_int_equal(perfev_evlist__add_events(el, s), -PERFEV_ERR_SYNTAX);
	assert_non_null(strstr(perfev_last_error(), "longer"));
	s[1000] = '\0';
	memset(s, '{', 1000);
	assert_int_equal(perfev_evlist__add_events(el, s), -PERFEV_ERR_SYNTAX);
	memset(s, ':', 1000);
	assert_int_equal(perfev_evlist__add_events(el, s), -PERFEV_ERR_UNKNOWN_EVENT);
	memset(s, '/', 1000);
	assert_int_equal(perfev_evlist__add_events(el, s), -PERFEV_ERR_SYNTAX);
	/* Many events are fine. */
	s[0] = '\0';
	for (int i = 0; i < 500; i++)
		strcat(s, i ? ",cs" : "cs");
	assert_int_equal(perfev_evlist__add_events(el, s), 0);
	assert_int_equal(perfev_evlist__nr_evsels(el), 500);
	/* A long modifier run and a long PMU term list. */
	strcpy(s, "cycles:");
	memset(s + 7, 'u', 1000);
	s[1007] = '\0';
	assert_int_equal(parse(s), 0);
	assert_int_equal(attr.exclude_kernel, 1);
	strcpy(s, "fake/");
	for (int i = 0; i < 100; i++)
		strcat(s, "event=1,");
	strcat(s, "umask=2/");
	assert_int_equal(parse(s), 0);
	assert_int_equal(attr.config, 0x201);
	free(s);
	perfev_evlist__delete(el);
}

static void test_suggestions(void **state)
{
	(void)state;
	assert_fails("cylces", -PERFEV_ERR_UNKNOWN_EVENT);
	assert_error_has("unknown event 'cylces'; did you mean 'cycles'?");
	assert_error_has("perfev list");
	assert_fails("cpu-clok", -PERFEV_ERR_UNKNOWN_EVENT);
	assert_error_has("'cpu-clock'");
	assert_fails("cycels", -PERFEV_ERR_UNKNOWN_EVENT);
	assert_error_has("'cycles'");
	assert_fails("L1-dcache-lod-misses", -PERFEV_ERR_UNKNOWN_EVENT);
	assert_error_has("L1-dcache-load-misses");
	assert_fails("cylces:u", -PERFEV_ERR_UNKNOWN_EVENT);
	assert_error_has("'cycles'");
	assert_fails("hitz", -PERFEV_ERR_UNKNOWN_EVENT);
	assert_error_has("fake/hits/");
	assert_fails("qqqqqqqqqqqq", -PERFEV_ERR_UNKNOWN_EVENT);
	assert_null(strstr(perfev_last_error(), "did you mean"));
	if (!tracefs_dir()) {
		print_message("skip: no tracefs, so no tracepoint suggestions\n");
		return;
	}
	if (parse("sched:sched_switch")) {
		print_message("skip: no sched:sched_switch tracepoint here\n");
		return;
	}
	assert_fails("sched:sched_swich", -PERFEV_ERR_UNKNOWN_EVENT);
	assert_error_has("sched_switch");
	assert_fails("shced:sched_switch", -PERFEV_ERR_UNKNOWN_EVENT);
	assert_error_has("sched:sched_switch");
}

struct collected {
	int n, by_kind[8];
	bool cpu_clock, msr_tsc, tracepoint, bp, raw, sorted, cycles, clock_only;
	enum perfev_event_kind last_kind;
	char last_name[512];
	int stop_after;
};

static int collect(const struct perfev_event_info *info, void *ctx)
{
	struct collected *c = ctx;

	assert_non_null(info->name);
	assert_non_null(info->desc);
	assert_null(strchr(info->desc, '\n'));
	if (c->n && (info->kind < c->last_kind ||
		     (info->kind == c->last_kind && strcmp(info->name, c->last_name) <= 0)))
		c->sorted = false;
	c->last_kind = info->kind;
	snprintf(c->last_name, sizeof(c->last_name), "%s", info->name);
	c->n++;
	for (int i = 0; i < 8; i++)
		if ((unsigned int)info->kind == 1u << i)
			c->by_kind[i]++;
	if (!strcmp(info->name, "cpu-clock")) {
		c->cpu_clock = true;
		assert_int_equal(info->kind, PERFEV_KIND_SOFTWARE);
		assert_string_equal(info->desc, "CPU clock timer, a high-resolution per-CPU timer");
	}
	if (!strcmp(info->name, "cycles"))
		c->cycles = true;
	if (!strcmp(info->name, "msr/tsc/")) {
		c->msr_tsc = true;
		assert_int_equal(info->kind, PERFEV_KIND_PMU);
		assert_string_equal(info->pmu, "msr");
	}
	if (!strcmp(info->name, "syscalls:sys_enter_getppid")) {
		c->tracepoint = true;
		assert_int_equal(info->kind, PERFEV_KIND_TRACEPOINT);
	}
	if (info->kind == PERFEV_KIND_BREAKPOINT)
		c->bp = true;
	if (info->kind == PERFEV_KIND_RAW)
		c->raw = true;
	if (!strcasestr(info->name, "clock"))
		c->clock_only = false;
	/* Every catalogued event parses, except the syntax entries. */
	if (info->kind != PERFEV_KIND_BREAKPOINT && info->kind != PERFEV_KIND_RAW &&
	    info->kind != PERFEV_KIND_TRACEPOINT) {
		struct perf_event_attr a;

		if (perfev_parse_event(info->name, &a, NULL, 0))
			print_message("'%s' listed but does not parse: %s\n", info->name,
				      perfev_last_error());
		assert_int_equal(perfev_parse_event(info->name, &a, NULL, 0), 0);
	}
	return c->stop_after && c->n == c->stop_after ? 77 : 0;
}

static void test_list_events(void **state)
{
	struct collected c = { .sorted = true };

	(void)state;
	pmu__set_sysfs_root(NULL);
	assert_int_equal(perfev_list_events(NULL, collect, &c), 0);
	print_message("%d events listed (%d tracepoints)\n", c.n, c.by_kind[3]);
	assert_true(c.sorted);
	assert_true(c.cpu_clock);
	assert_true(c.cycles);
	assert_true(c.bp);
	assert_true(c.raw);
	assert_int_equal(c.by_kind[0], 10); /* hardware */
	assert_int_equal(c.by_kind[1], 12); /* software */
	assert_int_equal(c.by_kind[2], 32); /* the cache combinations perf lists */
	if (have_pmu("msr"))
		assert_true(c.msr_tsc);
	if (tracefs_dir() && !parse("syscalls:sys_enter_getppid"))
		assert_true(c.tracepoint);

	/* Filters: substring (case-insensitive), glob, kinds. */
	struct perfev_list_opts o = { .sz = sizeof(o), .filter = "CLOCK" };
	c = (struct collected){ .sorted = true, .clock_only = true };
	assert_int_equal(perfev_list_events(&o, collect, &c), 0);
	assert_true(c.clock_only);
	assert_true(c.cpu_clock);
	assert_true(c.n >= 2);

	o.filter = "*-clock";
	c = (struct collected){ .sorted = true, .clock_only = true };
	assert_int_equal(perfev_list_events(&o, collect, &c), 0);
	assert_int_equal(c.n, 2); /* cpu-clock, task-clock */

	o.filter = NULL;
	o.kinds = PERFEV_KIND_SOFTWARE | PERFEV_KIND_RAW;
	c = (struct collected){ .sorted = true };
	assert_int_equal(perfev_list_events(&o, collect, &c), 0);
	assert_int_equal(c.n, 13);

	/* The callback stops the walk with its value. */
	o.kinds = 0;
	c = (struct collected){ .sorted = true, .stop_after = 3 };
	assert_int_equal(perfev_list_events(&o, collect, &c), 77);
	assert_int_equal(c.n, 3);

	/* A bigger struct from a newer caller: fine when the extra bytes are zero. */
	struct {
		struct perfev_list_opts o;
		uint64_t future;
	} big = { .o = { .sz = sizeof(big), .kinds = PERFEV_KIND_RAW } };
	c = (struct collected){ .sorted = true };
	assert_int_equal(perfev_list_events(&big.o, collect, &c), 0);
	big.future = 1;
	assert_int_equal(perfev_list_events(&big.o, collect, &c), -EINVAL);
	assert_non_null(strstr(perfev_last_error(), "sizeof(struct perfev_list_opts)"));
	assert_int_equal(perfev_list_events(&o, NULL, NULL), -EINVAL);
}

struct openable {
	int n;
	char names[128][64];
};

static int collect_names(const struct perfev_event_info *info, void *ctx)
{
	struct openable *o = ctx;

	if (o->n < 128)
		snprintf(o->names[o->n++], 64, "%s", info->name);
	return 0;
}

static void test_list_only_openable(void **state)
{
	struct perfev_list_opts o = { .sz = sizeof(o),
				      .kinds = PERFEV_KIND_HARDWARE | PERFEV_KIND_SOFTWARE |
					       PERFEV_KIND_CACHE,
				      .only_openable = true };
	struct openable all = { 0 }, kept = { 0 };

	(void)state;
	o.only_openable = false;
	assert_int_equal(perfev_list_events(&o, collect_names, &all), 0);
	o.only_openable = true;
	assert_int_equal(perfev_list_events(&o, collect_names, &kept), 0);
	print_message("%d of %d hardware/software/cache events open here\n", kept.n, all.n);
	/* Each event is kept exactly when it opens: whatever this machine has. */
	for (int i = 0; i < all.n; i++) {
		struct perf_event_attr a;
		bool listed = false;
		int fd;

		for (int j = 0; j < kept.n; j++)
			listed |= !strcmp(kept.names[j], all.names[i]);
		assert_int_equal(perfev_parse_event(all.names[i], &a, NULL, 0), 0);
		a.disabled = 1;
		fd = perfev_event_open(&a, 0, -1, -1, 0);
		if (fd == -EACCES || fd == -EPERM) {
			a.exclude_kernel = a.exclude_hv = 1;
			fd = perfev_event_open(&a, 0, -1, -1, 0);
		}
		if (fd >= 0)
			close(fd);
		if (listed != (fd >= 0))
			print_message("'%s': listed %d, open gave %d\n", all.names[i], listed, fd);
		assert_int_equal(listed, fd >= 0);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hardware),
		cmocka_unit_test(test_software),
		cmocka_unit_test(test_cache_every_combination),
		cmocka_unit_test(test_modifiers),
		cmocka_unit_test(test_modifier_table),
		cmocka_unit_test(test_raw),
		cmocka_unit_test(test_breakpoint),
		cmocka_unit_test(test_tracepoint),
		cmocka_unit_test(test_no_tracefs),
		cmocka_unit_test(test_tracepoint_glob),
		cmocka_unit_test(test_msr_tsc),
		cmocka_unit_test(test_malformed_single),
		cmocka_unit_test(test_list_events),
		cmocka_unit_test(test_list_only_openable),
	};
	const struct CMUnitTest fake_tests[] = {
		cmocka_unit_test(test_pmu_format_terms),
		cmocka_unit_test(test_pmu_aliases),
		cmocka_unit_test(test_pmu_malformed_sysfs),
		cmocka_unit_test(test_pmu_core_generic_names),
		cmocka_unit_test(test_groups),
		cmocka_unit_test(test_group_pmu_commas),
		cmocka_unit_test(test_malformed_lists),
		cmocka_unit_test(test_long_specs),
		cmocka_unit_test(test_suggestions),
	};
	int failed = cmocka_run_group_tests_name("parse_events", tests, NULL, NULL);

	failed += cmocka_run_group_tests_name("parse_events_fake_sysfs", fake_tests, fake_setup,
					      fake_teardown);
	return failed ? 1 : 0;
}
