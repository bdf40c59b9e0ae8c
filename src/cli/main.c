/* SPDX-License-Identifier: MIT */
/* perfev: the subcommand table and what all subcommands share. */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "perfev/perfev.h"

static const struct cmd commands[] = {
	{ "stat", cmd_stat, "count events in a command, a process, or the whole system" },
	{ "record", cmd_record, "sample a command, a process, or CPUs into perf.data" },
	{ "report", cmd_report, "show where the samples of a perf.data file went" },
	{ "script", cmd_script, "print every sample of a perf.data file, as perf script does" },
	{ "list", cmd_list, "list the events this machine can count" },
};

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
	if (cli_json_errors) {
		char buf[2048];

		vsnprintf(buf, sizeof(buf), fmt, ap);
		struct json j;

		FILE *f = cli_result_stream ? cli_result_stream : stdout;

		json_init(&j, f, false);
		json_obj_begin(&j, NULL);
		json_str(&j, "error", buf);
		json_obj_end(&j);
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

static void usage(FILE *f)
{
	fprintf(f, "usage: perfev [--version] [--help] <command> [<args>]\n\ncommands:\n");
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(f, "   %-8s %s\n", commands[i].name, commands[i].summary);
	fprintf(f, "\n'perfev <command> --help' describes a command; 'man perfev-<command>' in full.\n");
}

int main(int argc, char **argv)
{
	const char *name;

	if (argc < 2) {
		usage(stderr);
		return 1;
	}
	name = argv[1];
	if (!strcmp(name, "--help") || !strcmp(name, "-h") || !strcmp(name, "help")) {
		if (argc > 2 && strcmp(name, "help") == 0) {
			/* "perfev help stat" is "perfev stat --help" */
			for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++) {
				if (!strcmp(argv[2], commands[i].name)) {
					char *av[] = { argv[2], (char *)"--help", NULL };

					cli_cmd_name = "perfev";
					return commands[i].fn(2, av);
				}
			}
		} else {
			usage(stdout);
			return 0;
		}
	}
	if (!strcmp(name, "--version") || !strcmp(name, "version")) {
		printf("perfev %s\n", perfev_version());
		return 0;
	}
	/* Exact names only: a prefix that matches today may match two commands tomorrow. */
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++) {
		if (!strcmp(name, commands[i].name)) {
			static char prefixed[64];

			snprintf(prefixed, sizeof(prefixed), "perfev %s", commands[i].name);
			cli_cmd_name = prefixed;
			return commands[i].fn(argc - 1, argv + 1);
		}
	}
	cli_error("'%s' is not a perfev command; see 'perfev --help'", name);
	return 1;
}
