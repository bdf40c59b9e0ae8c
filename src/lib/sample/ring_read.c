/* SPDX-License-Identifier: MIT */
/* Reading rings: records one by one, raw spans, overwrite snapshots, loss accounting. */
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

/* The record of len bytes at pos as one contiguous run: in place, or joined in r->copy. */
static const void *ring_record(struct perfev_ring *r, uint64_t pos, size_t len)
{
	size_t off = (size_t)(pos & (r->size - 1));

	if (off + len <= r->size)
		return r->data + off;
	ring_copy(r, pos, r->copy, len);
	r->stats.wrapped++;
	return r->copy;
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
		ring_copy(r, r->pos, &h, sizeof(h));
	if (left < sizeof(h) || h.size < sizeof(h) || h.size > left)
		return bad_header(r, r->pos, &h, left);
	*rec = ring_record(r, r->pos, h.size);
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

size_t perfev_ring__peek(struct perfev_ring *r, struct perfev_span span[2])
{
	uint64_t head, n;
	size_t off, first;

	span[0] = span[1] = (struct perfev_span){ NULL, 0 };
	if (!r) {
		set_error(EINVAL, "no ring given");
		return 0;
	}
	if (r->overwrite) {
		forward_only("perfev_ring__peek()");
		return 0;
	}
	if (r->broken) {
		broken();
		return 0;
	}
	head = load_head(r);
	if (head - r->tail > r->size) {
		head_too_far(r, head);
		return 0;
	}
	r->head = head;
	r->pos = r->tail;
	n = head - r->tail;
	off = (size_t)(r->tail & (r->size - 1));
	first = r->size - off < n ? r->size - off : (size_t)n;
	if (first)
		span[0] = (struct perfev_span){ r->data + off, first };
	if (n > first)
		span[1] = (struct perfev_span){ r->data, (size_t)n - first };
	return (size_t)n;
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

		ring_copy(r, head + walked, &h, sizeof(h));
		if (h.size < sizeof(h) || h.size > limit - walked)
			break;
		rec = ring_record(r, head + walked, h.size);
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
	uint64_t v;

	if (!r || !rec || size < sizeof(h))
		return;
	memcpy(&h, rec, sizeof(h));
	r->stats.records++;
	switch (h.type) {
	case PERF_RECORD_LOST: /* u64 id, u64 lost */
		if (size >= sizeof(h) + 2 * sizeof(v)) {
			memcpy(&v, (const unsigned char *)rec + sizeof(h) + sizeof(v), sizeof(v));
			r->stats.lost += v;
			r->stats.lost_records++;
		}
		break;
	case PERF_RECORD_LOST_SAMPLES: /* u64 lost */
		if (size >= sizeof(h) + sizeof(v)) {
			memcpy(&v, (const unsigned char *)rec + sizeof(h), sizeof(v));
			r->stats.lost_samples += v;
		}
		break;
	case PERF_RECORD_THROTTLE:
		r->stats.throttle++;
		break;
	case PERF_RECORD_UNTHROTTLE:
		r->stats.unthrottle++;
		break;
	default:
		break;
	}
}
