// SPDX-License-Identifier: MIT
/*
 * The events off-CPU profiles are recorded from: every switch-out as a
 * sched:sched_switch sample (its raw fields say the state the thread left
 * in), and what tells when the thread runs again.
 */
#include <errno.h>
#include <string.h>

#include "util/internal.h"
#include "perfev/events.h"
#include "perfev/evlist.h"

struct perfev_evsel *perfev_evlist__add_off_cpu(struct perfev_evlist *el, bool switch_events)
{
	struct perf_event_attr attr;
	char name[256];
	int err;

	if (!el)
		return set_error_ptr(EINVAL, "no event list given");
	err = perfev_parse_event("sched:sched_switch", &attr, name, sizeof(name));
	if (err < 0) {
		errno = -err;
		return NULL;
	}
	/* Every switch-out, with what the tools that read tracepoints expect. */
	attr.sample_period = 1;
	attr.freq = 0;
	attr.sample_type |= PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID |
			    PERF_SAMPLE_TIME | PERF_SAMPLE_RAW | PERF_SAMPLE_CALLCHAIN;
	attr.sample_id_all = 1;
	/*
	 * An event of a task sees only its own switch-outs: the kernel's
	 * PERF_RECORD_SWITCH records tell when it is switched in.
	 */
	attr.context_switch = switch_events;
	return perfev_evlist__add_attr(el, &attr, name, NULL);
}
