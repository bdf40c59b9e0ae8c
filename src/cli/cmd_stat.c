/* SPDX-License-Identifier: MIT */
/* perfev stat: count events in a command, a running process, or on CPUs. */
#include <errno.h>
#include <getopt.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "cli.h"
#include "perfev/perfev.h"
#include "run.h"
#include "sigwait.h"
#include "stat_print.h"

static const char stat_usage[] =
	"usage: perfev stat [-e EVENTS] [-p PID | -a | -C CPUS] [-G CGROUP] [-I MS] [-r N]\n"
	"                   [-x SEP | --json] [-o FILE] [-i] [-v] [-- COMMAND [ARGS...]]\n"
	"\n"
	"    -e, --event EVENTS       events to count, comma-separated, {a,b} for a group;\n"
	"                             may repeat (default: task-clock, context-switches,\n"
	"                             cpu-migrations, page-faults, cycles, instructions,\n"
	"                             branches, branch-misses)\n"
	"    -p, --pid PID            count an existing process (all its threads)\n"
	"    -a, --all-cpus           count everything on every CPU\n"
	"    -C, --cpu CPUS           count everything on these CPUs (e.g. 0-3,6)\n"
	"    -G, --cgroup CGROUP      count only tasks of this cgroup (implies -a)\n"
	"    -I, --interval-print MS  print counts every MS milliseconds\n"
	"    -r, --repeat N           run the command N times; show mean and variation\n"
	"    -x, --field-separator S  CSV output with separator S\n"
	"        --json               JSON output (results and errors)\n"
	"    -o, --output FILE        write the results to FILE instead of stderr\n"
	"    -i, --no-inherit         do not count the command's child processes\n"
	"    -v, --verbose            explain what is done\n"
	"    -h, --help               show this help\n";

static const char default_events[] = "task-clock,context-switches,cpu-migrations,page-faults,"
				     "cycles,instructions,branches,branch-misses";

struct stat_opts {
	char *events;
	long pid;
	bool all_cpus;
	const char *cpus;
	const char *cgroup;
	long interval_ms;
	long repeat;
	const char *sep;
	bool json;
	const char *output;
	bool no_inherit;
	bool verbose;
	char **argv;
};

static bool parse_args(int argc, char **argv, struct stat_opts *o, int *ret)
{
	enum { OPT_JSON = 256 };
	static const struct option longopts[] = {
		{ "event", required_argument, NULL, 'e' },
		{ "pid", required_argument, NULL, 'p' },
		{ "all-cpus", no_argument, NULL, 'a' },
		{ "cpu", required_argument, NULL, 'C' },
		{ "cgroup", required_argument, NULL, 'G' },
		{ "interval-print", required_argument, NULL, 'I' },
		{ "repeat", required_argument, NULL, 'r' },
		{ "field-separator", required_argument, NULL, 'x' },
		{ "json", no_argument, NULL, OPT_JSON },
		{ "output", required_argument, NULL, 'o' },
		{ "no-inherit", no_argument, NULL, 'i' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	int c;

	o->repeat = 1;
	o->pid = -1;
	opterr = 0;
	optind = 1;
	/* Pre-scan for --json so that option errors come out as JSON too. */
	for (int i = 1; i < argc && strcmp(argv[i], "--"); i++)
		if (!strcmp(argv[i], "--json"))
			cli_json_errors = true;
	/* "+": the first non-option starts the command, whose own options stay its own. */
	while ((c = getopt_long(argc, argv, "+e:p:aC:G:I:r:x:o:ivh", longopts, NULL)) != -1) {
		switch (c) {
		case 'e':
			if (!cli_append_list(&o->events, optarg))
				goto bad;
			break;
		case 'p':
			if (!cli_parse_long("-p", optarg, 1, INT32_MAX, &o->pid))
				goto bad;
			break;
		case 'a':
			o->all_cpus = true;
			break;
		case 'C':
			o->cpus = optarg;
			break;
		case 'G':
			o->cgroup = optarg;
			break;
		case 'I':
			if (!cli_parse_long("-I", optarg, 10, 86400000, &o->interval_ms))
				goto bad;
			break;
		case 'r':
			if (!cli_parse_long("-r", optarg, 1, 1000000, &o->repeat))
				goto bad;
			break;
		case 'x':
			if (!*optarg) {
				cli_error("option -x needs a non-empty separator");
				goto bad;
			}
			o->sep = optarg;
			break;
		case OPT_JSON:
			o->json = true;
			break;
		case 'o':
			o->output = optarg;
			break;
		case 'i':
			o->no_inherit = true;
			break;
		case 'v':
			o->verbose = true;
			break;
		case 'h':
			fputs(stat_usage, stdout);
			*ret = 0;
			return false;
		default:
			if (optopt && strchr("epCGIrxo", optopt))
				cli_error("option -%c needs a value; see 'perfev stat --help'", optopt);
			else
				cli_error("unknown option '%s'; see 'perfev stat --help'", argv[optind - 1]);
			goto bad;
		}
	}
	o->argv = argv + optind;
	if (o->sep && o->json) {
		cli_error("-x and --json are alternatives; choose one");
		goto bad;
	}
	if (o->pid > 0 && o->argv[0]) {
		cli_error("-p counts an existing process; it cannot be combined with a command");
		goto bad;
	}
	if (o->pid > 0 && (o->all_cpus || o->cgroup)) {
		cli_error("-p counts one process; it cannot be combined with -a or -G");
		goto bad;
	}
	if (o->cgroup && !o->cpus)
		o->all_cpus = true;
	if (!o->argv[0] && o->pid <= 0 && !o->all_cpus && !o->cpus) {
		cli_error("nothing to count: give a command, -p PID, -a or -C CPUS; see 'perfev stat --help'");
		goto bad;
	}
	if (o->repeat > 1 && !o->argv[0]) {
		cli_error("-r repeats a command; give one after --");
		goto bad;
	}
	return true;
bad:
	*ret = 1;
	return false;
}

struct run_state {
	struct perfev_evlist *el;
	struct stat_printer *pr;
	struct cli_run run;
	uint64_t t0;
};

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
	struct perfev_open_opts oo = {
		.sz = sizeof(oo),
		.pid = child > 0 ? child : (pid_t)o->pid,
		.cpus = o->cpus,
		.system_wide = o->all_cpus || (o->cpus && o->pid <= 0),
		.attach_all_threads = o->pid > 0,
		.inherit = child > 0 && !o->no_inherit,
		.enable_on_exec = child > 0,
		.skip_unsupported = true,
		.cgroup = o->cgroup,
	};

	if (oo.system_wide) {
		/* CPU-wide counters have no task whose exec could enable them: they count from open. */
		oo.pid = -1;
		oo.inherit = false;
		oo.enable_on_exec = false;
	}
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
	if (!cli_run__prepare(r, o->argv, (pid_t)o->pid))
		return false;
	if (open_list(rs->el, o, r->child)) {
		cli_error("%s", perfev_last_error());
		goto out;
	}
	if (first && stat_printer__check_supported(rs->pr, o->verbose) < 0)
		goto out;
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
	bool default_set = !o->events;
	int ret = 1, err;
	FILE *out = stderr;

	if (o->output) {
		out = fopen(o->output, "we");
		if (!out) {
			cli_error("cannot write '%s': %s", o->output, strerror(errno));
			goto out;
		}
	}
	cli_result_stream = out;
	if (!el) {
		cli_error("%s", perfev_last_error());
		goto out;
	}
	err = perfev_evlist__add_events(el, o->events ? o->events : default_events);
	if (err) {
		cli_error("%s", perfev_last_error());
		goto out;
	}
	if (sigwait_install()) {
		cli_error("cannot set up signal handling: %s", strerror(errno));
		goto out;
	}
	pr = stat_printer__new(el, out, o->json ? STAT_FMT_JSON : o->sep ? STAT_FMT_CSV : STAT_FMT_HUMAN,
			       o->sep, o->argv, o->pid, default_set);
	if (!pr) {
		cli_error("out of memory");
		goto out;
	}
	for (long run = 0; run < o->repeat; run++) {
		struct run_state rs = { .el = el, .pr = pr };
		int sig = 0;

		if (!count_once(o, &rs, run == 0, &ret, &sig))
			goto out;
		if (sig > 0)
			break;
	}
	stat_printer__finish(pr);
out:
	stat_printer__delete(pr);
	perfev_evlist__delete(el);
	if (out && out != stderr)
		fclose(out);
	cli_result_stream = NULL;
	return ret;
}

int cmd_stat(int argc, char **argv)
{
	struct stat_opts o = { 0 };
	int ret = 0;

	if (parse_args(argc, argv, &o, &ret)) {
		if (o.verbose)
			perfev_set_print(cli_vprint);
		ret = stat_main(&o);
	}
	free(o.events);
	return ret;
}
