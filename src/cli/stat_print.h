/* SPDX-License-Identifier: MIT */
/* perfev stat's output: human, CSV and JSON, with derived metrics and run statistics. */
#ifndef PERFEV_CLI_STAT_PRINT_H
#define PERFEV_CLI_STAT_PRINT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/resource.h>

#include "perfev/evlist.h"

enum stat_format { STAT_FMT_HUMAN, STAT_FMT_CSV, STAT_FMT_JSON };

/* How counts are summed, as perf stat's options: everything, or by CPU, thread or topology. */
enum stat_aggr {
	AGGR_GLOBAL, /* one count per event */
	AGGR_NONE,   /* -A: per CPU */
	AGGR_THREAD, /* --per-thread */
	AGGR_CORE,   /* --per-core */
	AGGR_DIE,    /* --per-die */
	AGGR_SOCKET, /* --per-socket */
	AGGR_NODE,   /* --per-node */
};

struct stat_print_opts {
	enum stat_format fmt;
	const char *sep;   /* -x */
	char **argv;	   /* the command ({NULL}: none) */
	long pid;	   /* -p, or 0 */
	const char *cpus;  /* -C, or NULL */
	bool all_cpus;	   /* -a */
	bool default_set;  /* no -e: unsupported hardware events are left out, with a note */
	bool detailed;	   /* -d: every event shown, <not supported> ones too, as perf */
	enum stat_aggr aggr;
	bool metric_only;  /* --metric-only */
};

struct stat_printer;

struct stat_printer *stat_printer__new(struct perfev_evlist *el, FILE *out,
				       const struct stat_print_opts *o);
void stat_printer__delete(struct stat_printer *pr);
/* Where the counts go from now on (-o FILE is opened once counting has begun). */
void stat_printer__set_output(struct stat_printer *pr, FILE *out);
/*
 * After the first open: hides unsupported events of the default set (noting
 * once that hardware events are missing), notes each unsupported event the
 * user asked for, and groups the CPUs and threads the events were opened on
 * as the aggregation asks.  -1 with an error printed when nothing can be
 * counted or the CPUs' topology cannot be read.
 */
int stat_printer__check_supported(struct stat_printer *pr, bool verbose);
void stat_printer__start_run(struct stat_printer *pr);
/* Prints the counts since the previous interval; the evlist was just read. */
void stat_printer__interval(struct stat_printer *pr, uint64_t t_ns);
/* Accounts one finished run (the evlist was just read). */
void stat_printer__end_run(struct stat_printer *pr, uint64_t elapsed_ns, const struct rusage *ru,
			   bool summary);
/* Prints the summary of every run. */
void stat_printer__finish(struct stat_printer *pr);

/* Formats v with thousands separators. */
void fmt_thousands(char *buf, size_t size, uint64_t v);

#endif
