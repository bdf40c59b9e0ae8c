// SPDX-License-Identifier: MIT
/*
 * The sample filter: lists of commands, processes, threads, files and
 * events split once when the filter is made, so that each sample costs a
 * few comparisons; the time ranges are filter_time.c's.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "util/internal.h"
#include "util/opts.h"
#include "session/filter_int.h"
#include "session/session_int.h"
#include "perfev/symbols.h"

static int split_list(struct filter_list *l, const char *s)
{
	size_t n = 1;

	if (!s)
		return 0;
	l->text = strdup(s);
	for (const char *p = s; *p; p++)
		n += *p == ',';
	l->names = calloc(n, sizeof(*l->names));
	if (!l->text || !l->names)
		return set_error(ENOMEM, "sample filter: out of memory");
	for (char *p = l->text, *e; p; p = e) {
		e = strchr(p, ',');
		if (e)
			*e++ = '\0';
		l->names[l->nr++] = p;
	}
	return 0;
}

static void free_list(struct filter_list *l)
{
	free(l->text);
	free(l->names);
}

static bool list_has(const struct filter_list *l, const char *s)
{
	for (size_t i = 0; i < l->nr; i++)
		if (!strcmp(l->names[i], s))
			return true;
	return false;
}

/* "1,2,30" into ids; what is not a decimal id is an error naming it. */
static int split_ids(int **ids, size_t *nr, bool *has, const char *s, const char *what)
{
	struct filter_list l = { 0 };
	int err = split_list(&l, s);

	*has = s != NULL;
	if (!err && l.nr) {
		*ids = calloc(l.nr, sizeof(**ids));
		if (!*ids)
			err = set_error(ENOMEM, "sample filter: out of memory");
	}
	for (size_t i = 0; !err && i < l.nr; i++) {
		char *end;
		long v;

		errno = 0;
		v = strtol(l.names[i], &end, 10);
		if (!*l.names[i] || *end || errno || v < -1 || v > INT_MAX)
			err = set_error(EINVAL, "'%s' in the %s list is not a %s id: give decimal numbers "
					"separated by commas", l.names[i], what, what);
		else
			(*ids)[(*nr)++] = (int)v;
	}
	free_list(&l);
	return err;
}

struct perfev_sample_filter *perfev_sample_filter__new(const struct perfev_sample_filter_opts *opts)
{
	struct perfev_sample_filter_opts o;
	struct perfev_sample_filter *f;
	int err;

	if (OPTS_COPY(&o, opts, perfev_sample_filter_opts, time) < 0)
		return NULL;
	f = calloc(1, sizeof(*f));
	if (!f)
		return set_error_ptr(ENOMEM, "sample filter: out of memory");
	err = split_list(&f->comms, o.comms);
	if (!err)
		err = split_list(&f->dsos, o.dsos);
	if (!err)
		err = split_list(&f->events, o.events);
	if (!err)
		err = split_ids(&f->pids, &f->nr_pids, &f->has_pids, o.pids, "process");
	if (!err)
		err = split_ids(&f->tids, &f->nr_tids, &f->has_tids, o.tids, "thread");
	if (!err && o.time)
		err = filter_parse_time(f, o.time);
	if (err) {
		perfev_sample_filter__delete(f);
		errno = -err;
		return NULL;
	}
	return f;
}

void perfev_sample_filter__delete(struct perfev_sample_filter *f)
{
	if (!f)
		return;
	free_list(&f->comms);
	free_list(&f->dsos);
	free_list(&f->events);
	free(f->pids);
	free(f->tids);
	free(f->ranges);
	free(f->event_ok);
	free(f);
}

static bool id_in(const int *ids, size_t nr, int v)
{
	for (size_t i = 0; i < nr; i++)
		if (ids[i] == v)
			return true;
	return false;
}

bool filter_thread_ok(const struct perfev_sample_filter *f, const struct perfev_thread *t)
{
	if (f->comms.text && !list_has(&f->comms, perfev_thread__comm(t)))
		return false;
	if (f->has_pids && !id_in(f->pids, f->nr_pids, perfev_thread__pid(t)))
		return false;
	return !f->has_tids || id_in(f->tids, f->nr_tids, perfev_thread__tid(t));
}

bool filter_has_events(const struct perfev_sample_filter *f)
{
	return f->events.text != NULL;
}

bool filter_event_ok(struct perfev_sample_filter *f, const struct perfev_session *s, int evsel)
{
	if (!f->events.text)
		return true;
	if (evsel < 0)
		return false;
	if ((size_t)evsel >= f->cap_event_ok) {
		size_t old = f->cap_event_ok;

		/* Without the memory to remember, the name is compared every time. */
		if (!array_grow((void **)&f->event_ok, &f->cap_event_ok, (size_t)evsel + 1, 1))
			return list_has(&f->events, sess_evsel_name(s, (size_t)evsel));
		memset(f->event_ok + old, 0, f->cap_event_ok - old);
	}
	if (!f->event_ok[evsel])
		f->event_ok[evsel] = list_has(&f->events, sess_evsel_name(s, (size_t)evsel))
					     ? 1 : 2;
	return f->event_ok[evsel] == 1;
}

bool perfev_sample_filter__dso_ok(const struct perfev_sample_filter *f, const struct perfev_dso *dso,
				  bool kernel)
{
	const char *name;

	if (!f || !f->dsos.text)
		return true;
	name = kernel ? PERFEV_KERNEL_DSO_NAME : dso ? perfev_dso__name(dso) : PERFEV_UNKNOWN_NAME;
	if (list_has(&f->dsos, name))
		return true;
	return dso && !kernel && list_has(&f->dsos, perfev_dso__short_name(dso));
}

bool filter_dso_ok(const struct perfev_sample_filter *f, const struct perfev_frame *leaf)
{
	if (!leaf)
		return perfev_sample_filter__dso_ok(f, NULL, false);
	return perfev_sample_filter__dso_ok(f, leaf->dso, leaf->kernel);
}

bool perfev_sample_filter__thread_ok(const struct perfev_sample_filter *f,
				     const struct perfev_thread *t)
{
	return !f || filter_thread_ok(f, t);
}
