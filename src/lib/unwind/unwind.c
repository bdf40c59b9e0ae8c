/* SPDX-License-Identifier: MIT */
/*
 * DWARF unwinding of sampled user stacks with libdw: one Dwfl per process,
 * kept across samples (perf builds one per sample, opening every file
 * again), with the process's files reported as their addresses are met.
 *
 * Everything a sample holds is untrusted: the registers may point
 * anywhere and the stack copy may be garbage, so memory is read only
 * within the copy (or read-only bytes of the mapped files), and an unwind
 * that goes wrong stops with the frames found so far.
 */
#include <gelf.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "util/internal.h"
#include "unwind/unwind_int.h"
#include "util/opts.h"

/*
 * Processes kept at once: each keeps its files open and mapped, so a
 * system-wide profile of thousands of processes would otherwise run out
 * of descriptors.  The least recently unwound one is dropped first.
 */
#define UW_MAX_PROCS 32
#define UW_BUCKETS 64 /* a power of two */
/* Frames remembered for loop detection: a cycle longer than this ends at max. */
#define UW_SEEN 16

struct perfev_unwinder {
	char *debuginfo_path;
	Dwfl_Callbacks callbacks;
	/* An x86_64 ELF header: how libdw learns the architecture before any file is reported. */
	Elf64_Ehdr arch;
	struct uw_proc *buckets[UW_BUCKETS];
	size_t nr_procs;
	uint64_t clock;
};

/* One walk down a stack. */
struct walk {
	struct uw_proc *p;
	uint64_t *ips;
	size_t max, nr;
	bool restart; /* a file was first reported during the walk: walk again */
	struct {
		uint64_t pc, sp;
	} seen[UW_SEEN];
};

static pid_t proc_tid(const struct uw_proc *p)
{
	/* libdw wants a positive thread id; the pid is only a label here. */
	return p->pid > 0 ? p->pid : 1;
}

static pid_t next_thread(Dwfl *dwfl, void *dwfl_arg, void **thread_argp)
{
	(void)dwfl;
	if (*thread_argp)
		return 0; /* one thread: the sampled one */
	*thread_argp = dwfl_arg;
	return proc_tid(dwfl_arg);
}

static bool memory_read(Dwfl *dwfl, Dwarf_Addr addr, Dwarf_Word *result, void *dwfl_arg)
{
	struct uw_proc *p = dwfl_arg;

	(void)dwfl;
	if (p->stale)
		return false;
	/* Written without addr + 8, which can wrap. */
	if (addr >= p->stack_lo && p->stack_len >= 8 && addr - p->stack_lo <= p->stack_len - 8) {
		memcpy(result, p->stack + (addr - p->stack_lo), 8);
		return true;
	}
	uint64_t v;

	if (!uw_proc__read_file(p, addr, &v))
		return false;
	*result = v;
	return true;
}

static bool set_initial_registers(Dwfl_Thread *thread, void *thread_arg)
{
	struct uw_proc *p = thread_arg;

	/* One at a time: registers the sample lacks stay undefined rather than 0. */
	for (unsigned n = 0; n < UW_NR_DWARF; n++) {
		Dwarf_Word v = p->regs.val[n];

		if ((p->regs.present & (1u << n)) && !dwfl_thread_state_registers(thread, (int)n, 1, &v))
			return false;
	}
	dwfl_thread_state_register_pc(thread, p->regs.val[UW_DWARF_IP]);
	return true;
}

static const Dwfl_Thread_Callbacks thread_callbacks = {
	.next_thread = next_thread,
	.memory_read = memory_read,
	.set_initial_registers = set_initial_registers,
};

static void proc_detach(struct uw_proc *p)
{
	if (p->dwfl)
		dwfl_end(p->dwfl);
	p->dwfl = NULL;
	if (p->arch_elf)
		elf_end(p->arch_elf); /* after dwfl_end: libdw's backend refers to it */
	p->arch_elf = NULL;
	uw_proc__drop_modules(p);
}

static int proc_attach(struct perfev_unwinder *u, struct uw_proc *p)
{
	p->dwfl = dwfl_begin(&u->callbacks);
	if (!p->dwfl)
		return set_error(ENOMEM, "cannot start a libdw session: %s", dwfl_errmsg(-1));
	p->arch_elf = elf_memory((char *)&u->arch, sizeof(u->arch));
	if (!p->arch_elf || !dwfl_attach_state(p->dwfl, p->arch_elf, proc_tid(p), &thread_callbacks, p)) {
		int err = set_error(ENOMEM, "cannot set up libdw's x86_64 unwinding: %s",
				    p->arch_elf ? dwfl_errmsg(-1) : elf_errmsg(-1));

		proc_detach(p);
		return err;
	}
	return 0;
}

static void proc_free(struct uw_proc *p)
{
	proc_detach(p);
	free(p->mods);
	free(p);
}

static struct uw_proc **bucket(struct perfev_unwinder *u, int pid)
{
	return &u->buckets[((unsigned)pid * 2654435761u) & (UW_BUCKETS - 1)];
}

static void proc_unlink(struct perfev_unwinder *u, struct uw_proc *p)
{
	for (struct uw_proc **pp = bucket(u, p->pid); *pp; pp = &(*pp)->next) {
		if (*pp == p) {
			*pp = p->next;
			u->nr_procs--;
			return;
		}
	}
}

static void evict_oldest(struct perfev_unwinder *u)
{
	struct uw_proc *old = NULL;

	for (size_t b = 0; b < UW_BUCKETS; b++)
		for (struct uw_proc *p = u->buckets[b]; p; p = p->next)
			if (!old || p->last_use < old->last_use)
				old = p;
	if (old) {
		proc_unlink(u, old);
		proc_free(old);
	}
}

static struct uw_proc *proc_get(struct perfev_unwinder *u, int pid, int *err)
{
	struct uw_proc **head = bucket(u, pid), *p;

	for (p = *head; p; p = p->next)
		if (p->pid == pid)
			goto found;
	if (u->nr_procs >= UW_MAX_PROCS)
		evict_oldest(u);
	p = calloc(1, sizeof(*p));
	if (!p) {
		*err = set_error(ENOMEM, "out of memory for the unwinding state of pid %d", pid);
		return NULL;
	}
	p->pid = pid;
	*err = proc_attach(u, p);
	if (*err) {
		free(p);
		return NULL;
	}
	p->next = *head;
	*head = p;
	u->nr_procs++;
found:
	p->last_use = ++u->clock;
	return p;
}

static int frame_cb(Dwfl_Frame *frame, void *arg)
{
	struct walk *w = arg;
	struct uw_proc *p = w->p;
	Dwarf_Addr pc;
	Dwarf_Word sp;
	bool activation;

	if (!dwfl_frame_pc(frame, &pc, &activation))
		return DWARF_CB_ABORT;
	if (w->nr && !pc)
		return DWARF_CB_ABORT; /* a zero return address ends some stacks */
	/* The same pc with the same stack pointer again: the unwind is going round in circles. */
	if (dwfl_frame_reg(frame, UW_DWARF_SP, &sp) == 0) {
		size_t n = w->nr < UW_SEEN ? w->nr : UW_SEEN;

		for (size_t i = 0; i < n; i++)
			if (w->seen[i].pc == pc && w->seen[i].sp == sp)
				return DWARF_CB_ABORT;
		w->seen[w->nr % UW_SEEN].pc = pc;
		w->seen[w->nr % UW_SEEN].sp = sp;
	}
	w->ips[w->nr++] = pc;
	if (w->nr >= w->max)
		return DWARF_CB_ABORT;
	/*
	 * libdw steps from this frame next, with the CFI of the file holding
	 * it: the call instruction (pc - 1) for a return address.
	 */
	size_t before = p->nr_mods;
	struct uw_mod *m = uw_proc__module(p, activation ? pc : pc - 1);

	if (m && p->nr_mods > before) {
		w->restart = true;
		return DWARF_CB_ABORT;
	}
	return p->stale ? DWARF_CB_ABORT : DWARF_CB_OK;
}

struct perfev_unwinder *perfev_unwinder__new(const struct perfev_unwinder_opts *opts)
{
	struct perfev_unwinder_opts o;
	struct perfev_unwinder *u;

	if (OPTS_COPY(&o, opts, perfev_unwinder_opts, debuginfo_path) < 0)
		return NULL;
	if (elf_version(EV_CURRENT) == EV_NONE)
		return set_error_ptr(ENOSYS, "libelf is too old: %s", elf_errmsg(-1));
	u = calloc(1, sizeof(*u));
	if (!u)
		return set_error_ptr(ENOMEM, "out of memory for an unwinder");
	if (o.debuginfo_path) {
		u->debuginfo_path = strdup(o.debuginfo_path);
		if (!u->debuginfo_path) {
			free(u);
			return set_error_ptr(ENOMEM, "out of memory for an unwinder");
		}
	}
	u->callbacks = (Dwfl_Callbacks){
		.find_elf = dwfl_build_id_find_elf,
		.find_debuginfo = dwfl_standard_find_debuginfo,
		.section_address = dwfl_offline_section_address,
		.debuginfo_path = &u->debuginfo_path,
	};
	memcpy(u->arch.e_ident, ELFMAG, SELFMAG);
	u->arch.e_ident[EI_CLASS] = ELFCLASS64;
	u->arch.e_ident[EI_DATA] = ELFDATA2LSB;
	u->arch.e_ident[EI_VERSION] = EV_CURRENT;
	u->arch.e_type = ET_CORE;
	u->arch.e_machine = EM_X86_64;
	u->arch.e_version = EV_CURRENT;
	u->arch.e_ehsize = sizeof(Elf64_Ehdr);
	return u;
}

void perfev_unwinder__delete(struct perfev_unwinder *u)
{
	if (!u)
		return;
	for (size_t b = 0; b < UW_BUCKETS; b++) {
		while (u->buckets[b]) {
			struct uw_proc *p = u->buckets[b];

			u->buckets[b] = p->next;
			proc_free(p);
		}
	}
	free(u->debuginfo_path);
	free(u);
}

void perfev_unwinder__forget(struct perfev_unwinder *u, int pid)
{
	if (!u)
		return;
	for (struct uw_proc *p = *bucket(u, pid); p; p = p->next) {
		if (p->pid == pid) {
			proc_unlink(u, p);
			proc_free(p);
			return;
		}
	}
}

int perfev_unwinder__unwind(struct perfev_unwinder *u, int pid, const struct perfev_sample *s,
			    perfev_unwind_find_map_fn find_map, void *ctx, uint64_t *ips, size_t max)
{
	struct uw_regs regs;
	struct walk w = { .ips = ips, .max = max };
	struct uw_proc *p;
	int err;

	if (!u || !s || !find_map || (!ips && max))
		return set_error(EINVAL, "perfev_unwinder__unwind: unwinder, sample, find_map and "
					 "ips are needed");
	err = uw_x86_regs(s, &regs);
	if (err)
		return err;
	if (!(s->sample_type & PERF_SAMPLE_STACK_USER))
		return set_error(EINVAL, "the sample has no user stack copy; record with "
					 "PERF_SAMPLE_STACK_USER (--call-graph dwarf)");
	if (!max)
		return 0;
	if (max > INT_MAX)
		w.max = INT_MAX; /* the count is returned as an int */
	p = proc_get(u, pid, &err);
	if (!p)
		return err;

	p->regs = regs;
	p->stack_lo = regs.val[UW_DWARF_SP];
	/* dyn_size is what the kernel copied; never trust it beyond the bytes present. */
	p->stack_len = s->stack_user.data ? s->stack_user.dyn_size : 0;
	if (p->stack_len > s->stack_user.size)
		p->stack_len = s->stack_user.size;
	p->stack = s->stack_user.data;
	p->find_map = find_map;
	p->ctx = ctx;

	/* A second try when the process turned out to have changed under the first. */
	for (int attempt = 0, restarts = 0; attempt < 2; attempt++) {
		w.p = p;
		w.nr = 0;
		w.restart = false;
		p->stale = false;
		dwfl_getthread_frames(p->dwfl, proc_tid(p), frame_cb, &w);
		if (w.restart && restarts++ < 16) {
			attempt--;
			continue;
		}
		if (!p->stale || attempt)
			break;
		proc_detach(p);
		err = proc_attach(u, p);
		if (err) {
			/* Nothing usable is left for this pid: drop it, a later sample starts over. */
			proc_unlink(u, p);
			proc_free(p);
			p = NULL;
			break;
		}
	}
	if (p) {
		p->stack = NULL;
		p->find_map = NULL;
		p->ctx = NULL;
		p->stale = false;
	}
	if (!w.nr) {
		/* libdw gave not even the first frame: the sampled IP is still known. */
		ips[0] = regs.val[UW_DWARF_IP];
		w.nr = 1;
	}
	return (int)w.nr;
}
