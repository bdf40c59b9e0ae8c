// SPDX-License-Identifier: MIT
/*
 * The session's off-CPU time (perfev_session_opts.off_cpu) on files whose
 * every record the test wrote: sched_switch samples paired with the
 * thread's next switch-in (a PERF_RECORD_SWITCH, or a sched_switch naming
 * it as next_pid), weighted by the time between, with the state from
 * prev_state (S, D, R for a preempted task), the marker frame first; a
 * dead thread's last switch-out dropped, an exited thread's wait dropped,
 * a wait open at the end counted to the last record, a switch-out never
 * switched in replaced by the next, a raw record too short for prev_state
 * skipped; the threshold; and without the option, the samples as they are.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <unistd.h>

#include "../perfdata/perfdata_test.h"
#include "offcpu_test.h"

static struct oc_format F;
static bool have_format;

static int setup(void **state)
{
	(void)state;
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/perfev-offcpu-XXXXXX");
	if (!mkdtemp(tmpdir))
		return -1;
	have_format = oc_format(&F);
	return 0;
}

static int teardown(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	return system(cmd) == 0 ? 0 : -1;
}

#define SKIP_WITHOUT_FORMAT()                                                               \
	do {                                                                                \
		if (!have_format) {                                                         \
			print_message("skip: no sched:sched_switch format in tracefs here\n"); \
			skip();                                                             \
		}                                                                           \
	} while (0)

static const uint64_t chain[] = { 0xffffffffff600010ull, 0xffffffffff600020ull };

static void add(struct stream *b, const unsigned char *rec, size_t n)
{
	put(b, rec, n);
}

/* The scenario every test reads: see the comment of each record. */
static const char *write_file(void)
{
	const char *path = tpath("oc.data");
	struct perf_event_attr sw = oc_switch_attr(&F), ck = oc_clock_attr();
	struct perfev_data_writer_opts o = { .sz = sizeof(o) };
	uint64_t id_sw = OC_SWITCH_ID, id_ck = OC_CLOCK_ID;
	struct perfev_data_writer *w;
	unsigned char r[1024];
	struct stream b = { 0 };
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);

	assert_true(fd >= 0);
	w = perfev_data_writer__new(fd, &o);
	assert_non_null(w);
	assert_int_equal(perfev_data_writer__add_attr(w, &ck, &id_ck, 1, "cpu-clock"), 0);
	assert_int_equal(perfev_data_writer__add_attr(w, &sw, &id_sw, 1, "sched:sched_switch"), 0);
	assert_int_equal(perfev_data_writer__start(w), 0);
	add(&b, r, oc_clock(r, 100, 100, 1000));
	/* A sleeps 1100..1600 (S); its PERF_RECORD_SWITCH out says nothing more. */
	add(&b, r, oc_switch_out(r, &F, 100, 100, 1100, 1, 0, chain, 2, 0));
	add(&b, r, oc_switch_rec(r, &F, 100, 100, 1150, true));
	/* 105 leaves at 1200 and, unseen coming back, again at 1300; back at 1400: 100 S. */
	add(&b, r, oc_switch_out(r, &F, 105, 105, 1200, 1, 0, chain, 2, 0));
	add(&b, r, oc_switch_out(r, &F, 105, 105, 1300, 1, 0, chain, 1, 0));
	add(&b, r, oc_switch_rec(r, &F, 105, 105, 1400, false));
	add(&b, r, oc_switch_rec(r, &F, 100, 100, 1600, false));
	/* A preempted at 2000 for B (R), back when B blocks at 2100 (D) naming A next. */
	add(&b, r, oc_switch_out(r, &F, 100, 100, 2000, 0x100, 101, chain, 2, 0));
	add(&b, r, oc_switch_out(r, &F, 100, 101, 2100, 2, 100, chain, 2, 0));
	add(&b, r, oc_switch_rec(r, &F, 100, 101, 2400, false));
	/* C dies (X): no wait. */
	add(&b, r, oc_switch_out(r, &F, 102, 102, 2500, 0x10, 0, chain, 2, 0));
	add(&b, r, oc_exit(r, &F, 102, 102, 2600));
	/* D leaves at 2700 and never comes back: open until the last record. */
	add(&b, r, oc_switch_out(r, &F, 103, 103, 2700, 1, 0, chain, 2, 0));
	/* 104's raw data stop before prev_state: skipped. */
	add(&b, r, oc_switch_out(r, &F, 104, 104, 2750, 1, 0, chain, 2, 8));
	/* E leaves idle at 2800 and exits: no wait. */
	add(&b, r, oc_switch_out(r, &F, 200, 200, 2800, 0x80, 0, chain, 2, 0));
	add(&b, r, oc_exit(r, &F, 200, 200, 2900));
	add(&b, r, oc_clock(r, 100, 101, 3000));
	assert_int_equal(perfev_data_writer__write(w, b.p, b.len), 0);
	assert_int_equal(perfev_data_writer__finished_round(w), 0);
	assert_int_equal(perfev_data_writer__finish(w), 0);
	perfev_data_writer__delete(w);
	close(fd);
	free(b.p);
	return path;
}

struct got {
	size_t n, clock, plain;
	struct {
		int tid;
		char state;
		uint64_t time, period;
		size_t nr_frames;
		char mark[64];
		bool mark_has_dso;
	} w[16];
};

static int on_sample(void *ctx, const struct perfev_session_sample *s)
{
	struct got *g = ctx;

	if (!s->off_cpu_state) {
		if (s->evsel == 0)
			g->clock++;
		else
			g->plain++;
		return 0;
	}
	assert_true(g->n < 16);
	g->w[g->n].tid = perfev_thread__tid(s->thread);
	g->w[g->n].state = s->off_cpu_state;
	g->w[g->n].time = s->ev->rec.sample.time;
	g->w[g->n].period = s->period;
	g->w[g->n].nr_frames = s->nr_frames;
	assert_true(s->nr_frames >= 1);
	assert_non_null(s->frames[0].sym);
	snprintf(g->w[g->n].mark, sizeof(g->w[g->n].mark), "%s", s->frames[0].sym->name);
	g->w[g->n].mark_has_dso = s->frames[0].dso != NULL;
	g->n++;
	return 0;
}

static struct perfev_session *open_session(const char *path, bool off_cpu, uint64_t thresh)
{
	struct perfev_session_opts o = { .sz = sizeof(o), .off_cpu = off_cpu,
					 .off_cpu_thresh_ns = thresh };
	struct perfev_session *s = perfev_session__open(path, &o);

	assert_non_null(s);
	return s;
}

static void test_waits(void **state)
{
	struct got g = { 0 };
	struct perfev_session *s;
	const struct perfev_session_stats *st;

	(void)state;
	SKIP_WITHOUT_FORMAT();
	s = open_session(write_file(), true, 0);
	assert_int_equal(perfev_session__process(s, on_sample, &g), 0);
	st = perfev_session__stats(s);
	/* Delivered when each thread ran again, in that order. */
	assert_int_equal(g.n, 5);
	assert_int_equal(g.w[0].tid, 105);
	assert_int_equal(g.w[0].state, 'S');
	assert_int_equal(g.w[0].time, 1300);
	assert_int_equal(g.w[0].period, 100);
	assert_int_equal(g.w[0].nr_frames, 2); /* the marker and the one ip */
	assert_int_equal(g.w[1].tid, 100);
	assert_int_equal(g.w[1].state, 'S');
	assert_int_equal(g.w[1].period, 500);
	assert_int_equal(g.w[1].nr_frames, 3);
	assert_string_equal(g.w[1].mark, "[off-cpu] S sleeping");
	assert_false(g.w[1].mark_has_dso);
	assert_int_equal(g.w[2].tid, 100);
	assert_int_equal(g.w[2].state, 'R');
	assert_int_equal(g.w[2].period, 100);
	assert_string_equal(g.w[2].mark, "[off-cpu] R preempted");
	assert_int_equal(g.w[3].tid, 101);
	assert_int_equal(g.w[3].state, 'D');
	assert_int_equal(g.w[3].period, 300);
	assert_string_equal(g.w[3].mark, "[off-cpu] D uninterruptible");
	assert_int_equal(g.w[4].tid, 103);
	assert_int_equal(g.w[4].period, 300); /* 2700 to the last record, 3000 */
	assert_int_equal(g.clock, 2);
	assert_int_equal(g.plain, 0);
	assert_int_equal(st->nr_off_cpu, 5);
	assert_int_equal(st->off_cpu_ns, 1300);
	assert_int_equal(st->nr_off_cpu_unmatched, 1);
	assert_int_equal(st->nr_off_cpu_open, 1);
	assert_int_equal(st->nr_off_cpu_short, 0);
	uint64_t n, period;

	/* The event's tallies are its waits. */
	assert_int_equal(perfev_session__evsel_stats(s, 1, &n, &period, NULL), 0);
	assert_int_equal(n, 5);
	assert_int_equal(period, 1300);
	perfev_session__delete(s);
}

static void test_threshold(void **state)
{
	struct got g = { 0 };
	struct perfev_session *s;

	(void)state;
	SKIP_WITHOUT_FORMAT();
	s = open_session(write_file(), true, 250);
	assert_int_equal(perfev_session__process(s, on_sample, &g), 0);
	assert_int_equal(g.n, 3);
	for (size_t i = 0; i < g.n; i++)
		assert_true(g.w[i].period >= 250);
	assert_int_equal(perfev_session__stats(s)->nr_off_cpu_short, 2);
	perfev_session__delete(s);
}

static void test_without_option(void **state)
{
	struct got g = { 0 };
	struct perfev_session *s;

	(void)state;
	SKIP_WITHOUT_FORMAT();
	s = open_session(write_file(), false, 0);
	assert_int_equal(perfev_session__process(s, on_sample, &g), 0);
	assert_int_equal(g.n, 0);
	assert_int_equal(g.plain, 9); /* every sched_switch sample, as it is */
	assert_int_equal(g.clock, 2);
	perfev_session__delete(s);
}

/* Deleting a session that holds switch-outs, or held them, leaks nothing (ASan, valgrind). */
static void test_stop_early(void **state)
{
	struct got g = { 0 };
	struct perfev_session *s;

	(void)state;
	SKIP_WITHOUT_FORMAT();
	s = open_session(write_file(), true, 0);
	perfev_session__delete(s); /* held nothing yet: nothing leaks */
	s = open_session(write_file(), true, 0);
	assert_int_equal(perfev_session__process(s, on_sample, &g), 0);
	perfev_session__delete(s); /* after the end: nothing held leaks */
	assert_int_equal(g.n, 5);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_waits),
		cmocka_unit_test(test_threshold),
		cmocka_unit_test(test_without_option),
		cmocka_unit_test(test_stop_early),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
