/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"
#include "perfev/perfev.h"
#include "run.h"
#include "sigwait.h"

bool cli_run__prepare(struct cli_run *r, char *const *argv, pid_t pid)
{
	*r = (struct cli_run){ .pidfd = -1 };
	if (argv[0]) {
		/* perfev killed (SIGKILL, the OOM killer) leaves no command running unmeasured. */
		struct perfev_workload_opts wo = { .sz = sizeof(wo), .parent_death_signal = SIGKILL };

		r->w = perfev_workload__new_opts(argv, &wo);
		if (!r->w) {
			cli_error("%s", perfev_last_error());
			return false;
		}
		r->child = perfev_workload__pid(r->w);
	} else if (pid > 0) {
		/* Without pidfds the process is measured until a signal. */
		r->pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
	}
	return true;
}

int cli_run__start(struct cli_run *r)
{
	int err;

	if (!r->w || !(err = perfev_workload__start(r->w)))
		return 0;
	cli_error("%s", perfev_last_error());
	cli_run__reap(r, true);
	return err == -ENOENT ? 127 : 126;
}

bool cli_run__reap(struct cli_run *r, bool block)
{
	pid_t p;

	if (r->child <= 0 || r->child_done)
		return r->child_done;
	do
		p = wait4(r->child, &r->status, block ? 0 : WNOHANG, &r->ru);
	while (p < 0 && errno == EINTR);
	r->child_done = p == r->child;
	return r->child_done;
}

bool cli_run__ended(struct cli_run *r)
{
	struct pollfd p = { r->pidfd, POLLIN, 0 };

	if (r->child > 0)
		return cli_run__reap(r, false);
	return r->pidfd >= 0 && poll(&p, 1, 0) > 0;
}

int cli_run__take_signal(struct cli_run *r)
{
	int sig = sigwait_signal;

	sigwait_signal = 0;
	/* The command decides: it gets the signal, and the measurement goes on until it ends. */
	if (sig && r->child > 0 && !r->child_done)
		kill(r->child, sig);
	return sig;
}

int cli_run__exit_status(const struct cli_run *r)
{
	if (r->child <= 0)
		return 0;
	if (WIFEXITED(r->status))
		return WEXITSTATUS(r->status);
	if (WIFSIGNALED(r->status))
		return 128 + WTERMSIG(r->status);
	return 1;
}

void cli_run__close(struct cli_run *r)
{
	perfev_workload__delete(r->w);
	r->w = NULL;
	if (r->pidfd >= 0)
		close(r->pidfd);
	r->pidfd = -1;
}
