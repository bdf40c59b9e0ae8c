/* SPDX-License-Identifier: MIT */
/* Shared by the files of annotate/ and their tests and fuzzer; never installed. */
#ifndef PERFEV_ANNOTATE_INT_H
#define PERFEV_ANNOTATE_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "perfev/annotate.h"

/* ---- hist.c ---- */

/*
 * Calls fn for the addresses in [start, end) of DSO d that have samples of
 * event evsel, with their counts (an address may come more than once: the
 * counts add up); 0, or -ENOMEM when the records could not be grouped.
 */
typedef void (*hist_addr_fn)(void *ctx, uint64_t addr, uint64_t nr_samples, uint64_t period);
int hist__for_each_addr(struct perfev_annotate_hist *h, int evsel, const struct perfev_dso *d,
			uint64_t start, uint64_t end, hist_addr_fn fn, void *ctx);

/* ---- disasm.c: Capstone over bounds-checked bytes ---- */

struct disasm;

/*
 * A disassembler for an ELF e_machine (EM_X86_64, EM_386, EM_AARCH64)
 * and class; NULL with errno and the error set (PERFEV_ERR_FORMAT: a
 * machine Capstone does not decode here; ENOMEM).
 */
struct disasm *disasm__new(unsigned machine, unsigned elf_class, bool big_endian);
void disasm__delete(struct disasm *dis);
/* "x86-64", "i386", "aarch64". */
const char *disasm__arch(const struct disasm *dis);

struct disasm_insn {
	uint64_t addr;
	uint32_t size; /* >= 1 */
	char mnemonic[32];
	char operands[160]; /* as Capstone writes them; jump targets as a bare address */
	bool jump, call, ret;
	bool has_target; /* a direct jump or call: target */
	uint64_t target;
	bool has_ref; /* a PC-relative data reference: ref (shown as "# ref <sym>") */
	uint64_t ref;
};

/*
 * Decodes the instruction at code[*off] (len bytes in all, code[0] at
 * address base) into *out and advances *off past it.  Bytes that decode
 * as no instruction become a one-byte ".byte 0xNN" (so a range of data or
 * garbage still ends).  False only when *off >= len.
 */
bool disasm__next(struct disasm *dis, const uint8_t *code, size_t len, uint64_t base, size_t *off,
		  struct disasm_insn *out);

/* ---- lines.c: per-source-line totals ---- */

/* Builds the lines of a's instructions (their line and inline chain set); 0 or -ENOMEM. */
int lines__build(struct perfev_annotation *a);

/* ---- annotation.c ---- */

struct perfev_annotation {
	struct perfev_annotation_info info;
	struct perfev_annotate_insn *insns;
	size_t nr_insns;
	uint8_t *code; /* the bytes insns point into */
	char *text;    /* mnemonics and operands, one block */
	struct perfev_annotate_line *lines;
	size_t nr_lines;
	uint32_t *line_insns; /* the lines' insns arrays, one block */
	struct perfev_inline_frame *frames; /* the insns' inline chains, one block */
};

#endif
