/* SPDX-License-Identifier: MIT */
/*
 * The files of one process, reported to its Dwfl as the unwinder meets
 * their addresses.  Where a file is placed is computed from its program
 * headers and the map holding the address, not with perf's "map start -
 * pgoff", which is right only when the mapped segment's p_vaddr equals its
 * p_offset (not so for lld's output, or for any map of a data segment).
 */
#include <fcntl.h>
#include <sys/stat.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/internal.h"
#include "unwind/unwind_int.h"

/* More PT_LOADs than any linker makes: a file claiming more is not worth reading. */
#define UW_MAX_SEGS 64

bool uw_bias(const struct uw_seg *segs, size_t nr, uint64_t start, uint64_t pgoff, uint64_t addr,
	     uint64_t *bias)
{
	int best = 0; /* how well the chosen segment fits: 1 holds pgoff, 2 starts there, 3 holds addr */

	/*
	 * The loader maps each segment from its p_offset rounded down to a
	 * page, at its p_vaddr rounded down the same way (they are congruent
	 * modulo the page size), so in the map holding file offset pgoff,
	 * address - offset == bias + p_vaddr - p_offset.  Two segments can
	 * share the page pgoff is in (lld packs its read-only and its text
	 * segments into one page of the file, both mapped from offset 0): the
	 * one whose addresses then hold addr is the one mapped there.
	 */
	for (size_t i = 0; i < nr; i++) {
		const struct uw_seg *g = &segs[i];
		uint64_t first = g->offset & ~(uint64_t)4095, last = g->offset + g->filesz;
		uint64_t b = start - pgoff - (g->vaddr - g->offset);
		int fit;

		if (pgoff < first || (pgoff >= last && !(g->filesz == 0 && pgoff == first)))
			continue;
		fit = addr - b >= g->vaddr && addr - b - g->vaddr < g->memsz ? 3 : first == pgoff ? 2 : 1;
		if (fit > best) {
			best = fit;
			*bias = b;
		}
	}
	return best > 0;
}

/* A path the unwinder can open: not anonymous memory or a kernel pseudo-file. */
static bool is_file(const char *path)
{
	return path && path[0] && path[0] != '[' && !STARTS_WITH(path, MAP_NAME_ANON);
}

static void mod_free(struct uw_mod *m)
{
	free(m->path);
	free(m->segs);
}

void uw_proc__drop_modules(struct uw_proc *p)
{
	for (size_t i = 0; i < p->nr_mods; i++)
		mod_free(&p->mods[i]);
	p->nr_mods = 0;
}

static void remove_mod(struct uw_proc *p, size_t i)
{
	mod_free(&p->mods[i]);
	memmove(&p->mods[i], &p->mods[i + 1], (p->nr_mods - i - 1) * sizeof(p->mods[0]));
	p->nr_mods--;
}

static struct uw_mod *add_mod(struct uw_proc *p, const char *path)
{
	struct uw_mod *m;

	if (p->nr_mods == p->cap_mods) {
		size_t cap = p->cap_mods ? p->cap_mods * 2 : 16;
		struct uw_mod *n = realloc(p->mods, cap * sizeof(*n));

		if (!n)
			return NULL;
		p->mods = n;
		p->cap_mods = cap;
	}
	m = &p->mods[p->nr_mods];
	memset(m, 0, sizeof(*m));
	m->path = strdup(path);
	if (!m->path)
		return NULL;
	p->nr_mods++;
	return m;
}

/* Remembers that the file of map cannot be used, so it is not opened again. */
static void add_failed(struct uw_proc *p, const struct perfev_unwind_map *map, const char *why)
{
	struct uw_mod *m = add_mod(p, map->path);

	pr_debug("unwind: pid %d: cannot use %s for [%#llx, %#llx): %s\n", p->pid, map->path,
		 (unsigned long long)map->start, (unsigned long long)map->end, why);
	if (m) {
		m->lo = map->start;
		m->hi = map->end;
	}
}

/* The PT_LOAD segments of an x86_64 ET_EXEC or ET_DYN file; its e_type, or -1. */
static int read_segs(Elf *elf, struct uw_seg **out, size_t *nr, const char **why)
{
	GElf_Ehdr eh;
	size_t phnum;
	struct uw_seg *segs;
	size_t n = 0;

	if (elf_kind(elf) != ELF_K_ELF || !gelf_getehdr(elf, &eh)) {
		*why = "not an ELF file";
		return -1;
	}
	if (eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_machine != EM_X86_64) {
		*why = "not an x86_64 ELF file";
		return -1;
	}
	if (eh.e_type != ET_EXEC && eh.e_type != ET_DYN) {
		*why = "neither an executable nor a shared object";
		return -1;
	}
	if (elf_getphdrnum(elf, &phnum) != 0 || phnum == 0) {
		*why = "no program headers";
		return -1;
	}
	segs = calloc(UW_MAX_SEGS, sizeof(*segs));
	if (!segs) {
		*why = "out of memory";
		return -1;
	}
	for (size_t i = 0; i < phnum; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(elf, (int)i, &ph)) {
			*why = "unreadable program header";
			goto err;
		}
		if (ph.p_type != PT_LOAD)
			continue;
		if (n == UW_MAX_SEGS || ph.p_filesz > ph.p_memsz ||
		    ph.p_offset + ph.p_filesz < ph.p_offset || ph.p_vaddr + ph.p_memsz < ph.p_vaddr) {
			*why = "implausible PT_LOAD segments";
			goto err;
		}
		segs[n++] = (struct uw_seg){ .vaddr = ph.p_vaddr, .offset = ph.p_offset,
					     .filesz = ph.p_filesz, .memsz = ph.p_memsz,
					     .writable = (ph.p_flags & PF_W) != 0 };
	}
	if (!n) {
		*why = "no PT_LOAD segment";
		goto err;
	}
	*out = segs;
	*nr = n;
	return eh.e_type;
err:
	free(segs);
	return -1;
}

/*
 * Opens the file of map, places it, and reports it to the Dwfl.  The
 * module, NULL when the file cannot be used (remembered as such) or when
 * it overlaps a module of another file (p->stale is set).
 */
static struct uw_mod *report(struct uw_proc *p, const struct perfev_unwind_map *map, uint64_t addr)
{
	struct uw_seg *segs = NULL;
	size_t nr_segs = 0;
	const char *why = NULL;
	uint64_t bias, lo, hi;
	Dwfl_Module *dm;
	Elf *elf;
	int type;
	/* Paths come from the recording: never block on a FIFO or read a device. */
	int fd = open(map->path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	struct stat st;

	if (fd < 0) {
		add_failed(p, map, strerror(errno));
		return NULL;
	}
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		add_failed(p, map, "not a regular file");
		return NULL;
	}
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!elf) {
		close(fd);
		add_failed(p, map, elf_errmsg(-1));
		return NULL;
	}
	type = read_segs(elf, &segs, &nr_segs, &why);
	elf_end(elf);
	if (type < 0)
		goto fail;
	if (!uw_bias(segs, nr_segs, map->start, map->pgoff, addr, &bias) || (type == ET_EXEC && bias)) {
		why = "the map's offset does not match the file's segments (a different file?)";
		goto fail;
	}

	/* Where the whole file lands: its lowest to its highest segment. */
	lo = UINT64_MAX;
	hi = 0;
	for (size_t i = 0; i < nr_segs; i++) {
		if ((segs[i].vaddr & ~(uint64_t)4095) < lo)
			lo = segs[i].vaddr & ~(uint64_t)4095;
		if (segs[i].vaddr + segs[i].memsz > hi)
			hi = segs[i].vaddr + segs[i].memsz;
	}
	lo += bias;
	hi += bias;
	/* Another file already placed there: the process has changed under us. */
	for (size_t i = 0; i < p->nr_mods; i++) {
		struct uw_mod *m = &p->mods[i];
		bool over = (m->lo < map->end && map->start < m->hi) || (m->lo < hi && lo < m->hi);

		if (!m->mod) {
			if (over)
				remove_mod(p, i--); /* a failed file once mapped here */
			continue;
		}
		if (over && m->bias == bias && !strcmp(m->path, map->path)) {
			/* This very file, reported before: addr is outside its segments. */
			free(segs);
			close(fd);
			return NULL;
		}
		if (over) {
			pr_debug("unwind: pid %d: %s at [%#llx, %#llx) overlaps %s: rebuilding\n",
				 p->pid, map->path, (unsigned long long)map->start,
				 (unsigned long long)map->end, m->path);
			p->stale = true;
			free(segs);
			close(fd);
			return NULL;
		}
	}

	/*
	 * libdw opens the file again itself: given our fd it would own it on
	 * success but, on some failures after decompressing a file, close it
	 * too, leaving no safe way to know whether to close it here.
	 */
	close(fd);
	fd = -1;
	dwfl_report_begin_add(p->dwfl);
	dm = dwfl_report_elf(p->dwfl, map->path, map->path, -1, bias, true);
	dwfl_report_end(p->dwfl, NULL, NULL);
	if (!dm) {
		why = dwfl_errmsg(-1);
		goto fail;
	}
	dwfl_module_info(dm, NULL, &lo, &hi, NULL, NULL, NULL, NULL);
	struct uw_mod *m = add_mod(p, map->path);

	if (!m) {
		free(segs);
		return NULL;
	}
	m->bias = bias;
	m->lo = lo;
	m->hi = hi;
	m->segs = segs;
	m->nr_segs = nr_segs;
	m->mod = dm;
	GElf_Addr b;
	Elf *e = dwfl_module_getelf(dm, &b);

	if (e) {
		size_t size = 0;
		const char *img = elf_rawfile(e, &size);

		m->image = (const unsigned char *)img;
		m->image_size = img ? size : 0;
	}
	pr_debug("unwind: pid %d: %s at [%#llx, %#llx) bias %#llx\n", p->pid, map->path,
		 (unsigned long long)lo, (unsigned long long)hi, (unsigned long long)bias);
	return addr >= lo && addr < hi ? m : NULL;
fail:
	free(segs);
	if (fd >= 0)
		close(fd);
	add_failed(p, map, why);
	return NULL;
}

struct uw_mod *uw_proc__module(struct uw_proc *p, uint64_t addr)
{
	struct perfev_unwind_map map = { 0 };

	if (p->find_map(p->ctx, addr, &map) < 0 || !is_file(map.path) || addr < map.start ||
	    addr >= map.end)
		return NULL;
	for (size_t i = 0; i < p->nr_mods; i++) {
		struct uw_mod *m = &p->mods[i];
		uint64_t bias;

		if (addr < m->lo || addr >= m->hi)
			continue;
		if (strcmp(m->path, map.path) != 0)
			continue; /* report() decides whether it conflicts */
		if (!m->mod)
			return NULL; /* this file was tried and can't be used */
		if (uw_bias(m->segs, m->nr_segs, map.start, map.pgoff, addr, &bias) && bias == m->bias)
			return m;
	}
	return report(p, &map, addr);
}

bool uw_proc__read_file(struct uw_proc *p, uint64_t addr, uint64_t *val)
{
	struct uw_mod *m = uw_proc__module(p, addr);

	if (!m || !m->image)
		return false;
	uint64_t vaddr = addr - m->bias;

	for (size_t i = 0; i < m->nr_segs; i++) {
		const struct uw_seg *g = &m->segs[i];
		uint64_t off;

		/* Only bytes the process cannot have changed are the file's. */
		if (g->writable || vaddr < g->vaddr || g->filesz < 8 || vaddr - g->vaddr > g->filesz - 8)
			continue;
		off = g->offset + (vaddr - g->vaddr);
		if (off > m->image_size || m->image_size - off < 8)
			return false;
		memcpy(val, m->image + off, 8);
		return true;
	}
	return false;
}
