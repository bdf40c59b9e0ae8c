/* SPDX-License-Identifier: MIT */
/*
 * Tracepoint samples as text, as perf prints their fields (script's trace
 * field, report's trace sort key): the formats come from the file's tracing
 * data, read when the first tracepoint sample needs them.
 */
#ifndef PERFEV_CLI_TRACE_TEXT_H
#define PERFEV_CLI_TRACE_TEXT_H

#include "perfev/perfev.h"

struct trace_text;

/* For the samples of session s; NULL when out of memory. */
struct trace_text *trace_text_new(struct perfev_session *s);
void trace_text_delete(struct trace_text *t);
/* The format of event evsel when it is a tracepoint the file describes, else NULL. */
const struct perfev_tp_format *trace_text_format(struct trace_text *t, int evsel);
/*
 * Sample sm's fields by format tf as perf prints them; valid until the next
 * call; NULL when they cannot be printed (or out of memory).
 */
const char *trace_text_print(struct trace_text *t, const struct perfev_tp_format *tf,
			     const struct perfev_sample *sm);

#endif
