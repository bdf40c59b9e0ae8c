/* SPDX-License-Identifier: MIT */
/*
 * perfev: scheduler latency and a thread's time, from a recording of the
 * sched tracepoints (what `perfev sched record` and `perf sched record`
 * write: sched_switch, sched_waking or sched_wakeup, sched_wakeup_new,
 * sched_stat_runtime, sched_migrate_task), with perf sched's semantics:
 *
 * latency (perf sched latency): per thread (or per command, its threads
 * merged), the CPU time sched_stat_runtime reported, how many times it was
 * switched in after waiting, the delay from its wakeup (or its preemption)
 * to running, on average and at most, and when that longest delay began
 * and ended.
 *
 * timehist (perf sched timehist): at each switch-out of a thread, how long
 * it had waited off the CPU before this run (split into sleeping,
 * uninterruptible waiting and preempted by its state when it left), the
 * scheduling delay from its wakeup to this run, and how long it ran; a
 * thread's totals, and each CPU's idle time.
 *
 *	struct perfev_sched *sc = perfev_sched__new(NULL);
 *	perfev_sched__process(sc, session, on_row, ctx);   // rows in time order
 *	perfev_sched__sort_latencies(sc, "avg,max,switch,runtime");
 *	for (size_t i = 0; i < perfev_sched__nr_latencies(sc); i++)
 *		print(perfev_sched__latency(sc, i));
 *	perfev_sched__delete(sc);
 *
 * Task states come from sched_switch's prev_state, read the way the
 * event's print fmt names its bits (__print_flags), so S, D, T, t, X, Z,
 * P and I mean what the recording kernel said, and 0 (or a preempted
 * task's TASK_REPORT_MAX, "R+") is R, as today's perf reads them; latency
 * reads sched_waking too, as today's perf does (opts.perf61 for 6.1's
 * figures).  timehist's scheduling delay runs from a wakeup to the run, as
 * perf 6.1 has it (today's perf also counts a preempted thread's wait as
 * delay; that wait is its preempt time here).  The raw bytes are untrusted: a record too
 * short for its fields reads as zeros, as perf's libtraceevent does.
 */
#ifndef PERFEV_SCHED_H
#define PERFEV_SCHED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "perfev/common.h"
#include "perfev/session.h"

#ifdef __cplusplus
extern "C" {
#endif

struct perfev_sched;

struct perfev_sched_opts {
	size_t sz; /* sizeof(struct perfev_sched_opts) */
	/* Latency per thread, not per command (perf sched latency -p). */
	bool per_thread;
	/* Count migrations (sched_migrate_task) and deliver their rows (timehist -M). */
	bool migrations;
	/* Deliver wakeup rows (timehist -w). */
	bool wakeups;
	/*
	 * As Linux perf 6.1 computes them, for comparing with it: latency
	 * reads sched_wakeup and sched_wakeup_new but not sched_waking (which
	 * perf 6.1's own sched record takes instead of sched_wakeup where the
	 * kernel has it, so its wakeups go unseen), and takes only a
	 * prev_state of 0 for runnable (not a task preempted in the kernel,
	 * "R+"); timehist names states by perf 6.1's table ("K" for the idle
	 * state "I") and counts an "R+" wait as sleep.
	 */
	bool perf61;
	size_t :0;
};
#define perfev_sched_opts__last_field perf61

/* NULL with errno (EINVAL for bad opts, ENOMEM). */
PERFEV_API struct perfev_sched *perfev_sched__new(const struct perfev_sched_opts *opts);
/* Accepts NULL. */
PERFEV_API void perfev_sched__delete(struct perfev_sched *sc);

enum perfev_sched_row_kind {
	PERFEV_SCHED_ROW_SWITCH,  /* a thread (or a CPU's idle task) left the CPU */
	PERFEV_SCHED_ROW_WAKEUP,  /* a thread woke another */
	PERFEV_SCHED_ROW_MIGRATE, /* a thread moved another to a CPU */
};

/* A thread as timehist names it. */
struct perfev_sched_thread {
	const char *comm; /* its name; "<idle>" for a CPU's idle task */
	int pid, tid;	  /* 0 and 0 for the idle task */
};

/* One line of timehist; times in nanoseconds. */
struct perfev_sched_row {
	enum perfev_sched_row_kind kind;
	uint64_t time;
	uint32_t cpu;
	/* SWITCH: the thread that left; WAKEUP, MIGRATE: the thread that woke or moved the other. */
	struct perfev_sched_thread thread;
	/* SWITCH: the time off the CPU before this run (sleep + iowait + preempt), its parts by
	 * the state the thread left in last time, the delay from its wakeup to this run, and
	 * this run's length. */
	uint64_t wait, sleep, iowait, preempt, delay, run;
	char state; /* SWITCH: the state it left in now ('R', 'S', 'D', ...; 'I' for idle) */
	/* SWITCH: the thread switched in (next_comm, next_pid). */
	const char *next_comm;
	int next_pid;
	/* WAKEUP, MIGRATE: the thread woken or moved; MIGRATE: from and to which CPU. */
	struct perfev_sched_thread other;
	int orig_cpu, dest_cpu;
};

/* Return non-zero to stop; perfev_sched__process() returns it. */
typedef int (*perfev_sched_row_fn)(void *ctx, const struct perfev_sched_row *row);

/*
 * Reads the session's samples (perfev_session__process()) and accounts
 * every sched tracepoint sample, calling fn (may be NULL) for each row.
 * The file's tracing data give the events' formats.  0, fn's return, a
 * negative error of the session, or -PERFEV_ERR_FORMAT (no tracing data,
 * or a sched tracepoint's format lacks a field these need), -ENOENT (the
 * file has no sched:sched_switch event: "record it with perfev sched
 * record"), with perfev_last_error() saying which.  Once per sched.
 */
PERFEV_API int perfev_sched__process(struct perfev_sched *sc, struct perfev_session *s,
				     perfev_sched_row_fn fn, void *ctx);

/* One line of perf sched latency; times in nanoseconds. */
struct perfev_sched_latency {
	const char *comm;
	int tid;	     /* of the thread (per command: of one of them) */
	unsigned nr_merged;  /* threads of this command merged into the line; 0 per thread */
	uint64_t runtime;    /* sched_stat_runtime's sum */
	uint64_t nr_switches; /* runs that followed a wait measured */
	uint64_t total_delay, max_delay;
	uint64_t max_start, max_end; /* when the longest delay began (wakeup) and ended (run) */
};

/*
 * Orders the latency lines by keys, comma- or space-separated, each line
 * before those it is greater than by the first key that differs (perf's
 * -s): avg, max, switch, runtime, pid; lines that tie keep the order of
 * their commands' names, the greatest first (of tids per thread).  0 or
 * -EINVAL naming a bad key.  The default order is "avg,max,switch,runtime".
 */
PERFEV_API int perfev_sched__sort_latencies(struct perfev_sched *sc, const char *keys);
/* The lines with at least one switch, idle tasks (swapper) left out. */
PERFEV_API size_t perfev_sched__nr_latencies(struct perfev_sched *sc);
PERFEV_API const struct perfev_sched_latency *perfev_sched__latency(struct perfev_sched *sc,
								    size_t i);

/* A thread's totals (timehist -s); times in nanoseconds. */
struct perfev_sched_task {
	struct perfev_sched_thread thread;
	int ppid;	   /* the thread that created it, or -1 */
	bool exited;	   /* an EXIT record said it ended */
	uint64_t nr_runs;  /* its switch-outs with a known switch-in: perf's sched-in count */
	uint64_t run, run_min, run_max;
	double run_mean, run_stddev_pct; /* relative standard deviation of the mean, percent */
	uint64_t sleep, iowait, preempt, delay;
	uint64_t migrations;
};
/*
 * The threads with at least one run, in the order perf 6.1 lists them
 * (tid modulo 256, then tid); a CPU's idle task by perfev_sched__idle().
 */
PERFEV_API size_t perfev_sched__nr_tasks(struct perfev_sched *sc);
PERFEV_API const struct perfev_sched_task *perfev_sched__task(struct perfev_sched *sc, size_t i);
/* How many CPUs have an idle slot (perf's table of them); NULL for one never seen. */
PERFEV_API size_t perfev_sched__nr_cpus(const struct perfev_sched *sc);
PERFEV_API const struct perfev_sched_task *perfev_sched__idle(struct perfev_sched *sc, size_t cpu);

struct perfev_sched_stats {
	uint64_t first_switch, last_switch; /* the span timehist covers */
	uint32_t max_cpu;		    /* CPUs online when recorded, or the highest seen */
	uint64_t nr_events;		    /* records in the file */
	uint64_t nr_lost_events, nr_lost_chunks;
	uint64_t nr_timestamps, nr_unordered; /* wakeups of sleeping threads; those out of order */
	uint64_t nr_switch_bugs; /* switches away from a thread that was not the CPU's */
};
PERFEV_API const struct perfev_sched_stats *perfev_sched__stats(const struct perfev_sched *sc);

#ifdef __cplusplus
}
#endif
#endif
