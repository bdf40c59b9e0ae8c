/*
 * The symbol cache's files are read back as untrusted bytes: any input is
 * either refused or gives a sorted table whose every name lies inside the
 * input and whose lookups stay in it.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "perfev/perfev.h"
#include "symbols/symbols_int.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void inside(const char *s, const uint8_t *img, size_t size)
{
	if (s && ((const uint8_t *)s < img || (const uint8_t *)s >= img + size ||
		  !memchr(s, 0, (size_t)(img + size - (const uint8_t *)s))))
		__builtin_trap();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct perfev_symbolizer *sy = perfev_symbolizer__new(NULL);
	struct symcache_info ci;
	struct perfev_dso *d;
	uint8_t *img;

	if (!sy)
		return 0;
	/* A copy of exactly size bytes: any read past it is the sanitizer's to catch. */
	img = malloc(size ? size : 1);
	d = img ? perfev_symbolizer__dso(sy, "/fuzz/file", NULL, 0) : NULL;
	if (d) {
		memcpy(img, data, size);
		/* Loaded (nothing there), so the table below is the cache's alone. */
		perfev_dso__error(d);
		if (symcache__parse(d, img, size, &ci) == 0) {
			inside(ci.sym_file, img, size);
			inside(ci.dwarf_file, img, size);
			inside(ci.debuglink, img, size);
			/* Symbols are made from the mapping when asked: each one checked as made. */
			for (size_t i = 0; i < d->nsyms; i++) {
				const struct perfev_symbol *s = dso__sym(d, i), *p;

				if (!s)
					break;
				inside(s->raw_name, img, size);
				inside(s->name, img, size);
				if (i && (p = dso__sym(d, i - 1)) && s->start < p->start)
					__builtin_trap();
				if (dso__sym(d, i) != s)
					__builtin_trap(); /* made once: the same symbol again */
			}
			for (size_t i = 0; i < d->nsyms && i < 16; i++)
				perfev_dso__find_symbol(d, symcache__start(d, i) + 1);
			perfev_dso__map_ip(d, 0x401000, 0x400000, 0);
		}
	}
	perfev_symbolizer__delete(sy);
	free(img);
	return 0;
}
