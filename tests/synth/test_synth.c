/*
 * Synthesis from /proc (checked against this process, readelf and
 * /proc/kallsyms), the maps line parser, and build ids of real files and of
 * hand-built ELF images, well-formed and not.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "perfev/perfev.h"
#include "synth/synth_int.h"
#include "util/internal.h"

static const struct perfev_sample_fmt fmt_std = {
	.sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_IP,
	.sample_id_all = true,
};

/* ---- collecting records ---- */

struct recs {
	const struct perfev_sample_fmt *fmt;
	unsigned char *buf;
	size_t len, cap, n;
	int stop_after; /* return 7 after that many records; 0: never */
};

static int collect(const void *rec, size_t size, void *ctx)
{
	struct recs *r = ctx;
	struct perfev_record pr;

	/* Every record decodes with the fmt it was made for, whole and 8-byte sized. */
	assert_int_equal(size % 8, 0);
	assert_int_equal(perfev_record__parse(r->fmt, rec, size, &pr), 0);
	assert_int_equal(pr.size, size);
	assert_int_equal(pr.has_sample_id, r->fmt->sample_id_all);
	if (pr.has_sample_id) {
		assert_int_equal(pr.sample_id.identifier, 0);
		assert_int_equal(pr.sample_id.id, 0);
	}
	if (r->len + size > r->cap) {
		r->cap = (r->len + size) * 2;
		r->buf = realloc(r->buf, r->cap);
		assert_non_null(r->buf);
	}
	memcpy(r->buf + r->len, rec, size);
	r->len += size;
	r->n++;
	return r->stop_after && r->n >= (size_t)r->stop_after ? 7 : 0;
}

/* Walks the collected records: *off starts at 0. */
static bool next_rec(const struct recs *r, size_t *off, struct perfev_record *out)
{
	if (*off >= r->len)
		return false;
	assert_int_equal(perfev_record__parse(r->fmt, r->buf + *off, r->len - *off, out), 0);
	*off += out->size;
	return true;
}

static void recs_free(struct recs *r)
{
	free(r->buf);
	memset(r, 0, sizeof(*r));
}

static void hex(const uint8_t *id, size_t n, char *out)
{
	for (size_t i = 0; i < n; i++)
		sprintf(out + 2 * i, "%02x", id[i]);
	out[2 * n] = '\0';
}

/* The build id readelf -n reports for path, as hex; false when it reports none. */
static bool readelf_build_id(const char *path, char *out, size_t size)
{
	char cmd[PATH_MAX + 64], line[512];
	bool found = false;
	FILE *p;

	snprintf(cmd, sizeof(cmd), "readelf -n '%s' 2>/dev/null", path);
	p = popen(cmd, "r");
	assert_non_null(p);
	while (fgets(line, sizeof(line), p)) {
		char *b = strstr(line, "Build ID: ");

		if (b && !found) {
			snprintf(out, size, "%s", b + 10);
			out[strcspn(out, " \n")] = '\0';
			found = true;
		}
	}
	pclose(p);
	return found;
}

/* ---- perfev_sample_id__size ---- */

static void test_sample_id_size(void **state)
{
	static const uint64_t trailer_bits[] = { PERF_SAMPLE_TID, PERF_SAMPLE_TIME, PERF_SAMPLE_ID,
						 PERF_SAMPLE_STREAM_ID, PERF_SAMPLE_CPU,
						 PERF_SAMPLE_IDENTIFIER };
	struct perfev_sample_fmt f = { .sample_type = ~0ull & PERFEV_SAMPLE_KNOWN };
	uint64_t all = 0;

	(void)state;
	assert_int_equal(perfev_sample_id__size(NULL), 0);
	assert_int_equal(perfev_sample_id__size(&f), 0); /* no sample_id_all */
	f.sample_id_all = true;
	for (size_t i = 0; i < sizeof(trailer_bits) / sizeof(trailer_bits[0]); i++) {
		f.sample_type = trailer_bits[i];
		assert_int_equal(perfev_sample_id__size(&f), 8);
		all |= trailer_bits[i];
	}
	f.sample_type = all;
	assert_int_equal(perfev_sample_id__size(&f), 48);
	/* Sample-only fields do not go in the trailer. */
	f.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_PERIOD | PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_ADDR;
	assert_int_equal(perfev_sample_id__size(&f), 0);
	assert_int_equal(perfev_sample_id__size(&fmt_std), 24);
}

/* ---- one process: this one ---- */

static pthread_mutex_t probe_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t probe_cond = PTHREAD_COND_INITIALIZER;
static pid_t probe_tid;
static bool probe_exit;

static void *probe_main(void *arg)
{
	(void)arg;
	pthread_setname_np(pthread_self(), "synth-probe");
	pthread_mutex_lock(&probe_lock);
	probe_tid = (pid_t)syscall(SYS_gettid);
	pthread_cond_broadcast(&probe_cond);
	while (!probe_exit)
		pthread_cond_wait(&probe_cond, &probe_lock);
	pthread_mutex_unlock(&probe_lock);
	return NULL;
}

static pthread_t probe_start(void)
{
	pthread_t t;

	probe_exit = false;
	probe_tid = 0;
	assert_int_equal(pthread_create(&t, NULL, probe_main, NULL), 0);
	pthread_mutex_lock(&probe_lock);
	while (!probe_tid)
		pthread_cond_wait(&probe_cond, &probe_lock);
	pthread_mutex_unlock(&probe_lock);
	return t;
}

static void probe_stop(pthread_t t)
{
	pthread_mutex_lock(&probe_lock);
	probe_exit = true;
	pthread_cond_broadcast(&probe_cond);
	pthread_mutex_unlock(&probe_lock);
	pthread_join(t, NULL);
}

/* The MMAP2 of an executable mapping whose filename satisfies match; NULL if none. */
static bool find_mmap2(const struct recs *r, bool (*match)(const char *, const void *),
		       const void *arg, struct perfev_record *out)
{
	size_t off = 0;

	while (next_rec(r, &off, out))
		if (out->type == PERF_RECORD_MMAP2 && match(out->mmap2.filename, arg))
			return true;
	return false;
}

static bool name_is(const char *name, const void *arg)
{
	return !strcmp(name, arg);
}

static bool name_has(const char *name, const void *arg)
{
	return strstr(name, arg) != NULL;
}

static void check_build_id(const struct perfev_record *rec, const char *path)
{
	char want[128], got[64];

	assert_true(rec->misc & PERF_RECORD_MISC_MMAP_BUILD_ID);
	assert_true(readelf_build_id(path, want, sizeof(want)));
	hex(rec->mmap2.build_id, rec->mmap2.build_id_size, got);
	assert_string_equal(got, want);
	/* The three reserved bytes between size and id are zero. */
	{
		const unsigned char *b = (const unsigned char *)rec->data + 8 + 32;

		assert_int_equal(b[1] | b[2] | b[3], 0);
	}
}

static void test_process_self(void **state)
{
	struct recs r = { .fmt = &fmt_std };
	struct perfev_record rec;
	pthread_t t = probe_start();
	char exe[PATH_MAX];
	size_t off = 0, comms = 0, forks = 0, mmaps = 0, threads = 0;
	bool probe_comm = false, leader_fork = false;
	ssize_t n;
	DIR *d;
	struct dirent *de;

	(void)state;
	assert_int_equal(perfev_synth__process(&fmt_std, getpid(), collect, &r), 0);

	while (next_rec(&r, &off, &rec)) {
		switch (rec.type) {
		case PERF_RECORD_COMM:
			comms++;
			assert_int_equal(rec.comm.pid, getpid());
			assert_int_equal(rec.misc, 0);
			if (rec.comm.tid == (uint32_t)probe_tid) {
				assert_string_equal(rec.comm.comm, "synth-probe");
				probe_comm = true;
			}
			break;
		case PERF_RECORD_FORK:
			forks++;
			assert_int_equal(rec.task.pid, getpid());
			assert_int_equal(rec.misc, PERF_RECORD_MISC_FORK_EXEC);
			/* The leader hangs off our parent, the other threads off the leader. */
			if (rec.task.tid == (uint32_t)getpid()) {
				assert_int_equal(rec.task.ppid, getppid());
				leader_fork = true;
			} else {
				assert_int_equal(rec.task.ppid, getpid());
			}
			assert_int_equal(rec.task.ptid, rec.task.ppid);
			assert_int_equal(mmaps, 0); /* threads first, then maps */
			break;
		case PERF_RECORD_MMAP2:
			mmaps++;
			assert_int_equal(rec.mmap2.pid, getpid());
			assert_int_equal(rec.mmap2.tid, getpid());
			assert_true(rec.mmap2.prot & PROT_EXEC);
			assert_int_equal(rec.misc & PERF_RECORD_MISC_CPUMODE_MASK, PERF_RECORD_MISC_USER);
			assert_false(rec.misc & PERF_RECORD_MISC_PROC_MAP_PARSE_TIMEOUT);
			break;
		default:
			fail_msg("unexpected record type %u", rec.type);
		}
	}
	/* A COMM and a FORK for every thread of /proc/self/task. */
	d = opendir("/proc/self/task");
	assert_non_null(d);
	while ((de = readdir(d)))
		threads += de->d_name[0] != '.';
	closedir(d);
	assert_int_equal(comms, threads);
	assert_int_equal(forks, threads);
	assert_true(threads >= 2);
	assert_true(probe_comm);
	assert_true(leader_fork);

	/* The test binary's text, with readelf's build id. */
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	assert_true(n > 0);
	exe[n] = '\0';
	assert_true(find_mmap2(&r, name_is, exe, &rec));
	check_build_id(&rec, exe);
	assert_int_equal(rec.mmap2.flags, MAP_PRIVATE);
	/* libc, found by its path in the record. */
	assert_true(find_mmap2(&r, name_has, "/libc.so", &rec));
	check_build_id(&rec, rec.mmap2.filename);
	/* [vdso] as perf writes it: by name, no file, no build id. */
	assert_true(find_mmap2(&r, name_is, "[vdso]", &rec));
	assert_false(rec.misc & PERF_RECORD_MISC_MMAP_BUILD_ID);
	assert_int_equal(rec.mmap2.ino, 0);
	print_message("self: %zu threads, %zu MMAP2, %zu records\n", threads, mmaps, r.n);
	probe_stop(t);
	recs_free(&r);
}

/* Other layouts of the trailer: none, and every field of it. */
static void test_process_formats(void **state)
{
	struct perfev_sample_fmt none = { .sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID };
	struct perfev_sample_fmt full = {
		.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID |
			       PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU | PERF_SAMPLE_IDENTIFIER,
		.sample_id_all = true,
	};
	struct recs a = { .fmt = &none }, b = { .fmt = &full };

	(void)state;
	assert_int_equal(perfev_synth__process(&none, getpid(), collect, &a), 0);
	assert_int_equal(perfev_synth__process(&full, getpid(), collect, &b), 0);
	assert_int_equal(a.n, b.n);
	assert_int_equal(b.len - a.len, 48 * a.n);
	recs_free(&a);
	recs_free(&b);
}

static void test_process_stop_and_errors(void **state)
{
	struct recs r = { .fmt = &fmt_std, .stop_after = 1 };
	pid_t child;
	int status;

	(void)state;
	/* The callback's value stops the walk and comes back as is. */
	assert_int_equal(perfev_synth__process(&fmt_std, getpid(), collect, &r), 7);
	assert_int_equal(r.n, 1);
	r.n = 0;
	r.stop_after = 3;
	assert_int_equal(perfev_synth__all(&fmt_std, collect, &r), 7);
	assert_int_equal(r.n, 3);
	recs_free(&r);

	/* A process that is gone: -ESRCH, nothing emitted. */
	r = (struct recs){ .fmt = &fmt_std };
	child = fork();
	assert_true(child >= 0);
	if (!child)
		_exit(0);
	assert_int_equal(waitpid(child, &status, 0), child);
	assert_int_equal(perfev_synth__process(&fmt_std, child, collect, &r), -ESRCH);
	assert_int_equal(r.n, 0);
	assert_non_null(strstr(perfev_last_error(), "does not exist"));

	assert_int_equal(perfev_synth__process(&fmt_std, 0, collect, &r), -EINVAL);
	assert_int_equal(perfev_synth__process(NULL, getpid(), collect, &r), -EINVAL);
	assert_int_equal(perfev_synth__process(&fmt_std, getpid(), NULL, &r), -EINVAL);
	assert_int_equal(perfev_synth__all(&fmt_std, NULL, &r), -EINVAL);
	assert_int_equal(perfev_synth__kernel(NULL, collect, &r), -EINVAL);
	recs_free(&r);
}

/* A thread's id stands for its whole process. */
static void test_process_by_tid(void **state)
{
	struct recs r = { .fmt = &fmt_std };
	struct perfev_record rec;
	pthread_t t = probe_start();
	size_t off = 0, leader = 0;

	(void)state;
	assert_int_equal(perfev_synth__process(&fmt_std, probe_tid, collect, &r), 0);
	while (next_rec(&r, &off, &rec)) {
		if (rec.type == PERF_RECORD_COMM) {
			assert_int_equal(rec.comm.pid, getpid());
			leader += rec.comm.tid == (uint32_t)getpid();
		}
	}
	assert_int_equal(leader, 1);
	probe_stop(t);
	recs_free(&r);
}

static void *map_exec(const char *path)
{
	int fd = open(path, O_RDONLY);
	void *p;

	assert_true(fd >= 0);
	p = mmap(NULL, 4096, PROT_READ | PROT_EXEC, MAP_PRIVATE, fd, 0);
	assert_true(p != MAP_FAILED);
	close(fd);
	return p;
}

/* In a child with its own mount namespace: 0 when path's MMAP2 has build id want. */
static int replaced_child(const char *path, const char *other, const char *want)
{
	struct recs r = { .fmt = &fmt_std };
	struct perfev_record rec;
	size_t off = 0;
	char got[64];

	if (unshare(CLONE_NEWNS) || mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL))
		return 77;
	map_exec(path);
	/* From here the path names another file, as in a container seen from outside. */
	if (mount(other, path, NULL, MS_BIND, NULL))
		return 77;
	if (perfev_synth__process(&fmt_std, getpid(), collect, &r))
		return 1;
	while (next_rec(&r, &off, &rec)) {
		if (rec.type != PERF_RECORD_MMAP2 || strcmp(rec.mmap2.filename, path))
			continue;
		if (!(rec.misc & PERF_RECORD_MISC_MMAP_BUILD_ID))
			return 2;
		hex(rec.mmap2.build_id, rec.mmap2.build_id_size, got);
		return strcmp(got, want) ? 3 : 0;
	}
	return 4;
}

/*
 * A mapped file that was deleted, and one whose path names another file
 * by now: the build id must be the mapped file's, read through
 * /proc/PID/map_files, never the path's.
 */
static void test_process_deleted_and_replaced(void **state)
{
	char dir[] = "/tmp/perfev-synth-XXXXXX", a[64], b[64], c[64], want[128], got[64], cmd[256];
	struct recs r = { .fmt = &fmt_std };
	struct perfev_record rec;
	int status;
	void *ma;
	pid_t child;

	(void)state;
	if (geteuid() != 0) {
		print_message("skip: /proc/PID/map_files needs root\n");
		skip();
	}
	assert_non_null(mkdtemp(dir));
	snprintf(a, sizeof(a), "%s/deleted", dir);
	snprintf(b, sizeof(b), "%s/replaced", dir);
	snprintf(c, sizeof(c), "%s/other", dir);
	snprintf(cmd, sizeof(cmd), "cp /bin/true %s && cp /bin/true %s && cp /proc/%d/exe %s", a, b,
		 getpid(), c);
	assert_int_equal(system(cmd), 0);
	assert_true(readelf_build_id("/bin/true", want, sizeof(want)));

	ma = map_exec(a);
	assert_int_equal(unlink(a), 0);
	assert_int_equal(perfev_synth__process(&fmt_std, getpid(), collect, &r), 0);
	snprintf(cmd, sizeof(cmd), "%s (deleted)", a);
	assert_true(find_mmap2(&r, name_is, cmd, &rec));
	assert_true(rec.misc & PERF_RECORD_MISC_MMAP_BUILD_ID);
	hex(rec.mmap2.build_id, rec.mmap2.build_id_size, got);
	assert_string_equal(got, want);
	munmap(ma, 4096);

	child = fork();
	assert_true(child >= 0);
	if (!child)
		_exit(replaced_child(b, c, want));
	assert_int_equal(waitpid(child, &status, 0), child);
	assert_true(WIFEXITED(status));
	if (WEXITSTATUS(status) == 77)
		print_message("no mount namespace here: the replaced-path case was not run\n");
	else
		assert_int_equal(WEXITSTATUS(status), 0);

	unlink(b);
	unlink(c);
	rmdir(dir);
	recs_free(&r);
}

/* ---- every process ---- */

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static void test_all(void **state)
{
	struct recs r = { .fmt = &fmt_std };
	struct perfev_record rec;
	size_t off = 0, procs = 0, threads = 0, mmaps = 0, with_id = 0;
	bool init = false, self = false;
	double t0, t1, best = 1e9;

	(void)state;
	for (int i = 0; i < 3; i++) {
		r.len = r.n = 0;
		t0 = now_ms();
		assert_int_equal(perfev_synth__all(&fmt_std, collect, &r), 0);
		t1 = now_ms() - t0;
		best = t1 < best ? t1 : best;
	}
	while (next_rec(&r, &off, &rec)) {
		if (rec.type == PERF_RECORD_COMM) {
			threads++;
			procs += rec.comm.pid == rec.comm.tid;
			init |= rec.comm.pid == 1 && rec.comm.tid == 1;
			self |= rec.comm.pid == (uint32_t)getpid() && rec.comm.tid == (uint32_t)getpid();
		} else if (rec.type == PERF_RECORD_MMAP2) {
			mmaps++;
			with_id += !!(rec.misc & PERF_RECORD_MISC_MMAP_BUILD_ID);
		}
	}
	assert_true(init);
	assert_true(self);
	print_message("synth__all: %zu processes, %zu threads, %zu MMAP2 (%zu with build id), "
		      "%zu records, %zu bytes in %.2f ms (best of 3)\n",
		      procs, threads, mmaps, with_id, r.n, r.len, best);
	recs_free(&r);
}

/* ---- the kernel ---- */

static uint64_t kallsyms_text(void)
{
	char line[1024];
	uint64_t addr = 0;
	FILE *f = fopen("/proc/kallsyms", "r");

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		char name[512], type;
		unsigned long long a;

		if (sscanf(line, "%llx %c %511s", &a, &type, name) == 3 && !strcmp(name, "_text")) {
			addr = a;
			break;
		}
	}
	fclose(f);
	return addr;
}

static void test_kernel_live(void **state)
{
	struct recs r = { .fmt = &fmt_std };
	struct perfev_record rec;
	uint64_t text = kallsyms_text();
	size_t off = 0, modules = 0, lines = 0;
	char line[512];
	FILE *f;

	(void)state;
	if (!text) {
		print_message("skip: /proc/kallsyms hides _text here (kptr_restrict)\n");
		skip();
	}
	assert_int_equal(perfev_synth__kernel(&fmt_std, collect, &r), 0);
	assert_true(next_rec(&r, &off, &rec));
	assert_int_equal(rec.type, PERF_RECORD_MMAP);
	assert_int_equal(rec.misc, PERF_RECORD_MISC_KERNEL);
	assert_int_equal(rec.mmap.pid, 0xffffffffu);
	assert_int_equal(rec.mmap.tid, 0);
	assert_string_equal(rec.mmap.filename, "[kernel.kallsyms]_text");
	assert_int_equal(rec.mmap.addr, text);
	assert_int_equal(rec.mmap.pgoff, text);
	assert_int_equal(rec.mmap.len, ~0ull - text);
	while (next_rec(&r, &off, &rec)) {
		assert_int_equal(rec.type, PERF_RECORD_MMAP);
		assert_int_equal(rec.misc, PERF_RECORD_MISC_KERNEL);
		modules++;
	}
	f = fopen("/proc/modules", "r");
	if (f) {
		while (fgets(line, sizeof(line), f))
			lines++;
		fclose(f);
	}
	assert_int_equal(modules, lines);
	print_message("kernel: _text at 0x%llx, %zu modules\n", (unsigned long long)text, modules);
	recs_free(&r);
}

/* A fake root for /proc, /sys and /lib/modules. */
static char fake_root[64];

static void put_file(const char *rel, const char *text)
{
	char path[256], cmd[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", fake_root, rel);
	snprintf(cmd, sizeof(cmd), "mkdir -p \"$(dirname '%s')\"", path);
	assert_int_equal(system(cmd), 0);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void rm_file(const char *rel)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/%s", fake_root, rel);
	unlink(path);
}

static int fake_setup(void **state)
{
	(void)state;
	snprintf(fake_root, sizeof(fake_root), "/tmp/perfev-root-XXXXXX");
	assert_non_null(mkdtemp(fake_root));
	sys_root__set(fake_root);
	return 0;
}

static int fake_teardown(void **state)
{
	char cmd[128];

	(void)state;
	sys_root__set(NULL);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", fake_root);
	return system(cmd);
}

static const char kallsyms_head[] = "0000000000000000 A fixed_percpu_data\n"
				    "0000000000000000 A __per_cpu_start\n";

static void test_kernel_fixture(void **state)
{
	struct recs r = { .fmt = &fmt_std };
	struct perfev_record rec;
	size_t off = 0;
	char *big;

	(void)state;
	/* Hidden: _text reads as 0, and the error says why and what to do. */
	put_file("proc/sys/kernel/kptr_restrict", "1\n");
	put_file("proc/kallsyms", "0000000000000000 A fixed_percpu_data\n"
				  "0000000000000000 T _stext\n"
				  "0000000000000000 T _text\n"
				  "0000000000000000 T startup_64\n");
	assert_int_equal(perfev_synth__kernel(&fmt_std, collect, &r), -EACCES);
	assert_non_null(strstr(perfev_last_error(), "kernel.kptr_restrict is 1, which shows kernel addresses only to processes with CAP_SYSLOG"));
	assert_int_equal(r.n, 0);

	/* Visible, with two modules: one named by its file in modules.dep, one not. */
	put_file("proc/kallsyms", "0000000000000000 A fixed_percpu_data\n"
				  "ffffffffa1000000 T _stext\n"
				  "ffffffffa1000000 T _text\n"
				  "ffffffffc0002000 t helper\t[fs_one]\n");
	put_file("proc/modules", "bar 8192 0 - Live 0xffffffffc0010000\n"
				 "\n"
				 "fs_one 16384 1 - Live 0xffffffffc0002000 (OE)\n");
	put_file("proc/sys/kernel/osrelease", "6.0.0-test\n");
	put_file("lib/modules/6.0.0-test/modules.dep",
		 "kernel/fs/other.ko.zst:\n"
		 "\n"
		 "kernel/fs/fs-one.ko.zst: kernel/fs/other.ko.zst\n");
	assert_int_equal(perfev_synth__kernel(&fmt_std, collect, &r), 0);
	assert_int_equal(r.n, 3);
	assert_true(next_rec(&r, &off, &rec));
	assert_string_equal(rec.mmap.filename, "[kernel.kallsyms]_text");
	assert_int_equal(rec.mmap.addr, 0xffffffffa1000000ull);
	assert_int_equal(rec.mmap.len, ~0ull - 0xffffffffa1000000ull);
	/* Modules follow in address order. */
	assert_true(next_rec(&r, &off, &rec));
	assert_int_equal(rec.type, PERF_RECORD_MMAP);
	assert_int_equal(rec.misc, PERF_RECORD_MISC_KERNEL);
	assert_int_equal(rec.mmap.pid, 0xffffffffu);
	assert_string_equal(rec.mmap.filename, "/lib/modules/6.0.0-test/kernel/fs/fs-one.ko.zst");
	assert_int_equal(rec.mmap.addr, 0xffffffffc0002000ull);
	assert_int_equal(rec.mmap.len, 16384);
	assert_int_equal(rec.mmap.pgoff, 0);
	assert_true(next_rec(&r, &off, &rec));
	assert_string_equal(rec.mmap.filename, "[bar]");
	assert_int_equal(rec.mmap.addr, 0xffffffffc0010000ull);
	assert_int_equal(rec.mmap.len, 8192);
	recs_free(&r);

	/* A module address hidden. */
	r = (struct recs){ .fmt = &fmt_std };
	put_file("proc/modules", "bar 8192 0 - Live 0x0000000000000000\n");
	assert_int_equal(perfev_synth__kernel(&fmt_std, collect, &r), -EACCES);
	assert_non_null(strstr(perfev_last_error(), "kptr_restrict"));
	put_file("proc/modules", "bar 8192 0 -\n");
	assert_int_equal(perfev_synth__kernel(&fmt_std, collect, &r), -PERFEV_ERR_FORMAT);
	assert_non_null(strstr(perfev_last_error(), "line 1"));
	put_file("proc/modules", "bar 8x92 0 - Live 0xffffffffc0010000\n");
	assert_int_equal(perfev_synth__kernel(&fmt_std, collect, &r), -PERFEV_ERR_FORMAT);
	assert_non_null(strstr(perfev_last_error(), "size"));
	/* No /proc/modules: a kernel without modules, only its own map. */
	rm_file("proc/modules");
	r.n = r.len = 0;
	assert_int_equal(perfev_synth__kernel(&fmt_std, collect, &r), 0);
	assert_int_equal(r.n, 1);

	/* _stext when there is no _text, with no newline at the end. */
	put_file("proc/kallsyms", "ffffffffa1000000 T _stext");
	r.n = r.len = 0;
	off = 0;
	assert_int_equal(perfev_synth__kernel(&fmt_std, collect, &r), 0);
	assert_true(next_rec(&r, &off, &rec));
	assert_string_equal(rec.mmap.filename, "[kernel.kallsyms]_stext");
	/* Neither. */
	put_file("proc/kallsyms", kallsyms_head);
	assert_int_equal(perfev_synth__kernel(&fmt_std, collect, &r), -ENOENT);
	assert_non_null(strstr(perfev_last_error(), "_text"));
	/* Malformed lines. */
	put_file("proc/kallsyms", "ffffffffa1000000 T\n");
	assert_int_equal(perfev_synth__kernel(&fmt_std, collect, &r), -PERFEV_ERR_FORMAT);
	assert_non_null(strstr(perfev_last_error(), "line 1"));
	put_file("proc/kallsyms", "0000000000000000 A a\nxyz T _text\n");
	assert_int_equal(perfev_synth__kernel(&fmt_std, collect, &r), -PERFEV_ERR_FORMAT);
	assert_non_null(strstr(perfev_last_error(), "line 2"));
	/* _text far past the first read, across chunk boundaries. */
	big = malloc(300000);
	assert_non_null(big);
	big[0] = '\0';
	for (size_t len = 0; len < 250000;)
		len += (size_t)sprintf(big + len, "0000000000000000 A per_cpu_symbol_%zu\n", len);
	strcat(big, "ffffffffb2000000 T _text\n");
	put_file("proc/kallsyms", big);
	free(big);
	r.n = r.len = 0;
	off = 0;
	assert_int_equal(perfev_synth__kernel(&fmt_std, collect, &r), 0);
	assert_true(next_rec(&r, &off, &rec));
	assert_int_equal(rec.mmap.addr, 0xffffffffb2000000ull);
	/* A line longer than any symbol's. */
	big = malloc(4096);
	assert_non_null(big);
	memset(big, 'a', 4000);
	strcpy(big + 4000, "\n");
	put_file("proc/kallsyms", big);
	free(big);
	assert_int_equal(perfev_synth__kernel(&fmt_std, collect, &r), -PERFEV_ERR_FORMAT);
	assert_non_null(strstr(perfev_last_error(), "longer"));
	/* No kallsyms at all. */
	rm_file("proc/kallsyms");
	assert_int_equal(perfev_synth__kernel(&fmt_std, collect, &r), -ENOENT);
	assert_non_null(strstr(perfev_last_error(), "CONFIG_KALLSYMS"));
	recs_free(&r);
}

/* ---- /proc/PID/maps lines ---- */

/* Parses a copy of exactly len bytes, so ASan catches any read past them. */
static int parse_exact(const char *line, size_t len, struct perfev_proc_map *m)
{
	char *copy = malloc(len ? len : 1);
	int ret;

	assert_non_null(copy);
	memcpy(copy, line, len);
	ret = perfev_proc_map__parse(copy, len, m);
	if (!ret && m->path_len) {
		/* The path points into the line: check it there, then free. */
		assert_true(m->path >= copy && m->path + m->path_len <= copy + len);
		m->path = line + (m->path - copy);
	}
	free(copy);
	return ret;
}

static void map_ok(const char *line, uint64_t start, uint64_t end, uint32_t prot, uint32_t flags,
		   uint64_t pgoff, uint32_t maj, uint32_t min, uint64_t ino, const char *path)
{
	struct perfev_proc_map m;

	if (parse_exact(line, strlen(line), &m))
		fail_msg("'%s': %s", line, perfev_last_error());
	assert_int_equal(m.start, start);
	assert_int_equal(m.end, end);
	assert_int_equal(m.prot, prot);
	assert_int_equal(m.flags, flags);
	assert_int_equal(m.pgoff, pgoff);
	assert_int_equal(m.maj, maj);
	assert_int_equal(m.min, min);
	assert_int_equal(m.ino, ino);
	assert_int_equal(m.path_len, strlen(path));
	assert_memory_equal(m.path, path, m.path_len);
}

static void map_bad(const char *line, size_t len, const char *column)
{
	struct perfev_proc_map m;
	char want[64];

	if (parse_exact(line, len, &m) != -PERFEV_ERR_FORMAT)
		fail_msg("'%.*s' parsed", (int)len, line);
	snprintf(want, sizeof(want), "column %s", column);
	if (!strstr(perfev_last_error(), want))
		fail_msg("'%.*s': '%s' does not name %s", (int)len, line, perfev_last_error(), want);
}

static void test_proc_map_good(void **state)
{
	const uint32_t rx = PROT_READ | PROT_EXEC, rw = PROT_READ | PROT_WRITE;

	(void)state;
	map_ok("55d0c4a00000-55d0c4a28000 r-xp 00002000 fd:01 1234567                    /usr/bin/cat\n",
	       0x55d0c4a00000, 0x55d0c4a28000, rx, MAP_PRIVATE, 0x2000, 0xfd, 1, 1234567,
	       "/usr/bin/cat");
	/* Anonymous: the kernel ends the inode with a space; also without one. */
	map_ok("7ffd1c9e0000-7ffd1ca01000 rw-p 00000000 00:00 0 \n", 0x7ffd1c9e0000,
	       0x7ffd1ca01000, rw, MAP_PRIVATE, 0, 0, 0, 0, "");
	map_ok("7ffd1c9e0000-7ffd1ca01000 rw-p 00000000 00:00 0", 0x7ffd1c9e0000, 0x7ffd1ca01000,
	       rw, MAP_PRIVATE, 0, 0, 0, 0, "");
	map_ok("00400000-00401000 rwxs 00001000 08:02 99   /tmp/x (deleted)", 0x400000, 0x401000,
	       rx | PROT_WRITE, MAP_SHARED, 0x1000, 8, 2, 99, "/tmp/x (deleted)");
	map_ok("7fff5b3fe000-7fff5b400000 r-xp 00000000 00:00 0                          [vdso]",
	       0x7fff5b3fe000, 0x7fff5b400000, rx, MAP_PRIVATE, 0, 0, 0, 0, "[vdso]");
	map_ok("ffffffffff600000-ffffffffff601000 --xp 00000000 00:00 0                  [vsyscall]\n",
	       0xffffffffff600000ull, 0xffffffffff601000ull, PROT_EXEC, MAP_PRIVATE, 0, 0, 0, 0,
	       "[vsyscall]");
	map_ok("7ffc00000000-7ffc00021000 rw-p 00000000 00:00 0 [stack]", 0x7ffc00000000,
	       0x7ffc00021000, rw, MAP_PRIVATE, 0, 0, 0, 0, "[stack]");
	/* Spaces inside a path are the path's; uppercase hex and long minors are fine. */
	map_ok("1000-2000 ---p 0 103:A0f 18446744073709551615 /tmp/a b  c ", 0x1000, 0x2000, 0,
	       MAP_PRIVATE, 0, 0x103, 0xa0f, UINT64_MAX, "/tmp/a b  c ");
}

static void test_proc_map_bad(void **state)
{
	static const struct {
		const char *line, *column;
	} bad[] = {
		{ "", "start" },
		{ "zz-2000 r-xp 0 0:0 0", "start" },
		{ "1000 2000 r-xp 0 0:0 0", "start" },
		{ "10000000000000000-2000 r-xp 0 0:0 0", "start" },
		{ "1000-x r-xp 0 0:0 0", "end" },
		{ "1000-2000r-xp 0 0:0 0", "end" },
		{ "2000-1000 r-xp 0 0:0 0", "end" },
		{ "2000-2000 r-xp 0 0:0 0", "end" },
		{ "1000-2000 r-x 0 0:0 0", "perms" },
		{ "1000-2000 r-xpp 0 0:0 0", "perms" },
		{ "1000-2000 rwxq 0 0:0 0", "perms" },
		{ "1000-2000 xwrp 0 0:0 0", "perms" },
		{ "1000-2000 r-xp zz 0:0 0", "offset" },
		{ "1000-2000 r-xp 0  0:0 0", "dev (major)" },
		{ "1000-2000 r-xp 0 fd01 0", "dev (major)" },
		{ "1000-2000 r-xp 0 fd:zz 0", "dev (minor)" },
		{ "1000-2000 r-xp 0 fd:123456789 0", "dev (minor)" },
		{ "1000-2000 r-xp 0 fd:01 12a /x", "inode" },
		{ "1000-2000 r-xp 0 fd:01 ", "inode" },
		{ "1000-2000 r-xp 0 fd:01 99999999999999999999 /x", "inode" },
	};
	static const char full[] = "55d0c4a00000-55d0c4a28000 r-xp 00002000 fd:01 1234567   /usr/bin/cat";
	const size_t ino_at = strlen("55d0c4a00000-55d0c4a28000 r-xp 00002000 fd:01 ");
	struct perfev_proc_map m;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		map_bad(bad[i].line, strlen(bad[i].line), bad[i].column);
	/* A NUL in the path, a newline before the end. */
	map_bad("1000-2000 r-xp 0 fd:01 1 /a\0b", 29, "path");
	assert_int_equal(parse_exact("1000-2000 r-xp 0 0:0 0\n/x\n", 26, &m), -PERFEV_ERR_FORMAT);
	assert_non_null(strstr(perfev_last_error(), "newline"));
	assert_int_equal(perfev_proc_map__parse(NULL, 0, &m), -EINVAL);

	/*
	 * Truncated anywhere before the inode: an error naming the column it
	 * stopped in.  From the inode on, a shorter line is a valid one (a
	 * smaller inode, a shorter path), and it must parse without reading
	 * past its end.
	 */
	for (size_t len = 0; len < sizeof(full) - 1; len++) {
		int ret = parse_exact(full, len, &m);

		if (len < ino_at + 1) {
			assert_int_equal(ret, -PERFEV_ERR_FORMAT);
			assert_non_null(strstr(perfev_last_error(), "column "));
		} else {
			assert_int_equal(ret, 0);
		}
	}
}

/* ---- build ids ---- */

static const uint8_t want_id[20] = { 0xde, 0xad, 0xbe, 0xef, 1, 2, 3, 4, 5, 6,
				     7, 8, 9, 10, 11, 12, 13, 14, 15, 16 };

struct img {
	uint8_t b[512];
	size_t n;
	bool big, is64;
};

static void w16(struct img *m, size_t off, uint16_t v)
{
	m->b[off + (m->big ? 0 : 1)] = (uint8_t)(v >> 8);
	m->b[off + (m->big ? 1 : 0)] = (uint8_t)v;
}

static void w32(struct img *m, size_t off, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		m->b[off + (size_t)(m->big ? 3 - i : i)] = (uint8_t)(v >> (8 * i));
}

static void w64(struct img *m, size_t off, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		m->b[off + (size_t)(m->big ? 7 - i : i)] = (uint8_t)(v >> (8 * i));
}

static void waddr(struct img *m, size_t off, uint64_t v)
{
	if (m->is64)
		w64(m, off, v);
	else
		w32(m, off, (uint32_t)v);
}

/* A note at off: namesz 4 "GNU", type, desc of descsz bytes (want_id first); its end. */
static size_t put_note(struct img *m, size_t off, uint32_t type, uint32_t descsz, size_t align)
{
	w32(m, off, 4);
	w32(m, off + 4, descsz);
	w32(m, off + 8, type);
	memcpy(m->b + off + 12, "GNU", 4);
	off += 16; /* 12 + 4: aligned to 4 and to 8 */
	for (uint32_t i = 0; i < descsz; i++)
		m->b[off + i] = i < 20 ? want_id[i] : 0xee;
	return (off + descsz + align - 1) & ~(align - 1);
}

/* Field offsets of the headers, by class. */
#define EH_PHOFF(m) ((m)->is64 ? 32u : 28u)
#define EH_PHENTSIZE(m) ((m)->is64 ? 54u : 42u)
#define PH_SIZE(m) ((m)->is64 ? 56u : 32u)
#define EH_SIZE(m) ((m)->is64 ? 64u : 52u)

static void put_ehdr(struct img *m, uint64_t phoff, uint16_t phnum, uint64_t shoff, uint16_t shnum)
{
	memcpy(m->b, "\177ELF", 4);
	m->b[4] = m->is64 ? 2 : 1;
	m->b[5] = m->big ? 2 : 1;
	m->b[6] = 1;
	w16(m, 16, 2);	/* ET_EXEC */
	w16(m, 18, 62); /* EM_X86_64, whatever */
	w32(m, 20, 1);
	waddr(m, EH_PHOFF(m), phoff);
	waddr(m, EH_PHOFF(m) + (m->is64 ? 8 : 4), shoff);
	w16(m, EH_PHENTSIZE(m) - 2, (uint16_t)EH_SIZE(m));
	w16(m, EH_PHENTSIZE(m), phnum ? (uint16_t)PH_SIZE(m) : 0);
	w16(m, EH_PHENTSIZE(m) + 2, phnum);
	w16(m, EH_PHENTSIZE(m) + 4, shnum ? (m->is64 ? 64 : 40) : 0);
	w16(m, EH_PHENTSIZE(m) + 6, shnum);
}

static void put_phdr(struct img *m, size_t off, uint32_t type, uint64_t foff, uint64_t size,
		     uint64_t align)
{
	w32(m, off, type);
	if (m->is64) {
		w64(m, off + 8, foff);
		w64(m, off + 32, size);
		w64(m, off + 40, size);
		w64(m, off + 48, align);
	} else {
		w32(m, off + 4, (uint32_t)foff);
		w32(m, off + 16, (uint32_t)size);
		w32(m, off + 20, (uint32_t)size);
		w32(m, off + 28, (uint32_t)align);
	}
}

/* The minimal image: ELF header, one PT_NOTE, the build-id note. */
static void minimal(struct img *m, bool is64, bool big)
{
	size_t notes;

	memset(m, 0, sizeof(*m));
	m->is64 = is64;
	m->big = big;
	notes = EH_SIZE(m) + PH_SIZE(m);
	put_ehdr(m, EH_SIZE(m), 1, 0, 0);
	m->n = put_note(m, notes, 3, 20, 4);
	put_phdr(m, EH_SIZE(m), 4, notes, m->n - notes, 4);
}

static void id_ok(const struct img *m)
{
	uint8_t id[20];
	void *copy = malloc(m->n);

	assert_non_null(copy);
	memcpy(copy, m->b, m->n);
	if (perfev_build_id__from_mem(copy, m->n, id, sizeof(id)) != 20)
		fail_msg("%s", perfev_last_error());
	assert_memory_equal(id, want_id, 20);
	free(copy);
}

static void id_bad(const struct img *m, size_t n, int err, const char *msg)
{
	uint8_t id[20];
	void *copy = malloc(n ? n : 1);
	int ret;

	assert_non_null(copy);
	memcpy(copy, m->b, n);
	ret = perfev_build_id__from_mem(copy, n, id, sizeof(id));
	free(copy);
	if (ret != err)
		fail_msg("got %d (%s), want %d", ret, perfev_last_error(), err);
	if (msg && !strstr(perfev_last_error(), msg))
		fail_msg("'%s' does not say '%s'", perfev_last_error(), msg);
}

static void test_build_id_images(void **state)
{
	struct img m;
	uint8_t id[20];
	size_t off;

	(void)state;
	/* Both classes, both byte orders. */
	for (int is64 = 0; is64 < 2; is64++) {
		for (int big = 0; big < 2; big++) {
			minimal(&m, is64, big);
			id_ok(&m);
			/* Cut anywhere: an error, never a read past the end. */
			for (size_t n = 0; n < m.n; n++)
				id_bad(&m, n, -PERFEV_ERR_FORMAT, NULL);
		}
	}

	minimal(&m, true, false);
	/* descsz past the end */
	w32(&m, 120 + 4, 200);
	id_bad(&m, m.n, -PERFEV_ERR_FORMAT, "descsz 200 passes the end");
	/* namesz so large that padding it would overflow 32 bits */
	minimal(&m, true, false);
	w32(&m, 120, 0xffffffff);
	id_bad(&m, m.n, -PERFEV_ERR_FORMAT, "namesz 4294967295 passes the end");
	/* phoff past the end */
	minimal(&m, true, false);
	w64(&m, 32, 4096);
	id_bad(&m, m.n, -PERFEV_ERR_FORMAT, "program header table");
	/* phoff + phnum * phentsize wrapping around 64 bits */
	w64(&m, 32, UINT64_MAX - 16);
	id_bad(&m, m.n, -PERFEV_ERR_FORMAT, "passes the end");
	/* phnum * phentsize past the end (65535 entries of 65535 bytes) */
	minimal(&m, true, false);
	w16(&m, 54, 0xffff);
	w16(&m, 56, 0xfffe);
	id_bad(&m, m.n, -PERFEV_ERR_FORMAT, "program header table");
	/* phentsize too small for a program header */
	minimal(&m, true, false);
	w16(&m, 54, 8);
	id_bad(&m, m.n, -PERFEV_ERR_FORMAT, "entries of 8 bytes");
	/* PT_NOTE's data past the end, in 32-bit big-endian */
	minimal(&m, false, true);
	w32(&m, 52 + 4, 0x10000);
	id_bad(&m, m.n, -PERFEV_ERR_FORMAT, "PT_NOTE of program header 0");
	/* An empty build id; one too large for the buffer */
	minimal(&m, true, false);
	w32(&m, 120 + 4, 0);
	id_bad(&m, m.n, -PERFEV_ERR_FORMAT, "empty");
	minimal(&m, true, false);
	assert_int_equal(perfev_build_id__from_mem(m.b, m.n, id, 16), -ENOSPC);
	/* Not ELF at all; bad class, encoding, version */
	id_bad(&(struct img){ .b = "hello, world, not ELF" }, 21, -PERFEV_ERR_FORMAT, "not an ELF file");
	id_bad(&(struct img){ .b = "\177ELF" }, 4, -PERFEV_ERR_FORMAT, "ELF identification");
	minimal(&m, true, false);
	m.b[4] = 3;
	id_bad(&m, m.n, -PERFEV_ERR_FORMAT, "class");
	minimal(&m, true, false);
	m.b[5] = 0;
	id_bad(&m, m.n, -PERFEV_ERR_FORMAT, "encoding");
	minimal(&m, true, false);
	m.b[6] = 2;
	id_bad(&m, m.n, -PERFEV_ERR_FORMAT, "version");
	/* A note of another type only: no build id */
	minimal(&m, true, false);
	w32(&m, 120 + 8, 1);
	id_bad(&m, m.n, -ENOENT, "no NT_GNU_BUILD_ID");
	/* Owner other than GNU */
	minimal(&m, true, false);
	memcpy(m.b + 120 + 12, "GO\0", 4);
	id_bad(&m, m.n, -ENOENT, NULL);

	/*
	 * Two PT_NOTEs as x86-64 binaries have them: an 8-aligned one with
	 * .note.gnu.property, then the build id; and one 8-aligned segment
	 * holding both, where the property's padding is to 8.
	 */
	memset(&m, 0, sizeof(m));
	m.is64 = true;
	put_ehdr(&m, 64, 2, 0, 0);
	off = put_note(&m, 176, 5, 12, 8);
	put_phdr(&m, 64, 4, 176, off - 176, 8);
	m.n = put_note(&m, off, 3, 20, 4);
	put_phdr(&m, 64 + 56, 4, off, m.n - off, 4);
	id_ok(&m);
	put_phdr(&m, 64, 4, 176, m.n - 176, 8);
	put_phdr(&m, 64 + 56, 1, 0, 0, 0); /* PT_LOAD: not a note */
	id_ok(&m);
	/* The same with 4-byte padding read as 8 would misplace the id: it must not match. */
	memset(&m, 0, sizeof(m));
	m.is64 = true;
	put_ehdr(&m, 64, 1, 0, 0);
	off = put_note(&m, 120, 5, 12, 4);
	m.n = put_note(&m, off, 3, 20, 4);
	put_phdr(&m, 64, 4, 120, m.n - 120, 4);
	id_ok(&m);

	/* No program headers: the SHT_NOTE section, in both classes. */
	for (int is64 = 0; is64 < 2; is64++) {
		size_t sh, shsize;

		memset(&m, 0, sizeof(m));
		m.is64 = is64;
		shsize = is64 ? 64 : 40;
		sh = EH_SIZE(&m);
		put_ehdr(&m, 0, 0, sh, 2);
		off = put_note(&m, sh + 2 * shsize, 3, 20, 4);
		/* section 1: SHT_NOTE at sh + 2 * shsize */
		w32(&m, sh + shsize + 4, 7);
		waddr(&m, sh + shsize + (is64 ? 24 : 16), sh + 2 * shsize);
		waddr(&m, sh + shsize + (is64 ? 32 : 20), off - (sh + 2 * shsize));
		waddr(&m, sh + shsize + (is64 ? 48 : 32), 4);
		m.n = off;
		id_ok(&m);
		/* its offset past the end */
		waddr(&m, sh + shsize + (is64 ? 24 : 16), 0x7fffff00);
		id_bad(&m, m.n, -PERFEV_ERR_FORMAT, "SHT_NOTE section 1");
		/* shnum past the end */
		waddr(&m, sh + shsize + (is64 ? 24 : 16), sh + 2 * shsize);
		w16(&m, EH_PHENTSIZE(&m) + 6, 500);
		id_bad(&m, m.n, -PERFEV_ERR_FORMAT, "section header table");
	}
	assert_int_equal(perfev_build_id__from_mem(NULL, 0, id, 20), -EINVAL);
}

static void file_id_matches_readelf(const char *path)
{
	char want[128], got[64];
	uint8_t id[20];
	int n = perfev_build_id__read(path, id, sizeof(id));

	if (n < 0)
		fail_msg("%s: %s", path, perfev_last_error());
	assert_true(readelf_build_id(path, want, sizeof(want)));
	hex(id, (size_t)n, got);
	assert_string_equal(got, want);
}

static void test_build_id_files(void **state)
{
	char exe[PATH_MAX], dir[] = "/tmp/perfev-bid-XXXXXX", path[64];
	struct img m;
	uint8_t id[20], *big;
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	FILE *f;

	(void)state;
	assert_true(n > 0);
	exe[n] = '\0';
	file_id_matches_readelf(exe);
	file_id_matches_readelf("/bin/true");

	/* The hand-built image from a file, then with its note 100 KB in (past the first read). */
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/img", dir);
	minimal(&m, true, true);
	f = fopen(path, "w");
	assert_non_null(f);
	fwrite(m.b, 1, m.n, f);
	fclose(f);
	assert_int_equal(perfev_build_id__read(path, id, sizeof(id)), 20);
	assert_memory_equal(id, want_id, 20);

	big = calloc(1, 100000 + 64);
	assert_non_null(big);
	memcpy(big, m.b, 120);
	memcpy(big + 100000, m.b + 120, m.n - 120);
	m.n = 120;
	put_phdr(&m, 64, 4, 100000, 36, 4);
	memcpy(big, m.b, 120);
	f = fopen(path, "w");
	assert_non_null(f);
	fwrite(big, 1, 100000 + 36, f);
	fclose(f);
	assert_int_equal(perfev_build_id__from_mem(big, 100000 + 36, id, sizeof(id)), 20);
	assert_int_equal(perfev_build_id__read(path, id, sizeof(id)), 20);
	assert_memory_equal(id, want_id, 20);
	/* The same file cut short: the note passes its end. */
	assert_int_equal(truncate(path, 100000 + 20), 0);
	assert_int_equal(perfev_build_id__read(path, id, sizeof(id)), -PERFEV_ERR_FORMAT);
	assert_non_null(strstr(perfev_last_error(), path));
	free(big);
	unlink(path);
	rmdir(dir);

	assert_int_equal(perfev_build_id__read("/nonexistent/x", id, sizeof(id)), -ENOENT);
	assert_non_null(strstr(perfev_last_error(), "/nonexistent/x"));
	assert_int_equal(perfev_build_id__read("/", id, sizeof(id)), -PERFEV_ERR_FORMAT);
	assert_non_null(strstr(perfev_last_error(), "regular file"));
}

static void test_build_id_notes(void **state)
{
	struct img m = { 0 };
	uint8_t id[20];
	size_t off;

	(void)state;
	m.big = __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__;
	/* As /sys/kernel/notes: Xen-like note, the build id, another note. */
	w32(&m, 0, 4);
	w32(&m, 4, 8);
	w32(&m, 8, 0x12);
	memcpy(m.b + 12, "Xen", 4);
	off = put_note(&m, 24, 3, 20, 4);
	m.n = put_note(&m, off, 6, 4, 4);
	assert_int_equal(perfev_build_id__from_notes(m.b, m.n, id, sizeof(id)), 20);
	assert_memory_equal(id, want_id, 20);
	/* cut before the build id's end; descsz past the end; none at all */
	assert_int_equal(perfev_build_id__from_notes(m.b, 50, id, sizeof(id)), -PERFEV_ERR_FORMAT);
	w32(&m, 24 + 4, 1000);
	assert_int_equal(perfev_build_id__from_notes(m.b, m.n, id, sizeof(id)), -PERFEV_ERR_FORMAT);
	assert_non_null(strstr(perfev_last_error(), "descsz 1000"));
	assert_int_equal(perfev_build_id__from_notes(m.b, 24, id, sizeof(id)), -ENOENT);
	assert_int_equal(perfev_build_id__from_notes(m.b, 0, id, sizeof(id)), -ENOENT);
}

static void test_build_id_kernel(void **state)
{
	char want[128] = "", got[64], line[256];
	uint8_t id[20];
	int n = perfev_build_id__kernel(id, sizeof(id));
	FILE *p;

	(void)state;
	if (n < 0) {
		print_message("skip: %s\n", perfev_last_error());
		skip();
	}
	hex(id, (size_t)n, got);
	p = popen("perf buildid-list -k 2>/dev/null", "r");
	if (p) {
		if (fgets(line, sizeof(line), p))
			snprintf(want, sizeof(want), "%.*s", (int)strcspn(line, " \n"), line);
		pclose(p);
	}
	print_message("kernel build id %s (perf buildid-list -k: %s)\n", got, want[0] ? want : "n/a");
	if (want[0])
		assert_string_equal(got, want);
}

static void test_build_id_kernel_fixture(void **state)
{
	struct img m = { 0 };
	uint8_t id[20];
	char path[128];
	FILE *f;

	(void)state;
	m.big = __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__;
	m.n = put_note(&m, 0, 3, 20, 4);
	put_file("sys/kernel/notes", "");
	snprintf(path, sizeof(path), "%s/sys/kernel/notes", fake_root);
	f = fopen(path, "w");
	assert_non_null(f);
	fwrite(m.b, 1, m.n, f);
	fclose(f);
	assert_int_equal(perfev_build_id__kernel(id, sizeof(id)), 20);
	assert_memory_equal(id, want_id, 20);
	unlink(path);
	assert_int_equal(perfev_build_id__kernel(id, sizeof(id)), -ENOENT);
	assert_non_null(strstr(perfev_last_error(), "sys/kernel/notes"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sample_id_size),
		cmocka_unit_test(test_process_self),
		cmocka_unit_test(test_process_formats),
		cmocka_unit_test(test_process_stop_and_errors),
		cmocka_unit_test(test_process_by_tid),
		cmocka_unit_test(test_process_deleted_and_replaced),
		cmocka_unit_test(test_all),
		cmocka_unit_test(test_kernel_live),
		cmocka_unit_test_setup_teardown(test_kernel_fixture, fake_setup, fake_teardown),
		cmocka_unit_test(test_proc_map_good),
		cmocka_unit_test(test_proc_map_bad),
		cmocka_unit_test(test_build_id_images),
		cmocka_unit_test(test_build_id_files),
		cmocka_unit_test(test_build_id_notes),
		cmocka_unit_test(test_build_id_kernel),
		cmocka_unit_test_setup_teardown(test_build_id_kernel_fixture, fake_setup,
						fake_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
