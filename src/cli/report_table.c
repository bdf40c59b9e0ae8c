// SPDX-License-Identifier: MIT
/*
 * perfev report's table as text: the entries sorted by weight and then by
 * their keys, in perf's column layout, each followed by its call graph.  A
 * big profile has hundreds of thousands of entries (every unresolved address
 * is one), so the key texts are made once into a pool, sorting compares them
 * by pointer before bytes, and rows are written piece by piece instead of
 * through printf.
 */
#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "report.h"

static const char *const key_titles[NR_KEYS] = { "Command", "Pid:Command", "Tid:Command",
						 "Shared Object", "Symbol", "Source:Line" };

/* Key texts that the profile does not hold as strings, in blocks that never move. */
#define POOL_BLOCK 65536

struct text_pool {
	char **blocks;
	size_t nr, used; /* used: bytes taken of the last block */
};

static char *pool_alloc(struct text_pool *tp, size_t n)
{
	if (n > POOL_BLOCK)
		return NULL;
	if (!tp->nr || tp->used + n > POOL_BLOCK) {
		char **b = realloc(tp->blocks, (tp->nr + 1) * sizeof(*b));

		if (!b)
			return NULL;
		tp->blocks = b;
		if (!(b[tp->nr] = malloc(POOL_BLOCK)))
			return NULL;
		tp->nr++;
		tp->used = 0;
	}
	tp->used += n;
	return tp->blocks[tp->nr - 1] + tp->used - n;
}

static void pool_free(struct text_pool *tp)
{
	for (size_t i = 0; i < tp->nr; i++)
		free(tp->blocks[i]);
	free(tp->blocks);
}

/* A copy of the concatenation of a, b and c (any may be ""), cut to POOL_BLOCK. */
static const char *pool_cat(struct text_pool *tp, const char *a, const char *b, const char *c)
{
	size_t la = strlen(a), lb = strlen(b), lc = strlen(c);
	char *s;

	if (la + lb + lc >= POOL_BLOCK) {
		lb = lb < POOL_BLOCK / 2 ? lb : POOL_BLOCK / 2;
		la = lc = 0;
	}
	if (!(s = pool_alloc(tp, la + lb + lc + 1)))
		return NULL;
	memcpy(s, a, la);
	memcpy(s + la, b, lb);
	memcpy(s + la + lb, c, lc);
	s[la + lb + lc] = '\0';
	return s;
}

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

static const char *dso_text(const struct perfev_profile_frame *f)
{
	if (f->kernel)
		return PERFEV_KERNEL_DSO_NAME;
	return f->dso ? perfev_dso__short_name(f->dso) : PERFEV_UNKNOWN_NAME;
}

/* The text of key k for entry e; NULL when out of memory. */
static const char *key_text(struct text_pool *tp, const struct perfev_profile *p,
			    const struct perfev_profile_entry *e, enum report_key k)
{
	const struct perfev_profile_thread *t = perfev_profile__thread(p, e->thread);
	const struct perfev_profile_frame *f = perfev_profile__frame(p, e->frame);
	char buf[128];

	switch (k) {
	case KEY_COMM:
		return t->comm;
	case KEY_PID:
	case KEY_TID:
		snprintf(buf, sizeof(buf), "%7d:", k == KEY_PID ? t->pid : t->tid);
		return pool_cat(tp, buf, t->comm, "");
	case KEY_DSO:
		return dso_text(f);
	case KEY_SYM: {
		const char *name = f->inline_name ? f->inline_name : f->sym ? f->sym->name : NULL;

		if (!name)
			name = perfev_profile_frame__name(f, buf, sizeof(buf));
		return pool_cat(tp, f->kernel ? "[k] " : "[.] ", name, f->inline_name ? " (inlined)" : "");
	}
	case KEY_SRCLINE:
		if (f->src.file) {
			snprintf(buf, sizeof(buf), ":%" PRIu32, f->src.line);
			return pool_cat(tp, base_name(f->src.file), buf, "");
		}
		if (f->sym && f->addr >= f->sym->start) {
			snprintf(buf, sizeof(buf), "+%" PRIu64, f->addr - f->sym->start);
			return pool_cat(tp, f->sym->name, buf, "");
		}
		snprintf(buf, sizeof(buf), "[%" PRIx64 "]", f->addr);
		return pool_cat(tp, dso_text(f), buf, "");
	default:
		return "";
	}
}

static const char *col_title(int col, bool children)
{
	switch (col) {
	case COL_OVERHEAD:
		return children ? "Self" : "Overhead";
	case COL_CHILDREN:
		return "Children";
	case COL_SAMPLE:
		return "Samples";
	case COL_PERIOD:
		return "Period";
	case COL_TIME:
		return "Time ms";
	default:
		return col >= COL_KEY_BASE && col < COL_KEY_BASE + NR_KEYS ? key_titles[col - COL_KEY_BASE] : "";
	}
}

/* One row's text, built in memory and written with one call. */
struct line {
	char *p;
	size_t len, cap;
};

static bool line_room(struct line *l, size_t n)
{
	if (l->len + n <= l->cap)
		return true;
	size_t cap = (l->len + n) * 2;
	char *p = realloc(l->p, cap);

	if (!p)
		return false;
	l->p = p;
	l->cap = cap;
	return true;
}

static bool put_bytes(struct line *l, const char *s, size_t n)
{
	/* A line that never grew has no buffer to add nothing to. */
	if (!n)
		return true;
	if (!line_room(l, n))
		return false;
	memcpy(l->p + l->len, s, n);
	l->len += n;
	return true;
}

static bool pad(struct line *l, size_t n)
{
	if (!n)
		return true;
	if (!line_room(l, n))
		return false;
	memset(l->p + l->len, ' ', n);
	l->len += n;
	return true;
}

/* The digits b[n..] right-aligned in width w. */
static bool put_right(struct line *l, const char *b, size_t n, size_t w)
{
	return (w <= n || pad(l, w - n)) && put_bytes(l, b, n);
}

/* u right-aligned in width w. */
static bool put_u64(struct line *l, uint64_t u, size_t w)
{
	char b[24];
	size_t n = 0;

	do
		b[sizeof(b) - ++n] = '0' + u % 10;
	while ((u /= 10));
	return put_right(l, b + sizeof(b) - n, n, w);
}

/*
 * "%*.2f%%" of 100 * v / total, as printf rounds it: the double's exact value
 * to two places.  Only a value within a hair of a half-hundredth could round
 * differently by the shortcut; printf itself formats those.
 */
static bool put_percent(struct line *l, uint64_t v, uint64_t total, size_t w)
{
	double x = total ? 100.0 * v / total : 0, y = x * 100.0, fl = floor(y), d = y - fl;
	char b[64];
	size_t n = 0;

	if (!(x < 1e9) || fabs(d - 0.5) < 1e-6) {
		int k = snprintf(b, sizeof(b), "%.2f%%", x);

		return put_right(l, b, k > 0 ? (size_t)k : 0, w);
	}
	uint64_t c = (uint64_t)fl + (d > 0.5);

	b[sizeof(b) - ++n] = '%';
	b[sizeof(b) - ++n] = '0' + c % 10;
	b[sizeof(b) - ++n] = '0' + c / 10 % 10;
	b[sizeof(b) - ++n] = '.';
	c /= 100;
	do
		b[sizeof(b) - ++n] = '0' + c % 10;
	while ((c /= 10));
	return put_right(l, b + sizeof(b) - n, n, w);
}

/* Whether -S lets entry e be shown: its symbol's name is one of the list (perf's -S). */
static bool symbol_listed(const struct perfev_profile *p, const struct perfev_profile_entry *e,
			  const char *list)
{
	const struct perfev_profile_frame *f;
	const char *name;
	size_t len;

	if (!list)
		return true;
	f = perfev_profile__frame(p, e->frame);
	name = f->inline_name ? f->inline_name : f->sym ? f->sym->name : NULL;
	if (!name)
		return false;
	len = strlen(name);
	for (const char *s = list; *s; s += *s == ',') {
		size_t n = strcspn(s, ",");

		if (n == len && !memcmp(s, name, n))
			return true;
		s += n;
	}
	return false;
}

/*
 * The call graphs drawn on a thread of their own while the rows are named and
 * sorted: they depend only on the table, and the rows that get one are known
 * before the order is.
 */
struct graphs {
	const struct perfev_profile *p;
	const struct perfev_profile_table *t;
	const struct report_opts *o;
	uint64_t total;
	size_t nr; /* entries */
	char **text; /* per entry: its graph, or NULL */
	size_t *len;
	pthread_t thread;
	bool running;
};

static void *draw_graphs(void *arg)
{
	struct graphs *g = arg;

	for (size_t i = 0; i < g->nr; i++) {
		FILE *m;

		if (!report_graph_wanted(g->t, i, g->o, g->total) ||
		    !symbol_listed(g->p, perfev_profile_table__entry(g->t, i), g->o->symbols))
			continue;
		m = open_memstream(&g->text[i], &g->len[i]);
		if (!m)
			continue; /* drawn in place when written */
		report_graph_print(m, g->p, g->t, i, g->o, g->total);
		if (fclose(m)) {
			free(g->text[i]);
			g->text[i] = NULL;
		}
	}
	return NULL;
}

static void graphs_start(struct graphs *g)
{
	g->text = calloc(g->nr ? g->nr : 1, sizeof(*g->text));
	g->len = calloc(g->nr ? g->nr : 1, sizeof(*g->len));
	if (!g->text || !g->len)
		return;
	g->running = cli_thread_start(&g->thread, draw_graphs, g);
}

/* Waits for the drawing thread; then g->text holds what it drew (NULLs are drawn in place). */
static void graphs_wait(struct graphs *g)
{
	if (g->running)
		pthread_join(g->thread, NULL);
	g->running = false;
}

static void graphs_free(struct graphs *g)
{
	graphs_wait(g);
	if (g->text)
		for (size_t i = 0; i < g->nr; i++)
			free(g->text[i]);
	free(g->text);
	free(g->len);
}

/* The columns shown and their widths. */
struct layout {
	int cols[NR_KEYS + 5];
	int nc;
	size_t width[NR_KEYS + 5];
	bool children; /* the titles of children mode */
	size_t members; /* a value column holds one value per group member */
};

/* The columns asked for, else perf's: the weights, then the keys. */
static void choose_columns(const struct report_opts *o, struct layout *l)
{
	l->children = o->children;
	l->nc = 0;
	if (o->nr_cols) {
		memcpy(l->cols, o->cols, o->nr_cols * sizeof(int));
		l->nc = o->nr_cols;
		return;
	}
	if (o->children)
		l->cols[l->nc++] = COL_CHILDREN;
	l->cols[l->nc++] = COL_OVERHEAD;
	if (o->show_nr)
		l->cols[l->nc++] = COL_SAMPLE;
	if (o->time_col)
		l->cols[l->nc++] = COL_TIME;
	for (int i = 0; i < o->nr_keys; i++)
		if (!o->hide[o->keys[i]])
			l->cols[l->nc++] = COL_KEY_BASE + o->keys[i];
}

static bool shows(const struct layout *l, int col)
{
	for (int c = 0; c < l->nc; c++)
		if (l->cols[c] == col)
			return true;
	return false;
}

/* The profile's entries by o's keys, with children weights when they are shown. */
static struct perfev_profile_table *build_table(const struct perfev_profile *p,
						const struct report_opts *o, const struct layout *l)
{
	enum perfev_profile_key keys[NR_KEYS];
	struct perfev_profile_table_opts to = { .sz = sizeof(to), .keys = keys, .nr_keys = o->nr_keys,
						.children = o->children || shows(l, COL_CHILDREN) };

	for (int i = 0; i < o->nr_keys; i++)
		keys[i] = (enum perfev_profile_key)o->keys[i];
	return perfev_profile_table__new(p, &to);
}

static int cmp_desc(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? 1 : x > y ? -1 : 0;
}

/*
 * With at most max_rows shown, the weight the last of them has at least:
 * rows below it are never named (perfev top prints a few rows of tables
 * that grow to hundreds of thousands of entries).  0 without a limit.
 */
static uint64_t row_floor(const struct perfev_profile_table *t, const struct report_opts *o)
{
	size_t nr = perfev_profile_table__nr_entries(t), m = (size_t)o->max_rows, k = 0;
	uint64_t *v, floor = 0;

	if (o->max_rows <= 0 || nr <= 4 * m)
		return 0;
	v = malloc(nr * sizeof(*v));
	if (!v)
		return 0;
	for (size_t i = 0; i < nr; i++) {
		const struct perfev_profile_entry *e = perfev_profile_table__entry(t, i);

		v[k] = o->children ? e->children : e->self;
		k += v[k] != 0;
	}
	if (k > m) {
		qsort(v, k, sizeof(*v), cmp_desc);
		floor = v[m - 1];
	}
	free(v);
	return floor;
}

/*
 * The entries above the limit as rows into rows[0..*n), each with the texts
 * of the keys shown or sorted by; false when out of memory.
 */
static bool make_rows(struct text_pool *tp, const struct perfev_profile *p,
		      const struct perfev_profile_table *t, const struct report_opts *o,
		      const struct layout *l, uint64_t total, struct report_row *rows, size_t *n)
{
	bool need[NR_KEYS] = { false };

	for (int i = 0; i < o->nr_keys; i++)
		need[o->keys[i]] = true;
	for (int c = 0; c < l->nc; c++)
		if (l->cols[c] < NR_KEYS)
			need[l->cols[c]] = true;
	uint64_t floor = row_floor(t, o);

	*n = 0;
	for (size_t i = 0; i < perfev_profile_table__nr_entries(t); i++) {
		const struct perfev_profile_entry *e = perfev_profile_table__entry(t, i);
		uint64_t v = o->children ? e->children : e->self;
		struct report_row *r = &rows[*n];

		if (!v || v < floor || (total && 100.0 * v / total < o->percent_limit) ||
		    !symbol_listed(p, e, o->symbols))
			continue;
		if ((o->rows || o->symbols) && !report_entry_passes(o, p, e))
			continue;
		*r = (struct report_row){ .v = v, .self = e->self, .e = e, .entry = (uint32_t)i };
		for (int k = 0; k < NR_KEYS; k++)
			if (need[k] && !(r->text[k] = key_text(tp, p, e, k)))
				return false;
		(*n)++;
	}
	return true;
}

/* Each column as wide as its title and its widest value, as perf sizes them. */
static void column_widths(struct layout *l, const struct report_row *rows, size_t n)
{
	for (int c = 0; c < l->nc; c++) {
		size_t *w = &l->width[c];

		*w = strlen(col_title(l->cols[c], l->children));
		if (l->cols[c] >= NR_KEYS && *w < 8 * l->members)
			*w = 8 * l->members;
		if (l->cols[c] == COL_PERIOD || l->cols[c] == COL_SAMPLE ||
		    l->cols[c] == COL_TIME)
			*w = *w < 12 * l->members ? 12 * l->members : *w;
		if (l->cols[c] < NR_KEYS)
			for (size_t i = 0; i < n; i++) {
				const char *t = rows[i].text[l->cols[c]];
				size_t tw = strlen(t);

				/* perf sizes the column by the symbol's name, without " (inlined)". */
				if (l->cols[c] == KEY_SYM && tw > 10 && !strcmp(t + tw - 10, " (inlined)"))
					tw -= 10;
				if (tw > *w)
					*w = tw;
			}
	}
}

/*
 * perf's layout: "# " or two spaces, then the columns two spaces apart,
 * values right-aligned, keys left-aligned, the last one unpadded.
 */
static void print_titles(FILE *f, const struct layout *l)
{
	for (int c = 0; c < l->nc; c++) {
		const char *title = col_title(l->cols[c], l->children);

		fputs(c ? "  " : "# ", f);
		if (l->cols[c] >= NR_KEYS)
			fprintf(f, "%*s", (int)l->width[c], title);
		else
			fprintf(f, "%-*s", (int)l->width[c], title);
	}
	fputc('\n', f);
	for (int c = 0; c < l->nc; c++) {
		fputs(c ? "  " : "# ", f);
		for (size_t k = 0; k < l->width[c]; k++)
			fputc('.', f);
	}
	fputs("\n#\n", f);
}

/*
 * A group row's values of column col, one per member, each as wide as perf
 * makes them (the column's width shared out).
 */
static bool put_members(struct line *line, const struct layout *l, int col, size_t w,
			const struct report_row *r, const uint64_t *totals)
{
	size_t each = w / l->members;
	bool room = true;

	for (size_t m = 0; m < l->members && room; m++) {
		const uint64_t *v = r->mv + m * NR_MV;

		/* The first takes what the share leaves over, as the title is right-aligned. */
		size_t wm = m ? each : w - each * (l->members - 1);

		switch (col) {
		case COL_OVERHEAD:
			room = put_percent(line, v[MV_SELF], totals[m], wm);
			break;
		case COL_CHILDREN:
			room = put_percent(line, v[MV_CHILDREN], totals[m], wm);
			break;
		case COL_SAMPLE:
			room = put_u64(line, v[MV_SAMPLES], wm);
			break;
		default:
			room = put_u64(line, v[MV_SELF], wm);
		}
	}
	return room;
}

/* Row r's text into line (emptied first); false when out of memory. */
static bool format_row(struct line *line, const struct layout *l, const struct report_row *r,
		       const uint64_t *totals)
{
	const struct perfev_profile_entry *e = r->e;
	uint64_t total = totals[0];
	bool room = true;

	line->len = 0;
	for (int c = 0; c < l->nc && room; c++) {
		size_t w = l->width[c], len;

		room = put_bytes(line, "  ", 2);
		if (r->mv && l->cols[c] >= NR_KEYS) {
			room = room && put_members(line, l, l->cols[c], w, r, totals);
			continue;
		}
		switch (l->cols[c]) {
		case COL_OVERHEAD:
			room = room && put_percent(line, e->self, total, w);
			break;
		case COL_CHILDREN:
			room = room && put_percent(line, e->children, total, w);
			break;
		case COL_SAMPLE:
			room = room && put_u64(line, e->samples, w);
			break;
		case COL_PERIOD:
			room = room && put_u64(line, e->self, w);
			break;
		case COL_TIME: {
			char b[32];
			int k = snprintf(b, sizeof(b), "%.3f",
					 (l->children ? e->children : e->self) / 1e6);

			room = room && put_right(line, b, k > 0 ? (size_t)k : 0, w);
			break;
		}
		default:
			len = strlen(r->text[l->cols[c]]);
			room = room && put_bytes(line, r->text[l->cols[c]], len);
			if (c != l->nc - 1 && len < w)
				room = room && pad(line, w - len);
		}
	}
	return room && put_bytes(line, "\n", 1);
}

/* Rows order[from, to) formatted into one text, on a thread of their own. */
struct row_text {
	const struct layout *l;
	const struct report_row *rows;
	const uint32_t *order;
	size_t from, to;
	const uint64_t *totals;
	struct line text;
	bool ok;
};

static void *format_rows(void *arg)
{
	struct row_text *rt = arg;
	struct line line = { 0 };

	rt->ok = true;
	for (size_t i = rt->from; i < rt->to && rt->ok; i++)
		rt->ok = format_row(&line, rt->l, &rt->rows[rt->order[i]], rt->totals) &&
			 put_bytes(&rt->text, line.p, line.len);
	free(line.p);
	return NULL;
}

/*
 * Rows without call graphs from a count on: the second half is formatted on
 * another thread while this one formats and writes the first (tens of
 * thousands of rows, a tenth of a flat report's time).
 */
#define ROWS_SHARED 2048

/* The rows in order, each followed by its call graph; false when out of memory. */
static bool print_rows(FILE *f, const struct layout *l, const struct report_row *rows,
		       const uint32_t *order, size_t n, const struct graphs *gr, const uint64_t *totals)
{
	struct line line = { 0 };
	struct row_text rt = { l, rows, order, n / 2, n, totals, { 0 }, true };
	pthread_t thread;
	bool ok = true, shared = false;

	if (n >= ROWS_SHARED && (!gr->t || (!gr->text && gr->o->graph == GRAPH_NONE)) &&
	    (shared = cli_thread_start(&thread, format_rows, &rt)))
		n = rt.from;
	for (size_t i = 0; i < n && ok; i++) {
		const struct report_row *r = &rows[order[i]];

		ok = format_row(&line, l, r, totals);
		if (!ok)
			break;
		fwrite(line.p, 1, line.len, f);
		if (r->entry == UINT32_MAX || !gr->t)
			continue;
		if (gr->text && gr->text[r->entry])
			fwrite(gr->text[r->entry], 1, gr->len[r->entry], f);
		else if (gr->o->graph != GRAPH_NONE)
			report_graph_print(f, gr->p, gr->t, r->entry, gr->o, gr->total);
	}
	free(line.p);
	if (shared) {
		pthread_join(thread, NULL);
		ok = ok && rt.ok;
		if (ok)
			fwrite(rt.text.p, 1, rt.text.len, f);
		free(rt.text.p);
	}
	return ok;
}

/*
 * What --percentage relative divides by when rows are filtered: the samples
 * taken in the rows shown (perf's non-filtered total).
 */
static void passed_totals(const struct perfev_profile *p, const struct perfev_profile_table *t,
			  const struct report_opts *o, struct report_totals *tot)
{
	*tot = (struct report_totals){ 0 };
	for (size_t i = 0; i < perfev_profile_table__nr_entries(t); i++) {
		const struct perfev_profile_entry *e = perfev_profile_table__entry(t, i);

		if (report_entry_passes(o, p, e)) {
			tot->samples += e->samples;
			tot->period += e->self;
		}
	}
}

#define MAX_MEMBERS 64

bool report_table_print(FILE *f, struct perfev_profile *const *p, size_t nm,
			const struct report_opts *o, const struct report_totals *file,
			report_header_fn header, void *ctx, struct report_print_stats *ps)
{
	uint64_t t0 = cli_now_ns(), totals[MAX_MEMBERS] = { 0 };
	struct report_totals tot[MAX_MEMBERS];
	struct perfev_profile_table *tables[MAX_MEMBERS] = { 0 };
	struct report_row *mrows[MAX_MEMBERS] = { 0 };
	size_t mn[MAX_MEMBERS] = { 0 };
	struct layout l;
	struct text_pool tp = { 0 };
	struct graphs gr = { .o = o };
	struct report_row *rows = NULL;
	uint64_t *vals = NULL;
	uint32_t *order = NULL;
	size_t nr = 0, nshow = 0, all = 0;
	bool ok = false;

	if (nm > MAX_MEMBERS)
		nm = MAX_MEMBERS;
	choose_columns(o, &l);
	l.members = nm;
	for (size_t m = 0; m < nm; m++) {
		tot[m] = file[m];
		if (!p[m])
			continue;
		if (!(tables[m] = build_table(p[m], o, &l)))
			goto out;
		if (o->relative && (o->rows || o->symbols))
			passed_totals(p[m], tables[m], o, &tot[m]);
		all += perfev_profile_table__nr_entries(tables[m]);
	}
	header(ctx, tot, nm);
	for (size_t m = 0; m < nm; m++)
		totals[m] = tot[m].period;
	nr = tables[0] ? perfev_profile_table__nr_entries(tables[0]) : 0;
	gr = (struct graphs){ .p = p[0], .t = tables[0], .o = o, .total = totals[0], .nr = nr };

	if (o->graph != GRAPH_NONE && tables[0])
		graphs_start(&gr);
	for (size_t m = 0; m < nm; m++) {
		size_t ne = tables[m] ? perfev_profile_table__nr_entries(tables[m]) : 0;

		if (!(mrows[m] = malloc((ne ? ne : 1) * sizeof(**mrows))))
			goto out;
		if (tables[m] && !make_rows(&tp, p[m], tables[m], o, &l, totals[m], mrows[m], &mn[m]))
			goto out;
	}
	order = malloc((all ? all : 1) * sizeof(*order));
	if (!order)
		goto out;
	if (nm == 1) {
		rows = mrows[0];
		mrows[0] = NULL;
		nshow = mn[0];
	} else {
		long k;

		rows = malloc((all ? all : 1) * sizeof(*rows));
		vals = malloc((all ? all : 1) * nm * NR_MV * sizeof(*vals));
		if (!rows || !vals)
			goto out;
		k = report_group_rows(mrows, mn, nm, o->keys, o->nr_keys, rows, vals);
		if (k < 0)
			goto out;
		nshow = (size_t)k;
	}
	if (!report_sort_rows(rows, nshow, o->keys, o->nr_keys, order))
		goto out;
	if (o->max_rows > 0 && nshow > (size_t)o->max_rows)
		nshow = (size_t)o->max_rows;
	graphs_wait(&gr);
	ps->sort_s = (cli_now_ns() - t0) / 1e9;
	t0 = cli_now_ns();
	column_widths(&l, rows, nshow);
	print_titles(f, &l);
	if (!print_rows(f, &l, rows, order, nshow, &gr, totals))
		goto out;
	fputc('\n', f);
	ps->nr_entries = all;
	ps->nr_shown = nshow;
	ps->print_s = (cli_now_ns() - t0) / 1e9;
	ok = true;
out:
	graphs_free(&gr);
	pool_free(&tp);
	free(rows);
	free(vals);
	free(order);
	for (size_t m = 0; m < nm; m++) {
		free(mrows[m]);
		perfev_profile_table__delete(tables[m]);
	}
	return ok;
}

/* Key texts for other views of the table (the terminal browser), made the same way. */
struct report_texts {
	struct text_pool tp;
};

struct report_texts *report_texts_new(void)
{
	return calloc(1, sizeof(struct report_texts));
}

const char *report_texts_key(struct report_texts *tx, const struct perfev_profile *p,
			     const struct perfev_profile_entry *e, enum report_key k)
{
	return key_text(&tx->tp, p, e, k);
}

void report_texts_delete(struct report_texts *tx)
{
	if (!tx)
		return;
	pool_free(&tx->tp);
	free(tx);
}
