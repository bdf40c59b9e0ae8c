/* SPDX-License-Identifier: MIT */
/*
 * Shared by perfev export and perfev flamegraph: a recording read into one
 * profile per event (with the filters, frames and inlines of the command
 * line), as the library's writers take them, and the output file.
 */
#ifndef PERFEV_CLI_EXPORT_H
#define PERFEV_CLI_EXPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "cli.h"
#include "opt.h"
#include "perfev/perfev.h"
#include "perfev/profile_write.h"

struct export_input {
	const char *input;
	bool inlines;
	bool times;	/* keep each sample's time (the HTML timeline) */
	bool quiet, verbose;
	unsigned max_stack;
	bool no_demangle;
	bool annotate; /* also count each sample where it was taken, by address (source views) */
	struct cli_filters filter;
	struct cli_off_cpu off_cpu;
};

/*
 * The profiles of a recording: one series per event that has samples; with
 * off-CPU time, the waits as a series of their own ("off-cpu", ns) and,
 * first, the wall-clock series (the CPU clock's samples and the waits).
 */
struct export_data {
	struct perfev_session *s;
	struct perfev_symbolizer *sy;
	struct perfev_sample_filter *filter;
	struct perfev_profile **profiles; /* by event index */
	size_t nr_profiles;
	struct perfev_profile_series *series;
	size_t nr_series;
	size_t *series_evsel; /* each series' event index */
	struct perfev_annotate_hist *hist; /* with in->annotate */
	/* Off-CPU time: the events whose samples were waits, the first CPU clock, both in one. */
	bool off_cpu;
	bool *waits;
	int clock;
	bool clock_seen; /* samples of it passed the filters */
	struct perfev_profile *wall;
	uint64_t start_time_ns;
	char title[512];
};

/*
 * Reads in->input into d (an empty profile, with a note, when no sample
 * passes); false after printing why.
 */
bool export_read(const struct export_input *in, struct export_data *d);
void export_data_free(struct export_data *d);
/* Keeps only the series of the first event (formats of one value), with a note when there were more. */
void export_first_series(struct export_data *d, const char *format, bool quiet);

/*
 * Opens path for writing ("-" or NULL: standard output); binary: refuse a
 * terminal.  NULL after printing why.
 */
FILE *export_open_output(const char *path, bool binary);
/* Closes f (not stdout), and after a failure removes path; false after printing why. */
bool export_close_output(FILE *f, const char *path, bool ok);

#endif
