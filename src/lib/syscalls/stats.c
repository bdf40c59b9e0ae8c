/* SPDX-License-Identifier: MIT */
/*
 * Per-thread syscall statistics: each thread's pending entry, paired with
 * its return into calls, errors and latency per syscall number.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/idxhash.h"
#include "util/internal.h"
#include "syscalls/syscalls_int.h"

/* The kernel returns errors as -1..-MAX_ERRNO (include/linux/err.h). */
#define MAX_ERRNO 4095

struct sthread {
	struct perfev_syscall_thread pub;
	char *comm;
	bool pending;	 /* entered a syscall not yet returned from */
	long pending_nr;
	uint64_t entry_time;
	struct perfev_syscall_stat *sc; /* by first call */
	size_t nr_sc, cap_sc;
	struct perfev_syscall_stat *sorted;
};

struct perfev_syscall_stats {
	long forks[4]; /* clone, clone3, fork, vfork on the arch; -1 where it has none */
	struct sthread **threads;
	size_t nr_threads, cap_threads;
	struct idxhash by_tid;
	uint64_t nr_events;
	bool sorted;
	struct sthread **order;
	size_t nr_order;
};

struct perfev_syscall_stats *perfev_syscall_stats__new(const char *arch)
{
	static const char *const forks[] = { "clone", "clone3", "fork", "vfork" };
	struct perfev_syscall_stats *st = calloc(1, sizeof(*st));

	if (!st)
		return set_error_ptr(ENOMEM, "out of memory");
	for (size_t i = 0; i < ARRAY_SIZE(forks); i++) {
		st->forks[i] = perfev_syscall__nr(arch, forks[i]);
		if (st->forks[i] < 0)
			st->forks[i] = -1;
	}
	return st;
}

/* A new thread's first event: its return from the clone that made it, never entered. */
static bool fork_return(const struct perfev_syscall_stats *st, const struct sthread *t, long nr,
			long ret)
{
	if (t->pub.nr_events || t->pending || ret != 0)
		return false;
	for (size_t i = 0; i < ARRAY_SIZE(st->forks); i++)
		if (st->forks[i] == nr)
			return true;
	return false;
}

void perfev_syscall_stats__delete(struct perfev_syscall_stats *st)
{
	if (!st)
		return;
	for (size_t i = 0; i < st->nr_threads; i++) {
		free(st->threads[i]->comm);
		free(st->threads[i]->sc);
		free(st->threads[i]->sorted);
		free(st->threads[i]);
	}
	free(st->threads);
	free(st->order);
	idxhash_free(&st->by_tid);
	free(st);
}

struct tid_key {
	const struct perfev_syscall_stats *st;
	int tid;
};

static bool tid_eq(const void *ctx, uint32_t idx)
{
	const struct tid_key *k = ctx;

	return k->st->threads[idx]->pub.tid == k->tid;
}

static struct sthread *find_thread(struct perfev_syscall_stats *st, int tid)
{
	struct tid_key k = { st, tid };
	int64_t i = idxhash_find(&st->by_tid, hash_mix((uint32_t)tid, 7), tid_eq, &k);

	return i < 0 ? NULL : st->threads[i];
}

static struct sthread *get_thread(struct perfev_syscall_stats *st, int pid, int tid)
{
	struct sthread *t = find_thread(st, tid);

	if (t) {
		if (t->pub.pid <= 0 && pid > 0)
			t->pub.pid = pid;
		return t;
	}
	if (st->nr_threads >= UINT32_MAX - 1 ||
	    !array_grow((void **)&st->threads, &st->cap_threads, st->nr_threads + 1,
			sizeof(*st->threads)))
		return set_error_ptr(ENOMEM, "out of memory");
	t = calloc(1, sizeof(*t));
	if (!t || idxhash_insert(&st->by_tid, hash_mix((uint32_t)tid, 7), (uint32_t)st->nr_threads)) {
		free(t);
		return set_error_ptr(ENOMEM, "out of memory");
	}
	t->pub.pid = pid;
	t->pub.tid = tid;
	st->threads[st->nr_threads++] = t;
	st->sorted = false;
	return t;
}

int perfev_syscall_stats__enter(struct perfev_syscall_stats *st, int pid, int tid, uint64_t time,
				long nr)
{
	struct sthread *t = get_thread(st, pid, tid);

	if (!t)
		return -ENOMEM;
	/* A pending entry that never returned (exit_group, or its exit lost) is dropped. */
	t->pending = true;
	t->pending_nr = nr;
	t->entry_time = time;
	t->pub.nr_events++;
	st->nr_events++;
	st->sorted = false;
	return 0;
}

static struct perfev_syscall_stat *find_stat(struct sthread *t, long nr)
{
	for (size_t i = 0; i < t->nr_sc; i++)
		if (t->sc[i].nr == nr)
			return &t->sc[i];
	if (!array_grow((void **)&t->sc, &t->cap_sc, t->nr_sc + 1, sizeof(*t->sc)))
		return set_error_ptr(ENOMEM, "out of memory");
	memset(&t->sc[t->nr_sc], 0, sizeof(t->sc[0]));
	t->sc[t->nr_sc].nr = nr;
	t->sc[t->nr_sc].min_ns = UINT64_MAX;
	return &t->sc[t->nr_sc++];
}

int perfev_syscall_stats__exit(struct perfev_syscall_stats *st, int pid, int tid, uint64_t time,
			       long nr, long ret)
{
	struct sthread *t = get_thread(st, pid, tid);
	struct perfev_syscall_stat *s;
	uint64_t d = 0;
	double delta;

	if (!t)
		return -ENOMEM;
	if (fork_return(st, t, nr, ret)) {
		t->pub.nr_events++;
		st->nr_events++;
		return 0;
	}
	if (!(s = find_stat(t, nr)))
		return -ENOMEM;
	/* Without its entry (the execve tracing began in), a call of no measured length. */
	if (t->pending && t->pending_nr == nr && time > t->entry_time)
		d = time - t->entry_time;
	t->pending = false;
	s->calls++;
	if (ret < 0 && ret >= -MAX_ERRNO)
		s->errors++;
	s->total_ns += d;
	if (d < s->min_ns)
		s->min_ns = d;
	if (d > s->max_ns)
		s->max_ns = d;
	delta = (double)d - s->mean_ns;
	s->mean_ns += delta / (double)s->calls;
	s->m2 += delta * ((double)d - s->mean_ns);
	t->pub.nr_events++;
	st->nr_events++;
	st->sorted = false;
	return 0;
}

int perfev_syscall_stats__sample(struct perfev_syscall_stats *st, const struct perfev_tp_format *f,
				 int pid, int tid, uint64_t time, const void *raw, size_t size)
{
	const char *sys = perfev_tp_format__system(f), *name = perfev_tp_format__name(f);
	bool enter;
	uint64_t id, ret = 0;
	int err;

	if (strcmp(sys, "raw_syscalls"))
		return 0;
	if (!strcmp(name, "sys_enter"))
		enter = true;
	else if (!strcmp(name, "sys_exit"))
		enter = false;
	else
		return 0;
	const char *field = "id";

	err = perfev_tp_format__int(f, field, raw, size, &id);
	if (!err && !enter)
		err = perfev_tp_format__int(f, field = "ret", raw, size, &ret);
	if (err == -ENOENT)
		return set_error(PERFEV_ERR_FORMAT, "raw_syscalls:%s has no field '%s' in its format",
				 name, field);
	if (err)
		return set_error(PERFEV_ERR_FORMAT,
				 "a raw_syscalls:%s sample of %zu bytes is too short for its fields",
				 name, size);
	/* -1: no syscall (a task that was not in one when tracing began, or a bad number). */
	if ((long)id < 0)
		return 0;
	err = enter ? perfev_syscall_stats__enter(st, pid, tid, time, (long)id)
		    : perfev_syscall_stats__exit(st, pid, tid, time, (long)id, (long)ret);
	return err ? err : 1;
}

int perfev_syscall_stats__comm(struct perfev_syscall_stats *st, int pid, int tid, const char *comm)
{
	struct sthread *t = get_thread(st, pid, tid);
	char *c;

	if (!t)
		return -ENOMEM;
	if (t->comm && !strcmp(t->comm, comm))
		return 0;
	c = strdup(comm);
	if (!c)
		return set_error(ENOMEM, "out of memory");
	free(t->comm);
	t->comm = c;
	t->pub.comm = c;
	return 0;
}

int perfev_syscall_stats__fork(struct perfev_syscall_stats *st, int ptid, int pid, int tid)
{
	struct sthread *parent = find_thread(st, ptid);

	if (!parent || !parent->comm || ptid == tid)
		return get_thread(st, pid, tid) ? 0 : -ENOMEM;
	return perfev_syscall_stats__comm(st, pid, tid, parent->comm);
}

static int by_events(const void *a, const void *b)
{
	const struct sthread *x = *(struct sthread *const *)a, *y = *(struct sthread *const *)b;

	if (x->pub.nr_events != y->pub.nr_events)
		return x->pub.nr_events > y->pub.nr_events ? -1 : 1;
	return (x->pub.tid > y->pub.tid) - (x->pub.tid < y->pub.tid);
}

static int by_total(const void *a, const void *b)
{
	const struct perfev_syscall_stat *x = a, *y = b;

	if (x->total_ns != y->total_ns)
		return x->total_ns > y->total_ns ? -1 : 1;
	return (x->nr > y->nr) - (x->nr < y->nr);
}

/* The threads with calls in perf trace's order, each one's syscalls sorted. */
static int sort_all(struct perfev_syscall_stats *st)
{
	size_t n = 0;

	if (st->sorted)
		return 0;
	free(st->order);
	st->order = malloc((st->nr_threads ? st->nr_threads : 1) * sizeof(*st->order));
	if (!st->order)
		return set_error(ENOMEM, "out of memory");
	for (size_t i = 0; i < st->nr_threads; i++) {
		struct sthread *t = st->threads[i];

		if (!t->nr_sc)
			continue;
		free(t->sorted);
		t->sorted = malloc(t->nr_sc * sizeof(*t->sorted));
		if (!t->sorted)
			return set_error(ENOMEM, "out of memory");
		memcpy(t->sorted, t->sc, t->nr_sc * sizeof(*t->sorted));
		sort_array(t->sorted, t->nr_sc, sizeof(*t->sorted), by_total);
		t->pub.syscalls = t->sorted;
		t->pub.nr_syscalls = t->nr_sc;
		st->order[n++] = t;
	}
	sort_array(st->order, n, sizeof(*st->order), by_events);
	st->nr_order = n;
	st->sorted = true;
	return 0;
}

size_t perfev_syscall_stats__nr_threads(struct perfev_syscall_stats *st)
{
	return sort_all(st) ? 0 : st->nr_order;
}

const struct perfev_syscall_thread *perfev_syscall_stats__thread(struct perfev_syscall_stats *st,
								 size_t i)
{
	if (sort_all(st) || i >= st->nr_order)
		return NULL;
	return &st->order[i]->pub;
}

uint64_t perfev_syscall_stats__nr_events(const struct perfev_syscall_stats *st)
{
	return st->nr_events;
}

double perfev_syscall_stat__stddev_pct(const struct perfev_syscall_stat *s)
{
	double var;

	if (s->calls < 2 || s->mean_ns <= 0)
		return 0;
	var = s->m2 / (double)(s->calls - 1);
	return 100.0 * sqrt(var / (double)s->calls) / s->mean_ns;
}
