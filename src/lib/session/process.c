// SPDX-License-Identifier: MIT
/*
 * Reading a file through: its records one after the other, queued for time
 * order and delivered round by round, in the caller's thread or (read_ahead)
 * read and ordered on a thread of the session's own as far as it can.
 */
#include <errno.h>
#include <stdio.h>

#include "util/internal.h"
#include "perfdata/reader_int.h"
#include "session/offcpu_int.h"
#include "session/session_int.h"

int perfev_session__process(struct perfev_session *s, perfev_session_sample_fn fn, void *ctx)
{
	struct perfev_data_event ev;
	int ret;

	if (!s->reader)
		return set_error(EINVAL, "session: a live session is read with perfev_session__flush()");
	if (sess_can_read_ahead(s) && (ret = sess_read_ahead(s, fn, ctx)))
		return ret;
	while ((ret = perfev_data_reader__next(s->reader, &ev)) > 0) {
		uint32_t type = ev.rec.type;

		if (type == PERFEV_RECORD_FINISHED_ROUND) {
			if (!s->ordered)
				continue;
			ret = sess_flush(s, sess_round_end(s), fn, ctx);
			if (ret)
				return ret;
			continue;
		}
		/* Everything before it is read (or, compressed, before the record holding it). */
		s->read_offset = ev.offset;
		if (type >= PERF_RECORD_MAX)
			continue; /* perf's own records: the reader took what it needed */
		if (!s->ordered) {
			ret = sess_deliver(s, &ev, fn, ctx);
		} else {
			ret = sess_queue(s, &ev);
		}
		if (ret)
			return ret;
	}
	if (ret < 0) {
		/* Deliver what came before the bad record, then report it. */
		char msg[512];
		int err = ret, r;

		snprintf(msg, sizeof(msg), "%s", perfev_last_error());
		r = sess_flush(s, UINT64_MAX, fn, ctx);
		if (!r)
			r = offcpu_finish(s, fn, ctx);
		if (r)
			return r;
		set_error(-err, "%s", msg);
		return err;
	}
	ret = sess_flush(s, UINT64_MAX, fn, ctx);
	return ret ? ret : offcpu_finish(s, fn, ctx);
}

void perfev_session__progress(const struct perfev_session *s, uint64_t *done, uint64_t *total)
{
	uint64_t d = 0, t = 0;

	if (s && s->reader) {
		/* Not the reader's progress: its position is the reading thread's. */
		t = s->reader->pipe || s->reader->to_eof ? 0 : s->reader->data_size;
		d = s->delivered_offset > s->reader->data_off ? s->delivered_offset - s->reader->data_off
							       : 0;
		if (t && d > t)
			d = t;
	}
	if (done)
		*done = d;
	if (total)
		*total = t;
}
