/* SPDX-License-Identifier: MIT */
/*
 * Signals that end a measurement (SIGINT, SIGTERM, SIGHUP) and SIGCHLD only
 * note themselves and write a byte to a pipe, so a poll loop wakes up and
 * decides, outside the handler, what to do.
 */
#ifndef PERFEV_CLI_SIGWAIT_H
#define PERFEV_CLI_SIGWAIT_H

#include <signal.h>

/* The read end: readable after any of the signals arrived. */
extern int sigwait_fd;
/* The last ending signal that arrived (not SIGCHLD), 0 if none. */
extern volatile sig_atomic_t sigwait_signal;

int sigwait_install(void);
void sigwait_drain(void);
/* Restores the default action of sig and raises it: after the work is saved, the signal is honoured. */
void sigwait_reraise(int sig);

#endif
