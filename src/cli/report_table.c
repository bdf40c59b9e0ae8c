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
#include <signal.h>
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

		if (!report_graph_wanted(g->t, i, g->o, g->total))
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
	sigset_t all, old;

	g->text = calloc(g->nr ? g->nr : 1, sizeof(*g->text));
	g->len = calloc(g->nr ? g->nr : 1, sizeof(*g->len));
	if (!g->text || !g->len)
		return;
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	g->running = !pthread_create(&g->thread, NULL, draw_graphs, g);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
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
	/* A profile of time says how much, beside the shares. */
	if (o->time_col)
		l->cols[l->nc++] = COL_TIME;
	for (int i = 0; i < o->nr_keys; i++)
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
	*n = 0;
	for (size_t i = 0; i < perfev_profile_table__nr_entries(t); i++) {
		const struct perfev_profile_entry *e = perfev_profile_table__entry(t, i);
		uint64_t v = o->children ? e->children : e->self;
		struct report_row *r = &rows[*n];

		if (!v || (total && 100.0 * v / total < o->percent_limit))
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
		if (l->cols[c] >= NR_KEYS && *w < 8)
			*w = 8;
		if (l->cols[c] == COL_PERIOD || l->cols[c] == COL_SAMPLE || l->cols[c] == COL_TIME)
			*w = *w < 12 ? 12 : *w;
		if (l->cols[c] < NR_KEYS)
			for (size_t i = 0; i < n; i++) {
				size_t tw = strlen(rows[i].text[l->cols[c]]);

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

/* Row r's text into line (emptied first); false when out of memory. */
static bool format_row(struct line *line, const struct layout *l, const struct report_row *r,
		       uint64_t total)
{
	const struct perfev_profile_entry *e = r->e;
	bool room = true;

	line->len = 0;
	for (int c = 0; c < l->nc && room; c++) {
		size_t w = l->width[c], len;

		room = put_bytes(line, "  ", 2);
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

/* The rows in order, each followed by its call graph; false when out of memory. */
static bool print_rows(FILE *f, const struct layout *l, const struct report_row *rows,
		       const uint32_t *order, size_t n, const struct graphs *gr)
{
	struct line line = { 0 };
	bool ok = true;

	for (size_t i = 0; i < n && ok; i++) {
		const struct report_row *r = &rows[order[i]];

		ok = format_row(&line, l, r, gr->total);
		if (!ok)
			break;
		fwrite(line.p, 1, line.len, f);
		if (gr->text && gr->text[r->entry])
			fwrite(gr->text[r->entry], 1, gr->len[r->entry], f);
		else if (gr->o->graph != GRAPH_NONE)
			report_graph_print(f, gr->p, gr->t, r->entry, gr->o, gr->total);
	}
	free(line.p);
	return ok;
}

bool report_table_print(FILE *f, const struct perfev_profile *p, const struct report_opts *o,
			struct report_print_stats *ps)
{
	uint64_t total = perfev_profile__node(p, 0)->total, t0 = cli_now_ns();
	struct layout l;
	struct perfev_profile_table *t;
	struct text_pool tp = { 0 };
	struct report_row *rows = NULL;
	uint32_t *order = NULL;
	size_t nr, nshow = 0;
	bool ok = false;

	choose_columns(o, &l);
	t = build_table(p, o, &l);
	if (!t)
		return false;
	nr = perfev_profile_table__nr_entries(t);
	struct graphs gr = { .p = p, .t = t, .o = o, .total = total, .nr = nr };

	if (o->graph != GRAPH_NONE)
		graphs_start(&gr);
	rows = malloc((nr ? nr : 1) * sizeof(*rows));
	order = malloc((nr ? nr : 1) * sizeof(*order));
	if (!rows || !order || !make_rows(&tp, p, t, o, &l, total, rows, &nshow) ||
	    !report_sort_rows(rows, nshow, o->keys, o->nr_keys, order))
		goto out;
	graphs_wait(&gr);
	ps->sort_s = (cli_now_ns() - t0) / 1e9;
	t0 = cli_now_ns();
	column_widths(&l, rows, nshow);
	print_titles(f, &l);
	if (!print_rows(f, &l, rows, order, nshow, &gr))
		goto out;
	fputc('\n', f);
	ps->nr_entries = nr;
	ps->nr_shown = nshow;
	ps->print_s = (cli_now_ns() - t0) / 1e9;
	ok = true;
out:
	graphs_free(&gr);
	pool_free(&tp);
	free(rows);
	free(order);
	perfev_profile_table__delete(t);
	return ok;
}
