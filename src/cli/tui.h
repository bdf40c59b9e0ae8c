/* SPDX-License-Identifier: MIT */
/*
 * The terminal browser of perfev report and perfev top: the rows of a
 * profile's table, each entry's call graph unfolding below it, search,
 * sort keys, filters and zoom (tui_model.c, no terminal involved), the
 * chains of one entry merged into a tree (tui_graph.c), and the screen and
 * keys (tui_screen.c, ncurses), restored whatever ends the program.
 */
#ifndef PERFEV_CLI_TUI_H
#define PERFEV_CLI_TUI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "report.h"

#define TUI_NONE PERFEV_PROFILE_NONE

/* One entry's call graph: node 0 is the entry's frame, below it its callees or callers. */
struct tui_gnode {
	uint32_t frame;
	uint32_t parent, first_child, next_sibling;
	uint32_t nr_children;
	uint64_t weight;
};

struct tui_graph {
	struct tui_gnode *n;
	size_t nr, cap;
	/* (parent, frame) -> node, open addressing: fan-outs of thousands stay cheap. */
	uint32_t *slot;
	size_t nr_slots;
};

/*
 * Entry idx's graph: with callees, the subtrees below its outermost calls
 * (what it spent its time in, weights the totals); else the callers of its
 * samples (weights the selfs).  NULL when out of memory.
 */
struct tui_graph *tui_graph_new(const struct perfev_profile *p, const struct perfev_profile_table *t,
				uint32_t idx, bool callees);
void tui_graph_delete(struct tui_graph *g);
/* Node n's children, heaviest first, into out (at most max); how many there are. */
size_t tui_graph_children(const struct tui_graph *g, uint32_t n, uint32_t *out, size_t max);

/* A line of the browser: a row of the table, or a node of its entry's graph. */
struct tui_line {
	uint32_t row;	/* position in the sorted rows */
	uint32_t gnode; /* TUI_NONE for the row itself */
	uint32_t depth; /* 0 for the row, 1 for its graph's first level... */
	bool expanded, has_children;
};

/* An unfolded line, by what it shows (stable across rebuilds): its entry and the frames down to it. */
struct tui_unfold {
	uint32_t thread, frame; /* the entry's */
	uint32_t *path;		/* graph frames below the entry's, outermost first */
	size_t len;
};

struct tui_model {
	const struct perfev_profile *base;
	struct report_opts o; /* keys, children, caller */
	bool kept_pids;	      /* the profile tells threads apart (else one per command) */
	uint64_t total;	      /* the base profile's: percentages are of everything */
	/* Filters, set by the keys. */
	bool by_thread;
	uint32_t thread;
	const char *comm;
	bool by_dso;
	const struct perfev_dso *dso;
	bool dso_kernel;
	bool zoom;
	uint32_t zoom_frame;
	char search[128];
	/* Made from the above by tui_model_rebuild(). */
	struct perfev_profile *view; /* the zoomed or filtered copy, or NULL */
	const struct perfev_profile *p;
	struct perfev_profile_table *t;
	struct report_texts *tx;
	struct report_row *rows;
	uint32_t *order;
	size_t nr_rows, cap_rows;
	struct tui_graph **graphs; /* per entry of t, made when first unfolded */
	size_t nr_graphs;
	struct tui_line *lines;
	size_t nr_lines, cap_lines;
	struct tui_unfold *unfold;
	size_t nr_unfold, cap_unfold;
	size_t width[NR_KEYS];
	size_t sel, top; /* the selected line, the first one shown */
};

/* Keys, children and call-graph order as report's options say. */
void tui_model_init(struct tui_model *m, const struct report_opts *o);
/*
 * (Re)builds everything from profile p (the same one again after it grew,
 * or another) and the filters, keeping the selected line and what was
 * unfolded; false when out of memory.
 */
bool tui_model_rebuild(struct tui_model *m, const struct perfev_profile *p);
void tui_model_free(struct tui_model *m);

/* Unfolds (true) or folds line i; false when it has nothing to unfold. */
bool tui_model_unfold(struct tui_model *m, size_t i, bool unfold);
/* Folds every line. */
void tui_model_fold_all(struct tui_model *m);
/* The line's parent line, or i itself for a row. */
size_t tui_model_parent(const struct tui_model *m, size_t i);

/* The filters the keys toggle, on line i's entry or frame; false when out of memory. */
bool tui_model_toggle_thread(struct tui_model *m, size_t i);
bool tui_model_toggle_dso(struct tui_model *m, size_t i);
bool tui_model_toggle_zoom(struct tui_model *m, size_t i);
bool tui_model_toggle_children(struct tui_model *m);
/* The next of the sort-key sets the profile can tell apart; its name. */
bool tui_model_next_sort(struct tui_model *m);
/* Rows whose symbol contains text (empty: all). */
bool tui_model_search(struct tui_model *m, const char *text);

/* The line's text as the browser shows it (columns of the row, or the graph's branch); buf. */
const char *tui_model_line_text(struct tui_model *m, size_t i, char *buf, size_t size);
/* The column titles above the rows. */
const char *tui_model_titles(const struct tui_model *m, char *buf, size_t size);
/* What the view is narrowed to ("thread 1234:make, DSO libc.so.6, zoom main, search 'foo'"), or "". */
const char *tui_model_filters(const struct tui_model *m, char *buf, size_t size);
/* The sort keys' names, comma-separated. */
const char *tui_model_sort_name(const struct tui_model *m, char *buf, size_t size);

/* The screen (tui_screen.c): ncurses on the terminal of stdin and stdout. */
struct tui_screen;
/*
 * Takes the terminal (which must be stdin's and stdout's); NULL after
 * saying why.  SIGINT, SIGTERM and SIGHUP only note themselves (sigwait.h)
 * from now on: the loop that reads keys ends, and tui_screen_close() gives
 * the terminal back before the signal is honoured.
 */
struct tui_screen *tui_screen_open(void);
/* Gives the terminal back as it was; accepts NULL. */
void tui_screen_close(struct tui_screen *s);
/* Keys waiting: the next one, TUI_KEY_NONE, or TUI_KEY_CLOSED when the terminal went away. */
enum { TUI_KEY_NONE = -1, TUI_KEY_CLOSED = -2 };
int tui_screen_key(struct tui_screen *s, bool readable);
/* The screen's size in lines and columns. */
void tui_screen_size(const struct tui_screen *s, int *lines, int *cols);
/*
 * Draws: a header line, the column titles, the model's lines from its top
 * (the selected one highlighted), and a status line.
 */
void tui_screen_draw(struct tui_screen *s, struct tui_model *m, const char *header,
		     const char *status);
/* Draws lines of text over the whole screen (the keys' help). */
void tui_screen_text(struct tui_screen *s, const char *const *lines, size_t n);

/* The browser (tui_browser.c): the keys on a model, shared by report and top. */
struct tui_browser {
	struct tui_screen *scr;
	struct tui_model m;
	char header[512];
	bool help;
	bool typing; /* '/' was pressed: keys go to the search text */
	char input[128];
	size_t input_len;
	char note[256]; /* said once on the status line */
};

enum tui_act { TUI_GO_ON, TUI_QUIT, TUI_FAILED };
/*
 * Opens the screen and builds the model of profile p with o's keys and
 * modes; false after saying why (no terminal, out of memory).
 */
bool tui_browser_open(struct tui_browser *b, const struct perfev_profile *p,
		      const struct report_opts *o);
void tui_browser_close(struct tui_browser *b);
/* Acts on the keys waiting (stdin was readable, or its poll said so); TUI_QUIT on q or a lost terminal. */
enum tui_act tui_browser_keys(struct tui_browser *b, bool readable);
void tui_browser_draw(struct tui_browser *b);
/*
 * perfev report's loop: keys until q, a lost terminal or an ending signal;
 * 0, -1 (out of memory), or the signal to honour once the terminal is
 * back (tui_browser_close() first).
 */
int tui_browse(struct tui_browser *b);
/* The keys, for the help screen and the man page's test. */
extern const char *const tui_help_lines[];
extern const size_t tui_nr_help_lines;

#endif
