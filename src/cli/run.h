/* SPDX-License-Identifier: MIT */
/*
 * Running what a command measures: the command after "--", forked stopped
 * so that its events can be opened before it runs, or a process given with
 * -p, watched through a pidfd until it ends.  An ending signal is passed on
 * to the command, which decides whether to end; perfev then exits with the
 * command's status as a shell reports it (127 and 126 when it cannot be
 * run, 128 + the signal that killed it).
 */
#ifndef PERFEV_CLI_RUN_H
#define PERFEV_CLI_RUN_H

#include <stdbool.h>
#include <sys/resource.h>
#include <sys/types.h>

struct cli_run {
	struct perfev_workload *w;
	pid_t child;	 /* the command, 0 without one */
	int pidfd;	 /* -p's process: readable once it has ended; -1 */
	int status;	 /* the command's wait status, once reaped */
	bool child_done; /* reaped */
	struct rusage ru;
};

/*
 * Forks argv (when argv[0] is not NULL) waiting to exec, or watches process
 * pid (> 0).  False after printing why.  r is ready for cli_run__close()
 * either way.
 */
bool cli_run__prepare(struct cli_run *r, char *const *argv, pid_t pid);
/*
 * Lets the command exec: 0, or the status to exit with when it cannot be
 * run (127 not found, 126 not executable), said and reaped.  0 without one.
 */
int cli_run__start(struct cli_run *r);
/* Reaps the command if it has ended (or waits until it does); true once it is reaped. */
bool cli_run__reap(struct cli_run *r, bool block);
/* Whether what is measured has ended: the command (reaped here) or -p's process. */
bool cli_run__ended(struct cli_run *r);
/*
 * The ending signal that arrived since the last call (SIGINT, SIGTERM,
 * SIGHUP; 0 for none), passed on to a running command.
 */
int cli_run__take_signal(struct cli_run *r);
/* The tool's exit status for the command: the command's own, as a shell reports it; 0 without one. */
int cli_run__exit_status(const struct cli_run *r);
/* Kills a command that never ran or was not reaped, and closes the pidfd. */
void cli_run__close(struct cli_run *r);

#endif
