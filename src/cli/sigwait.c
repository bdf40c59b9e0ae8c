/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "sigwait.h"

int sigwait_fd = -1;
volatile sig_atomic_t sigwait_signal;
static int wake_fd = -1;

static void on_signal(int sig)
{
	int saved = errno;

	if (sig != SIGCHLD)
		sigwait_signal = sig;
	if (write(wake_fd, "", 1) < 0) {
		/* pipe full: a wakeup is already pending */
	}
	errno = saved;
}

int sigwait_install(void)
{
	struct sigaction sa;
	int p[2];

	if (sigwait_fd >= 0)
		return 0;
	if (pipe2(p, O_CLOEXEC | O_NONBLOCK) < 0)
		return -errno;
	sigwait_fd = p[0];
	wake_fd = p[1];
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = SA_RESTART;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sigaction(SIGCHLD, &sa, NULL);
	return 0;
}

void sigwait_drain(void)
{
	char buf[64];

	while (read(sigwait_fd, buf, sizeof(buf)) > 0)
		;
}

void sigwait_reraise(int sig)
{
	struct sigaction sa;
	sigset_t set;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = SIG_DFL;
	sigemptyset(&sa.sa_mask);
	sigaction(sig, &sa, NULL);
	sigemptyset(&set);
	sigaddset(&set, sig);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	raise(sig);
}
