/*
 * Rings against the real kernel: exact sample and loss counts, records
 * crossing the end of a small ring, overwrite snapshots, SET_OUTPUT through
 * an event list, poll wakeups and hang-ups, per-CPU rings, refusals.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "perfev/perfev.h"

#define TP_GETPPID "syscalls:sys_enter_getppid"
#define TP_FORMAT "/sys/kernel/tracing/events/syscalls/sys_enter_getppid/format"

static bool tracefs_ready(void)
{
	return access("/sys/kernel/tracing/events/syscalls/sys_enter_getppid/id", R_OK) == 0 ||
	       access("/sys/kernel/debug/tracing/events/syscalls/sys_enter_getppid/id", R_OK) == 0;
}

#define NEED_TRACEFS()                                                                             \
	do {                                                                                       \
		if (!tracefs_ready()) {                                                            \
			print_message("skip: tracefs with " TP_GETPPID " is not available here\n"); \
			skip();                                                                    \
		}                                                                                  \
	} while (0)

static pid_t my_tid(void)
{
	return (pid_t)syscall(SYS_gettid);
}

static void call_getppid(long n)
{
	for (long i = 0; i < n; i++)
		syscall(SYS_getppid);
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static size_t page_size(void)
{
	return (size_t)sysconf(_SC_PAGESIZE);
}

/* The getppid tracepoint, sampling every call of the calling thread, disabled. */
static int open_getppid(struct perf_event_attr *attr, uint64_t sample_type, bool backward,
			uint64_t read_format)
{
	int fd;

	assert_int_equal(perfev_parse_event(TP_GETPPID, attr, NULL, 0), 0);
	attr->sample_period = 1;
	attr->sample_type = sample_type;
	attr->read_format = read_format;
	attr->disabled = 1;
	attr->write_backward = backward;
	attr->use_clockid = 1;
	attr->clockid = CLOCK_MONOTONIC;
	fd = perfev_event_open(attr, 0, -1, -1, 0);
	if (fd < 0)
		print_message("open: %s\n", strerror(-fd));
	assert_true(fd >= 0);
	return fd;
}

/*
 * Bytes of one getppid sample record with sample_type, header included, as
 * the kernel writes it (the raw tracepoint data is padded by the kernel, so
 * it is measured rather than computed).
 */
static size_t sample_size(uint64_t sample_type)
{
	struct perf_event_attr attr;
	struct perfev_ring_opts o = { .sz = sizeof(o), .data_pages = 1 };
	const void *rec;
	size_t size = 0;
	int fd = open_getppid(&attr, sample_type, false, 0);
	struct perfev_ring *r = perfev_ring__new(fd, &o);

	assert_non_null(r);
	assert_int_equal(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0), 0);
	call_getppid(1);
	assert_int_equal(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0), 0);
	assert_true(perfev_ring__read_start(r) > 0);
	assert_int_equal(perfev_ring__next(r, &rec, &size), 1);
	assert_int_equal(((const struct perf_event_header *)rec)->type, PERF_RECORD_SAMPLE);
	perfev_ring__delete(r);
	close(fd);
	return size;
}

/* What a drain saw. */
struct tally {
	struct perfev_sample_fmt fmt;
	pid_t pid, tid;
	int raw_pid_off, raw_nr_off; /* tracepoint field offsets; -1: don't check raw */
	uint64_t samples, lost, lost_records, other, bad;
	uint64_t first_time, last_time;
	bool time_backward; /* a sample older than the one before it */
};

static void tally_init(struct tally *t, const struct perf_event_attr *attr)
{
	memset(t, 0, sizeof(*t));
	assert_int_equal(perfev_sample_fmt__from_attr(attr, &t->fmt), 0);
	t->pid = getpid();
	t->tid = my_tid();
	t->raw_pid_off = t->raw_nr_off = -1;
}

static void tally_sample(struct tally *t, const struct perfev_sample *s)
{
	int32_t v;

	if ((t->fmt.sample_type & PERF_SAMPLE_TID) && (s->pid != (uint32_t)t->pid ||
						       s->tid != (uint32_t)t->tid)) {
		if (!t->bad)
			print_message("sample of pid %u tid %u, expected %d/%d\n", s->pid, s->tid,
				      t->pid, t->tid);
		t->bad++;
	}
	if (t->raw_pid_off >= 0) {
		if (s->raw.size < (uint32_t)t->raw_nr_off + 4u) {
			t->bad++;
		} else {
			memcpy(&v, (const uint8_t *)s->raw.data + t->raw_pid_off, sizeof(v));
			if (v != t->tid)
				t->bad++;
			memcpy(&v, (const uint8_t *)s->raw.data + t->raw_nr_off, sizeof(v));
			if (v != SYS_getppid)
				t->bad++;
		}
	}
	if (t->samples && s->time < t->last_time)
		t->time_backward = true;
	if (!t->samples)
		t->first_time = s->time;
	t->last_time = s->time;
	t->samples++;
}

static void tally_record(struct tally *t, const void *rec, size_t size)
{
	struct perfev_record r;

	if (perfev_record__parse(&t->fmt, rec, size, &r) < 0) {
		print_message("bad record: %s\n", perfev_last_error());
		t->bad++;
		return;
	}
	switch (r.type) {
	case PERF_RECORD_SAMPLE:
		tally_sample(t, &r.sample);
		break;
	case PERF_RECORD_LOST:
		t->lost += r.lost.lost;
		t->lost_records++;
		break;
	default:
		t->other++;
		break;
	}
}

/* Reads every record the ring holds now. */
static void drain(struct perfev_ring *ring, struct tally *t)
{
	const void *rec;
	size_t size;
	int n;

	while (perfev_ring__read_start(ring) > 0) {
		while ((n = perfev_ring__next(ring, &rec, &size)) > 0)
			tally_record(t, rec, size);
		if (n < 0)
			print_message("next: %s\n", perfev_last_error());
		assert_int_equal(n, 0);
		perfev_ring__read_done(ring);
	}
}

static struct perfev_ring *new_ring(int fd, size_t pages, bool overwrite)
{
	struct perfev_ring_opts o = { .sz = sizeof(o), .data_pages = pages, .overwrite = overwrite };
	struct perfev_ring *r = perfev_ring__new(fd, &o);

	if (!r)
		print_message("ring: %s\n", perfev_last_error());
	assert_non_null(r);
	assert_int_equal(perfev_ring__size(r), pages * page_size());
	assert_int_equal(perfev_ring__fd(r), fd);
	return r;
}

static const uint64_t basic_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_TID | PERF_SAMPLE_TIME;

static void test_exact_when_it_fits(void **state)
{
	(void)state;
	struct perf_event_attr attr;
	struct perfev_ring_stats st;
	struct tally t;
	int fd;

	NEED_TRACEFS();
	fd = open_getppid(&attr, basic_type, false, 0);
	struct perfev_ring *ring = new_ring(fd, 8, false);
	size_t rec = sample_size(basic_type), fit = perfev_ring__size(ring) / rec;
	long n = (long)(fit - fit / 32); /* nearly full, with room to spare */

	tally_init(&t, &attr);
	assert_int_equal(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0), 0);
	call_getppid(n);
	assert_int_equal(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0), 0);
	drain(ring, &t);
	perfev_ring__stats(ring, &st);
	print_message("N %ld (ring fits %zu): samples %llu, lost %llu\n", n, fit,
		      (unsigned long long)t.samples, (unsigned long long)t.lost);
	assert_int_equal(t.samples, n);
	assert_int_equal(t.lost, 0);
	assert_int_equal(t.bad, 0);
	assert_false(t.time_backward);
	assert_int_equal(st.records, n);
	assert_int_equal(st.bytes, (uint64_t)n * rec);
	assert_int_equal(perfev_ring__page(ring)->data_tail, st.bytes);
	perfev_ring__delete(ring);
	close(fd);
}

static void test_exact_with_losses(void **state)
{
	(void)state;
	struct perf_event_attr attr;
	struct perfev_ring_stats st;
	struct perfev_counts c;
	struct tally t;
	uint64_t buf[4];
	int fd;

	NEED_TRACEFS();
	fd = open_getppid(&attr, basic_type, false, PERF_FORMAT_LOST);
	struct perfev_ring *ring = new_ring(fd, 8, false);
	size_t fit = perfev_ring__size(ring) / sample_size(basic_type);
	long n = (long)fit * 50;

	tally_init(&t, &attr);
	assert_int_equal(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0), 0);
	call_getppid(n);
	drain(ring, &t);
	/*
	 * The kernel reports what it dropped with the next record it can
	 * write: one more call, into the drained ring, brings the LOST record.
	 */
	call_getppid(1);
	assert_int_equal(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0), 0);
	drain(ring, &t);
	perfev_ring__stats(ring, &st);
	print_message("N %ld + 1 into a ring of %zu: samples %llu + lost %llu = %llu (%llu LOST "
		      "records)\n",
		      n, fit, (unsigned long long)t.samples, (unsigned long long)t.lost,
		      (unsigned long long)(t.samples + t.lost), (unsigned long long)t.lost_records);
	assert_int_equal(t.samples + t.lost, n + 1);
	assert_true(t.lost > 0);
	assert_true(t.samples <= fit + 1);
	assert_int_equal(t.bad, 0);
	assert_int_equal(st.lost, t.lost);
	assert_int_equal(st.lost_records, t.lost_records);
	/* The counter counted every call; read(2) agrees on the losses (PERF_FORMAT_LOST). */
	ssize_t len = read(fd, buf, sizeof(buf));
	assert_true(len > 0);
	assert_int_equal(perfev_read_format__parse(attr.read_format, buf, (size_t)len, &c, 1), 1);
	assert_int_equal(c.val, n + 1);
	assert_int_equal(c.lost, t.lost);
	perfev_ring__delete(ring);
	close(fd);
}

/* Offset of a tracepoint field from the event's format file, -1 if absent. */
static int field_offset(const char *field)
{
	char line[512], want[128];
	FILE *f = fopen(TP_FORMAT, "r");
	int off = -1;

	if (!f)
		return -1;
	snprintf(want, sizeof(want), " %s;", field);
	while (fgets(line, sizeof(line), f)) {
		char *p = strstr(line, want), *o = strstr(line, "offset:");

		if (p && o) {
			off = atoi(o + 7);
			break;
		}
	}
	fclose(f);
	return off;
}

static void test_wrapped_records_intact(void **state)
{
	(void)state;
	struct perf_event_attr attr;
	struct perfev_ring_stats st;
	struct tally t;
	long calls = 0;
	size_t ring_size = page_size(), rec;
	uint64_t type = basic_type | PERF_SAMPLE_IP | PERF_SAMPLE_RAW;
	int fd;

	NEED_TRACEFS();
	/* Records must not divide the ring, or none would ever cross its end. */
	rec = sample_size(type);
	if (ring_size % rec == 0) {
		type |= PERF_SAMPLE_CPU;
		rec = sample_size(type);
	}
	fd = open_getppid(&attr, type, false, 0);
	struct perfev_ring *ring = new_ring(fd, 1, false);
	size_t batch = ring_size / rec / 3;

	tally_init(&t, &attr);
	t.raw_pid_off = field_offset("common_pid");
	t.raw_nr_off = field_offset("__syscall_nr");
	assert_true(t.raw_pid_off >= 0 && t.raw_nr_off >= 0);
	assert_int_equal(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0), 0);
	/* Enough rounds for the reader to go around the ring many times. */
	for (int round = 0; round < 200; round++) {
		call_getppid((long)batch);
		calls += (long)batch;
		drain(ring, &t);
	}
	assert_int_equal(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0), 0);
	drain(ring, &t);
	perfev_ring__stats(ring, &st);
	print_message("%ld calls, %zu-byte records in a %zu-byte ring: %llu samples, %llu "
		      "crossed the end\n",
		      calls, rec, ring_size, (unsigned long long)t.samples,
		      (unsigned long long)st.wrapped);
	assert_int_equal(t.samples, calls);
	assert_int_equal(t.lost, 0);
	assert_int_equal(t.bad, 0);
	assert_false(t.time_backward);
	assert_true(st.wrapped > 0);
	perfev_ring__delete(ring);
	close(fd);
}

/* Bulk mode on the kernel's ring: spans joined back give exactly the records next() would. */
static void test_peek_consume(void **state)
{
	(void)state;
	struct perf_event_attr attr;
	struct perfev_span sp[2];
	struct tally t;
	long calls = 0;
	uint8_t *buf;
	int fd, two_spans = 0;

	NEED_TRACEFS();
	fd = open_getppid(&attr, basic_type | PERF_SAMPLE_IP, false, 0);
	struct perfev_ring *ring = new_ring(fd, 1, false);
	size_t rec = sample_size(basic_type | PERF_SAMPLE_IP), batch = perfev_ring__size(ring) / rec / 3, n;

	buf = malloc(perfev_ring__size(ring));
	assert_non_null(buf);
	tally_init(&t, &attr);
	assert_int_equal(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0), 0);
	for (int round = 0; round < 100; round++) {
		call_getppid((long)batch);
		calls += (long)batch;
		n = perfev_ring__peek(ring, sp);
		assert_int_equal(n, sp[0].len + sp[1].len);
		assert_int_equal(n % rec, 0); /* whole records only */
		two_spans += sp[1].len > 0;
		memcpy(buf, sp[0].base, sp[0].len);
		if (sp[1].len)
			memcpy(buf + sp[0].len, sp[1].base, sp[1].len);
		for (size_t off = 0; off < n; off += rec)
			tally_record(&t, buf + off, rec);
		perfev_ring__consume(ring, n);
	}
	assert_int_equal(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0), 0);
	print_message("%ld calls through peek/consume: %llu samples, %d reads in two spans\n",
		      calls, (unsigned long long)t.samples, two_spans);
	assert_int_equal(t.samples, calls);
	assert_int_equal(t.bad, 0);
	assert_true(two_spans > 0);
	free(buf);
	perfev_ring__delete(ring);
	close(fd);
}

struct snap {
	struct tally t;
	uint64_t newest;
	int records;
};

static int snap_cb(const void *rec, size_t size, void *ctx)
{
	struct snap *s = ctx;
	struct perfev_record r;

	if (perfev_record__parse(&s->t.fmt, rec, size, &r) < 0 || r.type != PERF_RECORD_SAMPLE) {
		s->t.bad++;
		return 0;
	}
	if (!s->records)
		s->newest = r.sample.time;
	else if (r.sample.time > s->t.last_time)
		s->t.time_backward = true; /* newest first: times must not grow */
	s->t.last_time = r.sample.time;
	s->records++;
	return 0;
}

static int stop_cb(const void *rec, size_t size, void *ctx)
{
	(void)rec;
	(void)size;
	return ++*(int *)ctx == 3 ? 42 : 0;
}

static void test_overwrite_keeps_newest(void **state)
{
	(void)state;
	struct perf_event_attr attr;
	struct snap s;
	uint64_t before, after, first_newest;
	int fd, stops = 0;

	NEED_TRACEFS();
	fd = open_getppid(&attr, basic_type | PERF_SAMPLE_IP, true, 0);
	struct perfev_ring *ring = new_ring(fd, 2, true);
	size_t rec = sample_size(basic_type | PERF_SAMPLE_IP), whole = perfev_ring__size(ring) / rec;
	long n = (long)whole * 20;

	assert_int_equal(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0), 0);
	call_getppid(n - 1);
	before = now_ns();
	call_getppid(1);
	after = now_ns();

	memset(&s, 0, sizeof(s));
	tally_init(&s.t, &attr);
	assert_int_equal(perfev_ring__snapshot(ring, snap_cb, &s), 0);
	print_message("%ld calls into an overwrite ring of %zu %zu-byte records: snapshot has "
		      "%d, newest at %llu ns, last call in [%llu, %llu]\n",
		      n, whole, rec, s.records, (unsigned long long)s.newest,
		      (unsigned long long)before, (unsigned long long)after);
	/* The ring holds as many whole records as fit; the one cut by the wrap is left out. */
	assert_int_equal(s.records, whole);
	assert_int_equal(s.t.bad, 0);
	assert_false(s.t.time_backward);
	assert_true(s.newest >= before && s.newest <= after);
	first_newest = s.newest;

	/* Resumed: later calls land, and the next snapshot starts with them. */
	call_getppid(10);
	memset(&s, 0, sizeof(s));
	tally_init(&s.t, &attr);
	assert_int_equal(perfev_ring__snapshot(ring, snap_cb, &s), 0);
	assert_int_equal(s.records, whole);
	assert_true(s.newest > first_newest);
	assert_int_equal(perfev_ring__snapshot(ring, stop_cb, &stops), 42);
	assert_int_equal(stops, 3);
	assert_int_equal(ioctl(fd, PERF_EVENT_IOC_DISABLE, 0), 0);

	/* Forward reading is refused with a pointer to snapshot(). */
	assert_int_equal(perfev_ring__read_start(ring), -EINVAL);
	assert_non_null(strstr(perfev_last_error(), "snapshot"));
	perfev_ring__delete(ring);
	close(fd);
}

static struct perfev_evlist *sampling_list(const char *spec, uint64_t sample_type)
{
	struct perfev_evlist *el = perfev_evlist__new();
	struct perfev_evsel *ev;

	assert_non_null(el);
	assert_int_equal(perfev_evlist__add_events(el, spec), 0);
	perfev_evlist__for_each_evsel(el, ev) {
		struct perf_event_attr *a = perfev_evsel__attr(ev);

		a->sample_period = 1;
		a->sample_type = sample_type;
	}
	return el;
}

static void open_list(struct perfev_evlist *el, struct perfev_open_opts *o)
{
	int err = perfev_evlist__open(el, o);

	if (err)
		print_message("open: %s\n", perfev_last_error());
	assert_int_equal(err, 0);
}

static void map_list(struct perfev_evlist *el, size_t pages)
{
	struct perfev_mmap_opts m = { .sz = sizeof(m), .data_pages = pages };
	int err = perfev_evlist__mmap(el, &m);

	if (err)
		print_message("mmap: %s\n", perfev_last_error());
	assert_int_equal(err, 0);
}

struct by_evsel {
	struct perfev_evlist *el;
	struct perfev_evsel *evsel[2];
	uint64_t samples[2], unknown, other;
};

static void count_by_id(struct by_evsel *b, const void *rec, size_t size)
{
	struct perfev_sample_fmt fmt = { .sample_type = PERF_SAMPLE_IDENTIFIER };
	const struct perf_event_header *h = rec;
	struct perfev_evsel *ev;
	uint64_t id;

	if (h->type != PERF_RECORD_SAMPLE) {
		b->other++;
		return;
	}
	assert_int_equal(perfev_record__peek_id(&fmt, rec, size, &id), 0);
	ev = perfev_evlist__evsel_by_id(b->el, id);
	for (int i = 0; i < 2; i++)
		if (ev && ev == b->evsel[i]) {
			b->samples[i]++;
			return;
		}
	b->unknown++;
}

static void test_set_output_one_ring(void **state)
{
	(void)state;
	struct perfev_open_opts o = { .sz = sizeof(o), .pid = 0 };
	struct by_evsel b = { 0 };
	struct perfev_ring_stats st;
	const void *rec;
	size_t size, pg = page_size();
	const long calls = 300, pages = 200;

	NEED_TRACEFS();
	b.el = sampling_list(TP_GETPPID ",page-faults", basic_type);
	b.evsel[0] = perfev_evlist__next_evsel(b.el, NULL);
	b.evsel[1] = perfev_evlist__next_evsel(b.el, b.evsel[0]);
	open_list(b.el, &o);
	map_list(b.el, 64);
	assert_int_equal(perfev_evlist__nr_rings(b.el), 1);
	assert_int_equal(perfev_evlist__ring_cpu(b.el, 0), -1);
	assert_null(perfev_evlist__ring(b.el, 1));
	struct perfev_ring *ring = perfev_evlist__ring(b.el, 0);
	/* The first event owns the ring; the second writes into it. */
	assert_int_equal(perfev_ring__fd(ring), perfev_evsel__fd(b.evsel[0], 0, 0));
	for (int i = 0; i < 2; i++)
		assert_ptr_equal(perfev_evlist__evsel_by_id(b.el, perfev_evsel__id(b.evsel[i], 0, 0)),
				 b.evsel[i]);
	assert_null(perfev_evlist__evsel_by_id(b.el, 0));

	char *mem = mmap(NULL, (size_t)pages * pg, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	assert_true(mem != MAP_FAILED);
	call_getppid(calls);
	for (long i = 0; i < pages; i++)
		((volatile char *)mem)[i * (long)pg] = 1;
	perfev_evlist__disable(b.el);
	munmap(mem, (size_t)pages * pg);

	while (perfev_ring__read_start(ring) > 0) {
		while (perfev_ring__next(ring, &rec, &size) > 0)
			count_by_id(&b, rec, size);
		perfev_ring__read_done(ring);
	}
	perfev_ring__stats(ring, &st);
	print_message("one ring: %llu getppid samples (%ld calls), %llu page-fault samples (%ld "
		      "pages touched), %llu unknown ids, %llu lost\n",
		      (unsigned long long)b.samples[0], calls, (unsigned long long)b.samples[1],
		      pages, (unsigned long long)b.unknown, (unsigned long long)st.lost);
	assert_int_equal(b.samples[0], calls);
	assert_true(b.samples[1] >= (uint64_t)pages);
	assert_int_equal(b.unknown, 0);
	assert_int_equal(st.lost, 0);
	perfev_evlist__delete(b.el);
}

/* A child that, told to go, sleeps, calls getppid once, and exits when the pipe closes. */
static pid_t sleepy_child(int go[2])
{
	pid_t pid;
	char c;

	assert_int_equal(pipe(go), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		struct timespec ts = { 0, 100 * 1000000 };

		close(go[1]);
		if (read(go[0], &c, 1) != 1)
			_exit(1);
		nanosleep(&ts, NULL);
		syscall(SYS_getppid);
		while (read(go[0], &c, 1) > 0)
			;
		_exit(0);
	}
	close(go[0]);
	return pid;
}

static void test_poll_wakeup_timeout_hup(void **state)
{
	(void)state;
	struct perfev_evsel *ev;
	struct tally t;
	int go[2], mine[2], hup = -1, status;
	uint64_t t0, waited;

	NEED_TRACEFS();
	pid_t child = sleepy_child(go);
	struct perfev_open_opts o = { .sz = sizeof(o), .pid = child };
	struct perfev_evlist *el = sampling_list(TP_GETPPID, basic_type);

	ev = perfev_evlist__next_evsel(el, NULL);
	perfev_evsel__attr(ev)->wakeup_events = 1;
	open_list(el, &o);
	map_list(el, 4);
	assert_int_equal(pipe(mine), 0);
	assert_int_equal(perfev_evlist__add_pollfd(el, mine[0]), 0);

	/* Nothing happens while the child waits for its go. */
	assert_int_equal(perfev_evlist__poll(el, 100, &hup), 0);
	assert_int_equal(hup, 0);

	t0 = now_ns();
	assert_int_equal(write(go[1], "g", 1), 1);
	assert_int_equal(perfev_evlist__poll(el, 5000, &hup), 1);
	waited = now_ns() - t0;
	assert_int_equal(hup, 0);
	tally_init(&t, perfev_evsel__attr(ev));
	t.pid = t.tid = child;
	drain(perfev_evlist__ring(el, 0), &t);
	print_message("woken %.1f ms after the go (child sleeps 100 ms first), %llu sample\n",
		      (double)waited / 1e6, (unsigned long long)t.samples);
	assert_true(waited >= 90 * 1000000ull);
	assert_int_equal(t.samples, 1);
	assert_int_equal(t.bad, 0);

	/* The caller's own fd wakes it too, and is not a hang-up. */
	assert_int_equal(write(mine[1], "x", 1), 1);
	assert_int_equal(perfev_evlist__poll(el, 5000, &hup), 1);
	assert_int_equal(hup, 0);
	char c;
	assert_int_equal(read(mine[0], &c, 1), 1);

	/* The monitored child exits: its ring hangs up, once. */
	close(go[1]);
	assert_int_equal(perfev_evlist__poll(el, 5000, &hup), 1);
	assert_int_equal(hup, 1);
	assert_int_equal(perfev_evlist__poll(el, 100, &hup), 0);
	assert_int_equal(hup, 0);
	assert_int_equal(waitpid(child, &status, 0), child);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	close(mine[0]);
	close(mine[1]);
	perfev_evlist__delete(el);
}

/* A child pinned to cpu that spins for ms milliseconds. */
static pid_t spin_on(int cpu, unsigned ms)
{
	pid_t pid = fork();

	assert_true(pid >= 0);
	if (pid == 0) {
		cpu_set_t set;
		uint64_t end;

		CPU_ZERO(&set);
		CPU_SET(cpu, &set);
		if (sched_setaffinity(0, sizeof(set), &set))
			_exit(1);
		end = now_ns() + ms * 1000000ull;
		while (now_ns() < end)
			;
		_exit(0);
	}
	return pid;
}

static void test_per_cpu_rings(void **state)
{
	(void)state;
	struct perfev_open_opts o = { .sz = sizeof(o), .pid = -1, .system_wide = true };
	struct perfev_evlist *el = sampling_list("cpu-clock", PERF_SAMPLE_IDENTIFIER |
								  PERF_SAMPLE_CPU | PERF_SAMPLE_TIME);
	struct perfev_sample_fmt fmt;
	struct perfev_evsel *ev = perfev_evlist__next_evsel(el, NULL);

	perfev_evsel__attr(ev)->sample_period = 1000000; /* a sample per ms of CPU clock */
	assert_int_equal(perfev_sample_fmt__from_attr(perfev_evsel__attr(ev), &fmt), 0);
	open_list(el, &o);
	map_list(el, 16);
	const struct perfev_cpu_map *cpus = perfev_evlist__cpus(el);
	int nr = perfev_cpu_map__nr(cpus);

	assert_int_equal(nr, sysconf(_SC_NPROCESSORS_ONLN));
	assert_int_equal(perfev_evlist__nr_rings(el), nr);
	/* An idle CPU's clock may hardly tick: keep every CPU busy while sampling. */
	pid_t *kids = calloc((size_t)nr, sizeof(*kids));
	assert_non_null(kids);
	for (int i = 0; i < nr; i++)
		kids[i] = spin_on(perfev_cpu_map__cpu(cpus, i), 100);
	for (int i = 0; i < nr; i++) {
		int status;

		assert_int_equal(waitpid(kids[i], &status, 0), kids[i]);
		assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	}
	free(kids);
	perfev_evlist__disable(el);
	for (int i = 0; i < nr; i++) {
		struct perfev_ring *ring = perfev_evlist__ring(el, i);
		int cpu = perfev_evlist__ring_cpu(el, i);
		uint64_t samples = 0, elsewhere = 0;
		struct perfev_record r;
		const void *rec;
		size_t size;

		assert_int_equal(cpu, perfev_cpu_map__cpu(cpus, i));
		assert_int_equal(perfev_ring__fd(ring), perfev_evsel__fd(ev, i, 0));
		while (perfev_ring__read_start(ring) > 0) {
			while (perfev_ring__next(ring, &rec, &size) > 0) {
				assert_int_equal(perfev_record__parse(&fmt, rec, size, &r), 0);
				if (r.type != PERF_RECORD_SAMPLE)
					continue;
				samples++;
				elsewhere += r.sample.cpu != (uint32_t)cpu;
			}
			perfev_ring__read_done(ring);
		}
		print_message("ring %d: CPU %d, %llu samples in 100 ms busy, %llu from another CPU\n", i,
			      cpu, (unsigned long long)samples, (unsigned long long)elsewhere);
		/* A busy CPU's clock ticks every ms: about 100, surely more than half. */
		assert_true(samples >= 50);
		assert_int_equal(elsewhere, 0);
	}
	perfev_evlist__delete(el);
}

static void test_inherit_needs_per_cpu(void **state)
{
	(void)state;
	struct perfev_open_opts o = { .sz = sizeof(o), .pid = 0, .inherit = true };
	struct perfev_evlist *el = sampling_list("page-faults", basic_type);
	struct perfev_mmap_opts m = { .sz = sizeof(m), .data_pages = 4 };

	open_list(el, &o);
	assert_int_equal(perfev_evlist__mmap(el, &m), -EINVAL);
	print_message("refused: %s\n", perfev_last_error());
	assert_non_null(strstr(perfev_last_error(), "inherit"));
	assert_non_null(strstr(perfev_last_error(), "per-CPU"));
	assert_int_equal(perfev_evlist__nr_rings(el), 0);
	perfev_evlist__delete(el);
}

static char helper_path[4096];

static const char *helper(const char *name)
{
	const char *dir = getenv("HELPERS");

	snprintf(helper_path, sizeof(helper_path), "%s/%s", dir ? dir : "build/tests/helpers", name);
	return helper_path;
}

/* Inherited events on a per-CPU list: the children's samples land in the CPUs' rings. */
static void test_inherit_per_cpu(void **state)
{
	(void)state;
	char online[256], *argv[] = { (char *)helper("forker"), (char *)"300", NULL };
	struct perfev_evlist *el = sampling_list("page-faults", basic_type);
	struct perfev_sample_fmt fmt;
	struct perfev_workload *w;
	uint64_t samples = 0, others = 0;
	int fd, status, nr;

	fd = open("/sys/devices/system/cpu/online", O_RDONLY);
	assert_true(fd >= 0);
	ssize_t len = read(fd, online, sizeof(online) - 1);
	close(fd);
	assert_true(len > 0);
	online[len] = 0;
	online[strcspn(online, "\n")] = 0;
	w = perfev_workload__new(argv);
	assert_non_null(w);
	pid_t pid = perfev_workload__pid(w);
	struct perfev_open_opts o = { .sz = sizeof(o), .pid = pid, .cpus = online,
				      .inherit = true, .enable_on_exec = true };
	open_list(el, &o);
	map_list(el, 64);
	nr = perfev_evlist__nr_rings(el);
	assert_int_equal(nr, perfev_cpu_map__nr(perfev_evlist__cpus(el)));
	assert_int_equal(perfev_workload__start(w), 0);
	assert_int_equal(perfev_workload__wait(w, &status), 0);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	assert_int_equal(perfev_sample_fmt__from_attr(
				 perfev_evsel__attr(perfev_evlist__next_evsel(el, NULL)), &fmt),
			 0);
	for (int i = 0; i < nr; i++) {
		struct perfev_ring *ring = perfev_evlist__ring(el, i);
		struct perfev_record r;
		const void *rec;
		size_t size;

		while (perfev_ring__read_start(ring) > 0) {
			while (perfev_ring__next(ring, &rec, &size) > 0) {
				assert_int_equal(perfev_record__parse(&fmt, rec, size, &r), 0);
				if (r.type != PERF_RECORD_SAMPLE)
					continue;
				samples++;
				others += r.sample.pid != (uint32_t)pid;
			}
			perfev_ring__read_done(ring);
		}
	}
	print_message("forker 300 over %d CPU rings: %llu page-fault samples, %llu from its "
		      "children\n",
		      nr, (unsigned long long)samples, (unsigned long long)others);
	/* Only the grandchild touches the 300 pages. */
	assert_true(others >= 300);
	perfev_workload__delete(w);
	perfev_evlist__delete(el);
}

static void test_refusals_explained(void **state)
{
	(void)state;
	struct perf_event_attr attr;
	struct perfev_ring_opts o = { .sz = sizeof(o), .data_pages = 3 };
	int fd;

	assert_int_equal(perfev_parse_event("cpu-clock", &attr, NULL, 0), 0);
	attr.disabled = 1;
	fd = perfev_event_open(&attr, 0, -1, -1, 0);
	assert_true(fd >= 0);

	assert_null(perfev_ring__new(fd, &o));
	assert_int_equal(errno, EINVAL);
	assert_non_null(strstr(perfev_last_error(), "power of two"));
	assert_non_null(strstr(perfev_last_error(), "use 2 or 4"));

	/* No PMU here fills an AUX area: the error must say so rather than a bare errno. */
	o.data_pages = 4;
	o.aux_pages = 4;
	assert_null(perfev_ring__new(fd, &o));
	print_message("AUX on cpu-clock: %s (%s)\n", strerror(errno), perfev_last_error());
	assert_non_null(strstr(perfev_last_error(), "AUX"));
	print_message("note: a real AUX mapping is untested here: this machine has no "
		      "AUX-capable PMU\n");

	/* The refused AUX area left nothing behind: the data ring maps again. */
	o.aux_pages = 0;
	struct perfev_ring *r = perfev_ring__new(fd, &o);
	assert_non_null(r);
	assert_null(perfev_ring__aux(r, NULL));
	/* A mapped fd cannot be redirected into another ring. */
	int fd2 = perfev_event_open(&attr, 0, -1, -1, 0);
	assert_true(fd2 >= 0);
	struct perfev_ring *r2 = perfev_ring__new(fd2, &o);
	assert_non_null(r2);
	assert_true(perfev_ring__set_output(r, fd2) < 0);
	print_message("SET_OUTPUT of a mapped fd: %s\n", perfev_last_error());
	perfev_ring__delete(r2);
	perfev_ring__delete(r);
	close(fd2);

	/* snapshot() is for overwrite rings only. */
	r = perfev_ring__new(fd, &o);
	assert_non_null(r);
	assert_int_equal(perfev_ring__snapshot(r, stop_cb, NULL), -EINVAL);
	perfev_ring__delete(r);
	close(fd);

	/* mmap needs an open list; overwrite needs write_backward. */
	struct perfev_evlist *el = sampling_list("cpu-clock", basic_type);
	struct perfev_mmap_opts m = { .sz = sizeof(m), .data_pages = 4, .overwrite = true };
	struct perfev_open_opts oo = { .sz = sizeof(oo), .pid = 0 };

	assert_int_equal(perfev_evlist__mmap(el, &m), -EBADF);
	assert_int_equal(perfev_evlist__poll(el, 0, NULL), -EBADF);
	open_list(el, &oo);
	assert_int_equal(perfev_evlist__mmap(el, &m), -EINVAL);
	assert_non_null(strstr(perfev_last_error(), "write_backward"));
	m.overwrite = false;
	assert_int_equal(perfev_evlist__mmap(el, &m), 0);
	assert_int_equal(perfev_evlist__mmap(el, &m), -EBUSY);
	perfev_evlist__munmap(el);
	assert_int_equal(perfev_evlist__nr_rings(el), 0);
	assert_int_equal(perfev_evlist__mmap(el, &m), 0); /* again after munmap */
	assert_int_equal(perfev_evlist__nr_rings(el), 1);
	perfev_evlist__delete(el);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_exact_when_it_fits),
		cmocka_unit_test(test_exact_with_losses),
		cmocka_unit_test(test_wrapped_records_intact),
		cmocka_unit_test(test_peek_consume),
		cmocka_unit_test(test_overwrite_keeps_newest),
		cmocka_unit_test(test_set_output_one_ring),
		cmocka_unit_test(test_poll_wakeup_timeout_hup),
		cmocka_unit_test(test_per_cpu_rings),
		cmocka_unit_test(test_inherit_needs_per_cpu),
		cmocka_unit_test(test_inherit_per_cpu),
		cmocka_unit_test(test_refusals_explained),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
