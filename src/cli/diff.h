/* SPDX-License-Identifier: MIT */
/* Shared by perfev diff's files: the files read, and the table printed as text or JSON. */
#ifndef PERFEV_CLI_DIFF_H
#define PERFEV_CLI_DIFF_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "opt.h"
#include "perfev/perfev.h"
#include "perfev/profile_diff.h"
#include "report.h"

/* One recording: a profile per event that has samples (NULL for the others). */
struct diff_file {
	const char *path;
	struct perfev_session *s;
	struct perfev_symbolizer *sy;
	struct perfev_sample_filter *filter; /* --time, of this file's own; NULL: none */
	struct perfev_profile **profiles; /* by event index */
	size_t nr_profiles;
};

struct diff_opts {
	enum perfev_diff_compute compute;
	int64_t w1, w2;		 /* wdiff:W1,W2 */
	long order;		 /* -o; 1 by default */
	bool period, formula;	 /* -p, -F */
	bool baseline_only;	 /* -b */
	bool relative;		 /* --percentage relative */
	const char *comms, *dsos, *syms;
	enum report_key keys[NR_KEYS];
	int nr_keys;
	bool json;
	const char *field_sep; /* -t */
	const char *flamegraph; /* --flamegraph FILE (.svg or .html) */
	const char *pprof;	/* --pprof DIR */
	bool quiet, verbose, no_demangle;
	struct cli_filters filter;
};

/* One event compared across the files: its name, and each file's profile (NULL: none). */
struct diff_event {
	const char *name;
	const struct perfev_profile **profiles; /* one per file */
	struct perfev_profile_diff *d;
};

/* Writes event ev's table as perf diff does (files names them for -v and 3 or more files). */
void diff_print_text(FILE *f, const struct diff_opts *o, const struct diff_event *ev,
		     struct diff_file *files, size_t nr, bool first);
/* Writes the events' tables as one JSON document. */
void diff_print_json(struct perfev_json *j, const struct diff_opts *o, const struct diff_event *evs,
		     size_t nr_evs, struct diff_file *files, size_t nr);

#endif
