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
#include <stdlib.h>
#include <string.h>
#include <time.h>

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
		return "[kernel.kallsyms]";
	return f->dso ? perfev_dso__short_name(f->dso) : "[unknown]";
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

/* A shown entry with its key texts, made once: sorting and printing only compare and copy. */
struct row {
	uint64_t v, self;
	const struct report_entry *e;
	const char *text[NR_KEYS];
};

struct sort_keys {
	const struct row *rows;
	const enum report_key *keys;
	int nr;
};

/* Heaviest first, then by the keys' texts (most often the same string, or one in a few). */
static inline bool row_before(const struct sort_keys *k, uint32_t a, uint32_t b)
{
	const struct row *x = &k->rows[a], *y = &k->rows[b];

	if (x->v != y->v)
		return x->v > y->v;
	if (x->self != y->self)
		return x->self > y->self;
	for (int i = 0; i < k->nr; i++) {
		const char *s = x->text[k->keys[i]], *t = y->text[k->keys[i]];
		int r = s == t ? 0 : strcmp(s, t);

		if (r)
			return r < 0;
	}
	return a < b;
}

/* A bottom-up merge sort of row indices, with the comparison inlined. */
static bool sort_rows(const struct sort_keys *k, uint32_t *idx, size_t n)
{
	uint32_t *tmp = malloc((n ? n : 1) * sizeof(*tmp)), *src = idx, *dst = tmp;

	if (!tmp)
		return false;
	for (size_t w = 1; w < n; w *= 2) {
		for (size_t lo = 0; lo < n; lo += 2 * w) {
			size_t mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;
			size_t i = lo, j = mid, o = lo;

			while (i < mid && j < hi)
				dst[o++] = row_before(k, src[j], src[i]) ? src[j++] : src[i++];
			while (i < mid)
				dst[o++] = src[i++];
			while (j < hi)
				dst[o++] = src[j++];
		}
		uint32_t *s = src;

		src = dst;
		dst = s;
	}
	if (src != idx)
		memcpy(idx, src, n * sizeof(*idx));
	free(tmp);
	return true;
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

static void pad(FILE *f, size_t n)
{
	static const char spaces[] = "                                ";

	for (; n > sizeof(spaces) - 1; n -= sizeof(spaces) - 1)
		fwrite(spaces, 1, sizeof(spaces) - 1, f);
	fwrite(spaces, 1, n, f);
}

/* u right-aligned in width w. */
static void put_u64(FILE *f, uint64_t u, size_t w)
{
	char b[24];
	size_t n = 0;

	do
		b[sizeof(b) - ++n] = '0' + u % 10;
	while ((u /= 10));
	if (w > n)
		pad(f, w - n);
	fwrite(b + sizeof(b) - n, 1, n, f);
}

/*
 * "%*.2f%%" of 100 * v / total, as printf rounds it: the double's exact value
 * to two places.  Only a value within a hair of a half-hundredth could round
 * differently by the shortcut; printf itself formats those.
 */
static void put_percent(FILE *f, uint64_t v, uint64_t total, size_t w)
{
	double x = total ? 100.0 * v / total : 0, y = x * 100.0, fl = floor(y), d = y - fl;

	if (!(x < 1e9) || fabs(d - 0.5) < 1e-6) {
		fprintf(f, "%*.2f%%", (int)w - 1, x);
		return;
	}
	uint64_t c = (uint64_t)fl + (d > 0.5);
	char b[32];
	size_t n = 0;

	b[sizeof(b) - ++n] = '%';
	b[sizeof(b) - ++n] = '0' + c % 10;
	b[sizeof(b) - ++n] = '0' + c / 10 % 10;
	b[sizeof(b) - ++n] = '.';
	c /= 100;
	do
		b[sizeof(b) - ++n] = '0' + c % 10;
	while ((c /= 10));
	if (w > n)
		pad(f, w - n);
	fwrite(b + sizeof(b) - n, 1, n, f);
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

bool report_table_print(FILE *f, const struct perfev_profile *p, const struct report_opts *o,
			struct report_print_stats *ps)
{
	uint64_t total = perfev_profile__node(p, 0)->total;
	struct report_table t;
	struct text_pool tp = { 0 };
	struct row *rows = NULL;
	uint32_t *order = NULL;
	bool need[NR_KEYS] = { false }, ok = false;
	size_t nshow = 0, width[NR_KEYS + 4] = { 0 };
	int cols[NR_KEYS + 4], nc = 0;
	double t0 = now_s();

	if (report_table_build(p, o, &t) < 0)
		return false;
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
		struct row *r = &rows[nshow];

		if (!v || (total && 100.0 * v / total < o->percent_limit))
			continue;
		*r = (struct row){ .v = v, .self = t.e[i].self, .e = &t.e[i] };
		for (int k = 0; k < NR_KEYS; k++)
			if (need[k] && !(r->text[k] = key_text(&tp, p, r->e, k)))
				goto out;
		order[nshow] = nshow;
		nshow++;
	}
	struct sort_keys sk = { rows, o->keys, o->nr_keys };

	if (!sort_rows(&sk, order, nshow))
		goto out;
	ps->sort_s = now_s() - t0;
	t0 = now_s();
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
		const struct row *r = &rows[order[i]];
		const struct report_entry *e = r->e;

		for (int c = 0; c < nc; c++) {
			size_t w = width[c], len;

			fputs("  ", f);
			switch (cols[c]) {
			case COL_OVERHEAD:
				put_percent(f, e->self, total, w);
				break;
			case COL_CHILDREN:
				put_percent(f, e->children, total, w);
				break;
			case COL_SAMPLE:
				put_u64(f, e->samples, w);
				break;
			case COL_PERIOD:
				put_u64(f, e->self, w);
				break;
			default:
				len = strlen(r->text[cols[c]]);
				fwrite(r->text[cols[c]], 1, len, f);
				if (c != nc - 1 && len < w)
					pad(f, w - len);
			}
		}
		fputc('\n', f);
		if (o->graph != GRAPH_NONE)
			report_graph_print(f, p, &t, e - t.e, o, total);
	}
	fputc('\n', f);
	ps->nr_entries = t.nr;
	ps->nr_shown = nshow;
	ps->print_s = now_s() - t0;
	ok = true;
out:
	pool_free(&tp);
	free(rows);
	free(order);
	report_table_free(&t);
	return ok;
}
