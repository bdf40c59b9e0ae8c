/* SPDX-License-Identifier: MIT */
/*
 * Reading rings: records one by one, raw spans, batches of spans with their
 * records accounted, overwrite snapshots, loss accounting.
 */
#include <string.h>
#include <sys/ioctl.h>

#include "sample/ring_int.h"

static uint64_t load_head(const struct perfev_ring *r)
{
	/* Pairs with the kernel's barrier before it publishes data_head. */
	return __atomic_load_n(&r->page->data_head, __ATOMIC_ACQUIRE);
}

static void store_tail(struct perfev_ring *r, uint64_t tail)
{
	/* Every read of the records before tail must be done before the kernel may reuse them. */
	__atomic_store_n(&r->page->data_tail, tail, __ATOMIC_RELEASE);
}

/* Copies len (<= size) bytes at ring position pos, joining the two halves of a wrap. */
static void ring_copy(const struct perfev_ring *r, uint64_t pos, void *dst, size_t len)
{
	size_t off = (size_t)(pos & (r->size - 1)), first = r->size - off;

	if (first > len)
		first = len;
	memcpy(dst, r->data + off, first);
	memcpy((unsigned char *)dst + first, r->data, len - first);
}

/*
 * The record of len bytes at pos as one contiguous run: in place, or joined
 * in r->copy (counted in st).
 */
static const void *ring_record(struct perfev_ring *r, uint64_t pos, size_t len,
			       struct perfev_ring_stats *st)
{
	size_t off = (size_t)(pos & (r->size - 1));

	if (off + len <= r->size)
		return r->data + off;
	ring_copy(r, pos, r->copy, len);
	st->wrapped++;
	return r->copy;
}

/* The header at pos, which needs at least 8 bytes there. */
static void ring_header(const struct perfev_ring *r, uint64_t pos, struct perf_event_header *h)
{
	size_t off = (size_t)(pos & (r->size - 1));

	if (off + sizeof(*h) <= r->size)
		memcpy(h, r->data + off, sizeof(*h));
	else
		ring_copy(r, pos, h, sizeof(*h));
}

/*
 * Where a record carries the u64 count of what was lost (PERF_RECORD_LOST:
 * u64 id, u64 lost; PERF_RECORD_LOST_SAMPLES: u64 lost), or 0 when it
 * carries none or is too short to.
 */
static size_t loss_at(uint32_t type, size_t size)
{
	size_t at = type == PERF_RECORD_LOST ? 16 : type == PERF_RECORD_LOST_SAMPLES ? 8 : 0;

	return at && size >= at + sizeof(uint64_t) ? at : 0;
}

/* What one record adds to st; loss is the u64 at loss_at(). */
static void stats_add(struct perfev_ring_stats *st, uint32_t type, size_t size, uint64_t loss)
{
	st->records++;
	switch (type) {
	case PERF_RECORD_LOST:
		if (loss_at(type, size)) {
			st->lost += loss;
			st->lost_records++;
		}
		break;
	case PERF_RECORD_LOST_SAMPLES:
		if (loss_at(type, size))
			st->lost_samples += loss;
		break;
	case PERF_RECORD_THROTTLE:
		st->throttle++;
		break;
	case PERF_RECORD_UNTHROTTLE:
		st->unthrottle++;
		break;
	default:
		break;
	}
}

static int broken(void)
{
	return set_error(PERFEV_ERR_FORMAT, "the ring held a malformed record earlier and its "
					    "reader has lost its place: stop reading it (close and "
					    "reopen the event to start over)");
}

static int forward_only(const char *what)
{
	return set_error(EINVAL, "%s reads forward rings; this one is mapped for overwrite: use "
				 "perfev_ring__snapshot()",
			 what);
}

/* data_head too far ahead: the page is not a ring's, or the kernel and reader disagree. */
static int head_too_far(struct perfev_ring *r, uint64_t head)
{
	r->broken = true;
	return set_error(PERFEV_ERR_FORMAT, "ring data_head %llu is %llu bytes past the reader "
					    "(data_tail %llu), more than the %zu bytes the ring "
					    "holds: the ring is corrupt",
			 (unsigned long long)head, (unsigned long long)(head - r->tail),
			 (unsigned long long)r->tail, r->size);
}

int64_t perfev_ring__read_start(struct perfev_ring *r)
{
	uint64_t head;

	if (!r)
		return set_error(EINVAL, "no ring given");
	if (r->overwrite)
		return forward_only("perfev_ring__read_start()");
	if (r->broken)
		return broken();
	head = load_head(r);
	if (head - r->tail > r->size)
		return head_too_far(r, head);
	r->head = head;
	r->pos = r->tail;
	return (int64_t)(head - r->tail);
}

static int bad_header(struct perfev_ring *r, uint64_t pos, const struct perf_event_header *h,
		      uint64_t left)
{
	r->broken = true;
	if (left < sizeof(*h))
		return set_error(PERFEV_ERR_FORMAT, "the ring ends %llu bytes after position %llu, "
						    "inside a record header: the ring is corrupt",
				 (unsigned long long)left, (unsigned long long)pos);
	if (h->size < sizeof(*h))
		return set_error(PERFEV_ERR_FORMAT, "record of type %u at ring position %llu has "
						    "size %u, less than its 8-byte header: the ring "
						    "is corrupt",
				 h->type, (unsigned long long)pos, h->size);
	return set_error(PERFEV_ERR_FORMAT, "record of type %u at ring position %llu has size %u "
					    "but only %llu bytes were written up to data_head: the "
					    "ring is corrupt",
			 h->type, (unsigned long long)pos, h->size, (unsigned long long)left);
}

int perfev_ring__next(struct perfev_ring *r, const void **rec, size_t *size)
{
	struct perf_event_header h = { 0 };
	uint64_t left;

	if (!r || !rec || !size)
		return set_error(EINVAL, "perfev_ring__next() needs a ring, rec and size");
	if (r->overwrite)
		return forward_only("perfev_ring__next()");
	if (r->broken)
		return broken();
	left = r->head - r->pos;
	if (!left)
		return 0;
	if (left >= sizeof(h))
		ring_header(r, r->pos, &h);
	if (left < sizeof(h) || h.size < sizeof(h) || h.size > left)
		return bad_header(r, r->pos, &h, left);
	*rec = ring_record(r, r->pos, h.size, &r->stats);
	*size = h.size;
	r->pos += h.size;
	perfev_ring__account(r, *rec, h.size);
	return 1;
}

void perfev_ring__read_done(struct perfev_ring *r)
{
	if (!r || r->overwrite || r->pos == r->tail)
		return;
	r->stats.bytes += r->pos - r->tail;
	r->tail = r->pos;
	store_tail(r, r->tail);
}

/* The unread bytes up to a new data_head as spans; 0 or an explained error. */
static int peek(struct perfev_ring *r, const char *fn, struct perfev_span span[2], size_t *len)
{
	uint64_t head, n;
	size_t off, first;

	span[0] = span[1] = (struct perfev_span){ NULL, 0 };
	*len = 0;
	if (!r)
		return set_error(EINVAL, "%s: no ring given", fn);
	if (r->overwrite)
		return forward_only(fn);
	if (r->broken)
		return broken();
	head = load_head(r);
	if (head - r->tail > r->size)
		return head_too_far(r, head);
	r->head = head;
	r->pos = r->tail;
	n = head - r->tail;
	off = (size_t)(r->tail & (r->size - 1));
	first = r->size - off < n ? r->size - off : (size_t)n;
	if (first)
		span[0] = (struct perfev_span){ r->data + off, first };
	if (n > first)
		span[1] = (struct perfev_span){ r->data, (size_t)n - first };
	*len = (size_t)n;
	return 0;
}

size_t perfev_ring__peek(struct perfev_ring *r, struct perfev_span span[2])
{
	size_t n;

	return peek(r, "perfev_ring__peek()", span, &n) < 0 ? 0 : n;
}

void perfev_ring__consume(struct perfev_ring *r, size_t n)
{
	uint64_t avail;

	if (!r || r->overwrite || r->broken)
		return;
	/* Never hand back bytes the kernel has not written: it would overwrite unread ones. */
	avail = r->head - r->tail;
	if (n > avail)
		n = (size_t)avail;
	if (!n)
		return;
	r->tail += n;
	r->pos = r->tail;
	r->stats.bytes += n;
	store_tail(r, r->tail);
}

static int pause_output(const struct perfev_ring *r, unsigned long on)
{
	if (r->fd < 0 || ioctl(r->fd, PERF_EVENT_IOC_PAUSE_OUTPUT, on) == 0)
		return 0;
	return set_error(errno, "cannot %s the ring of event fd %d "
				"(PERF_EVENT_IOC_PAUSE_OUTPUT): %s",
			 on ? "pause" : "resume", r->fd, strerror(errno));
}

/*
 * An overwrite ring is written backward: data_head counts down from 0, so
 * -data_head bytes have been written, the newest record starts at data_head
 * and the older ones follow it in memory.  Only the last size bytes from
 * data_head are still there; the record straddling that point had its end
 * overwritten by the newest ones and is left out, as is anything after a
 * zero header (never written yet).
 */
int perfev_ring__snapshot(struct perfev_ring *r, perfev_ring_fn_t fn, void *ctx)
{
	uint64_t head, limit, walked = 0;
	int ret = 0, err;

	if (!r || !fn)
		return set_error(EINVAL, "perfev_ring__snapshot() needs a ring and a callback");
	if (!r->overwrite)
		return set_error(EINVAL, "perfev_ring__snapshot() walks overwrite rings; this one "
					 "is a forward ring: use perfev_ring__read_start() and "
					 "perfev_ring__next()");
	err = pause_output(r, 1);
	if (err)
		return err;
	head = load_head(r);
	limit = 0 - head;
	if (limit > r->size)
		limit = r->size;
	while (limit - walked >= sizeof(struct perf_event_header)) {
		struct perf_event_header h;
		const void *rec;

		ring_header(r, head + walked, &h);
		if (h.size < sizeof(h) || h.size > limit - walked)
			break;
		rec = ring_record(r, head + walked, h.size, &r->stats);
		walked += h.size;
		perfev_ring__account(r, rec, h.size);
		ret = fn(rec, h.size, ctx);
		if (ret)
			break;
	}
	err = pause_output(r, 0);
	return ret ? ret : err;
}

void perfev_ring__stats(const struct perfev_ring *r, struct perfev_ring_stats *out)
{
	if (!out)
		return;
	if (!r) {
		memset(out, 0, sizeof(*out));
		return;
	}
	*out = r->stats;
}

void perfev_ring__account(struct perfev_ring *r, const void *rec, size_t size)
{
	struct perf_event_header h;
	uint64_t loss = 0;
	size_t at;

	if (!r || !rec || size < sizeof(h))
		return;
	memcpy(&h, rec, sizeof(h));
	if ((at = loss_at(h.type, size)))
		memcpy(&loss, (const unsigned char *)rec + at, sizeof(loss));
	stats_add(&r->stats, h.type, size, loss);
}

int ring__batch(struct perfev_ring *r, const char *who, uint64_t types, perfev_ring_fn_t fn,
		void *ctx, struct ring_batch *b)
{
	int ret;

	memset(b, 0, sizeof(*b));
	if ((ret = peek(r, who, b->span, &b->len)) < 0)
		return ret;
	for (uint64_t pos = r->tail, end = r->head; pos < end;) {
		struct perf_event_header h = { 0 };
		uint64_t left = end - pos, loss = 0;
		size_t at;

		if (left >= sizeof(h))
			ring_header(r, pos, &h);
		if (left < sizeof(h) || h.size < sizeof(h) || h.size > left) {
			ret = bad_header(r, pos, &h, left);
			goto fail;
		}
		if ((at = loss_at(h.type, h.size)))
			ring_copy(r, pos + at, &loss, sizeof(loss));
		stats_add(&b->add, h.type, h.size, loss);
		if (fn && h.type < 64 && (types >> h.type & 1)) {
			ret = fn(ring_record(r, pos, h.size, &b->add), h.size, ctx);
			if (ret)
				goto fail;
		}
		pos += h.size;
	}
	return 0;
fail:
	b->len = 0;
	b->span[0] = b->span[1] = (struct perfev_span){ NULL, 0 };
	return ret;
}

void ring__batch_done(struct perfev_ring *r, const struct ring_batch *b)
{
	struct perfev_ring_stats *st;

	if (!r || !b->len)
		return;
	perfev_ring__consume(r, b->len);
	st = &r->stats;
	st->records += b->add.records;
	st->lost += b->add.lost;
	st->lost_records += b->add.lost_records;
	st->lost_samples += b->add.lost_samples;
	st->throttle += b->add.throttle;
	st->unthrottle += b->add.unthrottle;
	st->wrapped += b->add.wrapped;
}
