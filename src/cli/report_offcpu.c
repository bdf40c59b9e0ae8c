/* SPDX-License-Identifier: MIT */
/*
 * perfev report's off-CPU side: per thread, its on-CPU time (the clock
 * event's samples) and its waits by state, and the wall-clock table that
 * sums them per thread.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "report.h"

/* The states a thread waits in, in the order of the table's columns; the rest are "other". */
static const char wait_states[] = "SDR";

bool report_is_clock(const struct perf_event_attr *a)
{
	return a && a->type == PERF_TYPE_SOFTWARE &&
	       (a->config == PERF_COUNT_SW_CPU_CLOCK || a->config == PERF_COUNT_SW_TASK_CLOCK);
}

static int state_col(char state)
{
	const char *p = state ? strchr(wait_states, state) : NULL;

	return p ? (int)(p - wait_states) : 3;
}

bool report_wall_add(struct report_wall *w, const struct perfev_session_sample *ss)
{
	const struct perfev_thread *t = ss->thread;
	int tid = perfev_thread__tid(t);
	struct wall_thread *e = NULL;

	for (size_t i = w->nr; i-- > 0;)
		if (w->t[i].tid == tid && w->t[i].pid == perfev_thread__pid(t)) {
			e = &w->t[i];
			break;
		}
	if (!e) {
		struct wall_thread *n;

		if (w->nr == w->cap) {
			size_t cap = w->cap ? w->cap * 2 : 16;

			if (!(n = realloc(w->t, cap * sizeof(*n))))
				return false;
			w->t = n;
			w->cap = cap;
		}
		e = &w->t[w->nr++];
		memset(e, 0, sizeof(*e));
		e->pid = perfev_thread__pid(t);
		e->tid = tid;
	}
	e->comm = perfev_thread__comm(t);
	if (ss->off_cpu_state)
		e->off[state_col(ss->off_cpu_state)] += ss->period;
	else
		e->on += ss->period;
	return true;
}

static uint64_t off_total(const struct wall_thread *t)
{
	return t->off[0] + t->off[1] + t->off[2] + t->off[3];
}

static int by_wall(const void *a, const void *b)
{
	const struct wall_thread *x = a, *y = b;
	uint64_t wx = x->on + off_total(x), wy = y->on + off_total(y);

	if (wx != wy)
		return wx > wy ? -1 : 1;
	return x->tid - y->tid;
}

void report_wall_print(FILE *f, struct report_wall *w, const char *clock)
{
	qsort(w->t, w->nr, sizeof(*w->t), by_wall);
	fprintf(f, "# Wall-clock time per thread, in ms: on-CPU from the '%s' samples, off-CPU from "
		   "the waits by state\n# (S sleeping, D uninterruptible, R preempted while runnable)\n#\n",
		clock);
	fprintf(f, "# %7s %7s  %-16s %10s %10s %10s %10s %10s %10s %10s\n", "Pid", "Tid", "Command",
		"Wall", "On-CPU", "Off-CPU", "S", "D", "R", "Other");
	for (size_t i = 0; i < w->nr; i++) {
		const struct wall_thread *t = &w->t[i];
		uint64_t off = off_total(t);

		fprintf(f, "  %7d %7d  %-16s %10.3f %10.3f %10.3f %10.3f %10.3f %10.3f %10.3f\n", t->pid,
			t->tid, t->comm ? t->comm : "", (t->on + off) / 1e6, t->on / 1e6, off / 1e6,
			t->off[0] / 1e6, t->off[1] / 1e6, t->off[2] / 1e6, t->off[3] / 1e6);
	}
	fputs("\n", f);
}

void report_wall_free(struct report_wall *w)
{
	free(w->t);
	memset(w, 0, sizeof(*w));
}
