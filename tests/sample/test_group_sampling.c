/*
 * Group sampling against the real kernel, the perfmon sampling-buffer idea:
 * the leader samples and every sample carries the value of every member
 * (PERF_SAMPLE_READ with PERF_FORMAT_GROUP, perf's "{a,b}:S").  With
 * tracepoints as leader and member the values are known exactly.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "perfev/perfev.h"

#define NR_CALLS 300
/* Room for every sample: sanitizer builds take many more page faults (shadow memory). */
#define MAX_SAMPLES 65536

struct collected {
	int n;
	uint64_t leader[MAX_SAMPLES], member[MAX_SAMPLES];
	uint64_t leader_id[MAX_SAMPLES], member_id[MAX_SAMPLES];
	int bad_nr;
};

/* Every sample of the list's rings, with its group values decoded. */
static void collect(struct perfev_evlist *el, struct collected *c)
{
	struct perfev_evsel *leader = perfev_evlist__next_evsel(el, NULL);
	struct perfev_sample_fmt fmt;

	assert_int_equal(perfev_sample_fmt__from_attr(perfev_evsel__attr(leader), &fmt), 0);
	for (int i = 0; i < perfev_evlist__nr_rings(el); i++) {
		struct perfev_ring *r = perfev_evlist__ring(el, i);
		const void *rec;
		size_t size;

		while (perfev_ring__read_start(r) > 0) {
			while (perfev_ring__next(r, &rec, &size) > 0) {
				struct perfev_record pr;
				struct perfev_counts v[4];
				int nv;

				assert_int_equal(perfev_record__parse(&fmt, rec, size, &pr), 0);
				if (pr.type != PERF_RECORD_SAMPLE)
					continue;
				nv = perfev_read_format__parse(pr.sample.read.format, pr.sample.read.data,
							       pr.sample.read.size, v, 4);
				if (nv != 2 || c->n >= MAX_SAMPLES) {
					c->bad_nr++;
					continue;
				}
				c->leader[c->n] = v[0].val;
				c->member[c->n] = v[1].val;
				c->leader_id[c->n] = v[0].id;
				c->member_id[c->n] = v[1].id;
				c->n++;
			}
			perfev_ring__read_done(r);
		}
	}
}

/* Leader and member sample settings as perf sets them for ":S". */
static void config_group(struct perfev_evlist *el, uint64_t leader_period)
{
	struct perfev_evsel *ev;

	perfev_evlist__for_each_evsel(el, ev) {
		struct perf_event_attr *a = perfev_evsel__attr(ev);

		a->sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_TID | PERF_SAMPLE_READ;
		a->sample_period = perfev_evsel__leader(ev) == ev ? leader_period : 0;
		a->read_format = PERF_FORMAT_ID;
	}
}

static void test_tracepoint_group_values_exact(void **state)
{
	(void)state;
	if (access("/sys/kernel/tracing/events/syscalls/sys_enter_getpid/id", R_OK)) {
		print_message("skip: tracefs with the syscalls events is not available here\n");
		skip();
	}
	struct perfev_evlist *el = perfev_evlist__new();
	struct perfev_open_opts oo = { .sz = sizeof(oo), .pid = 0, .start_disabled = true };
	struct perfev_mmap_opts mo = { .sz = sizeof(mo), .data_pages = 64 };
	struct collected *c = calloc(1, sizeof(*c));
	uint64_t expect_member = 0;

	assert_non_null(c);
	assert_int_equal(perfev_evlist__add_events(
				 el, "{syscalls:sys_enter_getppid,syscalls:sys_enter_getpid}:S"),
			 0);
	struct perfev_evsel *leader = perfev_evlist__next_evsel(el, NULL);
	struct perfev_evsel *member = perfev_evlist__next_evsel(el, leader);

	assert_true(perfev_evsel__sample_read(leader));
	config_group(el, 1);
	assert_int_equal(perfev_evlist__open(el, &oo), 0);
	assert_true(perfev_evsel__attr(leader)->read_format & PERF_FORMAT_GROUP);
	assert_int_equal(perfev_evlist__mmap(el, &mo), 0);
	assert_int_equal(perfev_evlist__enable(el), 0);
	for (int i = 1; i <= NR_CALLS; i++) {
		for (int k = 0; k < i % 4; k++)
			syscall(SYS_getpid);
		syscall(SYS_getppid);
	}
	perfev_evlist__disable(el);
	collect(el, c);
	assert_int_equal(c->bad_nr, 0);
	assert_int_equal(c->n, NR_CALLS);
	for (int i = 1; i <= NR_CALLS; i++) {
		expect_member += (uint64_t)(i % 4);
		/* Sample i carries both counts as they stood at the i-th getppid call. */
		assert_int_equal(c->leader[i - 1], (uint64_t)i);
		assert_int_equal(c->member[i - 1], expect_member);
		assert_int_equal(c->leader_id[i - 1], perfev_evsel__id(leader, 0, 0));
		assert_int_equal(c->member_id[i - 1], perfev_evsel__id(member, 0, 0));
	}
	print_message("%d samples, each carrying getppid %llu and getpid %llu at the end\n", c->n,
		      (unsigned long long)c->leader[c->n - 1], (unsigned long long)c->member[c->n - 1]);
	free(c);
	perfev_evlist__delete(el);
}

static void test_software_group_values_grow(void **state)
{
	(void)state;
	struct perfev_evlist *el = perfev_evlist__new();
	struct perfev_open_opts oo = { .sz = sizeof(oo), .pid = 0, .start_disabled = true };
	struct perfev_mmap_opts mo = { .sz = sizeof(mo), .data_pages = 64 };
	struct collected *c = calloc(1, sizeof(*c));
	size_t pages = 4000, psz = (size_t)sysconf(_SC_PAGESIZE);
	struct perfev_counts end;

	assert_non_null(c);
	assert_int_equal(perfev_evlist__add_events(el, "{page-faults,task-clock}:S"), 0);
	/* A sample every 16 page faults; the member's task-clock must only grow. */
	config_group(el, 16);
	assert_int_equal(perfev_evlist__open(el, &oo), 0);
	assert_int_equal(perfev_evlist__mmap(el, &mo), 0);
	assert_int_equal(perfev_evlist__enable(el), 0);
	char *mem = malloc(pages * psz);

	assert_non_null(mem);
	for (size_t i = 0; i < pages; i++)
		mem[i * psz] = 1;
	perfev_evlist__disable(el);
	free(mem);
	assert_int_equal(perfev_evlist__read(el), 0);
	assert_int_equal(perfev_evsel__counts_total(perfev_evlist__next_evsel(el, NULL), &end), 0);
	collect(el, c);
	assert_int_equal(c->bad_nr, 0);
	/* Every 16th fault is a sample: as many samples as the count says, to the fault. */
	assert_int_equal((uint64_t)c->n, end.val / 16);
	for (int i = 1; i < c->n; i++) {
		assert_int_equal(c->leader[i], c->leader[i - 1] + 16);
		assert_true(c->member[i] >= c->member[i - 1]);
	}
	print_message("%d samples over %llu page faults; task-clock %llu -> %llu ns\n", c->n,
		      (unsigned long long)end.val, (unsigned long long)c->member[0],
		      (unsigned long long)c->member[c->n - 1]);
	free(c);
	perfev_evlist__delete(el);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tracepoint_group_values_exact),
		cmocka_unit_test(test_software_group_values_grow),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
