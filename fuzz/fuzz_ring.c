/*
 * A ring's data and positions are written by the kernel but read as
 * untrusted: a reader must never step outside the buffer whatever data_head,
 * data_tail and the headers say.  The first 18 bytes build a simulated ring:
 *
 *	[0]	log2 of the data size, 3..16 (taken modulo 14, plus 3)
 *	[1]	bit 0 overwrite, bit 1 bulk (peek/consume) instead of next(),
 *		bit 2 data_head is tail + [2..9] masked to twice the size (a
 *		plausible head) rather than [2..9] itself, bit 3 batches
 *		(ring__batch, every record shown) instead of next()
 *	[2..9]	data_head (or its distance from the tail)
 *	[10..17] data_tail
 *
 * and the rest fills the data area (repeated when short).  The ring's memory
 * is allocated to its exact size so ASan sees any byte read past it; every
 * record handed out is read through.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "perfev/perfev.h"
#include "sample/ring_int.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static volatile uint64_t sink;

static void touch(const void *p, size_t n)
{
	const uint8_t *b = p;
	uint64_t x = 0;

	for (size_t i = 0; i < n; i++)
		x += b[i];
	sink += x;
}

/* Positions come from the input, so records may sit at any address: read headers with memcpy. */
static uint16_t rec_size(const void *rec)
{
	struct perf_event_header h;

	memcpy(&h, rec, sizeof(h));
	return h.size;
}

static int touch_cb(const void *rec, size_t size, void *ctx)
{
	int *left = ctx;

	/* A snapshot must hand out whole records only. */
	if (size < sizeof(struct perf_event_header) || rec_size(rec) != size)
		__builtin_trap();
	touch(rec, size);
	return --*left <= 0;
}

static void read_forward(struct perfev_ring *r)
{
	const void *rec;
	size_t size;
	int n;

	while (perfev_ring__read_start(r) > 0) {
		while ((n = perfev_ring__next(r, &rec, &size)) > 0) {
			if (size < 8 || size > perfev_ring__size(r) || rec_size(rec) != size)
				__builtin_trap();
			touch(rec, size);
		}
		perfev_ring__read_done(r);
		if (n < 0)
			break;
	}
}

static void read_bulk(struct perfev_ring *r)
{
	struct perfev_span sp[2];
	size_t n;

	for (int i = 0; i < 4 && (n = perfev_ring__peek(r, sp)) > 0; i++) {
		if (n != sp[0].len + sp[1].len || n > perfev_ring__size(r))
			__builtin_trap();
		touch(sp[0].base, sp[0].len);
		touch(sp[1].base, sp[1].len);
		perfev_ring__consume(r, i == 3 ? n : n / 2 + 1);
	}
}

static void read_batch(struct perfev_ring *r)
{
	struct ring_batch b;
	int left = 1 << 30;

	for (int i = 0; i < 2 && ring__batch(r, "fuzz", ~0ull, touch_cb, &left, &b) == 0; i++) {
		if (b.len != b.span[0].len + b.span[1].len || b.len > perfev_ring__size(r))
			__builtin_trap();
		touch(b.span[0].base, b.span[0].len);
		touch(b.span[1].base, b.span[1].len);
		ring__batch_done(r, &b);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct perf_event_mmap_page *page;
	struct perfev_ring_stats st;
	struct perfev_ring *r;
	uint64_t head, tail;
	size_t ring_size;
	uint8_t *mem;
	uint8_t flags;
	int left;

	if (size < 18)
		return 0;
	ring_size = (size_t)1 << (3 + data[0] % 14);
	flags = data[1];
	memcpy(&head, data + 2, sizeof(head));
	memcpy(&tail, data + 10, sizeof(tail));
	if (flags & 4)
		head = tail + (head & (2 * ring_size - 1));
	data += 18;
	size -= 18;

	mem = calloc(1, RING_MEM_DATA_OFFSET + ring_size);
	if (!mem)
		return 0;
	for (size_t i = 0; size && i < ring_size; i++)
		mem[RING_MEM_DATA_OFFSET + i] = data[i % size];
	page = (struct perf_event_mmap_page *)mem;
	page->data_head = head;
	page->data_tail = tail;
	r = ring__new_mem(mem, ring_size, flags & 1);
	if (!r) {
		free(mem);
		return 0;
	}
	if (flags & 1) {
		left = 1 << 30;
		perfev_ring__snapshot(r, touch_cb, &left);
		left = 2;
		perfev_ring__snapshot(r, touch_cb, &left);
	} else if (flags & 2) {
		read_bulk(r);
		read_forward(r);
	} else if (flags & 8) {
		read_batch(r);
		read_forward(r);
	} else {
		read_forward(r);
	}
	perfev_ring__stats(r, &st);
	sink += st.records + st.lost;
	perfev_ring__delete(r);
	free(mem);
	return 0;
}
