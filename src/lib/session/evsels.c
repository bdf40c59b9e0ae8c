// SPDX-License-Identifier: MIT
/*
 * The events a session's records belong to: a file's (its reader's attrs,
 * names and ids) or, for a live session, an event list's, copied when the
 * session is made so that records fed later decode the same way.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util/internal.h"
#include "perfev/evlist.h"
#include "session/session_int.h"

size_t sess_nr_evsels(const struct perfev_session *s)
{
	return s->reader ? perfev_data_reader__nr_evsels(s->reader) : s->live.nr;
}

const struct perf_event_attr *sess_attr(const struct perfev_session *s, size_t i)
{
	if (s->reader)
		return perfev_data_reader__attr(s->reader, i);
	return i < s->live.nr ? &s->live.attrs[i] : NULL;
}

const struct perfev_sample_fmt *sess_fmt(const struct perfev_session *s, size_t i)
{
	if (s->reader)
		return perfev_data_reader__sample_fmt(s->reader, i);
	return i < s->live.nr ? &s->live.fmts[i] : NULL;
}

const char *sess_evsel_name(const struct perfev_session *s, size_t i)
{
	if (s->reader)
		return perfev_data_reader__evsel_name(s->reader, i);
	return i < s->live.nr ? s->live.names[i] : "";
}

int sess_evsel_of_id(const struct perfev_session *s, uint64_t id)
{
	const struct perfev_evsel *ev;

	if (s->reader)
		return perfev_data_reader__evsel_of_id(s->reader, id);
	/* Synthesized records carry id 0: the first event's, as in a file. */
	if (!id)
		return s->live.nr ? 0 : -1;
	ev = perfev_evlist__evsel_by_id(s->live.el, id);
	return ev ? perfev_evsel__idx(ev) : -1;
}

int sess_live_init(struct perfev_session *s, const struct perfev_evlist *el)
{
	struct perfev_evsel *ev;
	size_t n = (size_t)perfev_evlist__nr_evsels(el), i = 0;

	if (!n)
		return set_error(EINVAL, "session: the event list has no events");
	s->live.el = el;
	s->live.attrs = calloc(n, sizeof(*s->live.attrs));
	s->live.fmts = calloc(n, sizeof(*s->live.fmts));
	s->live.names = calloc(n, sizeof(*s->live.names));
	if (!s->live.attrs || !s->live.fmts || !s->live.names)
		return set_error(ENOMEM, "session: out of memory");
	s->live.nr = n;
	perfev_evlist__for_each_evsel(el, ev) {
		int err;

		s->live.attrs[i] = *perfev_evsel__attr(ev);
		err = perfev_sample_fmt__from_attr(&s->live.attrs[i], &s->live.fmts[i]);
		if (err < 0)
			return err;
		s->live.names[i] = strdup(perfev_evsel__name(ev));
		if (!s->live.names[i])
			return set_error(ENOMEM, "session: out of memory");
		i++;
	}
	return 0;
}

void sess_live_free(struct perfev_session *s)
{
	for (size_t i = 0; i < s->live.nr && s->live.names; i++)
		free(s->live.names[i]);
	free(s->live.names);
	free(s->live.attrs);
	free(s->live.fmts);
}
