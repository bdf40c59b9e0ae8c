// SPDX-License-Identifier: MIT
/*
 * Recordings where every stack is empty, whose sample_type has neither
 * PERF_SAMPLE_IP nor PERF_SAMPLE_CALLCHAIN: each sample is a period of a
 * thread and nothing more.  The session, the profile (in place and on its
 * background thread) and the tool's report and script must take them as
 * they take any other, which under ASan+UBSan means no pointer arithmetic
 * or C library call on the NULL arrays that nothing grew (the class of
 * "applying zero offset to null pointer" and qsort(NULL, 0) failures).
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <unistd.h>

#include "../perfdata/perfdata_test.h"

/* No IP, no call chain: identifier, tid, time, period. */
#define ST (PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_PERIOD)

static void end(struct stream *b, size_t at)
{
	uint16_t size;

	while ((b->len - at) % 8)
		put(b, "", 1);
	size = (uint16_t)(b->len - at);
	memcpy(b->p + at + offsetof(struct perf_event_header, size), &size, sizeof(size));
}

static void comm(struct stream *b, uint32_t pid, const char *name)
{
	struct perf_event_header h = { .type = PERF_RECORD_COMM };
	char s[16] = { 0 };
	size_t at = b->len;

	put(b, &h, sizeof(h));
	put_u32(b, pid), put_u32(b, pid);
	snprintf(s, sizeof(s), "%s", name);
	put(b, s, 16);
	put_u32(b, pid), put_u32(b, pid), put_u64(b, 1), put_u64(b, 7); /* tid, time, identifier */
	end(b, at);
}

static void sample(struct stream *b, uint32_t pid, uint64_t time, uint64_t period)
{
	struct perf_event_header h = { .type = PERF_RECORD_SAMPLE, .misc = PERF_RECORD_MISC_USER };
	size_t at = b->len;

	put(b, &h, sizeof(h));
	put_u64(b, 7);
	put_u32(b, pid), put_u32(b, pid);
	put_u64(b, time);
	put_u64(b, period);
	end(b, at);
}

static const char *write_file(void)
{
	const char *path = tpath("empty-stacks.data");
	struct perf_event_attr a = { .size = sizeof(a), .type = PERF_TYPE_SOFTWARE,
				     .config = PERF_COUNT_SW_CPU_CLOCK, .sample_period = 1000,
				     .sample_type = ST, .sample_id_all = 1 };
	struct perfev_data_writer_opts o = { .sz = sizeof(o) };
	struct perfev_data_writer *w;
	struct stream b = { 0 };
	uint64_t id = 7;
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);

	assert_true(fd >= 0);
	w = perfev_data_writer__new(fd, &o);
	assert_non_null(w);
	assert_int_equal(perfev_data_writer__add_attr(w, &a, &id, 1, "cpu-clock"), 0);
	assert_int_equal(perfev_data_writer__start(w), 0);
	comm(&b, 42, "noip");
	/* More samples than one batch of the background inserter holds. */
	for (int i = 0; i < 5000; i++)
		sample(&b, 42 + i % 3, 10 + (uint64_t)i, 1000);
	assert_int_equal(perfev_data_writer__write(w, b.p, b.len), 0);
	assert_int_equal(perfev_data_writer__finish(w), 0);
	perfev_data_writer__delete(w);
	close(fd);
	free(b.p);
	return path;
}

struct run {
	struct perfev_profile *fg, *bg;
	size_t n;
};

static int collect(void *ctx, const struct perfev_session_sample *s)
{
	struct run *r = ctx;

	r->n++;
	assert_int_equal(s->nr_frames, 0);
	assert_int_equal(perfev_profile__add(r->fg, s->thread, s->frames, s->nr_frames, s->period), 0);
	assert_int_equal(perfev_profile__add(r->bg, s->thread, s->frames, s->nr_frames, s->period), 0);
	return 0;
}

static void test_session_and_profiles(void **state)
{
	struct perfev_profile_opts bo = { .sz = sizeof(bo), .background = true };
	struct perfev_session_opts so = { .sz = sizeof(so), .no_unwind = true };
	struct run r = { perfev_profile__new(NULL), perfev_profile__new(&bo), 0 };
	struct perfev_session *s = perfev_session__open(write_file(), &so);
	uint64_t samples, period, lost;

	(void)state;
	assert_non_null(s);
	assert_non_null(r.fg);
	assert_non_null(r.bg);
	assert_int_equal(perfev_session__process(s, collect, &r), 0);
	assert_int_equal(r.n, 5000);
	assert_int_equal(perfev_session__evsel_stats(s, 0, &samples, &period, &lost), 0);
	assert_int_equal(samples, 5000);
	assert_int_equal(period, 5000 * 1000);
	assert_int_equal(perfev_profile__sync(r.bg), 0);
	/* Every sample lands on the root: the same tree either way. */
	assert_int_equal(perfev_profile__nr_nodes(r.bg), perfev_profile__nr_nodes(r.fg));
	assert_int_equal(perfev_profile__node(r.bg, 0)->total, 5000 * 1000);
	assert_int_equal(perfev_profile__node(r.fg, 0)->total, 5000 * 1000);
	perfev_profile__delete(r.fg);
	perfev_profile__delete(r.bg);
	perfev_session__delete(s);
}

/* The tool on the same file, every output it has (a sanitizer's abort fails the exit status). */
static void test_tool(void **state)
{
	static const char *const args[] = {
		"report", "report --no-children -g none", "report -g graph --children",
		"report -g flat", "report -g folded", "report --sort pid,tid,dso,sym",
		"report --sort srcline", "report -F overhead,sample,period,comm", "report --inline",
		"report --dso x", "script", "script -F comm,tid,time,period,ip,sym,dso,addr",
	};
	const char *tool = getenv("PERFEV");
	char path[PATH_MAX], out[PATH_MAX];

	(void)state;
	if (!tool) {
		skip(); /* run through tests/run.sh, which names the tool */
		return;
	}
	snprintf(path, sizeof(path), "%s", write_file());
	snprintf(out, sizeof(out), "%s", tpath("out"));
	for (size_t i = 0; i < sizeof(args) / sizeof(args[0]); i++) {
		char cmd[3 * PATH_MAX];
		int st;

		snprintf(cmd, sizeof(cmd), "'%s' %s -i '%s' >'%s' 2>&1", tool, args[i], path, out);
		st = system(cmd);
		/*
		 * Nothing may fail; --dso x, which chooses rows as perf's does, shows
		 * an empty table of the file's samples.
		 */
		if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
			char *text = slurp(out, NULL);

			print_error("perfev %s: status %d\n%s\n", args[i], st, text);
			free(text);
			fail();
		}
	}
}

static int setup(void **state)
{
	(void)state;
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/perfev-empty-XXXXXX");
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
		cmocka_unit_test(test_session_and_profiles),
		cmocka_unit_test(test_tool),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
