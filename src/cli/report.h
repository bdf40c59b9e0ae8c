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

enum report_ui { REPORT_UI_AUTO, REPORT_UI_STDIO, REPORT_UI_TUI };

struct report_opts {
	const char *input;
	const char *sort; /* -s as given */
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
	struct perfev_sample_filter *filter; /* --event, --time: the samples read; NULL: none */
	/*
	 * perf's --comm, --pid, --tid, --dso and --symbols: the samples of other
	 * commands and threads are left out of the rows but kept in the totals;
	 * those taken in other files or functions still weigh their callers,
	 * only rows of other files and functions are not shown.  NULL: none.
	 */
	struct perfev_sample_filter *rows;
	const char *symbols; /* -S: comma-separated function names; NULL: all */
	bool relative;	     /* --percentage relative: of what the filters pass, not of the file */
	bool hide[NR_KEYS];  /* columns a filter fixes to one value (perf elides them) */
	const char *fixed[NR_KEYS]; /* that value */
	bool show_nr;	     /* -n: the Samples column */
	bool header;	     /* --header: the file's header first */
	bool header_only;    /* --header-only */
	bool threads;	     /* -T: the threads' counts after the report */
	bool trace;	     /* sorted by the trace key alone (report_trace.c) */
	const char *time;    /* --time as given, for the header */
	bool keys_given;     /* -s or -F named the keys */
	bool inlines;
	bool no_inline; /* --no-inline: DWARF-unwound frames without their inlined functions */
	bool quiet;
	bool verbose; /* -v: also the time each phase took */
	bool stats_only;
	int ui; /* REPORT_UI_AUTO: the browser on a terminal, else text */
	unsigned max_stack;
	long max_rows; /* at most this many rows (perfev top -E); 0: all */
	struct cli_off_cpu off_cpu;
	bool time_col; /* the table being printed weighs ns: a Time column in ms */
};

/* report_header.c: --header's text, what the file's feature sections say. */
void report_print_header(FILE *f, struct perfev_data_reader *r, const char *input);
/* report_stats.c: --stats, the records of each type (reads r to its end); the exit status. */
int report_print_stats(FILE *f, struct perfev_data_reader *r, const char *input);
/* -T: each thread's counts from the file's PERF_RECORD_READ records (reads input again). */
int report_print_threads(FILE *f, const char *input);

/* report_filter.c: whether entry e passes --dso and --symbols. */
bool report_entry_passes(const struct report_opts *o, const struct perfev_profile *p,
			 const struct perfev_profile_entry *e);
/*
 * Hides the columns that --comm, --dso or --symbols fix to one value, as
 * perf does (all of them shown again when every key would go).
 */
void report_hide_fixed(struct report_opts *o, const char *comms, const char *dsos);
/* The "# comm: NAME" lines of the hidden columns, as perf prints them; whether there were any. */
bool report_print_fixed(FILE *f, const struct report_opts *o);

/* A shown entry with its key texts, made once: sorting and printing only compare and copy. */
struct report_row {
	uint64_t v, self; /* the weight shown (children or self), and self */
	const struct perfev_profile_entry *e;
	uint32_t entry; /* e's index in the table (UINT32_MAX: none, a group row of members only) */
	const char *text[NR_KEYS]; /* the keys shown or sorted by; others NULL */
	/* A group's row: each member's children, self and samples (NULL: e's, one event). */
	const uint64_t *mv;
};
/* Values of a group row per member in report_row.mv. */
enum { MV_CHILDREN, MV_SELF, MV_SAMPLES, NR_MV };

/*
 * report_group.c: the rows of a group's members (rows[m][0..n[m]), member 0
 * the leader) joined by their keys' texts into out (room for the sum of
 * n[]), each with its members' values in vals (NR_MV * nr each, room for
 * as many rows); out's rows come in the leader's order, then the others'.
 * The number of rows, or -1 when out of memory.
 */
long report_group_rows(struct report_row *const *rows, const size_t *n, size_t nr,
		       const enum report_key *keys, int nr_keys, struct report_row *out,
		       uint64_t *vals);
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
/*
 * The totals the percentages are of: the file's, or with --percentage
 * relative what the filters pass.  The header is printed through header(),
 * once the totals are known.
 */
struct report_totals {
	uint64_t samples, period;
};
typedef void (*report_header_fn)(void *ctx, const struct report_totals *t, size_t nr);
/*
 * p[0..nr): one event's profile, or a group's members' (the leader first,
 * NULL for a member without samples: perf's "anon group" table, a column of
 * each member's values); file[0..nr) their totals; header() gets nr totals.
 */
bool report_table_print(FILE *f, struct perfev_profile *const *p, size_t nr,
			const struct report_opts *o, const struct report_totals *file,
			report_header_fn header, void *ctx, struct report_print_stats *ps);

/*
 * Prints the call graph of the samples that ended in nodes[0..n) with
 * weights[0..n) (the rows of the trace key).
 */
void report_graph_print_nodes(FILE *f, const struct perfev_profile *p, const uint32_t *nodes,
			      const uint64_t *weights, size_t n, const struct report_opts *o,
			      uint64_t total);

/*
 * report_trace.c: the trace key's rows (perf's default for tracepoint
 * recordings).  report_trace_add() files the next sample added to the
 * event's profile (made with opts.times) under its text.
 */
struct report_trace;
struct report_trace *report_trace_new(void);
void report_trace_delete(struct report_trace *t);
int report_trace_add(struct report_trace *t, const char *text, uint64_t period);
/* The rows, heaviest first, each with its call graph; false when out of memory. */
bool report_trace_print(FILE *f, const struct report_trace *t, const struct perfev_profile *p,
			const struct report_opts *o, uint64_t total);

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
