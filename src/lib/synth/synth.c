/* SPDX-License-Identifier: MIT */
/*
 * Records for processes that existed before recording started, made up from
 * /proc the way perf synthesizes them, so that a reader can name threads
 * and resolve user addresses to files without knowing how they got there.
 *
 * Speed: on a busy machine this walks thousands of threads, so each /proc
 * file is read with as few read(2)s as its size allows (never per line), a
 * process's files are opened relative to its /proc directory (which also
 * keeps a reused pid from mixing two processes), and a file's build id is
 * read once per (device, inode) and call.
 */
#include <ctype.h>
#include <dirent.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "util/internal.h"
#include "sample/record_int.h"
#include "synth/synth_int.h"

#define PF_KTHREAD_FLAG 0x00200000u /* include/linux/sched.h: no user memory, no maps */
#define COMM_MAX 15			/* TASK_COMM_LEN - 1, what the kernel's COMM records carry */

size_t perfev_sample_id__size(const struct perfev_sample_fmt *fmt)
{
	/* The decoder's own count, so writer and reader cannot disagree. */
	return fmt ? sample_id__size(fmt) : 0;
}

int synth_out__init(struct synth_out *o, const struct perfev_sample_fmt *fmt, perfev_synth_fn_t fn,
		    void *ctx)
{
	if (!fmt || !fn)
		return set_error(EINVAL, "synthesis: no format or no callback given");
	o->fmt = fmt;
	o->id_size = sample_id__size(fmt);
	o->fn = fn;
	o->ctx = ctx;
	o->stopped = 0;
	return 0;
}

int synth__emit(struct synth_out *o, uint32_t type, uint16_t misc, const void *fixed,
		size_t fixed_len, const char *str, size_t str_len)
{
	unsigned char *p = (unsigned char *)o->rec;
	size_t pad = str ? ((str_len + 1 + 7) & ~(size_t)7) : 0;
	size_t size = sizeof(struct perf_event_header) + fixed_len + pad + o->id_size;
	struct perf_event_header h = { .type = type, .misc = misc, .size = (uint16_t)size };
	int ret;

	memcpy(p, &h, sizeof(h));
	memcpy(p + sizeof(h), fixed, fixed_len);
	p += sizeof(h) + fixed_len;
	memset(p, 0, pad + o->id_size);
	if (str)
		memcpy(p, str, str_len);
	ret = o->fn(o->rec, size, o->ctx);
	if (ret)
		o->stopped = ret;
	return ret;
}

/* ---- build ids, once per file ---- */

struct bid_slot {
	uint64_t ino;
	uint32_t maj, min;
	bool used;
	uint8_t len; /* 0: the file has no readable build id */
	uint8_t id[BUILD_ID_MAX];
};

struct synth {
	struct synth_out out;
	char *buf; /* a /proc file's contents */
	size_t cap;
	struct bid_slot *slots; /* open addressing, cap a power of 2 */
	size_t nslots, used;
};

static size_t slot_hash(uint32_t maj, uint32_t min, uint64_t ino)
{
	uint64_t h = ino * 0x9e3779b97f4a7c15ull ^ ((uint64_t)maj << 20 | min);

	return (size_t)(h ^ h >> 29);
}

static struct bid_slot *cache_slot(struct synth *st, const struct perfev_proc_map *m)
{
	size_t mask = st->nslots - 1, i = slot_hash(m->maj, m->min, m->ino) & mask;

	while (st->slots[i].used &&
	       (st->slots[i].ino != m->ino || st->slots[i].maj != m->maj || st->slots[i].min != m->min))
		i = (i + 1) & mask;
	return &st->slots[i];
}

/* Room for one more entry; false (and no cache) when memory runs out. */
static bool cache_reserve(struct synth *st)
{
	struct bid_slot *old = st->slots;
	size_t n = st->nslots;

	if (st->slots && (st->used + 1) * 4 < st->nslots * 3)
		return true;
	st->nslots = n ? n * 2 : 256;
	st->slots = calloc(st->nslots, sizeof(*st->slots));
	if (!st->slots) {
		st->slots = old;
		st->nslots = n;
		return false;
	}
	for (size_t i = 0; i < n; i++) {
		if (old[i].used) {
			struct perfev_proc_map k = { .maj = old[i].maj, .min = old[i].min,
						     .ino = old[i].ino };

			*cache_slot(st, &k) = old[i];
		}
	}
	free(old);
	return true;
}

static bool ends_with(const char *s, size_t len, const char *suffix)
{
	size_t n = strlen(suffix);

	return len >= n && !memcmp(s + len - n, suffix, n);
}

/*
 * name under dfd, opened only if it is a regular file (with inode ino, when
 * ino is not 0).  stat first: a path a process chose may name a device or
 * a FIFO by now, and merely opening those can block or have effects.
 */
static int open_regular(int dfd, const char *name, uint64_t ino)
{
	struct stat s;
	int fd;

	if (fstatat(dfd, name, &s, 0) || !S_ISREG(s.st_mode) || (ino && s.st_ino != ino))
		return -1;
	fd = openat(dfd, name, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd >= 0 && (fstat(fd, &s) || !S_ISREG(s.st_mode) || (ino && s.st_ino != ino))) {
		close(fd);
		fd = -1;
	}
	return fd;
}

/*
 * The build id of a mapping's file, 0 when it has none we can read.  The
 * path in maps is the process's view: in another mount namespace, or after
 * the file was replaced, it names a different file here.  So the file
 * found by path must have the mapping's inode (not its device: btrfs and
 * overlayfs report one in maps and another to stat), and otherwise the
 * mapping itself is opened through /proc/PID/map_files, which also reaches
 * deleted files (it needs CAP_SYS_ADMIN or CAP_CHECKPOINT_RESTORE).
 */
static int read_mapping_build_id(int pfd, const struct perfev_proc_map *m, uint8_t *id)
{
	char name[SYNTH_NAME_MAX + 1];
	int fd = -1, n;

	if (!ends_with(m->path, m->path_len, " (deleted)") && m->path_len < sizeof(name)) {
		memcpy(name, m->path, m->path_len);
		name[m->path_len] = '\0';
		fd = open_regular(AT_FDCWD, name, m->ino);
	}
	if (fd < 0) {
		snprintf(name, sizeof(name), "map_files/%llx-%llx", (unsigned long long)m->start,
			 (unsigned long long)m->end);
		fd = open_regular(pfd, name, 0);
		if (fd < 0)
			return 0;
	}
	n = build_id__read_fd(fd, name, id, BUILD_ID_MAX);
	close(fd);
	return n > 0 ? n : 0;
}

static int mapping_build_id(struct synth *st, int pfd, const struct perfev_proc_map *m, uint8_t *id)
{
	struct bid_slot *s;
	int n;

	/* Anonymous memory, [vdso], [vsyscall]: no file to read (perf does the same). */
	if (!m->ino || !m->path_len || m->path[0] != '/')
		return 0;
	if (!cache_reserve(st))
		return read_mapping_build_id(pfd, m, id);
	s = cache_slot(st, m);
	if (s->used) {
		memcpy(id, s->id, s->len);
		return s->len;
	}
	n = read_mapping_build_id(pfd, m, id);
	*s = (struct bid_slot){ .ino = m->ino, .maj = m->maj, .min = m->min, .used = true,
				.len = (uint8_t)n };
	memcpy(s->id, id, (size_t)n);
	st->used++;
	return n;
}

/* ---- reading /proc ---- */

static bool vanished(int err)
{
	return err == ENOENT || err == ESRCH;
}

/* The whole file name under dfd into st->buf; its length, or -errno. */
static ssize_t read_all(struct synth *st, int dfd, const char *name)
{
	int fd = openat(dfd, name, O_RDONLY | O_CLOEXEC);
	ssize_t len;

	if (fd < 0)
		return -errno;
	len = read_fd_all(fd, &st->buf, &st->cap);
	close(fd);
	return len;
}

/* A small file (stat, status) into buf, NUL-terminated; its length or -errno. */
static ssize_t read_small(int dfd, const char *name, char *buf, size_t size)
{
	int fd = openat(dfd, name, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	do
		n = read(fd, buf, size - 1);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		n = -errno;
	else
		buf[n] = '\0';
	close(fd);
	return n;
}

struct task_stat {
	const char *comm;
	size_t comm_len;
	uint32_t ppid;
	unsigned long flags;
};

/*
 * /proc/PID/task/TID/stat: "TID (comm) S PPID PGRP SESSION TTY TPGID FLAGS ...".
 * One file gives the name, the parent and whether it is a kernel thread;
 * the comm may hold spaces and parentheses, so it ends at the last ')'.
 */
static bool parse_stat(char *buf, size_t len, struct task_stat *ts)
{
	char *open = memchr(buf, '(', len), *close = memrchr(buf, ')', len), *p, *end;

	if (!open || !close || close < open)
		return false;
	ts->comm = open + 1;
	ts->comm_len = (size_t)(close - open - 1);
	if (ts->comm_len > COMM_MAX)
		ts->comm_len = COMM_MAX;
	p = close + 1;
	for (int field = 3; field <= 9; field++) {
		unsigned long v;

		while (*p == ' ')
			p++;
		if (field == 3) { /* the state letter */
			if (!*p)
				return false;
			p++;
			continue;
		}
		errno = 0;
		v = strtoul(p, &end, 10);
		if (end == p || errno)
			return false;
		p = end;
		if (field == 4)
			ts->ppid = (uint32_t)v;
		else if (field == 9)
			ts->flags = v;
	}
	return true;
}

static int emit_task(struct synth *st, uint32_t tgid, uint32_t tid, const struct task_stat *ts)
{
	/* Threads hang off their process, the process off its parent (as perf lays it out). */
	uint32_t parent = tid == tgid ? ts->ppid : tgid;
	struct {
		uint32_t pid, ppid, tid, ptid;
		uint64_t time;
	} fork = { tgid, parent, tid, parent, 0 };
	struct {
		uint32_t pid, tid;
	} comm = { tgid, tid };
	int ret;

	/*
	 * FORK_EXEC: the process has exec'd since, so a reader must not give
	 * it its parent's maps; the MMAP2s that follow are the whole truth.
	 */
	ret = synth__emit(&st->out, PERF_RECORD_FORK, PERF_RECORD_MISC_FORK_EXEC, &fork,
			  sizeof(fork), NULL, 0);
	if (!ret)
		ret = synth__emit(&st->out, PERF_RECORD_COMM, 0, &comm, sizeof(comm), ts->comm,
				  ts->comm_len);
	return ret;
}

/* FORK and COMM of one thread; a thread that exited meanwhile is skipped. */
static int synth_thread(struct synth *st, int pfd, uint32_t tgid, uint32_t tid, bool *leader_seen,
			bool *kthread)
{
	char name[64], buf[2048];
	struct task_stat ts = { 0 };
	ssize_t n;

	snprintf(name, sizeof(name), "task/%u/stat", tid);
	n = read_small(pfd, name, buf, sizeof(buf));
	if (n < 0 && !vanished((int)-n))
		return set_error((int)-n, "/proc/%u/%s: cannot read: %s", tgid, name,
				 strerror((int)-n));
	if (n <= 0)
		return 0;
	if (!parse_stat(buf, (size_t)n, &ts))
		return set_error(PERFEV_ERR_FORMAT, "/proc/%u/%s: not the expected layout: %.80s",
				 tgid, name, buf);
	if (tid == tgid) {
		*leader_seen = true;
		*kthread = ts.flags & PF_KTHREAD_FLAG;
	}
	return emit_task(st, tgid, tid, &ts);
}

/* The kernel's struct linux_dirent64. */
struct dent64 {
	uint64_t ino;
	int64_t off;
	unsigned short reclen;
	unsigned char type;
	char name[];
};

/*
 * FORK and COMM of each thread; *kthread says whether the process is a
 * kernel thread.  getdents64 on the descriptor rather than fdopendir(),
 * which costs an fstat and two fcntls per process for nothing.
 */
static int synth_threads(struct synth *st, int pfd, uint32_t tgid, bool *kthread)
{
	int tfd = openat(pfd, "task", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	bool leader_seen = false;
	int ret = 0;

	if (tfd < 0)
		return vanished(errno) ? -ESRCH
				       : set_error(errno, "/proc/%u/task: cannot open: %s", tgid,
						   strerror(errno));
	while (!ret) {
		union {
			struct dent64 d;
			char b[8192];
		} u;
		long n = syscall(SYS_getdents64, tfd, u.b, sizeof(u.b));

		if (n < 0 && vanished(errno))
			break;
		if (n < 0) {
			ret = set_error(errno, "/proc/%u/task: cannot read: %s", tgid, strerror(errno));
			break;
		}
		if (n == 0)
			break;
		for (long off = 0; !ret && off < n;) {
			const struct dent64 *d = (const struct dent64 *)(u.b + off);
			unsigned long tid;
			char *end;

			off += d->reclen;
			if (!isdigit((unsigned char)d->name[0]))
				continue;
			tid = strtoul(d->name, &end, 10);
			if (*end || tid > UINT32_MAX)
				continue;
			ret = synth_thread(st, pfd, tgid, (uint32_t)tid, &leader_seen, kthread);
		}
	}
	close(tfd);
	if (!ret && !leader_seen)
		ret = -ESRCH;
	return ret;
}

/* PERF_RECORD_MMAP2 after the header, before the filename (uapi perf_event.h). */
struct mmap2_body {
	uint32_t pid, tid;
	uint64_t addr, len, pgoff;
	union {
		struct {
			uint32_t maj, min;
			uint64_t ino, ino_generation;
		};
		struct { /* with PERF_RECORD_MISC_MMAP_BUILD_ID */
			uint8_t build_id_size, reserved1;
			uint16_t reserved2;
			uint8_t build_id[BUILD_ID_MAX];
		};
	};
	uint32_t prot, flags;
};
_Static_assert(sizeof(struct mmap2_body) == 64, "MMAP2 body layout");

/* MMAP2 of each executable mapping. */
static int synth_maps(struct synth *st, int pfd, uint32_t tgid)
{
	ssize_t len = read_all(st, pfd, "maps");
	const char *p, *end;

	if (len < 0) {
		int err = (int)-len;

		if (vanished(err))
			return -ESRCH;
		return set_error(err, "/proc/%u/maps: cannot read: %s%s", tgid, strerror(err),
				 err == EACCES || err == EPERM
					 ? "; reading another user's maps needs root or CAP_SYS_PTRACE"
					 : "");
	}
	for (p = st->buf, end = st->buf + len; p < end;) {
		const char *nl = memchr(p, '\n', (size_t)(end - p)), *line = p;
		size_t line_len = nl ? (size_t)(nl - p) : (size_t)(end - p);
		struct perfev_proc_map m;
		struct mmap2_body body;
		uint16_t misc = PERF_RECORD_MISC_USER;
		const char *name;
		size_t name_len;
		uint8_t id[BUILD_ID_MAX];
		int n, ret;

		p += line_len + 1;
		ret = perfev_proc_map__parse(line, line_len, &m);
		if (ret) {
			append_error(" (in /proc/%u/maps)", tgid);
			return ret;
		}
		if (!(m.prot & PROT_EXEC))
			continue;
		memset(&body, 0, sizeof(body));
		body.pid = tgid;
		body.tid = tgid;
		body.addr = m.start;
		body.len = m.end - m.start;
		body.pgoff = m.pgoff;
		body.prot = m.prot;
		body.flags = m.flags;
		n = mapping_build_id(st, pfd, &m, id);
		if (n) {
			misc |= PERF_RECORD_MISC_MMAP_BUILD_ID;
			body.build_id_size = (uint8_t)n;
			memcpy(body.build_id, id, (size_t)n);
		} else {
			body.maj = m.maj;
			body.min = m.min;
			body.ino = m.ino;
		}
		/* perf's names for what has no path, and for what does not fit a record. */
		name = m.path;
		name_len = m.path_len;
		if (!name_len) {
			name = MAP_NAME_ANON;
			name_len = sizeof(MAP_NAME_ANON) - 1;
		} else if (name_len > SYNTH_NAME_MAX) {
			name = "//toolong";
			name_len = 9;
		}
		ret = synth__emit(&st->out, PERF_RECORD_MMAP2, misc, &body, sizeof(body), name,
				  name_len);
		if (ret)
			return ret;
	}
	return 0;
}

/* The thread group of tid (/proc/TID/status "Tgid:"), for a pid that may be a thread's. */
static int read_tgid(int pfd, uint32_t tid, uint32_t *tgid)
{
	char buf[1024], *t;
	ssize_t n = read_small(pfd, "status", buf, sizeof(buf));

	if (n < 0)
		return vanished((int)-n) ? -ESRCH
					 : set_error((int)-n, "/proc/%u/status: cannot read: %s", tid,
						     strerror((int)-n));
	t = strstr(buf, "\nTgid:");
	if (!t)
		return set_error(PERFEV_ERR_FORMAT, "/proc/%u/status: no Tgid line", tid);
	*tgid = (uint32_t)strtoul(t + 6, NULL, 10);
	return 0;
}

static int synth_pid(struct synth *st, uint32_t pid, bool find_tgid)
{
	char rel[32], path[256];
	bool kthread = false;
	int pfd, ret = 0;

	snprintf(rel, sizeof(rel), "/proc/%u", pid);
	sys_root__path(path, sizeof(path), rel);
	pfd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (pfd < 0 && !vanished(errno))
		return set_error(errno, "%s: cannot open: %s", path, strerror(errno));
	if (pfd < 0)
		return set_error(ESRCH, "process %u does not exist (or exited while it was read)", pid);
	if (find_tgid) {
		uint32_t tgid = pid;

		ret = read_tgid(pfd, pid, &tgid);
		if (!ret && tgid != pid) {
			close(pfd);
			return synth_pid(st, tgid, false);
		}
	}
	if (!ret)
		ret = synth_threads(st, pfd, pid, &kthread);
	if (!ret && !kthread)
		ret = synth_maps(st, pfd, pid);
	close(pfd);
	if (ret == -ESRCH && !st->out.stopped)
		set_error(ESRCH, "process %u does not exist (or exited while it was read)", pid);
	return ret;
}

static void synth_free(struct synth *st)
{
	free(st->buf);
	free(st->slots);
	free(st);
}

static struct synth *synth_new(const struct perfev_sample_fmt *fmt, perfev_synth_fn_t fn, void *ctx,
			       int *err)
{
	struct synth *st = calloc(1, sizeof(*st));

	if (!st) {
		*err = set_error(ENOMEM, "synthesis: out of memory");
		return NULL;
	}
	*err = synth_out__init(&st->out, fmt, fn, ctx);
	if (*err) {
		free(st);
		return NULL;
	}
	return st;
}

int perfev_synth__process(const struct perfev_sample_fmt *fmt, pid_t pid, perfev_synth_fn_t fn,
			  void *ctx)
{
	struct synth *st;
	int ret;

	if (pid <= 0)
		return set_error(EINVAL, "synthesis: pid %d is not a process", (int)pid);
	st = synth_new(fmt, fn, ctx, &ret);
	if (!st)
		return ret;
	ret = synth_pid(st, (uint32_t)pid, true);
	synth_free(st);
	return ret;
}

int perfev_synth__all(const struct perfev_sample_fmt *fmt, perfev_synth_fn_t fn, void *ctx)
{
	char path[256];
	struct synth *st;
	struct dirent *de;
	DIR *d;
	int ret;

	st = synth_new(fmt, fn, ctx, &ret);
	if (!st)
		return ret;
	sys_root__path(path, sizeof(path), "/proc");
	d = opendir(path);
	if (!d) {
		ret = set_error(errno, "%s: cannot open: %s; is procfs mounted?", path, strerror(errno));
		synth_free(st);
		return ret;
	}
	while ((de = readdir(d))) {
		unsigned long pid;
		char *end;

		if (!isdigit((unsigned char)de->d_name[0]))
			continue;
		pid = strtoul(de->d_name, &end, 10);
		if (*end || !pid || pid > UINT32_MAX)
			continue;
		/* /proc lists thread group leaders only, so no Tgid lookup. */
		ret = synth_pid(st, (uint32_t)pid, false);
		if (st->out.stopped)
			break;
		/* Gone, or not ours to read (its FORK and COMM went out): skip it, as perf does. */
		if (ret == -ESRCH || ret == -EACCES || ret == -EPERM)
			ret = 0;
		if (ret)
			break;
	}
	closedir(d);
	synth_free(st);
	return ret;
}
