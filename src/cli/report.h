/* SPDX-License-Identifier: MIT */
/* Shared by perfev report's files: the options, the rows of the table, the call graphs. */
#ifndef PERFEV_CLI_REPORT_H
#define PERFEV_CLI_REPORT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

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
};

enum graph_mode { GRAPH_NONE, GRAPH_GRAPH, GRAPH_FLAT, GRAPH_FOLDED };

enum report_ui { REPORT_UI_AUTO, REPORT_UI_STDIO, REPORT_UI_TUI };

struct report_opts {
	const char *input;
	enum report_key keys[NR_KEYS];
	int nr_keys;
	int cols[NR_KEYS + 4];
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
	int ui; /* REPORT_UI_AUTO: the browser on a terminal, else text */
	unsigned max_stack;
	long max_rows; /* at most this many rows (perfev top -E); 0: all */
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

/*
 * The text of key k of entry e as the table prints it ("[.] main",
 * "libc.so.6", "  1234:make"), kept until the texts are deleted; NULL when
 * out of memory.
 */
struct report_texts;
struct report_texts *report_texts_new(void);
const char *report_texts_key(struct report_texts *tx, const struct perfev_profile *p,
			     const struct perfev_profile_entry *e, enum report_key k);
void report_texts_delete(struct report_texts *tx);

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

/*
 * Browses profile p's table on the terminal (report_tui.c) under a header
 * line; the tool's exit status (an ending signal is honoured once the
 * terminal is given back).
 */
int report_tui(const struct perfev_profile *p, const struct report_opts *o, const char *header);

/* Whether entry idx has a call graph to show (graphs are on, and it is above the threshold). */
bool report_graph_wanted(const struct perfev_profile_table *t, size_t idx,
			 const struct report_opts *o, uint64_t total);
/* Prints the call graph of entry idx below its row. */
void report_graph_print(FILE *f, const struct perfev_profile *p,
			const struct perfev_profile_table *t, size_t idx, const struct report_opts *o,
			uint64_t total);

#endif
