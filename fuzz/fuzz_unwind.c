/*
 * The unwinder over made-up samples, against this process's own mappings
 * (/proc/self/maps, read once), so libdw walks real CFI with registers
 * and stack bytes from the input.  The stack copy is an exact-size heap
 * buffer: a read past it is an ASan report.
 *
 * Input:
 *	byte 0	 flags: bit 7 raw SP from the input (else a fixed base),
 *		 bit 6 find_map names another file for every map (the process
 *		 "exec'd": rebuilds), bit 5 forget the process first, bits
 *		 0-4 drop that many registers from the mask (BP, SP, IP stay)
 *	byte 1	 which code map the IP is in; bytes 2-5 its offset there
 *	bytes 6-165   the 20 registers (AX..GS, R8..R15), IP and SP overridden
 *	the rest      the stack copy; a word whose top byte is 0xa5 becomes an
 *		      address in a code map (byte 4: which, bytes 0-3: offset),
 *		      0xa6 one in the stack copy (bytes 0-1: offset), so
 *		      return addresses and frame pointers are plausible
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perfev/perfev.h"
#include "perfev/unwind.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define NR_REGS 20
#define HDR (6 + NR_REGS * 8)
#define MAX_MAPS 512
#define STACK_BASE 0x7ffd00000000ull

struct map {
	uint64_t start, end, pgoff;
	char *path;
	bool exec;
};

static struct map maps[MAX_MAPS];
static size_t nr_maps;
static size_t code[MAX_MAPS], nr_code; /* indexes of executable file maps */
static struct perfev_unwinder *unwinder;
static const char *override; /* bit 6: this path for every file map */

static void load_maps(void)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[4096];

	if (!f)
		abort();
	while (nr_maps < MAX_MAPS && fgets(line, sizeof(line), f)) {
		struct perfev_proc_map pm;

		if (perfev_proc_map__parse(line, strlen(line), &pm) < 0)
			continue;
		maps[nr_maps] = (struct map){ pm.start, pm.end, pm.pgoff,
					      strndup(pm.path, pm.path_len),
					      (pm.prot & 4) != 0 };
		if (maps[nr_maps].exec && pm.path_len)
			code[nr_code++] = nr_maps;
		nr_maps++;
	}
	fclose(f);
	if (!nr_code)
		abort();
}

static int find_map(void *ctx, uint64_t addr, struct perfev_unwind_map *out)
{
	(void)ctx;
	for (size_t i = 0; i < nr_maps; i++) {
		if (addr >= maps[i].start && addr < maps[i].end) {
			out->start = maps[i].start;
			out->end = maps[i].end;
			out->pgoff = maps[i].pgoff;
			out->path = override && maps[i].path[0] == '/' ? override : maps[i].path;
			return 0;
		}
	}
	return -ENOENT;
}

static uint64_t code_addr(unsigned which, uint64_t off)
{
	const struct map *m = &maps[code[which % nr_code]];

	return m->start + off % (m->end - m->start);
}

static uint64_t get64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return v;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint64_t regs[NR_REGS], ips[128], mask = 0xff0fffull;
	struct perfev_sample s = { 0 };
	unsigned char *stack;
	size_t stack_len;
	uint8_t flags;
	int n;

	if (!unwinder) {
		load_maps();
		unwinder = perfev_unwinder__new(NULL);
		if (!unwinder)
			abort();
	}
	if (size < HDR)
		return 0;
	flags = data[0];
	for (unsigned i = 0; i < (flags & 31u); i++) {
		/* Drop a register the input names, unless it is BP (6), SP (7) or IP (8). */
		unsigned bit = (unsigned)data[6 + i] % 24;

		if (bit != 6 && bit != 7 && bit != 8)
			mask &= ~(1ull << bit);
	}
	for (unsigned i = 0; i < NR_REGS; i++)
		regs[i] = get64(data + 6 + i * 8);
	stack_len = size - HDR;
	stack = malloc(stack_len ? stack_len : 1);
	if (!stack)
		return 0;
	memcpy(stack, data + HDR, stack_len);

	uint64_t sp = flags & 0x80 ? regs[7] : STACK_BASE;

	for (size_t j = 0; j + 8 <= stack_len; j += 8) {
		uint64_t w = get64(stack + j);

		if (w >> 56 == 0xa5)
			w = code_addr((unsigned)(w >> 32) & 0xff, w & 0xffffffffu);
		else if (w >> 56 == 0xa6)
			w = sp + (w & 0xffff);
		else
			continue;
		memcpy(stack + j, &w, 8);
	}

	/* The registers present, in bit order, IP and SP in their places among them. */
	uint64_t packed[24], ip = code_addr(data[1], get64(data + 2) & 0xffffffffu);
	unsigned nr = 0;

	for (unsigned bit = 0; bit < 24; bit++) {
		if (!(mask & (1ull << bit)))
			continue;
		uint64_t v = regs[nr % NR_REGS];

		if (bit == 8)
			v = ip;
		else if (bit == 7)
			v = sp;
		packed[nr++] = v;
	}
	s.sample_type = PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER | PERF_SAMPLE_IP;
	s.regs_user.abi = PERF_SAMPLE_REGS_ABI_64;
	s.regs_user.mask = mask;
	s.regs_user.nr = nr;
	s.regs_user.regs = packed;
	s.stack_user.size = stack_len;
	s.stack_user.dyn_size = stack_len;
	s.stack_user.data = stack;

	override = flags & 0x40 ? maps[code[(data[1] + 1u) % nr_code]].path : NULL;
	if (flags & 0x20)
		perfev_unwinder__forget(unwinder, 4242);
	n = perfev_unwinder__unwind(unwinder, 4242, &s, find_map, NULL, ips, 128);
	if (n < 1 || n > 128 || ips[0] != ip)
		__builtin_trap(); /* a well-formed sample gives at least its IP */
	free(stack);
	return 0;
}
