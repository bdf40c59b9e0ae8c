/* SPDX-License-Identifier: MIT */
/*
 * The events of a perf.data file as its reader learns them, from the file's
 * attr section, a pipe's HEADER_ATTR records or the EVENT_DESC feature:
 * each attr with its sample layout, its ids (an open-addressing id -> event
 * map) and its name; and the reader's warnings.  The bottom of the reader:
 * the header (read.c), the features (read_features.c) and the data
 * (read_data.c) all add to it.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "perfdata/reader_int.h"

void pdr_warn(struct perfev_data_reader *r, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (r->warn)
		r->warn(r->warn_ctx, msg);
	else
		pr_warn("%s\n", msg);
}

/* ---- events and ids ---- */

static const char *const hw_names[] = {
	"cycles", "instructions", "cache-references", "cache-misses", "branches",
	"branch-misses", "bus-cycles", "stalled-cycles-frontend", "stalled-cycles-backend",
	"ref-cycles",
};
static const char *const sw_names[] = {
	"cpu-clock", "task-clock", "page-faults", "context-switches", "cpu-migrations",
	"minor-faults", "major-faults", "alignment-faults", "emulation-faults", "dummy",
	"bpf-output", "cgroup-switches",
};

/* What perf would call an event it has no name for (perf's evsel__name, roughly). */
static void derive_name(const struct perf_event_attr *a, char *out, size_t size)
{
	unsigned long long c = a->config;

	switch (a->type) {
	case PERF_TYPE_HARDWARE:
		if (c < ARRAY_SIZE(hw_names)) {
			snprintf(out, size, "%s", hw_names[c]);
			return;
		}
		break;
	case PERF_TYPE_SOFTWARE:
		if (c < ARRAY_SIZE(sw_names)) {
			snprintf(out, size, "%s", sw_names[c]);
			return;
		}
		break;
	case PERF_TYPE_RAW:
		snprintf(out, size, "raw 0x%llx", c);
		return;
	case PERF_TYPE_TRACEPOINT:
		snprintf(out, size, "tracepoint %llu", c);
		return;
	case PERF_TYPE_HW_CACHE:
		snprintf(out, size, "hw-cache 0x%llx", c);
		return;
	case PERF_TYPE_BREAKPOINT:
		snprintf(out, size, "breakpoint 0x%llx", (unsigned long long)a->bp_addr);
		return;
	}
	snprintf(out, size, "type %u config 0x%llx", a->type, c);
}

static bool fmt_equal(const struct perfev_sample_fmt *a, const struct perfev_sample_fmt *b)
{
	return a->sample_type == b->sample_type && a->read_format == b->read_format &&
	       a->sample_regs_user == b->sample_regs_user &&
	       a->sample_regs_intr == b->sample_regs_intr &&
	       a->branch_sample_type == b->branch_sample_type &&
	       a->sample_id_all == b->sample_id_all;
}

int pdr_add_evsel(struct perfev_data_reader *r, const void *attr, size_t attr_len,
		  const char *where)
{
	struct pdr_evsel *e;

	if (r->nr_evsels >= PD_MAX_ATTRS)
		return set_error(PERFEV_ERR_FORMAT,
				 "perf.data: %s: more than %u events, which no recorder writes",
				 where, PD_MAX_ATTRS);
	if (r->nr_evsels == r->cap_evsels) {
		size_t cap = r->cap_evsels ? r->cap_evsels * 2 : 4;
		void *n = realloc(r->evsels, cap * sizeof(*r->evsels));

		if (!n)
			return set_error(ENOMEM, "out of memory for %zu perf.data events", cap);
		r->evsels = n;
		r->cap_evsels = cap;
	}
	e = &r->evsels[r->nr_evsels];
	memset(e, 0, sizeof(*e));
	memcpy(&e->attr, attr, attr_len < sizeof(e->attr) ? attr_len : sizeof(e->attr));
	if (perfev_sample_fmt__from_attr(&e->attr, &e->fmt) < 0) {
		char why[512];

		snprintf(why, sizeof(why), "%s", perfev_last_error());
		return set_error(PERFEV_ERR_FORMAT, "perf.data: %s (event %zu): %s", where,
				 r->nr_evsels, why);
	}
	derive_name(&e->attr, e->derived, sizeof(e->derived));
	r->same_fmt = r->nr_evsels == 0 || (r->same_fmt && fmt_equal(&r->evsels[0].fmt, &e->fmt));
	r->nr_evsels++;
	return 0;
}

static size_t id_slot(uint64_t id, size_t cap)
{
	/* ids are small counters: mix them so that neighbours spread. */
	id ^= id >> 33;
	id *= 0xff51afd7ed558ccdull;
	id ^= id >> 33;
	return (size_t)id & (cap - 1);
}

static int idmap_grow(struct pdr_idmap *m)
{
	size_t cap = m->cap ? m->cap * 2 : 64;
	uint64_t *keys = malloc(cap * sizeof(*keys));
	int32_t *vals = malloc(cap * sizeof(*vals));

	if (!keys || !vals) {
		free(keys);
		free(vals);
		return set_error(ENOMEM, "out of memory for the ids of perf.data events");
	}
	for (size_t i = 0; i < cap; i++)
		vals[i] = -1;
	for (size_t i = 0; i < m->cap; i++) {
		size_t s;

		if (m->vals[i] < 0)
			continue;
		for (s = id_slot(m->keys[i], cap); vals[s] >= 0; s = (s + 1) & (cap - 1))
			;
		keys[s] = m->keys[i];
		vals[s] = m->vals[i];
	}
	free(m->keys);
	free(m->vals);
	m->keys = keys;
	m->vals = vals;
	m->cap = cap;
	return 0;
}

int pdr_evsel_of_id(const struct perfev_data_reader *r, uint64_t id)
{
	const struct pdr_idmap *m = &r->ids;

	if (!m->cap)
		return -1;
	for (size_t s = id_slot(id, m->cap);; s = (s + 1) & (m->cap - 1)) {
		if (m->vals[s] < 0)
			return -1;
		if (m->keys[s] == id)
			return m->vals[s];
	}
}

int pdr_add_id(struct perfev_data_reader *r, size_t idx, uint64_t id)
{
	struct pdr_idmap *m = &r->ids;
	struct pdr_evsel *e = &r->evsels[idx];
	size_t s;
	int ret;

	if (pdr_evsel_of_id(r, id) >= 0)
		return 0; /* perf refuses a second event with the same id; the first keeps it */
	if (r->nr_ids_total >= PD_MAX_IDS)
		return set_error(PERFEV_ERR_FORMAT,
				 "perf.data: more than %u event ids, which no recorder writes",
				 PD_MAX_IDS);
	if ((m->n + 1) * 2 > m->cap && (ret = idmap_grow(m)) < 0)
		return ret;
	if (e->nr_ids == e->cap_ids) {
		size_t cap = e->cap_ids ? e->cap_ids * 2 : 4;
		void *n = realloc(e->ids, cap * sizeof(*e->ids));

		if (!n)
			return set_error(ENOMEM, "out of memory for the ids of perf.data events");
		e->ids = n;
		e->cap_ids = cap;
	}
	e->ids[e->nr_ids++] = id;
	for (s = id_slot(id, m->cap); m->vals[s] >= 0; s = (s + 1) & (m->cap - 1))
		;
	m->keys[s] = id;
	m->vals[s] = (int32_t)idx;
	m->n++;
	r->nr_ids_total++;
	return 0;
}

int pdr_set_name(struct perfev_data_reader *r, size_t idx, const char *name)
{
	char *n = strdup(name);

	if (!n)
		return set_error(ENOMEM, "out of memory for an event name");
	free(r->evsels[idx].name);
	r->evsels[idx].name = n;
	return 0;
}

/* ---- the file header ---- */

/* A section [off, off + size) must lie within the input. */

size_t perfev_data_reader__nr_evsels(const struct perfev_data_reader *r)
{
	return r ? r->nr_evsels : 0;
}

const struct perf_event_attr *perfev_data_reader__attr(const struct perfev_data_reader *r,
						       size_t idx)
{
	return r && idx < r->nr_evsels ? &r->evsels[idx].attr : NULL;
}

const struct perfev_sample_fmt *perfev_data_reader__sample_fmt(const struct perfev_data_reader *r,
							       size_t idx)
{
	return r && idx < r->nr_evsels ? &r->evsels[idx].fmt : NULL;
}

const char *perfev_data_reader__evsel_name(const struct perfev_data_reader *r, size_t idx)
{
	if (!r || idx >= r->nr_evsels)
		return "";
	return r->evsels[idx].name ? r->evsels[idx].name : r->evsels[idx].derived;
}

const uint64_t *perfev_data_reader__evsel_ids(const struct perfev_data_reader *r, size_t idx,
					      size_t *nr)
{
	if (!r || idx >= r->nr_evsels) {
		if (nr)
			*nr = 0;
		return NULL;
	}
	if (nr)
		*nr = r->evsels[idx].nr_ids;
	return r->evsels[idx].ids;
}

int perfev_data_reader__evsel_of_id(const struct perfev_data_reader *r, uint64_t id)
{
	return r ? pdr_evsel_of_id(r, id) : -1;
}
