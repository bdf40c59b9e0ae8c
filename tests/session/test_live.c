// SPDX-License-Identifier: MIT
/*
 * Live sessions (src/lib/session/live.c): records fed from an event list's
 * rings and from /proc instead of a file.  Against the real kernel, every
 * CPU sampled with cpu-clock while a program that starts after the session
 * (so its exec, names and maps arrive live) burns its known hot functions:
 * its samples must carry its command and resolve to hot_a and hot_b, in
 * time order, and the session must go on after it exits.  Then what a
 * caller can get wrong: malformed records, a file's session asked for live
 * work and the other way round, and the ordering of a round.
 */
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "perfev/perfev.h"

static char helper_path[4096];

static const char *helper(const char *name)
{
	const char *dir = getenv("HELPERS");

	snprintf(helper_path, sizeof(helper_path), "%s/%s", dir ? dir : "build/tests/helpers", name);
	return helper_path;
}

/* cpu-clock on every CPU, set up as a recorder sets it up, mapped. */
static struct perfev_evlist *open_sampling(unsigned freq)
{
	struct perfev_evlist *el = perfev_evlist__new();
	struct perfev_open_opts oo = { .sz = sizeof(oo), .pid = -1, .system_wide = true };
	struct perfev_mmap_opts mo = { .sz = sizeof(mo), .data_pages = 64 };
	struct perf_event_attr *a;

	assert_non_null(el);
	assert_int_equal(perfev_evlist__add_events(el, "cpu-clock"), 0);
	a = perfev_evsel__attr(perfev_evlist__next_evsel(el, NULL));
	a->sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
			 PERF_SAMPLE_PERIOD | PERF_SAMPLE_CPU;
	a->freq = 1;
	a->sample_freq = freq;
	a->sample_id_all = 1;
	a->mmap = a->mmap2 = a->comm = a->comm_exec = a->task = 1;
	if (perfev_evlist__open(el, &oo) < 0) {
		print_message("cannot sample every CPU: %s\n", perfev_last_error());
		perfev_evlist__delete(el);
		return NULL;
	}
	assert_int_equal(perfev_evlist__mmap(el, &mo), 0);
	return el;
}

static int feed(const void *rec, size_t size, void *ctx)
{
	return perfev_session__feed(ctx, rec, size);
}

struct seen {
	pid_t pid;
	uint64_t samples, hot_a, hot_b, named, last_time, unordered, all;
	struct perfev_profile *p;
};

static int on_sample(void *ctx, const struct perfev_session_sample *s)
{
	struct seen *st = ctx;
	const struct perfev_sample *sm = &s->ev->rec.sample;
	const char *name = s->frames[0].sym ? s->frames[0].sym->name : NULL;

	st->all++;
	if (sm->time < st->last_time)
		st->unordered++;
	st->last_time = sm->time;
	if (perfev_thread__pid(s->thread) != st->pid)
		return 0;
	st->samples++;
	st->named += !strcmp(perfev_thread__comm(s->thread), "hot");
	if (name && !strcmp(name, "hot_a"))
		st->hot_a++;
	if (name && !strcmp(name, "hot_b"))
		st->hot_b++;
	return perfev_profile__add(st->p, s->thread, s->frames, s->nr_frames, s->period);
}

/* Whether pid has exited (not reaped: the workload reaps it). */
static bool exited(pid_t pid)
{
	siginfo_t si = { 0 };

	return !waitid(P_PID, (id_t)pid, &si, WEXITED | WNOHANG | WNOWAIT) && si.si_pid == pid;
}

static void test_live_exec_and_exit(void **state)
{
	(void)state;
	char *argv[] = { (char *)helper("hot"), (char *)"150", NULL };
	struct perfev_evlist *el = open_sampling(1000);
	struct perfev_sample_fmt fmt0;
	struct perfev_session *s;
	struct perfev_workload *w;
	struct seen st = { 0 };
	int status, rounds = 0;

	if (!el) {
		skip();
		return;
	}
	s = perfev_session__new_live(el, NULL);
	assert_non_null(s);
	assert_null(perfev_session__reader(s));
	assert_int_equal(perfev_sample_fmt__from_attr(
				 perfev_evsel__attr(perfev_evlist__next_evsel(el, NULL)), &fmt0),
			 0);
	/* What ran before: the kernel's maps (absent when hidden) and every process. */
	int err = perfev_synth__kernel(&fmt0, feed, s);

	assert_true(err == 0 || err == -EACCES);
	assert_int_equal(perfev_synth__all(&fmt0, feed, s), 0);
	st.p = perfev_profile__new(NULL);
	assert_non_null(st.p);
	w = perfev_workload__new(argv);
	assert_non_null(w);
	st.pid = perfev_workload__pid(w);
	assert_int_equal(perfev_workload__start(w), 0);
	while (!exited(st.pid)) {
		int n = perfev_evlist__poll(el, 100, NULL);

		assert_true(n >= 0 || n == -EINTR);
		assert_true(perfev_session__read_rings(s) >= 0);
		assert_int_equal(perfev_session__flush(s, false, on_sample, &st), 0);
		rounds++;
	}
	/* Rounds after it ended: its thread stays as it was. */
	for (int i = 0; i < 3; i++) {
		perfev_evlist__poll(el, 50, NULL);
		assert_true(perfev_session__read_rings(s) >= 0);
		assert_int_equal(perfev_session__flush(s, false, on_sample, &st), 0);
	}
	assert_true(perfev_session__read_rings(s) >= 0);
	assert_int_equal(perfev_session__flush(s, true, on_sample, &st), 0);
	assert_int_equal(perfev_workload__wait(w, &status), 0);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	print_message("%d rounds: %llu samples in all, %llu of hot (%llu named hot): hot_a %llu, "
		      "hot_b %llu; %llu out of order\n",
		      rounds, (unsigned long long)st.all, (unsigned long long)st.samples,
		      (unsigned long long)st.named, (unsigned long long)st.hot_a,
		      (unsigned long long)st.hot_b, (unsigned long long)st.unordered);
	assert_true(st.samples >= 50);
	/* Named from its exec's COMM (the fork's samples before it may carry the parent's name). */
	assert_true(st.named * 10 >= st.samples * 9);
	/* hot_a takes two thirds of the work, hot_b one third. */
	assert_true(st.hot_a + st.hot_b >= st.samples * 8 / 10);
	assert_true(st.hot_a > st.hot_b);
	assert_int_equal(st.unordered, 0);
	const struct perfev_session_stats *ss = perfev_session__stats(s);

	assert_true(ss->nr_samples >= st.all);
	/* The profile's thread keeps its name after the process is gone. */
	bool found = false;

	for (size_t i = 0; i < perfev_profile__nr_threads(st.p); i++) {
		const struct perfev_profile_thread *t = perfev_profile__thread(st.p, i);

		found |= t->pid == st.pid && !strcmp(t->comm, "hot");
	}
	assert_true(found);
	perfev_profile__delete(st.p);
	perfev_workload__delete(w);
	perfev_session__delete(s);
	perfev_evlist__delete(el);
}

/* A sample of the list's first event, by hand: id 0 (as synthesized), at time t. */
static size_t make_sample(const struct perfev_sample_fmt *fmt, uint64_t t, uint32_t pid, void *buf,
			  size_t size)
{
	struct perfev_sample sm = { .ip = 0x1234, .pid = pid, .tid = pid, .time = t, .period = 1,
				    .cpu = 0 };
	struct perf_event_header h = { .type = PERF_RECORD_SAMPLE, .misc = PERF_RECORD_MISC_USER };
	int n = perfev_sample__encode(fmt, &sm, (char *)buf + sizeof(h), size - sizeof(h));

	assert_true(n > 0);
	h.size = (uint16_t)(sizeof(h) + (size_t)n);
	memcpy(buf, &h, sizeof(h));
	return h.size;
}

struct order {
	uint64_t times[16];
	size_t n;
};

static int note_time(void *ctx, const struct perfev_session_sample *s)
{
	struct order *o = ctx;

	if (o->n < 16)
		o->times[o->n++] = s->ev->rec.sample.time;
	return 0;
}

/* A round's records wait for the next round, then come out in time order. */
static void test_live_round_order(void **state)
{
	(void)state;
	struct perfev_evlist *el = open_sampling(10);
	struct perfev_sample_fmt fmt0;
	struct perfev_session *s;
	struct order o = { 0 };
	unsigned char buf[256];
	size_t n;

	if (!el) {
		skip();
		return;
	}
	s = perfev_session__new_live(el, NULL);
	assert_non_null(s);
	assert_int_equal(perfev_sample_fmt__from_attr(
				 perfev_evsel__attr(perfev_evlist__next_evsel(el, NULL)), &fmt0),
			 0);
	n = make_sample(&fmt0, 300, 1, buf, sizeof(buf));
	assert_int_equal(perfev_session__feed(s, buf, n), 0);
	n = make_sample(&fmt0, 100, 1, buf, sizeof(buf));
	assert_int_equal(perfev_session__feed(s, buf, n), 0);
	/* The end of the first round: nothing is known to be complete yet. */
	assert_int_equal(perfev_session__flush(s, false, note_time, &o), 0);
	assert_int_equal(o.n, 0);
	n = make_sample(&fmt0, 200, 1, buf, sizeof(buf));
	assert_int_equal(perfev_session__feed(s, buf, n), 0);
	n = make_sample(&fmt0, 400, 1, buf, sizeof(buf));
	assert_int_equal(perfev_session__feed(s, buf, n), 0);
	/* The second: what is older than the first round's newest (300) goes. */
	assert_int_equal(perfev_session__flush(s, false, note_time, &o), 0);
	assert_int_equal(o.n, 3);
	assert_int_equal(o.times[0], 100);
	assert_int_equal(o.times[1], 200);
	assert_int_equal(o.times[2], 300);
	assert_int_equal(perfev_session__flush(s, true, note_time, &o), 0);
	assert_int_equal(o.n, 4);
	assert_int_equal(o.times[3], 400);
	perfev_session__delete(s);
	perfev_evlist__delete(el);
}

static void test_live_bad_input(void **state)
{
	(void)state;
	struct perfev_evlist *el = open_sampling(10);
	struct perfev_sample_fmt fmt0;
	struct perfev_session *s;
	struct order o = { 0 };
	unsigned char buf[256];
	size_t n;

	assert_null(perfev_session__new_live(NULL, NULL));
	assert_int_equal(errno, EINVAL);
	if (!el) {
		skip();
		return;
	}
	s = perfev_session__new_live(el, NULL);
	assert_non_null(s);
	/* A live session resolves samples as long as it runs: its caches stay. */
	assert_int_equal(perfev_session__trim(s), -EINVAL);
	assert_int_equal(perfev_sample_fmt__from_attr(
				 perfev_evsel__attr(perfev_evlist__next_evsel(el, NULL)), &fmt0),
			 0);
	/* Shorter than a header. */
	assert_int_equal(perfev_session__feed(s, buf, 4), -PERFEV_ERR_FORMAT);
	print_message("short: %s\n", perfev_last_error());
	/* A header claiming more than there is. */
	n = make_sample(&fmt0, 5, 1, buf, sizeof(buf));
	assert_int_equal(perfev_session__feed(s, buf, n - 8), -PERFEV_ERR_FORMAT);
	print_message("cut: %s\n", perfev_last_error());
	/* A sample cut short inside its body, its header saying so. */
	struct perf_event_header h;

	memcpy(&h, buf, sizeof(h));
	h.size = 16;
	memcpy(buf, &h, sizeof(h));
	assert_int_equal(perfev_session__feed(s, buf, 16), -PERFEV_ERR_FORMAT);
	print_message("truncated body: %s\n", perfev_last_error());
	/* An id no event of the list has: dropped, not an error. */
	n = make_sample(&fmt0, 5, 1, buf, sizeof(buf));
	uint64_t bogus = 0xdeadbeefcafeull;

	memcpy(buf + sizeof(h), &bogus, sizeof(bogus));
	assert_int_equal(perfev_session__feed(s, buf, n), 0);
	assert_int_equal(perfev_session__flush(s, true, note_time, &o), 0);
	assert_int_equal(o.n, 0);
	/* A live session is not read as a file. */
	assert_int_equal(perfev_session__process(s, note_time, &o), -EINVAL);
	perfev_session__delete(s);
	perfev_evlist__delete(el);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_live_exec_and_exit),
		cmocka_unit_test(test_live_round_order),
		cmocka_unit_test(test_live_bad_input),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
