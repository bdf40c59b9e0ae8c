// SPDX-License-Identifier: MIT
/*
 * The browser's screen: ncurses on the terminal, given back as it was
 * whatever ends the program.  The ending signals (SIGINT, SIGTERM, SIGHUP)
 * only note themselves and wake the key loop, which closes the screen
 * before they are honoured; a terminal that goes away (its reads end)
 * ends the loop the same way; a resize redraws.
 */
#include <curses.h>
#include <errno.h>
#include <locale.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "sigwait.h"
#include "tui.h"

struct tui_screen {
	SCREEN *scr;
	int empty_reads; /* reads that found nothing although poll said readable */
};

struct tui_screen *tui_screen_open(void)
{
	struct tui_screen *s;

	if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
		cli_error("the browser needs a terminal on stdin and stdout; use --stdio");
		return NULL;
	}
	if (sigwait_install() < 0) {
		cli_error("cannot set up signal handling: %s", strerror(errno));
		return NULL;
	}
	s = calloc(1, sizeof(*s));
	if (!s) {
		cli_error("out of memory");
		return NULL;
	}
	setlocale(LC_CTYPE, "");
	/* newterm, unlike initscr, returns instead of exiting when TERM is unknown. */
	s->scr = newterm(NULL, stdout, stdin);
	if (!s->scr) {
		cli_error("cannot drive the terminal '%s' (TERM); use --stdio",
			  getenv("TERM") ? getenv("TERM") : "");
		free(s);
		return NULL;
	}
	set_term(s->scr);
	cbreak();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	nodelay(stdscr, TRUE);
	set_escdelay(25);
	curs_set(0);
	if (has_colors()) {
		start_color();
		use_default_colors();
		init_pair(1, COLOR_RED, -1);
		init_pair(2, COLOR_GREEN, -1);
	}
	return s;
}

void tui_screen_close(struct tui_screen *s)
{
	if (!s)
		return;
	endwin();
	delscreen(s->scr);
	fflush(stdout);
	free(s);
}

int tui_screen_key(struct tui_screen *s, bool readable)
{
	int c = wgetch(stdscr);

	if (c != ERR) {
		s->empty_reads = 0;
		return c;
	}
	/*
	 * Readable yet nothing to read, twice running: the terminal has gone
	 * (end of file, or EIO once its session ended).
	 */
	if (readable && ++s->empty_reads >= 2)
		return TUI_KEY_CLOSED;
	return TUI_KEY_NONE;
}

void tui_screen_size(const struct tui_screen *s, int *lines, int *cols)
{
	(void)s;
	getmaxyx(stdscr, *lines, *cols);
}

static void line_at(int y, const char *text, int cols, attr_t attr)
{
	move(y, 0);
	attron(attr);
	addnstr(text, cols);
	/* The highlight runs to the edge, as a bar. */
	for (int x = getcurx(stdscr); x < cols && x > 0 && getcury(stdscr) == y; x++)
		addch(' ');
	attroff(attr);
	clrtoeol();
}

void tui_screen_draw(struct tui_screen *s, struct tui_model *m, const char *header, const char *status)
{
	int lines, cols, body;
	char buf[2048];

	tui_screen_size(s, &lines, &cols);
	erase();
	body = lines - 3;
	if (body < 1)
		body = 1;
	if (m->sel < m->top)
		m->top = m->sel;
	if (m->sel >= m->top + (size_t)body)
		m->top = m->sel - (size_t)body + 1;
	line_at(0, header, cols, A_REVERSE);
	line_at(1, tui_model_titles(m, buf, sizeof(buf)), cols, A_BOLD);
	for (int y = 0; y < body && m->top + (size_t)y < m->nr_lines; y++) {
		size_t i = m->top + (size_t)y;
		attr_t a = i == m->sel ? A_REVERSE : A_NORMAL;

		tui_model_line_text(m, i, buf, sizeof(buf));
		line_at(2 + y, buf, cols, a);
	}
	if (!m->nr_lines)
		line_at(2, "  (no samples to show here)", cols, A_NORMAL);
	line_at(lines - 1, status, cols, A_REVERSE);
	refresh();
}

void tui_screen_text(struct tui_screen *s, const char *const *text, size_t n)
{
	int lines, cols;

	tui_screen_size(s, &lines, &cols);
	erase();
	for (size_t i = 0; i < n && (int)i < lines; i++)
		line_at((int)i, text[i], cols, i ? A_NORMAL : A_REVERSE);
	refresh();
}
