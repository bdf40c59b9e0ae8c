/*
 * Annotation reads code bytes and DWARF of untrusted files.  The first
 * byte chooses: raw bytes disassembled as x86-64, i386 or AArch64 (each
 * instruction within the buffer, the offsets moving forward), or an ELF
 * image whose first symbols are annotated with samples on them (the
 * instructions in order and inside the range, every line's instructions
 * pointing back at it, the shares adding up).
 */
#include <elf.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "perfev/perfev.h"
#include "symbols/symbols_int.h"
#include "annotate/annotate_int.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void raw(unsigned machine, unsigned cls, const uint8_t *code, size_t len)
{
	struct disasm *dis = disasm__new(machine, cls, false);
	struct disasm_insn in;
	size_t off = 0, prev;

	if (!dis)
		__builtin_trap();
	for (prev = 0; disasm__next(dis, code, len, 0x1000, &off, &in); prev = off) {
		if (off <= prev || off > len || in.size != off - prev || in.addr != 0x1000 + prev ||
		    !memchr(in.mnemonic, 0, sizeof(in.mnemonic)) ||
		    !memchr(in.operands, 0, sizeof(in.operands)))
			__builtin_trap();
	}
	disasm__delete(dis);
}

static void check(const struct perfev_annotation *a)
{
	const struct perfev_annotation_info *info = perfev_annotation__info(a);
	uint64_t self = 0, with_line = 0;

	for (size_t i = 0; i < perfev_annotation__nr_insns(a); i++) {
		const struct perfev_annotate_insn *in = perfev_annotation__insn(a, i);

		if (in->addr < info->start || in->addr + in->size > info->end || !in->size ||
		    (i && in->addr != perfev_annotation__insn(a, i - 1)->addr +
					  perfev_annotation__insn(a, i - 1)->size) ||
		    !in->mnemonic || !in->operands)
			__builtin_trap();
		if (in->line_index != UINT32_MAX) {
			if (in->line_index >= perfev_annotation__nr_lines(a))
				__builtin_trap();
			with_line += in->period;
		}
	}
	for (size_t i = 0; i < perfev_annotation__nr_lines(a); i++) {
		const struct perfev_annotate_line *l = perfev_annotation__line(a, i);

		if (l->total_period < l->self_period || !l->where.file)
			__builtin_trap();
		for (uint32_t k = 0; k < l->nr_insns; k++)
			if (perfev_annotation__insn(a, l->insns[k])->line_index != i)
				__builtin_trap();
		self += l->self_period;
	}
	if (self != with_line)
		__builtin_trap();
}

static void image(const uint8_t *data, size_t size)
{
	struct perfev_symbolizer *sy = perfev_symbolizer__new(NULL);
	struct perfev_annotate_hist *h = perfev_annotate_hist__new();
	struct perfev_dso *d;

	if (!sy || !h)
		goto out;
	d = symbolizer__dso_from_elf_image(sy, data, size);
	if (!d)
		goto out;
	perfev_dso__error(d);
	for (size_t i = 0; i < d->nsyms && i < 8; i++) {
		const struct perfev_symbol *s = &d->syms[i];
		/* A lying size would make every run slow, not wrong: keep ranges small. */
		uint64_t len = s->size && s->size < 4096 ? s->size : 64;
		struct perfev_annotation *a;

		perfev_annotate_hist__add_addr(h, 0, d, s, s->start, 3);
		perfev_annotate_hist__add_addr(h, 0, d, s, s->start + len / 2, 5);
		a = perfev_annotation__new(h, 0, d, s->start, s->start + len, NULL);
		if (a)
			check(a);
		perfev_annotation__delete(a);
	}
out:
	perfev_annotate_hist__delete(h);
	perfev_symbolizer__delete(sy);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!size)
		return 0;
	switch (data[0]) {
	case 'x':
		raw(EM_X86_64, ELFCLASS64, data + 1, size - 1);
		break;
	case 'i':
		raw(EM_386, ELFCLASS32, data + 1, size - 1);
		break;
	case 'a':
		raw(EM_AARCH64, ELFCLASS64, data + 1, size - 1);
		break;
	default:
		image(data, size);
		break;
	}
	return 0;
}
