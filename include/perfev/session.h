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
	size_t :0;
};

/* NULL with errno set and perfev_last_error() saying why (as perfev_data_reader__open()). */
PERFEV_API struct perfev_session *perfev_session__open(const char *path,
						       const struct perfev_session_opts *opts);
/* Accepts NULL. */
PERFEV_API void perfev_session__delete(struct perfev_session *s);

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
	 * not taken for the next one), or ip when there is no DSO.
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
};

/* Return non-zero to stop processing; perfev_session__process() then returns that value. */
typedef int (*perfev_session_sample_fn)(void *ctx, const struct perfev_session_sample *s);

/*
 * Reads the whole file, keeping threads and maps up to date and calling fn
 * for every sample in order.  0, fn's non-zero return, or a negative error
 * from the reader (the samples before it were delivered).
 */
PERFEV_API int perfev_session__process(struct perfev_session *s, perfev_session_sample_fn fn,
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
