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

#endif
