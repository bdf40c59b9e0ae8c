// SPDX-License-Identifier: MIT
/*
 * The session: reads a perf.data file, puts its records in time order
 * within FINISHED_ROUND windows (as perf's ordered events do), keeps the
 * threads and maps current, and hands each sample to the caller with its
 * stack resolved.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util/internal.h"
#include "perfev/evlist.h"
#include "perfdata/reader_int.h"
#include "session/filter_int.h"
#include "session/offcpu_int.h"
#include "session/session_int.h"
#include "util/opts.h"

#define DEFAULT_MAX_FRAMES 512
#define MAX_FRAMES_LIMIT 65536

static void count_evsel(struct perfev_session *s, int evsel, uint64_t period);

/* Sessions number their frames' ids apart: a profile fed by two sessions must not mix them. */
static uint32_t last_id_space;

static void quiet_warn(void *ctx, const char *msg)
{
	(void)ctx;
	(void)msg;
}

/* The first and last sample times of the file at path, read from its samples. */
static int scan_span(const char *path, uint64_t *first, uint64_t *last)
{
	struct perfev_data_reader_opts ro = { .sz = sizeof(ro), .warn = quiet_warn };
	struct perfev_data_reader *r = perfev_data_reader__open(path, &ro);
	struct perfev_data_event ev;
	int err;

	if (!r)
		return -errno;
	*first = *last = 0;
	while ((err = perfev_data_reader__next(r, &ev)) > 0) {
		const struct perfev_sample *sm = &ev.rec.sample;

		if (ev.rec.type != PERF_RECORD_SAMPLE || !(sm->sample_type & PERF_SAMPLE_TIME) || !sm->time)
			continue;
		if (!*first || sm->time < *first)
			*first = sm->time;
		if (sm->time > *last)
			*last = sm->time;
	}
	perfev_data_reader__delete(r);
	return err;
}

/*
 * Percent time ranges are of the recording's span: perf's HEADER_SAMPLE_TIME
 * when the file has it, else the file's own sample times, read first.
 */
static int resolve_span(struct perfev_session *s, const char *path)
{
	uint64_t first, last;
	int err;

	if (!perfev_sample_filter__needs_span(s->opts.filter))
		return 0;
	if (perfev_data_reader__sample_time(s->reader, &first, &last) < 0 || !last) {
		if (perfev_data_reader__is_pipe(s->reader))
			return set_error(EINVAL, "time ranges in percent are shares of the recording's span, "
					 "which a pipe does not give before its samples; give the range in "
					 "seconds, or read a file");
		err = scan_span(path, &first, &last);
		if (err < 0)
			return err;
	}
	return perfev_sample_filter__set_span(s->opts.filter, first, last);
}

int sess_init(struct perfev_session *s)
{
	s->sy = s->opts.symbolizer;
	if (!s->sy) {
		s->sy = perfev_symbolizer__new(NULL);
		s->own_sy = true;
		if (!s->sy)
			return -errno;
	}
	if (!s->opts.no_unwind) {
		s->unwinder = perfev_unwinder__new(NULL);
		if (!s->unwinder)
			return -errno;
	}
	/* Without the cache everything still works, only slower. */
	s->rcache = table_calloc(1u << RCACHE_BITS, sizeof(*s->rcache));
	s->id_space = __atomic_add_fetch(&last_id_space, 1, __ATOMIC_RELAXED);
	s->frames = calloc(s->opts.max_frames, sizeof(*s->frames));
	s->ips = calloc(s->opts.max_frames, sizeof(*s->ips));
	if (!s->frames || !s->ips)
		return set_error(ENOMEM, "session: out of memory");
	return 0;
}

struct perfev_session *sess_new(const struct perfev_session_opts *opts)
{
	struct perfev_session_opts o;
	struct perfev_session *s;

	if (OPTS_COPY(&o, opts, perfev_session_opts, symbolizer) < 0)
		return NULL;
	if (o.max_frames > MAX_FRAMES_LIMIT)
		return set_error_ptr(EINVAL, "session: max_frames %u is above the limit of %u",
				     o.max_frames, MAX_FRAMES_LIMIT);
	s = calloc(1, sizeof(*s));
	if (!s)
		return set_error_ptr(ENOMEM, "session: out of memory");
	s->opts = o;
	s->opts.sz = sizeof(s->opts);
	if (!s->opts.max_frames)
		s->opts.max_frames = DEFAULT_MAX_FRAMES;
	s->kernel.pid = -1;
	return s;
}

struct perfev_session *perfev_session__open(const char *path,
					    const struct perfev_session_opts *opts)
{
	struct perfev_session *s = sess_new(opts);
	int err;

	if (!s)
		return NULL;
	s->reader = perfev_data_reader__open(path, s->opts.reader_opts);
	if (!s->reader)
		goto err_out;
	err = resolve_span(s, path);
	if (err < 0) {
		errno = -err;
		goto err_out;
	}
	err = sess_init(s);
	if (err < 0) {
		errno = -err;
		goto err_out;
	}
	if (s->opts.off_cpu && offcpu_init(s, count_evsel) < 0)
		goto err_out;
	/* Time order needs every event's samples to carry their time. */
	s->ordered = !s->opts.file_order;
	return s;
err_out:
	err = errno;
	perfev_session__delete(s);
	errno = err;
	return NULL;
}

/* The ordering's scratch room (sort_queue(), sess_flush()), given back. */
static void free_scratch(struct perfev_session *s)
{
	free(s->qtmp);
	free(s->runs);
	free(s->qbuf_tmp);
	s->qtmp = NULL;
	s->runs = NULL;
	s->qbuf_tmp = NULL;
	s->cap_qtmp = s->cap_runs = s->cap_qbuf_tmp = 0;
}

void perfev_session__delete(struct perfev_session *s)
{
	if (!s)
		return;
	offcpu_free(s);
	perfev_unwinder__delete(s->unwinder);
	if (s->own_sy)
		perfev_symbolizer__delete(s->sy);
	perfev_data_reader__delete(s->reader);
	sess_live_free(s);
	sess_threads_free(s);
	free(s->q);
	free(s->qbuf);
	free_scratch(s);
	table_free(s->rcache, 1u << RCACHE_BITS, sizeof(*s->rcache));
	if (s->idents)
		table_free(s->idents, (size_t)1 << s->ident_bits, sizeof(*s->idents));
	big_array_free(s->ident_keys, s->ident_keys_cap, sizeof(*s->ident_keys));
	free(s->frames);
	free(s->ips);
	free(s->evsels);
	free(s->sids);
	idxhash_free(&s->sid_hash);
	free(s);
}

int perfev_session__trim(struct perfev_session *s)
{
	if (!s || !s->reader)
		return set_error(EINVAL, "perfev_session__trim: %s",
				 s ? "a live session resolves samples as long as it runs" : "no session");
	table_free(s->rcache, 1u << RCACHE_BITS, sizeof(*s->rcache));
	s->rcache = NULL;
	if (s->idents)
		table_free(s->idents, (size_t)1 << s->ident_bits, sizeof(*s->idents));
	s->idents = NULL;
	s->ident_bits = 0;
	big_array_free(s->ident_keys, s->ident_keys_cap, sizeof(*s->ident_keys));
	s->ident_keys = NULL;
	s->ident_keys_cap = 0;
	/* The file's pages read so far: a report's tables need none of them. */
	pdr_release_all(s->reader);
	/* The ordering's scratch room grows again if more is read. */
	free_scratch(s);
	s->trimmed = true;
	return 0;
}

struct perfev_data_reader *perfev_session__reader(const struct perfev_session *s)
{
	return s->reader;
}

struct perfev_symbolizer *perfev_session__symbolizer(const struct perfev_session *s)
{
	return s->sy;
}

const struct perfev_session_stats *perfev_session__stats(const struct perfev_session *s)
{
	return &s->stats;
}

int perfev_session__evsel_stats(const struct perfev_session *s, size_t evsel,
				uint64_t *nr_samples, uint64_t *period, uint64_t *lost)
{
	struct sevsel z = { 0 };
	const struct sevsel *e = evsel < s->nr_evsels ? &s->evsels[evsel] : &z;

	if (evsel >= sess_nr_evsels(s))
		return -ENOENT;
	if (nr_samples)
		*nr_samples = e->nr_samples;
	if (period)
		*period = e->period;
	if (lost)
		*lost = e->lost;
	return 0;
}

static struct sevsel *evsel_stats(struct perfev_session *s, int evsel)
{
	if (evsel < 0)
		return NULL;
	if ((size_t)evsel >= s->nr_evsels) {
		size_t n = (size_t)evsel + 8;
		struct sevsel *e = realloc(s->evsels, n * sizeof(*e));

		if (!e)
			return NULL;
		memset(e + s->nr_evsels, 0, (n - s->nr_evsels) * sizeof(*e));
		s->evsels = e;
		s->nr_evsels = n;
	}
	return &s->evsels[evsel];
}

struct sid_key {
	const struct perfev_session *s;
	uint64_t id;
};

static bool sid_eq(const void *ctx, uint32_t idx)
{
	const struct sid_key *k = ctx;

	return k->s->sids[idx].id == k->id;
}

/* The increase of the count of event id since its previous sample (perf's per-id deltas). */
static uint64_t id_delta(struct perfev_session *s, uint64_t id, uint64_t value)
{
	struct sid_key k = { s, id };
	uint64_t h = hash_mix(id, 3), prev;
	int64_t i = idxhash_find(&s->sid_hash, h, sid_eq, &k);

	if (i < 0) {
		if (!array_grow((void **)&s->sids, &s->cap_sids, s->nr_sids + 1, sizeof(*s->sids)) ||
		    idxhash_insert(&s->sid_hash, h, s->nr_sids) < 0)
			return 0;
		i = s->nr_sids++;
		s->sids[i].id = id;
		s->sids[i].last = 0;
	}
	prev = s->sids[i].last;
	s->sids[i].last = value;
	return value >= prev ? value - prev : 0;
}

/* A sample without PERF_SAMPLE_PERIOD stands for its event's fixed period (perf's reading). */
static uint64_t fixed_period(const struct perfev_session *s, int evsel)
{
	const struct perf_event_attr *a =
		evsel >= 0 ? sess_attr(s, (size_t)evsel) : NULL;

	return a && !a->freq && a->sample_period ? a->sample_period : 1;
}

/* Counts one delivery of event evsel with its period, filtered or not (the stats are of the file). */
static void count_evsel(struct perfev_session *s, int evsel, uint64_t period)
{
	struct sevsel *es = evsel_stats(s, evsel);

	if (es) {
		es->nr_samples++;
		es->period += period;
	}
}

/* The filter's verdict on what the stack tells (the file the sample was taken in). */
static bool stack_ok(const struct perfev_session *s, const struct perfev_session_sample *out)
{
	return !s->opts.filter || filter_dso_ok(s->opts.filter, out->nr_frames ? &out->frames[0] : NULL);
}

/*
 * Hands the group's members to fn in turn, each with its increase; fn's
 * non-zero return, else 0.  *none: the sample read no member.
 */
static int deliver_group(struct perfev_session *s, struct perfev_session_sample *out, bool keep,
			 perfev_session_sample_fn fn, void *ctx, bool *none)
{
	const struct perfev_sample *sm = &out->ev->rec.sample;
	struct perfev_counts c[64];
	int n = perfev_read_format__parse(sm->read.format, sm->read.data, sm->read.size, c,
					  ARRAY_SIZE(c));
	bool resolved = false;

	/* Each member counts with the increase of its value, attributed to this stack. */
	for (int i = 0; i < n && i < (int)ARRAY_SIZE(c); i++) {
		int e = sess_evsel_of_id(s, c[i].id), ret;

		if (e < 0)
			continue;
		out->evsel = e;
		/* Every member's delta moves on, delivered or not, so the next sample's is right. */
		out->period = id_delta(s, c[i].id, c[i].val);
		/* A member that did not count since its last sample has nothing to add (perf skips it). */
		if (!out->period)
			continue;
		count_evsel(s, e, out->period);
		if (!keep || (s->opts.filter && !filter_event_ok(s->opts.filter, s, e))) {
			s->stats.nr_filtered++;
			continue;
		}
		if (!resolved) {
			out->nr_frames = sess_resolve_stack(s, out->ev->evsel, out->thread, sm,
							    out->ev->rec.misc);
			resolved = true;
			keep = stack_ok(s, out);
			if (!keep) {
				s->stats.nr_filtered++;
				continue;
			}
		}
		ret = fn(ctx, out);
		if (ret)
			return ret;
	}
	*none = n <= 0;
	return 0;
}

static int deliver_sample(struct perfev_session *s, const struct perfev_data_event *ev,
			  perfev_session_sample_fn fn, void *ctx)
{
	const struct perfev_sample *sm = &ev->rec.sample;
	struct perfev_session_sample out = { .ev = ev, .evsel = ev->evsel, .frames = s->frames };
	struct perfev_sample_filter *f = s->opts.filter;
	int pid = sm->sample_type & PERF_SAMPLE_TID ? (int)sm->pid : -1;
	int tid = sm->sample_type & PERF_SAMPLE_TID ? (int)sm->tid : -1;
	uint64_t t = sm->sample_type & PERF_SAMPLE_TIME ? sm->time : 0;
	bool keep;

	s->stats.nr_samples++;
	if (t) {
		if (!s->stats.first_time || t < s->stats.first_time)
			s->stats.first_time = t;
		if (t > s->stats.last_time)
			s->stats.last_time = t;
	}
	/* A switch-out is delivered when its thread runs again, weighing the time between. */
	if (s->offcpu) {
		if (offcpu_is_switch(s, ev->evsel))
			return offcpu_switch_out(s, ev, fn, ctx);
		offcpu_note_time(s, t);
	}
	out.thread = sess_thread(s, pid, tid);
	if (!out.thread)
		return set_error(ENOMEM, "session: out of memory");
	/* What the filter can decide before the stack is resolved, it decides first. */
	keep = !f || (perfev_sample_filter__time_ok(f, t) && filter_thread_ok(f, out.thread));
	if ((sm->sample_type & PERF_SAMPLE_READ) && (sm->read.format & PERF_FORMAT_GROUP) &&
	    (sm->read.format & PERF_FORMAT_ID)) {
		bool none = false;
		int ret = deliver_group(s, &out, keep, fn, ctx, &none);

		if (ret || !none)
			return ret;
		out.evsel = ev->evsel;
	}
	out.period = sm->sample_type & PERF_SAMPLE_PERIOD ? sm->period : fixed_period(s, ev->evsel);
	count_evsel(s, ev->evsel, out.period);
	if (keep && f)
		keep = filter_event_ok(f, s, ev->evsel);
	if (keep) {
		out.nr_frames = sess_resolve_stack(s, ev->evsel, out.thread, sm, ev->rec.misc);
		keep = stack_ok(s, &out);
	}
	if (!keep) {
		s->stats.nr_filtered++;
		return 0;
	}
	return fn(ctx, &out);
}

int sess_deliver(struct perfev_session *s, const struct perfev_data_event *ev,
		 perfev_session_sample_fn fn, void *ctx)
{
	const struct perfev_record *rec = &ev->rec;
	struct sevsel *es;

	switch (rec->type) {
	case PERF_RECORD_SAMPLE:
		return deliver_sample(s, ev, fn, ctx);
	/*
	 * perf's rule (machines__deliver_event() in tools/perf/util/session.c):
	 * the kernel's LOST records and the LOST_SAMPLES records are counted
	 * apart, never added, since a recorder's LOST_SAMPLES summary (perf
	 * since 6.0, perfev) counts the same loss again; a report's "Lost
	 * Samples" are the LOST_SAMPLES, and samples a BPF filter dropped are
	 * no loss.
	 */
	case PERF_RECORD_LOST:
		s->stats.nr_lost += rec->lost.lost;
		s->stats.nr_lost_events++;
		return 0;
	case PERF_RECORD_LOST_SAMPLES:
		if (rec->misc & PERFEV_RECORD_MISC_LOST_SAMPLES_BPF)
			return 0;
		s->stats.nr_lost_samples += rec->lost_samples.lost;
		es = evsel_stats(s, ev->evsel);
		if (es)
			es->lost += rec->lost_samples.lost;
		return 0;
	case PERF_RECORD_THROTTLE:
		s->stats.nr_throttle++;
		return 0;
	case PERF_RECORD_SWITCH:
	case PERF_RECORD_SWITCH_CPU_WIDE:
		/* The thread the record is of (its sample_id) is switched in, or out. */
		if (s->offcpu && rec->has_sample_id && !(rec->misc & PERF_RECORD_MISC_SWITCH_OUT)) {
			int ret = offcpu_switch_in(s, (int)rec->sample_id.tid, rec->sample_id.time, fn,
						   ctx);

			if (ret)
				return ret;
		}
		return 0;
	case PERF_RECORD_EXIT:
		if (s->offcpu)
			offcpu_exit(s, (int)rec->task.tid);
		/* fallthrough */
	default:
		if (sess_track(s, rec) < 0)
			return set_error(ENOMEM, "session: out of memory");
		return 0;
	}
}

/* The time a record sorts by; records without one keep their place after the previous. */
static uint64_t record_time(struct perfev_session *s, const struct perfev_record *rec)
{
	if (rec->type == PERF_RECORD_SAMPLE && (rec->sample.sample_type & PERF_SAMPLE_TIME))
		return rec->sample.time;
	if (rec->has_sample_id && rec->sample_id.time)
		return rec->sample_id.time;
	return s->last_time;
}

int sess_queue(struct perfev_session *s, const struct perfev_data_event *ev)
{
	uint64_t t = record_time(s, &ev->rec);
	size_t size = ev->rec.size;
	struct qent *e;

	if (!array_grow((void **)&s->q, &s->cap_q, s->nr_q + 1, sizeof(*s->q)))
		return set_error(ENOMEM, "session: out of memory queueing records");
	e = &s->q[s->nr_q];
	*e = (struct qent){ .time = t, .seq = s->seq++, .offset = ev->offset, .size = (uint32_t)size,
			    .evsel = ev->evsel, .slot1 = sess_rcache_slot1(s, ev),
			    .compressed = ev->compressed };
	if (s->reader && pdr_in_input(s->reader, ev->rec.data, size)) {
		/* In the mapped file, where it stays until it is delivered. */
		e->mapped = true;
		e->data = ev->rec.data;
	} else {
		if (!array_grow((void **)&s->qbuf, &s->qbuf_cap, s->qbuf_len + size, 1))
			return set_error(ENOMEM, "session: out of memory queueing records");
		memcpy(s->qbuf + s->qbuf_len, ev->rec.data, size);
		e->pos = s->qbuf_len;
		s->qbuf_len += size;
	}
	s->nr_q++;
	if (t < s->next_flush && s->next_flush)
		s->stats.nr_unordered++; /* older than what was already delivered */
	if (t > s->round_max)
		s->round_max = t;
	s->last_time = t;
	return 0;
}

uint64_t sess_round_end(struct perfev_session *s)
{
	uint64_t limit = s->next_flush;

	s->next_flush = s->round_max;
	return limit;
}

void sess_queue_clear(struct perfev_session *s)
{
	s->nr_q = 0;
	s->qbuf_len = 0;
}

static inline bool qent_before(const struct qent *x, const struct qent *y)
{
	return x->time < y->time || (x->time == y->time && x->seq < y->seq);
}

/*
 * Sorts the queue by (time, seq): a merge of its ascending runs.  The
 * queue is a few such runs (what stayed from the last flush, then each
 * ring's records, in order already), so this is a few linear passes where
 * a general sort would compare n log n times.  0, or -ENOMEM.
 */
static int sort_queue(struct perfev_session *s)
{
	size_t n = s->nr_q, nr = 0, *runs;
	struct qent *a = s->q, *b;

	/* Run starts: 0, and every place the order breaks. */
	if (!array_grow((void **)&s->runs, &s->cap_runs, 2, sizeof(*s->runs)))
		return -ENOMEM;
	s->runs[nr++] = 0;
	for (size_t i = 1; i < n; i++)
		if (qent_before(&a[i], &a[i - 1])) {
			if (!array_grow((void **)&s->runs, &s->cap_runs, nr + 2, sizeof(*s->runs)))
				return -ENOMEM;
			s->runs[nr++] = i;
		}
	if (nr == 1)
		return 0;
	runs = s->runs;
	runs[nr] = n;
	if (!array_grow((void **)&s->qtmp, &s->cap_qtmp, n, sizeof(*s->qtmp)))
		return -ENOMEM;
	b = s->qtmp;
	/* Bottom-up: merge neighbouring runs until one is left, between a and b. */
	while (nr > 1) {
		size_t out = 0;

		for (size_t r = 0; r < nr; r += 2) {
			size_t lo = runs[r], mid = runs[r + 1], hi = r + 2 <= nr ? runs[r + 2] : n;
			size_t i = lo, j = mid, k = lo;

			if (r + 1 >= nr) { /* an odd run out: copied as it is */
				memcpy(b + lo, a + lo, (mid - lo) * sizeof(*a));
				runs[out++] = lo;
				continue;
			}
			while (i < mid && j < hi)
				b[k++] = qent_before(&a[j], &a[i]) ? a[j++] : a[i++];
			memcpy(b + k, a + i, (mid - i) * sizeof(*a));
			k += mid - i;
			memcpy(b + k, a + j, (hi - j) * sizeof(*a));
			runs[out++] = lo;
		}
		runs[out] = n;
		nr = out;
		struct qent *t = a;

		a = b;
		b = t;
	}
	if (a != s->q)
		memcpy(s->q, a, n * sizeof(*a));
	return 0;
}

/* How many records ahead of the one delivered its bytes and its resolution are loaded. */
#define PREFETCH_AHEAD 8

int sess_queue_ready(struct perfev_session *s, uint64_t limit, size_t *n)
{
	size_t i;

	if (sort_queue(s) < 0)
		return set_error(ENOMEM, "session: out of memory ordering records");
	for (i = 0; i < s->nr_q && s->q[i].time <= limit; i++)
		;
	*n = i;
	return 0;
}

int sess_deliver_queued(struct perfev_session *s, const struct qent *q, size_t n,
			perfev_session_sample_fn fn, void *ctx)
{
	int ret = 0;

	for (size_t i = 0; i < n; i++) {
		const struct qent *e = &q[i];
		const struct perfev_sample_fmt *fmt =
			sess_fmt(s, e->evsel >= 0 ? (size_t)e->evsel : 0);
		struct perfev_data_event ev;

		if (i + PREFETCH_AHEAD < n) {
			const struct qent *a = &q[i + PREFETCH_AHEAD];

			if (a->slot1 && s->rcache)
				__builtin_prefetch(&s->rcache[a->slot1 - 1]);
			if (a->mapped)
				__builtin_prefetch(a->data);
		}
		/* Field by field: ev.rec is cleared by the parse, and clearing all of ev twice shows. */
		ev.evsel = e->evsel;
		ev.offset = e->offset;
		ev.compressed = e->compressed;
		if (e->offset > s->delivered_offset)
			s->delivered_offset = e->offset;
		if (!fmt || perfev_record__parse(fmt, e->mapped ? e->data : s->qbuf + e->pos, e->size,
						 &ev.rec) < 0)
			continue; /* the reader decoded it once already */
		ret = sess_deliver(s, &ev, fn, ctx);
		if (ret)
			break;
	}
	return ret;
}

int sess_queue_drop(struct perfev_session *s, size_t n, uint64_t *low)
{
	size_t keep, keep_len = 0, live_bytes = 0;

	/*
	 * What stays: its entries, in sorted order.  The records copied into
	 * qbuf move only when most of the room they take is free, so that each
	 * is moved about once however long it waits.
	 */
	memmove(s->q, s->q + n, (s->nr_q - n) * sizeof(*s->q));
	keep = s->nr_q - n;
	s->nr_q = keep;
	*low = s->read_offset;
	for (size_t j = 0; j < keep; j++) {
		if (s->q[j].mapped) {
			if (s->q[j].offset < *low)
				*low = s->q[j].offset;
		} else {
			live_bytes += s->q[j].size;
		}
	}
	if (live_bytes * 2 < s->qbuf_len) {
		if (!array_grow((void **)&s->qbuf_tmp, &s->cap_qbuf_tmp, live_bytes ? live_bytes : 1, 1))
			return set_error(ENOMEM, "session: out of memory ordering records");
		unsigned char *tmp = s->qbuf_tmp;

		for (size_t j = 0; j < keep; j++) {
			struct qent *e = &s->q[j];

			if (e->mapped)
				continue;
			memcpy(tmp + keep_len, s->qbuf + e->pos, e->size);
			e->pos = keep_len;
			keep_len += e->size;
		}
		if (keep_len)
			memcpy(s->qbuf, tmp, keep_len);
		s->qbuf_len = keep_len;
	}
	return 0;
}

/* Delivers the queued records with time <= limit, in time order; keeps the rest. */
int sess_flush(struct perfev_session *s, uint64_t limit, perfev_session_sample_fn fn, void *ctx)
{
	uint64_t low = 0;
	size_t n = 0;
	int ret;

	if (!s->nr_q)
		return 0;
	ret = sess_queue_ready(s, limit, &n);
	if (ret)
		return ret;
	ret = sess_deliver_queued(s, s->q, n, fn, ctx);
	if (ret) {
		sess_queue_clear(s);
		return ret;
	}
	ret = sess_queue_drop(s, n, &low);
	/* Nothing below the oldest record still waiting is read again: its pages can go. */
	if (!ret && s->reader)
		pdr_release_before(s->reader, low);
	return ret;
}
