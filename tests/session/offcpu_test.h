/*
 * Off-CPU records as the kernel writes them, for the session's and the
 * writer's tests: sched:sched_switch samples (the running machine's format,
 * read from tracefs, so that the writer's tracing data describe them) and
 * PERF_RECORD_SWITCH records.  Include after <cmocka.h>.
 */
#ifndef PERFEV_TESTS_OFFCPU_TEST_H
#define PERFEV_TESTS_OFFCPU_TEST_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "perfev/perfev.h"

#define OC_SWITCH_ID 7 /* the sched_switch event's id */
#define OC_CLOCK_ID 8  /* a cpu-clock event's */
#define OC_ST (PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | \
	       PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_RAW)
#define OC_CLOCK_ST (PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME)

/* sched_switch's layout here: the id and the fields the off-CPU code reads. */
struct oc_format {
	uint64_t id;
	uint32_t size; /* of the raw data: past the last field */
	uint32_t prev_pid, prev_state, prev_state_size, next_pid;
};

/* Reads tracefs's sched_switch format; false when tracefs has none (the caller skips). */
static __attribute__((unused)) bool oc_format(struct oc_format *f)
{
	struct perfev_tracefmt *t = perfev_tracefmt__new();
	const struct perfev_tp_format *fmt;
	const struct perfev_tp_field *fl;
	bool ok = false;

	memset(f, 0, sizeof(*f));
	if (t && perfev_tracefmt__add_tracefs(t, "sched", "sched_switch") == 0 &&
	    (fmt = perfev_tracefmt__find(t, "sched", "sched_switch"))) {
		f->id = perfev_tp_format__id(fmt);
		for (size_t i = 0; i < perfev_tp_format__nr_fields(fmt); i++) {
			fl = perfev_tp_format__field(fmt, i);
			if (fl->offset + fl->size > f->size)
				f->size = fl->offset + fl->size;
			if (!strcmp(fl->name, "prev_pid"))
				f->prev_pid = fl->offset;
			else if (!strcmp(fl->name, "prev_state")) {
				f->prev_state = fl->offset;
				f->prev_state_size = fl->size;
			} else if (!strcmp(fl->name, "next_pid"))
				f->next_pid = fl->offset;
		}
		ok = f->prev_state_size && f->next_pid && f->size <= 256;
	}
	perfev_tracefmt__delete(t);
	return ok;
}

static __attribute__((unused)) struct perf_event_attr oc_switch_attr(const struct oc_format *f)
{
	return (struct perf_event_attr){ .size = sizeof(struct perf_event_attr),
					 .type = PERF_TYPE_TRACEPOINT, .config = f->id,
					 .sample_period = 1, .sample_type = OC_ST,
					 .sample_id_all = 1, .context_switch = 1 };
}

static __attribute__((unused)) struct perf_event_attr oc_clock_attr(void)
{
	return (struct perf_event_attr){ .size = sizeof(struct perf_event_attr),
					 .type = PERF_TYPE_SOFTWARE,
					 .config = PERF_COUNT_SW_CPU_CLOCK, .sample_period = 1000,
					 .sample_type = OC_CLOCK_ST, .sample_id_all = 1 };
}

/*
 * A sched_switch sample of tid (its process pid) leaving at time in state
 * prev_state for next_pid, its callchain the kernel context and ips;
 * raw_size 0: the format's size.  The record's length.
 */
static __attribute__((unused)) size_t oc_switch_out(unsigned char *rec, const struct oc_format *f,
						    int pid, int tid, uint64_t time,
						    uint64_t prev_state, int next_pid,
						    const uint64_t *ips, size_t nr, uint32_t raw_size)
{
	struct perf_event_attr a = oc_switch_attr(f);
	struct perfev_sample_fmt fmt;
	uint64_t chain[16] = { (uint64_t)PERF_CONTEXT_KERNEL };
	unsigned char raw[260] = { 0 };
	struct perfev_sample s = { .identifier = OC_SWITCH_ID, .ip = nr ? ips[0] : 0,
				   .pid = (uint32_t)pid, .tid = (uint32_t)tid, .time = time };
	struct perf_event_header h = { PERF_RECORD_SAMPLE, PERF_RECORD_MISC_KERNEL, 0 };
	int32_t p = tid, np = next_pid;
	int n;

	assert_true(nr < 15);
	memcpy(chain + 1, ips, nr * sizeof(*ips));
	memcpy(raw + f->prev_pid, &p, sizeof(p));
	memcpy(raw + f->prev_state, &prev_state, f->prev_state_size);
	memcpy(raw + f->next_pid, &np, sizeof(np));
	/* PERF_SAMPLE_RAW is a u32 size and the data, padded so the record stays aligned. */
	s.raw.size = raw_size ? raw_size : f->size;
	s.raw.size += (8 - (s.raw.size + 4) % 8) % 8;
	s.raw.data = raw;
	s.callchain.nr = nr + 1;
	s.callchain.ips = chain;
	assert_int_equal(perfev_sample_fmt__from_attr(&a, &fmt), 0);
	n = perfev_sample__encode(&fmt, &s, rec + 8, 1024);
	assert_true(n > 0);
	h.size = (uint16_t)(8 + n);
	memcpy(rec, &h, sizeof(h));
	return h.size;
}

/* A PERF_RECORD_SWITCH of tid at time: a switch-in, or with out a switch-out. */
static __attribute__((unused)) size_t oc_switch_rec(unsigned char *rec, const struct oc_format *f,
						    int pid, int tid, uint64_t time, bool out)
{
	struct perf_event_attr a = oc_switch_attr(f);
	struct perfev_sample_fmt fmt;
	struct perfev_sample_id sid = { .pid = (uint32_t)pid, .tid = (uint32_t)tid, .time = time,
					.identifier = OC_SWITCH_ID };
	struct perf_event_header h = { PERF_RECORD_SWITCH, out ? PERF_RECORD_MISC_SWITCH_OUT : 0, 0 };
	int n;

	assert_int_equal(perfev_sample_fmt__from_attr(&a, &fmt), 0);
	n = perfev_sample_id__encode(&fmt, &sid, rec + 8, 256);
	assert_true(n > 0);
	h.size = (uint16_t)(8 + n);
	memcpy(rec, &h, sizeof(h));
	return h.size;
}

/* A cpu-clock sample of tid at time, weighing period. */
static __attribute__((unused)) size_t oc_clock(unsigned char *rec, int pid, int tid, uint64_t time)
{
	struct perf_event_attr a = oc_clock_attr();
	struct perfev_sample_fmt fmt;
	struct perfev_sample s = { .identifier = OC_CLOCK_ID, .ip = 0x1000, .pid = (uint32_t)pid,
				   .tid = (uint32_t)tid, .time = time };
	struct perf_event_header h = { PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER, 0 };
	int n;

	assert_int_equal(perfev_sample_fmt__from_attr(&a, &fmt), 0);
	n = perfev_sample__encode(&fmt, &s, rec + 8, 256);
	assert_true(n > 0);
	h.size = (uint16_t)(8 + n);
	memcpy(rec, &h, sizeof(h));
	return h.size;
}

/* A PERF_RECORD_EXIT of tid at time. */
static __attribute__((unused)) size_t oc_exit(unsigned char *rec, const struct oc_format *f, int pid,
					      int tid, uint64_t time)
{
	struct perf_event_attr a = oc_switch_attr(f);
	struct perfev_sample_fmt fmt;
	struct perfev_sample_id sid = { .pid = (uint32_t)pid, .tid = (uint32_t)tid, .time = time,
					.identifier = OC_SWITCH_ID };
	struct perf_event_header h = { PERF_RECORD_EXIT, 0, 0 };
	uint32_t body[4] = { (uint32_t)pid, (uint32_t)pid, (uint32_t)tid, (uint32_t)tid };
	int n;

	memcpy(rec + 8, body, sizeof(body));
	memcpy(rec + 24, &time, sizeof(time));
	assert_int_equal(perfev_sample_fmt__from_attr(&a, &fmt), 0);
	n = perfev_sample_id__encode(&fmt, &sid, rec + 32, 256);
	assert_true(n > 0);
	h.size = (uint16_t)(32 + n);
	memcpy(rec, &h, sizeof(h));
	return h.size;
}

#endif
