/* SPDX-License-Identifier: MIT */
/* Shared by perfev report's files: the options, the rows of the table, the call graphs. */
#ifndef PERFEV_CLI_REPORT_H
#define PERFEV_CLI_REPORT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "cli.h"
#include "perfev/perfev.h"
#include "perfev/profile.h"
#include "perfev/profile_table.h"

/* The sort keys are the library's table's, by these shorter names. */
enum report_key {
	KEY_COMM = PERFEV_PROFILE_KEY_COMM,
	KEY_PID = PERFEV_PROFILE_KEY_PID,
	KEY_TID = PERFEV_PROFILE_KEY_TID,
	KEY_DSO = PERFEV_PROFILE_KEY_DSO,
	KEY_SYM = PERFEV_PROFILE_KEY_SYM,
	KEY_SRCLINE = PERFEV_PROFILE_KEY_SRCLINE,
	NR_KEYS = PERFEV_PROFILE_NR_KEYS,
};

/* Columns of the table: the keys, then values. */
enum report_col {
	COL_KEY_BASE = 0, /* COL_KEY_BASE + enum report_key */
	COL_OVERHEAD = NR_KEYS,
	COL_CHILDREN,
	COL_SAMPLE,
	COL_PERIOD,
	COL_TIME, /* the weight (children or self) in ms, for profiles of time */
};

enum graph_mode { GRAPH_NONE, GRAPH_GRAPH, GRAPH_FLAT, GRAPH_FOLDED };

struct report_opts {
	const char *input;
	enum report_key keys[NR_KEYS];
	int nr_keys;
	int cols[NR_KEYS + 5];
	int nr_cols;
	bool children;	   /* a Children column and entries for every caller */
	bool children_set; /* given on the command line */
	enum graph_mode graph;
	bool graph_set;
	bool caller; /* caller-first call graphs (else callee-first) */
	bool sym_first; /* sorted by sym first without -F: graphs skip the row's own frame */
	bool order_set;
	double graph_threshold; /* percent */
	double percent_limit;
	struct perfev_sample_filter *filter; /* --comm, --pid, --tid, --dso, --event, --time; NULL: none */
	bool inlines;
	bool quiet;
	bool verbose; /* -v: also the time each phase took */
	bool stats_only;
	unsigned max_stack;
	struct cli_off_cpu off_cpu;
	bool time_col; /* the table being printed weighs ns: a Time column in ms */
};

/* A shown entry with its key texts, made once: sorting and printing only compare and copy. */
struct report_row {
	uint64_t v, self; /* the weight shown (children or self), and self */
	const struct perfev_profile_entry *e;
	uint32_t entry; /* e's index in the table */
	const char *text[NR_KEYS]; /* the keys shown or sorted by; others NULL */
};
/*
 * order[0..n): the rows heaviest first (v, then self), then by the keys'
 * texts in the order given; false when out of memory.
 */
bool report_sort_rows(const struct report_row *rows, size_t n, const enum report_key *keys,
		      int nr_keys, uint32_t *order);

/* What printing a table took, for -v. */
struct report_print_stats {
	size_t nr_entries, nr_shown;
	double sort_s, print_s; /* building and sorting the table; writing it */
};
/*
 * Writes profile p's table (and the call graph of each row) to f; false when
 * out of memory.
 */
bool report_table_print(FILE *f, const struct perfev_profile *p, const struct report_opts *o,
			struct report_print_stats *ps);

/* Whether entry idx has a call graph to show (graphs are on, and it is above the threshold). */
bool report_graph_wanted(const struct perfev_profile_table *t, size_t idx,
			 const struct report_opts *o, uint64_t total);
/* Prints the call graph of entry idx below its row. */
void report_graph_print(FILE *f, const struct perfev_profile *p,
			const struct perfev_profile_table *t, size_t idx, const struct report_opts *o,
			uint64_t total);

/* Per thread: on-CPU (clock samples) and off-CPU time by state (report_offcpu.c). */
struct wall_thread {
	int pid, tid;
	const char *comm;
	uint64_t on, off[4]; /* off: S, D, R, other */
};
struct report_wall {
	struct wall_thread *t;
	size_t nr, cap;
};
/* Whether attr is a CPU clock, whose periods are ns. */
bool report_is_clock(const struct perf_event_attr *a);
/* Adds a clock sample or an off-CPU wait to its thread's totals; false when out of memory. */
bool report_wall_add(struct report_wall *w, const struct perfev_session_sample *ss);
/* The per-thread table, heaviest first. */
void report_wall_print(FILE *f, struct report_wall *w, const char *clock);
void report_wall_free(struct report_wall *w);

#endif
