// SPDX-License-Identifier: MIT
/*
 * Profiles compared as perf diff compares them.  Each profile's table
 * groups its samples by the keys; a table's entries are then matched
 * across the profiles by what the keys show (names, not the DSO and
 * symbol objects of each recording, which differ between two runs and
 * between two builds of a program), and entries of one profile that show
 * the same are one row, as perf's entries compared by name are.  The rows
 * are ordered as perf diff orders them: by the computed value of the
 * ordering profile (those it has first), then the baseline's share, then
 * each profile's computed value, then the keys' texts.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/idxhash.h"
#include "util/internal.h"
#include "util/opts.h"
#include "perfev/profile_diff.h"
#include "perfev/symbols.h"

#define NONE PERFEV_PROFILE_NONE
#define KEY_BIT(k) (1u << (k))

/* What the keys show of an entry: equal texts are one row. */
struct mkey {
	const char *comm;
	int pid, tid;
	const char *dso;  /* the file's name without its directory */
	const char *sym;  /* the function's name; NULL: unresolved, addr tells */
	uint64_t addr;
	const char *src;  /* the source file; NULL: none known */
	uint32_t line;
	bool kernel;
};

struct perfev_profile_diff {
	struct perfev_profile_diff_opts o;
	size_t nr; /* profiles */
	const struct perfev_profile *const *p;
	struct perfev_profile_table **t;
	uint64_t *total;
	struct perfev_profile_diff_row *rows;
	struct perfev_profile_diff_cell *cells; /* nr per row */
	struct mkey *keys;		       /* per row */
	size_t nr_rows, cap_rows, cap_keys, cap_cells;
	unsigned kbits;
	struct idxhash h;
	const struct mkey *want;
};

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s && s[1] ? s + 1 : path;
}

static const char *dso_name(const struct perfev_profile_frame *f)
{
	if (f->kernel)
		return PERFEV_KERNEL_DSO_NAME;
	return f->dso ? base_name(perfev_dso__short_name(f->dso)) : PERFEV_UNKNOWN_NAME;
}

static void make_key(const struct perfev_profile_diff *d, size_t pi, const struct perfev_profile_entry *e,
		     struct mkey *k)
{
	const struct perfev_profile_thread *t = perfev_profile__thread(d->p[pi], e->thread);
	const struct perfev_profile_frame *f = perfev_profile__frame(d->p[pi], e->frame);
	unsigned b = d->kbits;

	memset(k, 0, sizeof(*k));
	if (b & (KEY_BIT(PERFEV_PROFILE_KEY_COMM) | KEY_BIT(PERFEV_PROFILE_KEY_PID) |
		 KEY_BIT(PERFEV_PROFILE_KEY_TID)))
		k->comm = t->comm;
	if (b & KEY_BIT(PERFEV_PROFILE_KEY_PID))
		k->pid = t->pid;
	if (b & KEY_BIT(PERFEV_PROFILE_KEY_TID))
		k->tid = t->tid;
	if (b & KEY_BIT(PERFEV_PROFILE_KEY_DSO)) {
		k->dso = dso_name(f);
		k->kernel = f->kernel;
	}
	if (b & KEY_BIT(PERFEV_PROFILE_KEY_SYM)) {
		k->sym = f->inline_name ? f->inline_name : f->sym ? f->sym->name : NULL;
		k->kernel = f->kernel;
		if (!k->sym) { /* an address means something only in its file */
			k->addr = f->addr;
			k->dso = dso_name(f);
		}
	}
	if (b & KEY_BIT(PERFEV_PROFILE_KEY_SRCLINE)) {
		k->src = f->src.file;
		k->line = f->src.line;
		if (!k->src) {
			k->dso = dso_name(f);
			k->addr = f->addr;
		}
	}
}

static bool s_eq(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

static uint64_t s_hash(const char *s)
{
	return s ? hash_str(s) : 0;
}

static uint64_t key_hash(const struct mkey *k)
{
	uint64_t h = hash_mix(s_hash(k->comm), ((uint64_t)(uint32_t)k->pid << 32) | (uint32_t)k->tid);

	h = hash_mix(h, s_hash(k->dso) ^ k->kernel);
	h = hash_mix(h, s_hash(k->sym) ^ k->addr);
	return hash_mix(h, s_hash(k->src) ^ k->line);
}

static bool key_eq(const void *ctx, uint32_t idx)
{
	const struct perfev_profile_diff *d = ctx;
	const struct mkey *a = &d->keys[idx], *b = d->want;

	return a->pid == b->pid && a->tid == b->tid && a->kernel == b->kernel && a->addr == b->addr &&
	       a->line == b->line && s_eq(a->comm, b->comm) && s_eq(a->dso, b->dso) &&
	       s_eq(a->sym, b->sym) && s_eq(a->src, b->src);
}

/* The row of key k, made (from entry e of profile pi) when new; -1 when out of memory. */
static int64_t row_of(struct perfev_profile_diff *d, const struct mkey *k, size_t pi, size_t e)
{
	uint64_t hv = key_hash(k);
	int64_t r;

	d->want = k;
	r = idxhash_find(&d->h, hv, key_eq, d);
	if (r >= 0)
		return r;
	if (!array_grow((void **)&d->rows, &d->cap_rows, d->nr_rows + 1, sizeof(*d->rows)) ||
	    !array_grow((void **)&d->keys, &d->cap_keys, d->nr_rows + 1, sizeof(*d->keys)) ||
	    !array_grow((void **)&d->cells, &d->cap_cells, (d->nr_rows + 1) * d->nr, sizeof(*d->cells)))
		return -1;
	if (idxhash_insert(&d->h, hv, (uint32_t)d->nr_rows) < 0)
		return -1;
	d->rows[d->nr_rows] = (struct perfev_profile_diff_row){ .profile = (uint32_t)pi,
							       .entry = (uint32_t)e };
	d->keys[d->nr_rows] = *k;
	memset(&d->cells[d->nr_rows * d->nr], 0, d->nr * sizeof(*d->cells));
	return (int64_t)d->nr_rows++;
}

/* Whether name is one of the comma-separated list's items (NULL list: everything is). */
static bool in_list(const char *list, const char *name, const char *alt)
{
	if (!list)
		return true;
	for (const char *p = list; *p;) {
		const char *q = strchr(p, ',');
		size_t n = q ? (size_t)(q - p) : strlen(p);

		if (n && ((name && strlen(name) == n && !strncmp(name, p, n)) ||
			  (alt && strlen(alt) == n && !strncmp(alt, p, n))))
			return true;
		p += n + (q != NULL);
	}
	return false;
}

/*
 * Whether entry e of profile pi passes the filters (its command, file and
 * function), as perf diff filters each file's entries.
 */
static bool entry_kept(const struct perfev_profile_diff *d, size_t pi, const struct perfev_profile_entry *e)
{
	const struct perfev_profile *p = d->p[pi];
	const struct perfev_profile_thread *t = perfev_profile__thread(p, e->thread);
	const struct perfev_profile_frame *f = perfev_profile__frame(p, e->frame);
	const char *sym = f->inline_name ? f->inline_name : f->sym ? f->sym->name : NULL;

	return in_list(d->o.comms, t->comm, NULL) &&
	       in_list(d->o.dsos, dso_name(f), f->dso && !f->kernel ? perfev_dso__name(f->dso) : NULL) &&
	       (!d->o.syms || (sym && in_list(d->o.syms, sym, NULL)));
}

/* Rows of every profile's entries that have samples of their own. */
static int gather(struct perfev_profile_diff *d)
{
	struct mkey k;

	for (size_t pi = 0; pi < d->nr; pi++) {
		const struct perfev_profile_table *t = d->t[pi];

		for (size_t e = 0; e < perfev_profile_table__nr_entries(t); e++) {
			const struct perfev_profile_entry *en = perfev_profile_table__entry(t, e);
			int64_t r;

			if (!en->self || !entry_kept(d, pi, en))
				continue;
			if (d->o.relative)
				d->total[pi] += en->self;
			make_key(d, pi, en, &k);
			r = row_of(d, &k, pi, e);
			if (r < 0)
				return -ENOMEM;
			d->cells[(size_t)r * d->nr + pi].period += en->self;
			d->cells[(size_t)r * d->nr + pi].samples += en->samples;
		}
	}
	return 0;
}

/* Drops the rows baseline_only leaves out. */
static void select_rows(struct perfev_profile_diff *d)
{
	size_t out = 0;

	for (size_t r = 0; r < d->nr_rows; r++) {
		const struct perfev_profile_diff_cell *c = &d->cells[r * d->nr];
		bool paired = false;

		for (size_t pi = 1; pi < d->nr; pi++)
			paired |= c[pi].period != 0;
		if (d->o.baseline_only && (!c[0].period || !paired))
			continue;
		if (out != r) {
			d->rows[out] = d->rows[r];
			d->keys[out] = d->keys[r];
			memmove(&d->cells[out * d->nr], c, d->nr * sizeof(*c));
		}
		out++;
	}
	d->nr_rows = out;
}

static void compute(struct perfev_profile_diff *d)
{
	uint64_t kept = 0;

	for (size_t r = 0; r < d->nr_rows; r++)
		kept += d->cells[r * d->nr].period;
	for (size_t r = 0; r < d->nr_rows; r++) {
		struct perfev_profile_diff_cell *c = &d->cells[r * d->nr];

		for (size_t pi = 0; pi < d->nr; pi++)
			c[pi].share = d->total[pi] ? 100.0 * (double)c[pi].period / (double)d->total[pi] : 0;
		for (size_t pi = 1; pi < d->nr; pi++) {
			if (!c[pi].period)
				continue;
			c[pi].delta = c[pi].share - c[0].share;
			c[pi].ratio = (double)c[pi].period / (double)(c[0].period ? c[0].period : 1);
			c[pi].wdiff = (int64_t)c[pi].period * d->o.wdiff_new -
				      (int64_t)c[0].period * d->o.wdiff_base;
		}
		/* perf diff -b shows the baseline's shares of the rows it keeps, its deltas of the whole. */
		if (d->o.baseline_only)
			c[0].share = kept ? 100.0 * (double)c[0].period / (double)kept : 0;
	}
}

/* Larger first: <0 when a's value comes before b's. */
static int by_value(const struct perfev_profile_diff *d, const struct perfev_profile_diff_cell *a,
		    const struct perfev_profile_diff_cell *b)
{
	double x, y;

	switch (d->o.compute) {
	case PERFEV_DIFF_DELTA_ABS:
		x = fabs(a->delta), y = fabs(b->delta);
		break;
	case PERFEV_DIFF_DELTA:
		x = a->delta, y = b->delta;
		break;
	case PERFEV_DIFF_RATIO:
		x = a->ratio, y = b->ratio;
		break;
	default:
		return a->wdiff > b->wdiff ? -1 : a->wdiff < b->wdiff;
	}
	return x > y ? -1 : x < y;
}

static int str_cmp(const char *a, const char *b)
{
	if (!a || !b)
		return a ? -1 : b ? 1 : 0; /* the unresolved after the named */
	return strcmp(a, b);
}

/* The keys' texts, in the order given: names and files alphabetically. */
static int by_keys(const struct perfev_profile_diff *d, const struct mkey *a, const struct mkey *b)
{
	const enum perfev_profile_key *keys = d->o.keys;
	int c = 0;

	for (size_t i = 0; i < d->o.nr_keys && !c; i++) {
		switch (keys[i]) {
		case PERFEV_PROFILE_KEY_COMM:
			c = str_cmp(a->comm, b->comm);
			break;
		case PERFEV_PROFILE_KEY_PID:
			c = a->pid != b->pid ? (a->pid < b->pid ? -1 : 1) : str_cmp(a->comm, b->comm);
			break;
		case PERFEV_PROFILE_KEY_TID:
			c = a->tid != b->tid ? (a->tid < b->tid ? -1 : 1) : str_cmp(a->comm, b->comm);
			break;
		case PERFEV_PROFILE_KEY_DSO:
			c = str_cmp(a->dso, b->dso);
			break;
		case PERFEV_PROFILE_KEY_SYM:
			c = str_cmp(a->sym, b->sym);
			if (!c && a->addr != b->addr)
				c = a->addr < b->addr ? -1 : 1;
			break;
		case PERFEV_PROFILE_KEY_SRCLINE:
			c = str_cmp(a->src, b->src);
			if (!c && a->line != b->line)
				c = a->line < b->line ? -1 : 1;
			break;
		default:
			break;
		}
	}
	return c;
}

static bool paired(const struct perfev_profile_diff *d, const struct perfev_profile_diff_cell *c)
{
	for (size_t pi = 1; pi < d->nr; pi++)
		if (c[pi].period)
			return true;
	return false;
}

static int by_order(const void *x, const void *y, void *ctx)
{
	const struct perfev_profile_diff *d = ctx;
	uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
	const struct perfev_profile_diff_cell *ca = &d->cells[a * d->nr], *cb = &d->cells[b * d->nr];
	bool ratio_like = d->o.compute == PERFEV_DIFF_RATIO || d->o.compute == PERFEV_DIFF_WDIFF;
	int c;

	if (!d->o.order_baseline) {
		size_t k = d->o.order;
		bool pa = ca[k].period, pb = cb[k].period;

		if (pa != pb)
			return pa ? -1 : 1;
		/*
		 * Ratios and weighted differences mean nothing without the
		 * baseline: those rows after the others, and among themselves
		 * left to the orders below.
		 */
		if (pa && ratio_like && (!ca[0].period || !cb[0].period)) {
			if (!ca[0].period != !cb[0].period)
				return ca[0].period ? -1 : 1;
		} else if (pa && (c = by_value(d, &ca[k], &cb[k]))) {
			return c;
		}
	}
	if (ca[0].period != cb[0].period)
		return ca[0].period > cb[0].period ? -1 : 1;
	for (size_t pi = 1; pi < d->nr; pi++) {
		bool ha = paired(d, ca), hb = paired(d, cb), pa = ca[pi].period, pb = cb[pi].period;

		if (ha != hb)
			return ha ? -1 : 1;
		if (!ha)
			continue;
		if (pa != pb)
			return pa ? -1 : 1;
		if (pa && (c = by_value(d, &ca[pi], &cb[pi])))
			return c;
	}
	c = by_keys(d, &d->keys[a], &d->keys[b]);
	return c ? c : (a < b ? -1 : a > b);
}

/* The rows (with their keys and cells) in perf diff's order. */
static int order_rows(struct perfev_profile_diff *d)
{
	size_t n = d->nr_rows;
	uint32_t *ord = malloc((n ? n : 1) * sizeof(*ord));
	struct perfev_profile_diff_row *rows = malloc((n ? n : 1) * sizeof(*rows));
	struct perfev_profile_diff_cell *cells = malloc((n ? n : 1) * d->nr * sizeof(*cells));
	struct mkey *keys = malloc((n ? n : 1) * sizeof(*keys));

	if (!ord || !rows || !cells || !keys) {
		free(ord);
		free(rows);
		free(cells);
		free(keys);
		return -ENOMEM;
	}
	for (size_t i = 0; i < n; i++)
		ord[i] = (uint32_t)i;
	qsort_r(ord, n, sizeof(*ord), by_order, d);
	for (size_t i = 0; i < n; i++) {
		rows[i] = d->rows[ord[i]];
		keys[i] = d->keys[ord[i]];
		memcpy(&cells[i * d->nr], &d->cells[ord[i] * d->nr], d->nr * sizeof(*cells));
	}
	for (size_t i = 0; i < n; i++)
		rows[i].cells = &cells[i * d->nr];
	free(ord);
	free(d->rows);
	free(d->cells);
	free(d->keys);
	d->rows = rows;
	d->cells = cells;
	d->keys = keys;
	return 0;
}

static const enum perfev_profile_key default_keys[] = { PERFEV_PROFILE_KEY_DSO, PERFEV_PROFILE_KEY_SYM };

static int check_opts(struct perfev_profile_diff *d, size_t nr)
{
	if (!d->o.nr_keys) {
		d->o.keys = default_keys;
		d->o.nr_keys = 2;
	} else if (!d->o.keys) {
		return set_error(EINVAL, "profile diff: nr_keys given without keys");
	}
	for (size_t i = 0; i < d->o.nr_keys; i++) {
		if ((unsigned)d->o.keys[i] >= PERFEV_PROFILE_NR_KEYS)
			return set_error(EINVAL, "profile diff: unknown sort key %d", (int)d->o.keys[i]);
		d->kbits |= KEY_BIT(d->o.keys[i]);
	}
	if ((unsigned)d->o.compute > PERFEV_DIFF_WDIFF)
		return set_error(EINVAL, "profile diff: unknown computation %d", (int)d->o.compute);
	if (d->o.compute == PERFEV_DIFF_WDIFF && (!d->o.wdiff_base || !d->o.wdiff_new))
		return set_error(EINVAL, "profile diff: wdiff's weights must not be zero");
	if (!d->o.order)
		d->o.order = 1;
	if (d->o.order >= nr)
		return set_error(EINVAL, "profile diff: order %u is past the %zu profiles compared",
				 d->o.order, nr);
	return 0;
}

struct perfev_profile_diff *perfev_profile_diff__new(const struct perfev_profile *const *profiles,
						     size_t nr,
						     const struct perfev_profile_diff_opts *opts)
{
	struct perfev_profile_diff *d;
	int err;

	if (!profiles || nr < 2)
		return set_error_ptr(EINVAL, "profile diff: a baseline and at least one profile are needed");
	for (size_t i = 0; i < nr; i++)
		if (!profiles[i])
			return set_error_ptr(EINVAL, "profile diff: profile %zu is NULL", i);
	d = calloc(1, sizeof(*d));
	if (!d)
		return set_error_ptr(ENOMEM, "profile diff: out of memory");
	if (OPTS_COPY(&d->o, opts, perfev_profile_diff_opts, relative) < 0) {
		free(d);
		return NULL;
	}
	d->nr = nr;
	d->p = profiles;
	err = check_opts(d, nr);
	if (err) {
		free(d);
		errno = -err;
		return NULL;
	}
	d->t = calloc(nr, sizeof(*d->t));
	d->total = calloc(nr, sizeof(*d->total));
	err = d->t && d->total ? 0 : -ENOMEM;
	for (size_t i = 0; i < nr && !err; i++) {
		struct perfev_profile_table_opts to = { .sz = sizeof(to), .keys = d->o.keys,
							.nr_keys = d->o.nr_keys };

		d->t[i] = perfev_profile_table__new(profiles[i], &to);
		if (!d->t[i])
			err = -errno;
	}
	/* Shares are of each profile's whole total, or with relative of what the filters keep (gather()). */
	for (size_t i = 0; i < nr && !err && !d->o.relative; i++)
		d->total[i] = perfev_profile__node(profiles[i], 0)->total;
	if (!err)
		err = gather(d);
	if (!err) {
		select_rows(d);
		compute(d);
		err = order_rows(d);
	}
	idxhash_free(&d->h);
	if (err) {
		perfev_profile_diff__delete(d);
		if (err == -ENOMEM)
			return set_error_ptr(ENOMEM, "profile diff: out of memory");
		errno = -err;
		return NULL;
	}
	return d;
}

void perfev_profile_diff__delete(struct perfev_profile_diff *d)
{
	if (!d)
		return;
	for (size_t i = 0; d->t && i < d->nr; i++)
		perfev_profile_table__delete(d->t[i]);
	free(d->t);
	free(d->total);
	free(d->rows);
	free(d->cells);
	free(d->keys);
	idxhash_free(&d->h);
	free(d);
}

size_t perfev_profile_diff__nr_rows(const struct perfev_profile_diff *d)
{
	return d->nr_rows;
}

const struct perfev_profile_diff_row *perfev_profile_diff__row(const struct perfev_profile_diff *d,
							      size_t i)
{
	return i < d->nr_rows ? &d->rows[i] : NULL;
}

const struct perfev_profile_table *perfev_profile_diff__table(const struct perfev_profile_diff *d,
							      size_t i)
{
	return i < d->nr ? d->t[i] : NULL;
}

uint64_t perfev_profile_diff__total(const struct perfev_profile_diff *d, size_t i)
{
	return i < d->nr ? d->total[i] : 0;
}
