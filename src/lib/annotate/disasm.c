/* SPDX-License-Identifier: MIT */
/*
 * Disassembly with Capstone, one instruction at a time over a buffer whose
 * length we give it (so it never reads past the code we copied).  x86 in
 * AT&T syntax with objdump's operand spacing, as perf annotate shows it;
 * AArch64 as Capstone writes it.  What decodes as nothing becomes one
 * ".byte", so data in a code range or a corrupt file still ends.
 */
#include <capstone/capstone.h>
#include <elf.h>
#include <stdlib.h>
#include <string.h>

#include "util/internal.h"
#include "annotate/annotate_int.h"
#include "util/dynlib.h"

/* Capstone, opened when code is first disassembled (util/dynlib.h says why). */
#define CS_STR(x) #x
#define CS_SONAME(major) "libcapstone.so." CS_STR(major)
#define CS_PACKAGE(major) "libcapstone" CS_STR(major)

static struct {
	__typeof__(&cs_support) support;
	__typeof__(&cs_open) open;
	__typeof__(&cs_strerror) strerror;
	__typeof__(&cs_option) option;
	__typeof__(&cs_malloc) malloc;
	__typeof__(&cs_free) free;
	__typeof__(&cs_close) close;
	__typeof__(&cs_disasm_iter) disasm_iter;
	__typeof__(&cs_insn_group) insn_group;
} cs;

#define CS_BIND(h, f) ((cs.f = (__typeof__(cs.f))dynlib_sym((h), "cs_" #f)) != NULL)

static bool cs_bind(void *h)
{
	return CS_BIND(h, support) && CS_BIND(h, open) && CS_BIND(h, strerror) &&
	       CS_BIND(h, option) && CS_BIND(h, malloc) && CS_BIND(h, free) && CS_BIND(h, close) &&
	       CS_BIND(h, disasm_iter) && CS_BIND(h, insn_group);
}

static struct dynlib capstone = DYNLIB_INIT(CS_SONAME(CS_API_MAJOR), CS_PACKAGE(CS_API_MAJOR),
					    "disassembling code", cs_bind);

struct disasm {
	csh cs;
	cs_insn *insn;
	cs_arch arch;
	const char *name;
};

struct disasm *disasm__new(unsigned machine, unsigned elf_class, bool big_endian)
{
	struct disasm *dis;
	cs_mode mode;
	cs_arch arch;
	const char *name;
	cs_err err;

	switch (machine) {
	case EM_X86_64:
		arch = CS_ARCH_X86, mode = CS_MODE_64, name = "x86-64";
		break;
	case EM_386:
		arch = CS_ARCH_X86, mode = CS_MODE_32, name = "i386";
		break;
	case EM_AARCH64:
		arch = CS_ARCH_ARM64, name = "aarch64";
		mode = big_endian ? CS_MODE_BIG_ENDIAN : CS_MODE_LITTLE_ENDIAN;
		break;
	default:
		return set_error_ptr(PERFEV_ERR_FORMAT, "code of ELF machine %u (class %u) is not "
				     "disassembled: perfev annotates x86-64, i386 and aarch64 code",
				     machine, elf_class);
	}
	if (!dynlib_ready(&capstone))
		return NULL;
	if (!cs.support(arch))
		return set_error_ptr(PERFEV_ERR_FORMAT, "this Capstone library was built without %s; "
				     "install one that has it (Debian's libcapstone4 does)", name);
	dis = calloc(1, sizeof(*dis));
	if (!dis)
		return set_error_ptr(ENOMEM, "no memory for a disassembler");
	err = cs.open(arch, mode, &dis->cs);
	if (err != CS_ERR_OK) {
		free(dis);
		return set_error_ptr(err == CS_ERR_MEM ? ENOMEM : PERFEV_ERR_FORMAT,
				     "Capstone cannot disassemble %s: %s", name, cs.strerror(err));
	}
	if (arch == CS_ARCH_X86)
		cs.option(dis->cs, CS_OPT_SYNTAX, CS_OPT_SYNTAX_ATT);
	cs.option(dis->cs, CS_OPT_DETAIL, CS_OPT_ON);
	dis->insn = cs.malloc(dis->cs);
	if (!dis->insn) {
		cs.close(&dis->cs);
		free(dis);
		return set_error_ptr(ENOMEM, "no memory for a disassembled instruction");
	}
	dis->arch = arch;
	dis->name = name;
	return dis;
}

void disasm__delete(struct disasm *dis)
{
	if (!dis)
		return;
	if (dis->insn)
		cs.free(dis->insn, 1);
	cs.close(&dis->cs);
	free(dis);
}

const char *disasm__arch(const struct disasm *dis)
{
	return dis->name;
}

/* objdump writes x86 operands "a,b": Capstone "a, b". */
static void copy_operands(char *dst, size_t size, const char *src, bool squeeze)
{
	size_t n = 0;

	for (; *src && n + 1 < size; src++) {
		if (squeeze && *src == ' ' && n && dst[n - 1] == ',')
			continue;
		dst[n++] = *src;
	}
	dst[n] = 0;
}

static void x86_detail(const cs_insn *in, struct disasm_insn *out)
{
	const cs_x86 *x = &in->detail->x86;

	for (uint8_t i = 0; i < x->op_count && i < 8; i++) {
		const cs_x86_op *op = &x->operands[i];

		if ((out->jump || out->call) && op->type == X86_OP_IMM && x->op_count == 1) {
			out->has_target = true;
			out->target = (uint64_t)op->imm;
		} else if (op->type == X86_OP_MEM && op->mem.base == X86_REG_RIP &&
			   op->mem.index == X86_REG_INVALID) {
			out->has_ref = true;
			out->ref = in->address + in->size + (uint64_t)op->mem.disp;
		}
	}
}

/* Capstone 4 leaves AArch64 branches out of its groups: known by their ids. */
static void arm64_kind(const cs_insn *in, struct disasm_insn *out)
{
	switch (in->id) {
	case ARM64_INS_BL:
	case ARM64_INS_BLR:
		out->call = true;
		break;
	case ARM64_INS_B:
	case ARM64_INS_BR:
	case ARM64_INS_CBZ:
	case ARM64_INS_CBNZ:
	case ARM64_INS_TBZ:
	case ARM64_INS_TBNZ:
		out->jump = true;
		break;
	case ARM64_INS_RET:
		out->ret = true;
		break;
	default:
		break;
	}
}

static void arm64_detail(const cs_insn *in, struct disasm_insn *out)
{
	const cs_arm64 *x = &in->detail->arm64;
	const cs_arm64_op *last;

	arm64_kind(in, out);
	if (!x->op_count || x->op_count > 8)
		return;
	last = &x->operands[x->op_count - 1];
	if (last->type != ARM64_OP_IMM)
		return;
	if (out->jump || out->call) {
		out->has_target = true;
		out->target = (uint64_t)last->imm;
	} else if (in->id == ARM64_INS_ADR || in->id == ARM64_INS_ADRP) {
		out->has_ref = true;
		out->ref = (uint64_t)last->imm;
	}
}

bool disasm__next(struct disasm *dis, const uint8_t *code, size_t len, uint64_t base, size_t *off,
		  struct disasm_insn *out)
{
	const uint8_t *p;
	uint64_t addr;
	size_t left;

	if (*off >= len)
		return false;
	memset(out, 0, sizeof(*out));
	p = code + *off;
	left = len - *off;
	addr = base + *off;
	out->addr = addr;
	if (!cs.disasm_iter(dis->cs, &p, &left, &addr, dis->insn) || p <= code + *off ||
	    (size_t)(p - code) > len) {
		out->size = 1;
		snprintf(out->mnemonic, sizeof(out->mnemonic), ".byte");
		snprintf(out->operands, sizeof(out->operands), "0x%02x", code[*off]);
		*off += 1;
		return true;
	}
	out->size = (uint32_t)(p - (code + *off));
	snprintf(out->mnemonic, sizeof(out->mnemonic), "%s", dis->insn->mnemonic);
	copy_operands(out->operands, sizeof(out->operands), dis->insn->op_str,
		      dis->arch == CS_ARCH_X86);
	out->jump = cs.insn_group(dis->cs, dis->insn, CS_GRP_JUMP);
	out->call = cs.insn_group(dis->cs, dis->insn, CS_GRP_CALL);
	out->ret = cs.insn_group(dis->cs, dis->insn, CS_GRP_RET);
	if (dis->insn->detail) {
		if (dis->arch == CS_ARCH_X86)
			x86_detail(dis->insn, out);
		else
			arm64_detail(dis->insn, out);
	}
	*off = (size_t)(p - code);
	return true;
}
