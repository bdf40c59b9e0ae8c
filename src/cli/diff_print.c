// SPDX-License-Identifier: MIT
/*
 * perfev diff's tables: as text in perf diff's layout (the baseline's share,
 * then for each other file its computed column, formula and period, then
 * the keys), or as JSON.  A row only in the other files is new (no
 * baseline); one only in the baseline is gone (no computed value).
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "diff.h"

static const char *const key_titles[NR_KEYS] = { "Command", "    Pid:Command", "    Tid:Command",
						 "Shared Object", "Symbol", "Source:Line" };
static const char *const key_json[NR_KEYS] = { "comm", "pid", "tid", "dso", "sym", "srcline" };

static const char *dso_text(const struct perfev_profile_frame *f)
{
	if (f->kernel)
		return PERFEV_KERNEL_DSO_NAME;
	return f->dso ? perfev_dso__short_name(f->dso) : PERFEV_UNKNOWN_NAME;
}

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

/* The thread and frame a row's keys are shown from. */
static void row_at(const struct diff_event *ev, const struct perfev_profile_diff_row *r,
		   const struct perfev_profile_thread **t, const struct perfev_profile_frame **f)
{
	const struct perfev_profile *p = ev->profiles[r->profile];
	const struct perfev_profile_entry *e =
		perfev_profile_table__entry(perfev_profile_diff__table(ev->d, r->profile), r->entry);

	*t = perfev_profile__thread(p, e->thread);
	*f = perfev_profile__frame(p, e->frame);
}

/* Key k's text for row r, into buf; json: without perf's "[.] " level. */
static const char *key_text(const struct diff_event *ev, const struct perfev_profile_diff_row *r,
			    enum report_key k, bool json, char *buf, size_t size)
{
	const struct perfev_profile_thread *t;
	const struct perfev_profile_frame *f;
	char name[1024];

	row_at(ev, r, &t, &f);
	switch (k) {
	case KEY_COMM:
		snprintf(buf, size, "%s", t->comm);
		break;
	case KEY_PID:
	case KEY_TID:
		snprintf(buf, size, json ? "%d:%s" : "%7d:%s", k == KEY_PID ? t->pid : t->tid, t->comm);
		break;
	case KEY_DSO:
		snprintf(buf, size, "%s", dso_text(f));
		break;
	case KEY_SYM: {
		const char *n = f->inline_name ? f->inline_name : f->sym ? f->sym->name : NULL;

		if (!n)
			n = perfev_profile_frame__name(f, name, sizeof(name));
		snprintf(buf, size, "%s%s%s", json ? "" : f->kernel ? "[k] " : "[.] ", n,
			 f->inline_name && !json ? " (inlined)" : "");
		break;
	}
	case KEY_SRCLINE:
		if (f->src.file)
			snprintf(buf, size, "%s:%" PRIu32, base_name(f->src.file), f->src.line);
		else if (f->sym && f->addr >= f->sym->start)
			snprintf(buf, size, "%s+%" PRIu64, f->sym->name, f->addr - f->sym->start);
		else
			snprintf(buf, size, "%s[%" PRIx64 "]", dso_text(f), f->addr);
		break;
	default:
		buf[0] = '\0';
	}
	return buf;
}

/* The value columns: each file's, in perf's order. */
enum vcol { V_BASELINE, V_BASE_PERIOD, V_COMPUTE, V_FORMULA, V_PERIOD };

struct col {
	enum vcol v;
	size_t file;
	int width;
	char title[64];
};

static const char *compute_title(enum perfev_diff_compute c)
{
	switch (c) {
	case PERFEV_DIFF_DELTA:
		return "Delta";
	case PERFEV_DIFF_RATIO:
		return "Ratio";
	case PERFEV_DIFF_WDIFF:
		return "Weighted diff";
	default:
		return "Delta Abs";
	}
}

static int compute_width(enum perfev_diff_compute c)
{
	return c == PERFEV_DIFF_RATIO || c == PERFEV_DIFF_WDIFF ? 14 : 7;
}

static void add_col(struct col *cols, int *n, enum vcol v, size_t file, const char *title, int width,
		    size_t nr)
{
	struct col *c = &cols[(*n)++];
	int len;

	c->v = v;
	c->file = file;
	if (nr > 2)
		snprintf(c->title, sizeof(c->title), "%s/%zu", title, file);
	else
		snprintf(c->title, sizeof(c->title), "%s", title);
	len = (int)strlen(c->title);
	c->width = width > len ? width : len;
}

static int value_cols(const struct diff_opts *o, size_t nr, struct col *cols)
{
	int n = 0;

	for (size_t i = 0; i < nr; i++) {
		if (!i) {
			add_col(cols, &n, V_BASELINE, 0, "Baseline", 0, nr);
			if (o->period)
				add_col(cols, &n, V_BASE_PERIOD, 0, "Base period", 14, nr);
			continue;
		}
		add_col(cols, &n, V_COMPUTE, i, compute_title(o->compute), compute_width(o->compute), nr);
		if (o->formula)
			add_col(cols, &n, V_FORMULA, i, "Formula", 70, nr);
		if (o->period)
			add_col(cols, &n, V_PERIOD, i, "Period", 14, nr);
	}
	return n;
}

/* Column c's text for row r into buf ("" for none). */
static const char *value_text(const struct diff_opts *o, const struct diff_event *ev,
			      const struct perfev_profile_diff_row *r, const struct col *c, char *buf,
			      size_t size)
{
	const struct perfev_profile_diff_cell *b = &r->cells[0], *x = &r->cells[c->file];

	buf[0] = '\0';
	switch (c->v) {
	case V_BASELINE:
		if (b->period)
			snprintf(buf, size, o->field_sep ? "%.2f" : "%6.2f%%", b->share);
		break;
	case V_BASE_PERIOD:
		snprintf(buf, size, "%" PRIu64, b->period);
		break;
	case V_PERIOD:
		if (x->period)
			snprintf(buf, size, "%" PRIu64, x->period);
		break;
	case V_COMPUTE:
		if (!x->period)
			break;
		if (o->compute == PERFEV_DIFF_DELTA || o->compute == PERFEV_DIFF_DELTA_ABS)
			snprintf(buf, size, "%+4.2F%%", x->delta);
		else if (!b->period)
			snprintf(buf, size, "N/A");
		else if (o->compute == PERFEV_DIFF_RATIO)
			snprintf(buf, size, "%14.6F", x->ratio);
		else if (x->wdiff)
			snprintf(buf, size, "%14" PRId64, x->wdiff);
		break;
	case V_FORMULA:
		if (!x->period)
			break;
		if (o->compute == PERFEV_DIFF_RATIO)
			snprintf(buf, size, "%" PRIu64 " / %" PRIu64, x->period, b->period);
		else if (o->compute == PERFEV_DIFF_WDIFF)
			snprintf(buf, size, "(%" PRIu64 " * %" PRId64 ") - (%" PRIu64 " * %" PRId64 ")",
				 x->period, o->w2, b->period, o->w1);
		else
			snprintf(buf, size, "(%" PRIu64 " * 100 / %" PRIu64 ") - (%" PRIu64 " * 100 / %" PRIu64 ")",
				 x->period, perfev_profile_diff__total(ev->d, c->file), b->period,
				 perfev_profile_diff__total(ev->d, 0));
		break;
	}
	return buf;
}

/* Every character of the separator in s becomes '.', as perf's -t does. */
static void unsep(char *s, const char *sep)
{
	for (; sep && *s; s++)
		if (*s == *sep)
			*s = '.';
}

/* Whether a filter of exactly one item makes key k's column say nothing (perf elides it). */
static bool one_item(const char *list)
{
	return list && *list && !strchr(list, ',');
}

static bool elided(const struct diff_opts *o, enum report_key k)
{
	return (k == KEY_COMM && one_item(o->comms)) || (k == KEY_DSO && one_item(o->dsos)) ||
	       (k == KEY_SYM && one_item(o->syms));
}

/* The key columns shown, in order; their number. */
static int key_cols(const struct diff_opts *o, enum report_key *keys)
{
	int n = 0;

	for (int k = 0; k < o->nr_keys; k++)
		if (!elided(o, o->keys[k]))
			keys[n++] = o->keys[k];
	if (n)
		return n;
	memcpy(keys, o->keys, (size_t)o->nr_keys * sizeof(*keys));
	return o->nr_keys;
}

void diff_print_text(FILE *f, const struct diff_opts *o, const struct diff_event *ev,
		     struct diff_file *files, size_t nr, bool first)
{
	struct col cols[3 * 64];
	enum report_key keys[NR_KEYS];
	int nc = value_cols(o, nr, cols), nk = key_cols(o, keys), kw[NR_KEYS];
	size_t rows = perfev_profile_diff__nr_rows(ev->d);
	const char *sep = o->field_sep, *gap = sep ? sep : "  ";
	char buf[2048];

	fprintf(f, "%s# Event '%s'\n#\n", first ? "" : "\n", ev->name);
	if (o->verbose || nr > 2) {
		fputs("# Data files:\n", f);
		for (size_t i = 0; i < nr; i++)
			fprintf(f, "#  [%zu] %s %s\n", i, files[i].path, i ? "" : "(Baseline)");
		fputs("#\n", f);
	}
	for (int k = 0; k < nk; k++) {
		kw[k] = (int)strlen(key_titles[keys[k]]);
		for (size_t i = 0; i < rows; i++) {
			int w = (int)strlen(key_text(ev, perfev_profile_diff__row(ev->d, i), keys[k], false,
						     buf, sizeof(buf)));

			if (w > kw[k])
				kw[k] = w;
		}
	}
	/* The titles, then dots under them (perf's header); with -t, the titles alone. */
	fputs("# ", f);
	for (int c = 0; c < nc; c++)
		fprintf(f, "%s%*s", c ? gap : "", cols[c].width, cols[c].title);
	for (int k = 0; k < nk; k++)
		fprintf(f, "%s%-*s", gap, kw[k], key_titles[keys[k]]);
	fputc('\n', f);
	if (!sep) {
		fputs("# ", f);
		for (int c = 0; c < nc; c++)
			for (int w = -2 * !!c; w < cols[c].width; w++)
				fputc(w < 0 ? ' ' : '.', f);
		for (int k = 0; k < nk; k++)
			for (int w = -2; w < kw[k]; w++)
				fputc(w < 0 ? ' ' : '.', f);
		fputs("\n#\n", f);
	}
	for (size_t i = 0; i < rows; i++) {
		const struct perfev_profile_diff_row *r = perfev_profile_diff__row(ev->d, i);

		if (!sep)
			fputs("  ", f);
		/* perf's -t: each value left in its column's width; else right-aligned. */
		for (int c = 0; c < nc; c++)
			fprintf(f, sep ? "%s%-*s" : "%s%*s", c ? gap : "", cols[c].width,
				value_text(o, ev, r, &cols[c], buf, sizeof(buf)));
		for (int k = 0; k < nk; k++) {
			/* The function and source line are not padded, the others are: perf's columns. */
			bool pad = k < nk - 1 || (keys[k] != KEY_SYM && keys[k] != KEY_SRCLINE);

			key_text(ev, r, keys[k], false, buf, sizeof(buf));
			unsep(buf, sep);
			fprintf(f, "%s%-*s", gap, pad ? kw[k] : 0, buf);
		}
		fputc('\n', f);
	}
}

static void json_cell(struct perfev_json *j, const struct diff_opts *o,
		      const struct perfev_profile_diff_row *r, size_t i)
{
	const struct perfev_profile_diff_cell *c = &r->cells[i];

	perfev_json__obj_begin(j, NULL);
	perfev_json__u64(j, "period", c->period);
	perfev_json__u64(j, "samples", c->samples);
	perfev_json__double(j, "share", c->share);
	if (i && c->period) {
		perfev_json__double(j, "delta", c->delta);
		if (r->cells[0].period) {
			perfev_json__double(j, "ratio", c->ratio);
			if (o->compute == PERFEV_DIFF_WDIFF)
				perfev_json__i64(j, "wdiff", c->wdiff);
		}
	}
	perfev_json__obj_end(j);
}

static const char *status(const struct perfev_profile_diff_row *r, size_t nr)
{
	bool other = false;

	for (size_t i = 1; i < nr; i++)
		other |= r->cells[i].period != 0;
	return !r->cells[0].period ? "new" : other ? "both" : "gone";
}

static const char *compute_name(const struct diff_opts *o)
{
	switch (o->compute) {
	case PERFEV_DIFF_DELTA:
		return "delta";
	case PERFEV_DIFF_RATIO:
		return "ratio";
	case PERFEV_DIFF_WDIFF:
		return "wdiff";
	default:
		return "delta-abs";
	}
}

void diff_print_json(struct perfev_json *j, const struct diff_opts *o, const struct diff_event *evs,
		     size_t nr_evs, struct diff_file *files, size_t nr)
{
	char buf[2048];

	perfev_json__obj_begin(j, NULL);
	perfev_json__arr_begin(j, "files");
	for (size_t i = 0; i < nr; i++)
		perfev_json__str(j, NULL, files[i].path);
	perfev_json__arr_end(j);
	perfev_json__str(j, "compute", compute_name(o));
	if (o->compute == PERFEV_DIFF_WDIFF) {
		perfev_json__i64(j, "w1", o->w1);
		perfev_json__i64(j, "w2", o->w2);
	}
	perfev_json__arr_begin(j, "keys");
	for (int k = 0; k < o->nr_keys; k++)
		perfev_json__str(j, NULL, key_json[o->keys[k]]);
	perfev_json__arr_end(j);
	perfev_json__arr_begin(j, "events");
	for (size_t e = 0; e < nr_evs; e++) {
		const struct diff_event *ev = &evs[e];

		perfev_json__obj_begin(j, NULL);
		perfev_json__str(j, "event", ev->name);
		perfev_json__arr_begin(j, "totals");
		for (size_t i = 0; i < nr; i++)
			perfev_json__u64(j, NULL, perfev_profile_diff__total(ev->d, i));
		perfev_json__arr_end(j);
		perfev_json__arr_begin(j, "rows");
		for (size_t i = 0; i < perfev_profile_diff__nr_rows(ev->d); i++) {
			const struct perfev_profile_diff_row *r = perfev_profile_diff__row(ev->d, i);

			perfev_json__obj_begin(j, NULL);
			for (int k = 0; k < o->nr_keys; k++)
				perfev_json__str(j, key_json[o->keys[k]],
						 key_text(ev, r, o->keys[k], true, buf, sizeof(buf)));
			perfev_json__str(j, "status", status(r, nr));
			perfev_json__arr_begin(j, "files");
			for (size_t f = 0; f < nr; f++)
				json_cell(j, o, r, f);
			perfev_json__arr_end(j);
			perfev_json__obj_end(j);
		}
		perfev_json__arr_end(j);
		perfev_json__obj_end(j);
	}
	perfev_json__arr_end(j);
	perfev_json__obj_end(j);
}
