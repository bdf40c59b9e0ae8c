/* SPDX-License-Identifier: MIT */
/*
 * perfev: event specifications and the catalogue of events this machine has.
 *
 * One event's syntax (the same as Linux perf's):
 *   cycles, instructions, ...               generic hardware events
 *   L1-dcache-load-misses, LLC-loads, ...   hardware cache events (cache-op-result)
 *   cpu-clock, task-clock, page-faults, ... software events
 *   sched:sched_switch                      tracepoints (id from tracefs)
 *   r01c2                                   raw PMU config, hexadecimal
 *   mem:ADDR[/LEN][:rwx]                    hardware breakpoints
 *   PMU/term=value,.../  or  PMU/alias/     dynamic PMUs of /sys/bus/event_source
 *   INST_RETIRED.ANY_P                      vendor names, through libpfm4
 * followed by modifiers ":ukhGHpppSD" (user, kernel, hypervisor, guest,
 * host, precise levels, sample-read of a group, pinned).
 */
#ifndef PERFEV_EVENTS_H
#define PERFEV_EVENTS_H

#include <linux/perf_event.h>
#include <stdbool.h>

#include "perfev/common.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Parses one event (no commas, no groups) into *attr, zeroed first, and its
 * canonical name into name (may be NULL).  Returns 0 or a negative error
 * (PERFEV_ERR_SYNTAX, PERFEV_ERR_UNKNOWN_EVENT, PERFEV_ERR_UNKNOWN_PMU,
 * PERFEV_ERR_NOTRACEFS, ...) explained by perfev_last_error(), with close
 * matches suggested for unknown names.
 */
PERFEV_API int perfev_parse_event(const char *spec, struct perf_event_attr *attr, char *name,
				  size_t name_size);

enum perfev_event_kind {
	PERFEV_KIND_HARDWARE = 1 << 0,
	PERFEV_KIND_SOFTWARE = 1 << 1,
	PERFEV_KIND_CACHE = 1 << 2,
	PERFEV_KIND_TRACEPOINT = 1 << 3,
	PERFEV_KIND_PMU = 1 << 4,	 /* aliases in /sys/bus/event_source/devices/PMU/events */
	PERFEV_KIND_VENDOR = 1 << 5,	 /* libpfm4's names for this CPU */
	PERFEV_KIND_BREAKPOINT = 1 << 6, /* the mem: syntax */
	PERFEV_KIND_RAW = 1 << 7,	 /* the rNNN syntax */
	PERFEV_KIND_ALL = 0xff,
};

struct perfev_event_info {
	enum perfev_event_kind kind;
	const char *name; /* what to pass to perfev_parse_event() */
	const char *desc; /* one line, may be "" */
	const char *pmu;  /* owning PMU name, or NULL */
};

typedef int (*perfev_event_cb)(const struct perfev_event_info *info, void *ctx);

struct perfev_list_opts {
	size_t sz;
	unsigned int kinds;	/* PERFEV_KIND_* mask; 0 means all */
	const char *filter;	/* substring or glob (*, ?) the name must match; NULL for all */
	bool only_openable;	/* test-open each hardware/software/cache event and drop failures */
	size_t :0;
};
#define perfev_list_opts__last_field only_openable

/*
 * Calls cb for every event of the requested kinds this machine has, in a
 * stable order (by kind, then name).  cb returning non-zero stops the walk
 * and that value is returned; otherwise 0 or a negative error.
 */
PERFEV_API int perfev_list_events(const struct perfev_list_opts *opts, perfev_event_cb cb, void *ctx);

#ifdef __cplusplus
}
#endif
#endif
