/* SPDX-License-Identifier: MIT */
/*
 * perfev: lists of events (evlist) and the events in them (evsel), opened
 * with perf_event_open(2) per thread and/or per CPU, and read as counters.
 *
 *	struct perfev_evlist *el = perfev_evlist__new();
 *	perfev_evlist__add_events(el, "task-clock,{page-faults,context-switches}");
 *	struct perfev_open_opts o = { .sz = sizeof(o), .pid = 0 };
 *	perfev_evlist__open(el, &o);            // counting starts (unless start_disabled)
 *	... work ...
 *	perfev_evlist__read(el);
 *	perfev_evlist__for_each_evsel(el, ev) {
 *		struct perfev_counts c;
 *		perfev_evsel__counts_total(ev, &c);
 *		printf("%s %llu\n", perfev_evsel__name(ev), perfev_counts__scaled(&c));
 *	}
 *	perfev_evlist__delete(el);
 */
#ifndef PERFEV_EVLIST_H
#define PERFEV_EVLIST_H

#include <linux/perf_event.h>
#include <stdbool.h>
#include <sys/types.h>

#include "perfev/common.h"
#include "perfev/cpumap.h"

#ifdef __cplusplus
extern "C" {
#endif

struct perfev_evlist;
struct perfev_evsel;

PERFEV_API struct perfev_evlist *perfev_evlist__new(void);
/* Closes whatever is open and frees everything; accepts NULL. */
PERFEV_API void perfev_evlist__delete(struct perfev_evlist *evlist);

/*
 * Parses an event list such as "cycles:u,{instructions,LLC-loads}:S,msr/tsc/"
 * (see perfev_parse_event() in perfev/events.h for one event's syntax) and
 * appends its events.  Braces make a group whose first event leads it.
 * Returns 0 or a negative error; perfev_last_error() says where the text is
 * wrong and suggests close names for unknown events.  Nothing is appended on
 * failure.
 */
PERFEV_API int perfev_evlist__add_events(struct perfev_evlist *evlist, const char *spec);

/*
 * Appends one event described by attr (copied; attr->size may be 0).  name
 * may be NULL ("raw 0x..." is made up).  leader is NULL for an event of its
 * own, or an evsel of this list that leads the group the new event joins.
 */
PERFEV_API struct perfev_evsel *perfev_evlist__add_attr(struct perfev_evlist *evlist,
							const struct perf_event_attr *attr,
							const char *name, struct perfev_evsel *leader);

/*
 * Appends what off-CPU profiles (perfev_session_opts.off_cpu) are recorded
 * from: sched:sched_switch sampled at every switch-out (period 1), with its
 * raw fields (prev_state says how the thread left the CPU), its callchain
 * and time.  A thread's next switch-in ends its interval: with
 * switch_events (for lists opened on threads, which see only their own
 * switch-outs) the event also has attr.context_switch, so the kernel
 * records each switch-in as a PERF_RECORD_SWITCH; a list opened on CPUs
 * sees every switch-in as a sched_switch's next_pid and needs none.
 * -PERFEV_ERR_NOTRACEFS and the other errors of perfev_parse_event() when
 * the tracepoint cannot be found.
 */
PERFEV_API struct perfev_evsel *perfev_evlist__add_off_cpu(struct perfev_evlist *evlist,
							   bool switch_events);

PERFEV_API int perfev_evlist__nr_evsels(const struct perfev_evlist *evlist);
/* The event after prev (the first when prev is NULL), NULL at the end. */
PERFEV_API struct perfev_evsel *perfev_evlist__next_evsel(const struct perfev_evlist *evlist,
							  const struct perfev_evsel *prev);
#define perfev_evlist__for_each_evsel(evlist, pos)                                                 \
	for ((pos) = perfev_evlist__next_evsel((evlist), NULL); (pos);                             \
	     (pos) = perfev_evlist__next_evsel((evlist), (pos)))

struct perfev_open_opts {
	size_t sz; /* sizeof(struct perfev_open_opts) */
	/*
	 * Whose events: -1 every task (needs CPUs), 0 the calling thread, >0
	 * that process.  With attach_all_threads a process's existing threads
	 * from /proc/PID/task are each opened.
	 */
	pid_t pid;
	/* CPU list such as "0-3,7"; NULL: any CPU, or all online ones when system_wide. */
	const char *cpus;
	bool system_wide;	 /* pid -1 on every CPU of cpus (or online) */
	bool attach_all_threads; /* pid > 0: every thread it has now, like perf stat -p */
	bool inherit;		 /* also count tasks the monitored ones create */
	bool enable_on_exec;	 /* start disabled, count from the next exec of pid */
	bool start_disabled;	 /* start disabled; perfev_evlist__enable() starts */
	/*
	 * An event the kernel or hardware here can't count (ENOENT, EOPNOTSUPP,
	 * ENODEV, or EINVAL from a PMU) is kept closed and marked unsupported
	 * instead of failing the whole open; perfev_evsel__open_error() tells.
	 */
	bool skip_unsupported;
	/* cgroup to monitor (path under the cgroup2 mount or absolute); needs CPUs. */
	const char *cgroup;
	/*
	 * The CPUs as a map (perfev_cpu_map__new()) rather than as cpus' text,
	 * one or the other; the list keeps a copy.  With pid >= 0 each task is
	 * followed on each of these CPUs, as an inherited event must be to be
	 * mapped.
	 */
	const struct perfev_cpu_map *cpu_map;
	/*
	 * As perf does for a user whom kernel.perf_event_paranoid (2 and above)
	 * lets measure only user space: an event of a task that the kernel
	 * refuses (EACCES, EPERM) because it would count the kernel too is
	 * opened for user space only (exclude_kernel and exclude_hv set, ":u"
	 * added to its name) instead of failing.  Events that count only the
	 * kernel (exclude_user), tracepoints (which fire in the kernel and would
	 * count nothing) and CPU-wide events fail as before, explained.
	 * perfev_evsel__user_only_fallback() tells which events fell back.
	 */
	bool fallback_user_only;
	char reserved_[7]; /* zero: keeps the struct free of padding a caller may leave unset */
	size_t :0;
};

/*
 * Opens every event: group leaders first, members with their leader's fd,
 * close-on-exec.  Adds the read_format bits counting needs
 * (TOTAL_TIME_ENABLED/RUNNING, ID, and GROUP for group leaders).  Returns 0
 * or the first failure as -errno, explained by perfev_last_error() in words
 * a user can act on.
 */
PERFEV_API int perfev_evlist__open(struct perfev_evlist *evlist, const struct perfev_open_opts *opts);
PERFEV_API void perfev_evlist__close(struct perfev_evlist *evlist);
PERFEV_API int perfev_evlist__enable(struct perfev_evlist *evlist);
PERFEV_API int perfev_evlist__disable(struct perfev_evlist *evlist);
PERFEV_API int perfev_evlist__reset(struct perfev_evlist *evlist);

/* The CPUs and threads the list was opened on (CPU -1 / thread -1 mean "any"). */
PERFEV_API const struct perfev_cpu_map *perfev_evlist__cpus(const struct perfev_evlist *evlist);
PERFEV_API const struct perfev_thread_map *perfev_evlist__threads(const struct perfev_evlist *evlist);

PERFEV_API const char *perfev_evsel__name(const struct perfev_evsel *evsel);
/* The attribute; may be changed until the list is opened. */
PERFEV_API struct perf_event_attr *perfev_evsel__attr(struct perfev_evsel *evsel);
PERFEV_API struct perfev_evsel *perfev_evsel__leader(const struct perfev_evsel *evsel);
PERFEV_API int perfev_evsel__idx(const struct perfev_evsel *evsel);
/* Members of the group this event leads, itself included; 1 for a lone event. */
PERFEV_API int perfev_evsel__nr_members(const struct perfev_evsel *evsel);
/* True for a leader whose samples carry every member's value (":S"). */
PERFEV_API bool perfev_evsel__sample_read(const struct perfev_evsel *evsel);
/* fd of the event on (cpu_idx, thread_idx) of the maps, or -1. */
PERFEV_API int perfev_evsel__fd(const struct perfev_evsel *evsel, int cpu_idx, int thread_idx);
/* The kernel's id of the event on (cpu_idx, thread_idx), 0 if not open. */
PERFEV_API uint64_t perfev_evsel__id(const struct perfev_evsel *evsel, int cpu_idx, int thread_idx);
/*
 * 0 when the event is open, else the -errno its open failed with; with
 * skip_unsupported the list opens without it.  The explanation is returned
 * by perfev_evsel__open_error() ("" when open).
 */
PERFEV_API int perfev_evsel__open_status(const struct perfev_evsel *evsel);
PERFEV_API const char *perfev_evsel__open_error(const struct perfev_evsel *evsel);
/* True when the event was opened for user space only by perfev_open_opts.fallback_user_only. */
PERFEV_API bool perfev_evsel__user_only_fallback(const struct perfev_evsel *evsel);

/* One counter reading, as read(2) gives it with TOTAL_TIME_ENABLED|RUNNING. */
struct perfev_counts {
	uint64_t val; /* raw count */
	uint64_t ena; /* time enabled, ns */
	uint64_t run; /* time running on the PMU, ns */
	uint64_t id;  /* kernel's event id (PERF_FORMAT_ID) */
	uint64_t lost; /* lost samples (PERF_FORMAT_LOST), 0 when unknown */
};

/*
 * Reads every open event (a group in one read through its leader, so its
 * members are consistent with one another) and stores the readings, which
 * perfev_evsel__counts*() return.
 */
PERFEV_API int perfev_evlist__read(struct perfev_evlist *evlist);
/*
 * Reads one event's counter on (cpu_idx, thread_idx) now, with one read(2),
 * into out (a group member is read by itself), without touching the stored
 * readings: the cheapest read the library offers.
 */
PERFEV_API int perfev_evsel__read(const struct perfev_evsel *evsel, int cpu_idx, int thread_idx,
				  struct perfev_counts *out);
/* The stored reading of one (cpu_idx, thread_idx). */
PERFEV_API int perfev_evsel__counts(const struct perfev_evsel *evsel, int cpu_idx, int thread_idx,
				    struct perfev_counts *out);
/* The stored readings summed over every CPU and thread. */
PERFEV_API int perfev_evsel__counts_total(const struct perfev_evsel *evsel, struct perfev_counts *out);

/*
 * val scaled for multiplexing: val * ena / run, in 128-bit arithmetic so
 * nothing overflows; val itself when ena == run; 0 when run is 0 (the
 * counter never ran: report it as "not counted").  Saturates at UINT64_MAX.
 */
PERFEV_API uint64_t perfev_scale(uint64_t val, uint64_t ena, uint64_t run);
PERFEV_API uint64_t perfev_counts__scaled(const struct perfev_counts *c);
/* Percentage of enabled time the counter ran (100 when not multiplexed). */
PERFEV_API double perfev_counts__running_pct(const struct perfev_counts *c);

/*
 * Decodes what read(2) of a perf event fd returns (or a PERF_SAMPLE_READ
 * value) for the given read_format.  Fills up to max entries of out (one,
 * or one per group member with PERF_FORMAT_GROUP; ena/run copied into each)
 * and returns how many the buffer holds, or -PERFEV_ERR_FORMAT when len is
 * short or the member count is implausible.
 */
PERFEV_API int perfev_read_format__parse(uint64_t read_format, const void *buf, size_t len,
					 struct perfev_counts *out, size_t max);
/* Bytes read(2) returns for read_format with nr members (0 on overflow). */
PERFEV_API size_t perfev_read_format__size(uint64_t read_format, uint64_t nr);

/*
 * perf_event_open(2): fills attr->size when 0, adds PERF_FLAG_FD_CLOEXEC,
 * returns the fd or -errno.
 */
PERFEV_API int perfev_event_open(struct perf_event_attr *attr, pid_t pid, int cpu, int group_fd,
				 unsigned long flags);
/*
 * Writes into buf what an open failure err (negative errno) of the event
 * named name means and what to do about it: perf_event_paranoid and
 * CAP_PERFMON for EACCES/EPERM, a missing PMU for ENOENT/EOPNOTSUPP, the
 * attribute fields likely at fault for EINVAL, and so on.
 */
PERFEV_API int perfev_explain_open_error(int err, const struct perf_event_attr *attr,
					 const char *name, char *buf, size_t size);

/*
 * Sampling: maps one ring per CPU of the list (per-CPU lists) or per thread
 * (lists opened on "any CPU"), and redirects every other open event of that
 * CPU or thread into it with PERF_EVENT_IOC_SET_OUTPUT, as perf does, so a
 * recorder drains nr_rings buffers whatever the number of events.  The
 * first open event of a CPU or thread (in list order; unsupported ones are
 * skipped) owns its ring.  The ring fds are added to an epoll set that
 * perfev_evlist__poll() waits on.  Call after perfev_evlist__open();
 * perfev_evlist__close() unmaps.  Fails with -EINVAL, before asking the
 * kernel, when an inherited event is opened per thread (the kernel maps
 * inherited events only per CPU) or when an event's write_backward does
 * not match overwrite.
 */
struct perfev_mmap_opts {
	size_t sz;	   /* sizeof(struct perfev_mmap_opts) */
	size_t data_pages; /* per ring, power of two; 0 means 128 */
	bool overwrite;	   /* read-only rings (events need write_backward) */
	size_t aux_pages;  /* AUX area per ring, 0 for none */
	size_t :0;
};

struct perfev_ring;
PERFEV_API int perfev_evlist__mmap(struct perfev_evlist *evlist, const struct perfev_mmap_opts *opts);
/* Unmaps every ring and empties the epoll set, caller's fds included. */
PERFEV_API void perfev_evlist__munmap(struct perfev_evlist *evlist);
PERFEV_API int perfev_evlist__nr_rings(const struct perfev_evlist *evlist);
PERFEV_API struct perfev_ring *perfev_evlist__ring(const struct perfev_evlist *evlist, int idx);
/* The CPU ring idx collects (-1 for a per-thread ring). */
PERFEV_API int perfev_evlist__ring_cpu(const struct perfev_evlist *evlist, int idx);
/*
 * Waits up to timeout_ms (-1: forever) for a ring to reach its wakeup
 * point (attr.wakeup_events / wakeup_watermark), for a monitored task to
 * exit (POLLHUP) or for a caller's fd to become readable, and returns how
 * many fds (rings and the caller's) are ready, 0 on timeout, or -errno
 * (-EINTR when a signal arrived).  *hup (may be NULL) is set to the number
 * of ring fds that reported POLLHUP or POLLERR in this call.  A ring that
 * hung up leaves the epoll set, so it is reported once and later waits do
 * not return at once because of it; its records stay readable.  A recorder
 * stops when the hups add up to nr_rings: a wait on an empty set with
 * timeout -1 would never return.
 */
PERFEV_API int perfev_evlist__poll(struct perfev_evlist *evlist, int timeout_ms, int *hup);
/*
 * Adds a caller's fd (a signal pipe, a pidfd) to the epoll set, so that
 * perfev_evlist__poll() also returns when it becomes readable.
 */
PERFEV_API int perfev_evlist__add_pollfd(struct perfev_evlist *evlist, int fd);
/* The event whose kernel id is id (PERF_SAMPLE_IDENTIFIER / ID), or NULL. */
PERFEV_API struct perfev_evsel *perfev_evlist__evsel_by_id(const struct perfev_evlist *evlist,
							  uint64_t id);

/* Enables / disables every counter attached to the calling process (prctl). */
PERFEV_API int perfev_process_events_enable(void);
PERFEV_API int perfev_process_events_disable(void);

#ifdef __cplusplus
}
#endif
#endif
