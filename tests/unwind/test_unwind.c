/*
 * The DWARF unwinder against the real kernel: a workload built without
 * frame pointers (tests/unwind/uw_work.c, spinning in main -> uw_outer ->
 * uw_middle -> uw_inner, and in "lib"/"lld" modes one step further, in a
 * shared library linked by GNU ld or by lld) is sampled with task-clock,
 * PERF_SAMPLE_REGS_USER and PERF_SAMPLE_STACK_USER; each sample is unwound
 * with the maps read from /proc while it runs and symbolized with libdw's
 * own reading of those maps.  Linux perf records the same workload with
 * --call-graph dwarf as the peer.  Then synthetic samples: missing or
 * foreign registers, no stack, a stack pointer anywhere, garbage stacks,
 * an IP in no mapping, a process that changed its mappings.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <dirent.h>
#include <elfutils/libdwfl.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "perfev/perfev.h"
#include "perfev/unwind.h"

#define X86_REGS_MASK 0xff0fffull /* AX..GS and R8..R15, as perf samples them */
#define X86_NR_REGS 20
#define REG_BP 6
#define REG_SP 7
#define REG_IP 8
#define STACK_SIZE 8192
#define MAX_FRAMES 64
#define NR_SAMPLES 300

/* ---- paths and timing ---- */

static char uw_dir[PATH_MAX + 16]; /* BUILD/tests/unwind, where this test binary is */

static bool have_workload(void)
{
	char self[PATH_MAX], path[sizeof(uw_dir) + 16];

	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);

	if (n <= 0)
		return false;
	self[n] = '\0';
	*strrchr(self, '/') = '\0';
	snprintf(uw_dir, sizeof(uw_dir), "%s", self);
	snprintf(path, sizeof(path), "%s/uw_work", uw_dir);
	return access(path, X_OK) == 0;
}

#define NEED_WORKLOAD()                                                                            \
	do {                                                                                       \
		if (!have_workload()) {                                                            \
			print_message("skip: %s/uw_work is not built (make tests)\n", uw_dir);     \
			skip();                                                                    \
		}                                                                                  \
	} while (0)

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int count_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	int n = 0;

	assert_non_null(d);
	while (readdir(d))
		n++;
	closedir(d);
	return n;
}

/* ---- the maps of a process, and find_map over them ---- */

struct map_entry {
	uint64_t start, end, pgoff;
	char *path;
};

struct maps {
	struct map_entry *v;
	size_t n;
	char *text; /* the /proc/PID/maps text they came from */
	/* A fake: report this path for every map instead (a process that exec'd). */
	const char *override_path;
	unsigned calls;
};

static void maps_read(struct maps *m, const char *file)
{
	FILE *f = fopen(file, "r");
	char line[4096];
	size_t len = 0;

	assert_non_null(f);
	memset(m, 0, sizeof(*m));
	m->text = calloc(1, 1);
	while (fgets(line, sizeof(line), f)) {
		struct perfev_proc_map pm;
		size_t l = strlen(line);

		m->text = realloc(m->text, len + l + 1);
		memcpy(m->text + len, line, l + 1);
		len += l;
		assert_int_equal(perfev_proc_map__parse(line, l, &pm), 0);
		m->v = realloc(m->v, (m->n + 1) * sizeof(*m->v));
		m->v[m->n] = (struct map_entry){ pm.start, pm.end, pm.pgoff,
						 strndup(pm.path, pm.path_len) };
		m->n++;
	}
	fclose(f);
}

static void maps_free(struct maps *m)
{
	for (size_t i = 0; i < m->n; i++)
		free(m->v[i].path);
	free(m->v);
	free(m->text);
}

static int find_map(void *ctx, uint64_t addr, struct perfev_unwind_map *out)
{
	struct maps *m = ctx;

	m->calls++;
	for (size_t i = 0; i < m->n; i++) {
		if (addr >= m->v[i].start && addr < m->v[i].end) {
			out->start = m->v[i].start;
			out->end = m->v[i].end;
			out->pgoff = m->v[i].pgoff;
			out->path = m->override_path && m->v[i].path[0] == '/' ? m->override_path
										 : m->v[i].path;
			return 0;
		}
	}
	return -ENOENT;
}

/* ---- symbols, by libdw's own reading of the same maps ---- */

static Dwfl *symbolizer(const struct maps *m)
{
	static const Dwfl_Callbacks cb = {
		.find_elf = dwfl_linux_proc_find_elf,
		.find_debuginfo = dwfl_standard_find_debuginfo,
	};
	Dwfl *d = dwfl_begin(&cb);
	FILE *f = fmemopen(m->text, strlen(m->text), "r");

	assert_non_null(d);
	assert_non_null(f);
	dwfl_report_begin(d);
	assert_int_equal(dwfl_linux_proc_maps_report(d, f), 0);
	dwfl_report_end(d, NULL, NULL);
	fclose(f);
	return d;
}

static const char *sym_name(Dwfl *d, uint64_t addr)
{
	Dwfl_Module *mod = dwfl_addrmodule(d, addr);
	const char *name = mod ? dwfl_module_addrname(mod, addr) : NULL;

	return name ? name : "?";
}

/* ---- the workload and its samples ---- */

struct run {
	pid_t pid;
	struct maps maps;
	struct perfev_sample_fmt fmt;
	void **recs; /* copies of the PERF_RECORD_SAMPLEs */
	size_t nr;
	uint64_t lost;
};

static pid_t start_workload(const char *mode, unsigned secs)
{
	char path[sizeof(uw_dir) + 16], secs_s[16], buf[16] = "";
	int pfd[2];
	pid_t pid;

	snprintf(path, sizeof(path), "%s/uw_work", uw_dir);
	snprintf(secs_s, sizeof(secs_s), "%u", secs);
	assert_int_equal(pipe(pfd), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		dup2(pfd[1], 1);
		close(pfd[0]);
		close(pfd[1]);
		execl(path, path, secs_s, mode, (char *)NULL);
		_exit(127);
	}
	close(pfd[1]);
	/* "ready" comes once main runs: the libraries are mapped by then. */
	assert_true(read(pfd[0], buf, sizeof(buf) - 1) > 0);
	assert_string_equal(buf, "ready\n");
	close(pfd[0]);
	return pid;
}

static void stop_workload(pid_t pid)
{
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
}

/* Samples the running workload until NR_SAMPLES samples (or 5 s). */
static void record_workload(struct run *r, const char *mode)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_SOFTWARE,
		.config = PERF_COUNT_SW_TASK_CLOCK,
		.sample_period = 1000000, /* 1 ms of the task's time */
		.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_IP | PERF_SAMPLE_TIME |
			       PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER,
		.sample_regs_user = X86_REGS_MASK,
		.sample_stack_user = STACK_SIZE,
		.exclude_kernel = 1,
		.exclude_hv = 1,
		.exclude_callchain_user = 1,
	};
	struct perfev_ring_opts ro = { .sz = sizeof(ro), .data_pages = 256 };
	char maps_path[64];
	struct perfev_ring *ring;
	double t0;
	int fd;

	memset(r, 0, sizeof(*r));
	r->pid = start_workload(mode, 10);
	snprintf(maps_path, sizeof(maps_path), "/proc/%d/maps", r->pid);
	maps_read(&r->maps, maps_path);
	assert_int_equal(perfev_sample_fmt__from_attr(&attr, &r->fmt), 0);
	fd = perfev_event_open(&attr, r->pid, -1, -1, 0);
	if (fd < 0)
		print_message("task-clock on pid %d: %s\n", r->pid, strerror(-fd));
	assert_true(fd >= 0);
	ring = perfev_ring__new(fd, &ro);
	assert_non_null(ring);
	r->recs = calloc(NR_SAMPLES, sizeof(*r->recs));
	t0 = now_s();
	while (r->nr < NR_SAMPLES && now_s() - t0 < 5) {
		const void *rec;
		size_t size;

		usleep(5000);
		if (perfev_ring__read_start(ring) <= 0)
			continue;
		while (r->nr < NR_SAMPLES && perfev_ring__next(ring, &rec, &size) > 0) {
			if (((const struct perf_event_header *)rec)->type != PERF_RECORD_SAMPLE)
				continue;
			r->recs[r->nr] = malloc(size);
			memcpy(r->recs[r->nr++], rec, size);
		}
		perfev_ring__read_done(ring);
	}
	struct perfev_ring_stats st;

	perfev_ring__stats(ring, &st);
	r->lost = st.lost;
	perfev_ring__delete(ring);
	close(fd);
	stop_workload(r->pid);
	print_message("%s: %zu samples, %llu lost\n", mode, r->nr, (unsigned long long)r->lost);
	assert_true(r->nr >= NR_SAMPLES / 2);
}

static void run_free(struct run *r)
{
	for (size_t i = 0; i < r->nr; i++)
		free(r->recs[i]);
	free(r->recs);
	maps_free(&r->maps);
}

static void sample_of(const struct run *r, size_t i, struct perfev_sample *s)
{
	struct perfev_record rec;
	const struct perf_event_header *h = r->recs[i];

	assert_int_equal(perfev_record__parse(&r->fmt, h, h->size, &rec), 0);
	*s = rec.sample;
}

/*
 * Whether names (innermost first) hold uw_inner, uw_middle, uw_outer, main
 * in a row, uw_inner at frame 0 or, with lib set, at frame 1 under lib.
 */
static bool full_chain(char names[][64], int n, const char *lib)
{
	static const char *const chain[] = { "uw_inner", "uw_middle", "uw_outer", "main" };
	int k = lib && n > 0 && !strcmp(names[0], lib) ? 1 : 0;

	if (n < k + 4)
		return false;
	for (int j = 0; j < 4; j++)
		if (strcmp(names[k + j], chain[j]) != 0)
			return false;
	return true;
}

struct tally {
	size_t full, in_lib, to_start, frames;
};

/* Unwinds every sample of r with u, checking and counting the chains found. */
/* fresh: each sample unwound as its process's first, every file met during the walk. */
static void unwind_each(struct perfev_unwinder *u, struct run *r, Dwfl *syms, const char *lib,
			struct tally *t, bool fresh)
{
	memset(t, 0, sizeof(*t));
	for (size_t i = 0; i < r->nr; i++) {
		struct perfev_sample s;
		uint64_t ips[MAX_FRAMES];
		char names[MAX_FRAMES][64];
		int n;

		if (fresh)
			perfev_unwinder__forget(u, r->pid);
		sample_of(r, i, &s);
		n = perfev_unwinder__unwind(u, r->pid, &s, find_map, &r->maps, ips, MAX_FRAMES);
		if (n < 0)
			print_message("sample %zu: %s\n", i, perfev_last_error());
		assert_true(n >= 1 && n <= MAX_FRAMES);
		assert_true(ips[0] == s.ip);
		for (int j = 0; j < n; j++)
			snprintf(names[j], sizeof(names[j]), "%s",
				 syms ? sym_name(syms, j ? ips[j] - 1 : ips[j]) : "");
		if (!syms)
			continue;
		t->frames += (size_t)n;
		if (full_chain(names, n, lib)) {
			t->full++;
			t->in_lib += lib && !strcmp(names[0], lib);
			t->to_start += !strcmp(names[n - 1], "_start");
		} else if (i < 3 || getenv("UW_VERBOSE")) {
			/* A few of the misses, to see where unwinding stopped. */
			print_message("sample %zu: %d frames:", i, n);
			for (int j = 0; j < n; j++)
				print_message(" %s", names[j]);
			print_message("\n");
		}
	}
}

static void unwind_all(struct perfev_unwinder *u, struct run *r, Dwfl *syms, const char *lib,
		       struct tally *t)
{
	unwind_each(u, r, syms, lib, t, false);
}

static void live(const char *mode, const char *lib)
{
	struct perfev_unwinder_opts o = { .sz = sizeof(o) };
	struct perfev_unwinder *u;
	struct run r;
	struct tally t;
	Dwfl *syms;
	int fds0, fds1;
	double t0, cold, warm;
	unsigned calls;
	const int passes = 5;

	NEED_WORKLOAD();
	record_workload(&r, mode);
	syms = symbolizer(&r.maps);
	u = perfev_unwinder__new(&o);
	assert_non_null(u);

	unwind_all(u, &r, syms, lib, &t);
	print_message("%s: %zu/%zu samples (%.0f%%) unwound through uw_inner..main, %zu of them "
		      "from %s, %zu down to _start; %.1f frames per sample\n",
		      mode, t.full, r.nr, 100.0 * (double)t.full / (double)r.nr, t.in_lib,
		      lib ? lib : "-", t.to_start, (double)t.frames / (double)r.nr);
	assert_true(t.full * 100 >= r.nr * 80);
	if (lib)
		assert_true(t.in_lib * 100 >= r.nr * 50); /* most time is spent in the library */

	/*
	 * Each sample as the first of its process: the files are reported to
	 * libdw as the walk meets them, and a frame of a file met just then
	 * must still be stepped with that file's CFI (libdw would otherwise
	 * fall back to the frame pointers and skip a frame).
	 */
	struct tally f;

	unwind_each(u, &r, syms, lib, &f, true);
	print_message("%s: every sample unwound first: %zu full chains (%zu with the files known)\n",
		      mode, f.full, t.full);
	assert_int_equal(f.full, t.full);
	assert_int_equal(f.frames, t.frames);

	/* From scratch again (the symbolizer's files are open by now and stay so). */
	perfev_unwinder__forget(u, r.pid);
	fds0 = count_fds();
	t0 = now_s();
	unwind_all(u, &r, NULL, lib, &t);
	cold = now_s() - t0;

	/* Files are opened once per process: more unwinds open nothing more. */
	fds1 = count_fds();
	assert_true(fds1 > fds0);
	r.maps.calls = 0;
	t0 = now_s();
	for (int i = 0; i < passes; i++)
		unwind_all(u, &r, NULL, lib, &t);
	warm = (now_s() - t0) / passes;
	calls = r.maps.calls;
	assert_int_equal(count_fds(), fds1);
	print_message("%s: %.0f unwinds/s with the files already open, %.0f/s for a first pass "
		      "that opens them (%d files); %.1f find_map calls per unwind\n",
		      mode, (double)r.nr / warm, (double)r.nr / cold, fds1 - fds0,
		      (double)calls / (double)(r.nr * passes));

	/* Forgetting the process closes its files. */
	perfev_unwinder__forget(u, r.pid);
	assert_int_equal(count_fds(), fds0);
	perfev_unwinder__forget(u, r.pid); /* twice is harmless */

	perfev_unwinder__delete(u);
	dwfl_end(syms);
	run_free(&r);
}

static void test_live_exe(void **state)
{
	(void)state;
	live("exe", NULL);
}

static void test_live_lib(void **state)
{
	(void)state;
	live("lib", "uw_lib_spin");
}

/* lld's text segment sits at p_vaddr = p_offset + 0x1000: "map start - pgoff" misplaces it. */
static void test_live_lld(void **state)
{
	(void)state;
	live("lld", "uw_lld_spin");
}

/* ---- a process that changed under the unwinder ---- */

static char logged[8192];

static int log_cb(enum perfev_print_level level, const char *fmt, va_list ap)
{
	size_t n = strlen(logged);

	(void)level;
	if (n < sizeof(logged) - 1)
		vsnprintf(logged + n, sizeof(logged) - n, fmt, ap);
	return 0;
}

static void test_remapped(void **state)
{
	struct perfev_unwinder *u;
	struct run r;
	struct tally t;
	Dwfl *syms;
	char other[sizeof(uw_dir) + 32];
	perfev_print_fn_t old;

	(void)state;
	NEED_WORKLOAD();
	record_workload(&r, "exe");
	syms = symbolizer(&r.maps);
	u = perfev_unwinder__new(NULL);
	assert_non_null(u);
	unwind_all(u, &r, syms, NULL, &t);
	assert_true(t.full * 100 >= r.nr * 80);

	/* The same addresses now say another file: the pid exec'd.  No crash, and a rebuild. */
	snprintf(other, sizeof(other), "%s/libuwlib.so", uw_dir);
	r.maps.override_path = other;
	logged[0] = '\0';
	old = perfev_set_print(log_cb);
	unwind_all(u, &r, NULL, NULL, &t);
	perfev_set_print(old);
	assert_non_null(strstr(logged, "rebuilding"));

	/* And back: the next conflict rebuilds again and unwinds as well as before. */
	r.maps.override_path = NULL;
	unwind_all(u, &r, syms, NULL, &t);
	assert_true(t.full * 100 >= r.nr * 80);

	perfev_unwinder__delete(u);
	dwfl_end(syms);
	run_free(&r);
}

/* ---- Linux perf, the peer ---- */

static bool have_perf(void)
{
	return system("perf version >/dev/null 2>&1") == 0;
}

/* Of perf script's samples, how many show uw_inner..main in a row (after lib, if given). */
static void perf_chains(FILE *f, const char *lib, size_t *samples, size_t *full)
{
	char line[1024];
	char names[MAX_FRAMES][64];
	int n = 0;
	bool in_sample = false;

	*samples = *full = 0;
	for (;;) {
		char *got = fgets(line, sizeof(line), f);

		if (!got || line[0] == '\n') {
			if (in_sample) {
				(*samples)++;
				*full += full_chain(names, n, lib);
			}
			in_sample = false;
			n = 0;
			if (!got)
				break;
			continue;
		}
		if (line[0] != '\t' && line[0] != ' ') {
			in_sample = true; /* "comm pid time: period event:" */
			continue;
		}
		/* "\t    addr sym+off (dso)" */
		char addr[32], sym[256] = "";

		if (n < MAX_FRAMES && sscanf(line, " %31s %255s", addr, sym) == 2) {
			char *plus = strchr(sym, '+');

			if (plus)
				*plus = '\0';
			sym[sizeof(names[0]) - 1] = '\0';
			memcpy(names[n++], sym, sizeof(names[0]));
		}
	}
}

static void test_vs_perf(void **state)
{
	char dir[] = "/tmp/perfev-unwind-XXXXXX", cmd[4 * PATH_MAX];
	struct perfev_unwinder *u;
	struct run r;
	struct tally t;
	Dwfl *syms;
	size_t samples, full;
	double t0, perf_s, ours_s;
	FILE *f;

	(void)state;
	NEED_WORKLOAD();
	if (!have_perf()) {
		print_message("skip: Linux perf is not installed (the peer to compare with)\n");
		skip();
	}
	assert_non_null(mkdtemp(dir));
	snprintf(cmd, sizeof(cmd),
		 "perf record -q -e task-clock -c 1000000 --call-graph dwarf,%d -o %s/perf.data "
		 "-- %s/uw_work 1 lib >/dev/null 2>%s/record.log",
		 STACK_SIZE, dir, uw_dir, dir);
	if (system(cmd) != 0) {
		print_message("skip: perf record failed: see %s/record.log\n", dir);
		skip();
	}
	snprintf(cmd, sizeof(cmd), "perf script -i %s/perf.data > %s/script.txt 2>/dev/null", dir,
		 dir);
	t0 = now_s();
	assert_int_equal(system(cmd), 0);
	perf_s = now_s() - t0;
	snprintf(cmd, sizeof(cmd), "%s/script.txt", dir);
	f = fopen(cmd, "r");
	assert_non_null(f);
	perf_chains(f, "uw_lib_spin", &samples, &full);
	fclose(f);
	assert_true(samples > 100);

	/* Our unwinder on the same workload, sampled the same way. */
	NEED_WORKLOAD();
	record_workload(&r, "lib");
	syms = symbolizer(&r.maps);
	u = perfev_unwinder__new(NULL);
	t0 = now_s();
	unwind_all(u, &r, NULL, "uw_lib_spin", &t);
	ours_s = now_s() - t0;
	unwind_all(u, &r, syms, "uw_lib_spin", &t);
	print_message("full chains: perf %zu/%zu (%.0f%%), perfev %zu/%zu (%.0f%%)\n", full, samples,
		      100.0 * (double)full / (double)samples, t.full, r.nr,
		      100.0 * (double)t.full / (double)r.nr);
	print_message("perf script: %.0f samples/s (its whole run: read, unwind, symbolize, "
		      "print); perfev: %.0f unwinds/s from a cold start (opening the files)\n",
		      (double)samples / perf_s, (double)r.nr / ours_s);
	/* Both see the chain in most samples; ours no worse than the peer's by much. */
	assert_true(full * 100 >= samples * 80);
	assert_true(t.full * 100 >= r.nr * 80);

	perfev_unwinder__delete(u);
	dwfl_end(syms);
	run_free(&r);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	assert_int_equal(system(cmd), 0);
}

/* ---- synthetic samples ---- */

/* A function of this binary, for IPs that land in real code. */
__attribute__((noinline)) static int some_code(int x)
{
	return x * 3 + 1;
}

struct synth {
	struct perfev_sample s;
	uint64_t regs[X86_NR_REGS];
	unsigned char *stack;
};

/* A well-formed sample whose IP is in this binary and SP at a stack of size bytes. */
static void synth_init(struct synth *y, size_t size)
{
	memset(y, 0, sizeof(*y));
	y->stack = calloc(1, size ? size : 1);
	y->s.sample_type = PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER | PERF_SAMPLE_IP;
	y->s.regs_user.abi = PERF_SAMPLE_REGS_ABI_64;
	y->s.regs_user.mask = X86_REGS_MASK;
	y->s.regs_user.nr = X86_NR_REGS;
	y->s.regs_user.regs = y->regs;
	y->s.stack_user.size = size;
	y->s.stack_user.dyn_size = size;
	y->s.stack_user.data = y->stack;
	y->regs[REG_IP] = (uint64_t)(uintptr_t)&some_code + 4;
	y->regs[REG_SP] = 0x7ffe00000000ull;
	y->regs[REG_BP] = 0x7ffe00000100ull;
	y->s.ip = y->regs[REG_IP];
}

static struct maps self_maps;

static int unwind_synth(struct perfev_unwinder *u, struct synth *y, uint64_t *ips, size_t max)
{
	return perfev_unwinder__unwind(u, getpid(), &y->s, find_map, &self_maps, ips, max);
}

static int print_stderr(enum perfev_print_level level, const char *fmt, va_list ap)
{
	(void)level;
	return vfprintf(stderr, fmt, ap);
}

static int setup_self(void **state)
{
	(void)state;
	if (getenv("UW_DEBUG")) /* the library's debug log, to see where files are placed */
		perfev_set_print(print_stderr);
	maps_read(&self_maps, "/proc/self/maps");
	return 0;
}

static int teardown_self(void **state)
{
	(void)state;
	maps_free(&self_maps);
	return 0;
}

static void test_bad_samples(void **state)
{
	struct perfev_unwinder *u = perfev_unwinder__new(NULL);
	struct synth y;
	uint64_t ips[8];

	(void)state;
	assert_non_null(u);
	assert_int_equal(some_code(1), 4);

	/* No registers at all (a kernel thread). */
	synth_init(&y, 64);
	y.s.regs_user.abi = PERF_SAMPLE_REGS_ABI_NONE;
	assert_int_equal(unwind_synth(u, &y, ips, 8), -EINVAL);
	assert_non_null(strstr(perfev_last_error(), "no user registers"));
	y.s.regs_user.abi = PERF_SAMPLE_REGS_ABI_64;
	y.s.sample_type &= ~(uint64_t)PERF_SAMPLE_REGS_USER;
	assert_int_equal(unwind_synth(u, &y, ips, 8), -EINVAL);
	free(y.stack);

	/* A 32-bit process. */
	synth_init(&y, 64);
	y.s.regs_user.abi = PERF_SAMPLE_REGS_ABI_32;
	assert_int_equal(unwind_synth(u, &y, ips, 8), -EOPNOTSUPP);
	assert_non_null(strstr(perfev_last_error(), "32-bit"));
	y.s.regs_user.abi = 7;
	assert_int_equal(unwind_synth(u, &y, ips, 8), -EINVAL);
	free(y.stack);

	/* A mask without BP, and fewer values than the mask says. */
	synth_init(&y, 64);
	y.s.regs_user.mask = X86_REGS_MASK & ~(1ull << REG_BP);
	y.s.regs_user.nr = X86_NR_REGS - 1;
	assert_int_equal(unwind_synth(u, &y, ips, 8), -EINVAL);
	assert_non_null(strstr(perfev_last_error(), "lack IP, SP or BP"));
	y.s.regs_user.mask = X86_REGS_MASK;
	y.s.regs_user.nr = 9;
	assert_int_equal(unwind_synth(u, &y, ips, 8), -EINVAL);
	y.s.regs_user.nr = X86_NR_REGS;
	y.s.regs_user.regs = NULL;
	assert_int_equal(unwind_synth(u, &y, ips, 8), -EINVAL);
	free(y.stack);

	/* No stack copy asked for. */
	synth_init(&y, 64);
	y.s.sample_type &= ~(uint64_t)PERF_SAMPLE_STACK_USER;
	assert_int_equal(unwind_synth(u, &y, ips, 8), -EINVAL);
	assert_non_null(strstr(perfev_last_error(), "no user stack"));
	free(y.stack);

	/* Arguments. */
	synth_init(&y, 64);
	assert_int_equal(perfev_unwinder__unwind(NULL, 1, &y.s, find_map, NULL, ips, 8), -EINVAL);
	assert_int_equal(perfev_unwinder__unwind(u, 1, NULL, find_map, NULL, ips, 8), -EINVAL);
	assert_int_equal(perfev_unwinder__unwind(u, 1, &y.s, NULL, NULL, ips, 8), -EINVAL);
	assert_int_equal(perfev_unwinder__unwind(u, 1, &y.s, find_map, NULL, NULL, 8), -EINVAL);
	assert_int_equal(unwind_synth(u, &y, ips, 0), 0);
	free(y.stack);

	perfev_unwinder__delete(u);
	perfev_unwinder__delete(NULL);
	perfev_unwinder__forget(NULL, 1);
}

static void test_opts(void **state)
{
	struct {
		struct perfev_unwinder_opts o;
		uint64_t extra;
	} big = { .o = { .sz = sizeof(big) } };
	struct perfev_unwinder_opts small = { .sz = 4 };
	struct perfev_unwinder *u;

	(void)state;
	errno = 0;
	assert_null(perfev_unwinder__new(&small));
	assert_int_equal(errno, EINVAL);
	/* A newer caller's bigger struct: fine while its new fields are zero. */
	u = perfev_unwinder__new(&big.o);
	assert_non_null(u);
	perfev_unwinder__delete(u);
	big.extra = 1;
	assert_null(perfev_unwinder__new(&big.o));
	big.extra = 0;
	big.o.debuginfo_path = "/nonexistent-debug";
	u = perfev_unwinder__new(&big.o);
	assert_non_null(u);
	perfev_unwinder__delete(u);
}

/* Returns that stop early: no stack, a stack pointer anywhere, an IP nowhere. */
static void test_degenerate_samples(void **state)
{
	static const uint64_t sps[] = { 0, 8, 0x7ffe00000000ull, UINT64_MAX - 7, UINT64_MAX };
	struct perfev_unwinder *u = perfev_unwinder__new(NULL);
	struct synth y;
	uint64_t ips[MAX_FRAMES];
	int n;

	(void)state;
	assert_non_null(u);

	/* The kernel could copy nothing (dyn_size 0), or the sample has no data. */
	synth_init(&y, 256);
	y.s.stack_user.dyn_size = 0;
	n = unwind_synth(u, &y, ips, MAX_FRAMES);
	assert_true(n >= 1);
	assert_true(ips[0] == y.regs[REG_IP]);
	y.s.stack_user.dyn_size = 1000; /* more than the copy holds: ignored beyond size */
	assert_true(unwind_synth(u, &y, ips, MAX_FRAMES) >= 1);
	y.s.stack_user.data = NULL;
	assert_true(unwind_synth(u, &y, ips, MAX_FRAMES) >= 1);
	free(y.stack);

	/* The stack pointer anywhere, the stack zero or all ones. */
	for (size_t i = 0; i < sizeof(sps) / sizeof(sps[0]); i++) {
		for (int fill = 0; fill < 2; fill++) {
			synth_init(&y, 512);
			memset(y.stack, fill ? 0xff : 0, 512);
			y.regs[REG_SP] = sps[i];
			y.regs[REG_BP] = sps[i] + 16;
			n = unwind_synth(u, &y, ips, MAX_FRAMES);
			assert_true(n >= 1 && n <= MAX_FRAMES);
			free(y.stack);
		}
	}

	/* An IP in no mapping, and in a mapping of no file ([stack]). */
	synth_init(&y, 64);
	y.regs[REG_IP] = 0x10;
	n = unwind_synth(u, &y, ips, MAX_FRAMES);
	assert_true(n >= 1);
	assert_true(ips[0] == 0x10);
	y.regs[REG_IP] = (uint64_t)(uintptr_t)&n;
	assert_true(unwind_synth(u, &y, ips, MAX_FRAMES) >= 1);
	free(y.stack);

	/* max 1: only the sampled IP. */
	synth_init(&y, 64);
	assert_int_equal(unwind_synth(u, &y, ips, 1), 1);
	assert_true(ips[0] == y.regs[REG_IP]);
	free(y.stack);

	/* Registers that the mask leaves out stay unknown, not zero: still no crash. */
	synth_init(&y, 64);
	y.s.regs_user.mask = (1ull << REG_IP) | (1ull << REG_SP) | (1ull << REG_BP);
	y.s.regs_user.nr = 3;
	y.regs[0] = 0x7ffe00000100ull;
	y.regs[1] = 0x7ffe00000000ull;
	y.regs[2] = (uint64_t)(uintptr_t)&some_code;
	n = unwind_synth(u, &y, ips, MAX_FRAMES);
	assert_true(n >= 1);
	assert_true(ips[0] == (uint64_t)(uintptr_t)&some_code);
	free(y.stack);

	perfev_unwinder__delete(u);
}

/*
 * Garbage stacks, and stacks whose words are addresses of this binary's
 * code (so libdw takes many steps through real CFI on nonsense), under
 * ASan: every read stays in the copy, every unwind ends.
 */
static void test_garbage_stacks(void **state)
{
	struct perfev_unwinder *u = perfev_unwinder__new(NULL);
	uint64_t ips[MAX_FRAMES];
	uint64_t text_lo = 0, text_hi = 0;
	unsigned seed = 12345;

	(void)state;
	assert_non_null(u);
	for (size_t i = 0; i < self_maps.n; i++) {
		uint64_t a = (uint64_t)(uintptr_t)&some_code;

		if (a >= self_maps.v[i].start && a < self_maps.v[i].end) {
			text_lo = self_maps.v[i].start;
			text_hi = self_maps.v[i].end;
		}
	}
	assert_true(text_hi > text_lo);
	for (int round = 0; round < 300; round++) {
		struct synth y;
		size_t size = (size_t)(rand_r(&seed) % 4096) & ~(size_t)7;
		uint64_t sp = 0x7ffe00010000ull;

		synth_init(&y, size);
		for (size_t j = 0; j + 8 <= size; j += 8) {
			uint64_t w;
			int kind = rand_r(&seed) % 4;

			if (kind == 0) /* an address in this binary's text */
				w = text_lo + (uint64_t)rand_r(&seed) % (text_hi - text_lo);
			else if (kind == 1) /* an address in the stack copy */
				w = sp + (uint64_t)(rand_r(&seed) % (int)(size + 64));
			else
				w = ((uint64_t)rand_r(&seed) << 33) ^ (uint64_t)rand_r(&seed);
			memcpy(y.stack + j, &w, 8);
		}
		for (int k = 0; k < X86_NR_REGS; k++)
			y.regs[k] = ((uint64_t)rand_r(&seed) << 31) ^ (uint64_t)rand_r(&seed);
		y.regs[REG_SP] = sp;
		y.regs[REG_BP] = sp + (uint64_t)(rand_r(&seed) % 256);
		y.regs[REG_IP] = text_lo + (uint64_t)rand_r(&seed) % (text_hi - text_lo);
		int n = unwind_synth(u, &y, ips, MAX_FRAMES);

		assert_true(n >= 1 && n <= MAX_FRAMES);
		assert_true(ips[0] == y.regs[REG_IP]);
		free(y.stack);
	}
	perfev_unwinder__delete(u);
}

/* Many processes: the oldest are dropped, so descriptors stay bounded. */
static void test_many_pids(void **state)
{
	struct perfev_unwinder *u = perfev_unwinder__new(NULL);
	uint64_t ips[4];
	int fds0 = count_fds(), fds_mid = 0;

	(void)state;
	assert_non_null(u);
	for (int pid = 1000; pid < 1200; pid++) {
		struct synth y;

		synth_init(&y, 64);
		assert_true(perfev_unwinder__unwind(u, pid, &y.s, find_map, &self_maps, ips, 4) >= 1);
		free(y.stack);
		if (pid == 1100)
			fds_mid = count_fds();
	}
	/* Each process holds this binary open; at most a fixed number of processes are kept. */
	assert_true(count_fds() - fds0 <= 64);
	assert_int_equal(count_fds(), fds_mid);
	perfev_unwinder__delete(u);
	assert_int_equal(count_fds(), fds0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_opts),
		cmocka_unit_test(test_bad_samples),
		cmocka_unit_test(test_degenerate_samples),
		cmocka_unit_test(test_garbage_stacks),
		cmocka_unit_test(test_many_pids),
		cmocka_unit_test(test_live_exe),
		cmocka_unit_test(test_live_lib),
		cmocka_unit_test(test_live_lld),
		cmocka_unit_test(test_remapped),
		cmocka_unit_test(test_vs_perf),
	};

	return cmocka_run_group_tests(tests, setup_self, teardown_self);
}
