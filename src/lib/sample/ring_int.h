/* SPDX-License-Identifier: MIT */
/* The ring object's layout and a ring over plain memory, for tests and fuzzing; library-internal. */
#ifndef PERFEV_RING_INT_H
#define PERFEV_RING_INT_H

#include "perfev/ring.h"
#include "util/internal.h"

/* Largest record: header.size is a u16. */
#define RING_MAX_RECORD 65536u

struct perfev_ring {
	int fd; /* -1 for a ring over plain memory */
	bool overwrite;
	bool mapped; /* base came from mmap(2) and is unmapped on delete */
	/* A malformed header was met: the reader's position can't be trusted any more. */
	bool broken;
	struct perf_event_mmap_page *page;
	unsigned char *data;
	size_t size;	/* data bytes, a power of two */
	size_t map_len; /* control page + data, as mapped */
	void *aux;
	size_t aux_size;
	/* Reader positions, free-running like data_head. */
	uint64_t tail; /* handed back to the kernel (data_tail) */
	uint64_t pos;  /* next record next() returns */
	uint64_t head; /* data_head as read_start() / peek() saw it */
	unsigned char *copy; /* records crossing the end are joined here */
	size_t copy_size;
	struct perfev_ring_stats stats;
};

/*
 * Where a ring over plain memory has its data: right after the control
 * page structure (the kernel puts it a page further; readers must not care).
 */
#define RING_MEM_DATA_OFFSET sizeof(struct perf_event_mmap_page)

/*
 * A ring over page_and_data: a struct perf_event_mmap_page followed by
 * data_size bytes (a power of two, at least 8) at RING_MEM_DATA_OFFSET.
 * data_head and data_tail are taken from the page as the caller set them;
 * the caller plays the kernel by writing records and moving data_head.
 * No fd: snapshot() does not pause, set_output() fails.  The memory stays
 * the caller's.  NULL with errno set on a bad size or no memory.
 */
struct perfev_ring *ring__new_mem(void *page_and_data, size_t data_size, bool overwrite);

/*
 * Bulk reading that still looks at every record, for a writer that copies
 * the bytes out as they lie: the unread bytes of a forward ring as at most
 * two spans (the second when they wrap around the end), and what their
 * records add to the ring's stats, held back until the bytes are handed
 * back, so that records read again after a failed write are counted once.
 */
struct ring_batch {
	struct perfev_span span[2];
	size_t len;
	struct perfev_ring_stats add;
};

/*
 * Takes the ring's unread bytes into b and walks their records once: each is
 * accounted into b->add (losses and throttling as perfev_ring__account()
 * does), and each whose type t is below 64 with bit t set in types goes to
 * fn whole (joined in the ring's buffer when it wraps; valid during the call
 * only).  Returns 0 (b->len 0 when nothing is new); fn's non-zero value,
 * which stops the walk; -PERFEV_ERR_FORMAT for a malformed header, after
 * which the ring is unusable as with perfev_ring__next(); -EINVAL for an
 * overwrite ring (who, the caller's public name, says who refused).  On
 * failure b holds nothing.  Nothing is handed back.
 */
int ring__batch(struct perfev_ring *r, const char *who, uint64_t types, perfev_ring_fn_t fn,
		void *ctx, struct ring_batch *b);
/* Hands b's bytes back to the kernel and adds b->add to the ring's stats. */
void ring__batch_done(struct perfev_ring *r, const struct ring_batch *b);

#endif
