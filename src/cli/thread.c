// SPDX-License-Identifier: MIT
/* The tool's helper threads: they leave every signal to the main thread. */
#include <signal.h>

#include "cli.h"

bool cli_thread_start(pthread_t *t, void *(*fn)(void *), void *arg)
{
	sigset_t all, old;
	bool ok;

	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	ok = !pthread_create(t, NULL, fn, arg);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return ok;
}
