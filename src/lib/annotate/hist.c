/* SPDX-License-Identifier: MIT */
/*
 * The samples of a session by event, symbol and address: what annotating
 * any of its functions needs, gathered in one pass.  Each (event, DSO,
 * symbol) is an entry, each (entry, address) a bucket on the entry's own
 * list, so annotating one function reads only its own addresses however
 * many functions the session sampled.
 */
#include <stdlib.h>
#include <string.h>

#include "util/internal.h"
#include "util/idxhash.h"
#include "annotate/annotate_int.h"

struct hist_sym {
	struct perfev_annotate_sym pub;
	uint32_t first; /* index + 1 of its first address bucket; 0: none */
};

struct hist_addr {
	uint64_t addr;
	uint64_t nr_samples, period;
	uint32_t sym;  /* its entry */
	uint32_t next; /* index + 1 of the entry's next bucket; 0: the last */
};

struct hist_total {
	uint64_t nr_samples, period;
	bool seen;
};

struct perfev_annotate_hist {
	struct hist_sym *syms;
	size_t nr_syms, syms_cap;
	struct idxhash sym_index;
	struct hist_addr *addrs;
	size_t nr_addrs, addrs_cap;
	struct idxhash addr_index;
	struct hist_total *totals; /* by evsel */
	size_t nr_totals;
	uint32_t *order; /* entries, hottest first, when sorted */
	bool sorted;
	/* The last bucket hit: a hot loop samples the same few addresses over and over. */
	uint32_t last_addr1;
};

struct perfev_annotate_hist *perfev_annotate_hist__new(void)
{
	struct perfev_annotate_hist *h = calloc(1, sizeof(*h));

	if (!h)
		return set_error_ptr(ENOMEM, "no memory for an annotation histogram");
	return h;
}

void perfev_annotate_hist__delete(struct perfev_annotate_hist *h)
{
	if (!h)
		return;
	free(h->syms);
	free(h->addrs);
	free(h->totals);
	free(h->order);
	idxhash_free(&h->sym_index);
	idxhash_free(&h->addr_index);
	free(h);
}

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

static uint64_t sym_hash(int evsel, const struct perfev_dso *d, const struct perfev_symbol *sym)
{
	return hash_mix(hash_mix((uint64_t)(uintptr_t)d, (uint64_t)(uintptr_t)sym), (uint64_t)evsel);
}

/* The entry of (evsel, d, sym), made when new; -1 on ENOMEM. */
static int64_t sym_entry(struct perfev_annotate_hist *h, int evsel, struct perfev_dso *d,
			 const struct perfev_symbol *sym)
{
	struct sym_key k = { h, evsel, d, sym };
	uint64_t hash = sym_hash(evsel, d, sym);
	int64_t i = idxhash_find(&h->sym_index, hash, sym_eq, &k);

	if (i >= 0)
		return i;
	if (h->nr_syms >= UINT32_MAX - 1 ||
	    !array_grow((void **)&h->syms, &h->syms_cap, h->nr_syms + 1, sizeof(*h->syms)) ||
	    idxhash_insert(&h->sym_index, hash, (uint32_t)h->nr_syms))
		return -1;
	h->syms[h->nr_syms] = (struct hist_sym){ .pub = { .evsel = evsel, .dso = d, .sym = sym } };
	return (int64_t)h->nr_syms++;
}

struct addr_key {
	const struct perfev_annotate_hist *h;
	uint32_t sym;
	uint64_t addr;
};

static bool addr_eq(const void *ctx, uint32_t idx)
{
	const struct addr_key *k = ctx;
	const struct hist_addr *a = &k->h->addrs[idx];

	return a->sym == k->sym && a->addr == k->addr;
}

/* The bucket of (entry, addr), made when new; NULL on ENOMEM. */
static struct hist_addr *addr_bucket(struct perfev_annotate_hist *h, uint32_t sym, uint64_t addr)
{
	struct addr_key k = { h, sym, addr };
	uint64_t hash = hash_mix(addr, sym);
	struct hist_addr *a;
	int64_t i;

	if (h->last_addr1) {
		a = &h->addrs[h->last_addr1 - 1];
		if (a->sym == sym && a->addr == addr)
			return a;
	}
	i = idxhash_find(&h->addr_index, hash, addr_eq, &k);
	if (i < 0) {
		if (h->nr_addrs >= UINT32_MAX - 1 ||
		    !array_grow((void **)&h->addrs, &h->addrs_cap, h->nr_addrs + 1, sizeof(*h->addrs)) ||
		    idxhash_insert(&h->addr_index, hash, (uint32_t)h->nr_addrs))
			return NULL;
		i = (int64_t)h->nr_addrs++;
		h->addrs[i] = (struct hist_addr){ .addr = addr, .sym = sym, .next = h->syms[sym].first };
		h->syms[sym].first = (uint32_t)i + 1;
	}
	h->last_addr1 = (uint32_t)i + 1;
	return &h->addrs[i];
}

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

int perfev_annotate_hist__add_addr(struct perfev_annotate_hist *h, int evsel, struct perfev_dso *d,
				   const struct perfev_symbol *sym, uint64_t addr, uint64_t period)
{
	struct hist_addr *a;
	int64_t e;

	if (!h || evsel < 0)
		return set_error(EINVAL, "perfev_annotate_hist__add_addr: %s",
				 h ? "negative event index" : "no histogram");
	if (count_total(h, evsel, period))
		return -ENOMEM;
	if (!d)
		return 0; /* in no known file: only the event's total */
	e = sym_entry(h, evsel, d, sym);
	if (e < 0 || !(a = addr_bucket(h, (uint32_t)e, addr)))
		return set_error(ENOMEM, "no memory for the annotation histogram's %zu addresses",
				 h->nr_addrs);
	a->nr_samples++;
	a->period += period;
	h->syms[e].pub.nr_samples++;
	h->syms[e].pub.period += period;
	h->sorted = false;
	return 0;
}

int perfev_annotate_hist__add(struct perfev_annotate_hist *h, const struct perfev_session_sample *s)
{
	const struct perfev_frame *f;

	if (!h || !s)
		return set_error(EINVAL, "perfev_annotate_hist__add: no %s", h ? "sample" : "histogram");
	if (s->evsel < 0)
		return 0;
	f = s->nr_frames ? &s->frames[0] : NULL;
	return perfev_annotate_hist__add_addr(h, s->evsel, f ? f->dso : NULL, f ? f->sym : NULL,
					      f ? f->addr : 0, s->period);
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

void hist__for_each_addr(const struct perfev_annotate_hist *h, int evsel,
			 const struct perfev_dso *d, uint64_t start, uint64_t end, hist_addr_fn fn,
			 void *ctx)
{
	for (size_t i = 0; i < h->nr_syms; i++) {
		const struct hist_sym *s = &h->syms[i];
		const struct perfev_symbol *sym = s->pub.sym;

		if (s->pub.evsel != evsel || s->pub.dso != d)
			continue;
		/* A symbol wholly outside the range has no address in it. */
		if (sym && sym->size &&
		    (sym->start >= end || (sym->start < start && start - sym->start >= sym->size)))
			continue;
		for (uint32_t a = s->first; a; a = h->addrs[a - 1].next) {
			const struct hist_addr *b = &h->addrs[a - 1];

			if (b->addr >= start && b->addr < end)
				fn(ctx, b->addr, b->nr_samples, b->period);
		}
	}
}
