/* SPDX-License-Identifier: MIT */
/* perfev record: shared between option parsing, event set-up and the recording loop. */
#ifndef PERFEV_CLI_RECORD_H
#define PERFEV_CLI_RECORD_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

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
	long mmap_pages;
	int compress_level;
	const char *output;
	bool no_inherit;
	bool quiet;
	int argc; /* the whole command line, for HEADER_CMDLINE */
	char **full_argv;
	char **argv; /* the command to run */
};

/*
 * Sets every event up for sampling as the options say: period or
 * frequency, the sample fields perf's tools expect, call graphs, group
 * sampling for ":S" leaders, and side-band tracking on the first event.
 */
int record_config_evlist(struct perfev_evlist *el, const struct record_opts *o);

/* Runs a whole recording; returns the tool's exit status. */
int record_run(struct record_opts *o);

#endif
