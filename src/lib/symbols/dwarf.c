/* SPDX-License-Identifier: MIT */
/*
 * Source lines and inline frames from DWARF, with libdw.  A report asks
 * the same addresses again and again, so each answer is kept per address
 * (an open-addressing table) with its strings in the DSO's arena; file
 * names point into libdw's line tables, which live as long as the DSO.
 *
 * The compile unit of an address comes from our own sorted table of every
 * CU's ranges rather than dwarf_addrdie(): that needs .debug_aranges,
 * which clang does not emit by default.
 */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/internal.h"
#include "symbols/symbols_int.h"

#define NOT_YET INT32_MIN
/* A sane inline chain is a few dozen deep; past this the DWARF is lying. */
#define MAX_INLINE_DEPTH 256
/* Nor does any real program have this many CU ranges. */
#define MAX_RANGES (1u << 24)

struct cu_range {
	uint64_t lo, hi; /* [lo, hi) */
	uint32_t cu; /* index into cus */
};

struct addr_entry {
	uint64_t addr;
	int32_t line_ret; /* 0, -ENOENT, or NOT_YET */
	int32_t nframes; /* >= 1, -ENOENT, or NOT_YET */
	struct perfev_srcline line;
	struct perfev_inline_frame *frames;
};

struct addr_cache {
	Dwarf_Die *cus;
	size_t ncus;
	struct cu_range *ranges;
	size_t nranges;

	/* Relative file names joined to their CU's directory, keyed by libdw's pointer. */
	struct joined { const char *dw, *path; } *joined;
	size_t njoined, joined_cap; /* joined_cap a power of two */

	uint32_t *slots; /* entry index + 1; 0 empty */
	size_t nslots;
	struct addr_entry *entries;
	size_t nentries, cap;

	/*
	 * The function the last inline chain was found in: the addresses asked
	 * next (a report's, or a whole function annotated) are mostly in it
	 * again, and finding it among a big CU's functions is most of the cost.
	 */
	Dwarf_Die last_sub;
	const Dwarf_Die *last_cu; /* NULL: none yet */
};

void dso__dwarf_close(struct perfev_dso *d)
{
	if (d->cache) {
		free(d->cache->cus);
		free(d->cache->ranges);
		free(d->cache->slots);
		free(d->cache->joined);
		free(d->cache->entries);
		free(d->cache);
		d->cache = NULL;
	}
	if (d->dwarf)
		dwarf_end(d->dwarf);
	d->dwarf = NULL;
	if (d->dwarf_elf)
		elf_end(d->dwarf_elf);
	d->dwarf_elf = NULL;
	if (d->dwarf_fd >= 0)
		close(d->dwarf_fd);
	d->dwarf_fd = -1;
}

static int cmp_range(const void *pa, const void *pb)
{
	const struct cu_range *a = pa, *b = pb;

	if (a->lo != b->lo)
		return a->lo < b->lo ? -1 : 1;
	return (a->hi > b->hi) - (a->hi < b->hi);
}

static int add_range(struct addr_cache *c, size_t *cap, uint64_t lo, uint64_t hi, uint32_t cu)
{
	if (hi <= lo)
		return 0;
	if (c->nranges == *cap) {
		size_t n = *cap ? *cap * 2 : 64;
		struct cu_range *r;

		if (n > MAX_RANGES)
			return -E2BIG;
		r = realloc(c->ranges, n * sizeof(*r));
		if (!r)
			return -ENOMEM;
		c->ranges = r;
		*cap = n;
	}
	c->ranges[c->nranges++] = (struct cu_range){ lo, hi, cu };
	return 0;
}

/* Every compile unit and its address ranges. */
static int index_cus(Dwarf *dw, struct addr_cache *c)
{
	Dwarf_CU *cu = NULL, *next;
	size_t ccap = 0, rcap = 0;
	Dwarf_Die cudie, subdie;
	Dwarf_Half version;
	uint8_t type;

	while (dwarf_get_units(dw, cu, &next, &version, &type, &cudie, &subdie) == 0) {
		Dwarf_Addr base, lo, hi;
		ptrdiff_t off = 0;

		cu = next;
		if (type != DW_UT_compile && type != DW_UT_partial)
			continue;
		if (c->ncus == ccap) {
			size_t n = ccap ? ccap * 2 : 32;
			Dwarf_Die *p;

			if (n > MAX_RANGES)
				return -E2BIG;
			p = realloc(c->cus, n * sizeof(*p));
			if (!p)
				return -ENOMEM;
			c->cus = p;
			ccap = n;
		}
		c->cus[c->ncus] = cudie;
		while ((off = dwarf_ranges(&cudie, off, &base, &lo, &hi)) > 0) {
			int err = add_range(c, &rcap, lo, hi, (uint32_t)c->ncus);

			if (err)
				return err;
		}
		c->ncus++;
	}
	if (c->nranges)
		sort_array(c->ranges, c->nranges, sizeof(*c->ranges), cmp_range);
	return 0;
}

/* Opens the DWARF of d once; NULL when there is none. */
static struct addr_cache *dwarf_open(struct perfev_dso *d)
{
	Elf *elf = NULL;
	int err;

	if (d->dwarf_tried)
		return d->cache;
	d->dwarf_tried = true;
	dso__load(d);
	if (d->kind == DSO_MEMORY) {
		elf = d->dwarf_elf;
	} else if (d->kind == DSO_FILE && d->dwarf_file) {
		/* The cache's decompressed copy first; the file itself when there is none or it fails. */
		elf_version(EV_CURRENT);
		for (int pass = 0; pass < 2 && !d->dwarf; pass++) {
			int fd = pass ? open(d->dwarf_file, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK)
				      : dwarfcache__open(d, d->dwarf_file);

			if (fd < 0)
				continue;
			elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
			d->dwarf = elf ? dwarf_begin_elf(elf, DWARF_C_READ, NULL) : NULL;
			if (d->dwarf) {
				d->dwarf_fd = fd;
				d->dwarf_elf = elf;
				break;
			}
			if (!pass)
				pr_debug("symbols: %s: its cached copy has no usable DWARF: %s\n",
					 d->dwarf_file, dwarf_errmsg(-1));
			if (elf)
				elf_end(elf);
			elf = NULL;
			close(fd);
		}
		if (!d->dwarf) {
			pr_debug("symbols: %s: no usable DWARF: %s\n", d->dwarf_file, dwarf_errmsg(-1));
			return NULL;
		}
	}
	if (!d->dwarf) {
		if (!elf)
			return NULL;
		d->dwarf = dwarf_begin_elf(elf, DWARF_C_READ, NULL);
		if (!d->dwarf) {
			pr_debug("symbols: %s: no usable DWARF: %s\n", d->name, dwarf_errmsg(-1));
			return NULL;
		}
	}
	d->cache = calloc(1, sizeof(*d->cache));
	if (!d->cache)
		return NULL;
	err = index_cus(d->dwarf, d->cache);
	if (err)
		pr_debug("symbols: %s: DWARF units not indexed whole (%s)\n", d->name,
			 strerror(-err));
	return d->cache;
}

/* ---- the per-address table ---- */

static size_t slot_of(uint64_t addr, size_t nslots)
{
	return (size_t)((addr * 0x9e3779b97f4a7c15ull) >> 17) & (nslots - 1);
}

static struct addr_entry *entry_get(struct addr_cache *c, uint64_t addr)
{
	size_t i;

	if (c->nslots) {
		for (i = slot_of(addr, c->nslots); c->slots[i]; i = (i + 1) & (c->nslots - 1))
			if (c->entries[c->slots[i] - 1].addr == addr)
				return &c->entries[c->slots[i] - 1];
	}
	if (c->nentries >= UINT32_MAX - 1)
		return NULL;
	if (c->nentries == c->cap) {
		size_t n = c->cap ? c->cap * 2 : 256;
		struct addr_entry *e = realloc(c->entries, n * sizeof(*e));

		if (!e)
			return NULL;
		c->entries = e;
		c->cap = n;
	}
	if ((c->nentries + 1) * 2 > c->nslots) {
		size_t n = c->nslots ? c->nslots * 2 : 512;
		uint32_t *s = calloc(n, sizeof(*s));

		if (!s)
			return NULL;
		for (size_t k = 0; k < c->nentries; k++) {
			size_t j = slot_of(c->entries[k].addr, n);

			while (s[j])
				j = (j + 1) & (n - 1);
			s[j] = (uint32_t)k + 1;
		}
		free(c->slots);
		c->slots = s;
		c->nslots = n;
	}
	for (i = slot_of(addr, c->nslots); c->slots[i]; i = (i + 1) & (c->nslots - 1))
		;
	c->entries[c->nentries] = (struct addr_entry){ .addr = addr, .line_ret = NOT_YET,
						       .nframes = NOT_YET };
	c->slots[i] = (uint32_t)++c->nentries;
	return &c->entries[c->nentries - 1];
}

/* ---- DWARF questions ---- */

static Dwarf_Die *cu_of(struct addr_cache *c, uint64_t addr)
{
	size_t lo = 0, hi = c->nranges;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (c->ranges[mid].lo <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	/* Ranges of different CUs seldom nest; look back a little for one that holds addr. */
	for (size_t i = lo, n = 0; i-- > 0 && n < 8; n++)
		if (addr < c->ranges[i].hi)
			return &c->cus[c->ranges[i].cu];
	return NULL;
}

static size_t ptr_slot(const void *p, size_t cap)
{
	return (size_t)(((uintptr_t)p * 0x9e3779b97f4a7c15ull) >> 20) & (cap - 1);
}

/*
 * file as DWARF names it, joined to the CU's DW_AT_comp_dir when relative;
 * each distinct name joined once (the table is keyed by libdw's pointer,
 * stable while the Dwarf is open).
 */
static const char *full_path(struct perfev_dso *d, Dwarf_Die *cudie, const char *file)
{
	struct addr_cache *c = d->cache;
	Dwarf_Attribute a;
	const char *dir;
	size_t i, dl, fl;
	char *path;

	if (file[0] == '/')
		return file;
	if (c->joined_cap) {
		for (i = ptr_slot(file, c->joined_cap); c->joined[i].dw; i = (i + 1) & (c->joined_cap - 1))
			if (c->joined[i].dw == file)
				return c->joined[i].path;
	}
	dir = dwarf_formstring(dwarf_attr(cudie, DW_AT_comp_dir, &a));
	if (!dir || !*dir)
		return file;
	if ((c->njoined + 1) * 2 > c->joined_cap) {
		size_t n = c->joined_cap ? c->joined_cap * 2 : 64;
		struct joined *t = calloc(n, sizeof(*t));

		if (!t)
			return file;
		for (size_t k = 0; k < c->joined_cap; k++) {
			if (!c->joined[k].dw)
				continue;
			for (i = ptr_slot(c->joined[k].dw, n); t[i].dw; i = (i + 1) & (n - 1))
				;
			t[i] = c->joined[k];
		}
		free(c->joined);
		c->joined = t;
		c->joined_cap = n;
	}
	dl = strlen(dir);
	fl = strlen(file);
	path = arena_alloc(&d->names, dl + fl + 2);
	if (!path)
		return file;
	memcpy(path, dir, dl);
	path[dl] = '/';
	memcpy(path + dl + 1, file, fl + 1);
	for (i = ptr_slot(file, c->joined_cap); c->joined[i].dw; i = (i + 1) & (c->joined_cap - 1))
		;
	c->joined[i] = (struct joined){ file, path };
	c->njoined++;
	return path;
}

static int line_of(struct perfev_dso *d, Dwarf_Die *cudie, uint64_t addr,
		   struct perfev_srcline *out)
{
	Dwarf_Line *l = dwarf_getsrc_die(cudie, addr);
	const char *file;
	int line;

	if (!l || dwarf_lineno(l, &line) || !(file = dwarf_linesrc(l, NULL, NULL)))
		return -ENOENT;
	out->file = full_path(d, cudie, file);
	out->line = line < 0 ? 0 : (uint32_t)line;
	return 0;
}

static int fill_line(struct perfev_dso *d, struct addr_entry *e)
{
	Dwarf_Die *cu;

	if (e->line_ret != NOT_YET)
		return e->line_ret;
	cu = cu_of(d->cache, e->addr);
	e->line_ret = cu ? line_of(d, cu, e->addr, &e->line) : -ENOENT;
	return e->line_ret;
}

int perfev_dso__srcline(struct perfev_dso *d, uint64_t addr, struct perfev_srcline *out)
{
	struct addr_cache *c;
	struct addr_entry *e;
	int ret;

	if (!d || !out)
		return -EINVAL;
	c = dwarf_open(d);
	if (!c)
		return -ENOENT;
	e = entry_get(c, addr);
	if (!e)
		return -ENOMEM;
	ret = fill_line(d, e);
	if (!ret)
		*out = e->line;
	return ret;
}

static const char *attr_string(Dwarf_Die *die, unsigned name)
{
	Dwarf_Attribute a;

	return dwarf_formstring(dwarf_attr_integrate(die, name, &a));
}

/* A function's name: its linkage name demangled like symbols, else its plain name. */
static const char *die_name(struct perfev_dso *d, Dwarf_Die *die)
{
	const char *link = attr_string(die, DW_AT_linkage_name);

	if (!link)
		link = attr_string(die, DW_AT_MIPS_linkage_name);
	if (link) {
		const char *dm = sym__demangle(d, link);

		return dm ? dm : link;
	}
	return attr_string(die, DW_AT_name);
}

static bool call_site(struct perfev_dso *d, Dwarf_Die *cudie, Dwarf_Die *inl,
		      struct perfev_srcline *out)
{
	Dwarf_Attribute a;
	Dwarf_Word file, line = 0;
	Dwarf_Files *files;
	size_t nfiles;
	const char *name;

	if (dwarf_formudata(dwarf_attr(inl, DW_AT_call_file, &a), &file) ||
	    dwarf_getsrcfiles(cudie, &files, &nfiles) || file >= nfiles ||
	    !(name = dwarf_filesrc(files, file, NULL, NULL)))
		return false;
	dwarf_formudata(dwarf_attr(inl, DW_AT_call_line, &a), &line);
	out->file = full_path(d, cudie, name);
	out->line = line > UINT32_MAX ? UINT32_MAX : (uint32_t)line;
	return true;
}

/*
 * The DIEs of the functions holding addr, outermost first: the subprogram,
 * then each inlined_subroutine down to the innermost.  Our own walk rather
 * than dwarf_getscopes(): that leaks its array when it fails on bad DWARF.
 * Namespaces and classes are entered without a PC test (C++ definitions
 * nest in them); subtrees whose ranges miss addr are skipped.
 */
struct scope_path {
	Dwarf_Die die[MAX_INLINE_DEPTH];
	int n;
};

static bool find_scopes(Dwarf_Die *parent, uint64_t addr, struct scope_path *p, int depth)
{
	Dwarf_Die child;

	if (depth >= MAX_INLINE_DEPTH || dwarf_child(parent, &child) != 0)
		return false;
	do {
		switch (dwarf_tag(&child)) {
		case DW_TAG_subprogram:
		case DW_TAG_inlined_subroutine:
		case DW_TAG_entry_point:
		case DW_TAG_lexical_block:
			if (dwarf_haspc(&child, addr) <= 0)
				break;
			if (dwarf_tag(&child) != DW_TAG_lexical_block && p->n < MAX_INLINE_DEPTH)
				p->die[p->n++] = child;
			find_scopes(&child, addr, p, depth + 1);
			return true;
		case DW_TAG_namespace:
		case DW_TAG_class_type:
		case DW_TAG_structure_type:
		case DW_TAG_union_type:
		case DW_TAG_module:
			if (find_scopes(&child, addr, p, depth + 1))
				return true;
			break;
		default:
			break;
		}
	} while (dwarf_siblingof(&child, &child) == 0);
	return false;
}

static int fill_frames(struct perfev_dso *d, struct addr_cache *c, struct addr_entry *e)
{
	struct perfev_inline_frame tmp[MAX_INLINE_DEPTH];
	const struct perfev_symbol *sym;
	struct scope_path *path;
	Dwarf_Die *cu;
	int nf = 0;

	if (e->nframes != NOT_YET)
		return e->nframes;
	e->nframes = -ENOENT;
	cu = cu_of(c, e->addr);
	if (!cu)
		return e->nframes;
	fill_line(d, e);
	path = malloc(sizeof(*path));
	if (!path)
		return -ENOMEM;
	path->n = 0;
	if (c->last_cu == cu && dwarf_haspc(&c->last_sub, e->addr) > 0) {
		path->die[path->n++] = c->last_sub;
		find_scopes(&c->last_sub, e->addr, path, 1);
	} else {
		find_scopes(cu, e->addr, path, 0);
		if (path->n && dwarf_tag(&path->die[0]) == DW_TAG_subprogram) {
			c->last_sub = path->die[0];
			c->last_cu = cu;
		}
	}
	/* Innermost first; a subprogram ends the chain (nested functions: the innermost one). */
	for (int i = path->n - 1; i >= 0; i--) {
		struct perfev_inline_frame *f = &tmp[nf];
		int tag = dwarf_tag(&path->die[i]);

		f->name = die_name(d, &path->die[i]);
		if (!f->name && tag == DW_TAG_inlined_subroutine)
			f->name = "??";
		if (!nf) {
			f->where = e->line_ret ? (struct perfev_srcline){ 0 } : e->line;
		} else if (dwarf_tag(&path->die[i + 1]) != DW_TAG_inlined_subroutine ||
			   !call_site(d, cu, &path->die[i + 1], &f->where)) {
			/* Where the inner frame was inlined into this one: unknown. */
			f->where = (struct perfev_srcline){ 0 };
		}
		nf++;
		if (tag != DW_TAG_inlined_subroutine)
			break;
	}
	free(path);
	if (!nf && e->line_ret)
		return e->nframes; /* no function, no line: nothing known */
	if (!nf)
		tmp[nf++] = (struct perfev_inline_frame){ .where = e->line };
	/* The outermost is the symbol; DWARF may not name it (assembly, stripped names). */
	if (!tmp[nf - 1].name && (sym = perfev_dso__find_symbol(d, e->addr)))
		tmp[nf - 1].name = sym->name;
	if (!tmp[nf - 1].name)
		tmp[nf - 1].name = "??";
	e->frames = arena_alloc(&d->names, (size_t)nf * sizeof(*e->frames));
	if (!e->frames)
		return -ENOMEM;
	memcpy(e->frames, tmp, (size_t)nf * sizeof(*e->frames));
	e->nframes = nf;
	return nf;
}

int perfev_dso__inline_frames(struct perfev_dso *d, uint64_t addr,
			      struct perfev_inline_frame *frames, size_t max)
{
	struct addr_cache *c;
	struct addr_entry *e;
	int n;

	if (!d || (!frames && max))
		return -EINVAL;
	c = dwarf_open(d);
	if (!c)
		return -ENOENT;
	e = entry_get(c, addr);
	if (!e)
		return -ENOMEM;
	n = fill_frames(d, c, e);
	if (n > 0)
		memcpy(frames, e->frames, ((size_t)n < max ? (size_t)n : max) * sizeof(*frames));
	return n;
}
