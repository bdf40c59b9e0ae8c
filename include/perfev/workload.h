/* SPDX-License-Identifier: MIT */
/*
 * perfev: a command to measure, forked stopped so that its counters can be
 * opened on its pid before it runs a single instruction of its own.
 *
 *	w = perfev_workload__new(argv);          // forked, waiting
 *	open events on perfev_workload__pid(w) with enable_on_exec
 *	perfev_workload__start(w);               // execs; fails if exec fails
 *	perfev_workload__wait(w, &status);
 */
#ifndef PERFEV_WORKLOAD_H
#define PERFEV_WORKLOAD_H

#include <sys/types.h>

#include "perfev/common.h"

#ifdef __cplusplus
extern "C" {
#endif

struct perfev_workload;

/* Forks a child that waits for perfev_workload__start() before exec'ing argv (PATH searched). */
PERFEV_API struct perfev_workload *perfev_workload__new(char *const argv[]);

struct perfev_workload_opts {
	size_t sz; /* sizeof(struct perfev_workload_opts) */
	/*
	 * A signal for the command when the thread that created it ends
	 * (PR_SET_PDEATHSIG), so that a measuring tool killed with SIGKILL
	 * leaves no command running unmeasured; 0 for none.  Set before the
	 * command execs, checked against a parent that died first, kept
	 * across exec except into set-user-ID or file-capability programs.
	 */
	int parent_death_signal;
	size_t :0;
};

/* perfev_workload__new() with options; NULL opts: the defaults. */
PERFEV_API struct perfev_workload *perfev_workload__new_opts(char *const argv[],
							      const struct perfev_workload_opts *opts);
PERFEV_API pid_t perfev_workload__pid(const struct perfev_workload *w);
/*
 * Lets the child exec and returns once it has (0), or the exec failure as
 * -errno: -ENOENT when the command is not found, -EACCES when it is not
 * executable (shells exit 127 and 126 for these).  The child has then exited.
 */
PERFEV_API int perfev_workload__start(struct perfev_workload *w);
/*
 * Waits for the child to end and stores its wait status.  Returns -EINTR
 * when a signal interrupted the wait (the caller decides whether to wait on).
 */
PERFEV_API int perfev_workload__wait(struct perfev_workload *w, int *status);
/* Kills a child that was never started or has not been waited for; accepts NULL. */
PERFEV_API void perfev_workload__delete(struct perfev_workload *w);

#ifdef __cplusplus
}
#endif
#endif
