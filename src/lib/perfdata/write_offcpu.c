/* SPDX-License-Identifier: MIT */
/*
 * opts.off_cpu_thresh_ns: the switch-outs (sched:sched_switch samples) of
 * threads that ran again within the threshold are left out before they are
 * written.  A switch-out is written before anyone knows how long its thread
 * will be away, so the records of a round (every ring drained once) are
 * held and looked at together: a switch-out whose thread is seen switched
 * in (a PERF_RECORD_SWITCH that is not a switch-out, or a sched_switch
 * naming it as next_pid) later in the same round, within the threshold, is
 * dropped.  The true switch-in can only be earlier than the one seen, so
 * nothing longer than the threshold is ever dropped; a switch-out whose
 * switch-in falls into the next round is kept (and a reader filters it
 * again, having every interval).  The PERF_RECORD_SWITCH switch-outs go
 * too: the sched_switch samples say the same.  Rounds keep their order: nothing is held
 * past the round mark.
 */
#include <stdlib.h>

#include "perfdata/writer_int.h"
#include "perfev/record.h"
#include "perfev/tracefmt.h"

/* No record has this type: a record dropped, until the round is compacted. */
#define DROPPED UINT32_MAX

struct oc_id {
	uint64_t id;
	uint32_t attr;
};

struct oc_event {
	int32_t tid;
	bool in;
	uint64_t time;
	size_t off; /* a switch-out's record in the round */
	uint32_t size;
};

struct pd_offcpu {
	uint64_t thresh;
	struct oc_id *ids; /* every event's ids, sorted */
	size_t nr_ids;
	struct perfev_sample_fmt *fmts; /* per attr */
	bool *is_switch;		/* per attr */
	struct perfev_tracefmt *tf;
	const struct perfev_tp_format *fmt;
	const struct perfev_tp_field *prev_state, *next_pid;
	struct pd_buf round; /* the records of the round being drained */
	struct oc_event *ev;
	size_t nr_ev, cap_ev;
	uint64_t dropped;
};

static int id_cmp(const void *a, const void *b)
{
	const struct oc_id *x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}

void pd_offcpu_free(struct pd_offcpu *oc)
{
	if (!oc)
		return;
	free(oc->ids);
	free(oc->fmts);
	free(oc->is_switch);
	perfev_tracefmt__delete(oc->tf);
	pd_buf_free(&oc->round);
	free(oc->ev);
	free(oc);
}

/*
 * Set up at start(), once the tracing data are read: nothing to do (NULL)
 * without a sched_switch event, or when records cannot be told apart by
 * their ids (an event without PERF_SAMPLE_IDENTIFIER).
 */
int pd_offcpu_new(struct perfev_data_writer *w, uint64_t thresh)
{
	struct pd_offcpu *oc;
	size_t n = 0;

	if (!thresh || !w->tracing.len)
		return 0;
	for (size_t i = 0; i < w->nr_attrs; i++) {
		if (!(w->attrs[i].attr.sample_type & PERF_SAMPLE_IDENTIFIER) ||
		    !w->attrs[i].attr.sample_id_all)
			return 0;
		n += w->attrs[i].nr_ids;
	}
	oc = calloc(1, sizeof(*oc));
	if (!oc)
		return set_error(ENOMEM, "out of memory");
	oc->thresh = thresh;
	oc->ids = calloc(n ? n : 1, sizeof(*oc->ids));
	oc->fmts = calloc(w->nr_attrs, sizeof(*oc->fmts));
	oc->is_switch = calloc(w->nr_attrs, sizeof(*oc->is_switch));
	oc->tf = perfev_tracefmt__new();
	if (!oc->ids || !oc->fmts || !oc->is_switch || !oc->tf) {
		pd_offcpu_free(oc);
		return set_error(ENOMEM, "out of memory");
	}
	if (perfev_tracefmt__add_tracing_data(oc->tf, w->tracing.p, w->tracing.len) < 0 ||
	    !(oc->fmt = perfev_tracefmt__find(oc->tf, "sched", "sched_switch")) ||
	    !(oc->prev_state = perfev_tp_format__field_by_name(oc->fmt, "prev_state"))) {
		pd_offcpu_free(oc);
		return 0;
	}
	oc->next_pid = perfev_tp_format__field_by_name(oc->fmt, "next_pid");
	bool any = false;

	for (size_t i = 0; i < w->nr_attrs; i++) {
		const struct perf_event_attr *a = &w->attrs[i].attr;

		if (perfev_sample_fmt__from_attr(a, &oc->fmts[i]) < 0) {
			pd_offcpu_free(oc);
			return 0;
		}
		oc->is_switch[i] = a->type == PERF_TYPE_TRACEPOINT &&
				   a->config == perfev_tp_format__id(oc->fmt) &&
				   (a->sample_type & PERF_SAMPLE_RAW) && (a->sample_type & PERF_SAMPLE_TID) &&
				   (a->sample_type & PERF_SAMPLE_TIME);
		any |= oc->is_switch[i];
		for (size_t j = 0; j < w->attrs[i].nr_ids; j++)
			oc->ids[oc->nr_ids++] = (struct oc_id){ w->attrs[i].ids[j], (uint32_t)i };
	}
	if (!any) {
		pd_offcpu_free(oc);
		return 0;
	}
	sort_array(oc->ids, oc->nr_ids, sizeof(*oc->ids), id_cmp);
	w->oc = oc;
	return 0;
}

uint64_t perfev_data_writer__off_cpu_dropped(const struct perfev_data_writer *w)
{
	return w && w->oc ? w->oc->dropped : 0;
}

/* Holds a ring's records until the round ends. */
int pd_offcpu_hold(struct perfev_data_writer *w, const struct iovec *iov, int n)
{
	for (int i = 0; i < n; i++)
		pd_put(&w->oc->round, iov[i].iov_base, iov[i].iov_len);
	if (w->oc->round.nomem) {
		w->oc->round.nomem = false;
		return set_error(ENOMEM, "out of memory holding a round of records");
	}
	return 0;
}

static const struct oc_id *find_id(const struct pd_offcpu *oc, uint64_t id)
{
	size_t lo = 0, hi = oc->nr_ids;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (oc->ids[mid].id == id)
			return &oc->ids[mid];
		if (oc->ids[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

static bool add_event(struct pd_offcpu *oc, struct oc_event e)
{
	if (!array_grow((void **)&oc->ev, &oc->cap_ev, oc->nr_ev + 1, sizeof(*oc->ev)))
		return false;
	oc->ev[oc->nr_ev++] = e;
	return true;
}

/* By thread, then time, switch-ins before switch-outs of the same time. */
static int ev_cmp(const void *a, const void *b)
{
	const struct oc_event *x = a, *y = b;

	if (x->tid != y->tid)
		return x->tid < y->tid ? -1 : 1;
	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return (int)y->in - (int)x->in;
}

/* Notes what one record of the round says: a switch-out of a thread, a switch-in. */
static bool scan(struct pd_offcpu *oc, unsigned char *p, size_t off, uint32_t size)
{
	struct perf_event_header h;
	const struct oc_id *id;
	struct perfev_record r;
	uint64_t ident, v;

	memcpy(&h, p + off, sizeof(h));
	if (h.type != PERF_RECORD_SAMPLE && h.type != PERF_RECORD_SWITCH &&
	    h.type != PERF_RECORD_SWITCH_CPU_WIDE)
		return true;
	if (perfev_record__peek_id(&oc->fmts[0], p + off, size, &ident) < 0 ||
	    !(id = find_id(oc, ident)) ||
	    perfev_record__parse(&oc->fmts[id->attr], p + off, size, &r) < 0)
		return true; /* written as it is */
	if (h.type != PERF_RECORD_SAMPLE) {
		/* A switch-out says again what its sched_switch sample says: only the switch-in is needed. */
		if (h.misc & PERF_RECORD_MISC_SWITCH_OUT) {
			uint32_t type = DROPPED;

			memcpy(p + off + offsetof(struct perf_event_header, type), &type, sizeof(type));
			return true;
		}
		if (!r.has_sample_id)
			return true;
		return add_event(oc, (struct oc_event){ (int32_t)r.sample_id.tid, true,
							r.sample_id.time, 0, 0 });
	}
	if (!oc->is_switch[id->attr])
		return true;
	const struct perfev_sample *s = &r.sample;

	if (oc->next_pid &&
	    perfev_tp_field__int(oc->fmt, oc->next_pid, s->raw.data, s->raw.size, &v) == 0 &&
	    (int32_t)v > 0 &&
	    !add_event(oc, (struct oc_event){ (int32_t)v, true, s->time, 0, 0 }))
		return false;
	return add_event(oc, (struct oc_event){ (int32_t)s->tid, false, s->time, off, size });
}

static void drop(struct pd_offcpu *oc, const struct oc_event *e)
{
	uint32_t type = DROPPED;

	memcpy(oc->round.p + e->off + offsetof(struct perf_event_header, type), &type, sizeof(type));
	oc->dropped++;
}

size_t pd_offcpu_take(struct pd_offcpu *oc, const void **kept)
{
	unsigned char *p = oc->round.p;
	size_t len = oc->round.len, off, out;

	oc->nr_ev = 0;
	*kept = p;
	if (!len)
		return 0;
	for (off = 0; off + sizeof(struct perf_event_header) <= len;) {
		struct perf_event_header h;

		memcpy(&h, p + off, sizeof(h));
		if (h.size < sizeof(h) || h.size > len - off)
			break; /* the ring's batch holds whole records only */
		if (!scan(oc, p, off, h.size)) {
			oc->nr_ev = 0; /* out of memory: the round is written whole */
			break;
		}
		off += h.size;
	}
	sort_array(oc->ev, oc->nr_ev, sizeof(*oc->ev), ev_cmp);
	for (size_t i = 0; i < oc->nr_ev; i++) {
		const struct oc_event *e = &oc->ev[i];

		/* The thread's next event in the round: a switch-in within the threshold. */
		if (!e->in && i + 1 < oc->nr_ev && oc->ev[i + 1].tid == e->tid && oc->ev[i + 1].in &&
		    oc->ev[i + 1].time - e->time < oc->thresh)
			drop(oc, e);
	}
	/* Compacted in place: the records kept, in their order. */
	for (off = out = 0; off + sizeof(struct perf_event_header) <= len;) {
		struct perf_event_header h;
		size_t size;

		memcpy(&h, p + off, sizeof(h));
		size = h.size;
		if (size < sizeof(h) || size > len - off)
			break;
		if (h.type == DROPPED) {
			off += size;
			continue;
		}
		if (out != off)
			memmove(p + out, p + off, size);
		out += size;
		off += size;
	}
	oc->round.len = 0;
	oc->nr_ev = 0;
	return out;
}
