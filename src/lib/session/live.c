// SPDX-License-Identifier: MIT
/*
 * A live session: records come from an event list's rings (and from /proc,
 * synthesized by the caller) instead of a file.  Reading every ring once
 * is a round, as a recorder's FINISHED_ROUND marks one: a record read in
 * the next round cannot be older than the newest of the round before, so
 * what is older than that is delivered, in time order, and the rest waits.
 */
#include <errno.h>
#include <string.h>

#include "util/internal.h"
#include "perfev/ring.h"
#include "session/session_int.h"

struct perfev_session *perfev_session__new_live(const struct perfev_evlist *el,
						const struct perfev_session_opts *opts)
{
	struct perfev_session *s;
	int err;

	if (!el)
		return set_error_ptr(EINVAL, "session: no event list to read");
	s = sess_new(opts);
	if (!s)
		return NULL;
	err = sess_live_init(s, el);
	if (!err)
		err = sess_init(s);
	if (err < 0) {
		perfev_session__delete(s);
		errno = -err;
		return NULL;
	}
	s->ordered = true;
	return s;
}

/* The event a record belongs to: by its id, else (no id in it) the first. */
static int record_evsel(const struct perfev_session *s, const void *rec, size_t size)
{
	uint64_t id;
	int err = perfev_record__peek_id(&s->live.fmts[0], rec, size, &id);

	if (err == -ENOENT)
		return 0;
	if (err < 0)
		return err;
	err = sess_evsel_of_id(s, id);
	return err < 0 ? -ENOENT : err;
}

int perfev_session__feed(struct perfev_session *s, const void *rec, size_t size)
{
	struct perfev_data_event ev = { 0 };
	int evsel, err;

	if (!s || s->reader)
		return set_error(EINVAL, "session: records are fed to a live session only");
	if (!rec || size < sizeof(struct perf_event_header))
		return set_error(PERFEV_ERR_FORMAT, "session: a record of %zu bytes is shorter than its header",
				 size);
	evsel = record_evsel(s, rec, size);
	/* A record of an event not in the list (its id unknown) belongs to nobody here. */
	if (evsel == -ENOENT)
		return 0;
	if (evsel < 0)
		return evsel;
	err = perfev_record__parse(&s->live.fmts[evsel], rec, size, &ev.rec);
	if (err < 0)
		return err;
	if (ev.rec.type >= PERF_RECORD_MAX)
		return 0;
	ev.evsel = evsel;
	return sess_queue(s, &ev);
}

int64_t perfev_session__read_rings(struct perfev_session *s)
{
	int64_t total = 0;

	if (!s || s->reader)
		return set_error(EINVAL, "session: rings are read by a live session only");
	for (int i = 0; i < perfev_evlist__nr_rings(s->live.el); i++) {
		struct perfev_ring *r = perfev_evlist__ring(s->live.el, i);
		int64_t avail = perfev_ring__read_start(r);
		const void *rec;
		size_t size;
		int ret;

		if (avail < 0)
			return avail;
		if (!avail)
			continue;
		while ((ret = perfev_ring__next(r, &rec, &size)) > 0) {
			int err = perfev_session__feed(s, rec, size);

			/* A record the decoder refuses is skipped: the ring's framing is still sound. */
			if (err == -ENOMEM) {
				perfev_ring__read_done(r);
				return err;
			}
			total++;
		}
		perfev_ring__read_done(r);
		if (ret < 0)
			return ret;
	}
	return total;
}

int perfev_session__flush(struct perfev_session *s, bool all, perfev_session_sample_fn fn, void *ctx)
{
	if (!s || s->reader)
		return set_error(EINVAL, "session: a file's session is read with perfev_session__process()");
	if (all)
		return sess_flush(s, UINT64_MAX, fn, ctx);
	return sess_flush(s, sess_round_end(s), fn, ctx);
}
