/*
 * sched/: perf sched latency's and timehist's figures from a recording made
 * here, event by event, so that every delay, wait and run is known: two
 * threads and a CPU's idle task switching on CPU 0, wakeups, a preemption
 * (R), one in the kernel (R+), an uninterruptible sleep (D); with today's
 * perf's reading and with perf 6.1's.  Then the task states as print fmts
 * name them, and what a damaged or incomplete recording gives.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "perfev/perfev.h"
#include "../perfdata/perfdata_test.h"
#include "events/events_int.h" /* tracefs__set_root(), for the fake tracefs */
#include "sched/sched_int.h"   /* the states parser */

#define ST (PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU | \
	    PERF_SAMPLE_RAW)
#define MS 1000000ull
#define T(ms_x10) (1000 * MS + (uint64_t)(ms_x10) * MS / 10) /* T(15): 1.5 ms after the start */
#define A 101
#define B 102

/* Today's kernel's formats (sched_switch's print fmt as 6.x writes it). */
static const char fmt_switch[] =
	"name: sched_switch\nID: 1\nformat:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
	"\tfield:char prev_comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
	"\tfield:pid_t prev_pid;\toffset:24;\tsize:4;\tsigned:1;\n"
	"\tfield:int prev_prio;\toffset:28;\tsize:4;\tsigned:1;\n"
	"\tfield:long prev_state;\toffset:32;\tsize:8;\tsigned:1;\n"
	"\tfield:char next_comm[16];\toffset:40;\tsize:16;\tsigned:0;\n"
	"\tfield:pid_t next_pid;\toffset:56;\tsize:4;\tsigned:1;\n"
	"\tfield:int next_prio;\toffset:60;\tsize:4;\tsigned:1;\n\n"
	"print fmt: \"prev_comm=%s prev_pid=%d prev_prio=%d prev_state=%s%s ==> next_comm=%s "
	"next_pid=%d next_prio=%d\", REC->prev_comm, REC->prev_pid, REC->prev_prio, "
	"(REC->prev_state & ((((0x00000000 | 0x00000001 | 0x00000002 | 0x00000004 | 0x00000008 | "
	"0x00000010 | 0x00000020 | 0x00000040) + 1) << 1) - 1)) ? __print_flags(REC->prev_state & "
	"((((0x00000000 | 0x00000001 | 0x00000002 | 0x00000004 | 0x00000008 | 0x00000010 | "
	"0x00000020 | 0x00000040) + 1) << 1) - 1), \"|\", { 0x00000001, \"S\" }, { 0x00000002, "
	"\"D\" }, { 0x00000004, \"T\" }, { 0x00000008, \"t\" }, { 0x00000010, \"X\" }, { "
	"0x00000020, \"Z\" }, { 0x00000040, \"P\" }, { 0x00000080, \"I\" }) : \"R\", "
	"REC->prev_state & (((0x00000000 | 0x00000001 | 0x00000002 | 0x00000004 | 0x00000008 | "
	"0x00000010 | 0x00000020 | 0x00000040) + 1) << 1) ? \"+\" : \"\", REC->next_comm, "
	"REC->next_pid, REC->next_prio\n";
#define WAKE_FIELDS                                                                      \
	"format:\n\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"      \
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"               \
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"       \
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"                         \
	"\tfield:char comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"                           \
	"\tfield:pid_t pid;\toffset:24;\tsize:4;\tsigned:1;\n"                               \
	"\tfield:int prio;\toffset:28;\tsize:4;\tsigned:1;\n"                                \
	"\tfield:int target_cpu;\toffset:32;\tsize:4;\tsigned:1;\n\n"                        \
	"print fmt: \"comm=%s pid=%d prio=%d target_cpu=%03d\", REC->comm, REC->pid, "      \
	"REC->prio, REC->target_cpu\n"
static const char fmt_waking[] = "name: sched_waking\nID: 2\n" WAKE_FIELDS;
static const char fmt_wakeup_new[] = "name: sched_wakeup_new\nID: 3\n" WAKE_FIELDS;
static const char fmt_runtime[] =
	"name: sched_stat_runtime\nID: 4\nformat:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
	"\tfield:__data_loc char[] comm;\toffset:8;\tsize:4;\tsigned:0;\n"
	"\tfield:pid_t pid;\toffset:12;\tsize:4;\tsigned:1;\n"
	"\tfield:u64 runtime;\toffset:16;\tsize:8;\tsigned:0;\n\n"
	"print fmt: \"comm=%s pid=%d runtime=%Lu [ns]\", __get_str(comm), REC->pid, "
	"(unsigned long long)REC->runtime\n";
/* A sched_switch whose format lacks next_pid. */
static const char fmt_switch_broken[] =
	"name: sched_switch\nID: 1\nformat:\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
	"\tfield:pid_t prev_pid;\toffset:24;\tsize:4;\tsigned:1;\n"
	"\tfield:long prev_state;\toffset:32;\tsize:8;\tsigned:1;\n\n"
	"print fmt: \"prev_pid=%d\", REC->prev_pid\n";

static char fake_root[256];

static void spit(const char *rel, const char *text)
{
	char path[PATH_MAX], *slash;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", fake_root, rel);
	for (slash = strchr(path + 1, '/'); slash; slash = strchr(slash + 1, '/')) {
		*slash = '\0';
		mkdir(path, 0755);
		*slash = '/';
	}
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void fake_tracefs(bool broken)
{
	snprintf(fake_root, sizeof(fake_root), "%s/tracefs%s", tmpdir, broken ? "-broken" : "");
	spit("events/header_page", "\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n");
	spit("events/header_event", "# compressed entry header\n");
	spit("events/sched/sched_switch/id", "1\n");
	spit("events/sched/sched_switch/format", broken ? fmt_switch_broken : fmt_switch);
	spit("events/sched/sched_waking/id", "2\n");
	spit("events/sched/sched_waking/format", fmt_waking);
	spit("events/sched/sched_wakeup_new/id", "3\n");
	spit("events/sched/sched_wakeup_new/format", fmt_wakeup_new);
	spit("events/sched/sched_stat_runtime/id", "4\n");
	spit("events/sched/sched_stat_runtime/format", fmt_runtime);
	tracefs__set_root(fake_root);
}

/* ---- records ---- */

static size_t begin(struct stream *s, uint32_t type)
{
	struct perf_event_header h = { .type = type };
	size_t at = s->len;

	put(s, &h, sizeof(h));
	return at;
}

static void finish(struct stream *s, size_t at)
{
	uint16_t size;

	while ((s->len - at) % 8)
		put(s, "", 1);
	size = (uint16_t)(s->len - at);
	memcpy(s->p + at + offsetof(struct perf_event_header, size), &size, sizeof(size));
}

/* The sample_id trailer of ST: tid, time, cpu, identifier. */
static void trailer(struct stream *s, uint32_t pid, uint32_t tid, uint64_t time)
{
	put_u32(s, pid);
	put_u32(s, tid);
	put_u64(s, time);
	put_u32(s, 0);
	put_u32(s, 0);
	put_u64(s, 7);
}

static void comm(struct stream *s, uint32_t pid, const char *name, uint64_t time)
{
	char c[16] = { 0 };
	size_t at = begin(s, PERF_RECORD_COMM);

	put_u32(s, pid);
	put_u32(s, pid);
	snprintf(c, sizeof(c), "%s", name);
	put(s, c, 16);
	trailer(s, pid, pid, time);
	finish(s, at);
}

static void sample(struct stream *s, uint64_t id, uint32_t tid, uint64_t time, const void *raw,
		   uint32_t raw_size)
{
	size_t at = begin(s, PERF_RECORD_SAMPLE);

	put_u64(s, id);
	put_u32(s, tid);
	put_u32(s, tid);
	put_u64(s, time);
	put_u32(s, 0); /* cpu */
	put_u32(s, 0);
	put_u32(s, raw_size);
	put(s, raw, raw_size);
	finish(s, at);
}

static void sw(struct stream *s, uint64_t time, int prev, uint64_t state, int next)
{
	unsigned char raw[68] = { 0 };
	int32_t p = prev, n = next;
	int64_t st = (int64_t)state;

	raw[0] = 1;
	memcpy(raw + 4, &p, 4);
	snprintf((char *)raw + 8, 16, "%s", prev == A ? "alpha" : prev == B ? "beta" : "swapper/0");
	memcpy(raw + 24, &p, 4);
	memcpy(raw + 32, &st, 8);
	snprintf((char *)raw + 40, 16, "%s", next == A ? "alpha" : next == B ? "beta" : "swapper/0");
	memcpy(raw + 56, &n, 4);
	sample(s, 7, (uint32_t)prev, time, raw, sizeof(raw));
}

static void waking(struct stream *s, uint64_t id, uint64_t time, int waker, int pid)
{
	unsigned char raw[36] = { 0 };

	raw[0] = (unsigned char)(id - 6);
	memcpy(raw + 24, &pid, 4);
	sample(s, id, (uint32_t)waker, time, raw, sizeof(raw));
}

static void runtime(struct stream *s, uint64_t time, int pid, uint64_t ns)
{
	unsigned char raw[28] = { 0 };
	uint32_t loc = 4u << 16 | 24;

	raw[0] = 4;
	memcpy(raw + 8, &loc, 4);
	memcpy(raw + 12, &pid, 4);
	memcpy(raw + 16, &ns, 8);
	memcpy(raw + 24, "ab", 3);
	sample(s, 10, (uint32_t)pid, time, raw, sizeof(raw));
}

/* The recording: what happens on CPU 0, in time order (see the file's comment). */
static void scenario(struct stream *s)
{
	comm(s, A, "alpha", T(0));
	comm(s, B, "beta", T(0));
	sw(s, T(10), A, 1, B);	 /* alpha sleeps (S); beta runs, first heard of */
	waking(s, 8, T(15), B, A); /* beta wakes alpha */
	sw(s, T(20), B, 0, A);	 /* beta preempted (R) */
	runtime(s, T(29), A, 800000);
	sw(s, T(30), A, 1, B);	 /* alpha sleeps again */
	runtime(s, T(39), B, 1500000);
	sw(s, T(40), B, 2, 0);	 /* beta waits uninterruptibly (D); idle */
	waking(s, 8, T(45), 0, B);
	sw(s, T(50), 0, 0, B);
	sw(s, T(60), B, 0x100, 0); /* beta preempted in the kernel (R+) */
	sw(s, T(70), 0, 0, B);
	sw(s, T(80), B, 1, 0);
}

static const char *write_recording(const char *name, bool broken, bool no_cpu)
{
	const char *path = tpath(name);
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	struct perfev_data_writer_opts o = { .sz = sizeof(o) };
	struct perfev_data_writer *w;
	struct stream s = { 0 };
	const char *names[] = { "sched:sched_switch", "sched:sched_waking", "sched:sched_wakeup_new",
				"sched:sched_stat_runtime" };

	fake_tracefs(broken);
	assert_true(fd >= 0);
	w = perfev_data_writer__new(fd, &o);
	assert_non_null(w);
	for (int i = 0; i < 4; i++) {
		struct perf_event_attr a = { .size = sizeof(a), .type = PERF_TYPE_TRACEPOINT,
					     .config = (uint64_t)i + 1, .sample_period = 1,
					     .sample_type = no_cpu ? ST & ~PERF_SAMPLE_CPU : ST,
					     .sample_id_all = 1, .comm = i == 0, .task = i == 0 };
		uint64_t id = 7 + (uint64_t)i;

		assert_int_equal(perfev_data_writer__add_attr(w, &a, &id, 1, names[i]), 0);
	}
	assert_int_equal(perfev_data_writer__start(w), 0);
	if (!no_cpu)
		scenario(&s);
	else
		sw(&s, T(10), A, 1, B); /* with no CPU field the layout is shorter: still parses */
	assert_int_equal(perfev_data_writer__write(w, s.p, s.len), 0);
	assert_int_equal(perfev_data_writer__finished_round(w), 0);
	assert_int_equal(perfev_data_writer__finish(w), 0);
	perfev_data_writer__delete(w);
	close(fd);
	free(s.p);
	tracefs__set_root(NULL);
	return path;
}

/* ---- running it ---- */

struct rows {
	struct perfev_sched_row r[32];
	size_t n;
};

static int on_row(void *ctx, const struct perfev_sched_row *row)
{
	struct rows *rs = ctx;

	assert_true(rs->n < 32);
	rs->r[rs->n++] = *row;
	return 0;
}

static struct perfev_sched *run(const char *path, bool perf61, struct rows *rows,
				struct perfev_session **s)
{
	struct perfev_sched_opts o = { .sz = sizeof(o), .perf61 = perf61, .wakeups = true };
	struct perfev_session_opts so = { .sz = sizeof(so), .no_unwind = true, .max_frames = 1 };
	struct perfev_sched *sc = perfev_sched__new(&o);

	assert_non_null(sc);
	*s = perfev_session__open(path, &so);
	assert_non_null(*s);
	assert_int_equal(perfev_sched__process(sc, *s, on_row, rows), 0);
	return sc;
}

static const struct perfev_sched_latency *lat_of(struct perfev_sched *sc, const char *comm)
{
	for (size_t i = 0; i < perfev_sched__nr_latencies(sc); i++)
		if (!strcmp(perfev_sched__latency(sc, i)->comm, comm))
			return perfev_sched__latency(sc, i);
	fail_msg("no latency line for %s", comm);
	return NULL;
}

static const struct perfev_sched_task *task_of(struct perfev_sched *sc, int tid)
{
	for (size_t i = 0; i < perfev_sched__nr_tasks(sc); i++)
		if (perfev_sched__task(sc, i)->thread.tid == tid)
			return perfev_sched__task(sc, i);
	fail_msg("no summary of thread %d", tid);
	return NULL;
}

static void test_latency(void **state)
{
	const char *path = write_recording("sched.data", false, false);
	struct perfev_session *s;
	struct rows rows = { .n = 0 };
	struct perfev_sched *sc = run(path, false, &rows, &s);
	const struct perfev_sched_latency *a, *b;

	(void)state;
	/* swapper is left out; beta (avg 0.625 ms) before alpha (0.5 ms). */
	assert_int_equal(perfev_sched__nr_latencies(sc), 2);
	b = perfev_sched__latency(sc, 0);
	assert_string_equal(b->comm, "beta");
	assert_int_equal(b->nr_merged, 1);
	/* first heard of as it came in (0), after R (1 ms), after D's wakeup (0.5), after R+ (1). */
	assert_int_equal(b->nr_switches, 4);
	assert_int_equal(b->total_delay, 2500000);
	assert_int_equal(b->max_delay, 1 * MS);
	assert_int_equal(b->max_start, T(20)); /* the first of the two longest */
	assert_int_equal(b->max_end, T(30));
	assert_int_equal(b->runtime, 1500000);
	a = lat_of(sc, "alpha");
	assert_int_equal(a->nr_switches, 1);
	assert_int_equal(a->max_delay, MS / 2);
	assert_int_equal(a->max_start, T(15));
	assert_int_equal(a->max_end, T(20));
	assert_int_equal(a->runtime, 800000);

	/* Sorted by runtime alone, then by pid. */
	assert_int_equal(perfev_sched__sort_latencies(sc, "runtime"), 0);
	assert_string_equal(perfev_sched__latency(sc, 0)->comm, "beta");
	assert_int_equal(perfev_sched__sort_latencies(sc, "switch pid"), 0);
	assert_string_equal(perfev_sched__latency(sc, 0)->comm, "beta");
	assert_int_equal(perfev_sched__sort_latencies(sc, "avg,bogus"), -EINVAL);
	assert_non_null(strstr(perfev_last_error(), "'bogus'"));
	assert_int_equal(perfev_sched__sort_latencies(sc, " , "), -EINVAL);
	/* A second reading is refused. */
	assert_int_equal(perfev_sched__process(sc, s, NULL, NULL), -EINVAL);
	perfev_sched__delete(sc);
	perfev_session__delete(s);

	/* perf 6.1: no sched_waking, and R+ is asleep: beta's waits after D and R+ are not seen. */
	rows.n = 0;
	sc = run(path, true, &rows, &s);
	b = lat_of(sc, "beta");
	assert_int_equal(b->nr_switches, 2);
	assert_int_equal(b->total_delay, MS);
	/* alpha's only wait began at a sched_waking: perf 6.1 shows no line for it. */
	assert_int_equal(perfev_sched__nr_latencies(sc), 1);
	perfev_sched__delete(sc);
	perfev_session__delete(s);
}

static void test_timehist(void **state)
{
	const char *path = write_recording("sched.data", false, false);
	struct perfev_session *s;
	struct rows rows = { .n = 0 };
	struct perfev_sched *sc = run(path, false, &rows, &s);
	const struct perfev_sched_row *r = rows.r;
	const struct perfev_sched_task *a, *b, *idle;
	size_t n = 0;

	(void)state;
	/* The switches (and the two wakeups): who left, its wait, delay and run. */
	struct {
		uint64_t time;
		int tid;
		char state;
		uint64_t wait, sleep, iowait, preempt, delay, run;
	} want[] = {
		{ T(10), A, 'S', 0, 0, 0, 0, 0, 0 },
		{ T(20), B, 'R', 0, 0, 0, 0, 0, MS },
		{ T(30), A, 'S', MS, MS, 0, 0, MS / 2, MS },
		{ T(40), B, 'D', MS, 0, 0, MS, 0, MS },
		{ T(50), 0, 'I', 0, 0, 0, 0, 0, MS },
		{ T(60), B, 'R', MS, 0, MS, 0, MS / 2, MS },
		{ T(70), 0, 'I', MS, 0, 0, MS, 0, MS },
		{ T(80), B, 'S', MS, 0, 0, MS, 0, MS },
	};
	for (size_t i = 0; i < rows.n; i++) {
		if (r[i].kind == PERFEV_SCHED_ROW_WAKEUP) {
			assert_true(r[i].time == T(15) || r[i].time == T(45));
			assert_int_equal(r[i].other.tid, r[i].time == T(15) ? A : B);
			continue;
		}
		assert_int_equal(r[i].kind, PERFEV_SCHED_ROW_SWITCH);
		assert_true(n < sizeof(want) / sizeof(want[0]));
		assert_int_equal(r[i].time, want[n].time);
		assert_int_equal(r[i].cpu, 0);
		assert_int_equal(r[i].thread.tid, want[n].tid);
		assert_string_equal(r[i].thread.comm,
				    want[n].tid == A ? "alpha" : want[n].tid == B ? "beta" : "<idle>");
		assert_int_equal(r[i].state, want[n].state);
		assert_int_equal(r[i].wait, want[n].wait);
		assert_int_equal(r[i].sleep, want[n].sleep);
		assert_int_equal(r[i].iowait, want[n].iowait);
		assert_int_equal(r[i].preempt, want[n].preempt);
		assert_int_equal(r[i].delay, want[n].delay);
		assert_int_equal(r[i].run, want[n].run);
		n++;
	}
	assert_int_equal(n, 8);
	assert_int_equal(rows.n, 10);

	a = task_of(sc, A);
	assert_int_equal(a->nr_runs, 2);
	assert_int_equal(a->run, MS);
	assert_int_equal(a->run_min, 0);
	assert_int_equal(a->run_max, MS);
	assert_int_equal(a->sleep, MS);
	assert_int_equal(a->delay, MS / 2);
	b = task_of(sc, B);
	assert_int_equal(b->nr_runs, 4);
	assert_int_equal(b->run, 4 * MS);
	assert_int_equal(b->preempt, 2 * MS);
	assert_int_equal(b->iowait, MS);
	assert_int_equal(b->sleep, 0);
	assert_int_equal(b->delay, MS / 2);
	assert_true(b->run_stddev_pct == 0.0);
	assert_false(b->exited);
	idle = perfev_sched__idle(sc, 0);
	assert_non_null(idle);
	assert_int_equal(idle->nr_runs, 2);
	assert_int_equal(idle->run, 2 * MS);
	assert_true(perfev_sched__nr_cpus(sc) >= 1);
	assert_int_equal(perfev_sched__stats(sc)->first_switch, T(10));
	assert_int_equal(perfev_sched__stats(sc)->last_switch, T(80));
	perfev_sched__delete(sc);
	perfev_session__delete(s);

	/* perf 6.1: R+ counts as sleep, and the letters are its table's. */
	rows.n = 0;
	sc = run(path, true, &rows, &s);
	b = task_of(sc, B);
	assert_int_equal(b->preempt, MS);
	assert_int_equal(b->sleep, MS);
	assert_int_equal(b->iowait, MS);
	assert_int_equal(b->delay, MS / 2); /* the totals perf sched timehist shows are the same */
	perfev_sched__delete(sc);
	perfev_session__delete(s);
}

static void test_incomplete(void **state)
{
	struct perfev_session_opts so = { .sz = sizeof(so), .no_unwind = true };
	struct perfev_sched_opts bad = { .sz = 3 };
	struct perfev_session *s;
	struct perfev_sched *sc;

	(void)state;
	/* A format without a field the figures need: said, naming it. */
	s = perfev_session__open(write_recording("broken.data", true, false), &so);
	assert_non_null(s);
	sc = perfev_sched__new(NULL);
	assert_int_equal(perfev_sched__process(sc, s, NULL, NULL), -PERFEV_ERR_FORMAT);
	assert_non_null(strstr(perfev_last_error(), "'next_pid'"));
	perfev_sched__delete(sc);
	perfev_session__delete(s);

	/* Samples without the CPU: no schedule can be made of them. */
	s = perfev_session__open(write_recording("nocpu.data", false, true), &so);
	assert_non_null(s);
	sc = perfev_sched__new(NULL);
	assert_int_equal(perfev_sched__process(sc, s, NULL, NULL), -PERFEV_ERR_FORMAT);
	assert_non_null(strstr(perfev_last_error(), "perfev sched record"));
	perfev_sched__delete(sc);
	perfev_session__delete(s);

	assert_null(perfev_sched__new(&bad));
	assert_int_equal(errno, EINVAL);
	assert_int_equal(perfev_sched__process(NULL, NULL, NULL, NULL), -EINVAL);
	perfev_sched__delete(NULL);
}

static void test_states(void **state)
{
	char st[16];

	(void)state;
	sched_states_from_fmt(fmt_switch, st, sizeof(st));
	assert_int_equal(sched_state_char(st, 0), 'R');
	assert_int_equal(sched_state_char(st, 1), 'S');
	assert_int_equal(sched_state_char(st, 2), 'D');
	assert_int_equal(sched_state_char(st, 0x80), 'I');
	assert_int_equal(sched_state_char(st, 0x100), 'R'); /* preempted: TASK_REPORT_MAX */
	assert_int_equal(sched_state_char(st, 0x102), 'D');
	/* An old kernel's letters, in decimal, with other flags before. */
	sched_states_from_fmt("\"%s\", __print_flags(REC->other, \"|\", { 1, \"Q\" }), "
			      "__print_flags(REC->prev_state & 15, \"|\", { 1, \"S\" }, { 2, \"D\" }, "
			      "{ 4, \"T\" }, { 8, \"W\" })", st, sizeof(st));
	assert_int_equal(sched_state_char(st, 8), 'W');
	assert_int_equal(sched_state_char(st, 1), 'S');
	/* No flags, or malformed ones: today's letters. */
	const char *bad[] = { "", "__print_flags(", "__print_flags(REC->prev_state, \"|\", { 0x",
			      "__print_flags(REC->prev_state, \"|\", { 0x1, S }",
			      "__print_flags(REC->prev_state, \"|\", { 0xffffffffffffffffff, \"S\" })",
			      "__print_flags(REC->prev_state, \"|\", { 3, \"S\" })",
			      "__print_flags(REC->prev_state, \"|\", { 0x1, \"\" })", NULL };
	for (int i = 0; bad[i]; i++) {
		sched_states_from_fmt(bad[i], st, sizeof(st));
		assert_int_equal(sched_state_char(st, 2), 'D');
		assert_int_equal(sched_state_char(st, 0x80), 'I');
	}
	sched_states_from_fmt(NULL, st, sizeof(st));
	assert_int_equal(sched_state_char(st, 1), 'S');
}

static int setup(void **state)
{
	(void)state;
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/perfev-sched-XXXXXX");
	return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[128];

	(void)state;
	/* PERFEV_KEEP_TMP=1 keeps the recordings (fuzz/corpus/sched/ seeds one of them). */
	if (getenv("PERFEV_KEEP_TMP"))
		return 0;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	return system(cmd) == 0 ? 0 : -1;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_latency),
		cmocka_unit_test(test_timehist),
		cmocka_unit_test(test_incomplete),
		cmocka_unit_test(test_states),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
