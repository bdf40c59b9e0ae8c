/* SPDX-License-Identifier: MIT */
/* Shared by perfev report's files: the options, the table of entries, the call graphs. */
#ifndef PERFEV_CLI_REPORT_H
#define PERFEV_CLI_REPORT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "perfev/profile.h"

enum report_key {
	KEY_COMM,
	KEY_PID,
	KEY_TID,
	KEY_DSO,
	KEY_SYM,
	KEY_SRCLINE,
	NR_KEYS,
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
	bool order_set;
	double graph_threshold; /* percent */
	double percent_limit;
	const char *comms, *pids, *tids, *dsos;
	bool inlines;
	bool quiet;
	bool verbose; /* -v: also the time each phase took */
	bool stats_only;
	unsigned max_stack;
};

/* One row: the key values and the weights. */
struct report_entry {
	uint32_t thread; /* profile thread (keys comm/pid/tid taken from it) */
	uint32_t frame;	 /* profile frame (dso/sym/srcline taken from it) */
	uint64_t self, children;
	uint64_t samples;
};

struct report_table {
	struct report_entry *e;
	size_t nr;
	uint32_t *node_entry; /* per profile node: its entry, or NONE */
	/* Each entry's nodes as a list: entry_first[e], then node_next[n]; NONE ends it. */
	uint32_t *entry_first, *node_next;
};

int report_table_build(const struct perfev_profile *p, const struct report_opts *o,
		       struct report_table *t);
void report_table_free(struct report_table *t);

/* A shown entry with its key texts, made once: sorting and printing only compare and copy. */
struct report_row {
	uint64_t v, self; /* the weight shown (children or self), and self */
	const struct report_entry *e;
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
bool report_graph_wanted(const struct report_table *t, size_t idx, const struct report_opts *o,
			 uint64_t total);
/* Prints the call graph of entry idx below its row. */
void report_graph_print(FILE *f, const struct perfev_profile *p, const struct report_table *t,
			size_t idx, const struct report_opts *o, uint64_t total);

#endif
