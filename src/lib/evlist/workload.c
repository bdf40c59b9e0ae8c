/* SPDX-License-Identifier: MIT */
/* A forked command that execs only when told, so it can be measured from its first instruction. */
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "evlist/evlist_int.h"
#include "util/opts.h"
#include "perfev/workload.h"

struct perfev_workload {
	pid_t pid;
	int go_fd;	/* parent writes one byte: exec now */
	int err_fd;	/* child writes errno if exec fails; EOF means exec succeeded */
	char *cmd;
	bool started;
	bool reaped;
};

struct perfev_workload *perfev_workload__new(char *const argv[])
{
	return perfev_workload__new_opts(argv, NULL);
}

static unsigned test_delay_ms;

void workload__set_test_delay(unsigned ms)
{
	test_delay_ms = ms;
}

/*
 * In the child: the parent-death signal, unless the parent is gone already
 * (then the signal would never come: the child is an orphan, and ends).
 */
static void child_set_death_signal(int sig, pid_t parent)
{
	if (!sig)
		return;
	if (prctl(PR_SET_PDEATHSIG, sig) < 0 || getppid() != parent)
		_exit(127);
}

struct perfev_workload *perfev_workload__new_opts(char *const argv[],
						  const struct perfev_workload_opts *opts)
{
	struct perfev_workload_opts o;
	struct perfev_workload *w;
	pid_t parent = getpid();
	int go[2], ep[2];

	if (OPTS_COPY(&o, opts, perfev_workload_opts, parent_death_signal) < 0)
		return NULL;
	if (o.parent_death_signal < 0 || o.parent_death_signal >= NSIG)
		return set_error_ptr(EINVAL, "parent_death_signal is %d; give 0 for none or a "
					     "signal number below %d", o.parent_death_signal, NSIG);
	if (!argv || !argv[0])
		return set_error_ptr(EINVAL, "no command given");
	w = calloc(1, sizeof(*w));
	if (!w)
		return set_error_ptr(ENOMEM, "out of memory");
	w->go_fd = w->err_fd = -1;
	w->cmd = strdup(argv[0]);
	if (!w->cmd || pipe2(go, O_CLOEXEC) < 0) {
		free(w->cmd);
		free(w);
		return set_error_ptr(errno ? errno : ENOMEM, "cannot create a pipe: %s", strerror(errno));
	}
	if (pipe2(ep, O_CLOEXEC) < 0) {
		int e = errno;

		close(go[0]);
		close(go[1]);
		free(w->cmd);
		free(w);
		return set_error_ptr(e, "cannot create a pipe: %s", strerror(e));
	}
	w->pid = fork();
	if (w->pid < 0) {
		int e = errno;

		close(go[0]);
		close(go[1]);
		close(ep[0]);
		close(ep[1]);
		free(w->cmd);
		free(w);
		return set_error_ptr(e, "cannot fork: %s", strerror(e));
	}
	if (w->pid == 0) {
		char c;
		int e;

		if (test_delay_ms)
			usleep(test_delay_ms * 1000u);
		child_set_death_signal(o.parent_death_signal, parent);
		close(go[1]);
		close(ep[0]);
		/* Measured or not, the child restores default SIGINT handling. */
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGPIPE, SIG_DFL);
		if (read(go[0], &c, 1) != 1)
			_exit(127);
		execvp(argv[0], argv);
		e = errno;
		if (write(ep[1], &e, sizeof(e)) < 0)
			_exit(127);
		_exit(e == ENOENT ? 127 : 126);
	}
	close(go[0]);
	close(ep[1]);
	w->go_fd = go[1];
	w->err_fd = ep[0];
	return w;
}

pid_t perfev_workload__pid(const struct perfev_workload *w)
{
	return w->pid;
}

int perfev_workload__start(struct perfev_workload *w)
{
	char c = 1;
	int e = 0;
	ssize_t n;

	if (w->started)
		return set_error(EALREADY, "the command was already started");
	w->started = true;
	if (write(w->go_fd, &c, 1) != 1)
		return set_error(errno, "cannot start '%s': %s", w->cmd, strerror(errno));
	close(w->go_fd);
	w->go_fd = -1;
	do
		n = read(w->err_fd, &e, sizeof(e));
	while (n < 0 && errno == EINTR);
	close(w->err_fd);
	w->err_fd = -1;
	if (n == (ssize_t)sizeof(e)) {
		if (e == ENOENT)
			return set_error(ENOENT, "cannot run '%s': command not found", w->cmd);
		if (e == EACCES || e == ENOEXEC)
			return set_error(EACCES, "cannot run '%s': %s (is it executable?)", w->cmd,
					 strerror(e));
		return set_error(e, "cannot run '%s': %s", w->cmd, strerror(e));
	}
	return 0;
}

int perfev_workload__wait(struct perfev_workload *w, int *status)
{
	int st;

	if (w->reaped)
		return set_error(ECHILD, "the command was already waited for");
	if (waitpid(w->pid, &st, 0) < 0)
		return -errno;
	w->reaped = true;
	if (status)
		*status = st;
	return 0;
}

void perfev_workload__delete(struct perfev_workload *w)
{
	if (!w)
		return;
	if (!w->reaped && w->pid > 0) {
		if (!w->started)
			kill(w->pid, SIGKILL);
		/* A started child is left to run: ending it is the caller's decision. */
		if (!w->started)
			waitpid(w->pid, NULL, 0);
	}
	if (w->go_fd >= 0)
		close(w->go_fd);
	if (w->err_fd >= 0)
		close(w->err_fd);
	free(w->cmd);
	free(w);
}
