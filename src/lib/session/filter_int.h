/* SPDX-License-Identifier: MIT */
/* The sample filter's insides, shared by its lists (filter.c), its time ranges (filter_time.c) and the session. */
#ifndef PERFEV_SESSION_FILTER_INT_H
#define PERFEV_SESSION_FILTER_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "perfev/perfdata_reader.h"
#include "perfev/sample_filter.h"
#include "perfev/session.h"

/* A comma-separated list, split once: names[i] point into text. */
struct filter_list {
	char *text;
	const char **names;
	size_t nr;
};

struct filter_range {
	uint64_t start, end; /* ns; 0: open */
	double start_pct, end_pct; /* percent ranges, until the span resolves them */
};

struct perfev_sample_filter {
	struct filter_list comms, dsos, events;
	int *pids, *tids;
	size_t nr_pids, nr_tids;
	bool has_pids, has_tids;
	struct filter_range *ranges;
	size_t nr_ranges;
	bool percent, resolved;
	/* Events by index: 0 not yet looked at, 1 passes, 2 does not (a pipe's events come late). */
	unsigned char *event_ok;
	size_t cap_event_ok;
};

/* Parses perf's --time text into f->ranges; 0 or -EINVAL/-ENOMEM with the error set. */
int filter_parse_time(struct perfev_sample_filter *f, const char *text);

/* What the session asks, cheapest first: before the stack is resolved, and after. */
bool filter_thread_ok(const struct perfev_sample_filter *f, const struct perfev_thread *t);
bool filter_event_ok(struct perfev_sample_filter *f, const struct perfev_session *s, int evsel);
bool filter_dso_ok(const struct perfev_sample_filter *f, const struct perfev_frame *leaf);
/* Whether an event filter is set (a group sample's members are then each checked). */
bool filter_has_events(const struct perfev_sample_filter *f);

#endif
