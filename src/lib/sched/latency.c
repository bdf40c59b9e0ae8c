/* SPDX-License-Identifier: MIT */
/*
 * perf sched latency: each thread's last wait (perf's work atom), how it
 * ends (a switch-in after a wakeup or a preemption), and the sums; then
 * lines per command (threads of one name merged) sorted by perf's keys.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util/internal.h"
#include "sched/sched_int.h"

/* A new wait begins: switched out in state c at time (perf's add_sched_out_event). */
static void sched_out(struct lat *l, char c, uint64_t time)
{
	l->seen = true;
	l->sched_out_time = time;
	if (c == 'R') {
		/* Preempted: runnable from this moment. */
		l->state = LAT_WAIT_CPU;
		l->wake_up_time = time;
	} else {
		l->state = LAT_SLEEPING;
		l->wake_up_time = 0;
	}
}

static void sched_in(struct lat *l, uint64_t time)
{
	uint64_t delta;

	if (!l->seen || l->state != LAT_WAIT_CPU)
		return;
	if (time < l->wake_up_time) {
		l->state = LAT_IGNORE;
		return;
	}
	l->state = LAT_SCHED_IN;
	delta = time - l->wake_up_time;
	l->total_lat += delta;
	if (delta > l->max_lat) {
		l->max_lat = delta;
		l->max_start = l->wake_up_time;
		l->max_end = time;
	}
	l->nr_atoms++;
}

int lat_switch(struct perfev_sched *sc, uint32_t cpu, uint64_t time, int prev_pid, int next_pid,
	       char prev_state)
{
	struct task *out = sched_task(sc, -1, prev_pid), *in;

	(void)cpu;
	if (!out)
		return -ENOMEM;
	sched_out(&out->lat, prev_state, time);
	in = sched_task(sc, -1, next_pid);
	if (!in)
		return -ENOMEM;
	/* A thread first heard of as it comes in: runnable until now. */
	if (!in->lat.seen)
		sched_out(&in->lat, 'R', time);
	sched_in(&in->lat, time);
	return 0;
}

int lat_runtime(struct perfev_sched *sc, uint64_t time, int pid, uint64_t runtime)
{
	struct task *t = sched_task(sc, -1, pid);

	if (!t)
		return -ENOMEM;
	if (!t->lat.seen)
		sched_out(&t->lat, 'R', time);
	t->lat.total_runtime += runtime;
	return 0;
}

int lat_wakeup(struct perfev_sched *sc, uint64_t time, int pid)
{
	struct task *t = sched_task(sc, -1, pid);
	struct lat *l;

	if (!t)
		return -ENOMEM;
	l = &t->lat;
	if (!l->seen)
		sched_out(l, 'S', time);
	/*
	 * A wakeup of a thread not asleep (one still on its run queue, whose
	 * state only went back to running) does not start a wait.
	 */
	if (l->state != LAT_SLEEPING)
		return 0;
	sc->stats.nr_timestamps++;
	if (l->sched_out_time > time) {
		sc->stats.nr_unordered++;
		return 0;
	}
	l->state = LAT_WAIT_CPU;
	l->wake_up_time = time;
	return 0;
}

/* perf's pre-sort order: per command, the names from greatest; per thread, tids likewise. */
static int by_comm_desc(const void *a, const void *b)
{
	const struct perfev_sched_latency *x = a, *y = b;
	int c = strcmp(y->comm, x->comm);

	return c ? c : (y->tid > x->tid) - (y->tid < x->tid);
}

static int by_tid_desc(const void *a, const void *b)
{
	const struct perfev_sched_latency *x = a, *y = b;

	return (y->tid > x->tid) - (y->tid < x->tid);
}

int lat_make(struct perfev_sched *sc)
{
	size_t nr = sc->nr_tasks + sc->nr_retired;
	struct perfev_sched_latency *v = calloc(nr ? nr : 1, sizeof(*v));
	size_t n = 0, out = 0;

	if (!v)
		return set_error(ENOMEM, "out of memory");
	/* Threads replaced by a new one of their tid keep lines of their own, as in perf. */
	for (size_t i = 0; i < nr; i++) {
		struct task *t = i < sc->nr_tasks ? sc->tasks[i] : sc->retired[i - sc->nr_tasks];
		struct perfev_sched_latency *e = &v[n];

		if (!t->lat.seen)
			continue;
		e->comm = sched_task_comm(sc, t);
		e->tid = t->tid;
		e->runtime = t->lat.total_runtime;
		e->nr_switches = t->lat.nr_atoms;
		e->total_delay = t->lat.total_lat;
		e->max_delay = t->lat.max_lat;
		e->max_start = t->lat.max_start;
		e->max_end = t->lat.max_end;
		n++;
	}
	/* The threads in perf's tree order (by tid, the greatest first), then merged per name. */
	sort_array(v, n, sizeof(*v), by_tid_desc);
	if (!sc->opts.per_thread) {
		/* Stable: the first thread of a name (the greatest tid) keeps the line. */
		struct perfev_sched_latency *m = calloc(n ? n : 1, sizeof(*m));
		size_t nm = 0;

		if (!m) {
			free(v);
			return set_error(ENOMEM, "out of memory");
		}
		sort_array(v, n, sizeof(*v), by_comm_desc);
		for (size_t i = 0; i < n; i++) {
			struct perfev_sched_latency *e = nm ? &m[nm - 1] : NULL;

			if (!e || strcmp(e->comm, v[i].comm)) {
				m[nm] = v[i];
				m[nm++].nr_merged = 1;
				continue;
			}
			e->nr_merged++;
			e->runtime += v[i].runtime;
			e->nr_switches += v[i].nr_switches;
			e->total_delay += v[i].total_delay;
			if (e->max_delay < v[i].max_delay) {
				e->max_delay = v[i].max_delay;
				e->max_start = v[i].max_start;
				e->max_end = v[i].max_end;
			}
		}
		free(v);
		v = m;
		n = nm;
	}
	/* Lines with nothing measured, and the idle task, are not shown. */
	for (size_t i = 0; i < n; i++)
		if (v[i].nr_switches && strcmp(v[i].comm, "swapper"))
			v[out++] = v[i];
	free(sc->lats);
	sc->lats = v;
	sc->nr_lats = out;
	return 0;
}

/* Sort keys, as perf sched latency -s names them. */
enum key { K_AVG, K_MAX, K_SWITCH, K_RUNTIME, K_PID };

static uint64_t key_value(const struct perfev_sched_latency *e, enum key k)
{
	switch (k) {
	case K_AVG:
		return e->nr_switches ? e->total_delay / e->nr_switches : 0;
	case K_MAX:
		return e->max_delay;
	case K_SWITCH:
		return e->nr_switches;
	case K_RUNTIME:
		return e->runtime;
	case K_PID:
		return (uint64_t)(int64_t)e->tid;
	}
	return 0;
}

struct sort_ctx {
	enum key keys[16];
	size_t nr;
};

static int parse_keys(const char *s, struct sort_ctx *c)
{
	static const char *const names[] = { "avg", "max", "switch", "runtime", "pid" };
	char *dup = strdup(s), *save = NULL;
	int err = 0;

	if (!dup)
		return set_error(ENOMEM, "out of memory");
	c->nr = 0;
	for (char *t = strtok_r(dup, ", ", &save); t && !err; t = strtok_r(NULL, ", ", &save)) {
		size_t i;

		for (i = 0; i < ARRAY_SIZE(names) && strcmp(t, names[i]); i++)
			;
		if (i == ARRAY_SIZE(names))
			err = set_error(EINVAL, "unknown sort key '%s'; the keys are avg, max, switch, "
					"runtime and pid", t);
		else if (c->nr < ARRAY_SIZE(c->keys))
			c->keys[c->nr++] = (enum key)i;
	}
	free(dup);
	if (!err && !c->nr)
		err = set_error(EINVAL, "no sort key given; the keys are avg, max, switch, runtime "
				"and pid");
	return err ? -EINVAL : 0;
}

/* Descending by the keys; a merge sort, so that ties keep their order as perf's tree does. */
static int cmp_keys(const struct sort_ctx *c, const struct perfev_sched_latency *a,
		    const struct perfev_sched_latency *b)
{
	for (size_t i = 0; i < c->nr; i++) {
		uint64_t x = key_value(a, c->keys[i]), y = key_value(b, c->keys[i]);

		if (c->keys[i] == K_PID) {
			if ((int64_t)x != (int64_t)y)
				return (int64_t)x > (int64_t)y ? -1 : 1;
		} else if (x != y) {
			return x > y ? -1 : 1;
		}
	}
	return 0;
}

static void merge_sort(const struct sort_ctx *c, struct perfev_sched_latency *v,
		       struct perfev_sched_latency *tmp, size_t n)
{
	size_t mid = n / 2, i = 0, j = mid, k = 0;

	if (n < 2)
		return;
	merge_sort(c, v, tmp, mid);
	merge_sort(c, v + mid, tmp, n - mid);
	while (i < mid && j < n)
		tmp[k++] = cmp_keys(c, &v[j], &v[i]) < 0 ? v[j++] : v[i++];
	while (i < mid)
		tmp[k++] = v[i++];
	while (j < n)
		tmp[k++] = v[j++];
	memcpy(v, tmp, n * sizeof(*v));
}

int perfev_sched__sort_latencies(struct perfev_sched *sc, const char *keys)
{
	struct sort_ctx c;
	struct perfev_sched_latency *tmp;
	char *dup;
	int err;

	if (!sc || !keys)
		return set_error(EINVAL, "no sched or sort keys given");
	err = parse_keys(keys, &c);
	if (err)
		return err;
	dup = strdup(keys);
	if (!dup)
		return set_error(ENOMEM, "out of memory");
	free(sc->sort_keys);
	sc->sort_keys = dup;
	if (!sc->results_made)
		return 0;
	/* From the unsorted order again, so that sorting twice is sorting once. */
	err = lat_make(sc);
	if (err)
		return err;
	tmp = malloc((sc->nr_lats ? sc->nr_lats : 1) * sizeof(*tmp));
	if (!tmp)
		return set_error(ENOMEM, "out of memory");
	merge_sort(&c, sc->lats, tmp, sc->nr_lats);
	free(tmp);
	return 0;
}
