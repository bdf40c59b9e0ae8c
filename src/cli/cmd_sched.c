/* SPDX-License-Identifier: MIT */
/*
 * perfev sched: record the scheduler's tracepoints as perf sched record
 * does, and show them as perf sched latency and perf sched timehist do, in
 * their layouts (the library's sched/ computes the figures).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "opt.h"
#include "perfev/perfev.h"

enum { OPT_SORT = 256, OPT_PIDS, OPT_STATE, OPT_PERF61 };

struct sched_opts {
	const char *sort;
	bool per_thread, summary, with_summary, state, wakeups, next, migrations, perf61;
};

static const struct opt sched_table[] = {
	OPT_GROUP(opt_input),
	{ OPT_SORT, "sort", .arg = "KEYS", .comp = COMP_WORDS, .words = "avg,max,switch,runtime,pid",
	  .help = "latency: order the lines by these keys, comma-separated: avg, max, switch, "
		  "runtime, pid (default avg,max,switch,runtime; 'latency -s KEYS' as perf)" },
	{ OPT_PIDS, "pids",
	  .help = "latency: a line per thread, not per command ('latency -p' as perf)" },
	{ 's', "summary", .help = "timehist: only the summary of each thread's times" },
	{ 'S', "with-summary", .help = "timehist: the lines, then the summary" },
	{ OPT_STATE, "state",
	  .help = "timehist: the state each thread left the CPU in, and the summary's wait by state" },
	{ 'w', "wakeups", .help = "timehist: wakeups too" },
	{ 'n', "next", .help = "timehist: the thread switched in" },
	{ 'M', "migrations", .help = "timehist: migrations too, and count them" },
	{ OPT_PERF61, "perf61",
	  .help = "the figures as Linux perf 6.1 computes them: its latency reads no sched_waking and "
		  "takes a thread preempted in the kernel (R+) for asleep; its timehist letters "
		  "states by an old table" },
	OPT_GROUP(opt_verbosity),
	OPT_END,
};

static bool set_option(void *ctx, int key, const char *arg)
{
	struct sched_opts *o = ctx;

	switch (key) {
	case OPT_SORT:
		o->sort = arg;
		return true;
	case OPT_PIDS:
		o->per_thread = true;
		return true;
	case 's':
		o->summary = true;
		return true;
	case 'S':
		o->with_summary = true;
		return true;
	case OPT_STATE:
		o->state = true;
		return true;
	case 'w':
		o->wakeups = true;
		return true;
	case 'n':
		o->next = true;
		return true;
	case 'M':
		o->migrations = true;
		return true;
	case OPT_PERF61:
		o->perf61 = true;
		return true;
	}
	return false;
}

const struct opt_cmd sched_cmd = {
	.name = "sched",
	.summary = "scheduler latency and each thread's wait, delay and run times, as perf sched",
	.synopsis = "record [RECORD-OPTIONS] [-- COMMAND [ARGS...]] | latency [-i FILE] [--sort "
		    "KEYS] [--pids] [--perf61] | timehist [-i FILE] [-s | -S] [--state] [-w] [-n] [-M] "
		    "[--perf61]",
	.about = "'record' samples every CPU's scheduler tracepoints (perf sched record's events) "
		 "into perf.data, taking perfev record's options; 'latency' shows, per command, how "
		 "long its threads waited for a CPU once runnable (perf sched latency); 'timehist' "
		 "shows each switch-out: the wait before the run, the delay from wakeup to run, and "
		 "the run (perf sched timehist).",
	.opts = sched_table,
	.set = set_option,
	.operands = OPERANDS_WORDS,
	.operand_comp = COMP_WORD,
	.operand_words = "record,latency,timehist",
};

/* perf sched record's events: sched_waking where the kernel has it, the schedstat ones if any. */
static char *record_events(void)
{
	static const char *const base[] = { "sched:sched_switch", "sched:sched_stat_runtime",
					    "sched:sched_process_fork", "sched:sched_wakeup_new",
					    "sched:sched_migrate_task" };
	static const char *const optional[] = { "sched:sched_stat_wait", "sched:sched_stat_sleep",
						"sched:sched_stat_iowait" };
	struct perf_event_attr attr;
	char *list = NULL;
	bool ok = true;

	for (size_t i = 0; i < sizeof(base) / sizeof(base[0]); i++)
		ok &= cli_append_list(&list, base[i]);
	ok &= cli_append_list(&list, perfev_parse_event("sched:sched_waking", &attr, NULL, 0)
					     ? "sched:sched_wakeup"
					     : "sched:sched_waking");
	for (size_t i = 0; i < sizeof(optional) / sizeof(optional[0]); i++)
		if (!perfev_parse_event(optional[i], &attr, NULL, 0))
			ok &= cli_append_list(&list, optional[i]);
	if (!ok) {
		free(list);
		return NULL;
	}
	return list;
}

/* perfev record with perf sched record's arguments (-a -c 1 -m 1024 -e ...) before the user's. */
static int sched_record(int argc, char **argv)
{
	char *events = record_events();
	char **av = calloc((size_t)argc + 9, sizeof(*av));
	int n = 0, ret;

	if (!events || !av) {
		cli_error("out of memory");
		free(events);
		free(av);
		return 1;
	}
	/* av[-1] is the program's name, as main() passes argv to a command (HEADER_CMDLINE). */
	av[n++] = argv[-1];
	av[n++] = "record";
	av[n++] = "-a";
	av[n++] = "-c";
	av[n++] = "1";
	av[n++] = "-m";
	av[n++] = "1024";
	av[n++] = "-e";
	av[n++] = events;
	for (int i = 2; i < argc; i++)
		av[n++] = argv[i];
	av[n] = NULL;
	ret = cmd_record(n - 1, av + 1);
	free(events);
	free(av);
	return ret;
}

/* perf's times: seconds.microseconds, and msec.usec columns, both truncated. */
static void fmt_time(char *buf, size_t size, uint64_t ns)
{
	snprintf(buf, size, "%" PRIu64 ".%06" PRIu64, ns / 1000000000, ns % 1000000000 / 1000);
}

static void print_ms(FILE *f, uint64_t ns, int width)
{
	fprintf(f, "%*" PRIu64 ".%03" PRIu64 " ", width, ns / 1000000, ns % 1000000 / 1000);
}

static const char dashes[] = "-----------------------------------------------------------------"
			     "-----------------------------------------------------------------"
			     "-----------------------------------------------------------------";

static int print_latency(struct perfev_sched *sc, FILE *f)
{
	const struct perfev_sched_stats *st = perfev_sched__stats(sc);
	uint64_t all_runtime = 0, all_count = 0;

	fprintf(f, "\n %.139s\n", dashes);
	fprintf(f, "  Task                  |   Runtime ms  | Switches | Avg delay ms    | Max delay "
		   "ms    | Max delay start           | Max delay end          |\n");
	fprintf(f, " %.139s\n", dashes);
	for (size_t i = 0; i < perfev_sched__nr_latencies(sc); i++) {
		const struct perfev_sched_latency *l = perfev_sched__latency(sc, i);
		char start[32], end[32];
		int w;

		all_runtime += l->runtime;
		all_count += l->nr_switches;
		if (l->nr_merged > 1)
			w = fprintf(f, "  %s:(%u) ", l->comm, l->nr_merged);
		else
			w = fprintf(f, "  %s:%d ", l->comm, l->tid);
		for (int k = w; k < 24; k++)
			fputc(' ', f);
		fmt_time(start, sizeof(start), l->max_start);
		fmt_time(end, sizeof(end), l->max_end);
		fprintf(f,
			"|%11.3f ms |%9" PRIu64 " | avg:%8.3f ms | max:%8.3f ms | max start: %12s s | "
			"max end: %12s s\n",
			(double)l->runtime / 1e6, l->nr_switches,
			(double)(l->total_delay / l->nr_switches) / 1e6, (double)l->max_delay / 1e6,
			start, end);
	}
	fprintf(f, " %.113s\n", dashes);
	fprintf(f, "  TOTAL:                |%11.3f ms |%9" PRIu64 " |\n", (double)all_runtime / 1e6,
		all_count);
	fprintf(f, " %.51s\n", dashes);
	if (st->nr_unordered && st->nr_timestamps)
		fprintf(f, "  INFO: %.3f%% unordered timestamps (%" PRIu64 " out of %" PRIu64 ")\n",
			(double)st->nr_unordered / (double)st->nr_timestamps * 100.0, st->nr_unordered,
			st->nr_timestamps);
	if (st->nr_lost_events && st->nr_events)
		fprintf(f, "  INFO: %.3f%% lost events (%" PRIu64 " out of %" PRIu64 ", in %" PRIu64
			   " chunks)\n",
			(double)st->nr_lost_events / (double)st->nr_events * 100.0, st->nr_lost_events,
			st->nr_events, st->nr_lost_chunks);
	if (st->nr_switch_bugs && st->nr_timestamps) {
		fprintf(f, "  INFO: %.3f%% context switch bugs (%" PRIu64 " out of %" PRIu64 ")",
			(double)st->nr_switch_bugs / (double)st->nr_timestamps * 100.0,
			st->nr_switch_bugs, st->nr_timestamps);
		if (st->nr_lost_events)
			fputs(" (due to lost events?)", f);
		fputc('\n', f);
	}
	fputc('\n', f);
	return 0;
}

struct timehist {
	const struct sched_opts *o;
	FILE *out;
	int comm_width; /* grows with the longest name shown, as perf's does */
	char name[2][32];
};

/* "comm[tid/pid]" (or "comm[tid]", or the idle task's "<idle>"), widening the column. */
static const char *commstr(struct timehist *th, const struct perfev_sched_thread *t, int slot)
{
	char *s = th->name[slot];
	int n;

	if (t->pid == 0)
		n = snprintf(s, sizeof(th->name[0]), "%s", t->comm);
	else if (t->tid != t->pid)
		n = snprintf(s, sizeof(th->name[0]), "%s[%d/%d]", t->comm, t->tid, t->pid);
	else
		n = snprintf(s, sizeof(th->name[0]), "%s[%d]", t->comm, t->tid);
	if (n > (int)sizeof(th->name[0]) - 1)
		n = (int)sizeof(th->name[0]) - 1;
	if (n > th->comm_width)
		th->comm_width = n;
	return s;
}

static void timehist_header(struct timehist *th)
{
	FILE *f = th->out;

	fprintf(f, "%15s %6s ", "time", "cpu");
	fprintf(f, " %-*s", th->comm_width, "task name");
	fprintf(f, "  %9s  %9s  %9s", "wait time", "sch delay", "run time");
	if (th->o->state)
		fprintf(f, "  %s", "state");
	fputc('\n', f);
	fprintf(f, "%15s %-6s ", "", "");
	fprintf(f, " %-*s", th->comm_width, "[tid/pid]");
	fprintf(f, "  %9s  %9s  %9s", "(msec)", "(msec)", "(msec)");
	if (th->o->state)
		fprintf(f, "  %5s", "");
	fputc('\n', f);
	fprintf(f, "%.15s %.6s ", dashes, dashes);
	fprintf(f, " %.*s", th->comm_width, dashes);
	fprintf(f, "  %.9s  %.9s  %.9s", dashes, dashes, dashes);
	if (th->o->state)
		fprintf(f, "  %.5s", dashes);
	fputc('\n', f);
}

static int timehist_row(void *ctx, const struct perfev_sched_row *r)
{
	struct timehist *th = ctx;
	FILE *f = th->out;
	char t[32];
	const char *name = commstr(th, &r->thread, 0);

	fmt_time(t, sizeof(t), r->time);
	fprintf(f, "%15s [%04u] ", t, r->cpu);
	fprintf(f, " %-*s ", th->comm_width, name);
	if (r->kind == PERFEV_SCHED_ROW_SWITCH) {
		print_ms(f, r->wait, 6);
		print_ms(f, r->delay, 6);
		print_ms(f, r->run, 6);
		if (th->o->state)
			fprintf(f, " %5c ", r->state);
		if (th->o->next) {
			char next[30];

			snprintf(next, sizeof(next), "next: %s[%d]", r->next_comm, r->next_pid);
			fprintf(f, " %-*s", th->comm_width, next);
		}
		if (th->o->wakeups && !th->o->next)
			fprintf(f, "  %-*s", th->comm_width, "");
	} else {
		fprintf(f, "  %9s  %9s  %9s ", "", "", "");
		if (r->kind == PERFEV_SCHED_ROW_WAKEUP)
			fprintf(f, "awakened: %s", commstr(th, &r->other, 1));
		else
			fprintf(f, "migrated: %s cpu %d => %d", commstr(th, &r->other, 1), r->orig_cpu,
				r->dest_cpu);
	}
	fputc('\n', f);
	return ferror(f) ? -EIO : 0;
}

static void summary_line(struct timehist *th, const struct perfev_sched_task *t)
{
	FILE *f = th->out;
	const char *name = commstr(th, &t->thread, 0);

	fprintf(f, "%*s   %5d  %9" PRIu64 " ", th->comm_width, name, t->ppid, t->nr_runs);
	print_ms(f, t->run, 8);
	if (th->o->state) {
		print_ms(f, t->sleep, 6);
		fputc(' ', f);
		print_ms(f, t->iowait, 6);
		fputc(' ', f);
		print_ms(f, t->preempt, 6);
		fputc(' ', f);
		print_ms(f, t->delay, 6);
	} else {
		print_ms(f, t->run_min, 6);
		fputc(' ', f);
		print_ms(f, (uint64_t)t->run_mean, 6);
		fputc(' ', f);
		print_ms(f, t->run_max, 6);
		fputs("  ", f);
		/* perf keeps it in a float: the same rounding. */
		fprintf(f, "%5.2f", (double)(float)t->run_stddev_pct);
		fprintf(f, "   %5" PRIu64, t->migrations);
	}
	fputc('\n', f);
}

static void timehist_summary(struct timehist *th, struct perfev_sched *sc)
{
	const struct perfev_sched_stats *st = perfev_sched__stats(sc);
	FILE *f = th->out;
	uint64_t tasks = 0, switches = 0, run = 0, running = 0;
	uint64_t span = st->last_switch - st->first_switch;

	fprintf(f, "\n%s\n", th->o->state ? "Wait-time summary" : "Runtime summary");
	fprintf(f, "%*s  parent   sched-in  ", th->comm_width, "comm");
	if (th->o->state)
		fprintf(f, "   run-time      sleep      iowait     preempt       delay\n");
	else
		fprintf(f, "   run-time    min-run     avg-run     max-run  stddev  migrations\n");
	fprintf(f, "%*s            (count)  ", th->comm_width, "");
	fprintf(f, "     (msec)     (msec)      (msec)      (msec)       %s\n",
		th->o->state ? "(msec)" : "%");
	fprintf(f, "%.117s\n", dashes);
	/* The threads still running at the end, then those that ended, as perf 6.1 lists them. */
	for (int dead = 0; dead < 2; dead++) {
		if (dead) {
			if (!tasks)
				fprintf(f, "<no still running tasks>\n");
			running = tasks;
			fprintf(f, "\nTerminated tasks:\n");
		}
		for (size_t i = 0; i < perfev_sched__nr_tasks(sc); i++) {
			const struct perfev_sched_task *t = perfev_sched__task(sc, i);

			if (t->exited != (dead == 1))
				continue;
			tasks++;
			switches += t->nr_runs;
			run += t->run;
			summary_line(th, t);
		}
	}
	if (running == tasks)
		fprintf(f, "<no terminated tasks>\n");
	fprintf(f, "\nIdle stats:\n");
	for (size_t c = 0; c < perfev_sched__nr_cpus(sc); c++) {
		const struct perfev_sched_task *t = perfev_sched__idle(sc, c);

		if (!t)
			continue;
		if (t->nr_runs) {
			switches += t->nr_runs;
			fprintf(f, "    CPU %2zu idle for ", c);
			print_ms(f, t->run, 6);
			fprintf(f, " msec  (%6.2f%%)\n", 100.0 * (double)t->run / (double)span);
		} else {
			fprintf(f, "    CPU %2zu idle entire time window\n", c);
		}
	}
	fprintf(f, "\n    Total number of unique tasks: %" PRIu64 "\nTotal number of context switches: %" PRIu64 "\n",
		tasks, switches);
	fprintf(f, "           Total run time (msec): ");
	print_ms(f, run, 2);
	fputc('\n', f);
	fprintf(f, "    Total scheduling time (msec): ");
	print_ms(f, span, 2);
	fprintf(f, " (x %u)\n", st->max_cpu);
}

/* perf's habits for latency: -s KEYS sorts and -p is per thread; here those are --sort, --pids. */
static void perf_latency_args(int argc, char **argv)
{
	if (argc < 2 || strcmp(argv[1], "latency"))
		return;
	for (int i = 2; i < argc && strcmp(argv[i], "--"); i++) {
		if (!strcmp(argv[i], "-s"))
			argv[i] = "--sort";
		else if (!strcmp(argv[i], "-p"))
			argv[i] = "--pids";
	}
}

int cmd_sched(int argc, char **argv)
{
	struct sched_opts o = { 0 };
	struct cli_args a = { 0 };
	struct perfev_sched *sc = NULL;
	struct perfev_session *s = NULL;
	struct perfev_symbolizer *sy = NULL;
	const char *input, *action;
	bool latency;
	int ret, err;

	if (argc >= 2 && !strcmp(argv[1], "record"))
		return sched_record(argc, argv);
	perf_latency_args(argc, argv);
	if (!opt_parse(&sched_cmd, argc, argv, &a, &o, &ret))
		goto out;
	ret = 1;
	action = a.nr_operands ? a.operands[0] : NULL;
	if (!action || a.nr_operands > 1 ||
	    (strcmp(action, "latency") && strcmp(action, "timehist"))) {
		cli_error("%s; say record, latency or timehist (see 'perfev sched --help')",
			  !action ? "what to do is missing"
			  : a.nr_operands > 1 ? "one action at a time"
					      : "unknown action");
		goto out;
	}
	latency = !strcmp(action, "latency");
	if (latency && (o.summary || o.with_summary || o.state || o.wakeups || o.next ||
			o.migrations)) {
		cli_error("-s, -S, --state, -w, -n and -M are timehist's options; latency sorts with "
			  "--sort KEYS");
		goto out;
	}
	if (!latency && (o.sort || o.per_thread)) {
		cli_error("--sort and --pids are latency's options");
		goto out;
	}
	struct perfev_sched_opts so = { .sz = sizeof(so), .per_thread = o.per_thread,
					.migrations = o.migrations, .wakeups = o.wakeups,
					.perf61 = o.perf61 };

	sc = perfev_sched__new(&so);
	if (!sc) {
		cli_error("%s", perfev_last_error());
		goto out;
	}
	if (o.sort && perfev_sched__sort_latencies(sc, o.sort) < 0) {
		cli_error("--sort: %s", perfev_last_error());
		goto out;
	}
	input = a.input ? a.input : PERFEV_DATA_FILE_DEFAULT;
	s = cli_session_open_first_frame(input, false, &a.quiet, NULL, &sy);
	if (!s)
		goto out;
	struct timehist th = { .o = &o, .out = stdout, .comm_width = 30 };

	if (!latency && !o.summary)
		timehist_header(&th);
	err = perfev_sched__process(sc, s, latency || o.summary ? NULL : timehist_row, &th);
	if (err == -EIO && ferror(stdout))
		goto out_write;
	if (err < 0) {
		cli_error("'%s': %s", input, perfev_last_error());
		goto out;
	}
	if (latency)
		print_latency(sc, stdout);
	else if (o.summary || o.with_summary)
		timehist_summary(&th, sc);
out_write:
	if (!cli_stream_ok(stdout, "standard output"))
		goto out;
	ret = 0;
out:
	perfev_sched__delete(sc);
	perfev_session__delete(s);
	perfev_symbolizer__delete(sy);
	cli_args__free(&a);
	return ret;
}
