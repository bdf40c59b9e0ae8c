/* SPDX-License-Identifier: MIT */
/*
 * perfev: the mmap ring buffer an event writes its records into.
 *
 * One ring is the perf_event_mmap_page followed by 2^n data pages of one
 * event fd; other events (on the same CPU, or of the same thread in
 * per-thread mode) can be redirected into it with perfev_ring__set_output().
 *
 * Forward mode, as a recorder drains it:
 *
 *	struct perfev_ring_opts o = { .sz = sizeof(o), .data_pages = 64 };
 *	struct perfev_ring *r = perfev_ring__new(fd, &o);
 *	const void *rec;
 *	size_t size;
 *
 *	while (perfev_ring__read_start(r) > 0) {
 *		while (perfev_ring__next(r, &rec, &size) > 0)
 *			use(rec, size);         // whole record, header included
 *		perfev_ring__read_done(r);      // hands the space back to the kernel
 *	}
 *
 * Bulk mode, for copying raw bytes to a file without looking at them:
 * perfev_ring__peek() gives the unread bytes as at most two spans (two when
 * they wrap around the end of the buffer), perfev_ring__consume() hands them
 * back.  To perf.data, perfev_data_writer__write_ring() does both and
 * accounts the records as next() does.
 *
 * Overwrite mode (opts.overwrite, the event opened with write_backward): the
 * kernel never waits for the reader and overwrites the oldest records;
 * perfev_ring__snapshot() pauses the ring and walks the newest records.
 *
 * The reader orders its accesses as the kernel requires: data_head is read
 * with acquire semantics before the records it covers, and data_tail is
 * written with release semantics after the records are consumed.  Positions
 * are free-running u64 byte counts.  A record that crosses the end of the
 * buffer is copied whole into a buffer of the ring's, so the caller always
 * sees one contiguous record.
 */
#ifndef PERFEV_RING_H
#define PERFEV_RING_H

#include <linux/perf_event.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "perfev/common.h"

#ifdef __cplusplus
extern "C" {
#endif

struct perfev_ring;

struct perfev_ring_opts {
	size_t sz;	   /* sizeof(struct perfev_ring_opts) */
	size_t data_pages; /* power of two; 0 means 128 (512 KiB with 4 KiB pages) */
	/*
	 * Map the data read-only: the kernel writes backward and overwrites
	 * old records instead of stopping (attr.write_backward must be set).
	 */
	bool overwrite;
	/* Also map an AUX area of this many pages (power of two), 0 for none. */
	size_t aux_pages;
	size_t :0;
};

/*
 * Maps the ring of fd.  NULL with errno set (and perfev_last_error()
 * explaining: EPERM over perf_event_mlock_kb, EINVAL for a size that is not
 * a power of two, EOPNOTSUPP for an AUX area the event's PMU cannot fill,
 * ...) on failure.  The ring does not own fd.  An AUX area needs the
 * control page writable, so it cannot go with overwrite.
 */
PERFEV_API struct perfev_ring *perfev_ring__new(int fd, const struct perfev_ring_opts *opts);
/* Unmaps; accepts NULL. */
PERFEV_API void perfev_ring__delete(struct perfev_ring *ring);

/* Redirects the records of event fd into ring (PERF_EVENT_IOC_SET_OUTPUT). */
PERFEV_API int perfev_ring__set_output(struct perfev_ring *ring, int fd);

PERFEV_API int perfev_ring__fd(const struct perfev_ring *ring);
/* Bytes of data the ring holds: data_pages * page size. */
PERFEV_API size_t perfev_ring__size(const struct perfev_ring *ring);
/* The control page, for its self-monitoring fields. */
PERFEV_API const struct perf_event_mmap_page *perfev_ring__page(const struct perfev_ring *ring);

/*
 * Forward mode.  read_start() takes a snapshot of data_head and returns the
 * bytes between the reader and it (0: nothing new), or -PERFEV_ERR_FORMAT
 * when data_head is further ahead than the ring is long.  next() returns 1
 * with the next whole record in rec and size, 0 at the snapshot's end, or
 * -PERFEV_ERR_FORMAT when a header's size is below 8 or runs past the
 * snapshot (the ring is then unusable: every later read_start(), next() and
 * peek() fails too, so the caller should stop reading it).  read_done()
 * writes data_tail up to the last record returned.  A record returned stays
 * valid until the next call of next() or read_done().  On an overwrite ring
 * these fail with -EINVAL: use snapshot().
 */
PERFEV_API int64_t perfev_ring__read_start(struct perfev_ring *ring);
PERFEV_API int perfev_ring__next(struct perfev_ring *ring, const void **rec, size_t *size);
PERFEV_API void perfev_ring__read_done(struct perfev_ring *ring);

/*
 * Bulk mode.  Fills up to two spans with the unread bytes up to data_head
 * (the second only when they wrap) and returns their total.  The bytes end
 * on a record boundary: the kernel advances data_head by whole records.
 * Returns 0 (with perfev_last_error() saying why) on an overwrite or corrupt
 * ring.  Mixing with next() is allowed: both start at the last byte handed
 * back by read_done() or consume().
 */
struct perfev_span {
	const void *base;
	size_t len;
};
PERFEV_API size_t perfev_ring__peek(struct perfev_ring *ring, struct perfev_span span[2]);
/* Marks n bytes (at most what peek returned) read, with release semantics. */
PERFEV_API void perfev_ring__consume(struct perfev_ring *ring, size_t n);

/*
 * Overwrite mode: pauses the ring (PERF_EVENT_IOC_PAUSE_OUTPUT), calls fn
 * for the records it holds from the newest to the oldest still whole, and
 * resumes it.  fn returns 0 to go on, anything else stops the walk and is
 * returned.  Returns 0, the callback's value, or -errno (-EINVAL on a
 * forward ring).  Nothing is consumed: every snapshot walks whatever the
 * ring holds then, so records seen before are seen again.  Events that
 * fire while the ring is paused are lost and later reported by a
 * PERF_RECORD_LOST.  rec is valid during the call only.
 */
typedef int (*perfev_ring_fn_t)(const void *rec, size_t size, void *ctx);
PERFEV_API int perfev_ring__snapshot(struct perfev_ring *ring, perfev_ring_fn_t fn, void *ctx);

/*
 * Losses seen by the reader: totals of the PERF_RECORD_LOST, LOST_SAMPLES,
 * THROTTLE and UNTHROTTLE records that next() and snapshot() returned, and
 * perfev_data_writer__write_ring() wrote (bulk peek/consume does not look
 * inside records; perfev_ring__account() adds one record by hand).
 */
struct perfev_ring_stats {
	uint64_t records; /* records returned (and accounted by hand) */
	uint64_t bytes;	  /* bytes handed back to the kernel (read_done, consume) */
	uint64_t lost;	  /* sum of PERF_RECORD_LOST.lost: records the kernel dropped */
	uint64_t lost_records; /* how many PERF_RECORD_LOST records there were */
	uint64_t lost_samples; /* sum of PERF_RECORD_LOST_SAMPLES.lost */
	uint64_t throttle, unthrottle; /* PERF_RECORD_THROTTLE / UNTHROTTLE records */
	/* Records that crossed the end of the buffer and were copied whole. */
	uint64_t wrapped;
};
PERFEV_API void perfev_ring__stats(const struct perfev_ring *ring, struct perfev_ring_stats *out);
PERFEV_API void perfev_ring__account(struct perfev_ring *ring, const void *rec, size_t size);

/*
 * The AUX area (aux_pages > 0) and its size in *size (may be NULL); NULL
 * and 0 without one.  Its aux_head / aux_tail are in perfev_ring__page().
 */
PERFEV_API void *perfev_ring__aux(const struct perfev_ring *ring, size_t *size);

#ifdef __cplusplus
}
#endif
#endif
