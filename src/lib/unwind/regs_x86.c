/* SPDX-License-Identifier: MIT */
/*
 * The x86_64 user registers of a sample (perf's register numbering, from
 * the kernel's arch/x86/include/uapi/asm/perf_regs.h) in the DWARF order
 * libdw's x86_64 frame state uses (the System V psABI's DWARF numbers).
 */
#include <linux/perf_event.h>

#include "util/internal.h"
#include "unwind/unwind_int.h"

/* perf_event_x86_regs: AX BX CX DX SI DI BP SP IP FLAGS CS SS DS ES FS GS R8..R15. */
enum {
	PERF_X86_AX = 0,
	PERF_X86_BX = 1,
	PERF_X86_CX = 2,
	PERF_X86_DX = 3,
	PERF_X86_SI = 4,
	PERF_X86_DI = 5,
	PERF_X86_BP = 6,
	PERF_X86_SP = 7,
	PERF_X86_IP = 8,
	PERF_X86_R8 = 16,
	PERF_X86_R15 = 23,
};

/* DWARF register n is perf register dwarf_to_perf[n]. */
static const unsigned char dwarf_to_perf[UW_NR_DWARF] = {
	PERF_X86_AX,	 PERF_X86_DX,	  PERF_X86_CX,	   PERF_X86_BX,	    PERF_X86_SI,
	PERF_X86_DI,	 PERF_X86_BP,	  PERF_X86_SP,	   PERF_X86_R8 + 0, PERF_X86_R8 + 1,
	PERF_X86_R8 + 2, PERF_X86_R8 + 3, PERF_X86_R8 + 4, PERF_X86_R8 + 5, PERF_X86_R8 + 6,
	PERF_X86_R8 + 7, PERF_X86_IP,
};

int uw_x86_regs(const struct perfev_sample *s, struct uw_regs *out)
{
	uint64_t mask = s->regs_user.mask;
	const uint64_t need = (1ull << PERF_X86_IP) | (1ull << PERF_X86_SP) | (1ull << PERF_X86_BP);

	out->present = 0;
	if (!(s->sample_type & PERF_SAMPLE_REGS_USER) || s->regs_user.abi == PERF_SAMPLE_REGS_ABI_NONE)
		return set_error(EINVAL, "the sample has no user registers (a kernel thread, or "
					 "the event lacks PERF_SAMPLE_REGS_USER); record with "
					 "--call-graph dwarf");
	if (s->regs_user.abi == PERF_SAMPLE_REGS_ABI_32)
		return set_error(EOPNOTSUPP, "the sample has 32-bit user registers (a compat "
					     "process); only x86_64 processes can be unwound");
	if (s->regs_user.abi != PERF_SAMPLE_REGS_ABI_64)
		return set_error(EINVAL, "the sample's register ABI is %llu, not one the kernel "
					 "defines", (unsigned long long)s->regs_user.abi);
	if ((mask & need) != need)
		return set_error(EINVAL, "the sample's user registers (mask %#llx) lack IP, SP or BP; "
					 "record with sample_regs_user including them (perf uses "
					 "0xff0fff on x86_64)", (unsigned long long)mask);
	if (!s->regs_user.regs)
		return set_error(EINVAL, "the sample's user registers have no values (regs is NULL)");
	if ((uint64_t)__builtin_popcountll(mask) > s->regs_user.nr)
		return set_error(EINVAL, "the sample holds %llu user registers but its mask %#llx "
					 "names %d", (unsigned long long)s->regs_user.nr,
				 (unsigned long long)mask, __builtin_popcountll(mask));

	for (unsigned n = 0; n < UW_NR_DWARF; n++) {
		unsigned bit = dwarf_to_perf[n];

		if (!(mask & (1ull << bit)))
			continue;
		/* The registers present come in bit order: this one's index is the set bits below it. */
		size_t idx = (size_t)__builtin_popcountll(mask & ((1ull << bit) - 1));

		out->val[n] = perfev_u64_at(s->regs_user.regs, idx);
		out->present |= 1u << n;
	}
	return 0;
}
