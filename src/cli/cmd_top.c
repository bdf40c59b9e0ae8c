/* SPDX-License-Identifier: MIT */
/* perfev top: what is hot right now, sampled live, in the browser or as a snapshot per refresh. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "cli.h"
#include "opt.h"
#include "top.h"

enum { OPT_STDIO = 256, OPT_TUI, OPT_CHILDREN, OPT_NO_CHILDREN };

static const struct opt top_table[] = {
	OPT_GROUP(opt_events),
	OPT_HELP('e', "events to sample, comma-separated (default: cycles, or cpu-clock without a PMU)"),
	{ 'F', "freq", .arg = "HZ", .help = "samples per second per event and CPU (default 4000)" },
	{ 'c', "count", .arg = "PERIOD", .help = "a sample every PERIOD events instead" },
	{ 'g', .help = "sample call graphs (frame pointers); the table then has children weights" },
	OPT_GROUP_ONLY(opt_target, "paC"),
	{ 't', "tid", .arg = "TID", .comp = COMP_PID, .help = "sample one thread" },
	{ 'd', "delay", .arg = "SECS", .help = "seconds between refreshes (default 2; fractions allowed)" },
	{ 'z', "zero", .help = "each refresh shows only its own samples (default: older ones fade by 7/8 "
			       "per refresh, as perf top's)" },
	{ 'E', "entries", .arg = "N", .help = "show at most N rows (0: all; default: all in the browser, "
					     "a terminal's height or 20 with --stdio)" },
	{ 'K', "hide-kernel-symbols", .help = "leave out samples taken in the kernel" },
	{ 'U', "hide-user-symbols", .help = "leave out samples taken in user space" },
	OPT_GROUP_ONLY(opt_sort, "s"),
	{ OPT_CHILDREN, "children", .help = "also charge each sample to its callers (the default with -g)" },
	{ OPT_NO_CHILDREN, "no-children", .help = "charge each sample only to where it was taken" },
	{ 'm', "mmap-pages", .arg = "PAGES", .help = "ring buffer pages per CPU, a power of two (default 128)" },
	{ OPT_STDIO, "stdio", .help = "a text snapshot per refresh (the default when stdout is not a "
				      "terminal)" },
	{ OPT_TUI, "tui", .help = "the terminal browser (the default on a terminal)" },
	OPT_GROUP(opt_frames),
	OPT_GROUP(opt_verbosity),
	OPT_END,
};

static bool set_option(void *ctx, int key, const char *arg)
{
	struct top_opts *o = ctx;
	char *end;
	double d;

	switch (key) {
	case 'F':
		o->rec.freq_given = true;
		return cli_parse_long("-F", arg, 1, 10000000, &o->rec.freq);
	case 'c':
		return cli_parse_long("-c", arg, 1, LONG_MAX, &o->rec.period);
	case 'g':
		o->rec.callgraph = CG_FP;
		return true;
	case 't':
		return cli_parse_long("-t", arg, 1, INT_MAX, &o->tid);
	case 'd':
		d = strtod(arg, &end);
		if (end == arg || *end || !(d >= 0.05 && d <= 3600)) {
			cli_error("-d expects seconds between 0.05 and 3600, not '%s'", arg);
			return false;
		}
		o->delay_ms = (long)(d * 1000 + 0.5);
		return true;
	case 'z':
		o->zero = true;
		return true;
	case 'E':
		o->entries_set = true;
		return cli_parse_long("-E", arg, 0, INT_MAX, &o->ro.max_rows);
	case 'K':
		o->hide_kernel = true;
		return true;
	case 'U':
		o->hide_user = true;
		return true;
	case OPT_CHILDREN:
	case OPT_NO_CHILDREN:
		o->ro.children = key == OPT_CHILDREN;
		o->ro.children_set = true;
		return true;
	case 'm':
		if (!cli_parse_long("-m", arg, 1, 1 << 24, &o->rec.mmap_pages))
			return false;
		if (o->rec.mmap_pages & (o->rec.mmap_pages - 1)) {
			cli_error("-m expects a power of two of pages (e.g. 128), not '%s'", arg);
			return false;
		}
		return true;
	case OPT_STDIO:
	case OPT_TUI:
		o->ro.ui = key == OPT_STDIO ? REPORT_UI_STDIO : REPORT_UI_TUI;
		return true;
	}
	return false;
}

const struct opt_cmd top_cmd = {
	.name = "top",
	.summary = "show what is hot right now, sampled live (every CPU by default)",
	.verb = "sample",
	.synopsis = "[-e EVENTS] [-F HZ | -c PERIOD] [-g] [-p PID | -t TID | -a | -C CPUS] [-d SECS] "
		    "[-z] [-E N] [-K] [-U] [-s KEYS] [--stdio | --tui] [-- COMMAND [ARGS...]]",
	.about = "Samples every CPU (or a process, a thread, a command) and shows where the time goes "
		 "now, refreshed every -d seconds: in the terminal browser (the keys of perfev report's: "
		 "? lists them), or with --stdio (and whenever stdout is not a terminal) as one snapshot "
		 "per refresh.",
	.opts = top_table,
	.set = set_option,
	.operands = OPERANDS_COMMAND,
	.operand_comp = COMP_COMMAND,
};

static const char *const key_names[NR_KEYS] = { "comm", "pid", "tid", "dso", "sym", "srcline" };

static bool parse_sort(struct report_opts *ro, const char *arg)
{
	char *dup = strdup(arg), *save = NULL;
	bool ok = dup != NULL;

	for (char *t = dup ? strtok_r(dup, ",", &save) : NULL; t && ok; t = strtok_r(NULL, ",", &save)) {
		int k = -1;

		for (int i = 0; i < NR_KEYS; i++)
			if (!strcmp(t, key_names[i]) || (i == KEY_SYM && !strcmp(t, "symbol")))
				k = i;
		if (k < 0) {
			cli_error("unknown sort key '%s'; the keys are comm, pid, tid, dso, sym, srcline", t);
			ok = false;
		} else if (ro->nr_keys < NR_KEYS) {
			bool dup_key = false;

			for (int i = 0; i < ro->nr_keys; i++)
				dup_key |= (int)ro->keys[i] == k;
			if (!dup_key)
				ro->keys[ro->nr_keys++] = (enum report_key)k;
		}
	}
	free(dup);
	return ok;
}

static bool parse_args(int argc, char **argv, struct top_opts *o, struct cli_args *a, int *ret)
{
	struct cli_target *t = &a->target;

	o->rec.freq = 4000;
	o->rec.mmap_pages = 128;
	o->delay_ms = 2000;
	if (!opt_parse(&top_cmd, argc, argv, a, o, ret))
		return false;
	*ret = 1;
	if (o->rec.period && o->rec.freq_given) {
		cli_error("-F and -c are alternatives: sample by frequency or every PERIOD events");
		return false;
	}
	if (o->rec.period)
		o->rec.freq = 0;
	long max = record_max_sample_rate();

	if (o->rec.freq_given && max > 0 && o->rec.freq > max) {
		if (!a->quiet)
			cli_note("-F %ld is above the kernel's limit of %ld samples/s "
				 "(kernel.perf_event_max_sample_rate); using %ld", o->rec.freq, max, max);
		o->rec.freq = max;
	}
	if (o->hide_kernel && o->hide_user) {
		cli_error("-K and -U together would hide every sample");
		return false;
	}
	if (o->tid && (t->pid || t->all_cpus || t->cpus || a->operands[0])) {
		cli_error("-t samples one thread; it cannot be combined with -p, -a, -C or a command");
		return false;
	}
	/* Everything, as perf top, unless told what. */
	if (!o->tid && !t->pid && !t->cpus && !a->operands[0])
		t->all_cpus = true;
	if (!o->tid && !cli_target__check(t, &top_cmd, a->operands, 0))
		return false;
	if (a->sort && !parse_sort(&o->ro, a->sort))
		return false;
	if (!o->ro.nr_keys) {
		o->ro.keys[o->ro.nr_keys++] = KEY_COMM;
		o->ro.keys[o->ro.nr_keys++] = KEY_DSO;
		o->ro.keys[o->ro.nr_keys++] = KEY_SYM;
	}
	if (!o->ro.children_set)
		o->ro.children = o->rec.callgraph != CG_NONE;
	o->ro.caller = o->ro.children;
	o->ro.graph = o->rec.callgraph != CG_NONE ? GRAPH_GRAPH : GRAPH_NONE;
	o->ro.graph_threshold = 0.5;
	o->ro.quiet = a->quiet;
	o->ro.verbose = a->verbose;
	if (o->ro.ui == REPORT_UI_AUTO)
		o->ro.ui = isatty(STDOUT_FILENO) && isatty(STDIN_FILENO) ? REPORT_UI_TUI : REPORT_UI_STDIO;
	/* A snapshot, as perf top's: what fits the terminal (or 20 rows), unless -E says. */
	if (o->ro.ui == REPORT_UI_STDIO && !o->entries_set) {
		struct winsize ws;

		o->ro.max_rows = 20;
		if (isatty(STDOUT_FILENO) && !ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) && ws.ws_row > 12)
			o->ro.max_rows = ws.ws_row - 10;
	}
	o->no_demangle = a->no_demangle;
	o->ro.max_stack = (unsigned)a->max_stack;
	o->rec.events = a->events;
	o->rec.target = *t;
	o->rec.quiet = a->quiet;
	o->rec.argv = a->operands;
	return true;
}

int cmd_top(int argc, char **argv)
{
	struct top_opts o = { 0 };
	struct cli_args a = { 0 };
	int ret;

	if (parse_args(argc, argv, &o, &a, &ret))
		ret = top_run(&o);
	/* The events' text is the arguments', freed with them. */
	cli_args__free(&a);
	return ret;
}
