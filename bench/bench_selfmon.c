/*
 * Self-monitoring read costs:
 *   selfmon_read_vs_read2   perfev_selfmon__read() against a raw read(2) of the same
 *                           fd, where the page sends the library to read(2) (software
 *                           events; every counter on a machine without a PMU).  Goal <= 1.05.
 *   selfmon_read_vs_rdpmc   perfev_selfmon__read() against a bare rdpmc loop, where a PMU
 *                           lets user space read "instructions".  Goal <= 1.5.
 *   selfmon_region_pair     one perfev_region__start + __stop over a 3-event group
 *                           against the two group read(2)s it makes (or rdpmc reads).
 *   selfmon_sim_page_read   the seqlock page reader on a simulated page with stub
 *                           rdpmc/rdtsc: the library's user-space path without the
 *                           instruction's own cost (informational).
 * Rounds alternate the contenders (and their order) so machine noise hits both alike;
 * the medians of the per-round costs and of the per-round ratios are printed.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "perfev/perfev.h"
#include "selfmon/selfmon_int.h"

#define ROUNDS 31
#define READS 20000

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(double), cmp_double);
	return v[n / 2];
}

struct result {
	double a, b, ratio; /* medians: a ns, b ns, a/b */
};

/* Runs a and b alternately ROUNDS times, READS calls each per round. */
static struct result race(int (*a)(void *), int (*b)(void *), void *ctx, int reads)
{
	double ta[ROUNDS], tb[ROUNDS], tr[ROUNDS];
	struct result res;

	for (int i = 0; i < reads / 10; i++) /* warm up */
		if (a(ctx) < 0 || b(ctx) < 0)
			exit(1);
	for (int r = 0; r < ROUNDS; r++) {
		for (int k = 0; k < 2; k++) {
			int (*f)(void *) = (k ^ (r & 1)) ? b : a;
			double t0 = now();

			for (int i = 0; i < reads; i++)
				if (f(ctx) < 0) {
					fprintf(stderr, "bench_selfmon: read failed: %s\n",
						perfev_last_error());
					exit(1);
				}
			double t = (now() - t0) / reads;

			if (f == a)
				ta[r] = t;
			else
				tb[r] = t;
		}
		tr[r] = ta[r] / tb[r];
	}
	res.a = median(ta, ROUNDS);
	res.b = median(tb, ROUNDS);
	res.ratio = median(tr, ROUNDS);
	return res;
}

struct ctx {
	struct perfev_selfmon *sm;
	struct perfev_region *region;
	int fd;
	size_t len;
	uint32_t counter;
	uint64_t sink;
};

static int lib_read(void *p)
{
	struct ctx *c = p;
	struct perfev_selfmon_value v;
	int r = perfev_selfmon__read(c->sm, &v);

	c->sink += v.value;
	return r;
}

static int raw_read(void *p)
{
	struct ctx *c = p;
	uint64_t buf[SM_RDBUF_WORDS];
	ssize_t n = read(c->fd, buf, c->len);

	c->sink += buf[0];
	return n == (ssize_t)c->len ? 0 : -1;
}

static int region_pair(void *p)
{
	struct ctx *c = p;
	int r = perfev_region__start(c->region);

	return r ? r : perfev_region__stop(c->region);
}

static int raw_group_pair(void *p)
{
	struct ctx *c = p;
	uint64_t buf[SM_RDBUF_WORDS];

	if (read(c->fd, buf, c->len) != (ssize_t)c->len)
		return -1;
	c->sink += buf[3];
	if (read(c->fd, buf, c->len) != (ssize_t)c->len)
		return -1;
	c->sink += buf[3];
	return 0;
}

#if defined(__x86_64__)
static int bare_rdpmc(void *p)
{
	struct ctx *c = p;
	uint32_t lo, hi;

	__asm__ __volatile__("rdpmc" : "=a"(lo), "=d"(hi) : "c"(c->counter) : "memory");
	c->sink += lo | (uint64_t)hi << 32;
	return 0;
}
#endif

static uint64_t stub_rdpmc(void *ctx, uint32_t counter)
{
	(void)ctx;
	return counter;
}

static uint64_t stub_rdtsc(void *ctx)
{
	(void)ctx;
	return 1000;
}

static int sim_read(void *p)
{
	return lib_read(p);
}

static int nop_read(void *p)
{
	struct ctx *c = p;

	c->sink++;
	__asm__ __volatile__("" ::: "memory");
	return 0;
}

static void print(const char *name, struct result r, const char *a, const char *b)
{
	printf("%s: ratio %.2f (%s %.1f ns, %s %.1f ns)\n", name, r.ratio, a, r.a, b, r.b);
}

static int bench_read2(void)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_SOFTWARE,
		.config = PERF_COUNT_SW_TASK_CLOCK,
		.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING,
	};
	struct ctx c = { 0 };
	struct perfev_selfmon_opts o = { .sz = sizeof(o), .attr = &attr };

	c.fd = perfev_event_open(&attr, 0, -1, -1, 0);
	if (c.fd < 0) {
		fprintf(stderr, "bench_selfmon: cannot open task-clock: %s\n", strerror(-c.fd));
		return 1;
	}
	c.len = 24;
	c.sm = perfev_selfmon__new(c.fd, &o);
	if (!c.sm) {
		fprintf(stderr, "bench_selfmon: %s\n", perfev_last_error());
		return 1;
	}
	if (perfev_selfmon__path(c.sm) != PERFEV_SELFMON_READ_SYSCALL)
		printf("selfmon_read_vs_read2: note: task-clock is read in user space here\n");
	print("selfmon_read_vs_read2", race(lib_read, raw_read, &c, READS), "lib", "read(2)");
	perfev_selfmon__delete(c.sm);
	close(c.fd);
	return 0;
}

static void bench_rdpmc(void)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_HARDWARE,
		.config = PERF_COUNT_HW_INSTRUCTIONS,
		.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING,
		.exclude_kernel = 1,
	};
	struct ctx c = { 0 };
	struct perfev_selfmon_opts o = { .sz = sizeof(o), .attr = &attr };
	char why[320];

	c.fd = perfev_event_open(&attr, 0, -1, -1, 0);
	if (c.fd < 0) {
		perfev_explain_open_error(c.fd, &attr, "instructions", why, sizeof(why));
		printf("selfmon_read_vs_rdpmc: skip: %s\n", why);
		return;
	}
	c.sm = perfev_selfmon__new(c.fd, &o);
	if (!c.sm || perfev_selfmon__path(c.sm) != PERFEV_SELFMON_RDPMC) {
		printf("selfmon_read_vs_rdpmc: skip: %s\n",
		       c.sm ? perfev_selfmon__path_reason(c.sm) : perfev_last_error());
		goto out;
	}
#if defined(__x86_64__)
	const volatile struct perf_event_mmap_page *pc =
		mmap(NULL, (size_t)sysconf(_SC_PAGESIZE), PROT_READ, MAP_SHARED, c.fd, 0);

	if (pc == MAP_FAILED || !pc->index) {
		printf("selfmon_read_vs_rdpmc: skip: the counter has no index to rdpmc\n");
		goto out;
	}
	c.counter = pc->index - 1;
	print("selfmon_read_vs_rdpmc", race(lib_read, bare_rdpmc, &c, READS * 10), "lib", "rdpmc");
	munmap((void *)(uintptr_t)pc, (size_t)sysconf(_SC_PAGESIZE));
#else
	printf("selfmon_read_vs_rdpmc: skip: the bare-rdpmc loop is written for x86-64 only\n");
#endif
out:
	perfev_selfmon__delete(c.sm);
	close(c.fd);
}

static int bench_region(void)
{
	struct perfev_evlist *el = perfev_evlist__new();
	struct perfev_open_opts oo = { .sz = sizeof(oo), .pid = 0, .start_disabled = true };
	const char *spec = "{instructions:u,cycles:u,cache-misses:u}";
	struct ctx c = { 0 };
	struct perfev_regions *rs;

	if (perfev_evlist__add_events(el, spec) || perfev_evlist__open(el, &oo)) {
		perfev_evlist__delete(el);
		el = perfev_evlist__new();
		spec = "{task-clock,page-faults,context-switches}";
		if (perfev_evlist__add_events(el, spec) || perfev_evlist__open(el, &oo)) {
			fprintf(stderr, "bench_selfmon: %s\n", perfev_last_error());
			return 1;
		}
	}
	perfev_evlist__enable(el);
	struct perfev_evsel *lead = perfev_evlist__next_evsel(el, NULL);

	c.sm = perfev_selfmon__new_evsel(lead, NULL);
	if (!c.sm) {
		fprintf(stderr, "bench_selfmon: %s\n", perfev_last_error());
		return 1;
	}
	rs = perfev_regions__new(c.sm, 1);
	c.region = perfev_regions__add(rs, "bench");
	c.fd = perfev_evsel__fd(lead, 0, 0);
	c.len = perfev_read_format__size(perfev_evsel__attr(lead)->read_format, 3);
	printf("selfmon_region_pair: %s, path %s\n", spec,
	       perfev_selfmon_path__name(perfev_selfmon__path(c.sm)));
	if (perfev_selfmon__path(c.sm) == PERFEV_SELFMON_READ_SYSCALL)
		print("selfmon_region_pair", race(region_pair, raw_group_pair, &c, READS / 2),
		      "start+stop", "2 group read(2)");
	else
	{
		struct result r = race(region_pair, nop_read, &c, READS);

		printf("selfmon_region_pair: %.1f ns per start+stop (empty loop %.1f ns)\n", r.a, r.b);
	}
	perfev_regions__delete(rs);
	perfev_selfmon__delete(c.sm);
	perfev_evlist__delete(el);
	return 0;
}

static void bench_sim(void)
{
	struct perf_event_mmap_page *page = aligned_alloc(4096, 4096);
	const volatile struct perf_event_mmap_page *pages[1] = { page };
	struct selfmon_hw hw = { stub_rdpmc, stub_rdtsc, NULL };
	struct ctx c = { 0 };

	memset(page, 0, 4096);
	page->capabilities = SM_CAP_USER_RDPMC | SM_CAP_USER_TIME;
	page->index = 1;
	page->pmc_width = 48;
	page->time_enabled = page->time_running = 1000;
	c.sm = selfmon__new_sim(pages, NULL, 1, &hw, false);
	struct result r = race(sim_read, nop_read, &c, READS * 10);

	printf("selfmon_sim_page_read: %.1f ns per read (seqlock loop and sign extension on a "
	       "simulated page, stub rdpmc; empty loop %.1f ns)\n", r.a, r.b);
	perfev_selfmon__delete(c.sm);
	free(page);
}

int main(void)
{
	if (bench_read2())
		return 1;
	bench_rdpmc();
	if (bench_region())
		return 1;
	bench_sim();
	return 0;
}
