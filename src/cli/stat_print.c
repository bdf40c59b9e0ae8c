/* SPDX-License-Identifier: MIT */
/* perfev stat's output: human, CSV and JSON, with run statistics; the rows of each group in turn. */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "stat_printer.h"

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

struct stat_printer *stat_printer__new(struct perfev_evlist *el, FILE *out,
				       const struct stat_print_opts *o)
{
	struct stat_printer *pr = calloc(1, sizeof(*pr));

	if (!pr)
		return NULL;
	pr->el = el;
	pr->out = out;
	pr->o = *o;
	pr->nr_evs = perfev_evlist__nr_evsels(el);
	pr->nr_aggrs = 1;
	pr->aggrs = calloc(1, sizeof(*pr->aggrs));
	if (!pr->aggrs || stat_rows__make(pr)) {
		stat_printer__delete(pr);
		return NULL;
	}
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
	free(pr->aggrs);
	free(pr->cell_aggr);
	free(pr);
}

int stat_printer__check_supported(struct stat_printer *pr, bool verbose)
{
	char missing[512] = "";
	const char *why = NULL;
	size_t len = 0;
	int usable = 0;
	struct perfev_evsel *first = NULL, *ev;

	if (stat_aggrs__make(pr))
		return -1;
	perfev_evlist__for_each_evsel(pr->el, ev) {
		first = first ? first : ev;
		if (!perfev_evsel__open_status(ev)) {
			usable++;
			continue;
		}
		/* -d shows every event, those that cannot be counted too, as perf does */
		if (pr->o.default_set && !pr->o.detailed) {
			for (int i = 0; i < pr->nr; i++)
				if (pr->rows[i].ev == ev)
					pr->rows[i].hidden = true;
			if (len < sizeof(missing))
				len += (size_t)snprintf(missing + len, sizeof(missing) - len, "%s%s",
							len ? ", " : "", perfev_evsel__name(ev));
			if (!why)
				why = perfev_evsel__open_error(ev);
		} else if (verbose) {
			cli_note("%s", perfev_evsel__open_error(ev));
		}
	}
	if (why) {
		cli_note("note: %s cannot be counted here; counting the software events only", missing);
		if (verbose)
			cli_note("%s", why);
	}
	if (!usable) {
		if (pr->nr_evs == 1)
			cli_error("%s", perfev_evsel__open_error(first));
		else
			cli_error("none of the events can be counted here; first: %s",
				  perfev_evsel__open_error(first));
		return -1;
	}
	return 0;
}

void stat_printer__start_run(struct stat_printer *pr)
{
	for (int i = 0; i < pr->nr; i++)
		memset(&pr->rows[i].prev, 0, sizeof(pr->rows[i].prev));
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

/* What a row's group is called at the start of its line, in perf's columns ("" for none). */
static void aggr_prefix(const struct stat_printer *pr, const struct srow *r, char *buf, size_t size)
{
	const struct aggr *g = &pr->aggrs[r->aggr];
	const char *s = pr->o.sep;

	*buf = '\0';
	if (pr->o.fmt == STAT_FMT_CSV) {
		if (pr->o.aggr == AGGR_NONE || pr->o.aggr == AGGR_THREAD)
			snprintf(buf, size, "%s%s", g->label, s);
		else if (pr->o.aggr != AGGR_GLOBAL)
			snprintf(buf, size, "%s%s%d%s", g->label, s, g->nr, s);
		return;
	}
	switch (pr->o.aggr) {
	case AGGR_NONE:
		snprintf(buf, size, "CPU%-7d ", g->cpu);
		break;
	case AGGR_THREAD:
		snprintf(buf, size, "%16s-%-8d ", g->comm, g->tid);
		break;
	case AGGR_CORE:
		snprintf(buf, size, "S%d-D%d-C%-8d %4d ", g->key[0], g->key[1], g->key[2], g->nr);
		break;
	case AGGR_DIE:
		snprintf(buf, size, "S%d-D%-8d %4d ", g->key[0], g->key[1], g->nr);
		break;
	case AGGR_SOCKET:
		snprintf(buf, size, "S%-5d %4d ", g->key[0], g->nr);
		break;
	case AGGR_NODE:
		snprintf(buf, size, "N%-5d %4d ", g->key[0], g->nr);
		break;
	default:
		break;
	}
}

static void print_human_row(struct stat_printer *pr, const struct srow *r, double elapsed_ns,
			    double stddev, const char *prefix)
{
	FILE *f = pr->out;
	const char *name = perfev_evsel__name(r->ev);
	const struct perf_event_attr *a = perfev_evsel__attr(r->ev);
	char num[48], group[128];

	aggr_prefix(pr, r, group, sizeof(group));
	fputs(prefix, f);
	fputs(group, f);
	/* The unit even without a count, as perf: "<not counted> msec task-clock". */
	if (perfev_evsel__open_status(r->ev) || !r->counted) {
		fprintf(f, "%18s %s %s\n", perfev_evsel__open_status(r->ev) ? "<not supported>" : "<not counted>",
			stat_is_clock(a) ? "msec" : "    ", name);
		return;
	}
	if (stat_is_clock(a)) {
		snprintf(num, sizeof(num), "%.2f", r->val / 1e6);
		fprintf(f, "%18s msec %-34s", num, name);
	} else {
		fmt_thousands(num, sizeof(num), (uint64_t)llround(r->val));
		fprintf(f, "%18s      %-34s", num, name);
	}
	struct metric m = stat_metric(pr, r, elapsed_ns);

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
	const char *s = pr->o.sep;
	const struct perf_event_attr *a = perfev_evsel__attr(r->ev);
	struct metric m = stat_metric(pr, r, elapsed_ns);
	char group[128];

	aggr_prefix(pr, r, group, sizeof(group));
	if (t_s)
		fprintf(f, "%.9f%s", *t_s, s);
	fputs(group, f);
	if (perfev_evsel__open_status(r->ev))
		fprintf(f, "<not supported>%s", s);
	else if (!r->counted)
		fprintf(f, "<not counted>%s", s);
	else if (stat_is_clock(a))
		fprintf(f, "%.2f%s", r->val / 1e6, s);
	else
		fprintf(f, "%.0f%s", r->val, s);
	/* A counter that never ran did not run 0% of the time it was enabled: perf says 100.00. */
	fprintf(f, "%s%s%s%s%llu%s%.2f%s", stat_is_clock(a) ? "msec" : "", s, perfev_evsel__name(r->ev), s,
		(unsigned long long)(r->counted ? r->run : 0), s, r->counted ? r->pct_running : 100.0,
		s);
	if (m.valid)
		fprintf(f, "%.3f%s%s", m.val, s, m.unit);
	else
		fprintf(f, "%s", s);
	if (pr->runs > 1)
		fprintf(f, "%s%.2f", s, stddev);
	fputc('\n', f);
}

/* The group of row r as JSON members: "cpu": 0, "core": "S0-D0-C1" with its CPUs, "thread": "comm-tid". */
void stat_json_aggr(const struct stat_printer *pr, struct perfev_json *j, const struct srow *r)
{
	static const char *const names[] = { [AGGR_CORE] = "core", [AGGR_DIE] = "die",
					     [AGGR_SOCKET] = "socket", [AGGR_NODE] = "node" };
	const struct aggr *g = &pr->aggrs[r->aggr];

	switch (pr->o.aggr) {
	case AGGR_GLOBAL:
		return;
	case AGGR_NONE:
		perfev_json__i64(j, "cpu", g->cpu);
		return;
	case AGGR_THREAD:
		perfev_json__str(j, "thread", g->label);
		perfev_json__i64(j, "tid", g->tid);
		return;
	default:
		perfev_json__str(j, names[pr->o.aggr], g->label);
		perfev_json__i64(j, "aggregate_number", g->nr);
		return;
	}
}

static void json_row(struct stat_printer *pr, struct perfev_json *j, const struct srow *r,
		     double elapsed_ns, double stddev)
{
	const struct perf_event_attr *a = perfev_evsel__attr(r->ev);
	bool supported = !perfev_evsel__open_status(r->ev);
	struct metric m = stat_metric(pr, r, elapsed_ns);

	perfev_json__obj_begin(j, NULL);
	stat_json_aggr(pr, j, r);
	perfev_json__str(j, "event", perfev_evsel__name(r->ev));
	perfev_json__bool(j, "supported", supported);
	perfev_json__bool(j, "counted", supported && r->counted);
	if (supported && r->counted)
		perfev_json__double(j, "value", stat_is_clock(a) ? r->val / 1e6 : r->val);
	else
		perfev_json__null(j, "value");
	perfev_json__str(j, "unit", stat_is_clock(a) ? "msec" : "");
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

/* The interval header, as perf's for each grouping. */
static const char *interval_header(enum stat_aggr aggr)
{
	switch (aggr) {
	case AGGR_NONE:
		return "#           time CPU                    counts unit events\n";
	case AGGR_THREAD:
		return "#           time             comm-pid                  counts unit events\n";
	case AGGR_CORE:
		return "#           time core            cpus             counts unit events\n";
	case AGGR_DIE:
		return "#           time die          cpus             counts unit events\n";
	case AGGR_SOCKET:
		return "#           time socket cpus             counts unit events\n";
	case AGGR_NODE:
		return "#           time node   cpus             counts unit events\n";
	default:
		return "#           time             counts unit events\n";
	}
}

void stat_printer__interval(struct stat_printer *pr, uint64_t t_ns)
{
	double t_s = (double)t_ns / 1e9;
	struct perfev_json *j;
	char prefix[32];
	int *order = calloc((size_t)pr->nr + 1, sizeof(*order)), n;

	if (!order)
		return;
	for (int i = 0; i < pr->nr; i++) {
		struct srow *r = &pr->rows[i];
		struct perfev_counts c, d;

		if (r->hidden || perfev_evsel__open_status(r->ev) || stat_row__counts(pr, r, &c))
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
	n = stat_rows__order(pr, order);
	if (pr->o.fmt == STAT_FMT_JSON && (j = perfev_json__new(pr->out, 0))) {
		perfev_json__obj_begin(j, NULL);
		perfev_json__double(j, "interval_s", t_s);
		if (pr->o.metric_only) {
			stat_metric_only__json(pr, j, span);
		} else {
			perfev_json__arr_begin(j, "events");
			for (int i = 0; i < n; i++)
				json_row(pr, j, &pr->rows[order[i]], span, 0);
			perfev_json__arr_end(j);
		}
		perfev_json__obj_end(j);
		cli_json_done(j, pr->out);
	} else if (pr->o.metric_only) {
		stat_metric_only__print(pr, span, &t_s);
	} else if (pr->o.fmt == STAT_FMT_CSV) {
		for (int i = 0; i < n; i++)
			print_csv_row(pr, &pr->rows[order[i]], span, 0, &t_s);
	} else {
		if (!pr->header_done)
			fputs(interval_header(pr->o.aggr), pr->out);
		pr->header_done = true;
		snprintf(prefix, sizeof(prefix), pr->o.aggr == AGGR_GLOBAL ? "%16.9f" : "%16.9f ", t_s);
		for (int i = 0; i < n; i++)
			print_human_row(pr, &pr->rows[order[i]], span, 0, prefix);
	}
	free(order);
}

void stat_printer__end_run(struct stat_printer *pr, uint64_t elapsed_ns, const struct rusage *ru,
			   bool summary)
{
	if (!summary) {
		/* Interval mode: the time since the last interval is one more interval. */
		if (elapsed_ns)
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

		if (r->hidden || perfev_evsel__open_status(r->ev) || stat_row__counts(pr, r, &c) || !c.run)
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

/* Whether the command is what was measured (not a bound on -p, -a or -C): its times are shown. */
static bool command_measured(const struct stat_printer *pr)
{
	return pr->o.argv[0] && pr->o.pid <= 0 && !pr->o.all_cpus && !pr->o.cpus;
}

static void finish_json(struct stat_printer *pr, double elapsed, const int *order, int nr)
{
	int n = pr->runs;
	struct perfev_json *j = perfev_json__new(pr->out, 0);

	if (!j)
		return;
	perfev_json__obj_begin(j, NULL);
	if (pr->o.argv[0]) {
		perfev_json__arr_begin(j, "command");
		for (int i = 0; pr->o.argv[i]; i++)
			perfev_json__str(j, NULL, pr->o.argv[i]);
		perfev_json__arr_end(j);
	}
	if (pr->o.pid > 0)
		perfev_json__i64(j, "pid", pr->o.pid);
	perfev_json__i64(j, "runs", n);
	if (pr->o.metric_only) {
		stat_metric_only__json(pr, j, elapsed);
	} else {
		perfev_json__arr_begin(j, "events");
		for (int i = 0; i < nr; i++)
			json_row(pr, j, &pr->rows[order[i]], elapsed, row_stddev(&pr->rows[order[i]]));
		perfev_json__arr_end(j);
	}
	perfev_json__double(j, "elapsed_s", elapsed / 1e9);
	if (n > 1)
		perfev_json__double(j, "elapsed_stddev_pct", rel_stddev(pr->elapsed_sum, pr->elapsed_sumsq, n));
	perfev_json__double(j, "user_s", pr->user_s / n);
	perfev_json__double(j, "sys_s", pr->sys_s / n);
	perfev_json__obj_end(j);
	cli_json_done(j, pr->out);
}

static void finish_csv(struct stat_printer *pr, double elapsed, const int *order, int nr)
{
	if (pr->o.metric_only) {
		stat_metric_only__print(pr, elapsed, NULL);
		return;
	}
	for (int i = 0; i < nr; i++)
		print_csv_row(pr, &pr->rows[order[i]], elapsed, row_stddev(&pr->rows[order[i]]), NULL);
}

/* " Performance counter stats for 'COMMAND' (N runs):" and the blank lines around it. */
static void print_human_title(struct stat_printer *pr)
{
	FILE *f = pr->out;

	/* What was measured, as perf names it: a command after -p, -a or -C only bounds it. */
	fputs("\n Performance counter stats for ", f);
	if (pr->o.pid > 0) {
		fprintf(f, "process id '%ld'", pr->o.pid);
	} else if (pr->o.cpus) {
		fputs("'CPU(s) ", f);
		print_command(f, (char *[]){ (char *)pr->o.cpus, NULL });
		fputc('\'', f);
	} else if (pr->o.all_cpus || !pr->o.argv[0]) {
		fputs("'system wide'", f);
	} else {
		fputc('\'', f);
		print_command(f, pr->o.argv);
		fputc('\'', f);
	}
	if (pr->runs > 1)
		fprintf(f, " (%d runs)", pr->runs);
	fputs(":\n\n", f);
}

static void finish_human(struct stat_printer *pr, double elapsed, const int *order, int nr)
{
	FILE *f = pr->out;
	int n = pr->runs;

	print_human_title(pr);
	if (pr->o.metric_only)
		stat_metric_only__print(pr, elapsed, NULL);
	else
		for (int i = 0; i < nr; i++)
			print_human_row(pr, &pr->rows[order[i]], elapsed, row_stddev(&pr->rows[order[i]]),
					"");
	fprintf(f, "\n %18.9f seconds time elapsed", elapsed / 1e9);
	if (n > 1)
		fprintf(f, "  ( +- %5.2f%% )", rel_stddev(pr->elapsed_sum, pr->elapsed_sumsq, n));
	fputs("\n\n", f);
	if (command_measured(pr)) {
		fprintf(f, " %18.9f seconds user\n", pr->user_s / n);
		fprintf(f, " %18.9f seconds sys\n\n", pr->sys_s / n);
	}
}

void stat_printer__finish(struct stat_printer *pr)
{
	double elapsed;
	int *order, nr;

	if (pr->runs <= 0)
		return;
	order = calloc((size_t)pr->nr + 1, sizeof(*order));
	if (!order) {
		cli_error("out of memory");
		return;
	}
	elapsed = pr->elapsed_sum / pr->runs;
	average_runs(pr);
	nr = stat_rows__order(pr, order);
	if (pr->o.fmt == STAT_FMT_JSON)
		finish_json(pr, elapsed, order, nr);
	else if (pr->o.fmt == STAT_FMT_CSV)
		finish_csv(pr, elapsed, order, nr);
	else
		finish_human(pr, elapsed, order, nr);
	free(order);
}
