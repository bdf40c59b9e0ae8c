/* SPDX-License-Identifier: MIT */
/*
 * perfev: which samples of a recording an output covers: by command, process,
 * thread, the file the sample was taken in, event and time, as perf report's
 * --comm, --pid, --tid, --dso and --time choose them.  A session given a
 * filter (perfev_session_opts.filter) delivers only the samples it passes,
 * deciding as early as it can (before unwinding a stack whose thread or time
 * is not wanted), so every output built from the session agrees on them.
 *
 *	struct perfev_sample_filter_opts fo = { .sz = sizeof(fo), .comms = "make,cc1",
 *						.time = "10%-20%" };
 *	struct perfev_sample_filter *f = perfev_sample_filter__new(&fo);
 *	struct perfev_session_opts so = { .sz = sizeof(so), .filter = f };
 *	struct perfev_session *s = perfev_session__open("perf.data", &so);
 *	...
 *	perfev_session__delete(s);
 *	perfev_sample_filter__delete(f);
 *
 * Lists are comma-separated; a sample passes when it matches every list
 * given (and any of the names within one).
 *
 * Time ranges take perf's --time forms:
 *	"START,STOP"		seconds on the recording's clock ("1234.5,1235"); either
 *				side may be empty (from the start, to the end)
 *	"A,B C,D"		several ranges, separated by spaces, in order
 *	"10%/2"			the second tenth of the recording
 *	"0%-10%,30%-40%"	parts of the recording by percent
 *	"50%"			the first half ("50%/1")
 * Percents are of the span from the recording's first sample to its last:
 * from its HEADER_SAMPLE_TIME feature, or (a file without it) found by
 * reading the file's sample times first; a pipe without it cannot take them.
 * A range's start and end are included; a sample without a time passes.
 */
#ifndef PERFEV_SAMPLE_FILTER_H
#define PERFEV_SAMPLE_FILTER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "perfev/common.h"

#ifdef __cplusplus
extern "C" {
#endif

struct perfev_sample_filter;

struct perfev_sample_filter_opts {
	size_t sz; /* sizeof(struct perfev_sample_filter_opts) */
	const char *comms;  /* command names */
	const char *pids;   /* process ids */
	const char *tids;   /* thread ids */
	/*
	 * Files the sample was taken in (its innermost frame's): a path, a
	 * file name ("libc.so.6"), "[kernel.kallsyms]" or "[unknown]".
	 */
	const char *dsos;
	const char *events; /* event names as the recording gives them */
	const char *time;   /* perf's --time ranges (above) */
};

/*
 * Parses the options into a filter (copied: the strings need not outlive
 * it).  NULL with errno: EINVAL for a malformed id or time range, with
 * perfev_last_error() naming it; ENOMEM.
 */
PERFEV_API struct perfev_sample_filter *
perfev_sample_filter__new(const struct perfev_sample_filter_opts *opts);
/* Accepts NULL. */
PERFEV_API void perfev_sample_filter__delete(struct perfev_sample_filter *f);

/* Whether the filter has time ranges in percent (which need the recording's span). */
PERFEV_API bool perfev_sample_filter__needs_span(const struct perfev_sample_filter *f);
/*
 * Sets the recording's span for percent ranges (the session does it
 * itself); 0, or -EINVAL when last < first.
 */
PERFEV_API int perfev_sample_filter__set_span(struct perfev_sample_filter *f, uint64_t first,
					      uint64_t last);
/*
 * The time ranges as resolved, in nanoseconds, for showing them: range i's
 * start and end (0: open); -ENOENT past the last, -EAGAIN before a percent
 * range's span is set.
 */
PERFEV_API int perfev_sample_filter__range(const struct perfev_sample_filter *f, size_t i,
					   uint64_t *start, uint64_t *end);
/* Whether a sample taken at time t (0: no time) is in the ranges (all times without ranges). */
PERFEV_API bool perfev_sample_filter__time_ok(const struct perfev_sample_filter *f, uint64_t t);

struct perfev_thread;
struct perfev_dso;
/*
 * The lists one at a time, for a caller that applies some of them itself
 * (perf report keeps the samples of other files, to weigh callers, and
 * shows only the rows of the files asked for).  Whether thread t passes the
 * command, process and thread lists; whether a frame in dso (NULL: none) or
 * the kernel (kernel) passes the file list.  True for lists not given.
 */
PERFEV_API bool perfev_sample_filter__thread_ok(const struct perfev_sample_filter *f,
						const struct perfev_thread *t);
PERFEV_API bool perfev_sample_filter__dso_ok(const struct perfev_sample_filter *f,
					     const struct perfev_dso *dso, bool kernel);

#ifdef __cplusplus
}
#endif
#endif
