/*
 * ELF files are untrusted (any file a process maps).  An image from memory
 * goes through the same loader as files (libelf, our bounds checks, the
 * symbol table builder), then the lookups a report makes: map_ip, symbols,
 * source lines and inline frames through libdw.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "perfev/perfev.h"
#include "symbols/symbols_int.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void ask(struct perfev_dso *d, uint64_t addr)
{
	const struct perfev_symbol *s = perfev_dso__find_symbol(d, addr);
	struct perfev_inline_frame fr[8];
	struct perfev_srcline l;
	int n;

	if (s && (addr < s->start || (s->size && addr - s->start >= s->size) || !s->name))
		__builtin_trap();
	if (!perfev_dso__srcline(d, addr, &l) && !l.file)
		__builtin_trap();
	n = perfev_dso__inline_frames(d, addr, fr, 8);
	for (int i = 0; i < n && i < 8; i++)
		if (!fr[i].name && i < n - 1)
			__builtin_trap();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct perfev_symbolizer *sy = perfev_symbolizer__new(NULL);
	struct perfev_dso *d;

	if (!sy)
		return 0;
	d = symbolizer__dso_from_elf_image(sy, data, size);
	if (d) {
		perfev_dso__error(d);
		perfev_dso__map_ip(d, 0x401000, 0x400000, 0);
		for (size_t i = 1; i < d->nsyms; i++)
			if (d->syms[i].start <= d->syms[i - 1].start)
				__builtin_trap();
		for (size_t i = 0; i < d->nsyms && i < 16; i++) {
			ask(d, d->syms[i].start);
			ask(d, d->syms[i].start + d->syms[i].size / 2);
		}
		ask(d, 0x1000);
		ask(d, 0x1130);
	}
	perfev_symbolizer__delete(sy);
	return 0;
}
