/* SPDX-License-Identifier: MIT */
/*
 * perfev stat's printer inside: its rows (an event, or an event in one group
 * of CPUs or threads), the groups, and the derived metrics, shared by
 * stat_print.c (the formats), stat_aggr.c (the groups), stat_metric.c (the
 * metrics) and stat_metric_only.c (--metric-only).
 */
#ifndef PERFEV_CLI_STAT_PRINTER_H
#define PERFEV_CLI_STAT_PRINTER_H

#include <stdbool.h>
#include <stdint.h>

#include "perfev/perfev.h"
#include "stat_print.h"

struct srow {
	struct perfev_evsel *ev;
	int aggr;		 /* its group of CPUs or threads: an index of stat_printer.aggrs */
	bool hidden;		 /* an unsupported event of the default set */
	int nruns;		 /* runs in which it counted */
	double sum, sumsq;	 /* of the scaled per-run values */
	uint64_t ena, run;	 /* summed over runs, for the multiplexing percentage */
	struct perfev_counts prev; /* for interval deltas */
	/* the values being printed now */
	double val;
	bool counted;
	double pct_running;
};

/* A group of the CPUs or threads the events were opened on, counted as one. */
struct aggr {
	char label[64]; /* "CPU0", "S0-D0-C1", "N0", "comm-1234" */
	int nr;		/* CPUs in it */
	int key[3];	/* sorts the groups: socket, die, core; node; CPU; thread */
	int cpu;	/* -A: the CPU */
	char comm[32];	/* --per-thread: the thread's name and id */
	int tid;
};

struct stat_printer {
	struct perfev_evlist *el;
	FILE *out;
	struct stat_print_opts o;
	struct srow *rows; /* event-major: rows[event * nr_aggrs + aggr] */
	int nr;		   /* rows */
	int nr_evs;
	struct aggr *aggrs;
	int nr_aggrs;
	int *cell_aggr; /* the group of each (CPU index, thread index) of the maps */
	int nr_cpus, nr_threads;
	int runs;
	double elapsed_sum, elapsed_sumsq;
	double user_s, sys_s;
	int64_t cur_elapsed;
	bool header_done; /* the interval header */
};

/* A derived figure of a row: CPUs utilized, a rate, IPC, a miss ratio. */
struct metric {
	double val;
	char unit[64];
	bool valid;
};

/* stat_aggr.c */
/* One row per event and group; -1 when out of memory. */
int stat_rows__make(struct stat_printer *pr);
/*
 * The groups of the CPUs and threads the events were opened on, as the
 * aggregation asks, sorted, and the rows for them; -1 after saying why.
 */
int stat_aggrs__make(struct stat_printer *pr);
/* The reading of row r's event summed over the CPUs and threads of its group; -1 when none. */
int stat_row__counts(const struct stat_printer *pr, const struct srow *r, struct perfev_counts *c);
/* The rows in the order they are printed, hidden ones left out, into order (pr->nr); their number. */
int stat_rows__order(const struct stat_printer *pr, int *order);

/* stat_metric.c */
bool stat_is_clock(const struct perf_event_attr *a);
/* The derived figure of row r, rates per second of its task-clock (else of elapsed_ns). */
struct metric stat_metric(const struct stat_printer *pr, const struct srow *r, double elapsed_ns);

/* stat_metric_only.c: --metric-only's lines (t_s: an interval's time, else NULL), its JSON member. */
void stat_metric_only__print(struct stat_printer *pr, double elapsed_ns, const double *t_s);
void stat_metric_only__json(struct stat_printer *pr, struct perfev_json *j, double elapsed_ns);
/* stat_print.c: the group of row r as JSON members. */
void stat_json_aggr(const struct stat_printer *pr, struct perfev_json *j, const struct srow *r);

#endif
