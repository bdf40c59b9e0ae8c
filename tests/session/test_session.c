// SPDX-License-Identifier: MIT
/*
 * The session over synthetic perf.data files written by perfev's writer:
 * time order within FINISHED_ROUND windows, threads and maps over time
 * (mmap replacing mmap, fork copying maps, exec keeping them until replaced, comm
 * changes), periods without PERF_SAMPLE_PERIOD, group-read deltas; and the
 * profile's call tree built from the delivered stacks.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <sys/mman.h>
#include <unistd.h>

#include "../perfdata/perfdata_test.h"
#include "util/internal.h"

#define ST (PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | \
	    PERF_SAMPLE_PERIOD)

/* A stream of records; test_* functions reuse perfdata_test.h's writers. */
#define buf stream

static void put64(struct buf *b, uint64_t v)
{
	put_u64(b, v);
}

static void put32x2(struct buf *b, uint32_t a, uint32_t c)
{
	put_u32(b, a);
	put_u32(b, c);
}

/* The sample_id trailer of ST with sample_id_all: tid, time, identifier. */
static void trailer(struct buf *b, uint32_t pid, uint32_t tid, uint64_t time)
{
	put32x2(b, pid, tid);
	put64(b, time);
	put64(b, 7); /* identifier */
}

static void header(struct buf *b, size_t *at, uint32_t type, uint16_t misc)
{
	struct perf_event_header h = { .type = type, .misc = misc };

	*at = b->len;
	put(b, &h, sizeof(h));
}

static void end(struct buf *b, size_t at)
{
	uint16_t size;

	while ((b->len - at) % 8)
		put(b, "", 1);
	size = b->len - at;
	memcpy(b->p + at + offsetof(struct perf_event_header, size), &size, sizeof(size));
}

static void comm(struct buf *b, uint32_t pid, uint32_t tid, const char *name, bool exec,
		 uint64_t time)
{
	size_t at;
	char s[16] = { 0 };

	header(b, &at, PERF_RECORD_COMM, exec ? PERF_RECORD_MISC_COMM_EXEC : 0);
	put32x2(b, pid, tid);
	snprintf(s, sizeof(s), "%s", name);
	put(b, s, 16);
	trailer(b, pid, tid, time);
	end(b, at);
}

static void fork_(struct buf *b, uint32_t pid, uint32_t ppid, uint64_t time)
{
	size_t at;

	header(b, &at, PERF_RECORD_FORK, 0);
	put32x2(b, pid, ppid);
	put32x2(b, pid, ppid);
	put64(b, time);
	trailer(b, pid, pid, time);
	end(b, at);
}

static void mmap2(struct buf *b, uint32_t pid, uint64_t start, uint64_t len, const char *file,
		  uint64_t time)
{
	size_t at;
	char s[64] = { 0 };

	header(b, &at, PERF_RECORD_MMAP2, PERF_RECORD_MISC_USER);
	put32x2(b, pid, pid);
	put64(b, start);
	put64(b, len);
	put64(b, 0);	   /* pgoff */
	put32x2(b, 8, 1);  /* maj, min */
	put64(b, 1234);	   /* ino */
	put64(b, 0);	   /* ino_generation */
	put32x2(b, PROT_READ | PROT_EXEC, MAP_PRIVATE);
	snprintf(s, sizeof(s), "%s", file);
	put(b, s, (strlen(s) + 8) & ~7ul);
	trailer(b, pid, pid, time);
	end(b, at);
}

static void sample(struct buf *b, uint32_t pid, uint32_t tid, uint64_t ip, uint64_t time,
		   uint64_t period)
{
	size_t at;

	header(b, &at, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER);
	put64(b, 7);
	put64(b, ip);
	put32x2(b, pid, tid);
	put64(b, time);
	put64(b, period);
	end(b, at);
}

static const char *write_file(const char *name, const struct perf_event_attr *attr, size_t nattr,
			      struct buf *rounds, size_t nr)
{
	const char *path = tpath(name);
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	struct perfev_data_writer_opts o = { .sz = sizeof(o) };
	struct perfev_data_writer *w;

	assert_true(fd >= 0);
	w = perfev_data_writer__new(fd, &o);
	assert_non_null(w);
	for (size_t i = 0; i < nattr; i++) {
		uint64_t id = 7 + i;

		assert_int_equal(perfev_data_writer__add_attr(w, &attr[i], &id, 1,
							      i ? "task-clock" : "cpu-clock"), 0);
	}
	assert_int_equal(perfev_data_writer__start(w), 0);
	for (size_t i = 0; i < nr; i++) {
		if (rounds[i].len)
			assert_int_equal(perfev_data_writer__write(w, rounds[i].p, rounds[i].len), 0);
		free(rounds[i].p);
		assert_int_equal(perfev_data_writer__finished_round(w), 0);
	}
	assert_int_equal(perfev_data_writer__finish(w), 0);
	perfev_data_writer__delete(w);
	close(fd);
	return path;
}

static struct perf_event_attr base_attr(void)
{
	struct perf_event_attr a = { .size = sizeof(a), .type = PERF_TYPE_SOFTWARE,
				     .config = PERF_COUNT_SW_CPU_CLOCK, .sample_period = 1000,
				     .sample_type = ST, .sample_id_all = 1 };

	return a;
}

#define MAX_SEEN 32

struct seen {
	size_t n;
	uint64_t time[MAX_SEEN], period[MAX_SEEN];
	int evsel[MAX_SEEN], tid[MAX_SEEN];
	char comm[MAX_SEEN][16];
	char map[MAX_SEEN][64];
	struct perfev_profile *prof;
};

static int collect(void *ctx, const struct perfev_session_sample *s)
{
	struct seen *v = ctx;
	size_t i = v->n++;

	assert_true(i < MAX_SEEN);
	assert_true(s->nr_frames >= 1);
	v->time[i] = s->ev->rec.sample.time;
	v->period[i] = s->period;
	v->evsel[i] = s->evsel;
	v->tid[i] = perfev_thread__tid(s->thread);
	snprintf(v->comm[i], sizeof(v->comm[i]), "%s", perfev_thread__comm(s->thread));
	snprintf(v->map[i], sizeof(v->map[i]), "%s", s->frames[0].map ? s->frames[0].map->filename : "-");
	if (v->prof)
		assert_int_equal(perfev_profile__add(v->prof, s->thread, s->frames, s->nr_frames, s->period),
				 0);
	return 0;
}

static void run(const char *path, struct seen *v, bool file_order)
{
	struct perfev_session_opts o = { .sz = sizeof(o), .file_order = file_order, .no_unwind = true };
	struct perfev_session *s = perfev_session__open(path, &o);

	assert_non_null(s);
	memset(v->time, 0, sizeof(v->time));
	v->n = 0;
	assert_int_equal(perfev_session__process(s, collect, v), 0);
	perfev_session__delete(s);
}

static void test_time_order_by_rounds(void **state)
{
	struct perf_event_attr a = base_attr();
	struct buf r[3] = { 0 };
	struct seen v = { 0 };
	const char *path;

	(void)state;
	/* Round 1 holds 10 and 30; round 2 brings 20 (drained later from another ring) and 40. */
	sample(&r[0], 1, 1, 0x1000, 10, 1);
	sample(&r[0], 1, 1, 0x1000, 30, 1);
	sample(&r[1], 1, 1, 0x1000, 20, 1);
	sample(&r[1], 1, 1, 0x1000, 40, 1);
	sample(&r[2], 1, 1, 0x1000, 35, 1);
	path = write_file("order.data", &a, 1, r, 3);
	run(path, &v, false);
	assert_int_equal(v.n, 5);
	uint64_t want[] = { 10, 20, 30, 35, 40 };

	for (size_t i = 0; i < 5; i++)
		assert_int_equal(v.time[i], want[i]);
	/* In file order they come as written. */
	run(path, &v, true);
	assert_int_equal(v.time[1], 30);
	assert_int_equal(v.time[2], 20);
}

static void test_maps_over_time(void **state)
{
	struct perf_event_attr a = base_attr();
	struct buf r[1] = { 0 };
	struct seen v = { 0 };

	(void)state;
	comm(&r[0], 100, 100, "first", false, 1);
	mmap2(&r[0], 100, 0x400000, 0x10000, "/opt/a.so", 2);
	sample(&r[0], 100, 100, 0x401000, 3, 1);
	/* A new mapping over part of the old one replaces it there only. */
	mmap2(&r[0], 100, 0x404000, 0x2000, "/opt/b.so", 4);
	sample(&r[0], 100, 100, 0x404800, 5, 1);
	sample(&r[0], 100, 100, 0x407000, 6, 1);
	/* A child gets a copy of the maps; its own new map is not its parent's. */
	fork_(&r[0], 101, 100, 7);
	mmap2(&r[0], 101, 0x500000, 0x1000, "/opt/c.so", 8);
	sample(&r[0], 101, 101, 0x401000, 9, 1);
	sample(&r[0], 101, 101, 0x500010, 10, 1);
	sample(&r[0], 100, 100, 0x500010, 11, 1);
	/*
	 * exec renames the process; its old maps stay until the new image's
	 * replace them, as perf keeps them: a sample taken while exec loads
	 * the new image still has the old one's user frames.
	 */
	comm(&r[0], 100, 100, "second", true, 12);
	sample(&r[0], 100, 100, 0x401000, 13, 1);
	mmap2(&r[0], 100, 0x400000, 0x10000, "/opt/new", 14);
	sample(&r[0], 100, 100, 0x401000, 15, 1);
	run(write_file("maps.data", &a, 1, r, 1), &v, false);
	assert_int_equal(v.n, 8);
	assert_string_equal(v.map[0], "/opt/a.so");
	assert_string_equal(v.comm[0], "first");
	assert_string_equal(v.map[1], "/opt/b.so");
	assert_string_equal(v.map[2], "/opt/a.so");
	assert_string_equal(v.map[3], "/opt/a.so");
	assert_string_equal(v.comm[3], "first");
	assert_int_equal(v.tid[3], 101);
	assert_string_equal(v.map[4], "/opt/c.so");
	assert_string_equal(v.map[5], "-");
	assert_string_equal(v.map[6], "/opt/a.so");
	assert_string_equal(v.comm[6], "second");
	assert_string_equal(v.map[7], "/opt/new");
}

static void test_fixed_period_and_unknown_thread(void **state)
{
	struct perf_event_attr a = base_attr();
	struct buf r[1] = { 0 };
	struct seen v = { 0 };
	size_t at;

	(void)state;
	a.sample_type &= ~PERF_SAMPLE_PERIOD;
	a.sample_period = 25000;
	header(&r[0], &at, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER);
	put64(&r[0], 7);
	put64(&r[0], 0x1234);
	put32x2(&r[0], 55, 56);
	put64(&r[0], 100);
	end(&r[0], at);
	run(write_file("fixed.data", &a, 1, r, 1), &v, false);
	assert_int_equal(v.n, 1);
	assert_int_equal(v.period[0], 25000);
	assert_string_equal(v.comm[0], ":56"); /* perf's name for a thread never named */
}

static void test_group_read_deltas(void **state)
{
	struct perf_event_attr a[2] = { base_attr(), base_attr() };
	struct buf r[1] = { 0 };
	struct seen v = { 0 };
	uint64_t vals[2][2] = { { 10, 20 }, { 25, 50 } };

	(void)state;
	for (int i = 0; i < 2; i++) {
		a[i].sample_type |= PERF_SAMPLE_READ;
		a[i].read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID;
	}
	a[1].config = PERF_COUNT_SW_TASK_CLOCK;
	for (int k = 0; k < 2; k++) {
		size_t at;

		header(&r[0], &at, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER);
		put64(&r[0], 7);
		put64(&r[0], 0x1000);
		put32x2(&r[0], 1, 1);
		put64(&r[0], 10 + k);
		put64(&r[0], 1000);
		put64(&r[0], 2); /* nr */
		put64(&r[0], vals[k][0]);
		put64(&r[0], 7);
		put64(&r[0], vals[k][1]);
		put64(&r[0], 8);
		end(&r[0], at);
	}
	run(write_file("group.data", a, 2, r, 1), &v, false);
	assert_int_equal(v.n, 4);
	assert_int_equal(v.evsel[0], 0);
	assert_int_equal(v.period[0], 10);
	assert_int_equal(v.evsel[1], 1);
	assert_int_equal(v.period[1], 20);
	assert_int_equal(v.period[2], 15);
	assert_int_equal(v.period[3], 30);
}

static void test_profile_tree(void **state)
{
	struct perf_event_attr a = base_attr();
	struct buf r[1] = { 0 };
	struct seen v = { 0 };
	const struct perfev_profile_node *root;
	uint64_t self = 0;

	(void)state;
	v.prof = perfev_profile__new(NULL);
	assert_non_null(v.prof);
	comm(&r[0], 9, 9, "t", false, 1);
	for (int i = 0; i < 6; i++)
		sample(&r[0], 9, 9, 0x1000 + (i % 3) * 0x100, 2 + i, 10 * (i + 1));
	run(write_file("prof.data", &a, 1, r, 1), &v, false);
	root = perfev_profile__node(v.prof, 0);
	assert_int_equal(root->total, 210);
	assert_int_equal(root->total_samples, 6);
	/* One thread node, three leaf frames (unresolved addresses are frames of their own). */
	assert_int_equal(perfev_profile__nr_threads(v.prof), 1);
	assert_int_equal(perfev_profile__nr_frames(v.prof), 3);
	for (size_t i = 1; i < perfev_profile__nr_nodes(v.prof); i++) {
		const struct perfev_profile_node *n = perfev_profile__node(v.prof, i);

		assert_true(n->parent < i);
		self += n->self;
	}
	assert_int_equal(self, 210);
	perfev_profile__delete(v.prof);
}

/* With opts.times each sample keeps its time and leaf node, in place and in the background alike. */
static void test_profile_times(void **state)
{
	for (int bgmode = 0; bgmode < 2; bgmode++) {
		struct perfev_profile_opts o = { .sz = sizeof(o), .times = true, .background = bgmode };
		struct perfev_profile *p = perfev_profile__new(&o);
		struct perfev_frame fr[3];
		uint64_t t, w, *self;
		uint32_t node;

		(void)state;
		assert_non_null(p);
		for (int i = 0; i < 3000; i++) {
			for (int j = 0; j < 3; j++)
				fr[j] = (struct perfev_frame){ .ip = 0x1000 + (uint64_t)((i + j) % 5),
							       .addr = 0x1000 + (uint64_t)((i + j) % 5) };
			assert_int_equal(perfev_profile__add_at(p, NULL, fr, 1 + i % 3, 2 + (uint64_t)(i % 4),
							      1000 + (uint64_t)i), 0);
		}
		assert_int_equal(perfev_profile__nr_timed(p), 3000);
		self = calloc(perfev_profile__nr_nodes(p), sizeof(*self));
		assert_non_null(self);
		for (size_t i = 0; i < 3000; i++) {
			assert_int_equal(perfev_profile__timed(p, i, &t, &node, &w), 0);
			assert_int_equal(t, 1000 + i);
			assert_int_equal(w, 2 + i % 4);
			assert_true(node < perfev_profile__nr_nodes(p));
			self[node] += w;
		}
		for (size_t i = 0; i < perfev_profile__nr_nodes(p); i++)
			assert_int_equal(self[i], perfev_profile__node(p, i)->self);
		assert_int_equal(perfev_profile__timed(p, 3000, &t, &node, &w), -ENOENT);
		free(self);
		perfev_profile__delete(p);
	}
}

/*
 * A background profile builds the very tree an in-place one does: stacks from
 * a small alphabet (so paths share callers), more of them than the batches
 * in flight, of depths from 0 to one far past a batch's usual frames.
 */
static void test_profile_background_same_tree(void **state)
{
	struct perfev_profile_opts bo = { .sz = sizeof(bo), .background = true };
	struct perfev_profile *fg = perfev_profile__new(NULL), *bg = perfev_profile__new(&bo);
	static struct perfev_frame fr[3000];
	uint64_t x = 88172645463325252ull;

	(void)state;
	assert_non_null(fg);
	assert_non_null(bg);
	for (int i = 0; i < 5000; i++) {
		size_t nr = i == 4000 ? 3000 : (size_t)(i % 41);

		for (size_t j = 0; j < nr; j++) {
			x ^= x << 13, x ^= x >> 7, x ^= x << 17;
			fr[j] = (struct perfev_frame){ .ip = 0x1000 + x % 23, .addr = 0x1000 + x % 23,
						       .kernel = j < 2 && i % 3 == 0 };
		}
		assert_int_equal(perfev_profile__add(fg, NULL, fr, nr, 1 + i % 7), 0);
		assert_int_equal(perfev_profile__add(bg, NULL, fr, nr, 1 + i % 7), 0);
	}
	assert_int_equal(perfev_profile__sync(bg), 0);
	assert_int_equal(perfev_profile__nr_nodes(bg), perfev_profile__nr_nodes(fg));
	assert_int_equal(perfev_profile__nr_frames(bg), perfev_profile__nr_frames(fg));
	assert_true(perfev_profile__nr_nodes(fg) > 5000);
	for (size_t i = 0; i < perfev_profile__nr_nodes(fg); i++)
		assert_memory_equal(perfev_profile__node(bg, i), perfev_profile__node(fg, i),
				    sizeof(struct perfev_profile_node));
	for (size_t i = 0; i < perfev_profile__nr_frames(fg); i++) {
		const struct perfev_profile_frame *a = perfev_profile__frame(bg, i),
						  *b = perfev_profile__frame(fg, i);

		assert_int_equal(a->addr, b->addr);
		assert_int_equal(a->kernel, b->kernel);
		assert_ptr_equal(a->sym, b->sym);
	}
	/* Adding after reading goes on from where it was; reading waits for it. */
	assert_int_equal(perfev_profile__add(bg, NULL, fr, 5, 1000), 0);
	assert_int_equal(perfev_profile__node(bg, 0)->total, perfev_profile__node(fg, 0)->total + 1000);
	perfev_profile__delete(fg);
	perfev_profile__delete(bg);
	/* Deleting with stacks still queued. */
	bg = perfev_profile__new(&bo);
	assert_non_null(bg);
	for (int i = 0; i < 2000; i++)
		assert_int_equal(perfev_profile__add(bg, NULL, fr, 40, 1), 0);
	perfev_profile__delete(bg);
}

/*
 * A thread renamed between two samples: the background inserter sees each
 * sample under the name it had when it was added, not the one the session
 * holds by the time the batch is inserted.
 */
static void test_profile_background_comm(void **state)
{
	struct perfev_profile_opts bo = { .sz = sizeof(bo), .background = true, .merge_pids = true };
	struct perfev_session_opts so = { .sz = sizeof(so), .no_unwind = true };
	struct perf_event_attr a = base_attr();
	struct perfev_session *s;
	struct buf r[1] = { 0 };
	struct seen v = { 0 };
	int named = 0;

	(void)state;
	v.prof = perfev_profile__new(&bo);
	assert_non_null(v.prof);
	comm(&r[0], 9, 9, "before", false, 1);
	sample(&r[0], 9, 9, 0x1000, 2, 10);
	sample(&r[0], 9, 9, 0x1000, 3, 20);
	comm(&r[0], 9, 9, "after", false, 4);
	sample(&r[0], 9, 9, 0x1000, 5, 40);
	/* The threads' names are the session's: read them while it is open. */
	s = perfev_session__open(write_file("rename.data", &a, 1, r, 1), &so);
	assert_non_null(s);
	assert_int_equal(perfev_session__process(s, collect, &v), 0);
	assert_int_equal(perfev_profile__nr_threads(v.prof), 2);
	for (size_t i = 1; i < perfev_profile__nr_nodes(v.prof); i++) {
		const struct perfev_profile_node *n = perfev_profile__node(v.prof, i);
		const char *c;

		if (n->depth != 1)
			continue;
		c = perfev_profile__thread(v.prof, n->thread)->comm;
		if (!strcmp(c, "before"))
			assert_int_equal(n->total, 30), named |= 1;
		else if (!strcmp(c, "after"))
			assert_int_equal(n->total, 40), named |= 2;
	}
	assert_int_equal(named, 3);
	perfev_profile__delete(v.prof);
	perfev_session__delete(s);
}

/*
 * Frame ids are numbered per session: a profile fed by two sessions whose
 * ids mean different addresses keeps the addresses apart.
 */
static void test_profile_two_sessions(void **state)
{
	struct perf_event_attr a = base_attr();
	struct buf r1[1] = { 0 }, r2[1] = { 0 };
	struct seen v = { 0 };
	uint64_t at_1000 = 0, at_2000 = 0;

	(void)state;
	v.prof = perfev_profile__new(NULL);
	assert_non_null(v.prof);
	/* First 0x1000 then 0x2000 in one, the other way round in the other: ids 1 and 2 swap. */
	sample(&r1[0], 9, 9, 0x1000, 2, 10);
	sample(&r1[0], 9, 9, 0x2000, 3, 20);
	sample(&r2[0], 9, 9, 0x2000, 2, 300);
	sample(&r2[0], 9, 9, 0x1000, 3, 4000);
	run(write_file("ids1.data", &a, 1, r1, 1), &v, false);
	run(write_file("ids2.data", &a, 1, r2, 1), &v, false);
	for (size_t i = 1; i < perfev_profile__nr_nodes(v.prof); i++) {
		const struct perfev_profile_node *n = perfev_profile__node(v.prof, i);

		if (n->frame == PERFEV_PROFILE_NONE)
			continue;
		if (perfev_profile__frame(v.prof, n->frame)->addr == 0x1000)
			at_1000 += n->self;
		else if (perfev_profile__frame(v.prof, n->frame)->addr == 0x2000)
			at_2000 += n->self;
	}
	assert_int_equal(at_1000, 4010);
	assert_int_equal(at_2000, 320);
	perfev_profile__delete(v.prof);
}

/* perf's --time text into ranges: absolute, several, percent in its three forms; errors named. */
static void test_filter_time_text(void **state)
{
	struct perfev_sample_filter_opts o = { .sz = sizeof(o) };
	struct perfev_sample_filter *f;
	uint64_t a, b;
	static const char *const bad[] = { "1", "1,2,3", "x,2", "2,1", "1.0123456789,2",
					   "1,2 2,3", "1, 3,4", "10%/0", "0%/1", "10%/x", "10%-",
					   "101%", "10%,20%", "20%-10%", "-5%-10%", "1%/2,3%-4%", "" };

	(void)state;
	o.time = "1.5,2.25";
	f = perfev_sample_filter__new(&o);
	assert_non_null(f);
	assert_false(perfev_sample_filter__needs_span(f));
	assert_int_equal(perfev_sample_filter__range(f, 0, &a, &b), 0);
	assert_int_equal(a, 1500000000);
	assert_int_equal(b, 2250000000);
	assert_int_equal(perfev_sample_filter__range(f, 1, &a, &b), -ENOENT);
	assert_true(perfev_sample_filter__time_ok(f, 1500000000));
	assert_true(perfev_sample_filter__time_ok(f, 2250000000));
	assert_false(perfev_sample_filter__time_ok(f, 1499999999));
	assert_false(perfev_sample_filter__time_ok(f, 2250000001));
	assert_true(perfev_sample_filter__time_ok(f, 0)); /* no time: kept, as perf keeps it */
	perfev_sample_filter__delete(f);

	o.time = " ,1.000000001  3, ";
	f = perfev_sample_filter__new(&o);
	assert_non_null(f);
	assert_true(perfev_sample_filter__time_ok(f, 5));
	assert_true(perfev_sample_filter__time_ok(f, 1000000001));
	assert_false(perfev_sample_filter__time_ok(f, 2000000000));
	assert_true(perfev_sample_filter__time_ok(f, 9000000000));
	perfev_sample_filter__delete(f);

	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		o.time = bad[i];
		f = perfev_sample_filter__new(&o);
		if (f)
			fail_msg("'%s' was taken as a time range", bad[i]);
		assert_int_equal(errno, EINVAL);
		assert_non_null(strstr(perfev_last_error(), "time range"));
	}
}

/* Percents resolve against the span as perf's do: a slice's end is 1 ns short unless it is the last. */
static void test_filter_time_percent(void **state)
{
	static const struct {
		const char *text;
		uint64_t r[4];
		size_t n;
	} cases[] = {
		{ "10%/2", { 1100, 1199 }, 1 },
		{ "0%-10%", { 1000, 1099 }, 1 },
		{ "50%", { 1000, 1499 }, 1 },
		{ "0%-100%", { 1000, 2000 }, 1 },
		{ "10%/1,10%/10", { 1000, 1099, 1900, 2000 }, 2 },
		{ "0%-10%,30%-40%", { 1000, 1099, 1300, 1399 }, 2 },
	};
	struct perfev_sample_filter_opts o = { .sz = sizeof(o) };
	uint64_t a, b;

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct perfev_sample_filter *f;

		o.time = cases[i].text;
		f = perfev_sample_filter__new(&o);
		assert_non_null(f);
		assert_true(perfev_sample_filter__needs_span(f));
		assert_int_equal(perfev_sample_filter__range(f, 0, &a, &b), -EAGAIN);
		assert_int_equal(perfev_sample_filter__set_span(f, 1000, 2000), 0);
		assert_false(perfev_sample_filter__needs_span(f));
		for (size_t k = 0; k < cases[i].n; k++) {
			assert_int_equal(perfev_sample_filter__range(f, k, &a, &b), 0);
			if (a != cases[i].r[2 * k] || b != cases[i].r[2 * k + 1])
				fail_msg("'%s' range %zu: %llu-%llu", cases[i].text, k,
					 (unsigned long long)a, (unsigned long long)b);
		}
		assert_int_equal(perfev_sample_filter__range(f, cases[i].n, &a, &b), -ENOENT);
		perfev_sample_filter__delete(f);
	}
}

static void run_filtered(const char *path, struct seen *v, struct perfev_sample_filter_opts *fo,
			 uint64_t *filtered)
{
	struct perfev_sample_filter *f = perfev_sample_filter__new(fo);
	struct perfev_session_opts o = { .sz = sizeof(o), .no_unwind = true, .filter = f };
	struct perfev_session *s;

	assert_non_null(f);
	s = perfev_session__open(path, &o);
	assert_non_null(s);
	v->n = 0;
	assert_int_equal(perfev_session__process(s, collect, v), 0);
	if (filtered)
		*filtered = perfev_session__stats(s)->nr_filtered;
	assert_int_equal(perfev_session__stats(s)->nr_samples, 8);
	perfev_session__delete(s);
	perfev_sample_filter__delete(f);
}

/* The session delivers only what the filter passes: threads, files, time (percent from the samples). */
static void test_filter_session(void **state)
{
	struct perf_event_attr a = base_attr();
	struct buf r[1] = { 0 };
	struct seen v = { 0 };
	struct perfev_sample_filter_opts fo = { .sz = sizeof(fo) };
	uint64_t filtered;
	const char *path;

	(void)state;
	comm(&r[0], 100, 100, "alpha", false, 1);
	comm(&r[0], 200, 200, "beta", false, 1);
	comm(&r[0], 200, 201, "beta", false, 1);
	mmap2(&r[0], 100, 0x400000, 0x10000, "/opt/a.so", 2);
	mmap2(&r[0], 200, 0x400000, 0x10000, "/opt/b.so", 2);
	for (int i = 0; i < 8; i++)
		sample(&r[0], i % 2 ? 200 : 100, i % 4 == 3 ? 201 : i % 2 ? 200 : 100,
		       i == 7 ? 0x900000 : 0x401000, 1000 + 100 * (uint64_t)i, 1);
	path = write_file("filter.data", &a, 1, r, 1);

	fo.comms = "beta,gamma";
	run_filtered(path, &v, &fo, &filtered);
	assert_int_equal(v.n, 4);
	assert_int_equal(filtered, 4);
	assert_string_equal(v.comm[0], "beta");
	fo.comms = NULL;
	fo.tids = "201";
	run_filtered(path, &v, &fo, NULL);
	assert_int_equal(v.n, 2);
	fo.tids = NULL;
	fo.pids = "100";
	fo.dsos = "b.so,a.so";
	run_filtered(path, &v, &fo, NULL);
	assert_int_equal(v.n, 4);
	fo.pids = NULL;
	fo.dsos = "/opt/b.so,[unknown]";
	run_filtered(path, &v, &fo, NULL);
	assert_int_equal(v.n, 4); /* three in b.so, and the one outside every map */
	fo.dsos = NULL;
	fo.time = "0.0000012,0.0000014";
	run_filtered(path, &v, &fo, NULL);
	assert_int_equal(v.n, 3);
	assert_int_equal(v.time[0], 1200);
	assert_int_equal(v.time[2], 1400);
	/* The file has no HEADER_SAMPLE_TIME: the span comes from its samples, 1000 to 1700. */
	fo.time = "50%/2";
	run_filtered(path, &v, &fo, NULL);
	assert_int_equal(v.n, 4);
	assert_int_equal(v.time[0], 1400);
	assert_int_equal(v.time[3], 1700);
	fo.time = NULL;
	fo.events = "task-clock";
	run_filtered(path, &v, &fo, &filtered);
	assert_int_equal(v.n, 0);
	assert_int_equal(filtered, 8);
	fo.events = "cpu-clock";
	run_filtered(path, &v, &fo, NULL);
	assert_int_equal(v.n, 8);
	fo.events = NULL;
	fo.pids = "1x";
	assert_null(perfev_sample_filter__new(&fo));
	assert_int_equal(errno, EINVAL);
	assert_non_null(strstr(perfev_last_error(), "'1x'"));
}

/* A group sample whose member is filtered out still moves that member's delta on. */
static void test_filter_group_deltas(void **state)
{
	struct perf_event_attr a[2] = { base_attr(), base_attr() };
	struct buf r[1] = { 0 };
	struct seen v = { 0 };
	struct perfev_sample_filter_opts fo = { .sz = sizeof(fo), .events = "task-clock" };
	struct perfev_sample_filter *f;
	struct perfev_session_opts o = { .sz = sizeof(o), .no_unwind = true };
	struct perfev_session *s;

	(void)state;
	for (int i = 0; i < 2; i++) {
		a[i].sample_type |= PERF_SAMPLE_READ;
		a[i].read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID;
	}
	a[1].config = PERF_COUNT_SW_TASK_CLOCK;
	for (int k = 0; k < 3; k++) {
		size_t at;

		header(&r[0], &at, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER);
		put64(&r[0], 7);
		put64(&r[0], 0x1000);
		put32x2(&r[0], 1, 1);
		put64(&r[0], 10 + k);
		put64(&r[0], 1000);
		put64(&r[0], 2);
		put64(&r[0], 10 * (k + 1));
		put64(&r[0], 7);
		put64(&r[0], 100 * (k + 1) * (k + 1));
		put64(&r[0], 8);
		end(&r[0], at);
	}
	f = perfev_sample_filter__new(&fo);
	assert_non_null(f);
	o.filter = f;
	fo.time = NULL;
	s = perfev_session__open(write_file("fgroup.data", a, 2, r, 1), &o);
	assert_non_null(s);
	assert_int_equal(perfev_session__process(s, collect, &v), 0);
	assert_int_equal(v.n, 3);
	for (size_t i = 0; i < 3; i++)
		assert_int_equal(v.evsel[i], 1);
	assert_int_equal(v.period[0], 100);
	assert_int_equal(v.period[1], 300);
	assert_int_equal(v.period[2], 500);
	assert_int_equal(perfev_session__stats(s)->nr_filtered, 3);
	perfev_session__delete(s);
	perfev_sample_filter__delete(f);
}

/* A file read to its end gives its caches back; reading on delivers nothing, and fails nothing. */
static void test_trim(void **state)
{
	struct perf_event_attr a = base_attr();
	struct perfev_session_opts o = { .sz = sizeof(o), .no_unwind = true };
	struct buf r[1] = { 0 };
	struct seen v = { 0 };
	struct perfev_session *s;
	const char *path;

	(void)state;
	sample(&r[0], 1, 1, 0x1000, 10, 1);
	sample(&r[0], 1, 1, 0x1000, 20, 1);
	path = write_file("trim.data", &a, 1, r, 1);
	s = perfev_session__open(path, &o);
	assert_non_null(s);
	assert_int_equal(perfev_session__process(s, collect, &v), 0);
	assert_int_equal(v.n, 2);
	assert_int_equal(perfev_session__trim(s), 0);
	assert_int_equal(perfev_session__trim(s), 0);
	assert_int_equal(perfev_session__process(s, collect, &v), 0);
	assert_int_equal(v.n, 2);
	assert_int_equal(perfev_session__stats(s)->nr_samples, 2);
	perfev_session__delete(s);
	assert_int_equal(perfev_session__trim(NULL), -EINVAL);
}

/*
 * Reading ahead: the reading thread's deliveries must be the caller's
 * thread's alone, sample for sample, whatever the file holds.
 */
#define RA_MAX 40000

struct ra_seen {
	size_t n;
	int stop_at;		/* return 5 at this sample (0: never) */
	uint64_t key[RA_MAX];	/* time, tid, ip and map of each sample */
	struct perfev_session *s;
	uint64_t last_done, total;
	bool progress_ok;
};

static int ra_collect(void *ctx, const struct perfev_session_sample *ss)
{
	struct ra_seen *v = ctx;
	uint64_t done, total;
	const char *name;
	size_t i = v->n++;

	assert_true(i < RA_MAX);
	v->key[i] = ss->ev->rec.sample.time * 1000003u ^ (uint64_t)perfev_thread__tid(ss->thread) << 40 ^
		    ss->frames[0].ip ^ (ss->frames[0].map ? ss->frames[0].map->start : 1);
	/* The event's name as the callback reads it (the old one is freed by the rename). */
	name = perfev_data_reader__evsel_name(perfev_session__reader(v->s), (size_t)ss->evsel);
	if (name && !strcmp(name, "renamed"))
		v->key[i] ^= 1ull << 63;
	perfev_session__progress(v->s, &done, &total);
	if (done < v->last_done || done > total || total != v->total)
		v->progress_ok = false;
	v->last_done = done;
	return v->stop_at && (int)v->n == v->stop_at ? 5 : 0;
}

/* Processes path with or without reading ahead; returns what process() returned. */
static int ra_run(const char *path, bool ahead, struct ra_seen *v, char *err, size_t errlen)
{
	struct perfev_session_opts o = { .sz = sizeof(o), .no_unwind = true, .read_ahead = ahead };
	int ret;

	v->n = 0;
	v->last_done = 0;
	v->progress_ok = true;
	v->s = perfev_session__open(path, &o);
	assert_non_null(v->s);
	perfev_session__progress(v->s, NULL, &v->total);
	assert_true(v->total > 0);
	ret = perfev_session__process(v->s, ra_collect, v);
	snprintf(err, errlen, "%s", ret < 0 ? perfev_last_error() : "");
	perfev_session__delete(v->s);
	return ret;
}

static void event_update_name(struct buf *b, uint64_t id, const char *name)
{
	size_t at;
	char s[24] = { 0 };

	header(b, &at, PERFEV_RECORD_EVENT_UPDATE, 0);
	put64(b, 2); /* the name */
	put64(b, id);
	snprintf(s, sizeof(s), "%s", name);
	put(b, s, sizeof(s));
	end(b, at);
}

/*
 * 40 rounds of 600 samples from two "rings" (the second's records lag a
 * round behind, as a ring drained late), three threads, maps and names
 * changing on the way, and the event renamed half-way.
 */
static const char *ra_file(const char *name, bool damaged)
{
	struct perf_event_attr a = base_attr();
	struct buf r[41] = { 0 };
	uint64_t t = 1000;

	comm(&r[0], 1, 1, "one", false, 1);
	for (size_t k = 0; k < 40; k++) {
		if (k % 7 == 0)
			mmap2(&r[k], 1, 0x1000, 0x1000 + 0x100 * k, k % 2 ? "/a" : "/b", t);
		if (k == 13)
			comm(&r[k], 1, 2, "two", false, t);
		if (k == 20)
			event_update_name(&r[k], 7, "renamed");
		for (size_t i = 0; i < 300; i++, t += 10) {
			sample(&r[k], 1, 1 + (uint32_t)(i % 3), 0x1000 + i, t, 1);
			sample(&r[k + 1], 1, 1, 0x1800 + i, t + 5, 1);
		}
	}
	if (damaged) {
		size_t at;

		/* A sample cut to its identifier: the reader stops there, with an error. */
		header(&r[40], &at, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER);
		put64(&r[40], 7);
		end(&r[40], at);
	}
	return write_file(name, &a, 1, r, 41);
}

static void test_read_ahead_same_deliveries(void **state)
{
	static struct ra_seen one, two;
	char e1[512], e2[512];
	const char *path = ra_file("ahead.data", false);

	(void)state;
	assert_int_equal(ra_run(path, false, &one, e1, sizeof(e1)), 0);
	assert_int_equal(ra_run(path, true, &two, e2, sizeof(e2)), 0);
	assert_int_equal(one.n, 24000);
	assert_int_equal(two.n, one.n);
	assert_memory_equal(one.key, two.key, one.n * sizeof(one.key[0]));
	/* The rename is seen, at the same sample, both ways. */
	assert_true(one.key[one.n - 1] >> 63);
	assert_false(one.key[0] >> 63);
	assert_true(one.progress_ok);
	assert_true(two.progress_ok);
	assert_true(two.last_done > 0);

	/* A callback that stops: the same samples, and its value. */
	one.stop_at = two.stop_at = 9000;
	assert_int_equal(ra_run(path, false, &one, e1, sizeof(e1)), 5);
	assert_int_equal(ra_run(path, true, &two, e2, sizeof(e2)), 5);
	assert_int_equal(one.n, 9000);
	assert_int_equal(two.n, 9000);
	assert_memory_equal(one.key, two.key, one.n * sizeof(one.key[0]));
	one.stop_at = two.stop_at = 0;
}

static void test_read_ahead_damaged(void **state)
{
	static struct ra_seen one, two;
	char e1[512], e2[512];
	const char *path = ra_file("ahead-damaged.data", true);

	(void)state;
	/* Everything before the bad record is delivered, then its error, the same both ways. */
	assert_true(ra_run(path, false, &one, e1, sizeof(e1)) < 0);
	assert_true(ra_run(path, true, &two, e2, sizeof(e2)) < 0);
	assert_int_equal(one.n, 24000);
	assert_int_equal(two.n, one.n);
	assert_memory_equal(one.key, two.key, one.n * sizeof(one.key[0]));
	assert_string_equal(e1, e2);
	assert_non_null(strstr(e2, "offset"));
}

static void test_errors(void **state)
{
	struct perfev_session_opts o = { .sz = 2 };

	(void)state;
	assert_null(perfev_session__open(tpath("nonexistent.data"), NULL));
	assert_int_equal(errno, ENOENT);
	assert_null(perfev_session__open(tpath("nonexistent.data"), &o));
	assert_int_equal(errno, EINVAL);
}

static int setup(void **state)
{
	(void)state;
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/perfev-session-XXXXXX");
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
		cmocka_unit_test(test_time_order_by_rounds),
		cmocka_unit_test(test_maps_over_time),
		cmocka_unit_test(test_fixed_period_and_unknown_thread),
		cmocka_unit_test(test_group_read_deltas),
		cmocka_unit_test(test_profile_tree),
		cmocka_unit_test(test_profile_times),
		cmocka_unit_test(test_profile_background_same_tree),
		cmocka_unit_test(test_profile_background_comm),
		cmocka_unit_test(test_profile_two_sessions),
		cmocka_unit_test(test_filter_time_text),
		cmocka_unit_test(test_filter_time_percent),
		cmocka_unit_test(test_filter_session),
		cmocka_unit_test(test_filter_group_deltas),
		cmocka_unit_test(test_trim),
		cmocka_unit_test(test_read_ahead_same_deliveries),
		cmocka_unit_test(test_read_ahead_damaged),
		cmocka_unit_test(test_errors),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
