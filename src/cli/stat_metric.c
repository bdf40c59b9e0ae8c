/* SPDX-License-Identifier: MIT */
/* perfev stat's derived metrics: CPUs utilized, rates, IPC, GHz, branch and cache miss ratios. */
#include <stdarg.h>
#include <stdio.h>

#include "cli.h"
#include "stat_printer.h"

static bool same_modifiers(const struct perf_event_attr *a, const struct perf_event_attr *b)
{
	return a->exclude_user == b->exclude_user && a->exclude_kernel == b->exclude_kernel &&
	       a->exclude_hv == b->exclude_hv && a->exclude_guest == b->exclude_guest;
}

/* The row counting (type, config) with the same modifiers as like, in its group, if counted. */
static const struct srow *find_row(const struct stat_printer *pr, const struct srow *like,
				   uint32_t type, uint64_t config)
{
	const struct perf_event_attr *la = perfev_evsel__attr(like->ev);

	for (int i = 0; i < pr->nr; i++) {
		const struct srow *r = &pr->rows[i];
		const struct perf_event_attr *a = perfev_evsel__attr(r->ev);

		if (!r->hidden && r->counted && r->aggr == like->aggr && a->type == type &&
		    a->config == config && same_modifiers(a, la))
			return r;
	}
	return NULL;
}

bool stat_is_clock(const struct perf_event_attr *a)
{
	return a->type == PERF_TYPE_SOFTWARE &&
	       (a->config == PERF_COUNT_SW_TASK_CLOCK || a->config == PERF_COUNT_SW_CPU_CLOCK);
}

static void set_metric(struct metric *m, double val, const char *unit_fmt, ...) PRINTF_LIKE(3, 4);

static void set_metric(struct metric *m, double val, const char *unit_fmt, ...)
{
	va_list ap;

	va_start(ap, unit_fmt);
	vsnprintf(m->unit, sizeof(m->unit), unit_fmt, ap);
	va_end(ap);
	m->val = val;
	m->valid = true;
}

/* The value of the row counting (type, config) with r's modifiers, when it is above zero; else 0. */
static double other_val(const struct stat_printer *pr, const struct srow *r, uint32_t type,
			uint64_t config)
{
	const struct srow *o = find_row(pr, r, type, config);

	return o && o->val > 0 ? o->val : 0;
}

/*
 * Hardware events against each other: instructions per cycle, GHz, branch
 * and cache miss ratios; false for the others, which get a rate.
 */
static bool hw_metric(const struct stat_printer *pr, const struct srow *r, double time_ns,
		      struct metric *m)
{
	double base;

	switch (perfev_evsel__attr(r->ev)->config) {
	case PERF_COUNT_HW_INSTRUCTIONS:
		base = other_val(pr, r, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES);
		if (base > 0)
			set_metric(m, r->val / base, "insn per cycle");
		return true;
	case PERF_COUNT_HW_CPU_CYCLES:
		if (time_ns > 0)
			set_metric(m, r->val / time_ns, "GHz");
		return true;
	case PERF_COUNT_HW_BRANCH_MISSES:
		base = other_val(pr, r, PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS);
		if (base > 0)
			set_metric(m, 100.0 * r->val / base, "%% of all branches");
		return true;
	case PERF_COUNT_HW_CACHE_MISSES:
		base = other_val(pr, r, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_REFERENCES);
		if (base > 0)
			set_metric(m, 100.0 * r->val / base, "%% of all cache refs");
		return true;
	default:
		return false;
	}
}

/* A cache event's misses against its accesses (the same cache and operation). */
static void cache_miss_metric(const struct stat_printer *pr, const struct srow *r, struct metric *m)
{
	uint64_t config = perfev_evsel__attr(r->ev)->config;
	uint64_t cache = config & 0xff, op = (config >> 8) & 0xff;
	const struct srow *o = find_row(pr, r, PERF_TYPE_HW_CACHE,
					cache | (op << 8) |
						((uint64_t)PERF_COUNT_HW_CACHE_RESULT_ACCESS << 16));

	/* The access event's own name says what the ratio is of: "% of all LLC-loads". */
	if (o && o->val > 0)
		set_metric(m, 100.0 * r->val / o->val, "%% of all %s", perfev_evsel__name(o->ev));
}

/* Events per second of time_ns, scaled to K, M or G. */
static void rate_metric(const struct srow *r, double time_ns, struct metric *m)
{
	double rate = r->val / (time_ns / 1e9);
	const char *pfx = "";

	if (rate >= 1e9)
		rate /= 1e9, pfx = "G";
	else if (rate >= 1e6)
		rate /= 1e6, pfx = "M";
	else if (rate >= 1e3)
		rate /= 1e3, pfx = "K";
	set_metric(m, rate, "%s/sec", pfx);
}

/* Derived figures where the events allow: CPUs utilized, rates, IPC, miss ratios. */
struct metric stat_metric(const struct stat_printer *pr, const struct srow *r, double elapsed_ns)
{
	const struct perf_event_attr *a = perfev_evsel__attr(r->ev);
	struct metric m = { 0 };
	double time_ns;

	if (!r->counted)
		return m;
	/* Rates per second of CPU time, as perf gives them, when task-clock is counted. */
	time_ns = other_val(pr, r, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK);
	if (!(time_ns > 0))
		time_ns = elapsed_ns;
	if (stat_is_clock(a)) {
		if (elapsed_ns > 0)
			set_metric(&m, r->val / elapsed_ns, "CPUs utilized");
		return m;
	}
	if (a->type == PERF_TYPE_HARDWARE && hw_metric(pr, r, time_ns, &m))
		return m;
	if (a->type == PERF_TYPE_HW_CACHE && ((a->config >> 16) & 0xff) == PERF_COUNT_HW_CACHE_RESULT_MISS) {
		cache_miss_metric(pr, r, &m);
		return m;
	}
	if (a->type == PERF_TYPE_SOFTWARE && a->config == PERF_COUNT_SW_DUMMY)
		return m;
	if (time_ns > 0)
		rate_metric(r, time_ns, &m);
	return m;
}

