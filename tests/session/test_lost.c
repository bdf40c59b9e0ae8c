// SPDX-License-Identifier: MIT
/*
 * Lost samples counted once, by perf's rule: a file from perf (6.0 and
 * later) or perfev holds the kernel's PERF_RECORD_LOST records and, at its
 * end, a PERF_RECORD_LOST_SAMPLES summary of the same loss per event.  A
 * report's lost samples are the summaries (those a BPF filter dropped are
 * none), the LOST records only chunks to warn about; adding the two counted
 * every loss twice.  The summaries are written with
 * perfev_sample_id__encode(), whose trailer must lead the reader to the
 * right event.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <unistd.h>

#include "../perfdata/perfdata_test.h"

#define ST (PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | \
	    PERF_SAMPLE_PERIOD)

static const struct perfev_sample_fmt fmt = { .sample_type = ST, .sample_id_all = true };

static void end(struct stream *b, size_t at)
{
	uint16_t size = (uint16_t)(b->len - at);

	memcpy(b->p + at + offsetof(struct perf_event_header, size), &size, sizeof(size));
}

static void trailer(struct stream *b, uint64_t id, uint64_t time)
{
	struct perfev_sample_id sid = { .pid = 5, .tid = 5, .time = time, .identifier = id };
	unsigned char t[64];
	int n = perfev_sample_id__encode(&fmt, &sid, t, sizeof(t));

	assert_int_equal(n, 24); /* tid, time, identifier */
	put(b, t, (size_t)n);
}

static void lost(struct stream *b, uint64_t id, uint64_t n, uint64_t time)
{
	struct perf_event_header h = { .type = PERF_RECORD_LOST };
	size_t at = b->len;

	put(b, &h, sizeof(h));
	put_u64(b, id);
	put_u64(b, n);
	trailer(b, id, time);
	end(b, at);
}

static void lost_samples(struct stream *b, uint64_t id, uint64_t n, uint16_t misc)
{
	struct perf_event_header h = { .type = PERF_RECORD_LOST_SAMPLES, .misc = misc };
	size_t at = b->len;

	put(b, &h, sizeof(h));
	put_u64(b, n);
	trailer(b, id, 0);
	end(b, at);
}

static void sample(struct stream *b, uint64_t id, uint64_t time)
{
	struct perf_event_header h = { .type = PERF_RECORD_SAMPLE, .misc = PERF_RECORD_MISC_USER };
	size_t at = b->len;

	put(b, &h, sizeof(h));
	put_u64(b, id);
	put_u64(b, 0x1000);
	put_u32(b, 5), put_u32(b, 5);
	put_u64(b, time);
	put_u64(b, 1);
	end(b, at);
}

enum kind { OLD, SUMMED, SUMMED_BPF };

/*
 * Two events (ids 7 and 8): 300 and 40 lost by the kernel, summed up again
 * at the end (not in OLD files), and with SUMMED_BPF 1000 more that a BPF
 * filter dropped (which perf before 6.4 counted as lost).
 */
static const char *write_file(enum kind k)
{
	const char *path = tpath(k == OLD ? "old.data" : k == SUMMED ? "summed.data" : "bpf.data");
	struct perf_event_attr a = { .size = sizeof(a), .type = PERF_TYPE_SOFTWARE,
				     .config = PERF_COUNT_SW_CPU_CLOCK, .sample_period = 1000,
				     .sample_type = ST, .sample_id_all = 1 };
	struct perfev_data_writer_opts o = { .sz = sizeof(o) };
	struct perfev_data_writer *w;
	struct stream b = { 0 };
	uint64_t id7 = 7, id8 = 8;
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);

	assert_true(fd >= 0);
	w = perfev_data_writer__new(fd, &o);
	assert_non_null(w);
	assert_int_equal(perfev_data_writer__add_attr(w, &a, &id7, 1, "cpu-clock"), 0);
	a.config = PERF_COUNT_SW_TASK_CLOCK;
	assert_int_equal(perfev_data_writer__add_attr(w, &a, &id8, 1, "task-clock"), 0);
	assert_int_equal(perfev_data_writer__start(w), 0);
	sample(&b, 7, 10);
	lost(&b, 7, 100, 11);
	sample(&b, 8, 12);
	lost(&b, 7, 200, 13);
	lost(&b, 8, 40, 14);
	sample(&b, 7, 15);
	if (k != OLD) {
		lost_samples(&b, 7, 300, 0);
		lost_samples(&b, 8, 40, 0);
	}
	if (k == SUMMED_BPF)
		lost_samples(&b, 8, 1000, PERFEV_RECORD_MISC_LOST_SAMPLES_BPF);
	assert_int_equal(perfev_data_writer__write(w, b.p, b.len), 0);
	assert_int_equal(perfev_data_writer__finish(w), 0);
	perfev_data_writer__delete(w);
	close(fd);
	free(b.p);
	return path;
}

static int count(void *ctx, const struct perfev_session_sample *s)
{
	(void)s;
	++*(int *)ctx;
	return 0;
}

static void test_lost_counted_once(void **state)
{
	struct perfev_session_opts so = { .sz = sizeof(so), .no_unwind = true };
	struct perfev_session *s = perfev_session__open(write_file(SUMMED_BPF), &so);
	const struct perfev_session_stats *st;
	uint64_t n, period, l7, l8;
	int samples = 0;

	(void)state;
	assert_non_null(s);
	assert_int_equal(perfev_session__process(s, count, &samples), 0);
	assert_int_equal(samples, 3);
	st = perfev_session__stats(s);
	assert_int_equal(st->nr_lost, 340);
	assert_int_equal(st->nr_lost_events, 3);
	assert_int_equal(st->nr_lost_samples, 340);
	assert_int_equal(perfev_session__evsel_stats(s, 0, &n, &period, &l7), 0);
	assert_int_equal(perfev_session__evsel_stats(s, 1, &n, &period, &l8), 0);
	assert_int_equal(l7, 300);
	assert_int_equal(l8, 40);
	perfev_session__delete(s);
}

/* A file from before the summaries: its loss is in the LOST records only, as perf counts it. */
static void test_lost_records_only(void **state)
{
	struct perfev_session_opts so = { .sz = sizeof(so), .no_unwind = true };
	struct perfev_session *s = perfev_session__open(write_file(OLD), &so);
	uint64_t n, period, l7;
	int samples = 0;

	(void)state;
	assert_non_null(s);
	assert_int_equal(perfev_session__process(s, count, &samples), 0);
	assert_int_equal(perfev_session__stats(s)->nr_lost, 340);
	assert_int_equal(perfev_session__stats(s)->nr_lost_samples, 0);
	assert_int_equal(perfev_session__evsel_stats(s, 0, &n, &period, &l7), 0);
	assert_int_equal(l7, 0);
	perfev_session__delete(s);
}

/* perf's own reading of the same file, when perf is here: its "Total Lost Samples". */
static void test_perf_agrees(void **state)
{
	char args[512], *out, *err;

	(void)state;
	if (!have_perf()) {
		skip();
		return;
	}
	snprintf(args, sizeof(args), "report --stdio -i '%s'", write_file(SUMMED));
	assert_int_equal(perf(args, &out, &err), 0);
	if (!strstr(out, "Total Lost Samples: 340"))
		fail_msg("perf report says:\n%s\n%s", out, err);
	free(out);
	free(err);
}

static void test_encode_errors(void **state)
{
	struct perfev_sample_id sid = { 0 };
	const struct perfev_sample_fmt none = { .sample_type = ST };
	unsigned char t[8];

	(void)state;
	assert_int_equal(perfev_sample_id__encode(&fmt, &sid, NULL, 0), 24);
	assert_int_equal(perfev_sample_id__encode(&fmt, &sid, t, sizeof(t)), -ENOSPC);
	assert_int_equal(perfev_sample_id__encode(&none, &sid, t, sizeof(t)), 0);
	assert_int_equal(perfev_sample_id__encode(NULL, &sid, t, sizeof(t)), -EINVAL);
}

static int setup(void **state)
{
	(void)state;
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/perfev-lost-XXXXXX");
	return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	return system(cmd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lost_counted_once),
		cmocka_unit_test(test_lost_records_only),
		cmocka_unit_test(test_perf_agrees),
		cmocka_unit_test(test_encode_errors),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
