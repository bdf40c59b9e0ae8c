/* SPDX-License-Identifier: MIT */
/*
 * perf sched timehist: at each switch-out of a thread, the time since it
 * last left the CPU to when it came back (its wait, by the state it left
 * in), the delay from its wakeup to that switch-in, and the run since;
 * each CPU's idle task counted as a thread of its own.  Linux perf 6.1's
 * rules, so the totals agree with it: the CPU's previous switch is this
 * run's start; a wakeup starts the scheduling delay only when none is
 * pending; a switch-out clears it (so a preempted thread's wait is its
 * preempt time, not a delay).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/internal.h"
#include "sched/sched_int.h"

static void update_runtime(struct th *r, uint64_t t, uint64_t tprev)
{
	double delta;

	r->dt_delay = r->dt_sleep = r->dt_iowait = r->dt_preempt = r->dt_run = 0;
	if (tprev) {
		r->dt_run = t - tprev;
		/* A wakeup after the run began is out of order: no delay from it. */
		if (r->ready_to_run && r->ready_to_run <= tprev)
			r->dt_delay = tprev - r->ready_to_run;
		if (r->last_time && r->last_time <= tprev) {
			uint64_t dt_wait = tprev - r->last_time;

			if (r->last_state == 'R')
				r->dt_preempt = dt_wait;
			else if (r->last_state == 'D')
				r->dt_iowait = dt_wait;
			else
				r->dt_sleep = dt_wait;
		}
	}
	/* Every switch-out counts as a run, one of unknown start as of length 0 (as perf). */
	if (!r->n)
		r->run_min = UINT64_MAX;
	r->n++;
	delta = (double)r->dt_run - r->mean;
	r->mean += delta / (double)r->n;
	r->m2 += delta * ((double)r->dt_run - r->mean);
	if (r->dt_run > r->run_max)
		r->run_max = r->dt_run;
	if (r->dt_run < r->run_min)
		r->run_min = r->dt_run;
	r->total_run += r->dt_run;
	r->total_delay += r->dt_delay;
	r->total_sleep += r->dt_sleep;
	r->total_iowait += r->dt_iowait;
	r->total_preempt += r->dt_preempt;
}

static void fill_thread(struct perfev_sched *sc, struct task *t, bool idle,
			struct perfev_sched_thread *out)
{
	out->comm = idle ? "<idle>" : sched_task_comm(sc, t);
	out->pid = idle ? 0 : t->th_pid;
	out->tid = idle ? 0 : t->tid;
}

/* The first time timehist meets t: its pid as the records so far say, else pid. */
static void meet(struct perfev_sched *sc, struct task *t, int pid, uint64_t time)
{
	struct perfev_thread *st;

	if (t->th_pid_set)
		return;
	t->th_first = time;
	st = t->tid > 0 ? perfev_session__find_thread(sc->s, t->tid) : NULL;
	t->th_pid = st && perfev_thread__pid(st) != -1 ? perfev_thread__pid(st) : pid;
	t->th_pid_set = true;
}

/* The thread of the sample itself (perf's machine__findnew_thread(pid, tid ?: pid)). */
static struct task *sample_task(struct perfev_sched *sc, const struct perfev_session_sample *ss)
{
	uint64_t time = ss->ev->rec.sample.time;
	int pid = perfev_thread__pid(ss->thread), tid = perfev_thread__tid(ss->thread);
	struct task *t = sched_task(sc, pid, tid ? tid : pid);

	if (t)
		meet(sc, t, pid, time);
	return t;
}

int th_switch(struct perfev_sched *sc, const struct perfev_session_sample *ss, uint64_t time,
	      uint32_t cpu, int prev_pid, char state, char shown, const char *next_comm,
	      int next_pid, perfev_sched_row_fn fn, void *ctx)
{
	bool idle = prev_pid == 0;
	struct task *t = idle ? sched_idle_task(sc, cpu) : sample_task(sc, ss);
	uint64_t tprev;
	int ret = 0;

	if (!t || !sched_cpu_slots(sc, cpu))
		return -(errno ? errno : ENOMEM);
	tprev = sc->last_switch[cpu];
	t->has_th = true;
	update_runtime(&t->th, time, tprev);
	if (!sc->stats.first_switch)
		sc->stats.first_switch = time;
	sc->stats.last_switch = time;
	if (fn) {
		struct perfev_sched_row row = {
			.kind = PERFEV_SCHED_ROW_SWITCH,
			.time = time,
			.cpu = cpu,
			.wait = t->th.dt_sleep + t->th.dt_iowait + t->th.dt_preempt,
			.sleep = t->th.dt_sleep,
			.iowait = t->th.dt_iowait,
			.preempt = t->th.dt_preempt,
			.delay = t->th.dt_delay,
			.run = t->th.dt_run,
			.state = idle ? 'I' : shown,
			.next_comm = next_comm ? next_comm : "",
			.next_pid = next_pid,
			.orig_cpu = -1,
			.dest_cpu = -1,
		};

		fill_thread(sc, t, idle, &row.thread);
		ret = fn(ctx, &row);
	}
	t->th.last_time = time;
	t->th.last_state = state;
	t->th.ready_to_run = 0;
	sc->last_switch[cpu] = time;
	return ret;
}

int th_wakeup(struct perfev_sched *sc, const struct perfev_session_sample *ss, uint64_t time,
	      uint32_t cpu, int pid, perfev_sched_row_fn fn, void *ctx)
{
	struct task *t = sched_task(sc, 0, pid), *waker;

	if (!t)
		return -ENOMEM;
	meet(sc, t, 0, time);
	if (!t->th.ready_to_run)
		t->th.ready_to_run = time;
	if (fn && sc->opts.wakeups && (waker = sample_task(sc, ss))) {
		struct perfev_sched_row row = {
			.kind = PERFEV_SCHED_ROW_WAKEUP, .time = time, .cpu = cpu,
			.orig_cpu = -1, .dest_cpu = -1, .next_comm = "",
		};

		fill_thread(sc, waker, false, &row.thread);
		fill_thread(sc, t, false, &row.other);
		return fn(ctx, &row);
	}
	return 0;
}

int th_migrate(struct perfev_sched *sc, const struct perfev_session_sample *ss, uint64_t time,
	       uint32_t cpu, int pid, int orig, int dest, perfev_sched_row_fn fn, void *ctx)
{
	struct task *t = sched_task(sc, 0, pid), *mover;

	if (!t)
		return -ENOMEM;
	meet(sc, t, 0, time);
	t->th.migrations++;
	if (fn && (mover = sample_task(sc, ss))) {
		struct perfev_sched_row row = {
			.kind = PERFEV_SCHED_ROW_MIGRATE, .time = time, .cpu = cpu,
			.orig_cpu = orig, .dest_cpu = dest, .next_comm = "",
		};

		fill_thread(sc, mover, false, &row.thread);
		fill_thread(sc, t, false, &row.other);
		return fn(ctx, &row);
	}
	return 0;
}

static void fill_task(struct perfev_sched *sc, struct task *t, bool idle,
		      struct perfev_sched_task *o)
{
	const struct th *r = &t->th;
	double var;

	memset(o, 0, sizeof(*o));
	fill_thread(sc, t, idle, &o->thread);
	o->ppid = !idle && t->st ? perfev_thread__ppid(t->st) : -1;
	/*
	 * perf marks a thread dead when an EXIT record finds it: described by a
	 * record, or met by timehist, before it ended.
	 */
	if (!idle && t->st) {
		uint64_t end = perfev_thread__exit_time(t->st);

		o->exited = perfev_thread__exited(t->st) ||
			    (end && t->th_pid_set && t->th_first <= end);
	}
	o->nr_runs = r->n;
	o->run = r->total_run;
	o->run_min = r->n ? r->run_min : 0;
	o->run_max = r->run_max;
	o->run_mean = r->mean;
	if (r->n > 1 && r->mean > 0) {
		var = r->m2 / (double)(r->n - 1);
		o->run_stddev_pct = 100.0 * sqrt(var / (double)r->n) / r->mean;
	}
	o->sleep = r->total_sleep;
	o->iowait = r->total_iowait;
	o->preempt = r->total_preempt;
	o->delay = r->total_delay;
	o->migrations = r->migrations;
}

/* perf 6.1 walks its 256 tables of threads (by tid modulo 256), each in tid order. */
static int by_table(const void *a, const void *b)
{
	const struct perfev_sched_task *x = a, *y = b;
	unsigned bx = (unsigned)x->thread.tid & 255, by = (unsigned)y->thread.tid & 255;

	if (bx != by)
		return bx < by ? -1 : 1;
	return (x->thread.tid > y->thread.tid) - (x->thread.tid < y->thread.tid);
}

int th_make(struct perfev_sched *sc)
{
	size_t n = 0;

	free(sc->sum);
	free(sc->idle_sum);
	sc->sum = calloc(sc->nr_tasks ? sc->nr_tasks : 1, sizeof(*sc->sum));
	sc->idle_sum = calloc(sc->nr_idle ? sc->nr_idle : 1, sizeof(*sc->idle_sum));
	if (!sc->sum || !sc->idle_sum)
		return set_error(ENOMEM, "out of memory");
	for (size_t i = 0; i < sc->nr_tasks; i++)
		if (sc->tasks[i]->has_th && sc->tasks[i]->th.n)
			fill_task(sc, sc->tasks[i], false, &sc->sum[n++]);
	sort_array(sc->sum, n, sizeof(*sc->sum), by_table);
	sc->nr_sum = n;
	for (size_t i = 0; i < sc->nr_idle; i++)
		if (sc->idle[i])
			fill_task(sc, sc->idle[i], true, &sc->idle_sum[i]);
	return 0;
}
