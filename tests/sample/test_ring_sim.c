/*
 * Rings over plain memory, the test playing the kernel: records crossing the
 * end, malformed headers, bulk spans, overwrite snapshots with the oldest
 * record partly overwritten, loss accounting, batches accounted when done.  Deterministic where the
 * kernel is not.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "perfev/perfev.h"
#include "sample/ring_int.h"

struct sim {
	void *mem;
	struct perf_event_mmap_page *page;
	unsigned char *data;
	size_t size;
	struct perfev_ring *ring;
};

/* A ring of size bytes whose reader and writer both start at position start. */
static void sim_init(struct sim *s, size_t size, bool overwrite, uint64_t start)
{
	s->mem = calloc(1, RING_MEM_DATA_OFFSET + size);
	assert_non_null(s->mem);
	s->page = s->mem;
	s->data = (unsigned char *)s->mem + RING_MEM_DATA_OFFSET;
	s->size = size;
	s->page->data_head = s->page->data_tail = start;
	s->ring = ring__new_mem(s->mem, size, overwrite);
	assert_non_null(s->ring);
}

static void sim_free(struct sim *s)
{
	perfev_ring__delete(s->ring);
	free(s->mem);
}

static void sim_put(struct sim *s, uint64_t pos, const void *src, size_t len)
{
	for (size_t i = 0; i < len; i++)
		s->data[(pos + i) & (s->size - 1)] = ((const unsigned char *)src)[i];
}

/* Record seq of size bytes: header, the u64 seq when it fits, then bytes derived from seq. */
static void make_rec(unsigned char *buf, uint32_t type, size_t size, uint64_t seq)
{
	struct perf_event_header h = { .type = type, .size = (uint16_t)size };

	memcpy(buf, &h, sizeof(h));
	for (size_t i = sizeof(h); i < size; i++)
		buf[i] = (unsigned char)(seq * 7 + i);
	if (size >= sizeof(h) + sizeof(seq))
		memcpy(buf + sizeof(h), &seq, sizeof(seq));
}

static bool rec_ok(const void *rec, size_t size, uint64_t seq)
{
	unsigned char want[256];

	assert_true(size <= sizeof(want));
	make_rec(want, PERF_RECORD_SAMPLE, size, seq);
	return !memcmp(rec, want, size);
}

/* The kernel writing forward: at data_head, then data_head moves past. */
static void sim_write(struct sim *s, uint32_t type, size_t size, uint64_t seq)
{
	unsigned char buf[256];

	make_rec(buf, type, size, seq);
	sim_put(s, s->page->data_head, buf, size);
	s->page->data_head += size;
}

/* The kernel writing backward (write_backward): data_head moves down, the record goes there. */
static void sim_write_back(struct sim *s, size_t size, uint64_t seq)
{
	unsigned char buf[256];

	make_rec(buf, PERF_RECORD_SAMPLE, size, seq);
	s->page->data_head -= size;
	sim_put(s, s->page->data_head, buf, size);
}

static bool in_data(const struct sim *s, const void *p)
{
	return (const unsigned char *)p >= s->data && (const unsigned char *)p < s->data + s->size;
}

static void test_record_crossing_the_end(void **state)
{
	(void)state;
	static const size_t sizes[] = { 40, 24, 64, 8, 48 };
	struct perfev_ring_stats st;
	struct sim s;
	const void *rec;
	size_t size, total = 0;

	/* The first record starts 24 bytes before the end and finishes at the start. */
	sim_init(&s, 256, false, 256 - 24);
	for (size_t i = 0; i < 5; i++) {
		sim_write(&s, PERF_RECORD_SAMPLE, sizes[i], i);
		total += sizes[i];
	}
	assert_int_equal(perfev_ring__read_start(s.ring), total);
	for (size_t i = 0; i < 5; i++) {
		assert_int_equal(perfev_ring__next(s.ring, &rec, &size), 1);
		assert_int_equal(size, sizes[i]);
		assert_true(rec_ok(rec, size, i));
		/* Only the record that crosses is copied; the others are read in place. */
		assert_int_equal(in_data(&s, rec), i != 0);
	}
	assert_int_equal(perfev_ring__next(s.ring, &rec, &size), 0);
	assert_int_equal(s.page->data_tail, 256 - 24); /* nothing handed back before read_done */
	perfev_ring__read_done(s.ring);
	assert_int_equal(s.page->data_tail, 256 - 24 + total);
	perfev_ring__stats(s.ring, &st);
	assert_int_equal(st.records, 5);
	assert_int_equal(st.bytes, total);
	assert_int_equal(st.wrapped, 1);
	assert_int_equal(perfev_ring__read_start(s.ring), 0);
	sim_free(&s);
}

/* Positions need not be 8-aligned for the reader: a header split in two is joined too. */
static void test_header_crossing_the_end(void **state)
{
	(void)state;
	struct sim s;
	const void *rec;
	size_t size;

	sim_init(&s, 64, false, 60);
	sim_write(&s, PERF_RECORD_SAMPLE, 24, 77);
	sim_write(&s, PERF_RECORD_SAMPLE, 16, 78);
	assert_int_equal(perfev_ring__read_start(s.ring), 40);
	assert_int_equal(perfev_ring__next(s.ring, &rec, &size), 1);
	assert_int_equal(size, 24);
	assert_true(rec_ok(rec, size, 77));
	assert_int_equal(perfev_ring__next(s.ring, &rec, &size), 1);
	assert_true(rec_ok(rec, size, 78));
	assert_int_equal(perfev_ring__next(s.ring, &rec, &size), 0);
	sim_free(&s);
}

/* A bad header at position pos after one good record; next() must fail naming it. */
static void expect_bad(uint16_t bad_size, uint64_t head_after, const char *says)
{
	struct perf_event_header h = { .type = PERF_RECORD_COMM, .size = bad_size };
	struct perfev_span sp[2];
	struct sim s;
	const void *rec;
	size_t size;

	sim_init(&s, 256, false, 0);
	sim_write(&s, PERF_RECORD_SAMPLE, 32, 1);
	sim_put(&s, 32, &h, sizeof(h));
	s.page->data_head = 32 + head_after;
	assert_true(perfev_ring__read_start(s.ring) > 0);
	assert_int_equal(perfev_ring__next(s.ring, &rec, &size), 1);
	assert_int_equal(perfev_ring__next(s.ring, &rec, &size), -PERFEV_ERR_FORMAT);
	print_message("size %u, %llu bytes left: %s\n", bad_size, (unsigned long long)head_after,
		      perfev_last_error());
	assert_non_null(strstr(perfev_last_error(), says));
	assert_non_null(strstr(perfev_last_error(), "position 32"));
	/* The reader has lost its place: it stays refused. */
	assert_int_equal(perfev_ring__next(s.ring, &rec, &size), -PERFEV_ERR_FORMAT);
	assert_int_equal(perfev_ring__read_start(s.ring), -PERFEV_ERR_FORMAT);
	assert_int_equal(perfev_ring__peek(s.ring, sp), 0);
	assert_null(sp[0].base);
	sim_free(&s);
}

static void test_malformed_headers(void **state)
{
	(void)state;
	expect_bad(0, 8, "type 3 at ring position 32 has size 0");
	expect_bad(4, 8, "size 4, less than its 8-byte header");
	expect_bad(48, 16, "only 16 bytes were written up to data_head");
	expect_bad(8, 4, "inside a record header");
}

static void test_head_beyond_the_ring(void **state)
{
	(void)state;
	struct perfev_span sp[2];
	struct sim s;

	sim_init(&s, 128, false, 1000);
	s.page->data_head = 1000 + 129;
	assert_int_equal(perfev_ring__read_start(s.ring), -PERFEV_ERR_FORMAT);
	assert_non_null(strstr(perfev_last_error(), "more than the 128 bytes"));
	assert_int_equal(perfev_ring__peek(s.ring, sp), 0);
	sim_free(&s);

	/* data_head behind data_tail is as wrong. */
	sim_init(&s, 128, false, 1000);
	s.page->data_head = 999;
	assert_int_equal(perfev_ring__read_start(s.ring), -PERFEV_ERR_FORMAT);
	sim_free(&s);

	/* A full ring is not: the kernel fills it to the last byte. */
	sim_init(&s, 128, false, 1000);
	for (int i = 0; i < 4; i++)
		sim_write(&s, PERF_RECORD_SAMPLE, 32, (uint64_t)i);
	assert_int_equal(perfev_ring__read_start(s.ring), 128);
	sim_free(&s);
}

static void test_peek_spans_across_the_end(void **state)
{
	(void)state;
	static const size_t sizes[] = { 40, 24, 36 };
	unsigned char want[100], *w = want;
	struct perfev_ring_stats st;
	struct perfev_span sp[2];
	struct sim s;
	const void *rec;
	size_t size;

	sim_init(&s, 256, false, 200);
	for (int i = 0; i < 3; i++) {
		make_rec(w, PERF_RECORD_SAMPLE, sizes[i], (uint64_t)i);
		w += sizes[i];
		sim_write(&s, PERF_RECORD_SAMPLE, sizes[i], (uint64_t)i);
	}
	assert_int_equal(perfev_ring__peek(s.ring, sp), 100);
	assert_ptr_equal(sp[0].base, s.data + 200);
	assert_int_equal(sp[0].len, 56);
	assert_ptr_equal(sp[1].base, s.data);
	assert_int_equal(sp[1].len, 44);
	assert_memory_equal(sp[0].base, want, 56);
	assert_memory_equal(sp[1].base, want + 56, 44);

	/* Partly consumed: the rest is one span, and next() carries on from there. */
	perfev_ring__consume(s.ring, 40);
	assert_int_equal(s.page->data_tail, 240);
	assert_int_equal(perfev_ring__peek(s.ring, sp), 60);
	assert_ptr_equal(sp[0].base, s.data + 240);
	assert_int_equal(sp[0].len, 16);
	assert_int_equal(sp[1].len, 44);
	assert_int_equal(perfev_ring__read_start(s.ring), 60);
	assert_int_equal(perfev_ring__next(s.ring, &rec, &size), 1);
	assert_true(rec_ok(rec, size, 1));

	/* More than was there is clamped: the kernel's unwritten bytes are never handed back. */
	perfev_ring__consume(s.ring, 1000);
	assert_int_equal(s.page->data_tail, 300);
	assert_int_equal(perfev_ring__peek(s.ring, sp), 0);
	assert_null(sp[0].base);
	assert_null(sp[1].base);
	perfev_ring__stats(s.ring, &st);
	assert_int_equal(st.bytes, 100);
	sim_free(&s);
}

struct walk {
	uint64_t seqs[64];
	int n, bad, stop_at;
};

static int walk_cb(const void *rec, size_t size, void *ctx)
{
	struct walk *w = ctx;
	uint64_t seq;

	assert_true(size >= 16);
	memcpy(&seq, (const unsigned char *)rec + 8, sizeof(seq));
	if (!rec_ok(rec, size, seq))
		w->bad++;
	if (w->n < 64)
		w->seqs[w->n] = seq;
	w->n++;
	return w->n == w->stop_at ? -1234 : 0;
}

static void test_snapshot_before_wrapping(void **state)
{
	(void)state;
	struct walk w = { 0 };
	struct sim s;

	sim_init(&s, 256, true, 0);
	sim_write_back(&s, 40, 0);
	sim_write_back(&s, 24, 1);
	sim_write_back(&s, 48, 2);
	assert_int_equal(perfev_ring__snapshot(s.ring, walk_cb, &w), 0);
	assert_int_equal(w.n, 3);
	assert_int_equal(w.bad, 0);
	assert_int_equal(w.seqs[0], 2); /* newest first */
	assert_int_equal(w.seqs[2], 0);

	/* A record the kernel reserved but has not written yet (zeros) ends the walk. */
	s.page->data_head -= 16;
	memset(&w, 0, sizeof(w));
	assert_int_equal(perfev_ring__snapshot(s.ring, walk_cb, &w), 0);
	assert_int_equal(w.n, 0);
	sim_free(&s);
}

static void test_snapshot_drops_the_overwritten_oldest(void **state)
{
	(void)state;
	static const size_t sizes[] = { 40, 24, 56, 32, 48 };
	const size_t ring = 256;
	struct perfev_ring_stats st;
	struct walk w = { 0 };
	uint64_t expect[64];
	size_t held = 0;
	int nexp = 0, nrec = 24;
	struct sim s;

	sim_init(&s, ring, true, 0);
	for (int i = 0; i < nrec; i++)
		sim_write_back(&s, sizes[i % 5], (uint64_t)i);
	/* Newest first, as many as fit whole in the ring's bytes from data_head. */
	for (int i = nrec - 1; i >= 0 && held + sizes[i % 5] <= ring; i--) {
		held += sizes[i % 5];
		expect[nexp++] = (uint64_t)i;
	}
	assert_true(held < ring); /* the next older one straddles the point where writing wrapped */
	assert_int_equal(perfev_ring__snapshot(s.ring, walk_cb, &w), 0);
	print_message("%d records written backward, %d whole in %zu bytes, %d walked\n", nrec, nexp,
		      ring, w.n);
	assert_int_equal(w.n, nexp);
	assert_int_equal(w.bad, 0);
	assert_memory_equal(w.seqs, expect, (size_t)nexp * sizeof(expect[0]));
	perfev_ring__stats(s.ring, &st);
	assert_int_equal(st.records, nexp);
	assert_true(st.wrapped > 0);

	/* The callback's non-zero value stops the walk and comes back. */
	memset(&w, 0, sizeof(w));
	w.stop_at = 2;
	assert_int_equal(perfev_ring__snapshot(s.ring, walk_cb, &w), -1234);
	assert_int_equal(w.n, 2);
	sim_free(&s);
}

static void put_body(struct sim *s, uint32_t type, const uint64_t *body, size_t n)
{
	struct perf_event_header h = { .type = type, .size = (uint16_t)(8 + 8 * n) };

	sim_put(s, s->page->data_head, &h, sizeof(h));
	sim_put(s, s->page->data_head + 8, body, 8 * n);
	s->page->data_head += h.size;
}

static void test_loss_accounting(void **state)
{
	(void)state;
	const uint64_t lost5[] = { 11, 5 }, lost7[] = { 11, 7 }, ls3[] = { 3 }, thr[] = { 1, 11, 0 };
	unsigned char by_hand[24];
	struct perfev_ring_stats st;
	struct sim s;
	const void *rec;
	size_t size;

	sim_init(&s, 512, false, 0);
	put_body(&s, PERF_RECORD_LOST, lost5, 2);
	put_body(&s, PERF_RECORD_THROTTLE, thr, 3);
	put_body(&s, PERF_RECORD_LOST, lost7, 2);
	put_body(&s, PERF_RECORD_LOST_SAMPLES, ls3, 1);
	put_body(&s, PERF_RECORD_UNTHROTTLE, thr, 3);
	put_body(&s, PERF_RECORD_THROTTLE, thr, 3);
	sim_write(&s, PERF_RECORD_SAMPLE, 32, 9);
	assert_true(perfev_ring__read_start(s.ring) > 0);
	while (perfev_ring__next(s.ring, &rec, &size) > 0)
		;
	perfev_ring__read_done(s.ring);
	perfev_ring__stats(s.ring, &st);
	assert_int_equal(st.records, 7);
	assert_int_equal(st.lost, 12);
	assert_int_equal(st.lost_records, 2);
	assert_int_equal(st.lost_samples, 3);
	assert_int_equal(st.throttle, 2);
	assert_int_equal(st.unthrottle, 1);

	/* By hand, for bulk readers; a LOST record too short to hold its count adds nothing. */
	make_rec(by_hand, PERF_RECORD_LOST_SAMPLES, 16, 4);
	perfev_ring__account(s.ring, by_hand, 16);
	make_rec(by_hand, PERF_RECORD_LOST, 16, 100);
	perfev_ring__account(s.ring, by_hand, 16);
	perfev_ring__account(s.ring, by_hand, 4); /* not even a header: ignored */
	perfev_ring__stats(s.ring, &st);
	assert_int_equal(st.records, 9);
	assert_int_equal(st.lost_samples, 7);
	assert_int_equal(st.lost, 12);
	sim_free(&s);

	/* Snapshots account what they walk. */
	sim_init(&s, 256, true, 0);
	s.page->data_head -= 24;
	{
		struct perf_event_header h = { .type = PERF_RECORD_LOST, .size = 24 };

		sim_put(&s, s.page->data_head, &h, sizeof(h));
		sim_put(&s, s.page->data_head + 8, lost7, sizeof(lost7));
	}
	sim_write_back(&s, 32, 1);
	struct walk w = { 0 };
	assert_int_equal(perfev_ring__snapshot(s.ring, walk_cb, &w), 0);
	perfev_ring__stats(s.ring, &st);
	assert_int_equal(st.records, 2);
	assert_int_equal(st.lost, 7);
	sim_free(&s);
}

struct seen {
	int n, in_place, stop_at;
	uint32_t types[16];
	uint64_t lost; /* PERF_RECORD_LOST counts as the callback read them */
};

static int seen_cb(const void *rec, size_t size, void *ctx)
{
	struct seen *sn = ctx;
	struct perf_event_header h;
	uint64_t v;

	memcpy(&h, rec, sizeof(h));
	assert_int_equal(h.size, size);
	if (h.type == PERF_RECORD_LOST) {
		memcpy(&v, (const unsigned char *)rec + 16, sizeof(v));
		sn->lost += v;
	}
	if (sn->n < 16)
		sn->types[sn->n] = h.type;
	sn->n++;
	return sn->n == sn->stop_at ? 4321 : 0;
}

/*
 * A LOST record whose count lies across the end of the ring, a SAMPLE
 * crossing it too: the batch counts them once, when handed back, and shows
 * the callback only the types asked for, whole.
 */
static void test_batch_accounts_once_when_done(void **state)
{
	(void)state;
	const uint64_t lost[] = { 11, 5 }, ls[] = { 3 }, thr[] = { 1, 11, 0 };
	struct perfev_ring_stats st;
	struct ring_batch b;
	struct seen sn = { 0 };
	uint64_t types = 1ull << PERF_RECORD_LOST | 1ull << PERF_RECORD_SAMPLE;
	struct sim s;

	/* The LOST record starts 16 bytes before the end: its count is the first 8 at the start. */
	sim_init(&s, 256, false, 256 - 16);
	put_body(&s, PERF_RECORD_LOST, lost, 2);
	put_body(&s, PERF_RECORD_THROTTLE, thr, 3);
	put_body(&s, PERF_RECORD_LOST_SAMPLES, ls, 1);
	sim_write(&s, PERF_RECORD_SAMPLE, 48, 1);
	assert_int_equal(ring__batch(s.ring, "test", types, seen_cb, &sn, &b), 0);
	assert_int_equal(b.len, 24 + 32 + 16 + 48);
	assert_ptr_equal(b.span[0].base, s.data + 240);
	assert_int_equal(b.span[0].len, 16);
	assert_ptr_equal(b.span[1].base, s.data);
	assert_int_equal(b.span[1].len, b.len - 16);
	assert_int_equal(sn.n, 2);
	assert_int_equal(sn.types[0], PERF_RECORD_LOST);
	assert_int_equal(sn.types[1], PERF_RECORD_SAMPLE);
	assert_int_equal(sn.lost, 5);
	assert_int_equal(b.add.records, 4);
	assert_int_equal(b.add.lost, 5);
	assert_int_equal(b.add.lost_records, 1);
	assert_int_equal(b.add.lost_samples, 3);
	assert_int_equal(b.add.throttle, 1);
	assert_int_equal(b.add.wrapped, 1); /* only the LOST record, which fn saw, was joined */

	/* Not handed back: the ring counts nothing yet, and the next batch sees it all again. */
	perfev_ring__stats(s.ring, &st);
	assert_int_equal(st.records, 0);
	assert_int_equal(ring__batch(s.ring, "test", 0, NULL, NULL, &b), 0);
	assert_int_equal(b.len, 120);
	assert_int_equal(b.add.wrapped, 0); /* no callback: nothing joined */
	ring__batch_done(s.ring, &b);
	assert_int_equal(s.page->data_tail, 256 - 16 + 120);
	perfev_ring__stats(s.ring, &st);
	assert_int_equal(st.records, 4);
	assert_int_equal(st.lost, 5);
	assert_int_equal(st.lost_samples, 3);
	assert_int_equal(st.bytes, 120);

	/* Nothing new: an empty batch, and done() with it changes nothing. */
	assert_int_equal(ring__batch(s.ring, "test", types, seen_cb, &sn, &b), 0);
	assert_int_equal(b.len, 0);
	ring__batch_done(s.ring, &b);
	perfev_ring__stats(s.ring, &st);
	assert_int_equal(st.records, 4);
	sim_free(&s);
}

static void test_batch_stops_and_refuses(void **state)
{
	(void)state;
	struct perf_event_header bad = { .type = PERF_RECORD_COMM, .size = 4 };
	struct perfev_ring_stats st;
	struct ring_batch b;
	struct seen sn = { .stop_at = 2 };
	struct sim s;

	/* The callback's value stops the walk: nothing is taken. */
	sim_init(&s, 256, false, 0);
	for (int i = 0; i < 4; i++)
		sim_write(&s, PERF_RECORD_SAMPLE, 32, (uint64_t)i);
	assert_int_equal(ring__batch(s.ring, "test", 1ull << PERF_RECORD_SAMPLE, seen_cb, &sn, &b),
			 4321);
	assert_int_equal(sn.n, 2);
	assert_int_equal(b.len, 0);
	assert_null(b.span[0].base);
	perfev_ring__stats(s.ring, &st);
	assert_int_equal(st.records, 0);
	assert_int_equal(s.page->data_tail, 0);

	/* A malformed header refuses the whole batch and leaves the ring unusable, as next() does. */
	sim_put(&s, s.page->data_head, &bad, sizeof(bad));
	s.page->data_head += 8;
	assert_int_equal(ring__batch(s.ring, "test", 0, NULL, NULL, &b), -PERFEV_ERR_FORMAT);
	assert_non_null(strstr(perfev_last_error(), "position 128 has size 4"));
	assert_int_equal(b.len, 0);
	assert_int_equal(ring__batch(s.ring, "test", 0, NULL, NULL, &b), -PERFEV_ERR_FORMAT);
	assert_int_equal(s.page->data_tail, 0);
	sim_free(&s);

	/* Overwrite rings are for snapshots. */
	sim_init(&s, 64, true, 0);
	assert_int_equal(ring__batch(s.ring, "the test", 0, NULL, NULL, &b), -EINVAL);
	assert_non_null(strstr(perfev_last_error(), "the test reads forward rings"));
	sim_free(&s);
	assert_int_equal(ring__batch(NULL, "the test", 0, NULL, NULL, &b), -EINVAL);
}

static int never(const void *rec, size_t size, void *ctx)
{
	(void)rec;
	(void)size;
	(void)ctx;
	return 1;
}

static void test_wrong_mode_and_arguments(void **state)
{
	(void)state;
	struct perfev_ring_stats st;
	struct perfev_span sp[2];
	struct sim s;
	const void *rec;
	size_t size = 1;
	char mem[RING_MEM_DATA_OFFSET + 64];

	sim_init(&s, 64, true, 0);
	assert_int_equal(perfev_ring__read_start(s.ring), -EINVAL);
	assert_int_equal(perfev_ring__next(s.ring, &rec, &size), -EINVAL);
	assert_int_equal(perfev_ring__peek(s.ring, sp), 0);
	assert_non_null(strstr(perfev_last_error(), "snapshot"));
	assert_int_equal(perfev_ring__fd(s.ring), -1);
	assert_int_equal(perfev_ring__set_output(s.ring, 0), -EBADF);
	assert_null(perfev_ring__aux(s.ring, &size));
	assert_int_equal(size, 0);
	sim_free(&s);

	sim_init(&s, 64, false, 0);
	assert_int_equal(perfev_ring__snapshot(s.ring, never, NULL), -EINVAL);
	assert_non_null(strstr(perfev_last_error(), "forward"));
	assert_ptr_equal(perfev_ring__page(s.ring), s.page);
	assert_int_equal(perfev_ring__size(s.ring), 64);
	sim_free(&s);

	assert_null(ring__new_mem(mem, 0, false));
	assert_null(ring__new_mem(mem, 48, false));
	assert_null(ring__new_mem(mem, 4, false));
	assert_int_equal(errno, EINVAL);
	perfev_ring__delete(NULL);
	perfev_ring__stats(NULL, &st);
	assert_int_equal(st.records, 0);
	assert_null(perfev_ring__new(-1, NULL));
	assert_int_equal(errno, EBADF);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_record_crossing_the_end),
		cmocka_unit_test(test_header_crossing_the_end),
		cmocka_unit_test(test_malformed_headers),
		cmocka_unit_test(test_head_beyond_the_ring),
		cmocka_unit_test(test_peek_spans_across_the_end),
		cmocka_unit_test(test_snapshot_before_wrapping),
		cmocka_unit_test(test_snapshot_drops_the_overwritten_oldest),
		cmocka_unit_test(test_loss_accounting),
		cmocka_unit_test(test_batch_accounts_once_when_done),
		cmocka_unit_test(test_batch_stops_and_refuses),
		cmocka_unit_test(test_wrong_mode_and_arguments),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
