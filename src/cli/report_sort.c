// SPDX-License-Identifier: MIT
/*
 * The order of perfev report's rows: heaviest first (the shown weight, then
 * self), then by the keys' texts.  Hundreds of thousands of rows tie on
 * weight (every address sampled once is a row), so a comparison must not
 * chase strings through memory: the keys before the last become ranks (their
 * distinct texts are sorted once, and are most often a few commands and
 * files), and the last key is compared by its first PFX_BYTES bytes, held
 * in the record that is sorted.  Only rows whose last texts agree in those
 * bytes compare the strings themselves.  24 bytes hold a whole unnamed
 * address ("[.] 0x0000000001a749e1", most rows of a big C++ program's
 * report): with 16, all of those agreed up to their last digits.  The
 * record stays 64 bytes, as with 16: its memory counts at the peak of a
 * children report.
 */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "report.h"

#define PFX_WORDS 3
#define PFX_BYTES (8 * PFX_WORDS)

struct srec {
	uint64_t v, self;
	uint64_t pfx[PFX_WORDS]; /* the last key's first PFX_BYTES bytes, big-endian, NUL-padded */
	uint32_t rank[NR_KEYS - 1];
	uint32_t row : 31;
	uint32_t whole : 1; /* the last key's text ends within pfx */
};
_Static_assert(sizeof(struct srec) == 64, "a sort record is a cache line");

struct distinct {
	const char *s;
	uint32_t id;
};

static int distinct_cmp(const void *a, const void *b)
{
	return strcmp(((const struct distinct *)a)->s, ((const struct distinct *)b)->s);
}

static size_t slot_of(const struct distinct *slot, size_t cap, const char *s)
{
	size_t j = ((uintptr_t)s * 0x9e3779b97f4a7c15ull >> 20) & (cap - 1);

	while (slot[j].s && slot[j].s != s)
		j = (j + 1) & (cap - 1);
	return j;
}

/*
 * rank[i]: the place of row i's text of key k among the distinct texts, equal
 * texts equal.  The table of distinct pointers starts small and doubles: they
 * are most often a few, and a table sized by the rows (two megabytes for
 * 65,000) costs more to fault in than the whole ranking.
 */
static bool rank_key(const struct report_row *rows, size_t n, enum report_key k, uint32_t *rank)
{
	size_t cap = 64, nd = 0;
	struct distinct *slot, *d = NULL;
	uint32_t *id = NULL, *of_id = NULL;
	bool ok = false;

	slot = calloc(cap, sizeof(*slot));
	id = malloc((n ? n : 1) * sizeof(*id));
	if (!slot || !id)
		goto out;
	/* Distinct by pointer first: the texts of one command or file are one string. */
	for (size_t i = 0; i < n; i++) {
		const char *s = rows[i].text[k];
		size_t j = slot_of(slot, cap, s);

		if (!slot[j].s) {
			if (2 * (nd + 1) > cap) {
				struct distinct *bigger = calloc(2 * cap, sizeof(*bigger));

				if (!bigger)
					goto out;
				for (size_t m = 0; m < cap; m++)
					if (slot[m].s)
						bigger[slot_of(bigger, 2 * cap, slot[m].s)] = slot[m];
				free(slot);
				slot = bigger;
				cap *= 2;
				j = slot_of(slot, cap, s);
			}
			slot[j] = (struct distinct){ s, (uint32_t)nd++ };
		}
		id[i] = slot[j].id;
	}
	d = malloc((nd ? nd : 1) * sizeof(*d));
	of_id = malloc((nd ? nd : 1) * sizeof(*of_id));
	if (!d || !of_id)
		goto out;
	for (size_t j = 0, m = 0; j < cap; j++)
		if (slot[j].s)
			d[m++] = slot[j];
	qsort(d, nd, sizeof(*d), distinct_cmp);
	for (size_t j = 0, r = 0; j < nd; j++) {
		if (j && strcmp(d[j - 1].s, d[j].s))
			r++;
		of_id[d[j].id] = r;
	}
	for (size_t i = 0; i < n; i++)
		rank[i] = of_id[id[i]];
	ok = true;
out:
	free(slot);
	free(id);
	free(d);
	free(of_id);
	return ok;
}

static uint64_t be64(const unsigned char *b)
{
	uint64_t v = 0;

	for (int i = 0; i < 8; i++)
		v = v << 8 | b[i];
	return v;
}

struct sort_ctx {
	const struct report_row *rows;
	enum report_key last;
	int nr_ranks;
};

static inline bool before(const struct sort_ctx *c, const struct srec *x, const struct srec *y)
{
	if (x->v != y->v)
		return x->v > y->v;
	if (x->self != y->self)
		return x->self > y->self;
	for (int i = 0; i < c->nr_ranks; i++)
		if (x->rank[i] != y->rank[i])
			return x->rank[i] < y->rank[i];
	for (int i = 0; i < PFX_WORDS; i++)
		if (x->pfx[i] != y->pfx[i])
			return x->pfx[i] < y->pfx[i];
	if (!x->whole) {
		const char *s = c->rows[x->row].text[c->last], *t = c->rows[y->row].text[c->last];
		int r = s == t ? 0 : strcmp(s + PFX_BYTES, t + PFX_BYTES);

		if (r)
			return r < 0;
	}
	return x->row < y->row;
}

/* Merges the sorted from[0..h) and from[h..n) into to. */
static void merge(const struct sort_ctx *c, const struct srec *from, size_t h, size_t n,
		  struct srec *to)
{
	size_t i = 0, j = h, o = 0;

	while (i < h && j < n)
		to[o++] = before(c, &from[j], &from[i]) ? from[j++] : from[i++];
	while (i < h)
		to[o++] = from[i++];
	while (j < n)
		to[o++] = from[j++];
}

/*
 * Sorts x[0..n) into x (into_tmp false) or into tmp (true), a merge sort
 * from the top down: the small merges, most of them, work within the cache.
 */
static void msort(const struct sort_ctx *c, struct srec *x, struct srec *tmp, size_t n,
		  bool into_tmp)
{
	if (n <= 12) {
		struct srec *d = into_tmp ? tmp : x;

		if (into_tmp)
			memcpy(tmp, x, n * sizeof(*x));
		for (size_t i = 1; i < n; i++) {
			struct srec v = d[i];
			size_t j = i;

			for (; j > 0 && before(c, &v, &d[j - 1]); j--)
				d[j] = d[j - 1];
			d[j] = v;
		}
		return;
	}
	size_t h = n / 2;
	/* Both halves sorted into the other buffer, then merged back into the one asked for. */
	struct srec *from = into_tmp ? x : tmp, *to = into_tmp ? tmp : x;

	msort(c, x, tmp, h, !into_tmp);
	msort(c, x + h, tmp + h, n - h, !into_tmp);
	merge(c, from, h, n, to);
}

/* One half of the rows sorted into the other buffer, on a thread of its own. */
struct half {
	const struct sort_ctx *c;
	struct srec *x, *tmp;
	size_t n;
};

static void *sort_half(void *arg)
{
	const struct half *h = arg;

	msort(h->c, h->x, h->tmp, h->n, true);
	return NULL;
}

/* Rows from a count on are sorted in two halves at once (msort's top level on two threads). */
#define SORT_SHARED 16384

static void sort_recs(const struct sort_ctx *c, struct srec *x, struct srec *tmp, size_t n)
{
	size_t h = n / 2;
	struct half second = { c, x + h, tmp + h, n - h };
	pthread_t thread;

	if (n < SORT_SHARED || !cli_thread_start(&thread, sort_half, &second)) {
		msort(c, x, tmp, n, false);
		return;
	}
	msort(c, x, tmp, h, true);
	pthread_join(thread, NULL);
	merge(c, tmp, h, n, x);
}

bool report_sort_rows(const struct report_row *rows, size_t n, const enum report_key *keys,
		      int nr_keys, uint32_t *order)
{
	struct sort_ctx c = { rows, nr_keys ? keys[nr_keys - 1] : KEY_SYM, nr_keys ? nr_keys - 1 : 0 };
	/* Row numbers take 31 bits: 2^31 rows would be hundreds of gigabytes of table anyway. */
	bool fits = n < (1u << 31);
	struct srec *a = fits ? malloc((n ? n : 1) * sizeof(*a)) : NULL;
	struct srec *b = fits ? malloc((n ? n : 1) * sizeof(*b)) : NULL;
	uint32_t *rank = fits ? malloc((n ? n : 1) * sizeof(*rank)) : NULL;
	bool ok = false;

	if (!a || !b || !rank)
		goto out;
	for (size_t i = 0; i < n; i++) {
		unsigned char p[PFX_BYTES] = { 0 };
		const char *s = nr_keys ? rows[i].text[c.last] : "";
		size_t len = strnlen(s, sizeof(p));

		memcpy(p, s, len);
		a[i] = (struct srec){ .v = rows[i].v, .self = rows[i].self, .row = (uint32_t)i,
				      .whole = len < sizeof(p) };
		for (int w = 0; w < PFX_WORDS; w++)
			a[i].pfx[w] = be64(p + 8 * w);
	}
	for (int k = 0; k < c.nr_ranks; k++) {
		if (!rank_key(rows, n, keys[k], rank))
			goto out;
		for (size_t i = 0; i < n; i++)
			a[i].rank[k] = rank[i];
	}
	sort_recs(&c, a, b, n);
	for (size_t i = 0; i < n; i++)
		order[i] = a[i].row;
	ok = true;
out:
	free(a);
	free(b);
	free(rank);
	return ok;
}
