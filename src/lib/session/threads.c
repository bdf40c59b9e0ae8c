// SPDX-License-Identifier: MIT
/*
 * The recorded processes as they were over time: threads and their command
 * names from COMM, FORK and EXIT; each process's executable maps from MMAP
 * and MMAP2, a new map replacing whatever it overlaps (as the kernel's
 * mmap(MAP_FIXED) would).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "util/internal.h"
#include "session/session_int.h"

/* Arena allocation: chunks of at least 64 KiB, never freed before the session. */
void *sess_alloc(struct perfev_session *s, size_t size)
{
	struct arena_chunk *c = s->arena;

	size = (size + 7) & ~(size_t)7;
	if (!c || c->cap - c->used < size) {
		size_t cap = size > 65536 ? size : 65536;

		c = malloc(sizeof(*c) + cap);
		if (!c)
			return NULL;
		c->used = 0;
		c->cap = cap;
		c->next = s->arena;
		s->arena = c;
	}
	void *p = c->data + c->used;

	c->used += size;
	return p;
}

const char *sess_strdup(struct perfev_session *s, const char *str, size_t len)
{
	char *p = sess_alloc(s, len + 1);

	if (p) {
		memcpy(p, str, len);
		p[len] = '\0';
	}
	return p;
}

struct str_key {
	const struct perfev_session *s;
	const char *str;
};

static bool comm_eq(const void *ctx, uint32_t idx)
{
	const struct str_key *k = ctx;

	return !strcmp(k->s->comms[idx], k->str);
}

const char *sess_intern(struct perfev_session *s, const char *str)
{
	struct str_key k = { s, str };
	uint64_t h = hash_str(str);
	int64_t i = idxhash_find(&s->comm_hash, h, comm_eq, &k);

	if (i >= 0)
		return s->comms[i];
	if (s->nr_comms == s->cap_comms) {
		size_t cap = s->cap_comms ? s->cap_comms * 2 : 64;
		const char **n = realloc(s->comms, cap * sizeof(*n));

		if (!n)
			return NULL;
		s->comms = n;
		s->cap_comms = cap;
	}
	const char *p = sess_strdup(s, str, strlen(str));

	if (!p || idxhash_insert(&s->comm_hash, h, s->nr_comms) < 0)
		return NULL;
	s->comms[s->nr_comms++] = p;
	return p;
}

struct id_key {
	const struct perfev_session *s;
	int id;
};

static bool proc_eq(const void *ctx, uint32_t idx)
{
	const struct id_key *k = ctx;

	return k->s->procs[idx].pid == k->id;
}

static bool thread_eq(const void *ctx, uint32_t idx)
{
	const struct id_key *k = ctx;

	return k->s->threads[idx]->tid == k->id;
}

static int64_t proc_index(struct perfev_session *s, int pid, bool create)
{
	struct id_key k = { s, pid };
	uint64_t h = hash_mix((uint32_t)pid, 1);
	int64_t i = idxhash_find(&s->proc_hash, h, proc_eq, &k);

	if (i >= 0 || !create)
		return i;
	if (!array_grow((void **)&s->procs, &s->cap_procs, s->nr_procs + 1, sizeof(*s->procs)) ||
	    idxhash_insert(&s->proc_hash, h, s->nr_procs) < 0)
		return -1;
	memset(&s->procs[s->nr_procs], 0, sizeof(s->procs[0]));
	s->procs[s->nr_procs].pid = pid;
	return s->nr_procs++;
}

struct sproc *sess_proc(struct perfev_session *s, int pid)
{
	if (pid == -1)
		return &s->kernel;
	int64_t i = proc_index(s, pid, false);

	return i < 0 ? NULL : &s->procs[i];
}

static const char *default_comm(struct perfev_session *s, int pid, int tid)
{
	char buf[24];

	/* perf's names: the idle task is "swapper", a thread never named ":TID". */
	if (pid == 0 && tid == 0)
		return sess_intern(s, "swapper");
	snprintf(buf, sizeof(buf), ":%d", tid);
	return sess_intern(s, buf);
}

struct perfev_thread *sess_thread(struct perfev_session *s, int pid, int tid)
{
	struct id_key k = { s, tid };
	uint64_t h = hash_mix((uint32_t)tid, 2);
	int64_t i = idxhash_find(&s->thread_hash, h, thread_eq, &k);
	struct perfev_thread *t;

	if (i >= 0) {
		t = s->threads[i];
		/* A thread first seen without its pid (pid -1 in some records) learns it now. */
		if (t->pid != pid && pid != -1 && t->pid == -1) {
			int64_t p = proc_index(s, pid, true);

			if (p < 0)
				return NULL;
			t->pid = pid;
			t->proc = p;
		}
		return t;
	}
	int64_t p = proc_index(s, pid, true);

	if (p < 0 || !array_grow((void **)&s->threads, &s->cap_threads, s->nr_threads + 1,
			   sizeof(*s->threads)))
		return NULL;
	t = sess_alloc(s, sizeof(*t));
	if (!t || idxhash_insert(&s->thread_hash, h, s->nr_threads) < 0)
		return NULL;
	t->pid = pid;
	t->tid = tid;
	t->ppid = -1;
	t->exit_time = 0;
	t->fork_time = 0;
	t->proc = p;
	t->id_space = s->id_space;
	t->exited = false;
	t->comm = default_comm(s, pid, tid);
	if (!t->comm)
		return NULL;
	s->threads[s->nr_threads++] = t;
	return t;
}

/* The first map whose end is above addr (maps are sorted and disjoint). */
static size_t map_lower_bound(const struct sproc *p, uint64_t addr)
{
	size_t lo = 0, hi = p->nr_maps;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (p->maps[mid]->end <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

const struct perfev_map *sess_find_map(const struct sproc *p, uint64_t addr)
{
	size_t i = map_lower_bound(p, addr);

	if (i < p->nr_maps && p->maps[i]->start <= addr)
		return p->maps[i];
	return NULL;
}

static struct perfev_map *new_map(struct perfev_session *s, const struct perfev_map *tmpl)
{
	struct perfev_map *m;

	if (!array_grow((void **)&s->all_maps, &s->cap_all_maps, s->nr_all_maps + 1,
		  sizeof(*s->all_maps)))
		return NULL;
	m = malloc(sizeof(*m));
	if (!m)
		return NULL;
	*m = *tmpl;
	s->all_maps[s->nr_all_maps++] = m;
	return m;
}

/* Puts m into p, cutting away (or splitting) the parts of maps it overlaps. */
static int insert_map(struct perfev_session *s, struct sproc *p, struct perfev_map *m)
{
	size_t i = map_lower_bound(p, m->start), j = i;
	struct perfev_map *left = NULL, *right = NULL;

	while (j < p->nr_maps && p->maps[j]->start < m->end)
		j++;
	/* maps[i..j) overlap m; keep what sticks out on either side. */
	if (i < j && p->maps[i]->start < m->start) {
		struct perfev_map t = *p->maps[i];

		t.end = m->start;
		left = new_map(s, &t);
		if (!left)
			return -ENOMEM;
	}
	if (i < j && p->maps[j - 1]->end > m->end) {
		struct perfev_map t = *p->maps[j - 1];

		t.pgoff += m->end - t.start;
		t.start = m->end;
		right = new_map(s, &t);
		if (!right)
			return -ENOMEM;
	}
	size_t add = 1 + !!left + !!right, nr = p->nr_maps - (j - i) + add;

	if (!array_grow((void **)&p->maps, &p->cap_maps, nr, sizeof(*p->maps)))
		return -ENOMEM;
	memmove(&p->maps[i + add], &p->maps[j], (p->nr_maps - j) * sizeof(*p->maps));
	size_t k = i;

	if (left)
		p->maps[k++] = left;
	p->maps[k++] = m;
	if (right)
		p->maps[k++] = right;
	p->nr_maps = nr;
	p->gen++;
	return 0;
}

static bool is_anon_exec(const char *name)
{
	return !strcmp(name, MAP_NAME_ANON) || STARTS_WITH(name, "[anon") ||
	       STARTS_WITH(name, MAP_NAME_MEMFD) || STARTS_WITH(name, MAP_NAME_DEV_ZERO) ||
	       STARTS_WITH(name, "anon_inode:");
}

static bool is_kernel_name(const char *name)
{
	return STARTS_WITH(name, PERFEV_KERNEL_DSO_NAME) || STARTS_WITH(name, MAP_NAME_GUEST_KERNEL);
}

/* The build id of name from the file's build-id table, when the record carries none. */
static const struct perfev_data_build_id *table_build_id(struct perfev_session *s,
							 const char *name)
{
	size_t n = s->reader ? perfev_data_reader__nr_build_ids(s->reader) : 0;

	for (size_t i = 0; i < n; i++) {
		const struct perfev_data_build_id *b = perfev_data_reader__build_id(s->reader, i);

		if (b && b->filename && !strcmp(b->filename, name))
			return b;
	}
	return NULL;
}

static int add_map(struct perfev_session *s, int pid, uint16_t misc, uint64_t start,
		   uint64_t len, uint64_t pgoff, uint32_t prot, uint32_t flags, const char *name,
		   const uint8_t *bid, size_t bid_size)
{
	unsigned cpumode = misc & PERF_RECORD_MISC_CPUMODE_MASK;
	bool kernel = cpumode == PERF_RECORD_MISC_KERNEL || cpumode == PERF_RECORD_MISC_GUEST_KERNEL;
	struct perfev_map t = { .start = start, .pgoff = pgoff, .prot = prot, .flags = flags };
	struct sproc *p;

	if (!len || start + len < start)
		return 0; /* nothing mapped, or a range wrapping around: nothing to find in it */
	t.end = start + len;
	if (!(prot & PROT_EXEC))
		return 0; /* data: no samples resolve to it */
	if (kernel || pid == -1) {
		p = &s->kernel;
		if (is_kernel_name(name))
			t.dso = perfev_symbolizer__kernel(s->sy);
		else
			t.dso = perfev_symbolizer__kernel(s->sy); /* modules: kallsyms has them */
	} else {
		int64_t pi = proc_index(s, pid, true);

		if (pi < 0)
			return -ENOMEM;
		p = &s->procs[pi];
		if (is_anon_exec(name)) {
			t.dso = perfev_symbolizer__jit(s->sy, pid);
		} else {
			if (!bid_size) {
				const struct perfev_data_build_id *b = table_build_id(s, name);

				if (b) {
					bid = b->id;
					bid_size = b->size;
				}
			}
			t.dso = name[0] ? perfev_symbolizer__dso(s->sy, name, bid_size ? bid : NULL,
								 bid_size) : NULL;
		}
	}
	t.filename = sess_strdup(s, name, strlen(name));
	if (!t.filename)
		return -ENOMEM;
	struct perfev_map *m = new_map(s, &t);

	return m ? insert_map(s, p, m) : -ENOMEM;
}

static int fork_thread(struct perfev_session *s, const struct perfev_record *rec)
{
	struct perfev_thread *parent = sess_thread(s, rec->task.ppid, rec->task.ptid);
	struct id_key k = { s, rec->task.tid };
	uint64_t h = hash_mix((uint32_t)rec->task.tid, 2);
	int64_t old = idxhash_find(&s->thread_hash, h, thread_eq, &k);
	struct perfev_thread *t;

	if (!parent)
		return -ENOMEM;
	if (old >= 0 && s->threads[old]->pid != (int)rec->task.pid) {
		/* A tid reused by another process: start that thread afresh. */
		t = s->threads[old];
		int64_t p = proc_index(s, rec->task.pid, true);

		if (p < 0)
			return -ENOMEM;
		t->pid = rec->task.pid;
		t->proc = p;
	}
	t = sess_thread(s, rec->task.pid, rec->task.tid);
	if (!t)
		return -ENOMEM;
	/*
	 * A FORK makes a new thread of the tid, whatever was there before (as
	 * perf does); a parent no record named passes on no name (perf's
	 * comm_set): the child is ":TID" then.
	 */
	if (parent->comm != default_comm(s, parent->pid, parent->tid) ||
	    (parent->pid == 0 && parent->tid == 0))
		t->comm = parent->comm;
	else if (!(t->comm = default_comm(s, t->pid, t->tid)))
		return -ENOMEM;
	t->ppid = parent->tid;
	t->exited = false;
	t->exit_time = 0;
	t->fork_time = rec->task.time ? rec->task.time : 1;
	if (rec->task.pid != rec->task.ppid && t->tid == t->pid) {
		/* A new process starts with a copy of its parent's maps (fork(2)). */
		struct sproc *pp = &s->procs[parent->proc], *cp = &s->procs[t->proc];

		if (pp != cp && pp->nr_maps) {
			if (!array_grow((void **)&cp->maps, &cp->cap_maps, pp->nr_maps, sizeof(*cp->maps)))
				return -ENOMEM;
			memcpy(cp->maps, pp->maps, pp->nr_maps * sizeof(*cp->maps));
			cp->nr_maps = pp->nr_maps;
			cp->gen++;
		}
	}
	return 0;
}

int sess_track(struct perfev_session *s, const struct perfev_record *rec)
{
	struct perfev_thread *t;

	switch (rec->type) {
	case PERF_RECORD_COMM:
		t = sess_thread(s, rec->comm.pid, rec->comm.tid);
		if (!t || !(t->comm = sess_intern(s, rec->comm.comm)))
			return -ENOMEM;
		/*
		 * exec(2) replaces the process image, but its old maps stay until
		 * the new image's MMAP records replace them, as perf keeps them:
		 * the kernel sends this COMM before loading the new image, and
		 * samples taken while it loads still carry the old image's user
		 * frames (the stack of the execve call).
		 */
		if ((rec->misc & PERF_RECORD_MISC_COMM_EXEC) && s->unwinder)
			perfev_unwinder__forget(s->unwinder, t->pid);
		return 0;
	case PERF_RECORD_FORK:
		return fork_thread(s, rec);
	case PERF_RECORD_EXIT: {
		/*
		 * The end of a thread nothing described yet does not make it one that
		 * ended (perf ignores it too), but a tool that met it knows when it ended.
		 */
		struct id_key k = { s, rec->task.tid };
		int64_t i = idxhash_find(&s->thread_hash, hash_mix((uint32_t)rec->task.tid, 2),
					 thread_eq, &k);

		if (i >= 0) {
			t = s->threads[i];
			t->exited = true;
		} else if (!(t = sess_thread(s, rec->task.pid, rec->task.tid))) {
			return -ENOMEM;
		}
		t->exit_time = rec->task.time ? rec->task.time : 1;
		return 0;
	}
	case PERF_RECORD_MMAP: {
		/* MMAP (v1) is code unless marked as data. */
		uint32_t prot = rec->misc & PERF_RECORD_MISC_MMAP_DATA ? PROT_READ
								     : PROT_READ | PROT_EXEC;

		return add_map(s, rec->mmap.pid, rec->misc, rec->mmap.addr, rec->mmap.len,
			       rec->mmap.pgoff, prot, MAP_PRIVATE, rec->mmap.filename, NULL, 0);
	}
	case PERF_RECORD_MMAP2:
		return add_map(s, rec->mmap2.pid, rec->misc, rec->mmap2.addr, rec->mmap2.len,
			       rec->mmap2.pgoff, rec->mmap2.prot, rec->mmap2.flags,
			       rec->mmap2.filename,
			       rec->misc & PERF_RECORD_MISC_MMAP_BUILD_ID ? rec->mmap2.build_id : NULL,
			       rec->misc & PERF_RECORD_MISC_MMAP_BUILD_ID ? rec->mmap2.build_id_size
									  : 0);
	default:
		return 0;
	}
}

void sess_threads_free(struct perfev_session *s)
{
	for (size_t i = 0; i < s->nr_procs; i++)
		free(s->procs[i].maps);
	free(s->kernel.maps);
	free(s->procs);
	free(s->threads);
	free(s->comms);
	for (size_t i = 0; i < s->nr_all_maps; i++)
		free(s->all_maps[i]);
	free(s->all_maps);
	idxhash_free(&s->thread_hash);
	idxhash_free(&s->proc_hash);
	idxhash_free(&s->comm_hash);
	while (s->arena) {
		struct arena_chunk *c = s->arena;

		s->arena = c->next;
		free(c);
	}
}

int perfev_thread__pid(const struct perfev_thread *t)
{
	return t->pid;
}

int perfev_thread__tid(const struct perfev_thread *t)
{
	return t->tid;
}

int perfev_thread__ppid(const struct perfev_thread *t)
{
	return t->ppid;
}

bool perfev_thread__exited(const struct perfev_thread *t)
{
	return t->exited;
}

uint64_t perfev_thread__exit_time(const struct perfev_thread *t)
{
	return t->exit_time;
}

uint64_t perfev_thread__fork_time(const struct perfev_thread *t)
{
	return t->fork_time;
}

struct perfev_thread *perfev_session__find_thread(struct perfev_session *s, int tid)
{
	struct id_key k = { s, tid };
	int64_t i = idxhash_find(&s->thread_hash, hash_mix((uint32_t)tid, 2), thread_eq, &k);

	return i < 0 ? NULL : s->threads[i];
}

const char *perfev_thread__comm(const struct perfev_thread *t)
{
	return t->comm;
}
