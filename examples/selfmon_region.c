/* SPDX-License-Identifier: MIT */
/*
 * Measures a function's instructions, cycles and cache misses from inside the
 * program with perfev's self-monitoring regions: one group of counters, two
 * named regions, start/stop around each call.  On a machine without a
 * hardware PMU (most VMs) the hardware events can't be opened; the example
 * says why and measures software events instead, so it still shows output.
 *
 *	build/examples/selfmon_region [calls]
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perfev/perfev.h"

#define NR_REGIONS 2

/* The function under measurement: fills a buffer and sums it with a stride. */
static uint64_t fill_and_sum(uint32_t *buf, size_t n, size_t stride)
{
	uint64_t sum = 0;

	for (size_t i = 0; i < n; i++)
		buf[i] = (uint32_t)(i * 2654435761u);
	for (size_t s = 0; s < stride; s++)
		for (size_t i = s; i < n; i += stride)
			sum += buf[i];
	return sum;
}

static struct perfev_evlist *open_group(const char *spec)
{
	struct perfev_evlist *el = perfev_evlist__new();
	/* Opened disabled and enabled once the whole group exists, so that every member counts. */
	struct perfev_open_opts o = { .sz = sizeof(o), .pid = 0, .start_disabled = true };

	if (!el)
		return NULL;
	if (perfev_evlist__add_events(el, spec) || perfev_evlist__open(el, &o)) {
		perfev_evlist__delete(el);
		return NULL;
	}
	return el;
}

int main(int argc, char **argv)
{
	const char *hw = "{instructions:u,cycles:u,cache-misses:u}";
	const char *sw = "{task-clock,page-faults,context-switches}";
	int calls = argc > 1 ? atoi(argv[1]) : 200;
	size_t n = 1 << 16;
	uint32_t *small = calloc(n / 16, sizeof(*small)), *big = calloc(n * 16, sizeof(*big));
	struct perfev_evlist *el;
	struct perfev_selfmon *sm;
	struct perfev_regions *rs;
	struct perfev_region *r[NR_REGIONS];
	uint64_t sink = 0;
	int ret = 1;

	if (!small || !big || calls <= 0) {
		fprintf(stderr, "usage: %s [calls > 0]\n", argv[0]);
		return 1;
	}
	el = open_group(hw);
	if (!el) {
		printf("hardware counters unavailable: %s\n", perfev_last_error());
		printf("measuring software events instead: %s\n\n", sw);
		el = open_group(sw);
		if (!el) {
			fprintf(stderr, "selfmon_region: %s\n", perfev_last_error());
			return 1;
		}
	}
	sm = perfev_selfmon__new_evsel(perfev_evlist__next_evsel(el, NULL), NULL);
	if (!sm) {
		fprintf(stderr, "selfmon_region: %s\n", perfev_last_error());
		goto out_el;
	}
	printf("read path: %s%s%s\n", perfev_selfmon_path__name(perfev_selfmon__path(sm)),
	       perfev_selfmon__path(sm) == PERFEV_SELFMON_RDPMC ? "" : " because ",
	       perfev_selfmon__path_reason(sm));

	/* Everything the regions need is allocated here, before the measured loop. */
	rs = perfev_regions__new(sm, NR_REGIONS);
	if (!rs || !(r[0] = perfev_regions__add(rs, "fill_and_sum(64 KiB)")) ||
	    !(r[1] = perfev_regions__add(rs, "fill_and_sum(4 MiB)"))) {
		fprintf(stderr, "selfmon_region: %s\n", perfev_last_error());
		goto out_sm;
	}
	if (perfev_evlist__enable(el)) {
		fprintf(stderr, "selfmon_region: %s\n", perfev_last_error());
		goto out_rs;
	}
	for (int i = 0; i < calls; i++) {
		int err = perfev_region__start(r[0]);

		sink += fill_and_sum(small, n / 16, 16);
		err = err ? err : perfev_region__stop(r[0]);
		err = err ? err : perfev_region__start(r[1]);
		sink += fill_and_sum(big, n * 16, 16);
		err = err ? err : perfev_region__stop(r[1]);
		if (err) {
			fprintf(stderr, "selfmon_region: %s\n", perfev_last_error());
			goto out_rs;
		}
	}

	int nr = perfev_selfmon__nr(sm);
	struct perfev_evsel *ev;

	printf("\n%-22s %9s", "region", "calls");
	perfev_evlist__for_each_evsel(el, ev)
		printf(" %18s", perfev_evsel__name(ev));
	printf("   (per call, scaled)\n");
	for (int i = 0; i < NR_REGIONS; i++) {
		uint64_t k = perfev_region__intervals(r[i]);

		printf("%-22s %9llu", perfev_region__name(r[i]), (unsigned long long)k);
		for (int c = 0; c < nr; c++)
			printf(" %18.1f", (double)perfev_region__value(r[i], c) / (double)k);
		printf("\n");
	}

	struct perfev_selfmon_stats st;

	perfev_selfmon__stats(sm, &st);
	printf("\nreads: %llu in user space, %llu with read(2); %llu seqlock retries (checksum %llu)\n",
	       (unsigned long long)st.user_reads, (unsigned long long)st.syscall_reads,
	       (unsigned long long)st.retries, (unsigned long long)(sink & 0xffff));
	ret = 0;
out_rs:
	perfev_regions__delete(rs);
out_sm:
	perfev_selfmon__delete(sm);
out_el:
	perfev_evlist__delete(el);
	free(small);
	free(big);
	return ret;
}
