/*
 * The writer's off-CPU threshold (perfev_data_writer_opts.off_cpu_thresh_ns)
 * on rings over plain memory, the test playing the kernel: in a round, a
 * switch-out whose thread is seen switched in (PERF_RECORD_SWITCH, or a
 * sched_switch naming it as next_pid) within the threshold is left out, as
 * are PERF_RECORD_SWITCH switch-outs; one longer, or whose switch-in comes in
 * a later round (or in another ring of the round, before it), is kept; the
 * other records keep their order; the session reading the file with the
 * same threshold sees exactly the long waits.  Without the option every
 * byte is written.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "perfev/perfev.h"
#include "perfdata_test.h"
#include "sample/ring_int.h"
#include "../session/offcpu_test.h"

#define RING_SIZE (1u << 16)
#define THRESH 1000

static struct oc_format F;
static bool have_format;

static int setup(void **state)
{
	(void)state;
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/perfev-wocpu-XXXXXX");
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

struct sim {
	void *mem;
	struct perf_event_mmap_page *page;
	unsigned char *data;
	struct perfev_ring *ring;
};

static void sim_init(struct sim *s)
{
	s->mem = calloc(1, RING_MEM_DATA_OFFSET + RING_SIZE);
	assert_non_null(s->mem);
	s->page = s->mem;
	s->data = (unsigned char *)s->mem + RING_MEM_DATA_OFFSET;
	s->ring = ring__new_mem(s->mem, RING_SIZE, false);
	assert_non_null(s->ring);
}

static void sim_free(struct sim *s)
{
	perfev_ring__delete(s->ring);
	free(s->mem);
}

static void sim_put(struct sim *s, const unsigned char *rec, size_t len)
{
	for (size_t i = 0; i < len; i++)
		s->data[(s->page->data_head + i) & (RING_SIZE - 1)] = rec[i];
	s->page->data_head += len;
}

static const uint64_t chain[] = { 0xffffffffff600010ull };

/* Puts a switch-out of tid (at t, in state, naming next) into the ring. */
static void out(struct sim *s, int tid, uint64_t t, uint64_t state, int next)
{
	unsigned char r[1024];

	sim_put(s, r, oc_switch_out(r, &F, tid, tid, t, state, next, chain, 1, 0));
}

static void in(struct sim *s, int tid, uint64_t t, bool is_out)
{
	unsigned char r[256];

	sim_put(s, r, oc_switch_rec(r, &F, tid, tid, t, is_out));
}

static struct perfev_data_writer *start(int fd, uint64_t thresh)
{
	struct perfev_data_writer_opts o = { .sz = sizeof(o), .off_cpu_thresh_ns = thresh };
	struct perf_event_attr sw = oc_switch_attr(&F), ck = oc_clock_attr();
	uint64_t id_sw = OC_SWITCH_ID, id_ck = OC_CLOCK_ID;
	struct perfev_data_writer *w = perfev_data_writer__new(fd, &o);

	assert_non_null(w);
	assert_int_equal(perfev_data_writer__add_attr(w, &ck, &id_ck, 1, "cpu-clock"), 0);
	assert_int_equal(perfev_data_writer__add_attr(w, &sw, &id_sw, 1, "sched:sched_switch"), 0);
	assert_int_equal(perfev_data_writer__start(w), 0);
	return w;
}

/*
 * Two rings (two CPUs), two rounds.  Round 1, ring 0: A out 1000 (back at
 * 1500: short), its PERF_RECORD_SWITCH out, B out 1100 (back at 5000: long),
 * D out 1400 (back only in round 2), E out 2000 naming F, which is back at
 * 2100 when F leaves naming E (E short, F never back), G dies.  Ring 1: A in
 * 1500, a clock sample, B in 5000.  Round 2, ring 1: D in 1450.
 */
static const char *write_file(const char *name, uint64_t thresh, uint64_t *dropped)
{
	const char *path = tpath(name);
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	struct perfev_data_writer *w;
	struct sim r0, r1;
	unsigned char r[256];

	assert_true(fd >= 0);
	sim_init(&r0);
	sim_init(&r1);
	w = start(fd, thresh);
	out(&r0, 100, 1000, 1, 0);
	in(&r0, 100, 1001, true);
	out(&r0, 101, 1100, 1, 0);
	out(&r0, 103, 1400, 2, 0);
	out(&r0, 104, 2000, 0x100, 105);
	out(&r0, 105, 2100, 1, 104);
	out(&r0, 106, 2200, 0x10, 0);
	in(&r1, 100, 1500, false);
	sim_put(&r1, r, oc_clock(r, 100, 100, 1600));
	in(&r1, 101, 5000, false);
	assert_true(perfev_data_writer__write_ring(w, r0.ring, NULL) > 0);
	assert_true(perfev_data_writer__write_ring(w, r1.ring, NULL) > 0);
	assert_int_equal(perfev_data_writer__finished_round(w), 0);
	in(&r1, 103, 1450, false);
	assert_true(perfev_data_writer__write_ring(w, r1.ring, NULL) > 0);
	assert_int_equal(perfev_data_writer__finished_round(w), 0);
	*dropped = perfev_data_writer__off_cpu_dropped(w);
	assert_int_equal(perfev_data_writer__finish(w), 0);
	perfev_data_writer__delete(w);
	close(fd);
	sim_free(&r0);
	sim_free(&r1);
	return path;
}

/* The file's records as "S<tid>@<time>" (switch-out samples), "I..", "O.." (switch records), "C" (clock), "R" (round). */
static void read_back(const char *path, char *buf, size_t size)
{
	struct perfev_data_reader *rd = perfev_data_reader__open(path, NULL);
	struct perfev_data_event ev;
	size_t len = 0;

	assert_non_null(rd);
	buf[0] = 0;
	while (perfev_data_reader__next(rd, &ev) > 0) {
		const struct perfev_record *rec = &ev.rec;
		int n = 0;

		if (rec->type == PERF_RECORD_SAMPLE && ev.evsel == 1)
			n = snprintf(buf + len, size - len, "S%u@%llu ", rec->sample.tid,
				     (unsigned long long)rec->sample.time);
		else if (rec->type == PERF_RECORD_SAMPLE)
			n = snprintf(buf + len, size - len, "C ");
		else if (rec->type == PERF_RECORD_SWITCH)
			n = snprintf(buf + len, size - len, "%c%u@%llu ",
				     rec->misc & PERF_RECORD_MISC_SWITCH_OUT ? 'O' : 'I',
				     rec->sample_id.tid, (unsigned long long)rec->sample_id.time);
		else if (rec->type == PERFEV_RECORD_FINISHED_ROUND)
			n = snprintf(buf + len, size - len, "R ");
		assert_true(n >= 0 && (size_t)n < size - len);
		len += (size_t)n;
	}
	perfev_data_reader__delete(rd);
}

static void test_threshold(void **state)
{
	char got[2048];
	uint64_t dropped;

	(void)state;
	if (!have_format) {
		print_message("skip: no sched:sched_switch format in tracefs here\n");
		skip();
	}
	read_back(write_file("t.data", THRESH, &dropped), got, sizeof(got));
	assert_string_equal(got, "S101@1100 S103@1400 S105@2100 S106@2200 I100@1500 C I101@5000 R "
				 "I103@1450 R ");
	assert_int_equal(dropped, 2);
}

static void test_no_threshold(void **state)
{
	char got[2048];
	uint64_t dropped;

	(void)state;
	if (!have_format) {
		print_message("skip: no sched:sched_switch format in tracefs here\n");
		skip();
	}
	read_back(write_file("n.data", 0, &dropped), got, sizeof(got));
	assert_string_equal(got, "S100@1000 O100@1001 S101@1100 S103@1400 S104@2000 S105@2100 "
				 "S106@2200 I100@1500 C I101@5000 R I103@1450 R ");
	assert_int_equal(dropped, 0);
}

struct waits {
	size_t n;
	uint64_t total;
};

static int count(void *ctx, const struct perfev_session_sample *s)
{
	struct waits *w = ctx;

	if (s->off_cpu_state) {
		w->n++;
		w->total += s->period;
	}
	return 0;
}

/* Read with the same threshold, the filtered file gives the same waits as the whole one. */
static void test_session_agrees(void **state)
{
	struct perfev_session_opts o = { .sz = sizeof(o), .off_cpu = true,
					 .off_cpu_thresh_ns = THRESH };
	struct waits a = { 0 }, b = { 0 };
	struct perfev_session *s;
	uint64_t dropped;

	(void)state;
	if (!have_format) {
		print_message("skip: no sched:sched_switch format in tracefs here\n");
		skip();
	}
	s = perfev_session__open(write_file("t2.data", THRESH, &dropped), &o);
	assert_non_null(s);
	assert_int_equal(perfev_session__process(s, count, &a), 0);
	perfev_session__delete(s);
	s = perfev_session__open(write_file("n2.data", 0, &dropped), &o);
	assert_non_null(s);
	assert_int_equal(perfev_session__process(s, count, &b), 0);
	perfev_session__delete(s);
	/* B 3900, and F from 2100 to the last record (5000): 2900. */
	assert_int_equal(a.n, 2);
	assert_int_equal(a.total, 3900 + 2900);
	assert_int_equal(b.n, a.n);
	assert_int_equal(b.total, a.total);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_threshold),
		cmocka_unit_test(test_no_threshold),
		cmocka_unit_test(test_session_agrees),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
