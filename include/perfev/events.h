/* SPDX-License-Identifier: MIT */
/*
 * perfev: event specifications and the catalogue of events this machine has.
 *
 * One event's syntax (the same as Linux perf's):
 *   cycles, instructions, ...               generic hardware events
 *   L1-dcache-load-misses, LLC-loads, ...   hardware cache events (cache-op-result;
 *                                           perf's aliases, case-insensitive)
 *   cpu-clock, task-clock, page-faults, ... software events
 *   sched:sched_switch                      tracepoints (id from tracefs)
 *   r01c2                                   raw PMU config, hexadecimal
 *   mem:ADDR[/LEN][:rwx]                    hardware breakpoints (LEN 1, 2, 4, 8;
 *                                           default access rw)
 *   PMU/term=value,.../  or  PMU/alias/     dynamic PMUs of /sys/bus/event_source
 *                                           (terms from its format/ and events/,
 *                                           plus config, config1, config2, config3,
 *                                           name, period, freq, time)
 *   tsc                                     an alias that only one PMU has
 *   RETIRED_INSTRUCTIONS, pmu::EVENT:UMASK  vendor names, through libpfm4 (tried last)
 * followed by modifiers ":ukhGHpppSDIe" (user, kernel, hypervisor, guest,
 * host, precise levels, sample-read of a group, pinned, exclude idle,
 * exclusive), written straight after a PMU event's closing '/' or after ':'.
 * Naming any of u/k/h counts only those levels, likewise G/H.
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
 * canonical name into name (may be NULL; truncated to name_size): perf's
 * spelling ("cycles", "L1-dcache-load-misses", "mem:0x1000:w") with the
 * modifiers as written appended ("cycles:u", "msr/tsc/u"), or a name= term.
 * Sampling fields stay 0 unless terms set them; ":S" sets PERF_SAMPLE_READ
 * in attr->sample_type.  Returns 0 or a negative error (PERFEV_ERR_SYNTAX,
 * PERFEV_ERR_UNKNOWN_EVENT, PERFEV_ERR_UNKNOWN_PMU, PERFEV_ERR_NOTRACEFS,
 * PERFEV_ERR_FORMAT for malformed sysfs files, -ERANGE for a value wider
 * than its field, -EOPNOTSUPP for perf terms perfev lacks) explained by
 * perfev_last_error(), with close matches suggested for unknown names.
 */
PERFEV_API int perfev_parse_event(const char *spec, struct perf_event_attr *attr, char *name,
				  size_t name_size);

enum perfev_event_kind {
	PERFEV_KIND_HARDWARE = 1 << 0,
	PERFEV_KIND_SOFTWARE = 1 << 1,
	PERFEV_KIND_CACHE = 1 << 2,
	PERFEV_KIND_TRACEPOINT = 1 << 3,
	PERFEV_KIND_PMU = 1 << 4,	 /* aliases in /sys/bus/event_source/devices/PMU/events */
	PERFEV_KIND_VENDOR = 1 << 5,	 /* libpfm4's names for this CPU: "pmu::EVENT[:UMASK]" */
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
	const char *filter;	/* case-insensitive substring, or glob with * or ?, of the name */
	bool only_openable;	/* test-open each hardware/software/cache event (on the calling
				   thread) and drop those the kernel refuses */
	size_t :0;
};

/*
 * Calls cb for every event of the requested kinds this machine has, in a
 * stable order (by kind, then name); opts may be NULL.  The breakpoint and
 * raw kinds are one syntax entry each ("mem:<addr>[/len][:access]", "rNNN").
 * info and its strings are valid during the call only.  cb returning
 * non-zero stops the walk and that value is returned; otherwise 0 or a
 * negative error.
 */
PERFEV_API int perfev_list_events(const struct perfev_list_opts *opts, perfev_event_cb cb, void *ctx);

#ifdef __cplusplus
}
#endif
#endif
