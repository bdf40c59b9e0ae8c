/* SPDX-License-Identifier: MIT */
/* The DWARF unwinder's pieces: register mapping, per-process modules. */
#ifndef PERFEV_UNWIND_INT_H
#define PERFEV_UNWIND_INT_H

#include <elfutils/libdwfl.h>
#include <stdbool.h>
#include <stdint.h>

#include "perfev/record.h"
#include "perfev/unwind.h"

/* x86_64 DWARF register numbers libdw's frame state uses. */
enum {
	UW_DWARF_BP = 6,
	UW_DWARF_SP = 7,
	UW_DWARF_IP = 16,
	UW_NR_DWARF = 17, /* rax .. r15, rip */
};

/* The initial registers of one sample, in DWARF numbering. */
struct uw_regs {
	uint64_t val[UW_NR_DWARF];
	uint32_t present; /* bit n: val[n] came from the sample */
};

/*
 * The sample's x86_64 user registers in DWARF order.  0, or -EINVAL (no
 * registers, IP/SP/BP missing, fewer values than the mask says), or
 * -EOPNOTSUPP (32-bit registers), explained with set_error().
 */
int uw_x86_regs(const struct perfev_sample *s, struct uw_regs *out);

/* A PT_LOAD segment of a module's file, as needed to place maps and read bytes. */
struct uw_seg {
	uint64_t vaddr, offset, filesz, memsz;
	bool writable;
};

/*
 * One file reported to a process's Dwfl, or a file that could not be used
 * (mod NULL), remembered so it is not opened again for every frame.
 */
struct uw_mod {
	char *path;
	uint64_t bias;	 /* load address - link-time address */
	uint64_t lo, hi; /* [lo, hi): where it is mapped (for a failed file: the map) */
	struct uw_seg *segs;
	size_t nr_segs;
	Dwfl_Module *mod;
	const unsigned char *image; /* the file's bytes as libelf holds them, or NULL */
	size_t image_size;
};

/* What is kept for one process between samples. */
struct uw_proc {
	int pid;
	struct uw_proc *next; /* hash chain */
	uint64_t last_use;    /* for evicting the least recently used process */
	Dwfl *dwfl;
	Elf *arch_elf; /* an x86_64 ELF header, telling libdw the architecture */
	struct uw_mod *mods;
	size_t nr_mods, cap_mods;
	const Dwfl_Callbacks *callbacks;
	/*
	 * A map met during this unwind overlaps a reported module of another
	 * file (exec, dlclose + dlopen): the Dwfl must be rebuilt.
	 */
	bool stale;

	/* The sample being unwound. */
	struct uw_regs regs;
	const unsigned char *stack; /* copy of [stack_lo, stack_lo + stack_len) */
	uint64_t stack_lo, stack_len;
	perfev_unwind_find_map_fn find_map;
	void *ctx;
};

/*
 * The module holding addr, reporting the file mapped there (found with
 * find_map) the first time; NULL when no usable file is mapped there or
 * the map conflicts with what was reported (then p->stale is set).
 */
struct uw_mod *uw_proc__module(struct uw_proc *p, uint64_t addr);
/* Reads 8 read-only bytes at addr from the file mapped there; false if it can't. */
bool uw_proc__read_file(struct uw_proc *p, uint64_t addr, uint64_t *val);
/* Forgets every module (the Dwfl is being rebuilt or freed). */
void uw_proc__drop_modules(struct uw_proc *p);

/*
 * The load bias of a file with segments segs mapped at start from file
 * offset pgoff, that map holding addr; false when no segment holds pgoff.
 */
bool uw_bias(const struct uw_seg *segs, size_t nr, uint64_t start, uint64_t pgoff, uint64_t addr,
	     uint64_t *bias);

#endif
