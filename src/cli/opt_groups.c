/* SPDX-License-Identifier: MIT */
/*
 * The option groups subcommands share, each written once: a command includes
 * a group in its table (all of it, or some of its options) and may give one
 * of its options a help line of its own.  Their values land in struct
 * cli_args.
 */
#include <stdint.h>
#include <stdlib.h>

#include "cli.h"
#include "opt.h"

static bool set_target(struct cli_args *a, int key, const char *arg)
{
	switch (key) {
	case 'p':
		return cli_parse_long("-p", arg, 1, INT32_MAX, &a->target.pid);
	case 't':
		return cli_parse_long("-t", arg, 1, INT32_MAX, &a->target.tid);
	case 'a':
		a->target.all_cpus = true;
		return true;
	case 'C':
		a->target.cpus = arg;
		return true;
	case 'G':
		a->target.cgroup = arg;
		return true;
	}
	return false;
}

const struct opt_group opt_target = {
	(const struct opt[]){
		{ 'p', "pid", .arg = "PID", .comp = COMP_PID, .help = "@ an existing process (all its threads)" },
		{ 't', "tid", .arg = "TID", .comp = COMP_PID,
		  .help = "@ one existing thread (and the threads it creates)" },
		{ 'a', "all-cpus", .help = "@ everything on every CPU" },
		{ 'C', "cpu", .arg = "CPUS", .comp = COMP_CPUS,
		  .help = "@ everything on these CPUs (e.g. 0-3,6)" },
		{ 'G', "cgroup", .arg = "CGROUP", .comp = COMP_CGROUP,
		  .help = "@ only tasks of this cgroup (implies -a)" },
		OPT_END,
	},
	set_target,
};

static bool set_events(struct cli_args *a, int key, const char *arg)
{
	(void)key;
	return cli_append_list(&a->events, arg);
}

const struct opt_group opt_events = {
	(const struct opt[]){
		{ 'e', "event", .arg = "EVENTS", .comp = COMP_EVENT,
		  .help = "events to @, comma-separated, {a,b} for a group; may repeat" },
		OPT_END,
	},
	set_events,
};

static bool set_input(struct cli_args *a, int key, const char *arg)
{
	(void)key;
	a->input = arg;
	return true;
}

const struct opt_group opt_input = {
	(const struct opt[]){
		{ 'i', "input", .arg = "FILE", .comp = COMP_FILE,
		  .help = "the perf.data to read (default perf.data; '-' reads a pipe-mode stream from "
			  "standard input)" },
		OPT_END,
	},
	set_input,
};

static bool set_output(struct cli_args *a, int key, const char *arg)
{
	(void)key;
	a->output = arg;
	return true;
}

const struct opt_group opt_output = {
	(const struct opt[]){
		{ 'o', "output", .arg = "FILE", .comp = COMP_FILE, .help = "write the output to FILE" },
		OPT_END,
	},
	set_output,
};

static bool set_verbosity(struct cli_args *a, int key, const char *arg)
{
	(void)arg;
	if (key == 'q')
		a->quiet = true;
	else
		a->verbose = true;
	return true;
}

const struct opt_group opt_verbosity = {
	(const struct opt[]){
		{ 'q', "quiet", .help = "no warnings or notes" },
		{ 'v', "verbose", .help = "explain what is done" },
		OPT_END,
	},
	set_verbosity,
};

/* A comma-separated list of ids, each a decimal number; false after saying not. */
static bool check_id_list(const char *opt, const char *what, const char *arg)
{
	for (const char *p = arg;; p++) {
		const char *q = p;

		while (*q >= '0' && *q <= '9')
			q++;
		if (q == p || q - p > 10 || (*q && *q != ','))
			break;
		if (!*q)
			return true;
		p = q;
	}
	cli_error("%s expects %s ids separated by commas, such as 1234,5678, not '%s'", opt, what,
		  arg);
	return false;
}

static bool set_filter(struct cli_args *a, int key, const char *arg)
{
	switch (key) {
	case OPT_KEY_COMM:
		a->filter.comms = arg;
		break;
	case OPT_KEY_PID:
		if (!check_id_list("--pid", "process", arg))
			return false;
		a->filter.pids = arg;
		break;
	case OPT_KEY_TID:
		if (!check_id_list("--tid", "thread", arg))
			return false;
		a->filter.tids = arg;
		break;
	case OPT_KEY_DSO:
		a->filter.dsos = arg;
		break;
	case OPT_KEY_EVENT:
		a->filter.events = arg;
		break;
	case OPT_KEY_TIME:
		a->filter.time = arg;
		break;
	}
	return true;
}

const struct opt_group opt_filters = {
	(const struct opt[]){
		{ OPT_KEY_COMM, "comm", "comms", "LIST", .help = "only samples of these commands" },
		{ OPT_KEY_PID, "pid", .arg = "LIST", .help = "only samples of these processes" },
		{ OPT_KEY_TID, "tid", .arg = "LIST", .help = "only samples of these threads" },
		{ OPT_KEY_DSO, "dso", "dsos", "LIST",
		  .help = "only samples taken in these files (name or path)" },
		{ OPT_KEY_EVENT, "event", "events", "LIST", .help = "only samples of these events (their names)" },
		{ OPT_KEY_TIME, "time", .arg = "RANGES",
		  .help = "only samples in these time ranges, as perf's --time: START,STOP in seconds "
			  "(several separated by spaces), or percents of the recording (10%/2, 0%-10%,30%-40%)" },
		OPT_END,
	},
	set_filter,
};

static bool set_sort(struct cli_args *a, int key, const char *arg)
{
	if (key == 's')
		a->sort = arg;
	else
		a->fields = arg;
	return true;
}

#define SORT_KEYS "comm,pid,tid,dso,sym,srcline"

const struct opt_group opt_sort = {
	(const struct opt[]){
		{ 's', "sort", .arg = "KEYS", .comp = COMP_WORDS, .words = SORT_KEYS,
		  .help = "group samples by these, comma-separated: comm, pid, tid, dso, sym, srcline "
			  "(default comm,dso,sym)" },
		{ 'F', "fields", .arg = "FIELDS", .comp = COMP_WORDS,
		  .words = "overhead,children,sample,period,time," SORT_KEYS,
		  .help = "columns to show: overhead, children, sample, period, time (ms, of off-CPU and "
			  "wall-clock time) and sort keys (keys given here are sorted by)" },
		OPT_END,
	},
	set_sort,
};

static bool set_frames(struct cli_args *a, int key, const char *arg)
{
	if (key == OPT_KEY_NO_DEMANGLE) {
		a->no_demangle = true;
		return true;
	}
	return cli_parse_long("--max-stack", arg, 1, 65536, &a->max_stack);
}

const struct opt_group opt_frames = {
	(const struct opt[]){
		{ OPT_KEY_MAX_STACK, "max-stack", .arg = "N", .help = "use at most N frames of each stack" },
		{ OPT_KEY_NO_DEMANGLE, "no-demangle", .help = "show C++ and Rust names as they are in the file" },
		OPT_END,
	},
	set_frames,
};

static bool set_off_cpu(struct cli_args *a, int key, const char *arg)
{
	switch (key) {
	case OPT_KEY_OFF_CPU:
		a->off_cpu = OFF_CPU_ON;
		return true;
	case OPT_KEY_NO_OFF_CPU:
		a->off_cpu = OFF_CPU_OFF;
		return true;
	}
	a->off_cpu_thresh_given = true;
	return cli_parse_duration("--off-cpu-thresh", arg, &a->off_cpu_thresh_ns);
}

const struct opt_group opt_off_cpu = {
	(const struct opt[]){
		{ OPT_KEY_OFF_CPU, "off-cpu",
		  .help = "off-CPU time from sched:sched_switch samples (the default for recordings "
			  "made with perfev record --off-cpu): each wait weighted by how long its "
			  "thread was away, and with on-CPU clock samples a wall-clock view" },
		{ OPT_KEY_NO_OFF_CPU, "no-off-cpu",
		  .help = "sched:sched_switch samples as plain samples, counted" },
		{ OPT_KEY_OFF_CPU_THRESH, "off-cpu-thresh", .arg = "TIME",
		  .help = "leave out waits shorter than TIME (500us, 2ms; default: the recording's "
			  "--off-cpu-thresh)" },
		OPT_END,
	},
	set_off_cpu,
};

void cli_args__free(struct cli_args *a)
{
	free(a->events);
	free(a->operands);
}
