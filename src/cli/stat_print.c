/* SPDX-License-Identifier: MIT */
/* perfev stat's output: human, CSV and JSON, with derived metrics and run statistics. */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "perfev/perfev.h"
#include "stat_print.h"

struct srow {
	struct perfev_evsel *ev;
	bool hidden;		 /* an unsupported event of the default set */
	int nruns;		 /* runs in which it counted */
	double sum, sumsq;	 /* of the scaled per-run values */
	uint64_t ena, run;	 /* summed over runs, for the multiplexing percentage */
	struct perfev_counts prev; /* for interval deltas */
	/* the values being printed now */
	double val;
	bool counted;
	double pct_running;
};

struct stat_printer {
	struct perfev_evlist *el;
	FILE *out;
	enum stat_format fmt;
	const char *sep;
	char **argv;
	long pid;
	bool default_set;
	struct srow *rows;
	int nr;
	int runs;
	double elapsed_sum, elapsed_sumsq;
	double user_s, sys_s;
	int64_t cur_elapsed;
};

void fmt_thousands(char *buf, size_t size, uint64_t v)
{
	char tmp[32];
	int n = snprintf(tmp, sizeof(tmp), "%llu", (unsigned long long)v), o = 0;

	for (int i = 0; i < n && (size_t)o + 2 < size; i++) {
		if (i && (n - i) % 3 == 0)
			buf[o++] = ',';
		buf[o++] = tmp[i];
	}
	buf[o] = '\0';
}

struct stat_printer *stat_printer__new(struct perfev_evlist *el, FILE *out, enum stat_format fmt,
				       const char *sep, char **argv, long pid, bool default_set)
{
	struct stat_printer *pr = calloc(1, sizeof(*pr));
	struct perfev_evsel *ev;
	int i = 0;

	if (!pr)
		return NULL;
	pr->el = el;
	pr->out = out;
	pr->fmt = fmt;
	pr->sep = sep;
	pr->argv = argv;
	pr->pid = pid;
	pr->default_set = default_set;
	pr->nr = perfev_evlist__nr_evsels(el);
	pr->rows = calloc((size_t)pr->nr + 1, sizeof(*pr->rows));
	if (!pr->rows) {
		free(pr);
		return NULL;
	}
	perfev_evlist__for_each_evsel(el, ev)
		pr->rows[i++].ev = ev;
	return pr;
}

void stat_printer__set_output(struct stat_printer *pr, FILE *out)
{
	pr->out = out;
}

void stat_printer__delete(struct stat_printer *pr)
{
	if (!pr)
		return;
	free(pr->rows);
	free(pr);
}

int stat_printer__check_supported(struct stat_printer *pr, bool verbose)
{
	char missing[512] = "";
	const char *why = NULL;
	size_t len = 0;
	int usable = 0;

	for (int i = 0; i < pr->nr; i++) {
		struct srow *r = &pr->rows[i];

		if (!perfev_evsel__open_status(r->ev)) {
			usable++;
			continue;
		}
		if (pr->default_set) {
			r->hidden = true;
			if (len < sizeof(missing))
				len += (size_t)snprintf(missing + len, sizeof(missing) - len, "%s%s",
							len ? ", " : "", perfev_evsel__name(r->ev));
			if (!why)
				why = perfev_evsel__open_error(r->ev);
		} else if (verbose) {
			cli_note("%s", perfev_evsel__open_error(r->ev));
		}
	}
	if (why) {
		cli_note("note: %s cannot be counted here; counting the software events only", missing);
		if (verbose)
			cli_note("%s", why);
	}
	if (!usable) {
		if (pr->nr == 1)
			cli_error("%s", perfev_evsel__open_error(pr->rows[0].ev));
		else
			cli_error("none of the events can be counted here; first: %s",
				  perfev_evsel__open_error(pr->rows[0].ev));
		return -1;
	}
	return 0;
}

void stat_printer__start_run(struct stat_printer *pr)
{
	for (int i = 0; i < pr->nr; i++)
		memset(&pr->rows[i].prev, 0, sizeof(pr->rows[i].prev));
}

static bool same_modifiers(const struct perf_event_attr *a, const struct perf_event_attr *b)
{
	return a->exclude_user == b->exclude_user && a->exclude_kernel == b->exclude_kernel &&
	       a->exclude_hv == b->exclude_hv && a->exclude_guest == b->exclude_guest;
}

/* The row counting (type, config) with the same modifiers as like, if counted. */
static const struct srow *find_row(const struct stat_printer *pr, const struct perfev_evsel *like,
				   uint32_t type, uint64_t config)
{
	const struct perf_event_attr *la = perfev_evsel__attr((struct perfev_evsel *)like);

	for (int i = 0; i < pr->nr; i++) {
		const struct srow *r = &pr->rows[i];
		const struct perf_event_attr *a = perfev_evsel__attr(r->ev);

		if (!r->hidden && r->counted && a->type == type && a->config == config &&
		    same_modifiers(a, la))
			return r;
	}
	return NULL;
}

static bool is_clock(const struct perf_event_attr *a)
{
	return a->type == PERF_TYPE_SOFTWARE &&
	       (a->config == PERF_COUNT_SW_TASK_CLOCK || a->config == PERF_COUNT_SW_CPU_CLOCK);
}

struct metric {
	double val;
	char unit[64];
	bool valid;
};

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
	const struct srow *o = find_row(pr, r->ev, type, config);

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
	const struct srow *o = find_row(pr, r->ev, PERF_TYPE_HW_CACHE,
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
static struct metric compute_metric(const struct stat_printer *pr, const struct srow *r,
				    double elapsed_ns)
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
	if (is_clock(a)) {
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

/* Relative standard deviation of the mean, in percent, as perf stat -r shows it. */
static double rel_stddev(double sum, double sumsq, int n)
{
	double mean, var;

	if (n < 2 || sum == 0)
		return 0;
	mean = sum / n;
	var = (sumsq - n * mean * mean) / (n - 1);
	if (var < 0)
		var = 0;
	return 100.0 * sqrt(var / n) / mean;
}

static void print_command(FILE *f, char **argv)
{
	for (int i = 0; argv[i]; i++) {
		if (i)
			fputc(' ', f);
		/* Control bytes in a command line would garble the terminal. */
		for (const unsigned char *s = (const unsigned char *)argv[i]; *s; s++)
			fputc(*s < 0x20 || *s == 0x7f ? '?' : *s, f);
	}
}

static void print_human_row(struct stat_printer *pr, const struct srow *r, double elapsed_ns,
			    double stddev, const char *prefix)
{
	FILE *f = pr->out;
	const char *name = perfev_evsel__name(r->ev);
	const struct perf_event_attr *a = perfev_evsel__attr(r->ev);
	char num[48];

	fputs(prefix, f);
	if (perfev_evsel__open_status(r->ev)) {
		fprintf(f, "%18s      %-34s\n", "<not supported>", name);
		return;
	}
	if (!r->counted) {
		fprintf(f, "%18s      %-34s\n", "<not counted>", name);
		return;
	}
	if (is_clock(a)) {
		snprintf(num, sizeof(num), "%.2f", r->val / 1e6);
		fprintf(f, "%18s msec %-34s", num, name);
	} else {
		fmt_thousands(num, sizeof(num), (uint64_t)llround(r->val));
		fprintf(f, "%18s      %-34s", num, name);
	}
	struct metric m = compute_metric(pr, r, elapsed_ns);

	bool more = pr->runs > 1 || r->pct_running < 99.995;

	/* Columns are padded only when something follows them: no trailing blanks. */
	if (m.valid)
		fprintf(f, more ? " # %8.3f %-22s" : " # %8.3f %s", m.val, m.unit);
	else if (more)
		fprintf(f, "   %8s %-22s", "", "");
	if (pr->runs > 1)
		fprintf(f, " ( +- %5.2f%% )", stddev);
	if (r->pct_running < 99.995)
		fprintf(f, " (%.2f%%)", r->pct_running);
	fputc('\n', f);
}

static void print_csv_row(struct stat_printer *pr, const struct srow *r, double elapsed_ns,
			  double stddev, const double *t_s)
{
	FILE *f = pr->out;
	const char *s = pr->sep;
	const struct perf_event_attr *a = perfev_evsel__attr(r->ev);
	struct metric m = compute_metric(pr, r, elapsed_ns);

	if (t_s)
		fprintf(f, "%.9f%s", *t_s, s);
	if (perfev_evsel__open_status(r->ev))
		fprintf(f, "<not supported>%s", s);
	else if (!r->counted)
		fprintf(f, "<not counted>%s", s);
	else if (is_clock(a))
		fprintf(f, "%.2f%s", r->val / 1e6, s);
	else
		fprintf(f, "%.0f%s", r->val, s);
	fprintf(f, "%s%s%s%s%llu%s%.2f%s", is_clock(a) ? "msec" : "", s, perfev_evsel__name(r->ev), s,
		(unsigned long long)(r->counted ? r->run : 0), s, r->counted ? r->pct_running : 0.0,
		s);
	if (m.valid)
		fprintf(f, "%.3f%s%s", m.val, s, m.unit);
	else
		fprintf(f, "%s", s);
	if (pr->runs > 1)
		fprintf(f, "%s%.2f", s, stddev);
	fputc('\n', f);
}

static void json_row(struct stat_printer *pr, struct perfev_json *j, const struct srow *r,
		     double elapsed_ns, double stddev)
{
	const struct perf_event_attr *a = perfev_evsel__attr(r->ev);
	bool supported = !perfev_evsel__open_status(r->ev);
	struct metric m = compute_metric(pr, r, elapsed_ns);

	perfev_json__obj_begin(j, NULL);
	perfev_json__str(j, "event", perfev_evsel__name(r->ev));
	perfev_json__bool(j, "supported", supported);
	perfev_json__bool(j, "counted", supported && r->counted);
	if (supported && r->counted)
		perfev_json__double(j, "value", is_clock(a) ? r->val / 1e6 : r->val);
	else
		perfev_json__null(j, "value");
	perfev_json__str(j, "unit", is_clock(a) ? "msec" : "");
	perfev_json__u64(j, "running_ns", r->run);
	perfev_json__double(j, "pct_running", r->counted ? r->pct_running : 0.0);
	if (m.valid) {
		perfev_json__double(j, "metric_value", m.val);
		perfev_json__str(j, "metric_unit", m.unit);
	}
	if (pr->runs > 1)
		perfev_json__double(j, "stddev_pct", stddev);
	if (!supported)
		perfev_json__str(j, "error", perfev_evsel__open_error(r->ev));
	perfev_json__obj_end(j);
}

void stat_printer__interval(struct stat_printer *pr, uint64_t t_ns)
{
	double t_s = (double)t_ns / 1e9;
	struct perfev_json *j;
	char prefix[32];
	static bool header_done;

	for (int i = 0; i < pr->nr; i++) {
		struct srow *r = &pr->rows[i];
		struct perfev_counts c, d;

		if (r->hidden || perfev_evsel__open_status(r->ev) ||
		    perfev_evsel__counts_total(r->ev, &c))
			continue;
		d.val = c.val - r->prev.val;
		d.ena = c.ena - r->prev.ena;
		d.run = c.run - r->prev.run;
		r->prev = c;
		r->counted = d.run > 0;
		r->val = (double)perfev_scale(d.val, d.ena, d.run);
		r->run = d.run;
		r->pct_running = perfev_counts__running_pct(&d);
	}
	/* The interval's elapsed time is the time base for its rates. */
	double span = pr->cur_elapsed ? (double)(t_ns - (uint64_t)pr->cur_elapsed) : (double)t_ns;

	pr->cur_elapsed = (int64_t)t_ns;
	if (pr->fmt == STAT_FMT_JSON && (j = perfev_json__new(pr->out, 0))) {
		perfev_json__obj_begin(j, NULL);
		perfev_json__double(j, "interval_s", t_s);
		perfev_json__arr_begin(j, "events");
		for (int i = 0; i < pr->nr; i++)
			if (!pr->rows[i].hidden)
				json_row(pr, j, &pr->rows[i], span, 0);
		perfev_json__arr_end(j);
		perfev_json__obj_end(j);
		cli_json_done(j, pr->out);
	} else if (pr->fmt == STAT_FMT_CSV) {
		for (int i = 0; i < pr->nr; i++)
			if (!pr->rows[i].hidden)
				print_csv_row(pr, &pr->rows[i], span, 0, &t_s);
	} else {
		if (!header_done)
			fprintf(pr->out, "#           time             counts unit events\n");
		header_done = true;
		snprintf(prefix, sizeof(prefix), "%16.9f", t_s);
		for (int i = 0; i < pr->nr; i++)
			if (!pr->rows[i].hidden)
				print_human_row(pr, &pr->rows[i], span, 0, prefix);
	}
}

void stat_printer__end_run(struct stat_printer *pr, uint64_t elapsed_ns, const struct rusage *ru,
			   bool summary)
{
	if (!summary) {
		/* Interval mode: the time since the last interval is one more interval. */
		stat_printer__interval(pr, elapsed_ns);
		pr->cur_elapsed = 0;
		pr->runs = -1; /* nothing to summarise */
		return;
	}
	pr->runs++;
	pr->elapsed_sum += (double)elapsed_ns;
	pr->elapsed_sumsq += (double)elapsed_ns * (double)elapsed_ns;
	pr->user_s += (double)ru->ru_utime.tv_sec + ru->ru_utime.tv_usec / 1e6;
	pr->sys_s += (double)ru->ru_stime.tv_sec + ru->ru_stime.tv_usec / 1e6;
	for (int i = 0; i < pr->nr; i++) {
		struct srow *r = &pr->rows[i];
		struct perfev_counts c;

		if (r->hidden || perfev_evsel__open_status(r->ev) ||
		    perfev_evsel__counts_total(r->ev, &c) || !c.run)
			continue;
		double v = (double)perfev_counts__scaled(&c);

		r->nruns++;
		r->sum += v;
		r->sumsq += v * v;
		r->ena += c.ena;
		r->run += c.run;
	}
}

/* Each row's mean over the runs, and the share of the time it was counted. */
static void average_runs(struct stat_printer *pr)
{
	for (int i = 0; i < pr->nr; i++) {
		struct srow *r = &pr->rows[i];
		struct perfev_counts c = { .ena = r->ena, .run = r->run };

		r->counted = r->nruns > 0;
		r->val = r->nruns ? r->sum / r->nruns : 0;
		r->pct_running = perfev_counts__running_pct(&c);
	}
}

static double row_stddev(const struct srow *r)
{
	return rel_stddev(r->sum, r->sumsq, r->nruns);
}

static void finish_json(struct stat_printer *pr, double elapsed)
{
	int n = pr->runs;
	struct perfev_json *j = perfev_json__new(pr->out, 0);

	if (!j)
		return;
	perfev_json__obj_begin(j, NULL);
	if (pr->argv[0]) {
		perfev_json__arr_begin(j, "command");
		for (int i = 0; pr->argv[i]; i++)
			perfev_json__str(j, NULL, pr->argv[i]);
		perfev_json__arr_end(j);
	} else if (pr->pid > 0) {
		perfev_json__i64(j, "pid", pr->pid);
	}
	perfev_json__i64(j, "runs", n);
	perfev_json__arr_begin(j, "events");
	for (int i = 0; i < pr->nr; i++)
		if (!pr->rows[i].hidden)
			json_row(pr, j, &pr->rows[i], elapsed, row_stddev(&pr->rows[i]));
	perfev_json__arr_end(j);
	perfev_json__double(j, "elapsed_s", elapsed / 1e9);
	if (n > 1)
		perfev_json__double(j, "elapsed_stddev_pct", rel_stddev(pr->elapsed_sum, pr->elapsed_sumsq, n));
	perfev_json__double(j, "user_s", pr->user_s / n);
	perfev_json__double(j, "sys_s", pr->sys_s / n);
	perfev_json__obj_end(j);
	cli_json_done(j, pr->out);
}

static void finish_csv(struct stat_printer *pr, double elapsed)
{
	for (int i = 0; i < pr->nr; i++)
		if (!pr->rows[i].hidden)
			print_csv_row(pr, &pr->rows[i], elapsed, row_stddev(&pr->rows[i]), NULL);
}

/* " Performance counter stats for 'COMMAND' (N runs):" and the blank lines around it. */
static void print_human_title(struct stat_printer *pr)
{
	FILE *f = pr->out;

	fputs("\n Performance counter stats for ", f);
	if (pr->argv[0]) {
		fputc('\'', f);
		print_command(f, pr->argv);
		fputc('\'', f);
	} else if (pr->pid > 0) {
		fprintf(f, "process id '%ld'", pr->pid);
	} else {
		fputs("'system wide'", f);
	}
	if (pr->runs > 1)
		fprintf(f, " (%d runs)", pr->runs);
	fputs(":\n\n", f);
}

static void finish_human(struct stat_printer *pr, double elapsed)
{
	FILE *f = pr->out;
	int n = pr->runs;

	print_human_title(pr);
	for (int i = 0; i < pr->nr; i++)
		if (!pr->rows[i].hidden)
			print_human_row(pr, &pr->rows[i], elapsed, row_stddev(&pr->rows[i]), "");
	fprintf(f, "\n %18.9f seconds time elapsed", elapsed / 1e9);
	if (n > 1)
		fprintf(f, "  ( +- %5.2f%% )", rel_stddev(pr->elapsed_sum, pr->elapsed_sumsq, n));
	fputs("\n\n", f);
	if (pr->argv[0]) {
		fprintf(f, " %18.9f seconds user\n", pr->user_s / n);
		fprintf(f, " %18.9f seconds sys\n\n", pr->sys_s / n);
	}
}

void stat_printer__finish(struct stat_printer *pr)
{
	double elapsed;

	if (pr->runs <= 0)
		return;
	elapsed = pr->elapsed_sum / pr->runs;
	average_runs(pr);
	if (pr->fmt == STAT_FMT_JSON)
		finish_json(pr, elapsed);
	else if (pr->fmt == STAT_FMT_CSV)
		finish_csv(pr, elapsed);
	else
		finish_human(pr, elapsed);
}
