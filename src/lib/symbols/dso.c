/* SPDX-License-Identifier: MIT */
/*
 * One DSO: its symbols loaded on first use by the loader of its kind, the
 * file offset -> ELF address mapping, and lookups.  A report asks millions
 * of addresses, so a lookup is a binary search over a sorted array with no
 * allocation (a C++ name is demangled once, the first time its symbol is
 * returned, into the DSO's name arena).
 */
#include <stdlib.h>

#include "util/internal.h"
#include "symbols/symbols_int.h"

void dso__load(struct perfev_dso *d)
{
	int err = 0;

	if (d->loaded)
		return;
	d->loaded = true;
	switch (d->kind) {
	case DSO_FILE:
		err = dso__load_file(d);
		break;
	case DSO_MEMORY:
		err = dso__load_memory(d);
		break;
	case DSO_KERNEL:
		err = d->image ? kallsyms__parse(d, d->image, d->image_size) : dso__load_kernel(d);
		break;
	case DSO_JIT:
		err = d->image ? perf_map__parse(d, d->image, d->image_size) : dso__load_jit(d);
		break;
	case DSO_NONE:
		dso__set_error(d, ENOENT, "%s: not a file, so no symbols", d->name);
		return;
	}
	if (err == -ENOMEM)
		dso__set_error(d, ENOMEM, "%s: out of memory while loading its symbols", d->name);
	if (!err && !d->nsyms)
		dso__set_error(d, ENOENT, "%s: no function symbols in %s", d->name,
			       d->sym_file ? d->sym_file : d->elf_file ? d->elf_file : "it");
}

/* ---- accessors and lookups ---- */

const char *perfev_dso__name(const struct perfev_dso *d)
{
	return d ? d->name : NULL;
}

const char *perfev_dso__short_name(const struct perfev_dso *d)
{
	return d ? d->short_name : NULL;
}

const char *perfev_dso__symbol_file(struct perfev_dso *d)
{
	if (!d)
		return NULL;
	dso__load(d);
	if (!d->nsyms)
		return NULL;
	return d->sym_file;
}

const char *perfev_dso__error(struct perfev_dso *d)
{
	if (!d)
		return "no DSO";
	dso__load(d);
	if (d->nsyms)
		return NULL;
	return d->error ? d->error : "no symbols (and no memory to say why)";
}

bool perfev_dso__is_kernel(const struct perfev_dso *d)
{
	return d && d->kind == DSO_KERNEL;
}

size_t perfev_dso__build_id(const struct perfev_dso *d, uint8_t *id, size_t size)
{
	size_t n = d->build_id_size < size ? d->build_id_size : size;

	memcpy(id, d->build_id, n);
	return d->build_id_size;
}

uint64_t perfev_dso__map_ip(struct perfev_dso *d, uint64_t ip, uint64_t map_start,
			    uint64_t map_pgoff)
{
	uint64_t off = ip - map_start + map_pgoff;
	const struct dso_seg *best = NULL;

	if (!d)
		return off;
	if (d->kind == DSO_KERNEL || d->kind == DSO_JIT)
		return ip;
	dso__load(d);
	if (!d->seg_offsets_known) {
		/*
		 * Only a separate debug file's headers (their p_filesz is 0):
		 * assume the mapping starts at the executable segment's page, as
		 * the loader maps it.
		 */
		for (size_t i = 0; i < d->nsegs; i++)
			if (d->segs[i].exec) {
				uint64_t mask = d->segs[i].align > 1 ? d->segs[i].align - 1 : 0;

				if (!(d->segs[i].align & mask))
					return ip - map_start + (d->segs[i].vaddr & ~mask);
				return ip - map_start + d->segs[i].vaddr;
			}
		return off;
	}
	for (size_t i = 0; i < d->nsegs; i++) {
		const struct dso_seg *s = &d->segs[i];

		if (off >= s->offset && off - s->offset < s->filesz)
			return off - s->offset + s->vaddr;
		/* Past a segment's file bytes (its .bss): the nearest one below. */
		if (off >= s->offset && (!best || s->offset > best->offset))
			best = s;
	}
	return best ? off - best->offset + best->vaddr : off;
}

const struct perfev_symbol *perfev_dso__find_symbol(struct perfev_dso *d, uint64_t addr)
{
	struct perfev_symbol *s;
	uint64_t start, size;
	size_t lo = 0, hi;

	if (!d) {
		errno = EINVAL;
		return NULL;
	}
	if (!d->loaded)
		dso__load(d);
	hi = d->nsyms;
	/* The last symbol starting at or below addr. */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if ((d->sc_syms ? symcache__start(d, mid) : d->syms[mid].start) <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo) {
		errno = ENOENT;
		return NULL;
	}
	/* Past the end of the symbol below: none (and none made from a cache file for that). */
	start = d->sc_syms ? symcache__start(d, lo - 1) : d->syms[lo - 1].start;
	size = d->sc_syms ? symcache__size(d, lo - 1) : d->syms[lo - 1].size;
	if (addr - start >= size && !(size == 0 && addr == start)) {
		errno = ENOENT;
		return NULL;
	}
	s = dso__sym(d, lo - 1);
	if (!s) {
		errno = ENOMEM;
		return NULL;
	}
	if (!s->name) {
		const char *dm = sym__demangle(d, s->raw_name);

		s->name = dm ? dm : s->raw_name;
		/* Kept in the cache file at the end: a report of the same program does not demangle again. */
		if (dm && d->sc_key[0])
			d->names_new = true;
	}
	return s;
}
