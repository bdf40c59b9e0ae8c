/* SPDX-License-Identifier: MIT */
/*
 * The perf_event_open(2) system call, which glibc does not wrap.  Here, at
 * the bottom of what opens events, because the catalogue (list_events.c)
 * tries events as well as the event lists above do.
 */
#include <sys/syscall.h>
#include <unistd.h>

#include "events/events_int.h"
#include "perfev/evlist.h"

int perfev_event_open(struct perf_event_attr *attr, pid_t pid, int cpu, int group_fd,
		      unsigned long flags)
{
	long fd;

	if (!attr->size)
		attr->size = sizeof(*attr);
	fd = syscall(SYS_perf_event_open, attr, pid, cpu, group_fd, flags | PERF_FLAG_FD_CLOEXEC);
	return fd < 0 ? -errno : (int)fd;
}
