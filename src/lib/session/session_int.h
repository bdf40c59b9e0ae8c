/* SPDX-License-Identifier: MIT */
/* Shared by the session's files: its state, threads and processes, and the time-order queue. */
#ifndef PERFEV_SESSION_INT_H
#define PERFEV_SESSION_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/idxhash.h"
#include "perfev/evlist.h"
#include "perfev/session.h"
#include "perfev/unwind.h"

/* Strings and maps live until the session is deleted: frames handed out point at them. */
struct arena_chunk {
	struct arena_chunk *next;
	size_t used, cap;
	unsigned char data[];
};

struct sproc {
	int pid;
	/* Executable maps, sorted by start and not overlapping. */
	struct perfev_map **maps;
	size_t nr_maps, cap_maps;
	/* Bumped whenever maps change, so the unwinder can drop what it kept. */
	uint64_t gen;
};

struct perfev_thread {
	int pid, tid;
	int ppid; /* the thread that created it (a FORK record's ptid), or -1 */
	const char *comm;
	uint32_t proc; /* index into session procs */
	uint32_t id_space; /* its session's, whose perfev_frame.id it shares */
	bool exited;	    /* an EXIT record of it came once a record had described it */
	uint64_t exit_time; /* of its EXIT record, described or not; 0: none */
	uint64_t fork_time; /* of the FORK record that made it (this use of its tid); 0: none */
};

/* What a perfev_frame.id stands for, in the session's table of them. */
struct frame_ident {
	struct perfev_dso *dso;
	const struct perfev_symbol *sym;
	uint64_t addr; /* 0 with a sym */
	bool kernel;
};

/* A slot of the frame ids' hash: the id (0: empty) and 32 bits of its key's hash. */
struct ident_slot {
	uint32_t id, tag;
};

/*
 * A record waiting in the time-order queue: one read from the mapped file
 * stays there and is pointed to (data); any other is copied into the
 * queue's buffer (qbuf at pos).  Either is decoded again when delivered:
 * a decoded record is 440 bytes, most of them empty, and a round's worth of
 * copies is written and read back from memory, where parsing the record's
 * own hundred-odd bytes again costs less.
 */
struct qent {
	uint64_t time;
	uint64_t seq;
	uint64_t offset; /* in the file */
	union {
		size_t pos;		   /* in qbuf */
		const unsigned char *data; /* in the mapped file */
	};
	uint32_t size;
	int32_t evsel;
	/* 1 + the resolution cache's slot of the sample's IP (sess_rcache_slot1()), or 0. */
	uint32_t slot1;
	bool compressed;
	bool mapped; /* data points into the file */
};

/* Per-event tallies and the group-read state of perf's per-id period deltas. */
struct sevsel {
	uint64_t nr_samples, period, lost;
};

struct sid_value {
	uint64_t id;
	uint64_t last;
};

#define RCACHE_BITS 16

struct rcache_ent {
	uint64_t ip;
	uint64_t gen;
	uint32_t proc1; /* process index + 1 (0: empty), or UINT32_MAX for the kernel */
	bool return_addr;
	struct perfev_frame f;
};

/* A live session's events, copied from its event list (the list itself is borrowed for its ids). */
struct sess_live {
	const struct perfev_evlist *el;
	struct perf_event_attr *attrs;
	struct perfev_sample_fmt *fmts;
	char **names;
	size_t nr;
};

struct perfev_session {
	struct perfev_data_reader *reader; /* NULL for a live session */
	struct sess_live live;
	struct perfev_symbolizer *sy;
	bool own_sy;
	bool trimmed; /* perfev_session__trim(): frames are no longer numbered */
	struct perfev_unwinder *unwinder;
	struct perfev_session_opts opts;

	struct arena_chunk *arena;
	struct perfev_map **all_maps; /* every map ever made, to free them */
	size_t nr_all_maps, cap_all_maps;

	struct perfev_thread **threads;
	size_t nr_threads, cap_threads;
	struct idxhash thread_hash; /* by tid */
	struct sproc *procs;
	size_t nr_procs, cap_procs;
	struct idxhash proc_hash; /* by pid */
	struct idxhash comm_hash; /* interned strings */
	const char **comms;
	size_t nr_comms, cap_comms;
	struct sproc kernel; /* the kernel's maps (pid -1) */

	/* Time order. */
	struct qent *q;
	size_t nr_q, cap_q;
	unsigned char *qbuf;
	size_t qbuf_len, qbuf_cap;
	uint64_t read_offset; /* in the file, of the last record read */
	uint64_t delivered_offset; /* in the file: the furthest record delivered so far */
	/*
	 * Scratch room of sorting and compacting, kept from one round to the
	 * next: fresh memory costs a page fault per page, and every round
	 * would otherwise take it anew.
	 */
	struct qent *qtmp;
	size_t cap_qtmp;
	size_t *runs;
	size_t cap_runs;
	unsigned char *qbuf_tmp;
	size_t cap_qbuf_tmp;
	uint64_t seq, last_time, round_max, next_flush;
	bool ordered;

	/*
	 * Resolved addresses, direct-mapped: a report resolves the same few
	 * thousand addresses millions of times.  An entry holds for its
	 * process until that process's maps change (gen).
	 */
	struct rcache_ent *rcache;
	/*
	 * Frame ids by identity: open addressing over 2^ident_bits slots of
	 * 8 bytes, and the keys in the order of their ids (ident_keys[id - 1]).
	 * The slots are 1/4 of the keys' size: on a virtual machine, faulting a
	 * grown table in costs more than the lookups, and keys appended in order
	 * are touched once.
	 */
	struct ident_slot *idents;
	struct frame_ident *ident_keys;
	size_t nr_idents, ident_keys_cap;
	unsigned ident_bits;
	uint32_t id_space; /* unique to this session, for its threads */

	/* One sample's frames. */
	struct perfev_frame *frames;
	uint64_t *ips;

	struct sevsel *evsels;
	size_t nr_evsels;
	struct sid_value *sids;
	size_t nr_sids, cap_sids;
	struct idxhash sid_hash;

	struct perfev_session_stats stats;
	struct sess_offcpu *offcpu; /* with opts.off_cpu */
};

/*
 * Common to both kinds of session (session.c): a new one with its options
 * checked (NULL with errno), then what stacks need (-errno, error set).
 */
struct perfev_session *sess_new(const struct perfev_session_opts *opts);
int sess_init(struct perfev_session *s);
/* Delivers one record: tracks what it says, or hands its sample to fn (session.c). */
int sess_deliver(struct perfev_session *s, const struct perfev_data_event *ev,
		 perfev_session_sample_fn fn, void *ctx);
/*
 * At a round's end (FINISHED_ROUND, or a live session's reading of every
 * ring): the time up to which queued records can be delivered, the newest
 * of the round before, since nothing drained later can be older; the next
 * round's limit becomes this round's newest (session.c).
 */
uint64_t sess_round_end(struct perfev_session *s);
/* Drops what is queued: the callback stopped the reading (session.c). */
void sess_queue_clear(struct perfev_session *s);
/* Queues a decoded record for time order (session.c). */
int sess_queue(struct perfev_session *s, const struct perfev_data_event *ev);
/* Delivers the queued records with time <= limit, in time order (session.c). */
int sess_flush(struct perfev_session *s, uint64_t limit, perfev_session_sample_fn fn, void *ctx);
/* Sorts the queue; *n: how many of its records come at or before limit (session.c). */
int sess_queue_ready(struct perfev_session *s, uint64_t limit, size_t *n);
/* Delivers n queued records, the queue's or a batch of them (session.c). */
int sess_deliver_queued(struct perfev_session *s, const struct qent *q, size_t n,
			perfev_session_sample_fn fn, void *ctx);
/*
 * Drops the queue's first n records (delivered or taken); *low: the lowest
 * file offset a record still waiting holds (session.c).
 */
int sess_queue_drop(struct perfev_session *s, size_t n, uint64_t *low);
/* Whether the file can be read on a thread of the session's own (readahead.c). */
bool sess_can_read_ahead(const struct perfev_session *s);
/*
 * Reads and orders on that thread, delivering here, as far as it can; the
 * caller goes on from there (readahead.c).  0, fn's return, or -errno.
 */
int sess_read_ahead(struct perfev_session *s, perfev_session_sample_fn fn, void *ctx);

/* The events records belong to, a file's or a live list's (evsels.c). */
size_t sess_nr_evsels(const struct perfev_session *s);
const struct perf_event_attr *sess_attr(const struct perfev_session *s, size_t i);
const struct perfev_sample_fmt *sess_fmt(const struct perfev_session *s, size_t i);
const char *sess_evsel_name(const struct perfev_session *s, size_t i);
int sess_evsel_of_id(const struct perfev_session *s, uint64_t id);
int sess_live_init(struct perfev_session *s, const struct perfev_evlist *el);
void sess_live_free(struct perfev_session *s);

void *sess_alloc(struct perfev_session *s, size_t size);
const char *sess_strdup(struct perfev_session *s, const char *str, size_t len);
const char *sess_intern(struct perfev_session *s, const char *str);

/* Threads and maps (threads.c). */
struct perfev_thread *sess_thread(struct perfev_session *s, int pid, int tid);
struct sproc *sess_proc(struct perfev_session *s, int pid);
int sess_track(struct perfev_session *s, const struct perfev_record *rec);
const struct perfev_map *sess_find_map(const struct sproc *p, uint64_t addr);
void sess_threads_free(struct perfev_session *s);

/* The id of frame f's identity (stack.c), numbering it when new; 0 when out of memory. */
uint32_t sess_frame_id(struct perfev_session *s, const struct perfev_frame *f);
/*
 * 1 + the resolution cache's slot the sample in ev will be resolved through,
 * or 0 (stack.c): asked for ahead of the sample's delivery.
 */
uint32_t sess_rcache_slot1(const struct perfev_session *s, const struct perfev_data_event *ev);
/* Stacks (stack.c): fills s->frames for a sample; returns how many. */
size_t sess_resolve_stack(struct perfev_session *s, int evsel, struct perfev_thread *t,
			  const struct perfev_sample *sample, uint16_t misc);

#endif
