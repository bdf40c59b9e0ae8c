/* SPDX-License-Identifier: MIT */
/*
 * perfev stat --metric-only: the derived metrics alone, a column each under
 * its title, as perf prints them (rates and CPUs utilized left out, as perf).
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "stat_printer.h"

/* The metrics --metric-only shows: perf's, which leaves out rates and CPUs utilized. */
static bool metric_shown(const struct metric *m)
{
	return m->valid && !strstr(m->unit, "/sec") && !strstr(m->unit, "CPUs utilized");
}

/* A metric's title in --metric-only: "% of all branches" is said of its event, as perf. */
static void metric_title(const struct srow *r, const struct metric *m, char *buf, size_t size)
{
	if (strstr(m->unit, "of all"))
		snprintf(buf, size, "%s %s", perfev_evsel__name(r->ev), m->unit);
	else
		snprintf(buf, size, "%s", m->unit);
}

/* A line of --metric-only, built in memory so that it is written without trailing blanks. */
struct mline {
	char buf[4096];
	size_t len;
};

static void mput(struct mline *l, const char *fmt, ...) PRINTF_LIKE(2, 3);

static void mput(struct mline *l, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (l->len >= sizeof(l->buf))
		return;
	va_start(ap, fmt);
	n = vsnprintf(l->buf + l->len, sizeof(l->buf) - l->len, fmt, ap);
	va_end(ap);
	if (n > 0)
		l->len += (size_t)n < sizeof(l->buf) - l->len ? (size_t)n : sizeof(l->buf) - 1 - l->len;
}

static void mline_write(FILE *f, struct mline *l)
{
	while (l->len && l->buf[l->len - 1] == ' ')
		l->len--;
	fwrite(l->buf, 1, l->len, f);
	fputc('\n', f);
	l->len = 0;
}

/*
 * --metric-only: a line of titles (once), then per group a line of the
 * metrics' values, each in a column as wide as its title (20 at least, as perf).
 */
void stat_metric_only__print(struct stat_printer *pr, double elapsed_ns, const double *t_s)
{
	const char *s = pr->o.sep;
	bool csv = pr->o.fmt == STAT_FMT_CSV;
	char title[128];
	struct mline l = { .len = 0 };

	/* Every group has the same columns: the titles are the first group's. */
	if (!t_s || !pr->header_done) {
		bool any = false;

		if (t_s && !csv)
			mput(&l, "#           time ");
		if (pr->o.aggr != AGGR_GLOBAL && !csv)
			mput(&l, "      ");
		for (int e = 0; e < pr->nr_evs; e++) {
			const struct srow *r = &pr->rows[e * pr->nr_aggrs];
			struct metric m = stat_metric(pr, r, elapsed_ns);

			if (r->hidden || !metric_shown(&m))
				continue;
			metric_title(r, &m, title, sizeof(title));
			mput(&l, csv ? "%s%s" : "%s%20s", any ? (csv ? s : " ") : "", title);
			any = true;
		}
		mline_write(pr->out, &l);
		pr->header_done = true;
	}
	for (int a = 0; a < pr->nr_aggrs; a++) {
		bool any = false;

		/* CSV: the fields joined by the separator (any tells that one came before) */
		if (t_s) {
			mput(&l, csv ? "%.9f" : "%16.9f ", *t_s);
			any = csv;
		}
		/* the label alone: the CPUs of a group are not a metric */
		if (pr->o.aggr != AGGR_GLOBAL) {
			mput(&l, csv ? "%s%s" : "%s%-6s", any ? s : "", pr->aggrs[a].label);
			any = csv;
		}
		for (int e = 0; e < pr->nr_evs; e++) {
			const struct srow *r = &pr->rows[e * pr->nr_aggrs + a];
			struct metric m = stat_metric(pr, r, elapsed_ns);

			if (r->hidden || !metric_shown(&m))
				continue;
			metric_title(r, &m, title, sizeof(title));
			int w = (int)strlen(title) > 20 ? (int)strlen(title) : 20;

			if (csv)
				mput(&l, "%s%.3f", any ? s : "", m.val);
			else
				mput(&l, "%s%*.3f", any ? " " : "", w, m.val);
			any = true;
		}
		mline_write(pr->out, &l);
	}
}

void stat_metric_only__json(struct stat_printer *pr, struct perfev_json *j, double elapsed_ns)
{
	char title[128];

	perfev_json__arr_begin(j, "metrics");
	for (int a = 0; a < pr->nr_aggrs; a++) {
		for (int e = 0; e < pr->nr_evs; e++) {
			const struct srow *r = &pr->rows[e * pr->nr_aggrs + a];
			struct metric m = stat_metric(pr, r, elapsed_ns);

			if (r->hidden || !metric_shown(&m))
				continue;
			metric_title(r, &m, title, sizeof(title));
			perfev_json__obj_begin(j, NULL);
			stat_json_aggr(pr, j, r);
			perfev_json__str(j, "metric_unit", title);
			perfev_json__double(j, "metric_value", m.val);
			perfev_json__obj_end(j);
		}
	}
	perfev_json__arr_end(j);
}

