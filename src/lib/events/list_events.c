/* SPDX-License-Identifier: MIT */
/* The catalogue of events this machine has, for "perfev list". */
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "perfev/evlist.h"
#include "events/events_int.h"
#include "util/opts.h"

struct entry {
	enum perfev_event_kind kind;
	char *name, *desc, *pmu;
};

struct catalogue {
	struct perfev_list_opts opts;
	unsigned int kinds;
	struct entry *v;
	size_t nr, cap;
	int err;
};

static bool name_matches(const char *filter, const char *name)
{
	if (!filter || !*filter)
		return true;
	if (strpbrk(filter, "*?"))
		return !fnmatch(filter, name, FNM_CASEFOLD);
	return strcasestr(name, filter) != NULL;
}

/* Adds an entry when its kind is wanted and its name passes the filter. */
static int cat_add(struct catalogue *c, enum perfev_event_kind kind, const char *name,
		   const char *desc, const char *pmu)
{
	struct entry *e;

	if (c->err)
		return c->err;
	if (!(c->kinds & kind) || !name_matches(c->opts.filter, name))
		return 0;
	if (c->nr == c->cap) {
		size_t cap = c->cap ? c->cap * 2 : 256, bytes;
		struct entry *n;

		if (!size_mul_ok(cap, sizeof(*n), &bytes) || !(n = realloc(c->v, bytes)))
			return c->err = set_error(ENOMEM, "out of memory");
		c->v = n;
		c->cap = cap;
	}
	e = &c->v[c->nr];
	e->kind = kind;
	e->name = strdup(name);
	/* Descriptions are one line in the catalogue, however long their source is. */
	e->desc = strndup(desc ? desc : "", strcspn(desc ? desc : "", "\n"));
	e->pmu = pmu ? strdup(pmu) : NULL;
	if (!e->name || !e->desc || (pmu && !e->pmu)) {
		free(e->name);
		free(e->desc);
		free(e->pmu);
		return c->err = set_error(ENOMEM, "out of memory");
	}
	c->nr++;
	return 0;
}

static bool can_open(struct perf_event_attr *attr)
{
	int fd = perfev_event_open(attr, 0, -1, -1, 0);

	/* Unprivileged callers may still count their own user space. */
	if (fd == -EACCES || fd == -EPERM) {
		attr->exclude_kernel = 1;
		attr->exclude_hv = 1;
		fd = perfev_event_open(attr, 0, -1, -1, 0);
	}
	if (fd < 0)
		return false;
	close(fd);
	return true;
}

static bool keep(struct catalogue *c, enum perfev_event_kind kind, const char *name,
		 uint32_t type, uint64_t config)
{
	struct perf_event_attr attr;

	if (!(c->kinds & kind) || !name_matches(c->opts.filter, name))
		return false;
	if (!c->opts.only_openable)
		return true;
	memset(&attr, 0, sizeof(attr));
	attr.type = type;
	attr.config = config;
	attr.disabled = 1;
	return can_open(&attr);
}

static void add_symbolic(struct catalogue *c)
{
	for (size_t i = 0; i < nr_symbolic_events; i++) {
		const struct symbolic_event *e = &symbolic_events[i];
		enum perfev_event_kind kind =
			e->type == PERF_TYPE_HARDWARE ? PERFEV_KIND_HARDWARE : PERFEV_KIND_SOFTWARE;

		if (keep(c, kind, e->name, e->type, e->config))
			cat_add(c, kind, e->name, e->desc, NULL);
	}
}

static void add_cache(struct catalogue *c)
{
	char name[64], desc[128];

	for (unsigned int cache = 0; cache < PERF_COUNT_HW_CACHE_MAX; cache++)
		for (unsigned int op = 0; op < PERF_COUNT_HW_CACHE_OP_MAX; op++) {
			if (!cache_event__listed(cache, op))
				continue;
			for (unsigned int r = 0; r < PERF_COUNT_HW_CACHE_RESULT_MAX; r++) {
				cache_event__name(cache, op, r, name, sizeof(name));
				if (!keep(c, PERFEV_KIND_CACHE, name, PERF_TYPE_HW_CACHE,
					  cache | op << 8 | r << 16))
					continue;
				cache_event__desc(cache, op, r, desc, sizeof(desc));
				cat_add(c, PERFEV_KIND_CACHE, name, desc, NULL);
			}
		}
}

static int list_tracepoint_cb(const char *sys, const char *name, void *ctx)
{
	char full[512];

	if ((size_t)snprintf(full, sizeof(full), "%s:%s", sys, name) >= sizeof(full))
		return 0;
	return cat_add(ctx, PERFEV_KIND_TRACEPOINT, full, "", NULL);
}

static int alias_cb(const char *pmu, const char *alias, const char *desc, void *ctx)
{
	char full[512];

	if ((size_t)snprintf(full, sizeof(full), "%s/%s/", pmu, alias) >= sizeof(full))
		return 0;
	return cat_add(ctx, PERFEV_KIND_PMU, full, desc, pmu);
}

static int vendor_cb(const char *pmu, const char *event, const char *desc, void *ctx)
{
	char full[512];

	/* "pmu::EVENT" is what libpfm4 parses unambiguously. */
	if ((size_t)snprintf(full, sizeof(full), "%s::%s", pmu, event) >= sizeof(full))
		return 0;
	return cat_add(ctx, PERFEV_KIND_VENDOR, full, desc, pmu);
}

static int cmp_entry(const void *a, const void *b)
{
	const struct entry *x = a, *y = b;

	if (x->kind != y->kind)
		return x->kind < y->kind ? -1 : 1;
	return strcmp(x->name, y->name);
}

int perfev_list_events(const struct perfev_list_opts *opts, perfev_event_cb cb, void *ctx)
{
	struct catalogue c = { 0 };
	int ret = 0;

	if (!cb)
		return set_error(EINVAL, "no callback given");
	if ((ret = OPTS_COPY(&c.opts, opts, perfev_list_opts, kinds)) < 0)
		return ret;
	c.kinds = c.opts.kinds ? c.opts.kinds : PERFEV_KIND_ALL;

	add_symbolic(&c);
	add_cache(&c);
	if (c.kinds & PERFEV_KIND_TRACEPOINT)
		tracepoint__for_each(list_tracepoint_cb, &c); /* no tracefs: no tracepoints */
	if (c.kinds & PERFEV_KIND_PMU)
		pmu__for_each_alias(alias_cb, &c);
	if (c.kinds & PERFEV_KIND_VENDOR)
		pfm__for_each_event(vendor_cb, &c);
	cat_add(&c, PERFEV_KIND_BREAKPOINT, "mem:<addr>[/len][:access]",
		"hardware breakpoint at an address (len 1, 2, 4 or 8; access r, w, x; default rw)",
		NULL);
	cat_add(&c, PERFEV_KIND_RAW, "rNNN",
		"raw PMU event: config in hexadecimal, from the CPU vendor's manual", NULL);
	if (c.err) {
		ret = c.err;
		goto out;
	}
	sort_array(c.v, c.nr, sizeof(*c.v), cmp_entry);
	for (size_t i = 0; i < c.nr && !ret; i++) {
		struct perfev_event_info info = {
			.kind = c.v[i].kind,
			.name = c.v[i].name,
			.desc = c.v[i].desc,
			.pmu = c.v[i].pmu,
		};

		ret = cb(&info, ctx);
	}
out:
	for (size_t i = 0; i < c.nr; i++) {
		free(c.v[i].name);
		free(c.v[i].desc);
		free(c.v[i].pmu);
	}
	free(c.v);
	return ret;
}
