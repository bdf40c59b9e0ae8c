/* SPDX-License-Identifier: MIT */
/*
 * The samples of a session by event, symbol and address: what annotating
 * any of its functions needs, gathered in one pass.  Each (event, DSO,
 * symbol) is an entry; each sample is appended as (entry, address,
 * period), its entry found through the session's frame number when it has
 * one, so adding touches no table that grows with the addresses sampled.
 * Before the first question about addresses, the records are grouped by
 * entry (a counting sort), so a function's samples are one slice however
 * many functions the session sampled; whenever the records reach a bound,
 * equal (entry, address) records are merged, which keeps memory to the
 * addresses sampled, not the samples.
 */
#include <stdlib.h>
#include <string.h>

#include "util/internal.h"
#include "util/idxhash.h"
#include "annotate/annotate_int.h"

/* Records kept before they are merged (then the bound grows with what merging leaves). */
#define COMPACT_AT ((size_t)1 << 22)

struct hist_sym {
	struct perfev_annotate_sym pub;
	size_t first, nr; /* its records once merged */
};

struct hist_rec {
	uint64_t addr;
	uint64_t period;
	uint64_t nr_samples;
	uint32_t sym; /* its entry */
};

struct hist_total {
	uint64_t nr_samples, period;
	bool seen;
};

/* An event's map from the session's frame numbers to entries (index + 1; 0: not yet). */
struct by_id {
	uint32_t *v;
	size_t cap;
};

struct perfev_annotate_hist {
	struct hist_sym *syms;
	size_t nr_syms, syms_cap;
	struct idxhash sym_index;
	struct hist_rec *recs;
	size_t nr_recs, recs_cap, compact_at;
	bool grouped; /* recs are in order by entry */
	struct by_id *by_id; /* by evsel */
	size_t nr_by_id;
	struct hist_total *totals; /* by evsel */
	size_t nr_totals;
	uint32_t *order; /* entries, hottest first, when sorted */
	bool sorted;
	uint32_t last_sym1; /* the entry hit last, index + 1 */
};

struct perfev_annotate_hist *perfev_annotate_hist__new(void)
{
	struct perfev_annotate_hist *h = calloc(1, sizeof(*h));

	if (!h)
		return set_error_ptr(ENOMEM, "no memory for an annotation histogram");
	h->compact_at = COMPACT_AT;
	return h;
}

void perfev_annotate_hist__delete(struct perfev_annotate_hist *h)
{
	if (!h)
		return;
	for (size_t i = 0; i < h->nr_by_id; i++)
		free(h->by_id[i].v);
	free(h->by_id);
	free(h->syms);
	free(h->recs);
	free(h->totals);
	free(h->order);
	idxhash_free(&h->sym_index);
	free(h);
}

/* ---- entries ---- */

struct sym_key {
	const struct perfev_annotate_hist *h;
	int evsel;
	const struct perfev_dso *d;
	const struct perfev_symbol *sym;
};

static bool sym_eq(const void *ctx, uint32_t idx)
{
	const struct sym_key *k = ctx;
	const struct perfev_annotate_sym *s = &k->h->syms[idx].pub;

	return s->evsel == k->evsel && s->dso == k->d && s->sym == k->sym;
}

/* The entry of (evsel, d, sym), made when new; -1 on ENOMEM. */
static int64_t sym_entry(struct perfev_annotate_hist *h, int evsel, struct perfev_dso *d,
			 const struct perfev_symbol *sym)
{
	struct sym_key k = { h, evsel, d, sym };
	uint64_t hash;
	int64_t i;

	if (h->last_sym1 && sym_eq(&k, h->last_sym1 - 1))
		return h->last_sym1 - 1;
	hash = hash_mix(hash_mix((uint64_t)(uintptr_t)d, (uint64_t)(uintptr_t)sym), (uint64_t)evsel);
	i = idxhash_find(&h->sym_index, hash, sym_eq, &k);
	if (i < 0) {
		if (h->nr_syms >= UINT32_MAX - 1 ||
		    !array_grow((void **)&h->syms, &h->syms_cap, h->nr_syms + 1, sizeof(*h->syms)) ||
		    idxhash_insert(&h->sym_index, hash, (uint32_t)h->nr_syms))
			return -1;
		h->syms[h->nr_syms] = (struct hist_sym){ .pub = { .evsel = evsel, .dso = d, .sym = sym } };
		i = (int64_t)h->nr_syms++;
	}
	h->last_sym1 = (uint32_t)i + 1;
	return i;
}

/* The entry of a session frame numbered id (> 0) for evsel, through the event's map; -1 on ENOMEM. */
static int64_t frame_entry(struct perfev_annotate_hist *h, int evsel, const struct perfev_frame *f)
{
	struct by_id *b;
	int64_t e;

	if ((size_t)evsel >= h->nr_by_id) {
		struct by_id *n = realloc(h->by_id, ((size_t)evsel + 1) * sizeof(*n));

		if (!n)
			return -1;
		memset(n + h->nr_by_id, 0, ((size_t)evsel + 1 - h->nr_by_id) * sizeof(*n));
		h->by_id = n;
		h->nr_by_id = (size_t)evsel + 1;
	}
	b = &h->by_id[evsel];
	if (f->id < b->cap && b->v[f->id])
		return b->v[f->id] - 1;
	e = sym_entry(h, evsel, f->dso, f->sym);
	if (e < 0)
		return -1;
	if (f->id >= b->cap) {
		size_t old = b->cap;

		if (!array_grow((void **)&b->v, &b->cap, (size_t)f->id + 1, sizeof(*b->v)))
			return e; /* still right, just not remembered */
		memset(b->v + old, 0, (b->cap - old) * sizeof(*b->v));
	}
	b->v[f->id] = (uint32_t)e + 1;
	return e;
}

/* ---- records ---- */

static int count_total(struct perfev_annotate_hist *h, int evsel, uint64_t period)
{
	if ((size_t)evsel >= h->nr_totals) {
		size_t n = (size_t)evsel + 1;
		struct hist_total *t = realloc(h->totals, n * sizeof(*t));

		if (!t)
			return set_error(ENOMEM, "no memory for the totals of %zu events", n);
		memset(t + h->nr_totals, 0, (n - h->nr_totals) * sizeof(*t));
		h->totals = t;
		h->nr_totals = n;
	}
	h->totals[evsel].nr_samples++;
	h->totals[evsel].period += period;
	h->totals[evsel].seen = true;
	return 0;
}

static int cmp_rec_addr(const void *pa, const void *pb)
{
	const struct hist_rec *a = pa, *b = pb;

	return (a->addr > b->addr) - (a->addr < b->addr);
}

/*
 * Groups the records by entry (a counting sort: each entry's records one
 * slice); with dedup, also orders each slice by address and merges equal
 * ones, which bounds memory by the addresses sampled.  0 or -ENOMEM
 * (nothing changed).
 */
static int group(struct perfev_annotate_hist *h, bool dedup)
{
	struct hist_rec *out;
	size_t *at, n = 0;

	if (h->grouped && !dedup)
		return 0;
	out = malloc((h->nr_recs ? h->nr_recs : 1) * sizeof(*out));
	at = calloc(h->nr_syms + 1, sizeof(*at));
	if (!out || !at) {
		free(out);
		free(at);
		return set_error(ENOMEM, "no memory to order %zu sample records", h->nr_recs);
	}
	for (size_t i = 0; i < h->nr_recs; i++)
		at[h->recs[i].sym + 1]++;
	for (size_t s = 0; s < h->nr_syms; s++)
		at[s + 1] += at[s];
	for (size_t i = 0; i < h->nr_recs; i++)
		out[at[h->recs[i].sym]++] = h->recs[i];
	/* at[s] is now the end of entry s's records, where entry s + 1 begins. */
	for (size_t s = 0, start = 0; s < h->nr_syms; start = at[s], s++) {
		size_t first = n;

		if (dedup)
			sort_array(out + start, at[s] - start, sizeof(*out), cmp_rec_addr);
		for (size_t i = start; i < at[s]; i++) {
			if (dedup && n > first && out[n - 1].addr == out[i].addr) {
				out[n - 1].period += out[i].period;
				out[n - 1].nr_samples += out[i].nr_samples;
			} else {
				out[n++] = out[i];
			}
		}
		h->syms[s].first = first;
		h->syms[s].nr = n - first;
	}
	free(at);
	free(h->recs);
	h->recs = out;
	h->recs_cap = h->nr_recs ? h->nr_recs : 1;
	h->nr_recs = n;
	h->grouped = true;
	return 0;
}

static int append(struct perfev_annotate_hist *h, uint32_t sym, uint64_t addr, uint64_t period)
{
	if (h->nr_recs >= h->compact_at) {
		if (group(h, true))
			return -ENOMEM;
		/* Merging left most of them: these are distinct addresses, make room for more. */
		if (h->nr_recs > h->compact_at / 2)
			h->compact_at *= 2;
	}
	if (!array_grow((void **)&h->recs, &h->recs_cap, h->nr_recs + 1, sizeof(*h->recs)))
		return set_error(ENOMEM, "no memory for %zu sample records", h->nr_recs + 1);
	h->recs[h->nr_recs++] = (struct hist_rec){ addr, period, 1, sym };
	h->grouped = false;
	return 0;
}

/* A sample of entry e (its address kept with keep_addr); 0 or -ENOMEM (e < 0: none made). */
static int weigh(struct perfev_annotate_hist *h, int64_t e, bool keep_addr, uint64_t addr,
		 uint64_t period)
{
	if (e < 0)
		return set_error(ENOMEM, "no memory for the annotation histogram's %zu symbols",
				 h->nr_syms);
	if (keep_addr && append(h, (uint32_t)e, addr, period))
		return -ENOMEM;
	h->syms[e].pub.nr_samples++;
	h->syms[e].pub.period += period;
	h->sorted = false;
	return 0;
}

static int add_to(struct perfev_annotate_hist *h, int64_t e, uint64_t addr, uint64_t period)
{
	return weigh(h, e, true, addr, period);
}

int perfev_annotate_hist__add_addr(struct perfev_annotate_hist *h, int evsel, struct perfev_dso *d,
				   const struct perfev_symbol *sym, uint64_t addr, uint64_t period)
{
	if (!h || evsel < 0)
		return set_error(EINVAL, "perfev_annotate_hist__add_addr: %s",
				 h ? "negative event index" : "no histogram");
	if (count_total(h, evsel, period))
		return -ENOMEM;
	if (!d)
		return 0; /* in no known file: only the event's total */
	return add_to(h, sym_entry(h, evsel, d, sym), addr, period);
}

int perfev_annotate_hist__add(struct perfev_annotate_hist *h, const struct perfev_session_sample *s)
{
	const struct perfev_frame *f;

	if (!h || !s)
		return set_error(EINVAL, "perfev_annotate_hist__add: no %s", h ? "sample" : "histogram");
	if (s->evsel < 0)
		return 0;
	f = s->nr_frames ? &s->frames[0] : NULL;
	if (!f || !f->dso || !f->id)
		return perfev_annotate_hist__add_addr(h, s->evsel, f ? f->dso : NULL,
						      f ? f->sym : NULL, f ? f->addr : 0, s->period);
	if (count_total(h, s->evsel, s->period))
		return -ENOMEM;
	return add_to(h, frame_entry(h, s->evsel, f), f->addr, s->period);
}

int perfev_annotate_hist__count(struct perfev_annotate_hist *h, const struct perfev_session_sample *s)
{
	const struct perfev_frame *f;

	if (!h || !s)
		return set_error(EINVAL, "perfev_annotate_hist__count: no %s",
				 h ? "sample" : "histogram");
	if (s->evsel < 0)
		return 0;
	if (count_total(h, s->evsel, s->period))
		return -ENOMEM;
	f = s->nr_frames ? &s->frames[0] : NULL;
	if (!f || !f->dso)
		return 0;
	return weigh(h, f->id ? frame_entry(h, s->evsel, f) : sym_entry(h, s->evsel, f->dso, f->sym),
		     false, 0, s->period);
}

int perfev_annotate_hist__total(const struct perfev_annotate_hist *h, int evsel,
				uint64_t *nr_samples, uint64_t *period)
{
	if (!h || evsel < 0 || (size_t)evsel >= h->nr_totals || !h->totals[evsel].seen)
		return -ENOENT;
	if (nr_samples)
		*nr_samples = h->totals[evsel].nr_samples;
	if (period)
		*period = h->totals[evsel].period;
	return 0;
}

/* ---- the hottest first ---- */

static int str_cmp(const char *a, const char *b)
{
	return strcmp(a ? a : "", b ? b : "");
}

static int cmp_hot(const void *pa, const void *pb, void *ctx)
{
	const struct perfev_annotate_hist *h = ctx;
	const struct perfev_annotate_sym *a = &h->syms[*(const uint32_t *)pa].pub;
	const struct perfev_annotate_sym *b = &h->syms[*(const uint32_t *)pb].pub;
	int c;

	if (a->period != b->period)
		return a->period > b->period ? -1 : 1;
	if (a->nr_samples != b->nr_samples)
		return a->nr_samples > b->nr_samples ? -1 : 1;
	if (a->evsel != b->evsel)
		return a->evsel < b->evsel ? -1 : 1;
	c = str_cmp(perfev_dso__name(a->dso), perfev_dso__name(b->dso));
	if (c)
		return c;
	if (!a->sym || !b->sym)
		return !a->sym - !b->sym;
	c = str_cmp(a->sym->raw_name, b->sym->raw_name);
	if (c)
		return c;
	return (a->sym->start > b->sym->start) - (a->sym->start < b->sym->start);
}

static bool sort_syms(struct perfev_annotate_hist *h)
{
	uint32_t *o;

	if (h->sorted)
		return true;
	o = realloc(h->order, (h->nr_syms ? h->nr_syms : 1) * sizeof(*o));
	if (!o) {
		set_error(ENOMEM, "no memory to sort %zu symbols", h->nr_syms);
		return false;
	}
	h->order = o;
	for (size_t i = 0; i < h->nr_syms; i++)
		o[i] = (uint32_t)i;
	qsort_r(o, h->nr_syms, sizeof(*o), cmp_hot, h);
	h->sorted = true;
	return true;
}

size_t perfev_annotate_hist__nr_syms(struct perfev_annotate_hist *h)
{
	return h && sort_syms(h) ? h->nr_syms : 0;
}

const struct perfev_annotate_sym *perfev_annotate_hist__sym(struct perfev_annotate_hist *h, size_t i)
{
	if (!h || i >= h->nr_syms || !sort_syms(h)) {
		errno = ENOENT;
		return NULL;
	}
	return &h->syms[h->order[i]].pub;
}

int hist__for_each_addr(struct perfev_annotate_hist *h, int evsel, const struct perfev_dso *d,
			uint64_t start, uint64_t end, hist_addr_fn fn, void *ctx)
{
	if (group(h, false))
		return -ENOMEM;
	for (size_t i = 0; i < h->nr_syms; i++) {
		const struct hist_sym *s = &h->syms[i];
		const struct perfev_symbol *sym = s->pub.sym;

		if (s->pub.evsel != evsel || s->pub.dso != d)
			continue;
		/* A symbol wholly outside the range has no address in it. */
		if (sym && sym->size &&
		    (sym->start >= end || (sym->start < start && start - sym->start >= sym->size)))
			continue;
		for (size_t k = s->first; k < s->first + s->nr; k++) {
			const struct hist_rec *r = &h->recs[k];

			if (r->addr >= start && r->addr < end)
				fn(ctx, r->addr, r->nr_samples, r->period);
		}
	}
	return 0;
}
