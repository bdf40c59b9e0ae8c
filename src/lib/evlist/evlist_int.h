/* SPDX-License-Identifier: MIT */
/* Layouts of the evlist, evsel and map objects; library-internal. */
#ifndef PERFEV_EVLIST_INT_H
#define PERFEV_EVLIST_INT_H

#include "perfev/evlist.h"
#include "util/internal.h"

struct perfev_cpu_map {
	int nr;
	int cpus[];
};

/* A copy of map; NULL with errno set when memory runs out. */
struct perfev_cpu_map *cpu_map__dup(const struct perfev_cpu_map *map);

struct perfev_thread_map {
	int nr;
	pid_t tids[];
};

struct perfev_evsel {
	struct perf_event_attr attr;
	char *name;
	struct perfev_evlist *evlist;
	struct perfev_evsel *leader; /* itself for a leader or a lone event */
	int idx;		     /* position in the evlist */
	int group_idx;		     /* position in its group, 0 for the leader */
	int nr_members;		     /* a leader's group size, itself included */
	bool sample_read;	     /* ":S": samples carry every member's value */
	int *fds;		     /* [cpu_idx * nr_threads + thread_idx], -1 when closed */
	uint64_t *ids;
	struct perfev_counts *counts; /* latest readings, same indexing */
	int open_err;		      /* 0, or -errno of a failed open */
	char *open_errmsg;
	bool user_only;		      /* opened ":u" by the fallback_user_only option */
};

struct perfev_evlist {
	struct perfev_evsel **evsels;
	int nr, cap;
	struct perfev_cpu_map *cpus;
	struct perfev_thread_map *threads;
	bool open;
	int cgroup_fd;
	/* Sampling (sample/evlist_mmap.c): one ring per CPU, or per thread on "any CPU" lists. */
	struct perfev_ring **rings;
	int *ring_cpu; /* the CPU each ring collects, -1 per thread */
	int nr_rings;
	int epoll_fd; /* ring fds and the caller's, -1 until needed */
	struct evlist_id *id_index; /* sorted by id, built when the rings are mapped */
	int nr_ids;
	/*
	 * Set by sample/ when it maps rings or makes the epoll set: closing the
	 * list unmaps through it, so evlist/ needs nothing of the layer above.
	 */
	void (*unmap)(struct perfev_evlist *el);
};

/* One entry of the id index evsel_by_id() searches. */
struct evlist_id {
	uint64_t id;
	struct perfev_evsel *evsel;
};

/* Whose events an open failure was about: the explanation differs. */
struct open_target {
	bool cpu_wide; /* every task on CPUs (or a cgroup's), not one task */
	pid_t pid;     /* the task, > 0; 0 the caller itself */
};
/* Whether process pid (> 0) belongs to another user than the caller; false when unknown. */
bool foreign_process(pid_t pid);
/* perfev_explain_open_error() knowing the target. */
void explain_open_error(int err, const struct perf_event_attr *attr, const char *name,
			const struct open_target *t, char *buf, size_t size);

/*
 * Test hook: a forked command waits this long before it asks for its
 * parent-death signal, so a test can kill the parent in between.
 */
void workload__set_test_delay(unsigned ms);

/* Marks a leader as ":S" (sample-read of its group); used by the event parser. */
void evsel__set_sample_read(struct perfev_evsel *evsel, bool on);
/* Removes and frees evsels from index from to the end (undoing a failed parse). */
void evlist__truncate(struct perfev_evlist *evlist, int from);

#endif
