/* SPDX-License-Identifier: MIT */
/*
 * What a measuring command watches: a command it starts, a running process
 * (-p), every task on all or some CPUs (-a, -C), or a cgroup's tasks (-G).
 * The rules that combine them, and how they become the library's open
 * options, are written here once for every command that measures.
 */
#ifndef PERFEV_CLI_TARGET_H
#define PERFEV_CLI_TARGET_H

#include <stdbool.h>
#include <sys/types.h>

struct opt_cmd;
struct perfev_open_opts;
struct perfev_evlist;

struct cli_target {
	long pid;	    /* -p: a running process, all its threads; 0 when not given */
	long tid;	    /* -t: one running thread; 0 when not given */
	pid_t tid_pid;	    /* -t's process, found by cli_target__check() */
	bool all_cpus;	    /* -a */
	const char *cpus;   /* -C: a CPU list such as "0-3,6" */
	const char *cgroup; /* -G */
};

/*
 * With -p, -C narrows the process to those CPUs (stat); without this, -p
 * and -C are alternatives (record, whose -C alone means every task there).
 */
#define TARGET_TASK_ON_CPUS 1u

/*
 * Checks the target of command c against the command to run (argv, empty
 * for none): -p goes without system-wide options (a command with it only
 * bounds the measurement, as perf's -p PID -- sleep N), -G
 * means every CPU unless -C is given, and there must be something to watch.
 * False after printing why.
 */
bool cli_target__check(struct cli_target *t, const struct opt_cmd *c, char *const *argv,
		       unsigned flags);

/* The process watched: -p's, -t's thread's, or 0. */
pid_t cli_target__process(const struct cli_target *t);

/* Whether the events are opened on CPUs for every task rather than on a task. */
bool cli_target__system_wide(const struct cli_target *t);

/*
 * Fills whose events o opens and where: -p's process with all its threads
 * (a command child then only bounds the measurement), else the command
 * child (> 0, started with enable_on_exec), -t's thread, or every
 * task on -a/-C's CPUs, in -G's cgroup.  Tasks it creates are counted too
 * when inherit is asked and the events are a task's.
 */
void cli_target__open_opts(const struct cli_target *t, pid_t child, bool inherit,
			   struct perfev_open_opts *o);

/*
 * After a successful open: one note naming the events that measure only
 * user space because kernel.perf_event_paranoid keeps this user from the
 * kernel (the open options ask for perf's fallback); nothing when none do.
 */
void cli_target__note_user_only(struct perfev_evlist *el);

#endif
