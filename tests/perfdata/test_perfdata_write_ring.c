/*
 * A ring's records straight into perf.data (perfev_data_writer__write_ring):
 * rings over plain memory, the test playing the kernel, so that records
 * wrap around the end, the ring is full to its last byte, or holds LOST
 * records, exactly where the test puts them; the files read back with
 * perfev's reader, byte for byte; one writev per ring, counted on a
 * SOCK_SEQPACKET socket (one message per write call); write failures
 * (EPIPE, ENOSPC) that hand nothing back to the kernel and count nothing.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "perfev/perfev.h"
#include "perfdata_test.h"
#include "sample/ring_int.h"

#define ST (PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_PERIOD)
#define SAMPLE_SIZE 40 /* header and four u64 */
#define MAX_BYTES (1u << 16)

/* A ring over memory and what the test wrote into it, in order. */
struct sim {
	void *mem;
	struct perf_event_mmap_page *page;
	unsigned char *data;
	size_t size;
	struct perfev_ring *ring;
	unsigned char want[MAX_BYTES];
	size_t want_len;
	unsigned samples;
};

static void sim_init(struct sim *s, size_t size, uint64_t start)
{
	s->mem = calloc(1, RING_MEM_DATA_OFFSET + size);
	assert_non_null(s->mem);
	s->page = s->mem;
	s->data = (unsigned char *)s->mem + RING_MEM_DATA_OFFSET;
	s->size = size;
	s->page->data_head = s->page->data_tail = start;
	s->ring = ring__new_mem(s->mem, size, false);
	assert_non_null(s->ring);
	s->want_len = 0;
	s->samples = 0;
}

static void sim_free(struct sim *s)
{
	perfev_ring__delete(s->ring);
	free(s->mem);
}

/* The kernel's part: the record goes in at data_head, which then moves past it. */
static void sim_put(struct sim *s, const void *rec, size_t len)
{
	for (size_t i = 0; i < len; i++)
		s->data[(s->page->data_head + i) & (s->size - 1)] = ((const unsigned char *)rec)[i];
	s->page->data_head += len;
	assert_true(s->want_len + len <= sizeof(s->want));
	memcpy(s->want + s->want_len, rec, len);
	s->want_len += len;
}

static struct perf_event_attr make_attr(void)
{
	return (struct perf_event_attr){
		.size = sizeof(struct perf_event_attr),
		.type = PERF_TYPE_SOFTWARE,
		.config = PERF_COUNT_SW_CPU_CLOCK,
		.sample_period = 100000,
		.sample_type = ST,
		.disabled = 1,
	};
}

static void make_sample(unsigned char rec[SAMPLE_SIZE], unsigned i)
{
	struct perf_event_attr a = make_attr();
	struct perfev_sample_fmt fmt;
	struct perfev_sample smp = { .ip = 0x400000 + i, .pid = 42, .tid = 42,
				     .time = 1000 + i, .period = 100000 };
	struct perf_event_header h = { PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER, SAMPLE_SIZE };

	assert_int_equal(perfev_sample_fmt__from_attr(&a, &fmt), 0);
	memcpy(rec, &h, sizeof(h));
	assert_int_equal(perfev_sample__encode(&fmt, &smp, rec + 8, SAMPLE_SIZE - 8),
			 SAMPLE_SIZE - 8);
}

static void sim_sample(struct sim *s)
{
	unsigned char rec[SAMPLE_SIZE];

	make_sample(rec, s->samples++);
	sim_put(s, rec, sizeof(rec));
}

static void sim_lost(struct sim *s, uint64_t lost)
{
	struct {
		struct perf_event_header h;
		uint64_t id, lost;
	} rec = { { PERF_RECORD_LOST, 0, 24 }, 7, lost };

	sim_put(s, &rec, sizeof(rec));
}

static void sim_lost_samples(struct sim *s, uint64_t lost)
{
	struct {
		struct perf_event_header h;
		uint64_t lost;
	} rec = { { PERF_RECORD_LOST_SAMPLES, 0, 16 }, lost };

	sim_put(s, &rec, sizeof(rec));
}

static struct perfev_data_writer *start_writer(int fd, bool pipe, int level)
{
	struct perfev_data_writer_opts o = { .sz = sizeof(o), .pipe = pipe,
					     .compress_level = level };
	struct perf_event_attr a = make_attr();
	struct perfev_data_writer *w = perfev_data_writer__new(fd, &o);

	assert_non_null(w);
	assert_int_equal(perfev_data_writer__add_attr(w, &a, NULL, 0, "cpu-clock"), 0);
	assert_int_equal(perfev_data_writer__start(w), 0);
	return w;
}

/* The records of the file's data, perf's round marks left out, against want. */
static void expect_records(const char *path, const unsigned char *want, size_t want_len)
{
	struct perfev_data_reader *r = perfev_data_reader__open(path, NULL);
	struct perfev_data_event ev;
	size_t off = 0;
	int n;

	if (!r)
		fail_msg("cannot read %s back: %s", path, perfev_last_error());
	while ((n = perfev_data_reader__next(r, &ev)) > 0) {
		if (ev.rec.type == PERFEV_RECORD_FINISHED_ROUND ||
		    ev.rec.type == PERFEV_RECORD_HEADER_FEATURE)
			continue;
		if (off + ev.rec.size > want_len || memcmp(ev.rec.data, want + off, ev.rec.size))
			fail_msg("record of type %u at byte %zu of the data is not the ring's",
				 ev.rec.type, off);
		off += ev.rec.size;
	}
	assert_int_equal(n, 0);
	assert_int_equal(off, want_len);
	perfev_data_reader__delete(r);
}

struct seen {
	const struct sim *s;
	size_t at; /* where the next record shown is in s->want */
	unsigned shown, in_place, stop_at;
};

/* Shown only SAMPLE and LOST records, each whole, in ring order. */
static int seen_cb(const void *rec, size_t size, void *ctx)
{
	struct seen *sn = ctx;
	struct perf_event_header h;

	memcpy(&h, rec, sizeof(h));
	assert_true(h.type == PERF_RECORD_SAMPLE || h.type == PERF_RECORD_LOST);
	while (sn->at < sn->s->want_len) {
		struct perf_event_header w;

		memcpy(&w, sn->s->want + sn->at, sizeof(w));
		if (w.type == h.type)
			break;
		sn->at += w.size;
	}
	assert_int_equal(size, h.size);
	assert_memory_equal(rec, sn->s->want + sn->at, size);
	sn->at += size;
	if ((const unsigned char *)rec >= sn->s->data &&
	    (const unsigned char *)rec < sn->s->data + sn->s->size)
		sn->in_place++;
	return ++sn->shown == sn->stop_at ? 77 : 0;
}

static void test_wrapped_records(void **state)
{
	(void)state;
	const char *path = tpath("wrapped.data");
	struct perfev_write_ring_opts o = { .sz = sizeof(o) };
	struct perfev_ring_stats st;
	struct seen sn = { 0 };
	struct sim *s = calloc(1, sizeof(*s));
	struct perfev_data_writer *w;
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);

	for (int level = 0; level <= 1; level++) {
		assert_true(fd >= 0 && s);
		w = start_writer(fd, false, level);
		/* A sample begins 16 bytes before the end and finishes at the start. */
		sim_init(s, 4096, 4096 - 3 * SAMPLE_SIZE - 16);
		for (int i = 0; i < 4; i++)
			sim_sample(s);
		sim_lost(s, 5);
		for (int i = 0; i < 20; i++)
			sim_sample(s);
		sn = (struct seen){ .s = s };
		o.types = 1ull << PERF_RECORD_SAMPLE | 1ull << PERF_RECORD_LOST;
		o.fn = seen_cb;
		o.ctx = &sn;
		assert_int_equal(perfev_data_writer__write_ring(w, s->ring, &o), s->want_len);
		/* Every sample and LOST shown, whole; only the one across the end was joined. */
		assert_int_equal(sn.shown, 25);
		assert_int_equal(sn.in_place, 24);
		assert_int_equal(s->page->data_tail, s->page->data_head);
		assert_int_equal(perfev_data_writer__data_bytes(w), s->want_len);
		/* Nothing new: nothing written. */
		assert_int_equal(perfev_data_writer__write_ring(w, s->ring, &o), 0);
		perfev_ring__stats(s->ring, &st);
		assert_int_equal(st.records, 25);
		assert_int_equal(st.lost, 5);
		assert_int_equal(st.lost_records, 1);
		assert_int_equal(st.bytes, s->want_len);
		assert_int_equal(perfev_data_writer__finished_round(w), 0);
		assert_int_equal(perfev_data_writer__finish(w), 0);
		perfev_data_writer__delete(w);
		expect_records(path, s->want, s->want_len);
		sim_free(s);
		assert_int_equal(ftruncate(fd, 0), 0);
	}
	close(fd);
	free(s);
}

/* A ring filled to its last byte, from a tail in the middle: all of it, in one go. */
static void test_full_ring(void **state)
{
	(void)state;
	const char *path = tpath("full.data");
	struct perfev_data_writer *w;
	struct sim *s = calloc(1, sizeof(*s));
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);

	assert_true(fd >= 0 && s);
	w = start_writer(fd, false, 0);
	sim_init(s, 4096, 1000 + 4096 * 3);
	while (s->want_len + SAMPLE_SIZE <= 4096 - 16)
		sim_sample(s);
	sim_lost_samples(s, 2);
	assert_int_equal(s->want_len, 4096);
	assert_int_equal(perfev_data_writer__write_ring(w, s->ring, NULL), 4096);
	assert_int_equal(s->page->data_tail, s->page->data_head);
	/* The kernel writes on where it stopped; the next round follows. */
	s->want_len = 0;
	sim_sample(s);
	sim_sample(s);
	assert_int_equal(perfev_data_writer__write_ring(w, s->ring, NULL), 2 * SAMPLE_SIZE);
	assert_int_equal(perfev_data_writer__finish(w), 0);
	perfev_data_writer__delete(w);
	{
		size_t len;
		char *p = slurp(path, &len);
		uint64_t data_off = u64_at(p, 40), data_size = u64_at(p, 48);

		assert_int_equal(data_size, 4096 + 2 * SAMPLE_SIZE);
		assert_memory_equal(p + data_off + 4096, s->want, 2 * SAMPLE_SIZE);
		free(p);
	}
	close(fd);
	sim_free(s);
	free(s);
}

/* Each write call to a SOCK_SEQPACKET socket is one message: a wrapped ring is one writev. */
static void test_one_write_per_ring(void **state)
{
	(void)state;
	static unsigned char msg[MAX_BYTES];
	struct perfev_data_writer *w;
	struct sim *s = calloc(1, sizeof(*s));
	int sv[2];
	ssize_t n;

	assert_non_null(s);
	assert_int_equal(socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv), 0);
	w = start_writer(sv[0], true, 0);
	while (recv(sv[1], msg, sizeof(msg), MSG_DONTWAIT) > 0)
		;
	sim_init(s, 1024, 1024 - 8);
	for (int i = 0; i < 10; i++)
		sim_sample(s);
	sim_lost(s, 1);
	assert_int_equal(perfev_data_writer__write_ring(w, s->ring, NULL), s->want_len);
	n = recv(sv[1], msg, sizeof(msg), MSG_DONTWAIT);
	assert_int_equal(n, s->want_len);
	assert_memory_equal(msg, s->want, s->want_len);
	assert_int_equal(recv(sv[1], msg, sizeof(msg), MSG_DONTWAIT), -1);
	assert_int_equal(errno, EAGAIN);
	perfev_data_writer__delete(w);
	close(sv[0]);
	close(sv[1]);
	sim_free(s);
	free(s);
}

static void test_losses_counted_once(void **state)
{
	(void)state;
	struct perfev_ring_stats st;
	struct perfev_data_writer *w;
	struct sim *s = calloc(1, sizeof(*s));
	int fd = open(tpath("lost.data"), O_RDWR | O_CREAT | O_TRUNC, 0644);

	assert_true(fd >= 0 && s);
	w = start_writer(fd, false, 0);
	sim_init(s, 512, 512 - 12);
	sim_lost(s, 100); /* its count lies across the end */
	sim_lost_samples(s, 3);
	sim_sample(s);
	assert_int_equal(perfev_data_writer__write_ring(w, s->ring, NULL), 24 + 16 + SAMPLE_SIZE);
	assert_int_equal(perfev_data_writer__write_ring(w, s->ring, NULL), 0);
	sim_lost(s, 1);
	assert_int_equal(perfev_data_writer__write_ring(w, s->ring, NULL), 24);
	perfev_ring__stats(s->ring, &st);
	assert_int_equal(st.records, 4);
	assert_int_equal(st.lost, 101);
	assert_int_equal(st.lost_records, 2);
	assert_int_equal(st.lost_samples, 3);
	assert_int_equal(perfev_data_writer__finish(w), 0);
	perfev_data_writer__delete(w);
	close(fd);
	expect_records(tpath("lost.data"), s->want, s->want_len);
	sim_free(s);
	free(s);
}

/* The callback stops, a header is malformed, an overwrite ring: nothing written, nothing taken. */
static void test_refusals(void **state)
{
	(void)state;
	struct perf_event_header bad = { .type = PERF_RECORD_COMM, .size = 4 };
	struct perfev_write_ring_opts o = { .sz = sizeof(o), .types = 1ull << PERF_RECORD_SAMPLE,
					    .fn = seen_cb };
	struct perfev_data_writer_opts wo = { .sz = sizeof(wo) };
	struct perfev_ring_stats st;
	struct perfev_data_writer *w;
	struct sim *s = calloc(1, sizeof(*s));
	struct seen sn;
	unsigned char rec[SAMPLE_SIZE];
	int fd = open(tpath("refused.data"), O_RDWR | O_CREAT | O_TRUNC, 0644);
	char mem[RING_MEM_DATA_OFFSET + 64] = { 0 };
	struct perfev_ring *over;

	assert_true(fd >= 0 && s);
	/* Before start(). */
	w = perfev_data_writer__new(fd, &wo);
	sim_init(s, 1024, 0);
	sim_sample(s);
	expect_error((int)perfev_data_writer__write_ring(w, s->ring, NULL), EINVAL, "before start");
	perfev_data_writer__delete(w);

	w = start_writer(fd, false, 0);
	for (int i = 0; i < 4; i++)
		sim_sample(s);
	sn = (struct seen){ .s = s, .stop_at = 3 };
	o.ctx = &sn;
	assert_int_equal(perfev_data_writer__write_ring(w, s->ring, &o), 77);
	assert_int_equal(sn.shown, 3);
	assert_int_equal(perfev_data_writer__data_bytes(w), 0);
	assert_int_equal(s->page->data_tail, 0);
	perfev_ring__stats(s->ring, &st);
	assert_int_equal(st.records, 0);
	/* Shown again next time, and written. */
	sn = (struct seen){ .s = s };
	assert_int_equal(perfev_data_writer__write_ring(w, s->ring, &o), 5 * SAMPLE_SIZE);
	assert_int_equal(sn.shown, 5);

	/* A malformed header: nothing of the ring is written, and the ring stays refused. */
	sim_sample(s);
	sim_put(s, &bad, sizeof(bad));
	s->page->data_head += 4;
	expect_error((int)perfev_data_writer__write_ring(w, s->ring, NULL), PERFEV_ERR_FORMAT,
		     "has size 4");
	assert_int_equal(perfev_data_writer__data_bytes(w), 5 * SAMPLE_SIZE);
	expect_error((int)perfev_data_writer__write_ring(w, s->ring, NULL), PERFEV_ERR_FORMAT,
		     "lost its place");
	/* The writer itself is fine. */
	make_sample(rec, 99);
	assert_int_equal(perfev_data_writer__write(w, rec, sizeof(rec)), 0);

	over = ring__new_mem(mem, 64, true);
	assert_non_null(over);
	expect_error((int)perfev_data_writer__write_ring(w, over, NULL), EINVAL,
		     "perfev_data_writer__write_ring reads forward rings");
	perfev_ring__delete(over);
	expect_error((int)perfev_data_writer__write_ring(w, NULL, NULL), EINVAL, "no ring");
	expect_error((int)perfev_data_writer__write_ring(NULL, s->ring, NULL), EINVAL, "NULL");
	o.sz = 4;
	expect_error((int)perfev_data_writer__write_ring(w, s->ring, &o), EINVAL,
		     "sizeof(struct perfev_write_ring_opts)");
	assert_int_equal(perfev_data_writer__finish(w), 0);
	perfev_data_writer__delete(w);
	close(fd);
	sim_free(s);
	free(s);
}

/* The reader of the pipe went away: EPIPE, sticky, and the ring keeps its records. */
static void test_write_error_epipe(void **state)
{
	(void)state;
	static unsigned char buf[MAX_BYTES];
	struct perfev_ring_stats st;
	struct perfev_data_writer *w;
	struct sim *s = calloc(1, sizeof(*s));
	void (*old)(int) = signal(SIGPIPE, SIG_IGN);
	int pfd[2];

	assert_non_null(s);
	assert_int_equal(pipe(pfd), 0);
	w = start_writer(pfd[1], true, 0);
	assert_true(read(pfd[0], buf, sizeof(buf)) > 0);
	close(pfd[0]);
	sim_init(s, 1024, 1024 - 20);
	for (int i = 0; i < 5; i++)
		sim_sample(s);
	sim_lost(s, 9);
	expect_error((int)perfev_data_writer__write_ring(w, s->ring, NULL), EPIPE,
		     "reading end of the pipe was closed");
	assert_int_equal(s->page->data_tail, 1024 - 20);
	perfev_ring__stats(s->ring, &st);
	assert_int_equal(st.records, 0);
	assert_int_equal(st.lost, 0);
	expect_error((int)perfev_data_writer__write_ring(w, s->ring, NULL), EPIPE, "pipe");
	assert_int_equal(s->page->data_tail, 1024 - 20);
	expect_error(perfev_data_writer__finish(w), EPIPE, "pipe");
	perfev_data_writer__delete(w);
	close(pfd[1]);
	signal(SIGPIPE, old);
	sim_free(s);
	free(s);
}

/*
 * A small tmpfs that fills up: ENOSPC names the offset, the ring that failed
 * keeps its records uncounted, and the file reads up to the last round.
 */
static void test_write_error_enospc(void **state)
{
	(void)state;
	char mnt[128], file[256];
	struct perfev_ring_stats st;
	struct perfev_data_writer *w;
	struct sim *s = calloc(1, sizeof(*s));
	unsigned rounds = 0, per_round = 0;
	int64_t ret;
	uint64_t tail;
	int fd;

	assert_non_null(s);
	snprintf(mnt, sizeof(mnt), "%s/tiny", tmpdir);
	assert_int_equal(mkdir(mnt, 0755), 0);
	if (mount("perfev-pdwr", mnt, "tmpfs", 0, "size=64k") < 0) {
		print_message("skip: cannot mount a tmpfs here (%s)\n", strerror(errno));
		rmdir(mnt);
		free(s);
		skip();
	}
	snprintf(file, sizeof(file), "%s/full.data", mnt);
	fd = open(file, O_RDWR | O_CREAT | O_TRUNC, 0644);
	assert_true(fd >= 0);
	w = start_writer(fd, false, 0);
	sim_init(s, 4096, 100);
	for (;;) {
		s->want_len = 0;
		per_round = 0;
		while (s->want_len + SAMPLE_SIZE <= 4096) {
			sim_sample(s);
			per_round++;
		}
		tail = s->page->data_tail;
		ret = perfev_data_writer__write_ring(w, s->ring, NULL);
		if (ret < 0)
			break;
		assert_int_equal(ret, s->want_len);
		assert_int_equal(perfev_data_writer__finished_round(w), 0);
		rounds++;
		assert_true(rounds < 100);
	}
	print_message("full after %u rounds: %s\n", rounds, perfev_last_error());
	expect_error((int)ret, ENOSPC, "file system is full");
	assert_non_null(strstr(perfev_last_error(), "offset"));
	assert_int_equal(s->page->data_tail, tail);
	perfev_ring__stats(s->ring, &st);
	assert_int_equal(st.records, rounds * per_round);
	assert_int_equal(st.bytes, (uint64_t)rounds * per_round * SAMPLE_SIZE);
	expect_error(perfev_data_writer__finish(w), ENOSPC, "file system is full");
	perfev_data_writer__delete(w);
	close(fd);
	{
		struct perfev_data_reader *r = perfev_data_reader__open(file, NULL);
		struct perfev_data_event ev;
		unsigned samples = 0;

		assert_non_null(r);
		while (perfev_data_reader__next(r, &ev) > 0)
			samples += ev.rec.type == PERF_RECORD_SAMPLE;
		assert_int_equal(samples, rounds * per_round);
		perfev_data_reader__delete(r);
	}
	assert_int_equal(umount(mnt), 0);
	rmdir(mnt);
	sim_free(s);
	free(s);
}

static int setup(void **state)
{
	(void)state;
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/perfev-pdwr-XXXXXX");
	return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	return system(cmd) == 0 ? 0 : -1;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_wrapped_records),
		cmocka_unit_test(test_full_ring),
		cmocka_unit_test(test_one_write_per_ring),
		cmocka_unit_test(test_losses_counted_once),
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_write_error_epipe),
		cmocka_unit_test(test_write_error_enospc),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
