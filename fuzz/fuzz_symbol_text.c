/*
 * Symbol text is untrusted (/proc/kallsyms copies, perf-PID.map files a JIT
 * writes while we read).  The first byte picks the parser: even kallsyms,
 * odd perf map.  Whatever parses must give a sorted table whose lookups
 * return a symbol covering the address asked.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "perfev/perfev.h"
#include "symbols/symbols_int.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(struct perfev_dso *d, uint64_t addr)
{
	const struct perfev_symbol *s = perfev_dso__find_symbol(d, addr);

	if (s && (addr < s->start || (s->size && addr - s->start >= s->size) || !s->name ||
		  !s->raw_name))
		__builtin_trap();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct perfev_symbolizer *sy;
	struct perfev_dso *d;

	if (!size)
		return 0;
	sy = perfev_symbolizer__new(NULL);
	if (!sy)
		return 0;
	d = symbolizer__dso_from_text(sy, !(data[0] & 1), (const char *)data + 1, size - 1);
	if (d) {
		perfev_dso__error(d);
		for (size_t i = 1; i < d->nsyms; i++)
			if (d->syms[i].start <= d->syms[i - 1].start)
				__builtin_trap();
		for (size_t i = 0; i < d->nsyms && i < 64; i++) {
			check(d, d->syms[i].start);
			check(d, d->syms[i].start + d->syms[i].size / 2);
			check(d, d->syms[i].start + d->syms[i].size);
			check(d, d->syms[i].start - 1);
		}
		check(d, 0);
		check(d, UINT64_MAX);
	}
	perfev_symbolizer__delete(sy);
	return 0;
}
