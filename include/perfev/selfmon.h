/* SPDX-License-Identifier: MIT */
/*
 * perfev: self-monitoring.  Reads a program's own counters from inside it,
 * through the page the kernel maps for each perf event fd (struct
 * perf_event_mmap_page in <linux/perf_event.h>), at the cost of a few
 * instructions where the hardware allows it and of one read(2) where not.
 *
 *	struct perf_event_attr a = { .type = PERF_TYPE_HARDWARE,
 *				     .config = PERF_COUNT_HW_INSTRUCTIONS,
 *				     .read_format = PERF_FORMAT_TOTAL_TIME_ENABLED |
 *						    PERF_FORMAT_TOTAL_TIME_RUNNING };
 *	int fd = perfev_event_open(&a, 0, -1, -1, 0);   // this thread, any CPU
 *	struct perfev_selfmon_opts o = { .sz = sizeof(o), .attr = &a };
 *	struct perfev_selfmon *sm = perfev_selfmon__new(fd, &o);
 *	struct perfev_selfmon_value v0, v1;
 *	perfev_selfmon__read(sm, &v0);
 *	work();
 *	perfev_selfmon__read(sm, &v1);
 *	printf("%llu instructions via %s\n", v1.value - v0.value,
 *	       perfev_selfmon_path__name(v1.path));
 *	perfev_selfmon__delete(sm);
 *	close(fd);
 *
 * How a read is done.  Each counter's page is read inside the page's `lock`
 * seqlock exactly as the kernel header describes: `index` and `offset`; when
 * `cap_user_rdpmc` is set and `index` is not 0, the hardware counter
 * `index - 1` (rdpmc on x86-64; PMEVCNTR<n>_EL0 / PMCCNTR_EL0 on arm64) is
 * added after sign extension from `pmc_width` bits; `time_enabled` and
 * `time_running` are extended to "now" with the timestamp counter (rdtsc;
 * cntvct_el0 on arm64) and `time_offset`, `time_mult`, `time_shift` (plus
 * `time_cycles`/`time_mask` when `cap_user_time_short`) when `cap_user_time`
 * is set and the event was multiplexed (enabled != running), or always with
 * opts.precise_times.  A torn read is retried; after
 * PERFEV_SELFMON_MAX_RETRIES retries the read fails with -EAGAIN (the page
 * kept changing: try again).  Nothing is allocated, no system call is made,
 * no lock is taken.
 *
 * The read(2) fallback.  Where the page says user-space reads are not
 * possible the counter is read with read(2) instead, directly into a stack
 * buffer.  That is decided once, when the object is made, for reasons that
 * don't change: no user-read support compiled in for this architecture,
 * the page could not be mapped, `cap_user_rdpmc` is 0 (software events, a
 * machine without a PMU, a kernel or hypervisor that forbids it), rdpmc is
 * disabled in sysfs (/sys/bus/event_source/devices/cpu/rdpmc = 0, or
 * kernel.perf_user_access = 0 on arm64), the event is inherited (its count
 * includes child tasks only the kernel can sum), or it counts another task
 * or a CPU (opts.attached).  perfev_selfmon__path() and
 * perfev_selfmon__path_reason() tell which path is in use and why.  It is
 * also done per read when `index` is 0 at that moment (the event is not on
 * the PMU now, e.g. multiplexed out or disabled); every value says which path
 * produced it.
 *
 * Threads.  A counter opened on the calling thread (pid 0, cpu -1) can only
 * be read through its page by that same thread: rdpmc reads the counter of
 * the CPU the reader runs on.  An object is not safe for concurrent use by
 * several threads; make one per thread.
 */
#ifndef PERFEV_SELFMON_H
#define PERFEV_SELFMON_H

#include <linux/perf_event.h>
#include <stdbool.h>
#include <stdint.h>

#include "perfev/common.h"

#ifdef __cplusplus
extern "C" {
#endif

struct perfev_evsel;
struct perfev_selfmon;

/* Seqlock retries a read makes before giving up with -EAGAIN. */
#define PERFEV_SELFMON_MAX_RETRIES 1000
/* Most counters one object (a group) holds. */
#define PERFEV_SELFMON_MAX_COUNTERS 32

enum perfev_selfmon_path {
	PERFEV_SELFMON_RDPMC = 1,	 /* user-space read: page + rdpmc (or mrs on arm64) */
	PERFEV_SELFMON_READ_SYSCALL = 2, /* read(2) of the event's fd */
};

/* "rdpmc" or "read(2)". */
PERFEV_API const char *perfev_selfmon_path__name(enum perfev_selfmon_path path);

struct perfev_selfmon_opts {
	size_t sz; /* sizeof(struct perfev_selfmon_opts) */
	/*
	 * The attribute fds[0] was opened with (only read_format and inherit are
	 * looked at).  NULL means read_format
	 * PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING and not
	 * inherited.  read_format must hold both TOTAL_TIME bits (the fallback
	 * needs them to scale); it may add ID, LOST and, on a group leader,
	 * GROUP.  Ignored by perfev_selfmon__new_evsel(), which knows the attr.
	 */
	const struct perf_event_attr *attr;
	/*
	 * The events count another task or a CPU, not the calling thread
	 * (perf_event_open's pid was not 0 / the caller's tid, or cpu was not
	 * -1): the page's counter index is then meaningless here, so read(2)
	 * is always used.  perfev_selfmon__new_evsel() works this out itself.
	 */
	bool attached;
	/* Never read through the page: always read(2) (to compare, or to debug). */
	bool force_syscall;
	/*
	 * Extend time_enabled/time_running to "now" on every user-space read
	 * (one more timestamp-counter read), not only when the event was
	 * multiplexed as the kernel header does.  Without it the times of an
	 * unmultiplexed event are those of the last kernel update of the page
	 * (the count itself is exact either way).
	 */
	bool precise_times;
	size_t :0;
};

/* One counter reading. */
struct perfev_selfmon_value {
	uint64_t value;	  /* raw count (not scaled) */
	uint64_t enabled; /* time enabled, ns */
	uint64_t running; /* time running on the PMU, ns */
	enum perfev_selfmon_path path; /* how this value was read */
};

/*
 * Self-monitoring of one event fd, opened with perfev_event_open() or
 * perf_event_open(2) and kept open by the caller (never closed here).  Maps
 * the fd's page read-only, checks once that read(2) returns what
 * opts->attr's read_format says, and decides the path.  NULL with errno set
 * and perfev_last_error() explaining when fd is bad or read_format lacks
 * the TOTAL_TIME bits.  A page that can't be mapped is not an error: the
 * object then always uses read(2) (perfev_selfmon__path_reason() says why).
 */
PERFEV_API struct perfev_selfmon *perfev_selfmon__new(int fd, const struct perfev_selfmon_opts *opts);

/*
 * Self-monitoring of a group: fds[0] is the leader, fds[1..nr-1] members
 * (up to PERFEV_SELFMON_MAX_COUNTERS).  Each member's page is mapped and
 * read on its own (user-space reads of members are independent reads, a
 * few instructions apart).  When the leader's read_format has
 * PERF_FORMAT_GROUP, every counter that needs the fallback in one read comes
 * from a single read(2) of the leader (matched by PERF_FORMAT_ID when
 * present, else by position: pass members in the order they were opened);
 * otherwise each fd is read by itself, members with the leader's read_format
 * without GROUP.  nr == 1 is a lone event.
 */
PERFEV_API struct perfev_selfmon *perfev_selfmon__new_group(const int *fds, int nr,
							  const struct perfev_selfmon_opts *opts);

/*
 * Self-monitoring of an event of an opened evlist (see perfev/evlist.h): of
 * its whole group when evsel leads one, else of that event alone.  The
 * list's fd at (cpu_idx 0, thread_idx 0) is used; the object is "attached"
 * (read(2) only) unless the list was opened on the calling thread (pid 0 or
 * the caller's tid) and any CPU.  Every event involved must be open.  The
 * evlist must outlive the object.
 */
PERFEV_API struct perfev_selfmon *perfev_selfmon__new_evsel(struct perfev_evsel *evsel,
							  const struct perfev_selfmon_opts *opts);

/* Unmaps the pages and frees the object (the fds stay open); accepts NULL. */
PERFEV_API void perfev_selfmon__delete(struct perfev_selfmon *sm);

/* Number of counters (1 for a lone event, the group's size otherwise). */
PERFEV_API int perfev_selfmon__nr(const struct perfev_selfmon *sm);

/*
 * The path chosen when the object was made: PERFEV_SELFMON_RDPMC when every
 * counter may be read in user space (a read still falls back to read(2)
 * while a counter's index is 0), PERFEV_SELFMON_READ_SYSCALL otherwise.
 */
PERFEV_API enum perfev_selfmon_path perfev_selfmon__path(const struct perfev_selfmon *sm);
/*
 * Why that path: "" for RDPMC, else a sentence such as "cap_user_rdpmc is 0
 * in the event's page: the kernel does not let user space read this counter
 * (software events, no hardware PMU, or disabled by the hypervisor)".
 */
PERFEV_API const char *perfev_selfmon__path_reason(const struct perfev_selfmon *sm);

/*
 * Reads counter 0 (the event, or the group's leader) into out.  Returns 0,
 * -EAGAIN when the page kept changing for PERFEV_SELFMON_MAX_RETRIES
 * retries, or the -errno of a failed read(2) (-ENODATA when read(2)
 * returned 0 bytes: a pinned event that could not be scheduled is in
 * error state).  This is the fast path: no allocation, no lock, no system
 * call unless the fallback is in use.
 */
PERFEV_API int perfev_selfmon__read(struct perfev_selfmon *sm, struct perfev_selfmon_value *out);
/*
 * Reads counters 0..nr-1 (nr may be less than perfev_selfmon__nr()) into
 * out[0..nr-1].  Counters read in user space are read one after the other;
 * those that need the fallback share one read(2) when the group allows.
 * Returns nr or a negative error as perfev_selfmon__read().
 */
PERFEV_API int perfev_selfmon__read_all(struct perfev_selfmon *sm, struct perfev_selfmon_value *out,
				       int nr);

/*
 * v->value scaled to the whole enabled time: value * enabled / running in
 * 128-bit arithmetic (saturating at UINT64_MAX); value when enabled ==
 * running; 0 when running is 0 (never counted).
 */
PERFEV_API uint64_t perfev_selfmon_value__scaled(const struct perfev_selfmon_value *v);

/* Counters of what the object did, for debugging and tests. */
struct perfev_selfmon_stats {
	uint64_t user_reads;	/* values read through the page */
	uint64_t syscall_reads; /* read(2) calls */
	uint64_t retries;	/* seqlock retries (lock odd, or changed during a read) */
	uint64_t busy;		/* reads that failed with -EAGAIN */
};
PERFEV_API void perfev_selfmon__stats(const struct perfev_selfmon *sm, struct perfev_selfmon_stats *out);

/*
 * Time conversion.  The page's time_zero, time_mult and time_shift (with
 * time_cycles and time_mask when cap_user_time_short) convert the CPU's
 * timestamp counter (TSC on x86-64, CNTVCT_EL0 on arm64) into perf time,
 * the clock of PERF_SAMPLE_TIME and of perf.data timestamps (with the
 * default clock), and back.  Only when the page sets cap_user_time_zero:
 * not in a VM whose guest clock is kvm-clock (or any other non-native
 * sched_clock), where the functions below return -EOPNOTSUPP and
 * perfev_last_error() says so.
 */
struct perfev_selfmon_time {
	uint64_t time_offset; /* perf time delta base (cap_user_time) */
	uint64_t time_zero;   /* perf time at counter 0 (cap_user_time_zero) */
	uint64_t time_cycles; /* base of a short counter (cap_user_time_short) */
	uint64_t time_mask;   /* width mask of a short counter (cap_user_time_short) */
	uint32_t time_mult;
	uint16_t time_shift;
	bool cap_user_time;
	bool cap_user_time_zero;
	bool cap_user_time_short;
};

/*
 * A consistent snapshot (read inside the seqlock) of counter 0's time
 * fields.  Returns 0, or -EAGAIN, or -EOPNOTSUPP when the object has no page
 * (it could not be mapped).  Works whatever the caps say: check them.
 */
PERFEV_API int perfev_selfmon__time(const struct perfev_selfmon *sm, struct perfev_selfmon_time *out);
/*
 * tsc (a reading of the timestamp counter, e.g. perfev_read_tsc()) to perf
 * time in ns, and back.  0, or -EOPNOTSUPP when cap_user_time_zero is 0 (or
 * no page), or -EAGAIN.
 */
PERFEV_API int perfev_selfmon__tsc_to_perf_time(const struct perfev_selfmon *sm, uint64_t tsc,
					       uint64_t *ns);
PERFEV_API int perfev_selfmon__perf_time_to_tsc(const struct perfev_selfmon *sm, uint64_t ns,
					       uint64_t *tsc);
/* The current perf time, from the timestamp counter; errors as above. */
PERFEV_API int perfev_selfmon__perf_time_now(const struct perfev_selfmon *sm, uint64_t *ns);

/*
 * The timestamp counter: rdtsc on x86-64, cntvct_el0 (after an isb) on
 * arm64, 0 elsewhere.
 */
PERFEV_API uint64_t perfev_read_tsc(void);

/*
 * The arithmetic, exported for reuse and tests.  All follow the comments of
 * struct perf_event_mmap_page in <linux/perf_event.h>.
 */

/* pmc's low width bits as a signed number (width 0 or >= 64: no extension). */
PERFEV_API int64_t perfev_pmc_sign_extend(uint64_t pmc, unsigned int width);
/* (cyc * mult) >> shift without overflow (the header's quot/rem form, exactly). */
PERFEV_API uint64_t perfev_mul_u64_u32_shr(uint64_t cyc, uint32_t mult, unsigned int shift);
/* With cap_user_time_short: cyc widened from time_mask bits around time_cycles; else cyc. */
PERFEV_API uint64_t perfev_selfmon_time__extend(const struct perfev_selfmon_time *t, uint64_t cyc);
/* time_offset + ns(cyc): what to add to time_enabled (and time_running) read from the page. */
PERFEV_API uint64_t perfev_selfmon_time__delta(const struct perfev_selfmon_time *t, uint64_t cyc);
/* time_zero + ns(cyc): perf time of a counter reading (cap_user_time_zero). */
PERFEV_API uint64_t perfev_selfmon_time__cyc_to_ns(const struct perfev_selfmon_time *t, uint64_t cyc);
/*
 * The counter reading at perf time ns (>= time_zero); masked with
 * time_mask with cap_user_time_short, as the short counter reads.  0 when
 * time_mult is 0.
 */
PERFEV_API uint64_t perfev_selfmon_time__ns_to_cyc(const struct perfev_selfmon_time *t, uint64_t ns);

/*
 * Reads a mapped perf_event_mmap_page of an event counting the calling
 * thread, as above, with this machine's rdpmc and timestamp counter.
 * Returns 0 with out filled (path RDPMC), 1 when the page says user-space
 * reads are impossible now (cap_user_rdpmc 0, or index 0, or no support
 * compiled in: read(2) the fd instead), or -EAGAIN.  *retries (may be
 * NULL) is increased by the retries made.  For callers that map pages
 * themselves; perfev_selfmon__read() does this and the fallback.
 */
PERFEV_API int perfev_mmap_page__read_self(const volatile struct perf_event_mmap_page *pc,
					  bool precise_times, struct perfev_selfmon_value *out,
					  uint64_t *retries);

/*
 * Regions: named intervals of instrumented code measured over the counters
 * of one selfmon object (typically a group).  A region accumulates, over
 * every start/stop interval, each counter's delta scaled by that interval's
 * own enabled/running deltas, the raw deltas, and the count of intervals.
 * The table of regions is allocated once with its capacity; start and stop
 * allocate nothing and make no system call beyond the counter reads (none
 * on the rdpmc path).  Regions may nest or overlap (each keeps its own
 * start values) but a region can't be started twice.
 *
 *	struct perfev_regions *rs = perfev_regions__new(sm, 8);
 *	struct perfev_region *r = perfev_regions__add(rs, "parse");
 *	for (...) {
 *		perfev_region__start(r);
 *		parse(...);
 *		perfev_region__stop(r);
 *	}
 *	printf("%s: %llu intervals, %llu instructions\n", perfev_region__name(r),
 *	       perfev_region__intervals(r), perfev_region__value(r, 0));
 *	perfev_regions__delete(rs);
 */
struct perfev_regions;
struct perfev_region;

/* Longest region name kept (longer names are cut). */
#define PERFEV_REGION_NAME_MAX 63

/*
 * A table of up to capacity regions over sm's counters.  sm is borrowed and
 * must outlive the table.  NULL with errno set on failure.
 */
PERFEV_API struct perfev_regions *perfev_regions__new(struct perfev_selfmon *sm, int capacity);
PERFEV_API void perfev_regions__delete(struct perfev_regions *rs);
/*
 * Adds a region named name (no allocation: its slot was made by
 * perfev_regions__new()).  NULL with errno EEXIST when the name is taken,
 * ENOSPC when the table is full.
 */
PERFEV_API struct perfev_region *perfev_regions__add(struct perfev_regions *rs, const char *name);
/* The region named name, or NULL (errno ENOENT). */
PERFEV_API struct perfev_region *perfev_regions__find(const struct perfev_regions *rs, const char *name);
PERFEV_API int perfev_regions__nr(const struct perfev_regions *rs);
/* The idx-th region added, or NULL. */
PERFEV_API struct perfev_region *perfev_regions__region(const struct perfev_regions *rs, int idx);

/*
 * Starts an interval: reads every counter.  0, -EBUSY when already started,
 * or a read error (the region stays stopped).
 */
PERFEV_API int perfev_region__start(struct perfev_region *r);
/*
 * Ends the interval: reads every counter again and adds the deltas, each
 * scaled by the interval's enabled/running deltas (the raw delta when they
 * are equal, 0 when the counter did not run during an interval in which it
 * was enabled).  0, -EINVAL when not started, or a read error (the interval
 * is dropped and the region stopped).
 */
PERFEV_API int perfev_region__stop(struct perfev_region *r);
/* Forgets the accumulated values and stops the region. */
PERFEV_API void perfev_region__reset(struct perfev_region *r);

PERFEV_API const char *perfev_region__name(const struct perfev_region *r);
/* Completed intervals. */
PERFEV_API uint64_t perfev_region__intervals(const struct perfev_region *r);
/* Accumulated scaled delta of counter idx (0 for a bad idx). */
PERFEV_API uint64_t perfev_region__value(const struct perfev_region *r, int idx);

/* Everything accumulated for one counter. */
struct perfev_region_counts {
	uint64_t scaled;  /* sum of per-interval scaled deltas */
	uint64_t raw;	  /* sum of raw deltas */
	uint64_t enabled; /* sum of enabled-time deltas, ns */
	uint64_t running; /* sum of running-time deltas, ns */
};
/* 0, or -EINVAL for a bad idx. */
PERFEV_API int perfev_region__counts(const struct perfev_region *r, int idx,
				     struct perfev_region_counts *out);

#ifdef __cplusplus
}
#endif
#endif
