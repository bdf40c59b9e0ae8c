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
			    const struct report_entry *e, enum report_key k)
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
	if (!line_room(l, n))
		return false;
	memcpy(l->p + l->len, s, n);
	l->len += n;
	return true;
}

static bool pad(struct line *l, size_t n)
{
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
	const struct report_table *t;
	const struct report_opts *o;
	uint64_t total;
	char **text; /* per entry: its graph, or NULL */
	size_t *len;
	pthread_t thread;
	bool running;
};

static void *draw_graphs(void *arg)
{
	struct graphs *g = arg;

	for (size_t i = 0; i < g->t->nr; i++) {
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

	g->text = calloc(g->t->nr ? g->t->nr : 1, sizeof(*g->text));
	g->len = calloc(g->t->nr ? g->t->nr : 1, sizeof(*g->len));
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
		for (size_t i = 0; i < g->t->nr; i++)
			free(g->text[i]);
	free(g->text);
	free(g->len);
}

bool report_table_print(FILE *f, const struct perfev_profile *p, const struct report_opts *o,
			struct report_print_stats *ps)
{
	uint64_t total = perfev_profile__node(p, 0)->total;
	struct report_table t;
	struct text_pool tp = { 0 };
	struct line line = { 0 };
	struct report_row *rows = NULL;
	uint32_t *order = NULL;
	bool need[NR_KEYS] = { false }, ok = false;
	size_t nshow = 0, width[NR_KEYS + 4] = { 0 };
	int cols[NR_KEYS + 4], nc = 0;
	uint64_t t0 = cli_now_ns();

	if (report_table_build(p, o, &t) < 0)
		return false;
	struct graphs gr = { .p = p, .t = &t, .o = o, .total = total };

	if (o->graph != GRAPH_NONE)
		graphs_start(&gr);
	if (o->nr_cols) {
		memcpy(cols, o->cols, o->nr_cols * sizeof(int));
		nc = o->nr_cols;
	} else {
		if (o->children)
			cols[nc++] = COL_CHILDREN;
		cols[nc++] = COL_OVERHEAD;
		for (int i = 0; i < o->nr_keys; i++)
			cols[nc++] = COL_KEY_BASE + o->keys[i];
	}
	for (int i = 0; i < o->nr_keys; i++)
		need[o->keys[i]] = true;
	for (int c = 0; c < nc; c++)
		if (cols[c] < NR_KEYS)
			need[cols[c]] = true;
	rows = malloc((t.nr ? t.nr : 1) * sizeof(*rows));
	order = malloc((t.nr ? t.nr : 1) * sizeof(*order));
	if (!rows || !order)
		goto out;
	for (size_t i = 0; i < t.nr; i++) {
		uint64_t v = o->children ? t.e[i].children : t.e[i].self;
		struct report_row *r = &rows[nshow];

		if (!v || (total && 100.0 * v / total < o->percent_limit))
			continue;
		*r = (struct report_row){ .v = v, .self = t.e[i].self, .e = &t.e[i] };
		for (int k = 0; k < NR_KEYS; k++)
			if (need[k] && !(r->text[k] = key_text(&tp, p, r->e, k)))
				goto out;
		nshow++;
	}
	if (!report_sort_rows(rows, nshow, o->keys, o->nr_keys, order))
		goto out;
	graphs_wait(&gr);
	ps->sort_s = (cli_now_ns() - t0) / 1e9;
	t0 = cli_now_ns();
	for (int c = 0; c < nc; c++) {
		width[c] = strlen(col_title(cols[c], o->children));
		if (cols[c] >= NR_KEYS && width[c] < 8)
			width[c] = 8;
		if (cols[c] == COL_PERIOD || cols[c] == COL_SAMPLE)
			width[c] = width[c] < 12 ? 12 : width[c];
		if (cols[c] < NR_KEYS)
			for (size_t i = 0; i < nshow; i++) {
				size_t w = strlen(rows[i].text[cols[c]]);

				if (w > width[c])
					width[c] = w;
			}
	}
	/* The last column is not padded: its rule need not run as long as its longest name. */
	if (cols[nc - 1] < NR_KEYS && width[nc - 1] > 60)
		width[nc - 1] = 60;
	/*
	 * perf's layout: "# " or two spaces, then the columns two spaces apart,
	 * values right-aligned, keys left-aligned, the last one unpadded.
	 */
	for (int c = 0; c < nc; c++) {
		fputs(c ? "  " : "# ", f);
		if (cols[c] >= NR_KEYS)
			fprintf(f, "%*s", (int)width[c], col_title(cols[c], o->children));
		else if (c == nc - 1)
			fputs(col_title(cols[c], o->children), f);
		else
			fprintf(f, "%-*s", (int)width[c], col_title(cols[c], o->children));
	}
	fputc('\n', f);
	for (int c = 0; c < nc; c++) {
		fputs(c ? "  " : "# ", f);
		for (size_t k = 0; k < width[c]; k++)
			fputc('.', f);
	}
	fputs("\n#\n", f);
	for (size_t i = 0; i < nshow; i++) {
		const struct report_row *r = &rows[order[i]];
		const struct report_entry *e = r->e;
		bool room = true;

		line.len = 0;
		for (int c = 0; c < nc && room; c++) {
			size_t w = width[c], len;

			room = put_bytes(&line, "  ", 2);
			switch (cols[c]) {
			case COL_OVERHEAD:
				room = room && put_percent(&line, e->self, total, w);
				break;
			case COL_CHILDREN:
				room = room && put_percent(&line, e->children, total, w);
				break;
			case COL_SAMPLE:
				room = room && put_u64(&line, e->samples, w);
				break;
			case COL_PERIOD:
				room = room && put_u64(&line, e->self, w);
				break;
			default:
				len = strlen(r->text[cols[c]]);
				room = room && put_bytes(&line, r->text[cols[c]], len);
				if (c != nc - 1 && len < w)
					room = room && pad(&line, w - len);
			}
		}
		if (!room || !put_bytes(&line, "\n", 1))
			goto out;
		fwrite(line.p, 1, line.len, f);
		if (gr.text && gr.text[e - t.e])
			fwrite(gr.text[e - t.e], 1, gr.len[e - t.e], f);
		else if (o->graph != GRAPH_NONE)
			report_graph_print(f, p, &t, e - t.e, o, total);
	}
	fputc('\n', f);
	ps->nr_entries = t.nr;
	ps->nr_shown = nshow;
	ps->print_s = (cli_now_ns() - t0) / 1e9;
	ok = true;
out:
	graphs_free(&gr);
	free(line.p);
	pool_free(&tp);
	free(rows);
	free(order);
	report_table_free(&t);
	return ok;
}
