/* SPDX-License-Identifier: MIT */
/*
 * Options: each subcommand describes its options once, in a table (names,
 * value, help line, how a shell completes the value), and includes the
 * groups several subcommands share (the target, the events, the input and
 * output files, verbosity, the filters, the sort keys) instead of writing
 * them again.  --help, the usage errors and bash completion are all made
 * from the tables, so they cannot drift apart.
 */
#ifndef PERFEV_CLI_OPT_H
#define PERFEV_CLI_OPT_H

#include <stdbool.h>
#include <stdio.h>

#include "target.h"

/* How a shell completes an option's value, or a command's operands. */
enum opt_comp {
	COMP_NONE,    /* nothing to offer: a number, a free text */
	COMP_FILE,    /* a file name */
	COMP_EVENT,   /* event names from 'perfev list', comma-separated */
	COMP_PID,     /* a running process */
	COMP_CPUS,    /* CPU numbers, comma-separated */
	COMP_CGROUP,  /* a cgroup: a directory under the cgroup2 mount */
	COMP_WORD,    /* one of the words */
	COMP_WORDS,   /* words, comma-separated */
	COMP_COMMAND, /* a command to run, then its arguments */
};

/* Long-only options of the shared groups; a command's own start at 256. */
enum {
	OPT_KEY_COMM = 0x1000,
	OPT_KEY_PID,
	OPT_KEY_TID,
	OPT_KEY_DSO,
	OPT_KEY_EVENT,
	OPT_KEY_TIME,
	OPT_KEY_MAX_STACK,
	OPT_KEY_NO_DEMANGLE,
	OPT_KEY_OFF_CPU,
	OPT_KEY_NO_OFF_CPU,
	OPT_KEY_OFF_CPU_THRESH,
};

/* Given anywhere before "--", errors are written as JSON from the start. */
#define OPT_JSON_ERRORS 1u

struct opt_group;

/*
 * One option, an included group, or a command's own help line for an
 * option of a group.  Tables end with an entry that is all zero.
 */
struct opt {
	int key;	    /* the short name's letter, or a number > 255 for a long name alone */
	const char *name;   /* the long name without "--"; NULL for a short name alone */
	const char *alias;  /* another long name for the same option (perf's plural --comms) */
	const char *arg;    /* the value's name in the help; NULL when it takes none */
	enum opt_comp comp; /* how the value is completed */
	const char *words;  /* COMP_WORD, COMP_WORDS: the values, comma-separated */
	/* What it does, wrapped when printed; a word "@" is the command's verb. */
	const char *help;
	unsigned flags;
	/*
	 * The value when none is given, as perf's optional values go: a value
	 * attached (-gcaller, --call-graph=caller) or in the next word (-g
	 * caller) is taken, unless that word is the last or starts with '-'.
	 * NULL: the value is required.
	 */
	const char *defval;
	const struct opt_group *group; /* this entry includes the group's options */
	const char *only;	       /* ...those of these short names; NULL: all */
	bool help_for;		       /* this entry is the help line of group option key */
};

#define OPT_GROUP(g) { .group = &(g) }
#define OPT_GROUP_ONLY(g, keys) { .group = &(g), .only = (keys) }
#define OPT_HELP(k, text) { .key = (k), .help = (text), .help_for = true }
#define OPT_END { 0 }

struct cli_filters {
	const char *comms, *pids, *tids, *dsos, *events; /* comma-separated lists */
	const char *time; /* perf's --time ranges */
};

/* What the shared groups and the operands of a command line hold. */
struct cli_args {
	struct cli_target target; /* -p -a -C -G */
	char *events;		  /* -e, repeats joined by commas; NULL: the command's default */
	const char *input;	  /* -i; NULL: the command's default */
	const char *output;	  /* -o; NULL: the command's default */
	bool verbose;		  /* -v: explain, and the library logs to stderr */
	bool quiet;		  /* -q */
	struct cli_filters filter;
	const char *sort;   /* -s, as given: the command knows its keys */
	const char *fields; /* -F of the sort group, as given */
	long max_stack;	    /* --max-stack: frames of each stack used; 0 all */
	bool no_demangle;
	/* Off-CPU time from sched_switch samples: as the recording says (--off-cpu), or as given. */
	enum { OFF_CPU_AUTO, OFF_CPU_ON, OFF_CPU_OFF } off_cpu;
	uint64_t off_cpu_thresh_ns;
	bool off_cpu_thresh_given;
	char **operands;    /* what is not an option; ends with NULL */
	int nr_operands;
};
void cli_args__free(struct cli_args *a);

/* Options several subcommands share, and what stores their values. */
struct opt_group {
	const struct opt *opts;
	bool (*set)(struct cli_args *a, int key, const char *arg);
};
extern const struct opt_group opt_target, opt_events, opt_input, opt_output, opt_verbosity,
	opt_filters, opt_sort, opt_frames, opt_off_cpu;

enum opt_operands {
	OPERANDS_NONE,	  /* a word that is not an option is an error */
	OPERANDS_WORDS,	  /* words, anywhere among the options */
	OPERANDS_COMMAND, /* the first word that is not an option starts the command to run */
};

/* A subcommand's command line. */
struct opt_cmd {
	const char *name;     /* "stat" */
	const char *summary;  /* its line in 'perfev --help' */
	const char *verb;     /* what it does to events ("count"), for shared help lines and errors */
	const char *synopsis; /* what follows "usage: perfev NAME", wrapped when printed */
	const char *about;    /* a paragraph before the options; NULL for none */
	const struct opt *opts;
	/* Takes one of the command's own options; false after printing why. */
	bool (*set)(void *ctx, int key, const char *arg);
	enum opt_operands operands;
	const char *operand_hint; /* OPERANDS_NONE: what the error about one adds */
	enum opt_comp operand_comp;
	const char *operand_words;
};

/* An option of a command, its groups resolved. */
struct opt_item {
	const struct opt *o;
	const char *help;	       /* the command's own, or the group's */
	const struct opt_group *group; /* NULL for the command's own options */
};
#define OPT_MAX 64

/*
 * The options of c in the order of its table, --help last; the number of
 * them, or -1 when two share a name (a mistake in the tables).
 */
int opt_items(const struct opt_cmd *c, struct opt_item items[OPT_MAX]);

/*
 * Parses argv[1..argc) (argv[0] is the command's name) by c's table: the
 * groups' options into *a, the command's own through c->set(ctx, ...), the
 * other words into a->operands.  True to go on; false when the command is
 * done, with *status 0 after --help and 1 after a usage error was printed.
 * Once parsed, -v sends the library's log to stderr.
 */
bool opt_parse(const struct opt_cmd *c, int argc, char **argv, struct cli_args *a, void *ctx,
	       int *status);

/*
 * The optimal string alignment distance between a[0..la) and b (edits,
 * with two letters swapped as one), for "did you mean": words under 40
 * characters; 99 for longer ones.
 */
int opt_distance(const char *a, size_t la, const char *b);

/* Writes c's --help to f. */
void opt_help(const struct opt_cmd *c, FILE *f);

#endif
