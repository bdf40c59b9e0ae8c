/* SPDX-License-Identifier: MIT */
/* perfev record: shared between option parsing, event set-up and the recording loop. */
#ifndef PERFEV_CLI_RECORD_H
#define PERFEV_CLI_RECORD_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>

#include "perfev/perfev.h"
#include "target.h"

enum callgraph_mode { CG_NONE, CG_FP, CG_DWARF };

struct record_opts {
	char *events;	  /* NULL: cycles, falling back to cpu-clock */
	long freq;	  /* -F; 0 when -c is given */
	long period;	  /* -c; 0 when sampling by frequency */
	bool freq_given;
	enum callgraph_mode callgraph;
	long stack_size; /* --call-graph dwarf,SIZE */
	struct cli_target target; /* -p, -a, -C */
	long timeout_ms;	  /* --timeout: sampling ends after it; 0 none */
	long mmap_pages;
	int compress_level;
	const char *output;
	bool no_inherit;
	bool no_buildid_cache; /* -N */
	bool off_cpu;		    /* --off-cpu */
	uint64_t off_cpu_thresh_ns; /* --off-cpu-thresh */
	bool quiet;
	int argc; /* the whole command line, for HEADER_CMDLINE */
	char **full_argv;
	char **argv; /* the command to run */
};

/* Where the data go (record_output.c). */
struct record_output {
	const char *path; /* FILE, or "-" for standard output */
	int fd;		  /* what the writer writes to, -1 before open */
	char *tmp;	  /* the new file beside path until commit(), or NULL */
	bool in_place;	  /* path is a device, written as it is */
};

/*
 * Checks that the output can take perf.data without creating or changing
 * any file: not a directory, FIFO or socket.  For "-" (not a terminal),
 * the data take stdout's copy and stdout becomes stderr, before the
 * command is forked.  -1 after saying why.
 */
int record_output__prepare(struct record_output *out);
/*
 * Opens where the data go: a device in place, or a new file beside path
 * that commit() renames to path.  -1 after saying why.
 */
int record_output__open(struct record_output *out);
/* The recording has started: an existing path becomes path.old, the new file path. */
int record_output__commit(struct record_output *out);
/* Removes the new file when the recording never started; the caller closes fd. */
void record_output__close(struct record_output *out);

/*
 * Sets every event up for sampling as the options say: period or
 * frequency, the sample fields perf's tools expect, call graphs, group
 * sampling for ":S" leaders, and side-band tracking on the first event.
 */
int record_config_evlist(struct perfev_evlist *el, const struct record_opts *o);

/* /proc/sys/kernel/perf_event_max_sample_rate, or 0 when it cannot be read. */
long record_max_sample_rate(void);

/*
 * Keeps the files with samples of the finished recording at path in the
 * build-id cache, then trims the cache, sparing what changed since started
 * (record_buildid.c).  Failures are notes (unless quiet): the recording
 * itself is fine.
 */
void record_buildid_cache(const char *path, time_t started, bool quiet);

/* Runs a whole recording; returns the tool's exit status. */
int record_run(struct record_opts *o);

#endif
