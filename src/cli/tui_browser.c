// SPDX-License-Identifier: MIT
/*
 * The browser's keys, the same for perfev report and perfev top: moving,
 * unfolding call graphs, search, sort keys, children, the thread, DSO and
 * zoom filters, help and quit.  Nothing blocks: typing a search is a mode
 * of the key handler, so perfev top keeps sampling while a user types.
 */
#include <curses.h>
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "sigwait.h"
#include "tui.h"

const char *const tui_help_lines[] = {
	"perfev's browser: keys",
	"",
	"  Up, Down, PgUp, PgDn, Home, End   move (also k, j, space)",
	"  Enter, Right, +                   unfold the call graph of the line: with children its",
	"                                    callees, without them the callers of its samples",
	"  Left, -                           fold it, or go to the line it unfolds from",
	"  C                                 fold everything",
	"  /                                 search: only the symbols containing a text (empty: all)",
	"  s                                 the next set of sort keys (comm,dso,sym; sym; dso,sym ...)",
	"  c                                 children (the weight of each caller too) on or off",
	"  t                                 only the line's thread (or command); again: every thread",
	"  d                                 only the line's DSO; again: every DSO",
	"  z                                 zoom into the line's function: only its callees; again: out",
	"  ?, h                              this help (any key closes it)",
	"  q                                 quit (also Ctrl-C)",
};
const size_t tui_nr_help_lines = sizeof(tui_help_lines) / sizeof(tui_help_lines[0]);

bool tui_browser_open(struct tui_browser *b, const struct perfev_profile *p,
		      const struct report_opts *o)
{
	memset(b, 0, sizeof(*b));
	tui_model_init(&b->m, o);
	/* The model is built before the screen is taken: an error is said on a sane terminal. */
	if (!tui_model_rebuild(&b->m, p)) {
		cli_error("out of memory building the table");
		tui_model_free(&b->m);
		return false;
	}
	b->scr = tui_screen_open();
	if (!b->scr) {
		tui_model_free(&b->m);
		return false;
	}
	return true;
}

void tui_browser_close(struct tui_browser *b)
{
	tui_screen_close(b->scr);
	b->scr = NULL;
	tui_model_free(&b->m);
}

static void page(struct tui_browser *b, int dir)
{
	int lines, cols;
	size_t step;

	tui_screen_size(b->scr, &lines, &cols);
	step = lines > 4 ? (size_t)(lines - 4) : 1;
	if (dir < 0)
		b->m.sel = b->m.sel > step ? b->m.sel - step : 0;
	else if (b->m.nr_lines)
		b->m.sel = b->m.sel + step < b->m.nr_lines ? b->m.sel + step : b->m.nr_lines - 1;
}

static bool typed(struct tui_browser *b, int c)
{
	if (c == '\n' || c == '\r' || c == KEY_ENTER) {
		b->typing = false;
		b->input[b->input_len] = 0;
		b->m.sel = 0;
		return tui_model_search(&b->m, b->input);
	}
	if (c == 27) { /* Esc */
		b->typing = false;
		return true;
	}
	if ((c == KEY_BACKSPACE || c == 127 || c == 8) && b->input_len)
		b->input_len--;
	else if (c >= 32 && c < 127 && b->input_len + 1 < sizeof(b->input))
		b->input[b->input_len++] = (char)c;
	return true;
}

/* One key; false when the model could not be rebuilt (out of memory). */
static bool key(struct tui_browser *b, int c, bool *quit)
{
	struct tui_model *m = &b->m;
	size_t sel = m->sel;

	if (b->typing)
		return typed(b, c);
	if (b->help) {
		b->help = false;
		return true;
	}
	b->note[0] = 0;
	switch (c) {
	case 'q':
		*quit = true;
		return true;
	case KEY_UP:
	case 'k':
		if (m->sel)
			m->sel--;
		return true;
	case KEY_DOWN:
	case 'j':
		if (m->sel + 1 < m->nr_lines)
			m->sel++;
		return true;
	case KEY_PPAGE:
		page(b, -1);
		return true;
	case KEY_NPAGE:
	case ' ':
		page(b, 1);
		return true;
	case KEY_HOME:
	case 'g':
		m->sel = 0;
		return true;
	case KEY_END:
	case 'G':
		m->sel = m->nr_lines ? m->nr_lines - 1 : 0;
		return true;
	case KEY_RIGHT:
	case KEY_ENTER:
	case '\n':
	case '\r':
	case '+':
		if (sel < m->nr_lines && !tui_model_unfold(m, sel, true) && !m->lines[sel].has_children)
			snprintf(b->note, sizeof(b->note), "nothing to unfold: %s",
				 m->o.children ? "it calls nothing that was sampled"
					       : "no callers were sampled (record with -g)");
		return true;
	case KEY_LEFT:
	case '-':
		if (sel < m->nr_lines && m->lines[sel].expanded)
			tui_model_unfold(m, sel, false);
		else if (sel < m->nr_lines)
			m->sel = tui_model_parent(m, sel);
		return true;
	case 'C':
		tui_model_fold_all(m);
		return true;
	case '/':
		b->typing = true;
		b->input_len = strlen(m->search);
		memcpy(b->input, m->search, b->input_len);
		return true;
	case 's':
		return tui_model_next_sort(m);
	case 'c':
		return tui_model_toggle_children(m);
	case 't':
		return tui_model_toggle_thread(m, sel);
	case 'd':
		return tui_model_toggle_dso(m, sel);
	case 'z':
		return tui_model_toggle_zoom(m, sel);
	case '?':
	case 'h':
		b->help = true;
		return true;
	case KEY_RESIZE:
		return true;
	default:
		snprintf(b->note, sizeof(b->note), "no key '%s' here: press ? for the keys", keyname(c));
		return true;
	}
}

enum tui_act tui_browser_keys(struct tui_browser *b, bool readable)
{
	bool quit = false, any = false;

	for (;;) {
		int c = tui_screen_key(b->scr, readable && !any);

		if (c == TUI_KEY_CLOSED)
			return TUI_QUIT;
		if (c == TUI_KEY_NONE)
			break;
		any = true;
		if (!key(b, c, &quit)) {
			snprintf(b->note, sizeof(b->note), "out of memory: the view could not be rebuilt");
			return TUI_FAILED;
		}
		if (quit)
			return TUI_QUIT;
	}
	return TUI_GO_ON;
}

void tui_browser_draw(struct tui_browser *b)
{
	char status[1024], filters[512], keys[64];

	if (b->help) {
		tui_screen_text(b->scr, tui_help_lines, tui_nr_help_lines);
		return;
	}
	tui_model_filters(&b->m, filters, sizeof(filters));
	tui_model_sort_name(&b->m, keys, sizeof(keys));
	if (b->typing)
		snprintf(status, sizeof(status), "Search symbols: %.*s_", (int)b->input_len, b->input);
	else if (b->note[0])
		snprintf(status, sizeof(status), "%s", b->note);
	else
		snprintf(status, sizeof(status), "%zu rows, sorted by %s%s%s%s.  Press '?' for the keys, "
			 "'q' to quit.", b->m.nr_rows, keys, b->m.o.children ? ", with children" : "",
			 filters[0] ? "; only " : "", filters);
	tui_screen_draw(b->scr, &b->m, b->header, status);
}

int tui_browse(struct tui_browser *b)
{
	struct pollfd fds[2] = { { .fd = STDIN_FILENO, .events = POLLIN },
				 { .fd = sigwait_fd, .events = POLLIN } };

	for (;;) {
		enum tui_act act;
		int n;

		tui_browser_draw(b);
		n = poll(fds, 2, -1);
		if (n < 0 && errno != EINTR)
			return 0;
		if (sigwait_signal)
			return sigwait_signal;
		if (n > 0 && (fds[0].revents & (POLLHUP | POLLERR | POLLNVAL)))
			return 0;
		act = tui_browser_keys(b, n > 0 && (fds[0].revents & POLLIN));
		if (act == TUI_QUIT)
			return 0;
		if (act == TUI_FAILED)
			return -1;
	}
}
