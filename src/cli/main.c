/* SPDX-License-Identifier: MIT */
/* perfev: the subcommand table and what all subcommands share. */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "opt.h"
#include "perfev/perfev.h"

static const struct cmd commands[] = {
	{ &stat_cmd, cmd_stat },
	{ &record_cmd, cmd_record },
	{ &report_cmd, cmd_report },
	{ &annotate_cmd, cmd_annotate },
	{ &diff_cmd, cmd_diff },
	{ &top_cmd, cmd_top },
	{ &script_cmd, cmd_script },
	{ &export_cmd, cmd_export },
	{ &flamegraph_cmd, cmd_flamegraph },
	{ &sched_cmd, cmd_sched },
	{ &trace_cmd, cmd_trace },
	{ &list_cmd, cmd_list },
	{ &completion_cmd, cmd_completion },
};
const struct cmd *const cli_commands = commands;
const size_t cli_nr_commands = sizeof(commands) / sizeof(commands[0]);

const char *cli_cmd_name = "perfev";
bool cli_json_errors;
FILE *cli_result_stream;

static void vmsg(const char *kind, const char *fmt, va_list ap)
{
	fflush(stdout);
	fprintf(stderr, "%s: %s", cli_cmd_name, kind);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void cli_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	FILE *f = cli_result_stream ? cli_result_stream : stdout;

	/* An error about the results' stream itself goes to stderr. */
	if (cli_json_errors && !ferror(f)) {
		char buf[2048];

		vsnprintf(buf, sizeof(buf), fmt, ap);
		/* Written by hand: no allocation on the way out of a failure. */
		fputs("{\"error\":", f);
		perfev_json_write_string(f, buf, strlen(buf), 0);
		fputs("}\n", f);
		fflush(f);
	} else {
		vmsg("error: ", fmt, ap);
	}
	va_end(ap);
}

void cli_note(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg("", fmt, ap);
	va_end(ap);
}

bool cli_append_list(char **list, const char *item)
{
	size_t old = *list ? strlen(*list) + 1 : 0;
	char *n = realloc(*list, old + strlen(item) + 1);

	if (!n) {
		cli_error("out of memory");
		return false;
	}
	if (old)
		n[old - 1] = ',';
	strcpy(n + old, item);
	*list = n;
	return true;
}

int cli_vprint(enum perfev_print_level level, const char *fmt, va_list ap)
{
	if (level == PERFEV_DEBUG)
		fputs("perfev: debug: ", stderr);
	return vfprintf(stderr, fmt, ap);
}

uint64_t cli_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

bool cli_parse_long(const char *opt, const char *s, long min, long max, long *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < min || v > max) {
		cli_error("option %s expects a number from %ld to %ld, not '%s'", opt, min, max, s);
		return false;
	}
	*out = v;
	return true;
}

/* glibc ignores setvbuf's size when it allocates the buffer itself: 4 KiB writes then. */
static char stdout_buf[256 * 1024];

void cli_stdout_buffered(void)
{
	if (!isatty(STDOUT_FILENO))
		setvbuf(stdout, stdout_buf, _IOFBF, sizeof(stdout_buf));
}

const char *cli_write_hint(int err)
{
	switch (err) {
	case ENOSPC:
	case EDQUOT:
		return "; free some space or write elsewhere";
	case EFBIG:
		return "; the file size limit (ulimit -f) or the file system's largest file was "
		       "reached: write less, or elsewhere";
	case EPIPE:
		return "; the program reading the output has ended";
	default:
		return "";
	}
}

/* The errno of a write to a stream that failed where no one could say it yet. */
static FILE *failed_stream;
static int failed_errno;

void cli_json_done(struct perfev_json *j, FILE *f)
{
	int err = perfev_json__delete(j);

	if (err == -EINVAL || !err || failed_stream)
		return;
	failed_stream = f;
	failed_errno = -err;
}

bool cli_stream_ok(FILE *f, const char *name)
{
	int err = 0;

	errno = 0;
	if (fflush(f) != 0)
		err = errno ? errno : EIO;
	else if (ferror(f))
		err = f == failed_stream ? failed_errno : EIO; /* EIO: its errno is gone */
	if (!err)
		return true;
	/* A message about stderr would go where writing just failed: the exit status tells. */
	if (f != stderr)
		cli_error("cannot write to %s: %s%s", name, strerror(err), cli_write_hint(err));
	return false;
}

static void usage(FILE *f)
{
	int width = 8;

	for (size_t i = 0; i < cli_nr_commands; i++)
		if ((int)strlen(commands[i].opt->name) > width)
			width = (int)strlen(commands[i].opt->name);
	fprintf(f, "usage: perfev [-v | --version] [-h | --help] <command> [<args>]\n\ncommands:\n");
	for (size_t i = 0; i < cli_nr_commands; i++)
		fprintf(f, "   %-*s %s\n", width, commands[i].opt->name, commands[i].opt->summary);
	fprintf(f, "\n'perfev <command> --help' describes a command; 'man perfev-<command>' in full.\n");
}

const struct cmd *cli_find_command(const char *name)
{
	/* Exact names only: a prefix that matches today may match two commands tomorrow. */
	for (size_t i = 0; i < cli_nr_commands; i++)
		if (!strcmp(name, commands[i].opt->name))
			return &commands[i];
	return NULL;
}

/*
 * The commands name is a misspelling of, as "'stat' or 'script'": those
 * closest in spelling, two edits at most (one for short words).  Never a
 * command name starts: "perfev rep" is no command, whatever it could mean.
 */
static void near_commands(const char *name, char *buf, size_t size)
{
	size_t len = strlen(name);
	int best = len > 4 ? 2 : 1, found = 0;
	const char *names[16];

	for (size_t i = 0; i < cli_nr_commands && found < 16; i++) {
		int d = opt_distance(name, len, commands[i].opt->name);

		if (d > best)
			continue;
		if (d < best)
			found = 0;
		best = d;
		names[found++] = commands[i].opt->name;
	}
	for (int i = 0; i < found; i++) {
		size_t l = strlen(buf);

		snprintf(buf + l, size - l, "%s'%s'", i == 0 ? "" : i == found - 1 ? " or " : ", ",
			 names[i]);
	}
}

/*
 * Whatever a command wrote to stdout must have reached it: a full disk or a
 * closed pipe is an error (exit 1), said once, even when it shows only when
 * the last buffer is flushed or stdout is closed.
 */
static int close_stdout(int ret)
{
	bool ok;

	/* A command that failed has said why; its output may have failed with it. */
	if (ret) {
		fclose(stdout);
		return ret;
	}
	ok = cli_stream_ok(stdout, "standard output");
	if (fclose(stdout) != 0 && ok) {
		int err = errno;

		cli_error("cannot write to standard output: %s%s", strerror(err), cli_write_hint(err));
		ok = false;
	}
	return ok ? 0 : 1;
}

int main(int argc, char **argv)
{
	/* "perfev help stat" is "perfev stat --help" */
	bool help = argc > 2 && !strcmp(argv[1], "help");
	const char *name = help ? argv[2] : argc > 1 ? argv[1] : NULL;
	const struct cmd *c;
	static char prefixed[64];

	if (!name) {
		usage(stderr);
		return 1;
	}
	if (!strcmp(name, "--help") || !strcmp(name, "-h") || !strcmp(name, "help")) {
		usage(stdout);
		return close_stdout(0);
	}
	/* perf -v, perf --version, perf version */
	if (!help && (!strcmp(name, "--version") || !strcmp(name, "-v") || !strcmp(name, "version"))) {
		printf("perfev %s\n", perfev_version());
		return close_stdout(0);
	}
	c = cli_find_command(name);
	if (!c) {
		char near[256] = "";

		near_commands(name, near, sizeof(near));
		if (*near)
			cli_error("'%s' is not a perfev command; did you mean %s?", name,
				  near);
		else
			cli_error("'%s' is not a perfev command; see 'perfev --help'", name);
		return 1;
	}
	if (help) {
		opt_help(c->opt, stdout);
		return close_stdout(0);
	}
	snprintf(prefixed, sizeof(prefixed), "perfev %s", name);
	cli_cmd_name = prefixed;
	cli_heap_tune();
	return close_stdout(c->fn(argc - 1, argv + 1));
}

bool cli_duration(const char *s, uint64_t *ns)
{
	static const struct {
		const char *unit;
		double ns;
	} units[] = { { "ns", 1 }, { "us", 1e3 }, { "ms", 1e6 }, { "s", 1e9 }, { "", 1e6 } };
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (!errno && end != s && v >= 0)
		for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
			if (!strcmp(end, units[i].unit) && v * units[i].ns < 1e18) {
				*ns = (uint64_t)(v * units[i].ns + 0.5);
				return true;
			}
	return false;
}

bool cli_parse_duration(const char *opt, const char *s, uint64_t *ns)
{
	if (cli_duration(s, ns))
		return true;
	cli_error("%s expects a duration such as 500us, 2ms or 1s (a number alone is in "
		  "milliseconds), not '%s'", opt, s);
	return false;
}

bool cli_parse_percentage(const char *s, bool *relative)
{
	if (strcmp(s, "absolute") && strcmp(s, "relative")) {
		cli_error("--percentage is absolute or relative, not '%s'", s);
		return false;
	}
	*relative = !strcmp(s, "relative");
	return true;
}
