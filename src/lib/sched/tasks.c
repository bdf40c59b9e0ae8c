/* SPDX-License-Identifier: MIT */
/* The threads sched/ accounts, by tid, and each CPU's idle task. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/internal.h"
#include "sched/sched_int.h"

/* perf keeps CPUs in tables of at most 4096 (MAX_CPUS): a higher number is a damaged record. */
#define SCHED_MAX_CPUS 4096

struct tid_key {
	const struct perfev_sched *sc;
	int tid;
};

static bool tid_eq(const void *ctx, uint32_t idx)
{
	const struct tid_key *k = ctx;

	return k->sc->tasks[idx]->tid == k->tid;
}

struct task *sched_find_task(struct perfev_sched *sc, int tid)
{
	struct tid_key k = { sc, tid };
	int64_t i = idxhash_find(&sc->by_tid, hash_mix((uint32_t)tid, 3), tid_eq, &k);

	return i < 0 ? NULL : sc->tasks[i];
}

/*
 * A FORK of the tid since t was last looked at made a new thread (perf
 * replaces its thread then): the old one's figures go to the retired, and
 * t starts afresh.
 */
static int check_new_thread(struct perfev_sched *sc, struct task *t)
{
	struct perfev_thread *st = t->tid > 0 ? perfev_session__find_thread(sc->s, t->tid) : NULL;
	uint64_t fork = st ? perfev_thread__fork_time(st) : 0;
	struct task *old;

	if (fork == t->fork_seen)
		return 0;
	if (t->lat.seen || t->has_th || t->th_pid_set) {
		if (!array_grow((void **)&sc->retired, &sc->cap_retired, sc->nr_retired + 1,
				sizeof(*sc->retired)) ||
		    !(old = malloc(sizeof(*old))))
			return set_error(ENOMEM, "out of memory");
		const char *c = sched_task_comm(sc, t);

		*old = *t;
		old->retired_comm = c == t->dflt ? old->dflt : c;
		sc->retired[sc->nr_retired++] = old;
		memset(t, 0, sizeof(*t));
		t->tid = old->tid;
		t->pid = st ? perfev_thread__pid(st) : old->pid;
	}
	t->fork_seen = fork;
	t->st = st;
	return 0;
}

struct task *sched_task(struct perfev_sched *sc, int pid, int tid)
{
	struct task *t = sched_find_task(sc, tid);

	if (t) {
		if (check_new_thread(sc, t) < 0)
			return NULL;
		if (t->pid <= 0 && pid > 0)
			t->pid = pid;
		return t;
	}
	if (sc->nr_tasks >= UINT32_MAX - 1 ||
	    !array_grow((void **)&sc->tasks, &sc->cap_tasks, sc->nr_tasks + 1, sizeof(*sc->tasks)))
		return set_error_ptr(ENOMEM, "out of memory");
	t = calloc(1, sizeof(*t));
	if (!t || idxhash_insert(&sc->by_tid, hash_mix((uint32_t)tid, 3), (uint32_t)sc->nr_tasks)) {
		free(t);
		return set_error_ptr(ENOMEM, "out of memory");
	}
	t->pid = pid;
	t->tid = tid;
	sc->tasks[sc->nr_tasks++] = t;
	if (check_new_thread(sc, t) < 0)
		return NULL;
	return t;
}

bool sched_cpu_slots(struct perfev_sched *sc, uint32_t cpu)
{
	size_t n = sc->nr_cpu_slots;

	if (cpu >= SCHED_MAX_CPUS) {
		set_error(PERFEV_ERR_FORMAT, "a sample on CPU %u: more CPUs than perf handles (%d)",
			  cpu, SCHED_MAX_CPUS);
		return false;
	}
	if (cpu < n)
		return true;
	n = 16;
	while (n <= cpu)
		n *= 2;
	uint64_t *a = realloc(sc->cpu_last_switched, n * sizeof(*a));
	if (a)
		sc->cpu_last_switched = a;
	uint64_t *b = realloc(sc->last_switch, n * sizeof(*b));
	if (b)
		sc->last_switch = b;
	int64_t *c = realloc(sc->curr_pid, n * sizeof(*c));
	if (c)
		sc->curr_pid = c;
	if (!a || !b || !c) {
		set_error(ENOMEM, "out of memory");
		return false;
	}
	for (size_t i = sc->nr_cpu_slots; i < n; i++) {
		a[i] = b[i] = 0;
		c[i] = -1;
	}
	sc->nr_cpu_slots = n;
	return true;
}

struct task *sched_idle_task(struct perfev_sched *sc, uint32_t cpu)
{
	if (cpu >= SCHED_MAX_CPUS)
		return set_error_ptr(PERFEV_ERR_FORMAT, "a sample on CPU %u", cpu);
	if (cpu >= sc->nr_idle) {
		/* As perf grows its table of idle tasks: to a power of two. */
		size_t n = 1;
		struct task **p;

		while (n <= cpu)
			n *= 2;
		p = realloc(sc->idle, n * sizeof(*p));
		if (!p)
			return set_error_ptr(ENOMEM, "out of memory");
		memset(p + sc->nr_idle, 0, (n - sc->nr_idle) * sizeof(*p));
		sc->idle = p;
		sc->nr_idle = n;
	}
	if (!sc->idle[cpu]) {
		sc->idle[cpu] = calloc(1, sizeof(struct task));
		if (!sc->idle[cpu])
			return set_error_ptr(ENOMEM, "out of memory");
	}
	return sc->idle[cpu];
}

/* The session's thread of tid, once a record named it. */
static struct perfev_thread *session_thread(struct perfev_sched *sc, struct task *t)
{
	if (!t->st && t->tid > 0)
		t->st = perfev_session__find_thread(sc->s, t->tid);
	return t->st;
}

const char *sched_task_comm(struct perfev_sched *sc, struct task *t)
{
	struct perfev_thread *st;

	if (t->retired_comm)
		return t->retired_comm;
	st = session_thread(sc, t);

	if (st)
		return perfev_thread__comm(st);
	if (t->tid == 0)
		return "swapper";
	snprintf(t->dflt, sizeof(t->dflt), ":%d", t->tid);
	return t->dflt;
}

void sched_tasks_free(struct perfev_sched *sc)
{
	for (size_t i = 0; i < sc->nr_tasks; i++)
		free(sc->tasks[i]);
	for (size_t i = 0; i < sc->nr_retired; i++)
		free(sc->retired[i]);
	free(sc->retired);
	free(sc->tasks);
	idxhash_free(&sc->by_tid);
	for (size_t i = 0; i < sc->nr_idle; i++)
		free(sc->idle[i]);
	free(sc->idle);
}
