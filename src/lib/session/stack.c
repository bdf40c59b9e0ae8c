// SPDX-License-Identifier: MIT
/*
 * A sample's stack as frames: the kernel's callchain (with its context
 * markers saying where kernel, user and guest parts begin), or for
 * --call-graph dwarf samples the kernel part followed by the user stack
 * unwound from the sampled registers and stack copy.
 */
#include <errno.h>
#include <string.h>

#include "util/internal.h"
#include "session/session_int.h"

static uint64_t ident_hash(const struct frame_ident *k)
{
	return hash_mix(hash_mix((uintptr_t)k->dso, (uintptr_t)k->sym), k->addr ^ k->kernel);
}

static size_t ident_slot(uint64_t h, unsigned bits)
{
	return (size_t)(h >> (64 - bits));
}

static bool idents_grow(struct perfev_session *s)
{
	unsigned bits = s->idents ? s->ident_bits + 1 : 12;
	size_t cap = (size_t)1 << bits, old = s->idents ? (size_t)1 << s->ident_bits : 0;
	struct ident_slot *n;

	if (bits > 32 || !(n = table_calloc(cap, sizeof(*n))))
		return false;
	/* By id: the keys are read in order (a slot's tag holds only part of the hash). */
	for (size_t id = 1; id <= s->nr_idents; id++) {
		uint64_t h = ident_hash(&s->ident_keys[id - 1]);
		size_t j = ident_slot(h, bits);

		while (n[j].id)
			j = (j + 1) & (cap - 1);
		n[j] = (struct ident_slot){ (uint32_t)id, (uint32_t)h };
	}
	if (s->idents)
		table_free(s->idents, old, sizeof(*s->idents));
	s->idents = n;
	s->ident_bits = bits;
	return true;
}

/* The id of f's identity, numbering it when new; 0 when out of memory (f then has none). */
static uint32_t frame_id(struct perfev_session *s, const struct perfev_frame *f)
{
	struct frame_ident k = { f->dso, f->sym, f->sym ? 0 : f->addr, f->kernel };
	uint64_t h = ident_hash(&k);
	uint32_t tag = (uint32_t)h;
	size_t cap, j;

	if (s->trimmed)
		return 0; /* the numbering is gone with its table: not numbered */
	/* At most half full: short probes, and always a free slot. */
	if ((!s->idents || (s->nr_idents + 1) * 2 > ((size_t)1 << s->ident_bits)) && !idents_grow(s))
		return 0;
	cap = (size_t)1 << s->ident_bits;
	for (j = ident_slot(h, s->ident_bits); s->idents[j].id; j = (j + 1) & (cap - 1)) {
		const struct frame_ident *e;

		if (s->idents[j].tag != tag)
			continue;
		e = &s->ident_keys[s->idents[j].id - 1];
		if (e->dso == k.dso && e->sym == k.sym && e->addr == k.addr && e->kernel == k.kernel)
			return s->idents[j].id;
	}
	if (s->nr_idents >= UINT32_MAX - 1 ||
	    !big_array_grow((void **)&s->ident_keys, &s->ident_keys_cap, s->nr_idents + 1,
			sizeof(*s->ident_keys)))
		return 0;
	s->ident_keys[s->nr_idents] = k;
	s->idents[j] = (struct ident_slot){ (uint32_t)++s->nr_idents, tag };
	return s->idents[j].id;
}

static void resolve_slow(struct perfev_session *s, struct perfev_thread *t, struct perfev_frame *f,
			 uint64_t ip, bool kernel, bool return_addr)
{
	/* A return address may be just past the end of its function (a call to a noreturn one). */
	uint64_t look = return_addr && ip ? ip - 1 : ip;

	f->ip = ip;
	f->kernel = kernel;
	f->unwound = false;
	f->id = 0;
	f->map = NULL;
	f->dso = NULL;
	f->sym = NULL;
	f->addr = ip;
	if (kernel) {
		f->map = sess_find_map(&s->kernel, ip);
		f->dso = perfev_symbolizer__kernel(s->sy);
		f->addr = look;
	} else {
		f->map = sess_find_map(&s->procs[t->proc], ip);
		if (!f->map) {
			s->stats.nr_no_map++;
			f->id = frame_id(s, f);
			return;
		}
		f->dso = f->map->dso;
		if (s->opts.no_symbols)
			goto out;
		f->addr = f->dso ? perfev_dso__map_ip(f->dso, look, f->map->start, f->map->pgoff)
				 : look - f->map->start + f->map->pgoff;
	}
	if (f->dso && !s->opts.no_symbols)
		f->sym = perfev_dso__find_symbol(f->dso, f->addr);
	/*
	 * The byte before a return address in the kernel's __pfx_ padding is
	 * no caller (padding never runs): the function at the address itself,
	 * as perf names it.
	 */
	if (f->sym && look != ip && !strncmp(f->sym->name, "__pfx_", 6)) {
		f->addr += ip - look;
		f->sym = perfev_dso__find_symbol(f->dso, f->addr);
		look = ip;
	}
	/*
	 * A byte before that no function holds (a garbage frame, or padding
	 * after a function without a size): the return address itself is
	 * looked up and shown, as perf names it, rather than left unnamed.
	 */
	if (!f->sym && look != ip) {
		f->addr += ip - look;
		if (f->dso && !s->opts.no_symbols)
			f->sym = perfev_dso__find_symbol(f->dso, f->addr);
	}
out:
	f->id = frame_id(s, f);
}

/*
 * The cache slot of an address: by the process id, not the process's index,
 * so that sess_rcache_slot1() finds it from a record alone (the entry itself
 * still holds the index it is of).
 */
static inline struct rcache_ent *rcache_slot(const struct perfev_session *s, uint64_t ip,
					     bool kernel, int pid)
{
	return &s->rcache[hash_mix(ip, kernel ? UINT32_MAX : (uint32_t)pid) &
			  ((1u << RCACHE_BITS) - 1)];
}

/*
 * The cache slot of the sample that ev holds, found when it is queued and
 * loaded a few records before it is delivered: the slot is most often out of
 * every cache, and a report would wait on that load for every sample.
 */
uint32_t sess_rcache_slot1(const struct perfev_session *s, const struct perfev_data_event *ev)
{
	const struct perfev_sample *sm = &ev->rec.sample;
	unsigned cpumode = ev->rec.misc & PERF_RECORD_MISC_CPUMODE_MASK;

	if (!s->rcache || ev->rec.type != PERF_RECORD_SAMPLE ||
	    (sm->sample_type & (PERF_SAMPLE_IP | PERF_SAMPLE_TID)) !=
		    (PERF_SAMPLE_IP | PERF_SAMPLE_TID))
		return 0;
	return 1 + (uint32_t)(rcache_slot(s, sm->ip,
					  cpumode == PERF_RECORD_MISC_KERNEL ||
						  cpumode == PERF_RECORD_MISC_HYPERVISOR ||
						  cpumode == PERF_RECORD_MISC_GUEST_KERNEL,
					  (int)sm->pid) -
			      s->rcache);
}

static void resolve(struct perfev_session *s, struct perfev_thread *t, struct perfev_frame *f,
		    uint64_t ip, bool kernel, bool return_addr)
{
	uint32_t proc1 = kernel ? UINT32_MAX : t->proc + 1;
	uint64_t gen = kernel ? s->kernel.gen : s->procs[t->proc].gen;
	struct rcache_ent *e;

	if (!s->rcache) {
		resolve_slow(s, t, f, ip, kernel, return_addr);
		return;
	}
	e = rcache_slot(s, ip, kernel, t->pid);
	if (e->proc1 == proc1 && e->ip == ip && e->gen == gen && e->return_addr == return_addr) {
		*f = e->f;
		if (!f->map && !kernel)
			s->stats.nr_no_map++;
		return;
	}
	resolve_slow(s, t, f, ip, kernel, return_addr);
	*e = (struct rcache_ent){ .ip = ip, .gen = gen, .proc1 = proc1, .return_addr = return_addr,
				  .f = *f };
}

struct find_ctx {
	struct perfev_session *s;
	const struct sproc *p;
};

static int find_map(void *ctx, uint64_t addr, struct perfev_unwind_map *out)
{
	const struct find_ctx *c = ctx;
	const struct perfev_map *m = sess_find_map(c->p, addr);

	if (!m || m->filename[0] != '/')
		return -ENOENT;
	out->start = m->start;
	out->end = m->end;
	out->pgoff = m->pgoff;
	out->path = m->filename;
	return 0;
}

static bool is_dwarf_sample(const struct perfev_sample *sm)
{
	return (sm->sample_type & PERF_SAMPLE_REGS_USER) &&
	       (sm->sample_type & PERF_SAMPLE_STACK_USER) && sm->regs_user.abi &&
	       sm->stack_user.dyn_size;
}

/* Appends the unwound user stack; returns the new number of frames. */
static size_t unwind_user(struct perfev_session *s, struct perfev_thread *t,
			  const struct perfev_sample *sm, size_t n, size_t max)
{
	struct find_ctx c = { s, &s->procs[t->proc] };
	int got;

	if (n >= max)
		return n;
	got = perfev_unwinder__unwind(s->unwinder, t->pid, sm, find_map, &c, s->ips, max - n);
	if (got <= 1)
		s->stats.nr_unwind_failed++;
	if (got <= 0) {
		/* Nothing unwound: at least the user IP the registers hold. */
		if (!(sm->sample_type & PERF_SAMPLE_IP))
			return n;
		resolve(s, t, &s->frames[n], sm->ip, false, false);
		return n + 1;
	}
	/*
	 * A caller's frame is its return address minus one, as perf's unwinder
	 * gives it (the call instruction's last byte): looked up as it is, and
	 * shown so.
	 */
	for (int i = 0; i < got; i++) {
		resolve(s, t, &s->frames[n + i], i > 0 && s->ips[i] ? s->ips[i] - 1 : s->ips[i],
			false, false);
		s->frames[n + i].unwound = true;
	}
	return n + got;
}

size_t sess_resolve_stack(struct perfev_session *s, int evsel, struct perfev_thread *t,
			  const struct perfev_sample *sm, uint16_t misc)
{
	unsigned cpumode = misc & PERF_RECORD_MISC_CPUMODE_MASK;
	bool kernel = cpumode == PERF_RECORD_MISC_KERNEL || cpumode == PERF_RECORD_MISC_HYPERVISOR ||
		      cpumode == PERF_RECORD_MISC_GUEST_KERNEL;
	size_t max = s->opts.max_frames, n = 0;
	bool dwarf = s->unwinder && is_dwarf_sample(sm), saw_user = false;

	(void)evsel;
	if (!(sm->sample_type & PERF_SAMPLE_CALLCHAIN) || !sm->callchain.nr) {
		if (kernel || !dwarf) {
			if (!(sm->sample_type & PERF_SAMPLE_IP))
				return 0;
			resolve(s, t, &s->frames[n++], sm->ip, kernel, false);
			if (!kernel || !dwarf)
				return n;
		}
		return unwind_user(s, t, sm, n, max);
	}
	bool in_kernel = kernel, first = true;

	for (uint64_t i = 0; i < sm->callchain.nr && n < max; i++) {
		uint64_t ip = perfev_u64_at(sm->callchain.ips, i);

		if (ip >= (uint64_t)PERF_CONTEXT_MAX) {
			switch ((int64_t)ip) {
			case PERF_CONTEXT_HV:
			case PERF_CONTEXT_KERNEL:
			case PERF_CONTEXT_GUEST_KERNEL:
				in_kernel = true;
				break;
			case PERF_CONTEXT_USER:
			case PERF_CONTEXT_GUEST_USER:
				in_kernel = false;
				saw_user = true;
				break;
			default:
				break;
			}
			/* The first address after a context switch is an IP, not a return address. */
			first = true;
			continue;
		}
		resolve(s, t, &s->frames[n++], ip, in_kernel, !first);
		first = false;
	}
	if (dwarf && !saw_user)
		n = unwind_user(s, t, sm, n, max);
	return n;
}

uint32_t sess_frame_id(struct perfev_session *s, const struct perfev_frame *f)
{
	return frame_id(s, f);
}
