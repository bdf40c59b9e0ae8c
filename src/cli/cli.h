/* SPDX-License-Identifier: MIT */
/* Shared by the perfev tool's subcommands. */
#ifndef PERFEV_CLI_H
#define PERFEV_CLI_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdarg.h>
#include <stdio.h>
#include <sys/types.h>

#include "perfev/common.h"

#define PRINTF_LIKE(f, a) __attribute__((format(printf, f, a)))

struct opt_cmd;

/* A subcommand: its command line (options, help, completion) and what runs it. */
struct cmd {
	const struct opt_cmd *opt;
	int (*fn)(int argc, char **argv);
};
/* Every subcommand, in the order 'perfev --help' lists them. */
extern const struct cmd *const cli_commands;
extern const size_t cli_nr_commands;
/* The subcommand of that exact name, or NULL. */
const struct cmd *cli_find_command(const char *name);

/* The subcommand now running, for message prefixes ("perfev stat: ..."). */
extern const char *cli_cmd_name;

/*
 * Errors and notes go to stderr prefixed with the command; with --json an
 * error is instead written to stdout as {"error": "..."} so a script reading
 * the JSON always gets JSON.
 */
void cli_error(const char *fmt, ...) PRINTF_LIKE(1, 2);
/* Sets the heap up for big recordings (heap.c); called once, before a command runs. */
void cli_heap_tune(void);
void cli_note(const char *fmt, ...) PRINTF_LIKE(1, 2);
extern bool cli_json_errors;
/* Where results (and JSON errors) go; stdout unless a command says otherwise. */
extern FILE *cli_result_stream;

/*
 * Flushes f and checks that every write to it went through; false after
 * saying so (naming it as name: "standard output", "'out.txt'").
 */
bool cli_stream_ok(FILE *f, const char *name);
/*
 * Standard output in big blocks when it is no terminal (a report or script
 * of many megabytes into a file or pipe); before anything is written to it.
 */
void cli_stdout_buffered(void);
/* What to do about a failed write ("; free some space ..."), or "" where the error says it all. */
const char *cli_write_hint(int err);
struct perfev_json;
/* Deletes a JSON writer to f, keeping the errno of a failed write for cli_stream_ok(). */
void cli_json_done(struct perfev_json *j, FILE *f);
/* Appends item to the comma-separated *list (for repeated -e); false with an error printed. */
bool cli_append_list(char **list, const char *item);
/* The library's log callback of -v: everything to stderr, debug lines marked. */
int cli_vprint(enum perfev_print_level level, const char *fmt, va_list ap);
/* Nanoseconds on the monotonic clock, for elapsed times. */
uint64_t cli_now_ns(void);
/*
 * Starts fn(arg) on a thread of its own with every signal blocked (they stay
 * the main thread's: Ctrl-C, SIGPIPE); false when it could not start, and the
 * caller then does the work itself.
 */
bool cli_thread_start(pthread_t *t, void *(*fn)(void *), void *arg);
/* Parses a decimal number in [min, max]; false with an error printed otherwise. */
bool cli_parse_long(const char *opt, const char *s, long min, long max, long *out);
/*
 * A duration such as 500us, 2ms, 1.5s or 300ns (a number alone is in
 * milliseconds, as perf's --off-cpu-thresh); false after saying why.
 */
bool cli_parse_duration(const char *opt, const char *s, uint64_t *ns);
/* --percentage absolute|relative (report's and diff's, as perf's); false after saying why. */
bool cli_parse_percentage(const char *s, bool *relative);

struct perfev_session;
struct perfev_symbolizer;
struct perfev_sample_filter;
struct cli_filters;
/*
 * Opens the perf.data INPUT ("-": standard input) for reading samples, with
 * a symbolizer of its own (*sy, to delete after the session); the reader's
 * warnings become notes unless *quiet; only the samples filter passes (NULL:
 * all; it must outlive the session).  NULL after printing why.
 */
struct perfev_session *cli_session_open(const char *input, bool no_demangle, const bool *quiet,
					struct perfev_sample_filter *filter,
					struct perfev_symbolizer **sy);
/*
 * The same for commands that look into user code where each sample was
 * taken: no callers resolved, no kernel symbols read.
 */
struct perfev_session *cli_session_open_first_frame(const char *input, bool no_demangle,
						    const bool *quiet,
						    struct perfev_sample_filter *filter,
						    struct perfev_symbolizer **sy);
/*
 * The build-id cache's directory, as perf finds its own (buildid_dir.c):
 * $PERFEV_BUILDID_DIR, perf's buildid.dir setting, $HOME/.debug; "" when
 * none.  Its size limit: $PERFEV_BUILDID_CACHE_SIZE, else the default.
 */
#define CLI_BUILDID_CACHE_MAX (1ull << 30)
const char *cli_buildid_dir(void);
/* The cache of parsed symbol tables: $PERFEV_CACHE_DIR (empty: none), $XDG_CACHE_HOME/perfev, ~/.cache/perfev. */
const char *cli_cache_dir(void);
uint64_t cli_buildid_cache_max(void);

/* Off-CPU time (the opt_off_cpu group): as the recording says, or as the command line. */
struct cli_off_cpu {
	int mode; /* OFF_CPU_AUTO, OFF_CPU_ON, OFF_CPU_OFF of struct cli_args */
	uint64_t thresh_ns;
	bool thresh_given;
};
/*
 * cli_session_open() with off-CPU time when oc says so, or (OFF_CPU_AUTO)
 * when the recording was made with perfev record --off-cpu (its command
 * line, HEADER_CMDLINE, tells; a pipe's is read too late, so a pipe needs
 * --off-cpu), with the recording's --off-cpu-thresh unless oc gives one.
 * *on says whether off-CPU time is computed.  leaf: where each sample was
 * taken is all the caller needs (a flat report), unless off-CPU time is on.
 */
struct perfev_session *cli_session_open_off_cpu(const char *input, bool no_demangle,
						const bool *quiet,
						struct perfev_sample_filter *filter,
						const struct cli_off_cpu *oc, bool leaf, bool *on,
						struct perfev_symbolizer **sy);
/* A duration as cli_parse_duration() reads it, silently. */
bool cli_duration(const char *s, uint64_t *ns);
/* The library's filter of the command line's filter options (*f NULL when none); false after printing why. */
bool cli_filter_new(const struct cli_filters *cf, struct perfev_sample_filter **f);

int cmd_stat(int argc, char **argv);
int cmd_list(int argc, char **argv);
int cmd_record(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_script(int argc, char **argv);
int cmd_export(int argc, char **argv);
int cmd_flamegraph(int argc, char **argv);
int cmd_completion(int argc, char **argv);
int cmd_annotate(int argc, char **argv);
int cmd_diff(int argc, char **argv);
int cmd_top(int argc, char **argv);
int cmd_sched(int argc, char **argv);
int cmd_trace(int argc, char **argv);
extern const struct opt_cmd stat_cmd, list_cmd, record_cmd, report_cmd, script_cmd, export_cmd,
	flamegraph_cmd, completion_cmd, annotate_cmd, diff_cmd, top_cmd, sched_cmd, trace_cmd;

#endif
