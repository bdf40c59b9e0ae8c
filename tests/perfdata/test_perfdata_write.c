/*
 * The perf.data writer: file, pipe and compressed layouts checked byte by
 * byte, then read back by the installed perf (report -D, script, header,
 * buildid-list), including files whose writer was killed or hit a full disk.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zstd.h>

#include "perfev/perfev.h"
#include "perfdata_test.h"

#define PID 31337
#define COMM "pdw-sampled"
#define ST (PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | \
	    PERF_SAMPLE_PERIOD)
#define FEAT_LAST 32

/* Code the samples point into, so that perf has real symbols to resolve. */
static __attribute__((noinline, used)) int pdw_func_alpha(int x)
{
	return x * 3 + 1;
}
static __attribute__((noinline, used)) int pdw_func_beta(int x)
{
	return (x << 4) - x / 7;
}
static __attribute__((noinline, used)) int pdw_func_gamma(int x)
{
	return (x ^ 0x55) + 9;
}
static const struct {
	int (*fn)(int);
	const char *name;
} funcs[] = {
	{ pdw_func_alpha, "pdw_func_alpha" },
	{ pdw_func_beta, "pdw_func_beta" },
	{ pdw_func_gamma, "pdw_func_gamma" },
};

static char exe[PATH_MAX];
static struct {
	uint64_t start, len, pgoff, ino;
	uint32_t maj, min;
} text; /* the test binary's executable mapping, from /proc/self/maps */
static uint8_t exe_build_id[20];
static size_t exe_build_id_size;

/* ---- environment ---- */

#define NEED_PERF()                                                                        \
	do {                                                                               \
		if (!have_perf()) {                                                        \
			print_message("skip: perf is not installed; the file was checked " \
				      "by hand only\n");                                   \
			skip();                                                            \
		}                                                                          \
	} while (0)

static void find_text_mapping(void)
{
	char line[PATH_MAX + 128];
	FILE *f;
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	assert_true(n > 0);
	exe[n] = '\0';
	f = fopen("/proc/self/maps", "r");
	assert_non_null(f);
	while (fgets(line, sizeof(line), f)) {
		unsigned long long s, e, off, ino;
		unsigned maj, min;
		char perms[8], path[PATH_MAX];

		if (sscanf(line, "%llx-%llx %7s %llx %x:%x %llu %4095s", &s, &e, perms, &off, &maj,
			   &min, &ino, path) == 8 &&
		    perms[2] == 'x' && !strcmp(path, exe)) {
			text.start = s, text.len = e - s, text.pgoff = off, text.ino = ino;
			text.maj = maj, text.min = min;
			break;
		}
	}
	fclose(f);
	assert_true(text.len > 0);
	for (size_t i = 0; i < 3; i++) {
		uint64_t ip = (uint64_t)(uintptr_t)funcs[i].fn;

		assert_true(ip >= text.start && ip < text.start + text.len);
	}
}

static void read_build_id(void)
{
	int fd = open(exe, O_RDONLY);
	Elf *elf;
	Elf_Scn *scn = NULL;

	assert_true(fd >= 0);
	elf_version(EV_CURRENT);
	elf = elf_begin(fd, ELF_C_READ, NULL);
	assert_non_null(elf);
	while ((scn = elf_nextscn(elf, scn)) && !exe_build_id_size) {
		GElf_Shdr sh;
		Elf_Data *d;
		GElf_Nhdr nh;
		size_t off = 0, name_off, desc_off;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_NOTE || !(d = elf_getdata(scn, NULL)))
			continue;
		while ((off = gelf_getnote(d, off, &nh, &name_off, &desc_off)) > 0) {
			if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4 &&
			    !memcmp((char *)d->d_buf + name_off, "GNU", 4) && nh.n_descsz <= 20) {
				memcpy(exe_build_id, (char *)d->d_buf + desc_off, nh.n_descsz);
				exe_build_id_size = nh.n_descsz;
				break;
			}
		}
	}
	elf_end(elf);
	close(fd);
}

static int setup(void **state)
{
	(void)state;
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/perfev-pdw-XXXXXX");
	if (!mkdtemp(tmpdir))
		return -1;
	find_text_mapping();
	read_build_id();
	return 0;
}

static int teardown(void **state)
{
	char cmd[PATH_MAX + 16];

	(void)state;
	if (getenv("PDW_KEEP")) { /* for a look at the files after a failure */
		print_message("files kept in %s\n", tmpdir);
		return 0;
	}
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	return system(cmd) == 0 ? 0 : -1;
}

/* perf says what went wrong on stderr; a clean read says nothing of the sort. */
static void assert_perf_clean(const char *err)
{
	static const char *const bad[] = { "rror", "ailed", "Couldn't", "nvalid", "unexpected",
					   "WARNING" };

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		if (strstr(err, bad[i])) {
			print_message("perf stderr:\n%s\n", err);
			fail_msg("perf complained (%s)", bad[i]);
		}
	}
}

/* ---- the stream a profiler would write ---- */

static void put_hdr(struct stream *s, uint32_t type, uint16_t misc, size_t size)
{
	struct perf_event_header h = { .type = type, .misc = misc, .size = (uint16_t)size };

	assert_true(size < 65536);
	put(s, &h, sizeof(h));
}

static void put_str8(struct stream *s, const char *str)
{
	size_t n = strlen(str) + 1, pad = (n + 7) / 8 * 8;
	static const char zero[8];

	put(s, str, n);
	put(s, zero, pad - n);
}

/* The sample_id trailer for ST: pid/tid, time, identifier. */
static void put_trailer(struct stream *s, uint64_t time, uint64_t id)
{
	put_u32(s, PID);
	put_u32(s, PID);
	put_u64(s, time);
	put_u64(s, id);
}

static void put_comm(struct stream *s, uint64_t id)
{
	size_t n = (strlen(COMM) + 1 + 7) / 8 * 8;

	put_hdr(s, PERF_RECORD_COMM, 0, 8 + 8 + n + 24);
	put_u32(s, PID);
	put_u32(s, PID);
	put_str8(s, COMM);
	put_trailer(s, 1000, id);
}

static void put_mmap2(struct stream *s, uint64_t id)
{
	size_t n = (strlen(exe) + 1 + 7) / 8 * 8;

	put_hdr(s, PERF_RECORD_MMAP2, PERF_RECORD_MISC_USER, 8 + 8 + 24 + 24 + 8 + n + 24);
	put_u32(s, PID);
	put_u32(s, PID);
	put_u64(s, text.start);
	put_u64(s, text.len);
	put_u64(s, text.pgoff);
	put_u32(s, text.maj);
	put_u32(s, text.min);
	put_u64(s, text.ino);
	put_u64(s, 0);
	put_u32(s, 5); /* PROT_READ | PROT_EXEC */
	put_u32(s, 2); /* MAP_PRIVATE */
	put_str8(s, exe);
	put_trailer(s, 1001, id);
}

static struct perf_event_attr make_attr(uint64_t config)
{
	struct perf_event_attr a = {
		.size = sizeof(a),
		.type = PERF_TYPE_SOFTWARE,
		.config = config,
		.sample_period = 100000,
		.sample_type = ST,
		.sample_id_all = 1,
		.disabled = 1,
		.exclude_kernel = 1,
	};
	return a;
}

/* Sample i: which function, which event (ids 101 and 201 when there are two). */
static uint64_t sample_ip(unsigned i)
{
	return (uint64_t)(uintptr_t)funcs[i % 3].fn;
}

static uint64_t sample_id(unsigned i, bool two)
{
	return two && i % 2 ? 201 : 101;
}

static void put_sample(struct stream *s, unsigned i, bool two)
{
	struct perf_event_attr a = make_attr(PERF_COUNT_SW_CPU_CLOCK);
	struct perfev_sample_fmt fmt;
	struct perfev_sample smp = {
		.identifier = sample_id(i, two), .ip = sample_ip(i), .pid = PID, .tid = PID,
		.time = 10000 + (uint64_t)i * 1000, .period = 100000,
	};
	unsigned char body[256];
	int n;

	assert_int_equal(perfev_sample_fmt__from_attr(&a, &fmt), 0);
	n = perfev_sample__encode(&fmt, &smp, body, sizeof(body));
	assert_true(n > 0);
	put_hdr(s, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER, 8 + (size_t)n);
	put(s, body, (size_t)n);
}

struct cfg {
	bool pipe;
	int level;
	bool two;	    /* two events, samples alternating */
	unsigned rounds;    /* complete rounds */
	unsigned per_round; /* samples in each */
	unsigned trailing;  /* samples written after the last round */
	bool no_finish;	    /* stop before finish(), as a killed writer would */
};

static const char *const cmdline[] = { "perfev", "record", "-o", "pdw.data", "--", "true" };

static struct perfev_data_writer *new_writer(int fd, const struct cfg *c)
{
	struct perfev_data_writer_opts o = { .sz = sizeof(o), .pipe = c->pipe,
					     .compress_level = c->level, .argc = 6,
					     .argv = cmdline };
	struct perfev_data_writer *w = perfev_data_writer__new(fd, &o);
	struct perf_event_attr a = make_attr(PERF_COUNT_SW_CPU_CLOCK);
	struct perf_event_attr b = make_attr(PERF_COUNT_SW_TASK_CLOCK);
	static const uint64_t ids_a[] = { 101, 102 }, ids_b[] = { 201 };
	static const uint8_t kbid[20] = { 0xde, 0xad, 0xbe, 0xef, 1, 2, 3, 4, 5, 6,
					  7, 8, 9, 10, 11, 12, 13, 14, 15, 16 };

	if (!w)
		print_message("writer: %s\n", perfev_last_error());
	assert_non_null(w);
	assert_int_equal(perfev_data_writer__add_attr(w, &a, ids_a, 2, "pdw-clock-a"), 0);
	if (c->two) {
		assert_int_equal(perfev_data_writer__add_attr(w, &b, ids_b, 1, "pdw-clock-b"), 0);
		assert_int_equal(perfev_data_writer__add_group(w, "pdw-group", 0, 2), 0);
		assert_int_equal(perfev_data_writer__set_sample_time(w, 2000, 1000), -EINVAL);
		assert_int_equal(perfev_data_writer__set_sample_time(w, 1000, 2000), 0);
	}
	if (exe_build_id_size)
		assert_int_equal(perfev_data_writer__add_build_id(w, PID, PERF_RECORD_MISC_USER,
								   exe_build_id, exe_build_id_size,
								   exe),
				 0);
	assert_int_equal(perfev_data_writer__add_build_id(w, -1, PERF_RECORD_MISC_KERNEL, kbid, 20,
							   "[kernel.kallsyms]"),
			 0);
	return w;
}

/*
 * Writes the stream of c, each round one write() of a whole span as a
 * drained ring gives; all gets the data section expected (round marks too).
 */
static void write_rounds(struct perfev_data_writer *w, const struct cfg *c, struct stream *all)
{
	unsigned i = 0;

	assert_int_equal(perfev_data_writer__start(w), 0);
	for (unsigned r = 0; r <= c->rounds; r++) {
		struct stream s = { 0 };
		unsigned n = r < c->rounds ? c->per_round : c->trailing;

		if (r == 0) {
			put_comm(&s, 101);
			put_mmap2(&s, 101);
		}
		for (unsigned k = 0; k < n; k++, i++)
			put_sample(&s, i, c->two);
		if (s.len) {
			if (perfev_data_writer__write(w, s.p, s.len) < 0)
				fail_msg("write: %s", perfev_last_error());
			if (all)
				put(all, s.p, s.len);
		}
		free(s.p);
		if (r < c->rounds) {
			assert_int_equal(perfev_data_writer__finished_round(w), 0);
			if (all)
				put_hdr(all, PERFEV_RECORD_FINISHED_ROUND, 0, 8);
		}
	}
}

/* Writes a whole file (or pipe stream) for c into path. */
static void write_file(const char *path, const struct cfg *c, struct stream *all)
{
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
	struct perfev_data_writer *w;

	assert_true(fd >= 0);
	w = new_writer(fd, c);
	write_rounds(w, c, all);
	if (!c->no_finish) {
		if (perfev_data_writer__finish(w) < 0)
			fail_msg("finish: %s", perfev_last_error());
		struct stat st;

		assert_int_equal(fstat(fd, &st), 0);
		if (!c->pipe)
			assert_int_equal(perfev_data_writer__bytes_written(w), st.st_size);
	}
	perfev_data_writer__delete(w);
	close(fd);
}

/* ---- reading the file back by hand ---- */

static uint16_t u16_at(const char *p, size_t off)
{
	uint16_t v;

	memcpy(&v, p + off, 2);
	return v;
}

struct counts {
	unsigned samples, comm, mmap2, rounds, compressed, other;
};

static void count_records(const char *p, size_t len, struct counts *c)
{
	struct perf_event_attr a = make_attr(PERF_COUNT_SW_CPU_CLOCK);
	struct perfev_sample_fmt fmt;
	size_t off = 0;

	memset(c, 0, sizeof(*c));
	assert_int_equal(perfev_sample_fmt__from_attr(&a, &fmt), 0);
	while (off < len) {
		struct perfev_record r;

		if (perfev_record__parse(&fmt, p + off, len - off, &r) < 0)
			fail_msg("record at data offset %zu: %s", off, perfev_last_error());
		switch (r.type) {
		case PERF_RECORD_SAMPLE:
			c->samples++;
			break;
		case PERF_RECORD_COMM:
			c->comm++;
			assert_string_equal(r.comm.comm, COMM);
			break;
		case PERF_RECORD_MMAP2:
			c->mmap2++;
			assert_int_equal(r.mmap2.addr, text.start);
			break;
		case PERFEV_RECORD_FINISHED_ROUND:
			c->rounds++;
			break;
		case PERFEV_RECORD_COMPRESSED:
			c->compressed++;
			break;
		default:
			c->other++;
		}
		off += r.size;
	}
	assert_int_equal(off, len);
}

/* A perf string at off: its text, and where the next field begins. */
static const char *perf_string(const char *p, size_t *off)
{
	uint32_t len = u32_at(p, *off);
	const char *s = p + *off + 4;

	assert_int_equal(len % 64, 0);
	assert_true(len > strlen(s));
	*off += 4 + len;
	return s;
}

struct section {
	uint64_t off, size;
};

/* The file header, checked; the feature sections in bit order into secs (NULL: none). */
static uint64_t check_file_header(const char *p, size_t len, uint64_t *bits,
				  struct section *secs, unsigned *nsec)
{
	uint64_t attr_size = u64_at(p, 16), attrs_off = u64_at(p, 24), attrs_size = u64_at(p, 32);
	uint64_t data_off = u64_at(p, 40), data_size = u64_at(p, 48);
	unsigned n = 0;

	assert_true(len >= 104);
	assert_memory_equal(p, "PERFILE2", 8);
	assert_int_equal(u64_at(p, 8), 104);
	/* each perf_file_attr is the attr (of its own declared size) and one section */
	assert_int_equal(attr_size, u32_at(p, attrs_off + 4) + 16);
	assert_true(u32_at(p, attrs_off + 4) >= PERF_ATTR_SIZE_VER0);
	assert_int_equal(attrs_size % attr_size, 0);
	assert_int_equal(data_off, attrs_off + attrs_size);
	assert_true(data_off + data_size <= len);
	for (uint64_t a = 0; a < attrs_size / attr_size; a++) {
		uint64_t ids_off = u64_at(p, attrs_off + a * attr_size + attr_size - 16);
		uint64_t ids_size = u64_at(p, attrs_off + a * attr_size + attr_size - 8);

		assert_true(ids_off >= 104 && ids_off + ids_size <= attrs_off);
	}
	memcpy(bits, p + 72, 32);
	assert_int_equal(bits[0] & 1, 0); /* HEADER_RESERVED */
	for (int f = 0; f < 256; f++)
		n += (bits[f / 64] >> (f % 64)) & 1;
	if (secs) {
		uint64_t table = data_off + data_size, at = table + n * 16;

		for (unsigned i = 0; i < n; i++) {
			secs[i].off = u64_at(p, table + i * 16);
			secs[i].size = u64_at(p, table + i * 16 + 8);
			/* bodies follow the table, in order, back to back */
			assert_int_equal(secs[i].off, at);
			at += secs[i].size;
		}
		assert_int_equal(at, len);
		*nsec = n;
	}
	return data_size;
}

static bool has_bit(const uint64_t *bits, int f)
{
	return (bits[f / 64] >> (f % 64)) & 1;
}

static bool cpuinfo_has(const char *key)
{
	char *info = slurp("/proc/cpuinfo", NULL);
	char pat[64];
	bool r;

	snprintf(pat, sizeof(pat), "\n%s\t", key);
	r = strstr(info, pat) != NULL || !strncmp(info, pat + 1, strlen(pat + 1));
	free(info);
	return r;
}

static void test_file_layout(void **state)
{
	struct cfg c = { .two = true, .rounds = 2, .per_round = 10 };
	struct stream all = { 0 };
	uint64_t bits[4], data_size, expect_bits[4] = { 0 };
	struct section secs[32];
	struct counts cnt;
	struct utsname u;
	unsigned nsec, s = 0;
	size_t len, off;
	char *p, *meminfo, version[64];

	(void)state;
	write_file(tpath("layout.data"), &c, &all);
	p = slurp(tpath("layout.data"), &len);
	data_size = check_file_header(p, len, bits, secs, &nsec);
	/* the data are what was given, with a round mark after each round */
	assert_int_equal(data_size, all.len);
	assert_memory_equal(p + u64_at(p, 40), all.p, all.len);
	count_records(p + u64_at(p, 40), data_size, &cnt);
	assert_int_equal(cnt.samples, 20);
	assert_int_equal(cnt.rounds, 2);
	assert_int_equal(cnt.comm + cnt.mmap2, 2);
	assert_int_equal(cnt.other, 0);

	/* the ids each attr points at */
	assert_int_equal(u64_at(p, u64_at(p, u64_at(p, 24) + u64_at(p, 16) - 16)), 101);
	assert_int_equal(u64_at(p, u64_at(p, u64_at(p, 24) + 2 * u64_at(p, 16) - 16)), 201);

	static const int want[] = { 2, 3, 4, 5, 6, 7, 8, 10, 11, 12, 17, 21 };
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++)
		expect_bits[want[i] / 64] |= 1ull << want[i];
	if (cpuinfo_has("vendor_id") && cpuinfo_has("cpu family"))
		expect_bits[0] |= 1ull << 9;
	if (access("/sys/bus/event_source/devices/software/type", R_OK) == 0)
		expect_bits[0] |= 1ull << 16;
	assert_memory_equal(bits, expect_bits, sizeof(bits));

	/* BUILD_ID: the kernel's and (when it has one) the test binary's */
	off = secs[s].off;
	if (exe_build_id_size) {
		assert_int_equal(u32_at(p, off), PERFEV_RECORD_HEADER_BUILD_ID);
		assert_int_equal(u32_at(p, off + 8), PID);
		assert_memory_equal(p + off + 12, exe_build_id, exe_build_id_size);
		assert_int_equal((unsigned char)p[off + 32], exe_build_id_size);
		assert_string_equal(p + off + 36, exe);
		off += u16_at(p, off + 6);
	}
	assert_int_equal(u16_at(p, off + 4),
			 PERF_RECORD_MISC_KERNEL | (1u << 15));
	assert_string_equal(p + off + 36, "[kernel.kallsyms]");
	assert_int_equal(u16_at(p, off + 6), 36 + 64);
	assert_int_equal(off + 100, secs[s].off + secs[s].size);
	s++;
	assert_int_equal(uname(&u), 0);
	off = secs[s++].off;
	assert_string_equal(perf_string(p, &off), u.nodename);
	off = secs[s++].off;
	assert_string_equal(perf_string(p, &off), u.release);
	off = secs[s++].off;
	snprintf(version, sizeof(version), "perfev %s", perfev_version());
	assert_string_equal(perf_string(p, &off), version);
	off = secs[s++].off;
	assert_string_equal(perf_string(p, &off), u.machine);
	off = secs[s++].off; /* NRCPUS: available, then online */
	assert_int_equal(secs[s - 1].size, 8);
	assert_true(u32_at(p, off) >= u32_at(p, off + 4));
	assert_int_equal(u32_at(p, off + 4), sysconf(_SC_NPROCESSORS_ONLN));
	s++; /* CPUDESC: compared with perf's reading below */
	if (has_bit(bits, 9))
		s++;
	assert_int_equal(secs[s].size, 8); /* TOTAL_MEM, kB as /proc/meminfo says */
	meminfo = slurp("/proc/meminfo", NULL);
	assert_non_null(strstr(meminfo, "MemTotal:"));
	assert_int_equal(u64_at(p, secs[s++].off),
			 strtoull(strstr(meminfo, "MemTotal:") + strlen("MemTotal:"), NULL, 10));
	free(meminfo);
	off = secs[s++].off;
	assert_int_equal(u32_at(p, off), 6);
	off += 4;
	for (int i = 0; i < 6; i++)
		assert_string_equal(perf_string(p, &off), cmdline[i]);
	/* EVENT_DESC: nr, attr size, then attr, nr ids, name, ids */
	off = secs[s].off;
	assert_int_equal(u32_at(p, off), 2);
	assert_int_equal(u32_at(p, off + 4), u64_at(p, 16) - 16);
	off += 8 + u32_at(p, off + 4);
	assert_int_equal(u32_at(p, off), 2);
	off += 4;
	assert_string_equal(perf_string(p, &off), "pdw-clock-a");
	assert_int_equal(u64_at(p, off), 101);
	assert_int_equal(u64_at(p, off + 8), 102);
	s++;
	/* PMU_MAPPINGS: nr, then type and name; the software PMU is type 1 */
	if (has_bit(bits, 16)) {
		bool software = false;
		uint32_t n;

		off = secs[s++].off;
		n = u32_at(p, off);
		assert_true(n > 0);
		off += 4;
		for (uint32_t i = 0; i < n; i++) {
			uint32_t type = u32_at(p, off);

			off += 4;
			if (!strcmp(perf_string(p, &off), "software"))
				software = type == PERF_TYPE_SOFTWARE;
		}
		assert_true(software);
	}
	/* GROUP_DESC: nr, then name, leader, members */
	off = secs[s].off;
	assert_int_equal(u32_at(p, off), 1);
	off += 4;
	assert_string_equal(perf_string(p, &off), "pdw-group");
	assert_int_equal(u32_at(p, off), 0);
	assert_int_equal(u32_at(p, off + 4), 2);
	s++;
	/* SAMPLE_TIME: the first and the last sample's */
	assert_int_equal(secs[s].size, 16);
	assert_int_equal(u64_at(p, secs[s].off), 1000);
	assert_int_equal(u64_at(p, secs[s].off + 8), 2000);
	assert_int_equal(++s, nsec);
	free(all.p);
	free(p);
}

/* A writer that never gets to finish(): the header says how far the last round went. */
static void test_unfinished_layout(void **state)
{
	int fd = open(tpath("unfinished.data"), O_RDWR | O_CREAT | O_TRUNC, 0644);
	struct cfg c = { .rounds = 1, .per_round = 5, .trailing = 7, .no_finish = true };
	struct perfev_data_writer *w;
	uint64_t bits[4], zero[4] = { 0 };
	struct counts cnt;
	size_t len;
	char *p;

	(void)state;
	assert_true(fd >= 0);
	w = new_writer(fd, &c);
	write_rounds(w, &c, NULL);
	p = slurp(tpath("unfinished.data"), &len);
	/* the 7 trailing samples are on disk but not in the header's data */
	count_records(p + u64_at(p, 40), check_file_header(p, len, bits, NULL, NULL), &cnt);
	assert_memory_equal(bits, zero, sizeof(bits));
	assert_int_equal(cnt.samples, 5);
	assert_int_equal(cnt.rounds, 1);
	assert_true(len > u64_at(p, 40) + u64_at(p, 48));
	free(p);
	/* another round takes them in */
	assert_int_equal(perfev_data_writer__finished_round(w), 0);
	p = slurp(tpath("unfinished.data"), &len);
	count_records(p + u64_at(p, 40), check_file_header(p, len, bits, NULL, NULL), &cnt);
	assert_int_equal(cnt.samples, 12);
	assert_int_equal(cnt.rounds, 2);
	assert_int_equal(u64_at(p, 40) + u64_at(p, 48), len);
	free(p);
	perfev_data_writer__delete(w);
	close(fd);
}

/* With header_sync_ms, rounds within the interval leave the header as it was. */
static void test_header_sync_interval(void **state)
{
	int fd = open(tpath("sync.data"), O_RDWR | O_CREAT | O_TRUNC, 0644);
	struct perfev_data_writer_opts o = { .sz = sizeof(o), .header_sync_ms = 60000 };
	struct perf_event_attr attr = { .size = sizeof(attr), .type = PERF_TYPE_SOFTWARE,
					.sample_type = PERF_SAMPLE_IP, .sample_period = 1 };
	uint64_t id = 7, rec[3] = { 0 };
	struct perf_event_header *h = (struct perf_event_header *)rec;
	struct perfev_data_writer *w;
	uint64_t first;
	size_t len;
	char *p;

	(void)state;
	assert_true(fd >= 0);
	h->type = PERF_RECORD_SAMPLE;
	h->size = 16;
	w = perfev_data_writer__new(fd, &o);
	assert_non_null(w);
	assert_int_equal(perfev_data_writer__add_attr(w, &attr, &id, 1, "x"), 0);
	assert_int_equal(perfev_data_writer__start(w), 0);
	assert_int_equal(perfev_data_writer__write(w, rec, 16), 0);
	assert_int_equal(perfev_data_writer__finished_round(w), 0);
	p = slurp(tpath("sync.data"), &len);
	first = u64_at(p, 48);
	/* The first round syncs: its sample and round mark are in. */
	assert_int_equal(first, 16 + 8);
	free(p);
	assert_int_equal(perfev_data_writer__write(w, rec, 16), 0);
	assert_int_equal(perfev_data_writer__finished_round(w), 0);
	p = slurp(tpath("sync.data"), &len);
	assert_int_equal(u64_at(p, 48), first);
	assert_true(len > u64_at(p, 40) + first);
	free(p);
	/* finish() always brings it up to date. */
	assert_int_equal(perfev_data_writer__finish(w), 0);
	p = slurp(tpath("sync.data"), &len);
	assert_int_equal(u64_at(p, 48), 2 * (16 + 8));
	free(p);
	perfev_data_writer__delete(w);
	close(fd);
}

static void test_pipe_layout(void **state)
{
	struct cfg c = { .pipe = true, .two = true, .rounds = 2, .per_round = 4 };
	struct stream all = { 0 };
	uint64_t last_feat = 0;
	unsigned attrs = 0, feats = 0, bids = 0;
	struct counts cnt;
	size_t len, off = 16;
	char *p;

	(void)state;
	write_file(tpath("pipe.data"), &c, &all);
	p = slurp(tpath("pipe.data"), &len);
	assert_memory_equal(p, "PERFILE2", 8);
	assert_int_equal(u64_at(p, 8), 16);
	/* header records: attrs, features up to the end mark, build ids */
	for (;;) {
		uint32_t type = u32_at(p, off);
		uint16_t size = u16_at(p, off + 6);

		assert_true(size >= 8 && off + size <= len);
		if (type == PERFEV_RECORD_HEADER_ATTR) {
			uint32_t asz = u32_at(p, off + 8 + 4);
			uint64_t nids = (size - 8 - asz) / 8;

			assert_int_equal(feats, 0);
			assert_true(asz >= 128);
			assert_int_equal(nids, attrs == 0 ? 2 : 1);
			assert_int_equal(u64_at(p, off + 8 + asz), attrs == 0 ? 101 : 201);
			attrs++;
		} else if (type == PERFEV_RECORD_HEADER_FEATURE) {
			uint64_t f = u64_at(p, off + 8);

			assert_true(f > last_feat);
			assert_true(f != 2); /* build ids travel as records */
			last_feat = f;
			feats++;
			if (f == FEAT_LAST)
				assert_int_equal(size, 16);
		} else if (type == PERFEV_RECORD_HEADER_BUILD_ID) {
			assert_int_equal(last_feat, FEAT_LAST);
			bids++;
		} else {
			break;
		}
		off += size;
	}
	assert_int_equal(attrs, 2);
	assert_int_equal(last_feat, FEAT_LAST);
	assert_true(feats >= 10);
	assert_int_equal(bids, exe_build_id_size ? 2 : 1);
	count_records(p + off, len - off, &cnt);
	assert_int_equal(cnt.samples, 8);
	assert_int_equal(cnt.rounds, 2);
	assert_int_equal(len - off, all.len);
	assert_memory_equal(p + off, all.p, all.len);
	free(all.p);
	free(p);
}

/* A build id learnt after start() reaches a pipe with the next round. */
static void test_pipe_late_build_id(void **state)
{
	struct perfev_data_writer_opts o = { .sz = sizeof(o), .pipe = true };
	struct perf_event_attr a = make_attr(PERF_COUNT_SW_CPU_CLOCK);
	int fd = open(tpath("late.data"), O_RDWR | O_CREAT | O_TRUNC, 0644);
	static const uint8_t bid[4] = { 0xca, 0xfe, 0xf0, 0x0d };
	struct perfev_data_writer *w;
	size_t len, off = 16;
	unsigned seen = 0;
	char *p;

	(void)state;
	assert_true(fd >= 0);
	w = perfev_data_writer__new(fd, &o);
	assert_non_null(w);
	assert_int_equal(perfev_data_writer__add_attr(w, &a, NULL, 0, "ev"), 0);
	assert_int_equal(perfev_data_writer__start(w), 0);
	assert_int_equal(perfev_data_writer__add_build_id(w, 7, PERF_RECORD_MISC_USER, bid, 4,
							   "/usr/lib/late.so"),
			 0);
	assert_int_equal(perfev_data_writer__finished_round(w), 0);
	assert_int_equal(perfev_data_writer__finish(w), 0);
	expect_error(perfev_data_writer__add_build_id(w, 7, PERF_RECORD_MISC_USER, bid, 4, "/x"),
		     EINVAL, "finished");
	perfev_data_writer__delete(w);
	close(fd);
	p = slurp(tpath("late.data"), &len);
	for (; off < len; off += u16_at(p, off + 6)) {
		if (u32_at(p, off) == PERFEV_RECORD_HEADER_BUILD_ID) {
			assert_int_equal(seen, 0);
			assert_int_equal(u32_at(p, off + 8), 7);
			assert_memory_equal(p + off + 12, bid, 4);
			assert_int_equal((unsigned char)p[off + 32], 4);
			assert_string_equal(p + off + 36, "/usr/lib/late.so");
			seen = 1;
		} else if (u32_at(p, off) == PERFEV_RECORD_FINISHED_ROUND) {
			assert_int_equal(seen, 1); /* the build id came first */
			seen = 2;
		}
	}
	assert_int_equal(seen, 2);
	assert_int_equal(off, len);
	free(p);
}

/*
 * Every COMPRESSED record decompresses on its own (one stream throughout)
 * into at most HEADER_COMPRESSED's mmap_len and at least one byte, as
 * perf's reader needs, and the whole gives back the records written.
 */
static void test_compressed_layout(void **state)
{
	struct cfg c = { .level = 3, .rounds = 3, .per_round = 5000, .trailing = 10 };
	struct stream all = { 0 }, back = { 0 };
	ZSTD_DStream *ds = ZSTD_createDStream();
	uint64_t bits[4], data_size, mmap_len;
	struct section secs[32];
	unsigned nsec, records = 0, rounds = 0;
	size_t len, off;
	char *p, *out;

	(void)state;
	write_file(tpath("z.data"), &c, &all);
	p = slurp(tpath("z.data"), &len);
	data_size = check_file_header(p, len, bits, secs, &nsec);
	assert_true(has_bit(bits, 27));
	off = secs[nsec - 1].off; /* COMPRESSED is the highest bit set */
	assert_int_equal(secs[nsec - 1].size, 20);
	assert_int_equal(u32_at(p, off), 0);
	assert_int_equal(u32_at(p, off + 4), 1);
	assert_int_equal(u32_at(p, off + 8), 3);
	mmap_len = u32_at(p, off + 16);
	out = malloc(mmap_len);
	assert_non_null(out);
	ZSTD_initDStream(ds);
	/*
	 * The data open with the same feature as a record, so that perf can
	 * decompress a file whose writer died before writing the sections.
	 */
	off = u64_at(p, 40);
	assert_int_equal(u32_at(p, off), PERFEV_RECORD_HEADER_FEATURE);
	assert_int_equal(u16_at(p, off + 6), 16 + 20);
	assert_int_equal(u64_at(p, off + 8), 27);
	assert_memory_equal(p + off + 16, p + secs[nsec - 1].off, 12); /* all but the ratio */
	assert_int_equal(u32_at(p, off + 16 + 16), mmap_len);
	for (off += 36; off < u64_at(p, 40) + data_size;) {
		uint32_t type = u32_at(p, off);
		uint16_t size = u16_at(p, off + 6);

		if (type == PERFEV_RECORD_COMPRESSED) {
			ZSTD_inBuffer in = { p + off + 8, size - 8u, 0 };
			ZSTD_outBuffer o = { out, mmap_len, 0 };

			while (in.pos < in.size) {
				assert_false(ZSTD_isError(ZSTD_decompressStream(ds, &o, &in)));
				assert_true(o.pos < o.size || in.pos == in.size);
			}
			assert_true(o.pos > 0);
			put(&back, out, o.pos);
			records++;
		} else {
			/* the round marks stay outside the compressed stream, as perf has them */
			assert_int_equal(type, PERFEV_RECORD_FINISHED_ROUND);
			put(&back, p + off, size);
			rounds++;
		}
		off += size;
	}
	assert_int_equal(rounds, 3);
	assert_true(records > 3);
	assert_int_equal(back.len, all.len);
	assert_memory_equal(back.p, all.p, all.len);
	/* the ratio perf prints: what went in over what came out, rounded */
	assert_int_equal(u32_at(p, secs[nsec - 1].off + 12),
			 (uint32_t)((double)(all.len - rounds * 8) /
					(double)(data_size - 36 - rounds * 8) +
				    0.5));
	print_message("%zu bytes of records in %u compressed records, %llu bytes\n", all.len,
		      records, (unsigned long long)data_size);
	ZSTD_freeDStream(ds);
	free(out);
	free(all.p);
	free(back.p);
	free(p);
}

/* ---- misuse ---- */


static void test_bad_input(void **state)
{
	struct perfev_data_writer_opts o = { .sz = sizeof(o) };
	struct perf_event_attr a = make_attr(PERF_COUNT_SW_CPU_CLOCK), b = a;
	int fd = open(tpath("bad.data"), O_RDWR | O_CREAT | O_TRUNC, 0644), pfd[2];
	uint64_t ids[2] = { 1, 2 };
	uint8_t bid[21] = { 1 };
	char longname[5000];
	struct perfev_data_writer *w;
	unsigned char junk[16] = { 0 };

	(void)state;
	assert_true(fd >= 0);
	/* opts */
	o.sz = 4;
	assert_null(perfev_data_writer__new(fd, &o));
	assert_int_equal(errno, EINVAL);
	o.sz = sizeof(o);
	o.compress_level = 23;
	assert_null(perfev_data_writer__new(fd, &o));
	assert_int_equal(errno, EINVAL);
	o.compress_level = 0;
	o.argc = 2;
	assert_null(perfev_data_writer__new(fd, &o));
	assert_non_null(strstr(perfev_last_error(), "argc"));
	o.argc = 0;
	/* fds a file-mode writer cannot use */
	assert_null(perfev_data_writer__new(-1, &o));
	assert_int_equal(errno, EBADF);
	assert_int_equal(pipe(pfd), 0);
	assert_null(perfev_data_writer__new(pfd[1], &o));
	assert_int_equal(errno, ESPIPE);
	assert_non_null(strstr(perfev_last_error(), "opts.pipe"));
	close(pfd[0]);
	close(pfd[1]);
	int afd = open(tpath("append.data"), O_WRONLY | O_CREAT | O_APPEND, 0644);
	assert_null(perfev_data_writer__new(afd, &o));
	assert_non_null(strstr(perfev_last_error(), "O_APPEND"));
	close(afd);

	w = perfev_data_writer__new(fd, &o);
	assert_non_null(w);
	/* calls out of order */
	expect_error(perfev_data_writer__write(w, junk, 8), EINVAL, "before start");
	expect_error(perfev_data_writer__finish(w), EINVAL, "before start");
	expect_error(perfev_data_writer__start(w), EINVAL, "no event");
	/* attrs, names, ids */
	expect_error(perfev_data_writer__add_attr(w, NULL, ids, 1, "x"), EINVAL, "attr is NULL");
	expect_error(perfev_data_writer__add_attr(w, &a, ids, 1, NULL), EINVAL, "NULL");
	expect_error(perfev_data_writer__add_attr(w, &a, ids, 1, ""), EINVAL, "empty");
	memset(longname, 'n', sizeof(longname) - 1);
	longname[sizeof(longname) - 1] = '\0';
	expect_error(perfev_data_writer__add_attr(w, &a, ids, 1, longname), ENAMETOOLONG, "4095");
	expect_error(perfev_data_writer__add_attr(w, &a, NULL, 1, "x"), EINVAL, "ids is NULL");
	a.size = 10;
	expect_error(perfev_data_writer__add_attr(w, &a, ids, 1, "x"), EINVAL, "attr.size 10");
	a.size = sizeof(a);
	/* groups must fit the events and come in order */
	assert_int_equal(perfev_data_writer__add_attr(w, &a, ids, 1, "ev-a"), 0);
	expect_error(perfev_data_writer__add_group(w, "g", 0, 2), EINVAL, "does not fit");
	/* build ids */
	expect_error(perfev_data_writer__add_build_id(w, 1, PERF_RECORD_MISC_USER, bid, 21, "/x"),
		     EINVAL, "1 to 20 bytes");
	expect_error(perfev_data_writer__add_build_id(w, 1, PERF_RECORD_MISC_USER, bid, 0, "/x"),
		     EINVAL, "1 to 20 bytes");
	expect_error(perfev_data_writer__add_build_id(w, 1, 3, bid, 20, "/x"), EINVAL, "cpumode");
	expect_error(perfev_data_writer__add_build_id(w, 1, PERF_RECORD_MISC_USER, bid, 20, NULL),
		     EINVAL, "NULL");
	/* the same build id twice is kept once */
	assert_int_equal(perfev_data_writer__add_build_id(w, 1, PERF_RECORD_MISC_USER, bid, 20, "/x"), 0);
	assert_int_equal(perfev_data_writer__add_build_id(w, 1, PERF_RECORD_MISC_USER, bid, 20, "/x"), 0);
	/* two events with an id in common, or ids perf cannot find */
	assert_int_equal(perfev_data_writer__add_attr(w, &b, ids + 0, 1, "ev-b"), 0);
	expect_error(perfev_data_writer__start(w), EINVAL, "id 1 is given twice");
	perfev_data_writer__delete(w);

	w = perfev_data_writer__new(fd, &o);
	b.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_ID;
	assert_int_equal(perfev_data_writer__add_attr(w, &a, ids, 1, "ev-a"), 0);
	assert_int_equal(perfev_data_writer__add_attr(w, &b, ids + 1, 1, "ev-b"), 0);
	assert_int_equal(perfev_data_writer__add_group(w, NULL, 0, 1), 0);
	expect_error(perfev_data_writer__add_group(w, "g2", 0, 2), EINVAL, "in order");
	expect_error(perfev_data_writer__start(w), EINVAL, "PERF_SAMPLE_IDENTIFIER");
	perfev_data_writer__delete(w);

	/* records: whole ones only */
	w = perfev_data_writer__new(fd, &o);
	assert_int_equal(perfev_data_writer__add_attr(w, &a, ids, 1, "ev-a"), 0);
	assert_int_equal(perfev_data_writer__start(w), 0);
	expect_error(perfev_data_writer__add_attr(w, &a, ids + 1, 1, "late"), EINVAL, "after start");
	expect_error(perfev_data_writer__write(w, junk, 5), EINVAL, "not a whole record");
	junk[6] = 4; /* header.size 4 */
	expect_error(perfev_data_writer__write(w, junk, 16), EINVAL, "size 4");
	junk[6] = 24;
	expect_error(perfev_data_writer__write(w, junk, 16), EINVAL, "size 24");
	junk[6] = junk[14] = 8;
	assert_int_equal(perfev_data_writer__write(w, junk, 16), 0); /* two empty records */
	assert_int_equal(perfev_data_writer__data_bytes(w), 16);
	assert_int_equal(perfev_data_writer__finish(w), 0);
	expect_error(perfev_data_writer__finish(w), EINVAL, "twice");
	expect_error(perfev_data_writer__write(w, junk, 8), EINVAL, "after finish");
	perfev_data_writer__delete(w);
	perfev_data_writer__delete(NULL);
	close(fd);
}

/* ---- write errors ---- */

struct fail_report {
	int ret;	 /* the failing call's return */
	unsigned rounds; /* rounds completed before it */
	int finish_ret;
	char msg[512];
};

/*
 * Runs in a child, so it stays clear of cmocka's asserts on the writer's
 * results: writes rounds of per_round samples until a call fails, then
 * finish(), and tells the parent through fd out.
 */
static void write_until_failure(struct perfev_data_writer *w, unsigned per_round, int out)
{
	struct fail_report rep = { 0 };
	unsigned i = 0;

	rep.ret = perfev_data_writer__start(w);
	while (!rep.ret && rep.rounds < 100000) {
		struct stream s = { 0 };

		if (i == 0) {
			put_comm(&s, 101);
			put_mmap2(&s, 101);
		}
		for (unsigned k = 0; k < per_round; k++, i++)
			put_sample(&s, i, false);
		rep.ret = perfev_data_writer__write(w, s.p, s.len);
		free(s.p);
		if (!rep.ret)
			rep.ret = perfev_data_writer__finished_round(w);
		if (!rep.ret)
			rep.rounds++;
	}
	snprintf(rep.msg, sizeof(rep.msg), "%s", perfev_last_error());
	rep.finish_ret = perfev_data_writer__finish(w);
	_exit(write(out, &rep, sizeof(rep)) == sizeof(rep) ? 0 : 2);
}

/* Writes path until a failure, in a child with fsize_limit (0: none) as RLIMIT_FSIZE. */
static void fail_in_child(const char *path, unsigned per_round, int level, rlim_t fsize_limit,
			  struct fail_report *rep)
{
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644), pfd[2], st;
	struct cfg c = { .per_round = per_round, .level = level };
	struct perfev_data_writer *w;
	pid_t pid;

	assert_true(fd >= 0);
	w = new_writer(fd, &c);
	assert_int_equal(pipe(pfd), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		struct rlimit rl = { fsize_limit, fsize_limit };

		close(pfd[0]);
		/* The kernel sends SIGXFSZ first; ignored, the write returns EFBIG. */
		signal(SIGXFSZ, SIG_IGN);
		if (fsize_limit && setrlimit(RLIMIT_FSIZE, &rl) < 0)
			_exit(3);
		write_until_failure(w, per_round, pfd[1]);
	}
	close(pfd[1]);
	assert_int_equal(read(pfd[0], rep, sizeof(*rep)), sizeof(*rep));
	close(pfd[0]);
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	perfev_data_writer__delete(w);
	close(fd);
}

/* The file a failed writer left: its header covers the completed rounds, which perf reads. */
static void check_truncated_file(const char *path, const struct fail_report *rep, unsigned per_round,
				 bool compressed)
{
	uint64_t bits[4];
	struct counts cnt;
	size_t len;
	char *p = slurp(path, &len);

	print_message("failed after %u rounds: %s\n", rep->rounds, rep->msg);
	assert_non_null(strstr(rep->msg, "cannot write perf.data at offset "));
	assert_int_equal(rep->finish_ret, rep->ret);
	count_records(p + u64_at(p, 40), check_file_header(p, len, bits, NULL, NULL), &cnt);
	/* compressed samples are counted by perf below */
	assert_int_equal(cnt.samples, compressed ? 0 : rep->rounds * per_round);
	assert_true(compressed ? cnt.compressed >= rep->rounds : !cnt.compressed);
	assert_int_equal(cnt.rounds, rep->rounds);
	free(p);
	if (have_perf()) {
		char args[PATH_MAX + 64], *out, *err;
		unsigned lines = 0;

		snprintf(args, sizeof(args), "script -i '%s' -F ip", path);
		assert_int_equal(perf(args, &out, &err), 0);
		assert_perf_clean(err);
		for (char *q = out; (q = strchr(q, '\n')); q++)
			lines++;
		assert_int_equal(lines, rep->rounds * per_round);
		free(out);
		free(err);
	}
}

static void test_write_error_efbig(void **state)
{
	struct fail_report rep;

	(void)state;
	for (int level = 0; level <= 1; level++) {
		fail_in_child(tpath("efbig.data"), 100, level, 40000, &rep);
		assert_int_equal(rep.ret, -EFBIG);
		assert_non_null(strstr(rep.msg, "ulimit -f"));
		assert_true(rep.rounds > 0);
		check_truncated_file(tpath("efbig.data"), &rep, 100, level);
	}
}

/* A small tmpfs that fills up: ENOSPC. */
static void test_write_error_enospc(void **state)
{
	char mnt[128], file[256], copy[256], cmd[1024];
	struct fail_report rep;
	int cp;

	(void)state;
	snprintf(mnt, sizeof(mnt), "%s/tiny", tmpdir);
	assert_int_equal(mkdir(mnt, 0755), 0);
	if (mount("perfev-pdw", mnt, "tmpfs", 0, "size=64k") < 0) {
		print_message("skip: cannot mount a tmpfs here (%s)\n", strerror(errno));
		rmdir(mnt);
		skip();
	}
	snprintf(file, sizeof(file), "%s/full.data", mnt);
	fail_in_child(file, 200, 0, 0, &rep);
	snprintf(copy, sizeof(copy), "%s/enospc.data", tmpdir);
	snprintf(cmd, sizeof(cmd), "cp '%s' '%s'", file, copy);
	cp = system(cmd);
	assert_int_equal(umount(mnt), 0);
	rmdir(mnt);
	assert_int_equal(cp, 0);
	assert_int_equal(rep.ret, -ENOSPC);
	assert_non_null(strstr(rep.msg, "file system is full"));
	check_truncated_file(copy, &rep, 200, false);
}

/* A pipe writer on a full device fails at once, naming the offset. */
static void test_write_error_pipe(void **state)
{
	struct perfev_data_writer_opts o = { .sz = sizeof(o), .pipe = true };
	struct perf_event_attr a = make_attr(PERF_COUNT_SW_CPU_CLOCK);
	int fd = open("/dev/full", O_WRONLY);
	struct perfev_data_writer *w;
	unsigned char rec[8] = { 0, 0, 0, 0, 0, 0, 8, 0 };

	(void)state;
	if (fd < 0) {
		print_message("skip: no /dev/full\n");
		skip();
	}
	w = perfev_data_writer__new(fd, &o);
	assert_non_null(w);
	assert_int_equal(perfev_data_writer__add_attr(w, &a, NULL, 0, "ev"), 0);
	expect_error(perfev_data_writer__start(w), ENOSPC, "offset 0 of the pipe");
	/* and every later call says so again */
	expect_error(perfev_data_writer__write(w, rec, 8), ENOSPC, "offset 0 of the pipe");
	expect_error(perfev_data_writer__finish(w), ENOSPC, "file system is full");
	perfev_data_writer__delete(w);
	close(fd);
}

/* ---- read back by perf ---- */

static void expect_stat(const char *out, const char *what, unsigned n)
{
	char pat[64];
	const char *p;

	snprintf(pat, sizeof(pat), "%s events:", what);
	p = strstr(out, pat);
	if (!p)
		fail_msg("perf report -D shows no \"%s\"", pat);
	assert_int_equal(strtoul(p + strlen(pat), NULL, 10), n);
}

static void report_counts(const char *path, unsigned samples, unsigned rounds)
{
	char args[PATH_MAX + 64], *out, *err;

	snprintf(args, sizeof(args), "report -D -i '%s'", path);
	assert_int_equal(perf(args, &out, &err), 0);
	assert_perf_clean(err);
	expect_stat(out, "TOTAL", samples + rounds + 2);
	expect_stat(out, "SAMPLE", samples);
	expect_stat(out, "COMM", 1);
	expect_stat(out, "MMAP2", 1);
	expect_stat(out, "FINISHED_ROUND", rounds);
	free(out);
	free(err);
}

static void test_perf_report_counts(void **state)
{
	struct cfg c = { .rounds = 3, .per_round = 50, .trailing = 4 };

	(void)state;
	NEED_PERF();
	write_file(tpath("report.data"), &c, NULL);
	report_counts(tpath("report.data"), 154, 3);
}

/* perf script -F comm,pid,tid,ip,sym: one line per sample, as written. */
static void check_script(const char *out, unsigned n)
{
	const char *line = out;
	unsigned i = 0;

	for (; *line; i++) {
		char comm[64], sym[128];
		unsigned pid, tid;
		unsigned long long ip;

		if (sscanf(line, " %63s %u/%u %llx %127s", comm, &pid, &tid, &ip, sym) != 5)
			fail_msg("perf script line %u: %.80s", i, line);
		assert_true(i < n);
		assert_string_equal(comm, COMM);
		assert_int_equal(pid, PID);
		assert_int_equal(tid, PID);
		assert_int_equal(ip, sample_ip(i));
		assert_string_equal(sym, funcs[i % 3].name);
		line = strchr(line, '\n');
		assert_non_null(line);
		line++;
	}
	assert_int_equal(i, n);
}

static char *script(const char *path, const char *fields)
{
	char args[PATH_MAX + 128], *out, *err;

	snprintf(args, sizeof(args), "script -i '%s' -F %s", path, fields);
	assert_int_equal(perf(args, &out, &err), 0);
	assert_perf_clean(err);
	free(err);
	return out;
}

static void test_perf_script_samples(void **state)
{
	struct cfg c = { .rounds = 2, .per_round = 30 };
	char *out;

	(void)state;
	NEED_PERF();
	write_file(tpath("script.data"), &c, NULL);
	out = script(tpath("script.data"), "comm,pid,tid,ip,sym");
	check_script(out, 60);
	free(out);
}

/* perf's CPUDESC: the first "model name" with runs of spaces squashed. */
static void cpudesc(char *out, size_t size)
{
	char *info = slurp("/proc/cpuinfo", NULL), *p = strstr(info, "model name"), *o = out;

	*out = '\0';
	if (p && (p = strchr(p, ':'))) {
		for (p++; *p == ' ' || *p == '\t'; p++)
			;
		for (; *p && *p != '\n' && (size_t)(o - out) + 1 < size; p++) {
			if (isspace((unsigned char)*p) && o > out && o[-1] == ' ')
				continue;
			*o++ = isspace((unsigned char)*p) ? ' ' : *p;
		}
		*o = '\0';
	}
	free(info);
}

static void expect_line(const char *out, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void test_perf_header(void **state)
{
	struct cfg c = { .two = true, .rounds = 1, .per_round = 4 };
	char args[PATH_MAX + 64], *out, *err, want[PATH_MAX + 64], desc[256];
	struct utsname u;

	(void)state;
	NEED_PERF();
	write_file(tpath("header.data"), &c, NULL);
	snprintf(args, sizeof(args), "report --header-only -i '%s'", tpath("header.data"));
	assert_int_equal(perf(args, &out, &err), 0);
	assert_perf_clean(err);
	assert_int_equal(uname(&u), 0);
	expect_line(out, "# hostname : %s\n", u.nodename);
	expect_line(out, "# os release : %s\n", u.release);
	expect_line(out, "# perf version : perfev %s\n", perfev_version());
	expect_line(out, "# arch : %s\n", u.machine);
	expect_line(out, "# nrcpus online : %ld\n", sysconf(_SC_NPROCESSORS_ONLN));
	expect_line(out, "# nrcpus avail : ");
	cpudesc(desc, sizeof(desc));
	if (*desc)
		expect_line(out, "# cpudesc : %s\n", desc);
	expect_line(out, "# total memory : ");
	expect_line(out, "# cmdline : perfev record -o pdw.data -- true \n");
	expect_line(out, "# event : name = pdw-clock-a, , id = { 101, 102 }");
	expect_line(out, "# event : name = pdw-clock-b, , id = { 201 }");
	expect_line(out, "# group: pdw-group{pdw-clock-a,pdw-clock-b}");
	free(out);
	free(err);

	snprintf(args, sizeof(args), "buildid-list -i '%s'", tpath("header.data"));
	assert_int_equal(perf(args, &out, &err), 0);
	assert_non_null(strstr(out, "deadbeef0102030405060708090a0b0c0d0e0f10 [kernel.kallsyms]"));
	if (exe_build_id_size) {
		char hex[41] = "";

		for (size_t i = 0; i < exe_build_id_size; i++)
			sprintf(hex + 2 * i, "%02x", exe_build_id[i]);
		snprintf(want, sizeof(want), "%s %s", hex, exe);
		if (!strstr(out, want))
			fail_msg("buildid-list lacks \"%s\":\n%s", want, out);
	}
	free(out);
	free(err);
}

static void expect_line(const char *out, const char *fmt, ...)
{
	char want[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(want, sizeof(want), fmt, ap);
	va_end(ap);
	if (!strstr(out, want))
		fail_msg("perf report --header-only lacks \"%s\":\n%s", want, out);
}

/* Two events told apart by PERF_SAMPLE_IDENTIFIER, named by EVENT_DESC. */
static void test_perf_two_events(void **state)
{
	struct cfg c = { .two = true, .rounds = 2, .per_round = 10 };
	unsigned i = 0;
	char *out, *line;

	(void)state;
	NEED_PERF();
	write_file(tpath("two.data"), &c, NULL);
	out = script(tpath("two.data"), "event,ip,sym");
	for (line = out; *line; i++) {
		char ev[64], sym[128];
		unsigned long long ip;

		if (sscanf(line, " %63[^:]: %llx %127s", ev, &ip, sym) != 3)
			fail_msg("perf script line %u: %.80s", i, line);
		assert_string_equal(ev, sample_id(i, true) == 101 ? "pdw-clock-a" : "pdw-clock-b");
		assert_int_equal(ip, sample_ip(i));
		assert_string_equal(sym, funcs[i % 3].name);
		line = strchr(line, '\n') + 1;
	}
	assert_int_equal(i, 20);
	free(out);
}

/* perf reading from a real pipe while the writer writes into it. */
static void pipe_to_perf(const struct cfg *c, const char *perf_args, char **out)
{
	char cmd[2 * PATH_MAX];
	struct perfev_data_writer *w;
	FILE *f;
	char *err;

	snprintf(cmd, sizeof(cmd), "perf %s >'%s' 2>'%s'", perf_args, tpath("pipe.out"),
		 tpath("pipe.err"));
	f = popen(cmd, "w");
	assert_non_null(f);
	w = new_writer(fileno(f), c);
	write_rounds(w, c, NULL);
	assert_int_equal(perfev_data_writer__finish(w), 0);
	perfev_data_writer__delete(w);
	assert_int_equal(pclose(f), 0);
	*out = slurp(tpath("pipe.out"), NULL);
	err = slurp(tpath("pipe.err"), NULL);
	assert_perf_clean(err);
	free(err);
}

static void test_perf_pipe(void **state)
{
	struct cfg c = { .pipe = true, .two = true, .rounds = 3, .per_round = 20 };
	char *out;

	(void)state;
	NEED_PERF();
	pipe_to_perf(&c, "script -i - -F comm,pid,tid,ip,sym", &out);
	check_script(out, 60);
	free(out);
	c.level = 1;
	pipe_to_perf(&c, "script -i - -F comm,pid,tid,ip,sym", &out);
	check_script(out, 60);
	free(out);
	c.level = 0;
	pipe_to_perf(&c, "report -D -i -", &out);
	expect_stat(out, "SAMPLE", 60);
	expect_stat(out, "FINISHED_ROUND", 3);
	free(out);
}

static void test_perf_compressed(void **state)
{
	struct cfg c = { .two = true, .rounds = 4, .per_round = 3000, .trailing = 5 };
	char args[PATH_MAX + 64], *plain, *packed, *out, *err;
	struct stat a, b;

	(void)state;
	NEED_PERF();
	write_file(tpath("plain.data"), &c, NULL);
	c.level = 1;
	write_file(tpath("packed.data"), &c, NULL);
	assert_int_equal(stat(tpath("plain.data"), &a), 0);
	assert_int_equal(stat(tpath("packed.data"), &b), 0);
	print_message("uncompressed %lld bytes, compressed %lld\n", (long long)a.st_size,
		      (long long)b.st_size);
	assert_true(b.st_size < a.st_size / 4);
	plain = script(tpath("plain.data"), "event,comm,pid,tid,time,ip,sym,period");
	packed = script(tpath("packed.data"), "event,comm,pid,tid,time,ip,sym,period");
	assert_int_equal(strlen(plain), strlen(packed));
	assert_string_equal(plain, packed);
	free(plain);
	free(packed);

	snprintf(args, sizeof(args), "report --header-only -i '%s'", tpath("packed.data"));
	assert_int_equal(perf(args, &out, &err), 0);
	expect_line(out, "# compressed : Zstd, level = 1, ratio = ");
	free(out);
	free(err);
}

/*
 * A writer killed mid-round: perf reads the rounds it completed.  The
 * child only writes (no cmocka asserts there) and dies by SIGKILL.
 */
static void test_perf_killed(void **state)
{
	static const int levels[] = { 0, 1 };

	(void)state;
	NEED_PERF();
	for (size_t l = 0; l < 2; l++) {
		char path[PATH_MAX];
		struct cfg c = { .level = levels[l], .per_round = 25 };
		int fd, st;
		struct perfev_data_writer *w;
		struct stream s[3] = { { 0 } };
		unsigned lines = 0, i = 0;
		pid_t pid;
		char *out;

		snprintf(path, sizeof(path), "%s", tpath(levels[l] ? "killed-z.data" : "killed.data"));
		fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
		assert_true(fd >= 0);
		put_comm(&s[0], 101);
		put_mmap2(&s[0], 101);
		for (unsigned r = 0; r < 3; r++)
			for (unsigned k = 0; k < (r < 2 ? 25u : 13u); k++, i++)
				put_sample(&s[r], i, false);
		w = new_writer(fd, &c);
		assert_int_equal(perfev_data_writer__start(w), 0);
		pid = fork();
		assert_true(pid >= 0);
		if (pid == 0) {
			for (unsigned r = 0; r < 3; r++) {
				if (perfev_data_writer__write(w, s[r].p, s[r].len) < 0)
					_exit(4);
				if (r < 2 && perfev_data_writer__finished_round(w) < 0)
					_exit(4);
			}
			raise(SIGKILL);
		}
		assert_int_equal(waitpid(pid, &st, 0), pid);
		assert_true(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL);
		perfev_data_writer__delete(w);
		close(fd);
		for (unsigned r = 0; r < 3; r++)
			free(s[r].p);
		out = script(path, "comm,pid,tid,ip,sym");
		for (char *q = out; (q = strchr(q, '\n')); q++)
			lines++;
		assert_int_equal(lines, 50);
		check_script(out, 50);
		free(out);
		if (!levels[l])
			report_counts(path, 50, 2);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_file_layout),
		cmocka_unit_test(test_unfinished_layout),
		cmocka_unit_test(test_header_sync_interval),
		cmocka_unit_test(test_pipe_layout),
		cmocka_unit_test(test_pipe_late_build_id),
		cmocka_unit_test(test_compressed_layout),
		cmocka_unit_test(test_bad_input),
		cmocka_unit_test(test_write_error_efbig),
		cmocka_unit_test(test_write_error_enospc),
		cmocka_unit_test(test_write_error_pipe),
		cmocka_unit_test(test_perf_report_counts),
		cmocka_unit_test(test_perf_script_samples),
		cmocka_unit_test(test_perf_header),
		cmocka_unit_test(test_perf_two_events),
		cmocka_unit_test(test_perf_pipe),
		cmocka_unit_test(test_perf_compressed),
		cmocka_unit_test(test_perf_killed),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
