/* SPDX-License-Identifier: MIT */
/* perfev stat: count events in a command, a running process, or on CPUs. */
#include <errno.h>
#include <poll.h>
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

struct stat_opts {
	long interval_ms;
	long repeat;
	const char *sep;
	bool json;
	bool no_inherit;
	struct cli_args a;
};

enum { OPT_JSON = 256 };

static const struct opt stat_table[] = {
	OPT_GROUP(opt_events),
	OPT_HELP('e', "events to count, comma-separated, {a,b} for a group; may repeat (default: "
		      "task-clock, context-switches, cpu-migrations, page-faults, cycles, instructions, "
		      "branches, branch-misses)"),
	OPT_GROUP_ONLY(opt_target, "paCG"),
	{ 'I', "interval-print", .arg = "MS", .help = "print counts every MS milliseconds" },
	{ 'r', "repeat", .arg = "N", .help = "run the command N times; show mean and variation" },
	{ 'x', "field-separator", .arg = "SEP", .help = "CSV output with separator SEP" },
	{ OPT_JSON, "json", .help = "JSON output (results and errors)", .flags = OPT_JSON_ERRORS },
	OPT_GROUP(opt_output),
	OPT_HELP('o', "write the results to FILE instead of stderr"),
	{ 'i', "no-inherit", .help = "do not count the command's child processes" },
	OPT_GROUP_ONLY(opt_verbosity, "v"),
	OPT_END,
};

static bool set_option(void *ctx, int key, const char *arg)
{
	struct stat_opts *o = ctx;

	switch (key) {
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
	case OPT_JSON:
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
	.synopsis = "[-e EVENTS] [-p PID | -a | -C CPUS] [-G CGROUP] [-I MS] [-r N] [-x SEP | --json] "
		    "[-o FILE] [-i] [-v] [-- COMMAND [ARGS...]]",
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

/* Waits until the command ends, the process ends, or a signal; prints intervals meanwhile. */
static int wait_loop(struct run_state *rs, long interval_ms)
{
	uint64_t next = interval_ms ? rs->t0 + (uint64_t)interval_ms * 1000000ull : 0;

	for (;;) {
		struct pollfd pfd[2] = { { sigwait_fd, POLLIN, 0 }, { rs->run.pidfd, POLLIN, 0 } };
		int timeout = -1, sig;

		if (cli_run__ended(&rs->run))
			return 0;
		sig = cli_run__take_signal(&rs->run);
		if (sig) {
			/* Report what was counted once the command, which got the signal too, ends. */
			cli_run__reap(&rs->run, true);
			return sig;
		}
		if (next) {
			uint64_t t = cli_now_ns();

			if (t >= next) {
				int err = perfev_evlist__read(rs->el);

				if (err) {
					cli_error("%s", perfev_last_error());
					return -1;
				}
				stat_printer__interval(rs->pr, t - rs->t0);
				if (!output_ok(rs->out))
					return -1;
				next += (uint64_t)interval_ms * 1000000ull;
				continue;
			}
			timeout = (int)((next - t + 999999) / 1000000);
		}
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

	cli_target__open_opts(&o->a.target, child, child > 0 && !o->no_inherit, &oo);
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
	*sig = wait_loop(rs, o->interval_ms);
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
	stat_printer__end_run(rs->pr, elapsed, &r->ru, !o->interval_ms || o->repeat > 1);
	perfev_evlist__close(rs->el);
	if (!output_ok(rs->out))
		goto out;
	/* A -p/-a count the user ended is a success. */
	*ret = cli_run__exit_status(r);
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
	if (err) {
		cli_error("%s", perfev_last_error());
		goto out;
	}
	if (sigwait_install()) {
		cli_error("cannot set up signal handling: %s", strerror(errno));
		goto out;
	}
	pr = stat_printer__new(el, stderr, o->json ? STAT_FMT_JSON : o->sep ? STAT_FMT_CSV : STAT_FMT_HUMAN,
			       o->sep, o->a.operands, o->a.target.pid, default_set);
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
