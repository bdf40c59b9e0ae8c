/*
 * Tracing data in perf.data: the bytes the writer lays out from a fake
 * tracefs (file, pipe, and the header a killed writer leaves), its errors,
 * then real syscalls:sys_{enter,exit}_getppid samples of this thread read
 * back by the installed perf (script and report, file and pipe, killed
 * writer, compressed), and the tracing data compared with perf record's own.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "perfev/perfev.h"
#include "perfdata_test.h"
#include "events/events_int.h" /* tracefs__set_root(), for the fake tracefs */

#define N_CALLS 37
#define ST_TP (PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | \
	       PERF_SAMPLE_RAW | PERF_SAMPLE_PERIOD)
#define FEAT_TRACING 1
#define FEAT_LAST 32
#define MAX_FORMATS 16

static char fake_root[128];
static char real_events[128]; /* the real tracefs's events directory, or "" */

/* ---- environment ---- */

static bool have_getppid_tracepoints(void)
{
	static const char *const roots[] = { "/sys/kernel/tracing", "/sys/kernel/debug/tracing" };
	char p[PATH_MAX];

	for (size_t i = 0; i < sizeof(roots) / sizeof(roots[0]); i++) {
		snprintf(p, sizeof(p), "%s/events/syscalls/sys_exit_getppid/format", roots[i]);
		if (access(p, R_OK) == 0) {
			snprintf(real_events, sizeof(real_events), "%s/events", roots[i]);
			return true;
		}
	}
	return false;
}

#define NEED_PERF_AND_TRACEFS()                                                              \
	do {                                                                                 \
		if (!have_perf()) {                                                          \
			print_message("skip: perf is not installed\n");                      \
			skip();                                                              \
		}                                                                            \
		if (!have_getppid_tracepoints()) {                                           \
			print_message("skip: tracefs with syscalls:sys_*_getppid is not "   \
				      "mounted or not readable\n");                          \
			skip();                                                              \
		}                                                                            \
	} while (0)

static void spit(const char *path, const char *text)
{
	char dir[PATH_MAX], cmd[PATH_MAX + 16];
	FILE *f;

	snprintf(dir, sizeof(dir), "%s", path);
	*strrchr(dir, '/') = '\0';
	snprintf(cmd, sizeof(cmd), "mkdir -p '%s'", dir);
	assert_int_equal(system(cmd), 0);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static int setup(void **state)
{
	(void)state;
	signal(SIGPIPE, SIG_IGN);
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/perfev-pdt-XXXXXX");
	return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[PATH_MAX + 16];

	(void)state;
	tracefs__set_root(NULL);
	if (getenv("PDW_KEEP")) {
		print_message("files kept in %s\n", tmpdir);
		return 0;
	}
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	return system(cmd) == 0 ? 0 : -1;
}

static void assert_perf_clean(const char *err)
{
	static const char *const bad[] = { "rror", "ailed", "Couldn't", "nvalid", "broken",
					   "incompatible", "mismatch", "WARNING" };

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		if (strstr(err, bad[i])) {
			print_message("perf stderr:\n%s\n", err);
			fail_msg("perf complained (%s)", bad[i]);
		}
	}
}

static unsigned count_lines_with(const char *text, const char *needle)
{
	unsigned n = 0;

	for (const char *line = text; *line;) {
		const char *eol = strchr(line, '\n');
		size_t len = eol ? (size_t)(eol - line) : strlen(line);

		if (memmem(line, len, needle, strlen(needle)))
			n++;
		line += len + (eol != NULL);
	}
	return n;
}

/* ---- byte streams ---- */

static size_t align8(size_t n)
{
	return (n + 7) / 8 * 8;
}

/* ---- reading tracing data the way perf's trace-event-read.c walks them ---- */

struct blob {
	size_t len;		  /* bytes up to the end of saved_cmdlines */
	size_t events_end;	  /* end of the header files and formats */
	size_t printk_off;	  /* the u32 size of printk_formats */
	size_t cmdlines_off;	  /* the u64 size of saved_cmdlines */
	uint32_t nr_ftrace, nr_systems;
	struct {
		const char *sys; /* NULL for system ftrace */
		const unsigned char *p;
		size_t len;
	} fmt[MAX_FORMATS];
	size_t nr_fmt;
};

#define NEED(n) assert_true(off + (n) <= len)

static void walk_blob(const unsigned char *p, size_t len, struct blob *b)
{
	static const unsigned char magic[] = { 0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n', 'g' };
	size_t off = 0;
	uint64_t n64;

	memset(b, 0, sizeof(*b));
	NEED(sizeof(magic) + 4 + 2 + 4);
	assert_memory_equal(p, magic, sizeof(magic));
	off = sizeof(magic);
	assert_memory_equal(p + off, "0.6", 4);
	off += 4;
	assert_int_equal(p[off], 0); /* little-endian (these tests run on one) */
	assert_int_equal(p[off + 1], sizeof(long));
	off += 2;
	assert_int_equal(u32_at(p, off), (uint32_t)sysconf(_SC_PAGESIZE));
	off += 4;
	NEED(12 + 8);
	assert_memory_equal(p + off, "header_page", 12);
	off += 12;
	n64 = u64_at(p, off);
	off += 8;
	NEED(n64);
	off += n64;
	NEED(13 + 8);
	assert_memory_equal(p + off, "header_event", 13);
	off += 13;
	n64 = u64_at(p, off);
	off += 8;
	NEED(n64 + 4);
	off += n64;
	b->nr_ftrace = u32_at(p, off);
	off += 4;
	for (uint32_t i = 0; i < b->nr_ftrace; i++) {
		NEED(8);
		n64 = u64_at(p, off);
		off += 8;
		NEED(n64);
		assert_true(b->nr_fmt < MAX_FORMATS);
		b->fmt[b->nr_fmt].sys = NULL;
		b->fmt[b->nr_fmt].p = p + off;
		b->fmt[b->nr_fmt++].len = n64;
		off += n64;
	}
	NEED(4);
	b->nr_systems = u32_at(p, off);
	off += 4;
	for (uint32_t i = 0; i < b->nr_systems; i++) {
		const char *sys = (const char *)p + off;
		uint32_t count;

		assert_non_null(memchr(sys, '\0', len - off));
		off += strlen(sys) + 1;
		NEED(4);
		count = u32_at(p, off);
		off += 4;
		for (uint32_t j = 0; j < count; j++) {
			NEED(8);
			n64 = u64_at(p, off);
			off += 8;
			NEED(n64);
			assert_true(b->nr_fmt < MAX_FORMATS);
			b->fmt[b->nr_fmt].sys = sys;
			b->fmt[b->nr_fmt].p = p + off;
			b->fmt[b->nr_fmt++].len = n64;
			off += n64;
		}
	}
	b->events_end = off;
	NEED(4 + 4);
	assert_int_equal(u32_at(p, off), 0); /* kallsyms: none, as perf writes now */
	off += 4;
	b->printk_off = off;
	off += 4 + u32_at(p, off);
	NEED(8);
	b->cmdlines_off = off;
	n64 = u64_at(p, off);
	off += 8;
	NEED(n64);
	b->len = off + n64;
}

/* ---- a fake tracefs ---- */

static const char fmt_ev1[] = "name: ev1\nID: 11\nformat:\n\tfield:int a;\toffset:8;\tsize:4;"
			      "\tsigned:1;\n\nprint fmt: \"a=%d\", REC->a\n";
static const char fmt_ev2[] = "name: ev2\nID: 12\nformat:\n\nprint fmt: \"\"\n";
static const char fmt_ev3[] = "name: ev3\nID: 21\nformat:\n\nprint fmt: \"three\"\n";
static const char fmt_func[] = "name: function\nID: 1\nformat:\n\nprint fmt: \"f\"\n";
static const char header_page[] = "\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n";
static const char header_event[] = "# compressed entry header\n\ttype_len    :    5 bits\n";
static const char printk_formats[] = "0xffffffff81000000 : \"hello %d\\n\"\n";
static const char saved_cmdlines[] = "1 systemd\n42 worker\n";

static void make_fake_tracefs(void)
{
	static const struct {
		const char *path, *text;
	} files[] = {
		{ "events/header_page", header_page },
		{ "events/header_event", header_event },
		{ "events/sysa/ev1/id", "11\n" },
		{ "events/sysa/ev1/format", fmt_ev1 },
		{ "events/sysa/ev2/id", "12\n" },
		{ "events/sysa/ev2/format", fmt_ev2 },
		{ "events/sysb/ev3/id", "21\n" },
		{ "events/sysb/ev3/format", fmt_ev3 },
		{ "events/sysc/unused/id", "31\n" },
		{ "events/sysc/unused/format", "name: unused\n" },
		{ "events/ftrace/function/id", "1\n" },
		{ "events/ftrace/function/format", fmt_func },
		{ "printk_formats", printk_formats },
		{ "saved_cmdlines", saved_cmdlines },
	};
	char cmd[PATH_MAX + 16], path[PATH_MAX];

	snprintf(fake_root, sizeof(fake_root), "%s/tracefs", tmpdir);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", fake_root);
	assert_int_equal(system(cmd), 0);
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", fake_root, files[i].path);
		spit(path, files[i].text);
	}
	tracefs__set_root(fake_root);
}

static void put_sized(struct stream *s, const char *text, size_t size_bytes)
{
	if (size_bytes == 4)
		put_u32(s, (uint32_t)strlen(text));
	else
		put_u64(s, strlen(text));
	put(s, text, strlen(text));
}

/* What the fake tracefs's events sysa:ev1, sysa:ev2, sysb:ev3, ftrace:function give. */
static void expected_fake_blob(struct stream *s, bool with_printk)
{
	static const unsigned char magic[] = { 0x17, 0x08, 0x44 };
	unsigned char b;

	put(s, magic, 3);
	put(s, "tracing", 7);
	put(s, "0.6", 4);
	b = 0;
	put(s, &b, 1);
	b = sizeof(long);
	put(s, &b, 1);
	put_u32(s, (uint32_t)sysconf(_SC_PAGESIZE));
	put(s, "header_page", 12);
	put_sized(s, header_page, 8);
	put(s, "header_event", 13);
	put_sized(s, header_event, 8);
	put_u32(s, 1); /* ftrace: function */
	put_sized(s, fmt_func, 8);
	put_u32(s, 2);
	put(s, "sysa", 5);
	put_u32(s, 2);
	put_sized(s, fmt_ev1, 8);
	put_sized(s, fmt_ev2, 8);
	put(s, "sysb", 5);
	put_u32(s, 1);
	put_sized(s, fmt_ev3, 8);
	put_u32(s, 0); /* kallsyms */
	put_sized(s, with_printk ? printk_formats : "", 4);
	put_sized(s, saved_cmdlines, 8);
}

static struct perf_event_attr tp_attr(uint64_t config)
{
	struct perf_event_attr a = {
		.size = sizeof(a),
		.type = PERF_TYPE_TRACEPOINT,
		.config = config,
		.sample_period = 1,
		.sample_type = ST_TP,
		.sample_id_all = 1,
	};

	return a;
}

/*
 * The attrs of the fake tests: one found by its name, one whose name is not
 * an event (found by its id), one with modifiers, one used twice, one of
 * system ftrace, and one that is not a tracepoint.
 */
static const struct {
	uint64_t config;
	const char *name;
} fake_tps[] = { { 12, "sysa:ev2" }, { 11, "my-event" }, { 21, "sysb:ev3:u" },
		 { 12, "sysa:ev2" }, { 1, "ftrace:function" } };

/* The tracepoints get ids 101..105, then cpu-clock 106. */
static void add_fake_attrs(struct perfev_data_writer *w)
{
	struct perf_event_attr sw = tp_attr(PERF_COUNT_SW_CPU_CLOCK);
	uint64_t id = 100;

	for (size_t i = 0; i < sizeof(fake_tps) / sizeof(fake_tps[0]); i++) {
		struct perf_event_attr a = tp_attr(fake_tps[i].config);

		id++;
		assert_int_equal(perfev_data_writer__add_attr(w, &a, &id, 1, fake_tps[i].name), 0);
	}
	sw.type = PERF_TYPE_SOFTWARE;
	id++;
	assert_int_equal(perfev_data_writer__add_attr(w, &sw, &id, 1, "cpu-clock"), 0);
}

/* A sample with only its identifier: whole records for write(). */
static void write_samples(struct perfev_data_writer *w, unsigned n)
{
	struct stream s = { 0 };

	for (unsigned i = 0; i < n; i++) {
		struct perf_event_header h = { .type = PERF_RECORD_SAMPLE, .size = 16 };

		put(&s, &h, sizeof(h));
		put_u64(&s, 101);
	}
	assert_int_equal(perfev_data_writer__write(w, s.p, s.len), 0);
	free(s.p);
}

static struct perfev_data_writer *new_writer(int fd, bool pipe, int level)
{
	struct perfev_data_writer_opts o = { .sz = sizeof(o), .pipe = pipe,
					     .compress_level = level };
	struct perfev_data_writer *w = perfev_data_writer__new(fd, &o);

	assert_non_null(w);
	return w;
}

static int open_out(const char *name)
{
	int fd = open(tpath(name), O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);

	assert_true(fd >= 0);
	return fd;
}

struct file_header {
	uint64_t attr_size, attrs_off, attrs_size, data_off, data_size;
	uint64_t bits[4];
};

static void read_header(const char *p, size_t len, struct file_header *h)
{
	assert_true(len >= 104);
	assert_memory_equal(p, "PERFILE2", 8);
	h->attr_size = u64_at(p, 16);
	h->attrs_off = u64_at(p, 24);
	h->attrs_size = u64_at(p, 32);
	h->data_off = u64_at(p, 40);
	h->data_size = u64_at(p, 48);
	memcpy(h->bits, p + 72, 32);
}

static bool bit(const struct file_header *h, int f)
{
	return h->bits[f / 64] >> (f % 64) & 1;
}

static unsigned nr_bits(const struct file_header *h)
{
	unsigned n = 0;

	for (int f = 0; f < 256; f++)
		n += bit(h, f);
	return n;
}

/* ---- the layout from a fake tracefs ---- */

static void test_pipe_layout(void **state)
{
	struct stream want = { 0 };
	struct perfev_data_writer *w;
	size_t len, off = 16, padded;
	int fd = open_out("fake.pipe");
	uint32_t prev_type = 0;
	uint64_t prev_feat = 0;
	char *p;

	(void)state;
	make_fake_tracefs();
	expected_fake_blob(&want, true);
	w = new_writer(fd, true, 0);
	add_fake_attrs(w);
	assert_int_equal(perfev_data_writer__start(w), 0);
	write_samples(w, 3);
	assert_int_equal(perfev_data_writer__finish(w), 0);
	perfev_data_writer__delete(w);
	close(fd);

	p = slurp(tpath("fake.pipe"), &len);
	/* Attrs, features and their end mark, then the tracing data, as perf record has them. */
	while (off + 8 <= len && u32_at(p, off) != PERFEV_RECORD_HEADER_TRACING_DATA) {
		prev_type = u32_at(p, off);
		if (prev_type == PERFEV_RECORD_HEADER_FEATURE)
			prev_feat = u64_at(p, off + 8);
		assert_true(prev_type == PERFEV_RECORD_HEADER_ATTR ||
			    prev_type == PERFEV_RECORD_HEADER_FEATURE);
		off += *(uint16_t *)(p + off + 6);
	}
	assert_int_equal(prev_type, PERFEV_RECORD_HEADER_FEATURE);
	assert_int_equal(prev_feat, FEAT_LAST);
	assert_true(off + 16 <= len);
	assert_int_equal(off % 8, 0);
	assert_int_equal(*(uint16_t *)(p + off + 6), 16); /* the data are not in header.size */
	padded = align8(want.len);
	assert_int_equal(u32_at(p, off + 8), padded);
	assert_int_equal(u32_at(p, off + 12), 0);
	off += 16;
	assert_true(off + padded <= len);
	assert_memory_equal(p + off, want.p, want.len);
	for (size_t i = want.len; i < padded; i++)
		assert_int_equal(p[off + i], 0);
	off += padded;
	/* Each tracepoint's name, which perf script would not take from HEADER_EVENT_DESC. */
	for (size_t i = 0; i < sizeof(fake_tps) / sizeof(fake_tps[0]); i++) {
		size_t n = strlen(fake_tps[i].name) + 1;

		assert_int_equal(u32_at(p, off), PERFEV_RECORD_EVENT_UPDATE);
		assert_int_equal(*(uint16_t *)(p + off + 6), 24 + align8(n));
		assert_int_equal(u64_at(p, off + 8), 2); /* PERF_EVENT_UPDATE__NAME */
		assert_int_equal(u64_at(p, off + 16), 101 + i);
		assert_memory_equal(p + off + 24, fake_tps[i].name, n);
		off += 24 + align8(n);
	}
	/* The data follow, 8-byte aligned: the 3 samples. */
	for (int i = 0; i < 3; i++) {
		assert_int_equal(u32_at(p, off), PERF_RECORD_SAMPLE);
		off += 16;
	}
	assert_int_equal(off, len);
	free(p);
	free(want.p);
	tracefs__set_root(NULL);
}

/* The file's tracing data: between the attrs and the data, where the section points. */
static void check_file_tracing(const char *p, size_t len, const struct file_header *h,
			       const struct stream *want, uint64_t table_off)
{
	uint64_t tracing_off = h->attrs_off + h->attrs_size;

	assert_int_equal(h->data_off, tracing_off + align8(want->len));
	assert_true(h->data_off <= len);
	assert_memory_equal(p + tracing_off, want->p, want->len);
	assert_true(table_off + 16 <= len);
	/* HEADER_TRACING_DATA is the lowest feature bit: the first section. */
	assert_int_equal(u64_at(p, table_off), tracing_off);
	assert_int_equal(u64_at(p, table_off + 8), want->len);
}

static void test_file_layout(void **state)
{
	struct stream want = { 0 };
	struct perfev_data_writer *w;
	struct file_header h;
	char path[PATH_MAX];
	size_t len;
	int fd;
	char *p;

	(void)state;
	make_fake_tracefs();
	/* printk_formats is optional, as for perf: missing, it is written empty. */
	snprintf(path, sizeof(path), "%s/printk_formats", fake_root);
	assert_int_equal(unlink(path), 0);
	expected_fake_blob(&want, false);

	fd = open_out("fake.data");
	w = new_writer(fd, false, 0);
	add_fake_attrs(w);
	assert_int_equal(perfev_data_writer__start(w), 0);

	/* Started: no data yet, but the tracing data already named in the header. */
	p = slurp(tpath("fake.data"), &len);
	read_header(p, len, &h);
	assert_int_equal(h.data_size, 0);
	assert_true(bit(&h, FEAT_TRACING));
	assert_int_equal(nr_bits(&h), 1);
	check_file_tracing(p, len, &h, &want, h.data_off);
	free(p);

	/* A round in progress overwrites that table: the header drops the feature first. */
	write_samples(w, 4);
	p = slurp(tpath("fake.data"), &len);
	read_header(p, len, &h);
	assert_int_equal(h.data_size, 0);
	assert_int_equal(nr_bits(&h), 0);
	free(p);

	/* The round's end: data up to there, the table just past them. */
	assert_int_equal(perfev_data_writer__finished_round(w), 0);
	p = slurp(tpath("fake.data"), &len);
	read_header(p, len, &h);
	assert_int_equal(h.data_size, 4 * 16 + 8);
	assert_int_equal(nr_bits(&h), 1);
	check_file_tracing(p, len, &h, &want, h.data_off + h.data_size);
	free(p);

	write_samples(w, 2);
	assert_int_equal(perfev_data_writer__finish(w), 0);
	perfev_data_writer__delete(w);
	close(fd);
	p = slurp(tpath("fake.data"), &len);
	read_header(p, len, &h);
	assert_int_equal(h.data_size, 6 * 16 + 8);
	assert_true(bit(&h, FEAT_TRACING));
	assert_true(nr_bits(&h) > 5);
	check_file_tracing(p, len, &h, &want, h.data_off + h.data_size);
	free(p);
	free(want.p);
	tracefs__set_root(NULL);
}

/* Without a tracepoint, nothing changes: no feature, the data right after the attrs. */
static void test_no_tracepoints(void **state)
{
	struct perf_event_attr a = tp_attr(PERF_COUNT_SW_CPU_CLOCK);
	struct perfev_data_writer *w;
	struct file_header h;
	uint64_t id = 7;
	size_t len;
	int fd = open_out("plain.data");
	char *p;

	(void)state;
	/* No tracefs is needed either. */
	tracefs__set_root("/nonexistent/tracefs");
	a.type = PERF_TYPE_SOFTWARE;
	w = new_writer(fd, false, 0);
	assert_int_equal(perfev_data_writer__add_attr(w, &a, &id, 1, "cpu-clock"), 0);
	assert_int_equal(perfev_data_writer__start(w), 0);
	write_samples(w, 1);
	assert_int_equal(perfev_data_writer__finished_round(w), 0);
	p = slurp(tpath("plain.data"), &len);
	read_header(p, len, &h);
	assert_int_equal(nr_bits(&h), 0);
	free(p);
	assert_int_equal(perfev_data_writer__finish(w), 0);
	perfev_data_writer__delete(w);
	close(fd);
	p = slurp(tpath("plain.data"), &len);
	read_header(p, len, &h);
	assert_false(bit(&h, FEAT_TRACING));
	assert_int_equal(h.data_off, h.attrs_off + h.attrs_size);
	free(p);
	tracefs__set_root(NULL);
}

/* start() with the fake tracefs and one attr; returns its result, the file left empty. */
static int start_one(uint64_t config, const char *name, bool pipe)
{
	struct perf_event_attr a = tp_attr(config);
	struct perfev_data_writer *w;
	uint64_t id = 5;
	struct stat st;
	int fd = open_out("err.data"), ret;

	w = new_writer(fd, pipe, 0);
	assert_int_equal(perfev_data_writer__add_attr(w, &a, &id, 1, name), 0);
	ret = perfev_data_writer__start(w);
	if (ret < 0) {
		/* Refused before anything was written. */
		assert_int_equal(fstat(fd, &st), 0);
		assert_int_equal(st.st_size, 0);
	}
	perfev_data_writer__delete(w);
	close(fd);
	return ret;
}

static void test_errors(void **state)
{
	char path[PATH_MAX / 2], moved[PATH_MAX];

	(void)state;
	tracefs__set_root("/nonexistent/tracefs");
	expect_error(start_one(11, "sysa:ev1", false), PERFEV_ERR_NOTRACEFS, "mount -t tracefs");
	expect_error(start_one(11, "sysa:ev1", true), PERFEV_ERR_NOTRACEFS, "sysa:ev1");

	make_fake_tracefs();
	assert_int_equal(start_one(11, "sysa:ev1", false), 0);
	expect_error(start_one(999, "sysa:ev1", false), ENOENT, "no tracepoint");
	expect_error(start_one(999, "sysa:ev1", true), ENOENT, "999");

	snprintf(path, sizeof(path), "%s/events/sysb/ev3/format", fake_root);
	snprintf(moved, sizeof(moved), "%s.gone", path);
	assert_int_equal(rename(path, moved), 0);
	expect_error(start_one(21, "sysb:ev3", false), ENOENT, "format of tracepoint sysb:ev3");
	expect_error(start_one(21, "sysb:ev3", true), ENOENT, "mount tracefs");
	assert_int_equal(rename(moved, path), 0);

	snprintf(path, sizeof(path), "%s/events/header_page", fake_root);
	assert_int_equal(unlink(path), 0);
	expect_error(start_one(21, "sysb:ev3", false), ENOENT, "header_page");
	tracefs__set_root(NULL);
}

/* ---- real tracepoint samples ---- */

struct run {
	struct stream recs; /* COMM, MMAP2 ... then the samples, as the ring gave them */
	struct perf_event_attr attr[2];
	uint64_t id[2];
	unsigned samples[2];
	long ppid;
	char comm[32];
};

static int perf_event_open(struct perf_event_attr *a, pid_t pid, int cpu, int group,
			   unsigned long flags)
{
	return (int)syscall(SYS_perf_event_open, a, pid, cpu, group, flags);
}

static uint64_t tp_id(const char *name)
{
	char path[PATH_MAX];
	uint64_t id = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/syscalls/%s/id", real_events, name);
	f = fopen(path, "r");
	assert_non_null(f);
	assert_int_equal(fscanf(f, "%" SCNu64, &id), 1);
	fclose(f);
	return id;
}

static int collect(const void *rec, size_t size, void *ctx)
{
	put(ctx, rec, size);
	return 0;
}

/*
 * Samples syscalls:sys_enter_getppid and sys_exit_getppid on this thread
 * while it calls getppid() N_CALLS times.  false (with the reason printed)
 * when the kernel will not let us.
 */
static bool sample_getppid(struct run *r)
{
	static const char *const names[2] = { "sys_enter_getppid", "sys_exit_getppid" };
	struct perfev_ring_opts ro = { .sz = sizeof(ro), .data_pages = 16 };
	struct perfev_sample_fmt fmt;
	struct perfev_ring *ring;
	const void *rec;
	size_t size;
	int fd[2];
	FILE *f;

	/* The real tracefs, even after a fake-tracefs test failed without resetting it. */
	tracefs__set_root(NULL);
	memset(r, 0, sizeof(*r));
	for (int i = 0; i < 2; i++) {
		r->attr[i] = tp_attr(tp_id(names[i]));
		r->attr[i].disabled = 1;
		fd[i] = perf_event_open(&r->attr[i], 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
		if (fd[i] < 0) {
			print_message("skip: perf_event_open(syscalls:%s): %s\n", names[i],
				      strerror(errno));
			if (i)
				close(fd[0]);
			return false;
		}
		assert_int_equal(ioctl(fd[i], PERF_EVENT_IOC_ID, &r->id[i]), 0);
	}
	ring = perfev_ring__new(fd[0], &ro);
	assert_non_null(ring);
	assert_int_equal(perfev_ring__set_output(ring, fd[1]), 0);

	/* Who we are, so that perf names the task and maps its addresses. */
	assert_int_equal(perfev_sample_fmt__from_attr(&r->attr[0], &fmt), 0);
	assert_int_equal(perfev_synth__process(&fmt, getpid(), collect, &r->recs), 0);
	f = fopen("/proc/self/comm", "r");
	assert_non_null(f);
	assert_non_null(fgets(r->comm, sizeof(r->comm), f));
	fclose(f);
	r->comm[strcspn(r->comm, "\n")] = '\0';

	for (int i = 0; i < 2; i++)
		assert_int_equal(ioctl(fd[i], PERF_EVENT_IOC_ENABLE, 0), 0);
	for (int i = 0; i < N_CALLS; i++)
		r->ppid = syscall(SYS_getppid);
	for (int i = 0; i < 2; i++)
		assert_int_equal(ioctl(fd[i], PERF_EVENT_IOC_DISABLE, 0), 0);

	while (perfev_ring__read_start(ring) > 0) {
		while (perfev_ring__next(ring, &rec, &size) > 0) {
			const struct perf_event_header *h = rec;

			if (h->type == PERF_RECORD_SAMPLE) {
				uint64_t id = perfev_u64_at(rec, 1);

				assert_true(id == r->id[0] || id == r->id[1]);
				r->samples[id == r->id[1]]++;
			}
			put(&r->recs, rec, size);
		}
		perfev_ring__read_done(ring);
	}
	perfev_ring__delete(ring);
	close(fd[0]);
	close(fd[1]);
	assert_int_equal(r->samples[0], N_CALLS);
	assert_int_equal(r->samples[1], N_CALLS);
	return true;
}

/*
 * Writes the run to fd in one round; with killed, the writer is dropped
 * after the round without finish(), as if it had been killed.
 */
static void write_run(int fd, const struct run *r, bool pipe, int level, bool killed)
{
	struct perfev_data_writer *w = new_writer(fd, pipe, level);

	assert_int_equal(perfev_data_writer__add_attr(w, &r->attr[0], &r->id[0], 1,
						      "syscalls:sys_enter_getppid"), 0);
	/* A name that is no tracepoint: found by its id. */
	assert_int_equal(perfev_data_writer__add_attr(w, &r->attr[1], &r->id[1], 1, "exits"), 0);
	assert_int_equal(perfev_data_writer__start(w), 0);
	assert_int_equal(perfev_data_writer__write(w, r->recs.p, r->recs.len), 0);
	assert_int_equal(perfev_data_writer__finished_round(w), 0);
	if (!killed)
		assert_int_equal(perfev_data_writer__finish(w), 0);
	perfev_data_writer__delete(w);
}

/* perf script's lines: every sample named and, for the exits, the print fmt applied. */
static void check_script(const char *out, const struct run *r, const char *exit_name)
{
	char want[128];

	if (count_lines_with(out, "syscalls:sys_enter_getppid:") != N_CALLS)
		print_message("perf script:\n%s\n", out);
	assert_int_equal(count_lines_with(out, "syscalls:sys_enter_getppid:"), N_CALLS);
	/* sys_exit_getppid's print fmt is "0x%lx", REC->ret: the parent's pid. */
	snprintf(want, sizeof(want), "%s: 0x%lx", exit_name, r->ppid);
	assert_int_equal(count_lines_with(out, want), N_CALLS);
	assert_int_equal(count_lines_with(out, r->comm), 2 * N_CALLS);
}

/* perf report's raw trace fields: each field decoded by name. */
static void check_report(const char *out, const struct run *r, const char *exit_name)
{
	char want[128];

	snprintf(want, sizeof(want), "# Samples: %d  of event 'syscalls:sys_enter_getppid'",
		 N_CALLS);
	if (!strstr(out, want))
		print_message("perf report:\n%s\n", out);
	assert_non_null(strstr(out, want));
	snprintf(want, sizeof(want), "# Samples: %d  of event '%s'", N_CALLS, exit_name);
	assert_non_null(strstr(out, want));
	snprintf(want, sizeof(want), "100.00%%   __syscall_nr=%d\n", SYS_getppid);
	assert_non_null(strstr(out, want));
	snprintf(want, sizeof(want), "100.00%%   __syscall_nr=%d ret=%ld", SYS_getppid, r->ppid);
	assert_non_null(strstr(out, want));
}

#define REPORT_ARGS "report --stdio --raw-trace -s trace"

static void test_perf_file(void **state)
{
	char args[PATH_MAX + 64], *out, *err;
	struct run r;
	int fd;

	(void)state;
	NEED_PERF_AND_TRACEFS();
	if (!sample_getppid(&r))
		skip();
	fd = open_out("tp.data");
	write_run(fd, &r, false, 0, false);
	close(fd);

	snprintf(args, sizeof(args), "script -i '%s'", tpath("tp.data"));
	assert_int_equal(perf(args, &out, &err), 0);
	assert_perf_clean(err);
	/* perf names the second event from HEADER_EVENT_DESC, as it was added. */
	check_script(out, &r, "exits");
	free(out);
	free(err);

	snprintf(args, sizeof(args), REPORT_ARGS " -i '%s'", tpath("tp.data"));
	assert_int_equal(perf(args, &out, &err), 0);
	assert_perf_clean(err);
	check_report(out, &r, "exits");
	free(out);
	free(err);
	free(r.recs.p);
}

/* perf reading from a real pipe while the writer writes into it. */
static void pipe_to_perf(const struct run *r, const char *perf_args, char **out)
{
	char cmd[2 * PATH_MAX];
	FILE *f;
	char *err;

	snprintf(cmd, sizeof(cmd), "perf %s >'%s' 2>'%s'", perf_args, tpath("pipe.out"),
		 tpath("pipe.err"));
	f = popen(cmd, "w");
	assert_non_null(f);
	write_run(fileno(f), r, true, 0, false);
	assert_int_equal(pclose(f), 0);
	*out = slurp(tpath("pipe.out"), NULL);
	err = slurp(tpath("pipe.err"), NULL);
	assert_perf_clean(err);
	free(err);
}

static void test_perf_pipe(void **state)
{
	struct run r;
	char *out;

	(void)state;
	NEED_PERF_AND_TRACEFS();
	if (!sample_getppid(&r))
		skip();
	/* The events keep the names they were added with, as in a file. */
	pipe_to_perf(&r, "script -i -", &out);
	check_script(out, &r, "exits");
	free(out);
	pipe_to_perf(&r, REPORT_ARGS " -i -", &out);
	check_report(out, &r, "exits");
	free(out);
	free(r.recs.p);
}

/* A writer killed after a round, with and without compression: perf still decodes it. */
static void test_perf_killed(void **state)
{
	char args[PATH_MAX + 64], *out, *err;
	struct run r;

	(void)state;
	NEED_PERF_AND_TRACEFS();
	if (!sample_getppid(&r))
		skip();
	for (int level = 0; level <= 1; level++) {
		int fd = open_out("killed.data");

		write_run(fd, &r, false, level, true);
		close(fd);
		snprintf(args, sizeof(args), "script -i '%s'", tpath("killed.data"));
		assert_int_equal(perf(args, &out, &err), 0);
		/* perf warns that the file was not closed properly; nothing else. */
		if (strstr(err, "broken") || strstr(err, "incompatible") || strstr(err, "rror"))
			fail_msg("perf script on a killed file (level %d): %s", level, err);
		/* Killed, the file has no HEADER_EVENT_DESC: the tracepoint's own name. */
		check_script(out, &r, "syscalls:sys_exit_getppid");
		free(out);
		free(err);
	}
	free(r.recs.p);
}

/* The same events' tracing data as perf record writes them into a pipe. */
static void test_matches_perf_record(void **state)
{
	struct blob ours, theirs;
	char cmd[PATH_MAX + 256];
	size_t len, off = 16, ours_off = 16;
	struct run r;
	char *p, *q;
	int fd;

	(void)state;
	NEED_PERF_AND_TRACEFS();
	if (!sample_getppid(&r))
		skip();
	snprintf(cmd, sizeof(cmd),
		 "perf record -q -o - -e syscalls:sys_enter_getppid -e syscalls:sys_exit_getppid "
		 "true >'%s' 2>/dev/null",
		 tpath("perf-record.pipe"));
	if (system(cmd) != 0) {
		free(r.recs.p);
		print_message("skip: perf record failed here\n");
		skip();
	}
	p = slurp(tpath("perf-record.pipe"), &len);
	while (off + 8 <= len && u32_at(p, off) != PERFEV_RECORD_HEADER_TRACING_DATA)
		off += *(uint16_t *)(p + off + 6);
	assert_true(off + 16 <= len);
	/* perf 6.1 too: a 16-byte record, the data after it and not in its size. */
	assert_int_equal(*(uint16_t *)(p + off + 6), 16);
	walk_blob((unsigned char *)p + off + 16, len - off - 16, &theirs);
	assert_int_equal(u32_at(p, off + 8), align8(theirs.len));

	fd = open_out("ours.pipe");
	write_run(fd, &r, true, 0, false);
	close(fd);
	q = slurp(tpath("ours.pipe"), &len);
	while (ours_off + 8 <= len && u32_at(q, ours_off) != PERFEV_RECORD_HEADER_TRACING_DATA)
		ours_off += *(uint16_t *)(q + ours_off + 6);
	assert_true(ours_off + 16 <= len);
	walk_blob((unsigned char *)q + ours_off + 16, len - ours_off - 16, &ours);

	/* Up to the formats byte for byte; the formats as a set (perf has readdir's order). */
	assert_int_equal(ours.nr_ftrace, theirs.nr_ftrace);
	assert_int_equal(ours.nr_systems, theirs.nr_systems);
	assert_int_equal(ours.nr_fmt, 2);
	assert_int_equal(theirs.nr_fmt, 2);
	for (size_t i = 0; i < ours.nr_fmt; i++) {
		bool found = false;

		for (size_t j = 0; j < theirs.nr_fmt && !found; j++)
			found = ours.fmt[i].len == theirs.fmt[j].len &&
				!strcmp(ours.fmt[i].sys, theirs.fmt[j].sys) &&
				!memcmp(ours.fmt[i].p, theirs.fmt[j].p, ours.fmt[i].len);
		assert_true(found);
	}
	assert_int_equal(ours.events_end, theirs.events_end);
	/* The first format's own size is left out: the first format may differ. */
	assert_memory_equal(q + ours_off + 16, p + off + 16,
			    (size_t)(ours.fmt[0].p - (unsigned char *)q) - ours_off - 16 - 8);
	/* kallsyms (0) and printk_formats alike; saved_cmdlines may have changed since. */
	assert_int_equal(ours.cmdlines_off, theirs.cmdlines_off);
	assert_memory_equal(q + ours_off + 16 + ours.events_end, p + off + 16 + theirs.events_end,
			    ours.cmdlines_off - ours.events_end);
	print_message("tracing data: %zu bytes, perf record's %zu (up to saved_cmdlines: %zu)\n",
		      ours.len, theirs.len, ours.cmdlines_off);
	free(p);
	free(q);
	free(r.recs.p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pipe_layout),
		cmocka_unit_test(test_file_layout),
		cmocka_unit_test(test_no_tracepoints),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_perf_file),
		cmocka_unit_test(test_perf_pipe),
		cmocka_unit_test(test_perf_killed),
		cmocka_unit_test(test_matches_perf_record),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
