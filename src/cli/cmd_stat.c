/* SPDX-License-Identifier: MIT */
/* perfev stat: count events in a command, a running process, or on CPUs. */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/resource.h>

#include "cli.h"
#include "opt.h"
#include "perfev/perfev.h"
#include "run.h"
#include "sigwait.h"
#include "stat_print.h"

static const char default_events[] = "task-clock,context-switches,cpu-migrations,page-faults,"
				     "cycles,instructions,branches,branch-misses";

/* -d, -dd, -ddd: perf's detailed events, each level adding to the one before. */
static const char *const detailed_events[] = {
	"L1-dcache-loads,L1-dcache-load-misses,LLC-loads,LLC-load-misses",
	"L1-icache-loads,L1-icache-load-misses,dTLB-loads,dTLB-load-misses,iTLB-loads,iTLB-load-misses",
	"L1-dcache-prefetches,L1-dcache-prefetch-misses",
};

struct stat_opts {
	long interval_ms;
	long interval_count; /* --interval-count: intervals to print; 0 no limit */
	long timeout_ms;     /* --timeout: counting ends after it; 0 none */
	long repeat;
	const char *sep;
	bool json;
	bool no_inherit;
	int detailed; /* -d given this many times */
	enum stat_aggr aggr;
	const char *aggr_opt; /* the option that chose aggr, for errors */
	bool metric_only;
	struct cli_args a;
};

enum {
	OPT_PER_THREAD = 256,
	OPT_PER_CORE,
	OPT_PER_DIE,
	OPT_PER_SOCKET,
	OPT_PER_NODE,
	OPT_INTERVAL_COUNT,
	OPT_METRIC_ONLY,
	OPT_TIMEOUT,
};

static const struct opt stat_table[] = {
	OPT_GROUP(opt_events),
	OPT_HELP('e', "events to count, comma-separated, {a,b} for a group; may repeat (default: "
		      "task-clock, context-switches, cpu-migrations, page-faults, cycles, instructions, "
		      "branches, branch-misses)"),
	OPT_GROUP_ONLY(opt_target, "paCG"),
	{ 'd', "detailed", .help = "also count the cache events (-dd, -ddd: more of them), as perf" },
	{ 'A', "no-aggr", .help = "a count per CPU (with -a or -C)" },
	{ OPT_PER_THREAD, "per-thread", .help = "a count per thread (with -p)" },
	{ OPT_PER_CORE, "per-core", .help = "a count per core (with -a or -C)" },
	{ OPT_PER_DIE, "per-die", .help = "a count per die (with -a or -C)" },
	{ OPT_PER_SOCKET, "per-socket", .help = "a count per socket (with -a or -C)" },
	{ OPT_PER_NODE, "per-node", .help = "a count per NUMA node (with -a or -C)" },
	{ 'I', "interval-print", .arg = "MS", .help = "print counts every MS milliseconds" },
	{ OPT_INTERVAL_COUNT, "interval-count", .arg = "N", .help = "stop counting after N intervals of -I" },
	{ OPT_TIMEOUT, "timeout", .arg = "MS",
	  .help = "stop counting after MS milliseconds (a command is sent SIGTERM), as perf" },
	{ 'r', "repeat", .arg = "N", .help = "run the command N times; show mean and variation" },
	{ OPT_METRIC_ONLY, "metric-only", .help = "only the derived metrics, a column each, as perf" },
	{ 'x', "field-separator", .arg = "SEP", .help = "CSV output with separator SEP" },
	{ 'j', "json", .help = "JSON output (results and errors)", .flags = OPT_JSON_ERRORS },
	OPT_GROUP(opt_output),
	OPT_HELP('o', "write the results to FILE instead of stderr"),
	{ 'i', "no-inherit", .help = "do not count the command's child processes" },
	OPT_GROUP_ONLY(opt_verbosity, "v"),
	OPT_END,
};

/* One way of grouping the counts; two are a mistake. */
static bool set_aggr(struct stat_opts *o, enum stat_aggr aggr, const char *opt)
{
	if (o->aggr_opt && o->aggr != aggr) {
		cli_error("%s and %s are alternatives; choose one", o->aggr_opt, opt);
		return false;
	}
	o->aggr = aggr;
	o->aggr_opt = opt;
	return true;
}

static bool set_option(void *ctx, int key, const char *arg)
{
	struct stat_opts *o = ctx;

	switch (key) {
	case 'd':
		o->detailed++;
		return true;
	case 'A':
		return set_aggr(o, AGGR_NONE, "-A");
	case OPT_PER_THREAD:
		return set_aggr(o, AGGR_THREAD, "--per-thread");
	case OPT_PER_CORE:
		return set_aggr(o, AGGR_CORE, "--per-core");
	case OPT_PER_DIE:
		return set_aggr(o, AGGR_DIE, "--per-die");
	case OPT_PER_SOCKET:
		return set_aggr(o, AGGR_SOCKET, "--per-socket");
	case OPT_PER_NODE:
		return set_aggr(o, AGGR_NODE, "--per-node");
	case OPT_INTERVAL_COUNT:
		return cli_parse_long("--interval-count", arg, 1, 1000000000, &o->interval_count);
	case OPT_TIMEOUT:
		/* perf's lower bound: a shorter count says nothing */
		return cli_parse_long("--timeout", arg, 10, 86400000L * 365, &o->timeout_ms);
	case OPT_METRIC_ONLY:
		o->metric_only = true;
		return true;
	case 'I':
		return cli_parse_long("-I", arg, 10, 86400000, &o->interval_ms);
	case 'r':
		return cli_parse_long("-r", arg, 1, 1000000, &o->repeat);
	case 'x':
		if (!*arg) {
			cli_error("option -x needs a non-empty separator");
			return false;
		}
		o->sep = arg;
		return true;
	case 'j':
		o->json = true;
		return true;
	case 'i':
		o->no_inherit = true;
		return true;
	}
	return false;
}

const struct opt_cmd stat_cmd = {
	.name = "stat",
	.summary = "count events in a command, a process, or the whole system",
	.verb = "count",
	.synopsis = "[-e EVENTS] [-d] [-p PID | -a | -C CPUS] [-G CGROUP] "
		    "[-A | --per-thread | --per-core|die|socket|node] "
		    "[-I MS [--interval-count N]] [--timeout MS] [-r N] [--metric-only] "
		    "[-x SEP | -j] [-o FILE] [-i] [-v] [-- COMMAND [ARGS...]]",
	.opts = stat_table,
	.set = set_option,
	.operands = OPERANDS_COMMAND,
	.operand_comp = COMP_COMMAND,
};

static bool parse_args(int argc, char **argv, struct stat_opts *o, int *ret)
{
	o->repeat = 1;
	if (!opt_parse(&stat_cmd, argc, argv, &o->a, o, ret))
		return false;
	*ret = 1;
	if (o->sep && o->json) {
		cli_error("-x and --json are alternatives; choose one");
		return false;
	}
	if (!cli_target__check(&o->a.target, &stat_cmd, o->a.operands, TARGET_TASK_ON_CPUS))
		return false;
	if (o->repeat > 1 && !o->a.operands[0]) {
		cli_error("-r repeats a command; give one after --");
		return false;
	}
	if (o->repeat > 1 && o->a.target.pid > 0) {
		cli_error("-r repeats a command, and with -p the command only bounds the count; "
			  "leave out -r");
		return false;
	}
	if (o->interval_count && !o->interval_ms) {
		cli_error("--interval-count counts the intervals of -I; give -I MS too");
		return false;
	}
	if (o->aggr == AGGR_THREAD && o->a.target.pid <= 0) {
		cli_error("--per-thread counts each thread of a running process: give -p PID");
		return false;
	}
	if (o->aggr != AGGR_GLOBAL && o->aggr != AGGR_THREAD && !cli_target__system_wide(&o->a.target)) {
		cli_error("%s groups the counts of CPUs: count on CPUs with -a or -C", o->aggr_opt);
		return false;
	}
	return true;
}

/* Where the counts go: stderr, or -o FILE once counting has begun. */
struct stat_output {
	const char *path; /* -o, or NULL */
	FILE *f;
	char name[4096]; /* for messages */
};

struct run_state {
	struct perfev_evlist *el;
	struct stat_printer *pr;
	struct cli_run run;
	uint64_t t0;
	struct stat_output *out;
	bool timed_out;	     /* --timeout ended the count */
	bool intervals_done; /* --interval-count intervals were printed */
};

/*
 * -o FILE is created only once the events are open, so that a mistyped
 * event or a process that does not exist leaves an existing FILE as it was.
 */
static bool output_open(struct stat_output *out, struct stat_printer *pr)
{
	if (out->f)
		return true;
	if (!out->path) {
		out->f = stderr;
		snprintf(out->name, sizeof(out->name), "standard error");
	} else {
		out->f = fopen(out->path, "we");
		if (!out->f) {
			cli_error("cannot write '%s': %s; choose another file with -o", out->path,
				  strerror(errno));
			return false;
		}
		snprintf(out->name, sizeof(out->name), "'%s'", out->path);
	}
	stat_printer__set_output(pr, out->f);
	cli_result_stream = out->f;
	return true;
}

/* Whether what was printed so far reached the output; false after saying not. */
static bool output_ok(const struct stat_output *out)
{
	return !out->f || cli_stream_ok(out->f, out->name);
}

/*
 * --timeout: the command is asked to end (SIGTERM, as perf) and waited for;
 * a signal meanwhile is passed on, so one that ignores SIGTERM can still be
 * ended with Ctrl-C.
 */
static void end_command(struct cli_run *r)
{
	if (r->child <= 0 || r->child_done)
		return;
	kill(r->child, SIGTERM);
	while (!cli_run__reap(r, false)) {
		struct pollfd p = { sigwait_fd, POLLIN, 0 };

		if (poll(&p, 1, 100) > 0)
			sigwait_drain();
		cli_run__take_signal(r);
	}
}

/*
 * Waits until the command ends, the process ends, a signal, --timeout or
 * the last of --interval-count's intervals; prints intervals meanwhile.
 */
static int wait_loop(struct run_state *rs, const struct stat_opts *o)
{
	uint64_t step = (uint64_t)o->interval_ms * 1000000ull;
	uint64_t next = step ? rs->t0 + step : 0;
	uint64_t deadline = o->timeout_ms ? rs->t0 + (uint64_t)o->timeout_ms * 1000000ull : 0;
	long printed = 0;

	for (;;) {
		struct pollfd pfd[2] = { { sigwait_fd, POLLIN, 0 }, { rs->run.pidfd, POLLIN, 0 } };
		int timeout = -1, sig;
		uint64_t t, wake;

		if (cli_run__ended(&rs->run))
			return 0;
		sig = cli_run__take_signal(&rs->run);
		if (sig) {
			/* Report what was counted once the command, which got the signal too, ends. */
			cli_run__reap(&rs->run, true);
			return sig;
		}
		t = cli_now_ns();
		if (deadline && t >= deadline) {
			rs->timed_out = true;
			end_command(&rs->run);
			return 0;
		}
		if (next && t >= next) {
			int err = perfev_evlist__read(rs->el);

			if (err) {
				cli_error("%s", perfev_last_error());
				return -1;
			}
			stat_printer__interval(rs->pr, t - rs->t0);
			if (!output_ok(rs->out))
				return -1;
			next += step;
			if (o->interval_count && ++printed == o->interval_count) {
				rs->intervals_done = true;
				/* A command runs on and is waited for, as perf does; -p, -a, -C end. */
				if (rs->run.child <= 0)
					return 0;
				next = 0;
			}
			continue;
		}
		wake = next && (!deadline || next < deadline) ? next : deadline;
		if (wake)
			timeout = (int)((wake - t + 999999) / 1000000);
		if (poll(pfd, rs->run.pidfd >= 0 ? 2 : 1, timeout) < 0 && errno != EINTR) {
			cli_error("poll failed: %s", strerror(errno));
			return -1;
		}
		if (pfd[0].revents)
			sigwait_drain();
	}
}

static int open_list(struct perfev_evlist *el, const struct stat_opts *o, pid_t child)
{
	struct perfev_open_opts oo = { .sz = sizeof(oo), .skip_unsupported = true };

	/* Only the command's children, never -p's (a command then only bounds the count). */
	cli_target__open_opts(&o->a.target, child, child > 0 && o->a.target.pid <= 0 && !o->no_inherit,
			      &oo);
	return perfev_evlist__open(el, &oo);
}

/*
 * One count: the command run once, or -p/-a/-C until it ends, printed.
 * *ret is the exit status so far, *sig the signal that ended the count.
 * False when counting cannot go on, after saying why.
 */
static bool count_once(const struct stat_opts *o, struct run_state *rs, bool first, int *ret,
		       int *sig)
{
	struct cli_run *r = &rs->run;
	bool ok = false;

	*ret = 1;
	if (!cli_run__prepare(r, o->a.operands, (pid_t)o->a.target.pid))
		return false;
	if (open_list(rs->el, o, r->child)) {
		cli_error("%s", perfev_last_error());
		goto out;
	}
	if (first && (stat_printer__check_supported(rs->pr, o->a.verbose) < 0 ||
		      !output_open(rs->out, rs->pr)))
		goto out;
	if (first)
		cli_target__note_user_only(rs->el);
	stat_printer__start_run(rs->pr);
	rs->t0 = cli_now_ns();
	*ret = cli_run__start(r);
	if (*ret) {
		perfev_evlist__close(rs->el);
		goto out;
	}
	*sig = wait_loop(rs, o);
	uint64_t elapsed = cli_now_ns() - rs->t0;

	*ret = 1;
	if (*sig < 0)
		goto out;
	if (perfev_evlist__read(rs->el)) {
		cli_error("%s", perfev_last_error());
		goto out;
	}
	if (!r->child)
		getrusage(RUSAGE_CHILDREN, &r->ru); /* nothing of ours ran: zeros */
	/* After --interval-count's last interval, nothing more is printed. */
	stat_printer__end_run(rs->pr, rs->intervals_done ? 0 : elapsed, &r->ru,
			      !o->interval_ms || o->repeat > 1);
	perfev_evlist__close(rs->el);
	if (!output_ok(rs->out))
		goto out;
	/* A -p/-a count the user ended is a success; so is one --timeout ended, as perf. */
	*ret = rs->timed_out ? 0 : cli_run__exit_status(r);
	ok = true;
out:
	cli_run__close(r);
	return ok;
}

static int stat_main(struct stat_opts *o)
{
	struct perfev_evlist *el = perfev_evlist__new();
	struct stat_printer *pr = NULL;
	struct stat_output out = { .path = o->a.output };
	bool default_set = !o->a.events;
	int ret = 1, err;

	if (!el) {
		cli_error("%s", perfev_last_error());
		goto out;
	}
	err = perfev_evlist__add_events(el, o->a.events ? o->a.events : default_events);
	for (int d = 0; d < o->detailed && d < 3 && !err; d++)
		err = perfev_evlist__add_events(el, detailed_events[d]);
	if (err) {
		cli_error("%s", perfev_last_error());
		goto out;
	}
	if (sigwait_install()) {
		cli_error("cannot set up signal handling: %s", strerror(errno));
		goto out;
	}
	struct stat_print_opts po = {
		.fmt = o->json ? STAT_FMT_JSON : o->sep ? STAT_FMT_CSV : STAT_FMT_HUMAN,
		.sep = o->sep,
		.argv = o->a.operands,
		.pid = o->a.target.pid,
		.cpus = o->a.target.cpus,
		.all_cpus = o->a.target.all_cpus,
		.default_set = default_set,
		.detailed = o->detailed > 0,
		.aggr = o->aggr,
		.metric_only = o->metric_only,
	};

	pr = stat_printer__new(el, stderr, &po);
	if (!pr) {
		cli_error("out of memory");
		goto out;
	}
	for (long run = 0; run < o->repeat; run++) {
		struct run_state rs = { .el = el, .pr = pr, .out = &out };
		int sig = 0;

		if (!count_once(o, &rs, run == 0, &ret, &sig))
			goto out;
		if (sig > 0)
			break;
	}
	stat_printer__finish(pr);
	if (!output_ok(&out))
		ret = 1;
out:
	stat_printer__delete(pr);
	perfev_evlist__delete(el);
	cli_result_stream = NULL;
	if (out.f && out.f != stderr && fclose(out.f) != 0 && ret == 0) {
		cli_error("cannot write to %s: %s", out.name, strerror(errno));
		ret = 1;
	}
	return ret;
}

int cmd_stat(int argc, char **argv)
{
	struct stat_opts o = { 0 };
	int ret;

	if (parse_args(argc, argv, &o, &ret))
		ret = stat_main(&o);
	cli_args__free(&o.a);
	return ret;
}
