// SPDX-License-Identifier: MIT
/*
 * Off-CPU time: each sched:sched_switch sample is a thread leaving the CPU,
 * with the stack it blocked in and the state it left in (prev_state); the
 * thread's next switch-in (a PERF_RECORD_SWITCH of it that is not a
 * switch-out, or a sched_switch whose next_pid it is) ends the interval.
 * The switch-out is held until then and delivered with the interval's
 * length as its weight, its stack without the scheduler's own frames and
 * with a frame naming the state ("[off-cpu] S sleeping") as its innermost.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util/internal.h"
#include "perfev/tracefmt.h"
#include "session/filter_int.h"
#include "session/offcpu_int.h"
#include "session/session_int.h"

/* One thread's switch-out, waiting for the thread to run again. */
struct pending {
	int tid;
	bool active;
	int state; /* index into states[] */
	uint64_t time;
	struct perfev_thread *thread;
	int32_t evsel;
	uint64_t offset;
	bool compressed;
	unsigned char *rec; /* the record's bytes */
	size_t rec_cap;
	uint32_t rec_size;
	struct perfev_frame *frames; /* the marker, then the stack */
	size_t cap_frames;
	uint32_t nr_frames;
};

/* prev_state's bits as the kernel's print fmt names them (Linux 4.14 on); none: runnable. */
static const struct {
	char c;
	const char *mark;
} states[] = {
	{ 'R', "[off-cpu] R preempted" },	{ 'S', "[off-cpu] S sleeping" },
	{ 'D', "[off-cpu] D uninterruptible" }, { 'T', "[off-cpu] T stopped" },
	{ 't', "[off-cpu] t traced" },		{ 'X', "[off-cpu] X dead" },
	{ 'Z', "[off-cpu] Z zombie" },		{ 'P', "[off-cpu] P parked" },
	{ 'I', "[off-cpu] I idle" },
};
#define NR_STATES ARRAY_SIZE(states)

struct sess_offcpu {
	struct perfev_tracefmt *tf;
	bool tf_loaded;
	int8_t *is_switch; /* per event: 1 sched_switch, 0 not, -1 not looked at yet */
	size_t nr_is;
	const struct perfev_tp_format *fmt;
	const struct perfev_tp_field *prev_state, *next_pid;
	struct pending *p;
	size_t nr_p, cap_p;
	struct idxhash hash; /* by tid */
	struct perfev_symbol marks[NR_STATES];
	uint32_t mark_ids[NR_STATES];
	uint64_t end_time;
	void (*count)(struct perfev_session *s, int evsel, uint64_t period);
};

/* Names the scheduler's own functions: what a stack blocked in is below them. */
static bool scheduler_frame(const struct perfev_frame *f)
{
	static const char *const names[] = {
		"__schedule",		"schedule",		   "schedule_idle",
		"preempt_schedule",	"preempt_schedule_common", "preempt_schedule_irq",
		"preempt_schedule_notrace", "__traceiter_sched_switch", "perf_trace_sched_switch",
		"schedule_rtlock",	"schedule_preempt_disabled",
	};

	if (!f->kernel || !f->sym || !f->sym->name)
		return false;
	for (size_t i = 0; i < ARRAY_SIZE(names); i++)
		if (!strcmp(f->sym->name, names[i]))
			return true;
	return false;
}

int offcpu_state_index(uint64_t prev_state)
{
	/* TASK_REPORT_MAX (0x100) is "preempted": runnable, as a state of 0 is. */
	uint64_t v = prev_state & 0xff;

	if (!v)
		return 0;
	for (int i = 0; i < 8; i++)
		if (v & (1ull << i))
			return i + 1;
	return 0;
}

static void free_pending(struct pending *p)
{
	free(p->rec);
	free(p->frames);
}

void offcpu_free(struct perfev_session *s)
{
	struct sess_offcpu *o = s->offcpu;

	if (!o)
		return;
	for (size_t i = 0; i < o->nr_p; i++)
		free_pending(&o->p[i]);
	free(o->p);
	idxhash_free(&o->hash);
	free(o->is_switch);
	perfev_tracefmt__delete(o->tf);
	free(o);
	s->offcpu = NULL;
}

int offcpu_init(struct perfev_session *s,
		void (*count)(struct perfev_session *s, int evsel, uint64_t period))
{
	struct sess_offcpu *o = calloc(1, sizeof(*o));

	if (!o)
		return set_error(ENOMEM, "session: out of memory");
	o->count = count;
	for (size_t i = 0; i < NR_STATES; i++)
		o->marks[i].name = o->marks[i].raw_name = states[i].mark;
	s->offcpu = o;
	return 0;
}

/* The file's formats: its tracing data, read when the first tracepoint sample needs them. */
static void load_formats(struct perfev_session *s, struct sess_offcpu *o)
{
	const void *data;
	size_t size;

	o->tf_loaded = true;
	o->tf = perfev_tracefmt__new();
	if (!o->tf ||
	    perfev_data_reader__feature(s->reader, PERFEV_FEAT_TRACING_DATA, &data, &size) < 0 ||
	    perfev_tracefmt__add_tracing_data(o->tf, data, size) < 0)
		return;
	o->fmt = perfev_tracefmt__find(o->tf, "sched", "sched_switch");
	if (o->fmt) {
		o->prev_state = perfev_tp_format__field_by_name(o->fmt, "prev_state");
		o->next_pid = perfev_tp_format__field_by_name(o->fmt, "next_pid");
		if (!o->prev_state)
			o->fmt = NULL;
	}
}

bool offcpu_is_switch(struct perfev_session *s, int evsel)
{
	struct sess_offcpu *o = s->offcpu;
	const struct perf_event_attr *a;

	if (!o || evsel < 0)
		return false;
	if ((size_t)evsel >= o->nr_is) {
		size_t n = (size_t)evsel + 8;
		int8_t *v = realloc(o->is_switch, n);

		if (!v)
			return false;
		memset(v + o->nr_is, -1, n - o->nr_is);
		o->is_switch = v;
		o->nr_is = n;
	}
	if (o->is_switch[evsel] < 0) {
		a = perfev_data_reader__attr(s->reader, (size_t)evsel);
		o->is_switch[evsel] = 0;
		if (a && a->type == PERF_TYPE_TRACEPOINT) {
			if (!o->tf_loaded)
				load_formats(s, o);
			o->is_switch[evsel] = o->fmt && perfev_tp_format__id(o->fmt) == a->config;
		}
	}
	return o->is_switch[evsel] == 1;
}

struct tid_key {
	const struct sess_offcpu *o;
	int tid;
};

static bool tid_eq(const void *ctx, uint32_t idx)
{
	const struct tid_key *k = ctx;

	return k->o->p[idx].tid == k->tid;
}

static struct pending *find(struct sess_offcpu *o, int tid, bool create)
{
	struct tid_key k = { o, tid };
	uint64_t h = hash_mix((uint64_t)(uint32_t)tid, 11);
	int64_t i = idxhash_find(&o->hash, h, tid_eq, &k);

	if (i >= 0)
		return &o->p[i];
	if (!create ||
	    !array_grow((void **)&o->p, &o->cap_p, o->nr_p + 1, sizeof(*o->p)) ||
	    idxhash_insert(&o->hash, h, (uint32_t)o->nr_p) < 0)
		return NULL;
	memset(&o->p[o->nr_p], 0, sizeof(*o->p));
	o->p[o->nr_p].tid = tid;
	return &o->p[o->nr_p++];
}

static void note_time(struct sess_offcpu *o, uint64_t t)
{
	if (t > o->end_time)
		o->end_time = t;
}

/* Hands the thread's interval to fn: its switch-out record, stack and length. */
static int deliver(struct perfev_session *s, struct pending *p, uint64_t end,
		   perfev_session_sample_fn fn, void *ctx)
{
	const struct perfev_sample_fmt *fmt =
		perfev_data_reader__sample_fmt(s->reader, (size_t)p->evsel);
	struct perfev_data_event ev = { .evsel = p->evsel, .offset = p->offset,
					.compressed = p->compressed };
	struct perfev_session_sample out = { .ev = &ev, .evsel = p->evsel, .thread = p->thread,
					     .frames = p->frames, .nr_frames = p->nr_frames,
					     .off_cpu_state = states[p->state].c };

	p->active = false;
	if (end <= p->time || (s->opts.off_cpu_thresh_ns && end - p->time < s->opts.off_cpu_thresh_ns)) {
		s->stats.nr_off_cpu_short++;
		return 0;
	}
	if (!fmt || perfev_record__parse(fmt, p->rec, p->rec_size, &ev.rec) < 0)
		return 0; /* decoded once already when it was read */
	out.period = end - p->time;
	s->stats.nr_off_cpu++;
	s->stats.off_cpu_ns += out.period;
	s->offcpu->count(s, p->evsel, out.period);
	return fn(ctx, &out);
}

int offcpu_switch_in(struct perfev_session *s, int tid, uint64_t t, perfev_session_sample_fn fn,
		     void *ctx)
{
	struct sess_offcpu *o = s->offcpu;
	struct pending *p;

	note_time(o, t);
	if (tid <= 0 || !(p = find(o, tid, false)) || !p->active)
		return 0;
	return deliver(s, p, t, fn, ctx);
}

void offcpu_exit(struct perfev_session *s, int tid)
{
	struct pending *p = s->offcpu ? find(s->offcpu, tid, false) : NULL;

	if (p)
		p->active = false;
}

/* Keeps the switch-out's record and its stack (the scheduler's frames left out) for later. */
static int hold(struct perfev_session *s, struct pending *p, const struct perfev_data_event *ev,
		const struct perfev_frame *frames, size_t nr, size_t skip)
{
	struct sess_offcpu *o = s->offcpu;

	if (!array_grow((void **)&p->rec, &p->rec_cap, ev->rec.size, 1) ||
	    !array_grow((void **)&p->frames, &p->cap_frames, nr - skip + 1, sizeof(*p->frames)))
		return set_error(ENOMEM, "session: out of memory holding a switch-out");
	memcpy(p->rec, ev->rec.data, ev->rec.size);
	p->rec_size = ev->rec.size;
	p->frames[0] = (struct perfev_frame){ .sym = &o->marks[p->state],
					      .id = o->mark_ids[p->state] };
	memcpy(p->frames + 1, frames + skip, (nr - skip) * sizeof(*frames));
	p->nr_frames = (uint32_t)(nr - skip + 1);
	p->evsel = ev->evsel;
	p->offset = ev->offset;
	p->compressed = ev->compressed;
	p->active = true;
	return 0;
}

int offcpu_switch_out(struct perfev_session *s, const struct perfev_data_event *ev,
		      perfev_session_sample_fn fn, void *ctx)
{
	struct sess_offcpu *o = s->offcpu;
	const struct perfev_sample *sm = &ev->rec.sample;
	struct perfev_sample_filter *f = s->opts.filter;
	uint64_t t = sm->sample_type & PERF_SAMPLE_TIME ? sm->time : 0, v = 0;
	int pid = sm->sample_type & PERF_SAMPLE_TID ? (int)sm->pid : -1;
	int tid = sm->sample_type & PERF_SAMPLE_TID ? (int)sm->tid : -1;
	const void *raw = sm->raw.data;
	size_t raw_size = sm->sample_type & PERF_SAMPLE_RAW ? sm->raw.size : 0;
	struct perfev_thread *th;
	struct pending *p;
	size_t nr, skip = 0;
	int ret, state;

	/* The thread that runs next is back on a CPU. */
	if (o->next_pid && perfev_tp_field__int(o->fmt, o->next_pid, raw, raw_size, &v) == 0) {
		ret = offcpu_switch_in(s, (int)(int32_t)v, t, fn, ctx);
		if (ret)
			return ret;
	}
	note_time(o, t);
	if (tid <= 0 || !t)
		return 0; /* the idle task, or no time to measure from */
	p = find(o, tid, true);
	if (!p)
		return set_error(ENOMEM, "session: out of memory");
	/* A switch-out whose switch-in was not recorded ends unmeasured. */
	if (p->active) {
		p->active = false;
		s->stats.nr_off_cpu_unmatched++;
	}
	if (perfev_tp_field__int(o->fmt, o->prev_state, raw, raw_size, &v) < 0)
		return 0;
	state = offcpu_state_index(v);
	/* A thread that left for good never comes back. */
	if (states[state].c == 'X' || states[state].c == 'Z')
		return 0;
	th = sess_thread(s, pid, tid);
	if (!th)
		return set_error(ENOMEM, "session: out of memory");
	if (f && (!perfev_sample_filter__time_ok(f, t) || !filter_thread_ok(f, th) ||
		  !filter_event_ok(f, s, ev->evsel))) {
		s->stats.nr_filtered++;
		return 0;
	}
	nr = sess_resolve_stack(s, ev->evsel, th, sm, ev->rec.misc);
	while (skip < nr && scheduler_frame(&s->frames[skip]))
		skip++;
	/* A stack of nothing but the scheduler keeps it: it is all there is to show. */
	if (skip == nr)
		skip = 0;
	if (f && !filter_dso_ok(f, nr ? &s->frames[skip] : NULL)) {
		s->stats.nr_filtered++;
		return 0;
	}
	if (!o->mark_ids[state]) {
		struct perfev_frame m = { .sym = &o->marks[state] };

		o->mark_ids[state] = sess_frame_id(s, &m);
	}
	p->state = state;
	p->time = t;
	p->thread = th;
	return hold(s, p, ev, s->frames, nr, skip);
}

int offcpu_finish(struct perfev_session *s, perfev_session_sample_fn fn, void *ctx)
{
	struct sess_offcpu *o = s->offcpu;

	if (!o)
		return 0;
	/* Threads still blocked when the recording ended: blocked until then. */
	for (size_t i = 0; i < o->nr_p; i++) {
		int ret;

		if (!o->p[i].active)
			continue;
		s->stats.nr_off_cpu_open++;
		ret = deliver(s, &o->p[i], o->end_time, fn, ctx);
		if (ret)
			return ret;
	}
	return 0;
}

void offcpu_note_time(struct perfev_session *s, uint64_t t)
{
	if (s->offcpu)
		note_time(s->offcpu, t);
}
