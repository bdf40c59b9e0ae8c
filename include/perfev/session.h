/* SPDX-License-Identifier: MIT */
/*
 * perfev: a session over a perf.data file: the threads and memory maps of
 * the recorded processes as they were over time (COMM, FORK, EXIT, MMAP,
 * MMAP2), samples in time order, and each sample's stack resolved to
 * maps, DSOs and symbols (frame-pointer callchains as the kernel gave them,
 * or user stacks unwound from REGS_USER and STACK_USER with DWARF).
 *
 *	struct perfev_session *s = perfev_session__open("perf.data", NULL);
 *	perfev_session__process(s, on_sample, ctx);
 *	perfev_session__delete(s);
 *
 * Ordering: records are put in time order the way perf does it, within
 * windows closed by PERF_RECORD_FINISHED_ROUND: at the end of a round,
 * everything older than the newest record of the round before is
 * delivered, since no ring drained later can hold anything older.  A file
 * without sample times is delivered in file order.
 */
#ifndef PERFEV_SESSION_H
#define PERFEV_SESSION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "perfev/common.h"
#include "perfev/perfdata_reader.h"
#include "perfev/sample_filter.h"
#include "perfev/symbols.h"

#ifdef __cplusplus
extern "C" {
#endif

struct perfev_session;
struct perfev_thread;

struct perfev_session_opts {
	size_t sz; /* sizeof(struct perfev_session_opts) */
	/* Borrowed; NULL: the session makes one with default options. */
	struct perfev_symbolizer *symbolizer;
	/* Options of the reader the session opens (warnings). */
	const struct perfev_data_reader_opts *reader_opts;
	/* Deliver records in file order instead of time order. */
	bool file_order;
	/* Do not unwind --call-graph dwarf samples (their stacks stop at the sampled IP). */
	bool no_unwind;
	/* Frames kept per sample; 0: 512. */
	uint32_t max_frames;
	/*
	 * Borrowed (it must outlive the session, which sets its span); NULL:
	 * every sample.  Only the samples it passes are delivered; the stats
	 * below count every sample read.
	 */
	struct perfev_sample_filter *filter;
	/*
	 * Frames get their map and DSO only: no address in the DSO, no symbol,
	 * no DSO loaded (what is sampled where, without reading the files).
	 */
	bool no_symbols;
	/*
	 * Off-CPU time from sched:sched_switch samples (perfev record
	 * --off-cpu, or perf record -e sched:sched_switch -g with switch
	 * events or -a): a switch-out sample is not delivered when it is
	 * read but when its thread runs again (its next PERF_RECORD_SWITCH
	 * that is not a switch-out, or a sched_switch whose next_pid it is),
	 * with the time between as its period (ns) and off_cpu_state set.
	 * Its stack leaves out the scheduler's own frames (__schedule,
	 * schedule, preempt_schedule*...) and begins with a frame of no DSO
	 * whose symbol names the state: "[off-cpu] S sleeping", "[off-cpu] D
	 * uninterruptible", "[off-cpu] R preempted" (and T, t, P, I).  A
	 * thread's last switch-out (it exited) is dropped; one still blocked
	 * when the recording ends is delivered at the end, blocked until the
	 * last record.  Needs the file's tracing data (sched_switch's format).
	 */
	bool off_cpu;
	/* With off_cpu: intervals shorter than this are left out (counted in the stats). */
	uint64_t off_cpu_thresh_ns;
	/*
	 * perfev_session__process() reads and orders the file on a thread of
	 * the session's own while the calling thread delivers (a mapped file in
	 * time order; otherwise, or without threads, the caller's thread does
	 * both).  fn is still called on the calling thread, in the same order.
	 * While it runs, fn may read the reader's events (names, attrs,
	 * formats) and features, but not its position: perfev_session__progress()
	 * says how far the delivery is.
	 */
	bool read_ahead;
	size_t :0;
};

/* NULL with errno set and perfev_last_error() saying why (as perfev_data_reader__open()). */
PERFEV_API struct perfev_session *perfev_session__open(const char *path,
						       const struct perfev_session_opts *opts);
/* Accepts NULL. */
PERFEV_API void perfev_session__delete(struct perfev_session *s);

/* The file's reader; NULL for a live session. */
PERFEV_API struct perfev_data_reader *perfev_session__reader(const struct perfev_session *s);
PERFEV_API struct perfev_symbolizer *perfev_session__symbolizer(const struct perfev_session *s);

/* A memory map of a process (or of the kernel). */
struct perfev_map {
	uint64_t start, end; /* [start, end) */
	uint64_t pgoff;
	uint32_t prot, flags; /* MMAP2's; PROT_EXEC for MMAP records of code */
	const char *filename;
	struct perfev_dso *dso;
};

/* The thread's process id, thread id, and its command name when the sample was taken. */
PERFEV_API int perfev_thread__pid(const struct perfev_thread *t);
PERFEV_API int perfev_thread__tid(const struct perfev_thread *t);
/* Interned: the same name is the same pointer for the whole session. */
PERFEV_API const char *perfev_thread__comm(const struct perfev_thread *t);
/*
 * The thread that created it (the parent thread of a FORK record, as perf
 * counts a thread's parent), or -1 when the file does not say.
 */
PERFEV_API int perfev_thread__ppid(const struct perfev_thread *t);
/*
 * Whether an EXIT record of it has been read (and no FORK of its tid since)
 * once a record had described it, as perf marks a thread dead.
 */
PERFEV_API bool perfev_thread__exited(const struct perfev_thread *t);
/* When its EXIT record says it ended, whether or not anything described it before; 0: not. */
PERFEV_API uint64_t perfev_thread__exit_time(const struct perfev_thread *t);
/*
 * When the FORK record that made it was written (0: none did): a tid
 * reused starts a new thread, with a later fork time, in the same struct.
 */
PERFEV_API uint64_t perfev_thread__fork_time(const struct perfev_thread *t);
/*
 * The thread tid as the records read so far describe it, or NULL when none
 * named it yet; during perfev_session__process(), as of the sample being
 * delivered.  Its name is ":TID" until a COMM or FORK record gives one.
 */
PERFEV_API struct perfev_thread *perfev_session__find_thread(struct perfev_session *s, int tid);

/* One frame of a sample's stack. */
struct perfev_frame {
	uint64_t ip;  /* as sampled: the IP, then return addresses */
	bool kernel;  /* a kernel address (the callchain's context, or the sample's cpumode) */
	bool unwound; /* a user frame the DWARF unwinder found (from the sampled registers and stack) */
	/*
	 * What the frame is (its DSO and symbol, or its DSO and address when
	 * unresolved, and kernel) numbered from 1 within the session: equal
	 * for equal frames, dense, for tables indexed by it.  0: not numbered.
	 */
	uint32_t id;
	const struct perfev_map *map; /* NULL when no map holds ip */
	struct perfev_dso *dso;	      /* the map's, or the kernel's; NULL when unknown */
	/*
	 * The address looked up in the DSO (perfev_dso__map_ip(); for a
	 * return address, of ip - 1 so a call at the end of a function is
	 * not taken for the next one; when that finds no symbol, of ip
	 * itself, the address shown), or ip when there is no DSO.
	 */
	uint64_t addr;
	const struct perfev_symbol *sym; /* NULL when unresolved */
};

/* What the callback gets for each sample. */
struct perfev_session_sample {
	const struct perfev_data_event *ev; /* the record: ev->rec.sample */
	/*
	 * The event this delivery counts for, and its weight: the sample's
	 * own event and period, or for a group sample read with
	 * PERF_SAMPLE_READ, each member in turn with the increase of its
	 * count since that member's previous sample, members that did not
	 * count since then left out (as perf does).
	 */
	int evsel;
	uint64_t period;
	struct perfev_thread *thread;
	const struct perfev_frame *frames; /* innermost first; at least the sampled IP */
	size_t nr_frames;
	/*
	 * With opts.off_cpu, for an off-CPU interval: the state the thread
	 * left the CPU in, as the kernel prints it ('S' sleeping, 'D'
	 * uninterruptible, 'R' preempted while runnable, 'T', 't', 'P', 'I');
	 * ev is its switch-out and period its length in ns.  0 otherwise.
	 */
	char off_cpu_state;
};

/* Return non-zero to stop processing; perfev_session__process() then returns that value. */
typedef int (*perfev_session_sample_fn)(void *ctx, const struct perfev_session_sample *s);

/*
 * Reads the whole file (-EINVAL for a live session), keeping threads and maps up to date and calling fn
 * for every sample in order.  0, fn's non-zero return, or a negative error
 * from the reader (the samples before it were delivered).
 */
PERFEV_API int perfev_session__process(struct perfev_session *s, perfev_session_sample_fn fn,
				       void *ctx);
/*
 * How far perfev_session__process() has delivered: the bytes of the file's
 * data up to the furthest record delivered so far (done, never going back),
 * and all of them (total; 0 when unknown, a pipe).  Either may be NULL.
 */
PERFEV_API void perfev_session__progress(const struct perfev_session *s, uint64_t *done,
					 uint64_t *total);
/*
 * After the file was read: frees the caches that only resolving more
 * samples uses (addresses already resolved, the numbering of frames).
 * Frames resolved afterwards (none, for a file read to its end) carry id 0,
 * not numbered.  For a report that holds a big recording's profile while it
 * builds its tables.  0, or -EINVAL for a live session or NULL.
 */
PERFEV_API int perfev_session__trim(struct perfev_session *s);

struct perfev_evlist;

/*
 * A live session: records come from the rings of el (opened and mapped by
 * the caller, borrowed: it must outlive the session) and from the caller
 * (perfev_synth__*() of what ran before), as perf top takes them.  The
 * events' attrs and names are copied now; the list's ids tell records
 * apart, so every event should carry PERF_SAMPLE_IDENTIFIER.  Records are
 * always delivered in time order, one round late (opts.file_order and
 * opts.reader_opts do not apply; opts.filter applies, except time ranges
 * in percent).  perfev_session__reader() is NULL for it.
 *
 *	struct perfev_session *s = perfev_session__new_live(el, NULL);
 *	perfev_synth__all(&fmt0, feed_fn, s);      // calls perfev_session__feed()
 *	for (;;) {
 *		perfev_evlist__poll(el, 100, NULL);
 *		perfev_session__read_rings(s);
 *		perfev_session__flush(s, false, on_sample, ctx);
 *	}
 */
PERFEV_API struct perfev_session *perfev_session__new_live(const struct perfev_evlist *el,
							   const struct perfev_session_opts *opts);
/*
 * Queues one record (header included, native byte order, as a ring or
 * perfev_synth gives it; copied).  Its event is found by its id (none, or
 * id 0 as synthesized records carry: the list's first event); a record of
 * an id the list does not have is dropped.  0, -PERFEV_ERR_FORMAT for a
 * malformed record, -ENOMEM; -EINVAL for a file's session.
 */
PERFEV_API int perfev_session__feed(struct perfev_session *s, const void *rec, size_t size);
/*
 * Reads what every ring of the list holds now into the queue and hands the
 * space back to the kernel: the records read (records the decoder refuses
 * are counted and skipped), or -PERFEV_ERR_FORMAT when a ring is corrupt,
 * -ENOMEM.
 */
PERFEV_API int64_t perfev_session__read_rings(struct perfev_session *s);
/*
 * Ends a round: delivers the queued records no later record can precede
 * (those older than the newest of the previous round), or with all every
 * queued record, keeping threads and maps current and calling fn for each
 * sample as perfev_session__process() does.  0 or fn's non-zero return.
 */
PERFEV_API int perfev_session__flush(struct perfev_session *s, bool all, perfev_session_sample_fn fn,
				     void *ctx);

struct perfev_session_stats {
	uint64_t nr_samples;	   /* PERF_RECORD_SAMPLE records */
	/*
	 * Lost samples as perf counts them: the kernel's PERF_RECORD_LOST
	 * records (nr_lost events in nr_lost_events chunks) apart from the
	 * PERF_RECORD_LOST_SAMPLES ones (nr_lost_samples, not those a BPF
	 * filter dropped), which a recorder's summary may repeat the first in:
	 * never add the two.
	 */
	uint64_t nr_lost;
	uint64_t nr_lost_samples;
	uint64_t nr_lost_events;
	uint64_t nr_throttle;	   /* PERF_RECORD_THROTTLE records */
	uint64_t nr_unordered;	   /* records delivered later than newer ones (ordering gave up) */
	uint64_t nr_unwind_failed; /* dwarf samples whose unwinding gave nothing past the IP */
	uint64_t nr_no_map;	   /* user frames in no known map */
	uint64_t first_time, last_time; /* of samples */
	uint64_t nr_filtered;	   /* samples (or group members) the filter left out */
	/* With opts.off_cpu: intervals delivered and their total (ns), */
	uint64_t nr_off_cpu, off_cpu_ns;
	/* those below off_cpu_thresh_ns, switch-outs never matched by a switch-in, */
	uint64_t nr_off_cpu_short, nr_off_cpu_unmatched;
	/* and of those delivered, the ones still open when the recording ended. */
	uint64_t nr_off_cpu_open;
};
PERFEV_API const struct perfev_session_stats *perfev_session__stats(const struct perfev_session *s);
/*
 * Samples and their total period per event, and samples lost for it: the
 * PERF_RECORD_LOST_SAMPLES records of it, perf report's "Lost Samples".
 */
PERFEV_API int perfev_session__evsel_stats(const struct perfev_session *s, size_t evsel,
					   uint64_t *nr_samples, uint64_t *period, uint64_t *lost);

#ifdef __cplusplus
}
#endif
#endif
