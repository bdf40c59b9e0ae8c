/* SPDX-License-Identifier: MIT */
/*
 * ELF symbols with libelf: the function symbols (STT_FUNC, STT_GNU_IFUNC)
 * of .symtab or .dynsym, and the PT_LOAD segments that turn a file offset
 * into an ELF address.  libelf checks that section data lies within the
 * file; what it leaves to us (section indexes, string offsets, entry
 * sizes) is checked here, and anything odd skips the symbol rather than
 * failing the file.
 */
#include <fcntl.h>
#include <sys/stat.h>
#include <gelf.h>
#include <libelf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/internal.h"
#include "perfev/synth.h"
#include "symbols/symbols_int.h"

/* Idempotent and cheap: called before each use rather than guarded by shared state. */
static void elf_init(void)
{
	elf_version(EV_CURRENT);
}

static bool is_dwarf_section(const char *name)
{
	return !strcmp(name, ".debug_info") || !strcmp(name, ".zdebug_info");
}

int elf__inspect(void *elf_, const char *name, struct elf_info *info)
{
	Elf *elf = elf_;
	size_t shnum, shstrndx;
	GElf_Ehdr eh;
	Elf_Scn *scn = NULL;

	memset(info, 0, sizeof(*info));
	if (elf_kind(elf) != ELF_K_ELF)
		return set_error(PERFEV_ERR_FORMAT, "%s: not an ELF file", name);
	if (!gelf_getehdr(elf, &eh))
		return set_error(PERFEV_ERR_FORMAT, "%s: unreadable ELF header: %s", name,
				 elf_errmsg(-1));
	if (elf_getshdrnum(elf, &shnum) || elf_getshdrstrndx(elf, &shstrndx))
		return set_error(PERFEV_ERR_FORMAT, "%s: unreadable section headers: %s", name,
				 elf_errmsg(-1));
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		const char *sname;

		if (!gelf_getshdr(scn, &sh))
			continue;
		if (sh.sh_type == SHT_SYMTAB)
			info->has_symtab = true;
		else if (sh.sh_type == SHT_DYNSYM)
			info->has_dynsym = true;
		else if (sh.sh_type == SHT_PROGBITS && shstrndx < shnum &&
			 (sname = elf_strptr(elf, shstrndx, sh.sh_name)) && is_dwarf_section(sname))
			info->has_dwarf = true;
	}
	return 0;
}

static Elf_Scn *find_table(Elf *elf, Elf64_Word type)
{
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;

		if (gelf_getshdr(scn, &sh) && sh.sh_type == type)
			return scn;
	}
	return NULL;
}

/* Per section index: executable, and where it ends (for a last zero-size symbol). */
struct text_sec {
	bool exec;
	uint64_t end;
};

static unsigned binding_prio(unsigned bind)
{
	switch (bind) {
	case STB_GLOBAL:
	case STB_GNU_UNIQUE:
		return 3;
	case STB_WEAK:
		return 2;
	default:
		return 1;
	}
}

static Elf_Scn *find_named(Elf *elf, const char *want, GElf_Shdr *sh)
{
	size_t shstrndx;
	Elf_Scn *scn = NULL;

	if (elf_getshdrstrndx(elf, &shstrndx))
		return NULL;
	while ((scn = elf_nextscn(elf, scn))) {
		const char *n;

		if (gelf_getshdr(scn, sh) && (n = elf_strptr(elf, shstrndx, sh->sh_name)) &&
		    !strcmp(n, want))
			return scn;
	}
	return NULL;
}

#define PLT_ENTRY 16 /* x86-64: each PLT entry, and the PLT's first (resolver) entry */

/*
 * "NAME@plt" for each PLT entry of an x86-64 file, as perf synthesizes them:
 * the i-th relocation of .rela.plt is the i-th entry after .plt's header (or
 * of .plt.sec when the file has one), named after its symbol in the dynamic
 * symbol table.  Returns 0 or -ENOMEM; a file without them adds nothing.
 */
static int plt_syms__add(struct sym_builder *b, Elf *elf, uint64_t *last_end)
{
	GElf_Shdr rel_sh, plt_sh, sym_sh, sec_sh;
	Elf_Scn *rel = find_named(elf, ".rela.plt", &rel_sh), *plt, *syms;
	Elf_Data *rd, *sd;
	GElf_Ehdr eh;
	uint64_t base, end;
	size_t nrel;
	char name[1024];

	if (!gelf_getehdr(elf, &eh) || eh.e_machine != EM_X86_64 || !rel ||
	    rel_sh.sh_type != SHT_RELA || !(plt = find_named(elf, ".plt", &plt_sh)) ||
	    !(syms = elf_getscn(elf, rel_sh.sh_link)) || !gelf_getshdr(syms, &sym_sh) ||
	    sym_sh.sh_type != SHT_DYNSYM || !(rd = elf_getdata(rel, NULL)) ||
	    !(sd = elf_getdata(syms, NULL)) || rel_sh.sh_entsize != sizeof(Elf64_Rela))
		return 0;
	base = plt_sh.sh_addr + PLT_ENTRY;
	end = plt_sh.sh_addr + plt_sh.sh_size;
	if (find_named(elf, ".plt.sec", &sec_sh)) {
		base = sec_sh.sh_addr;
		end = sec_sh.sh_addr + sec_sh.sh_size;
	}
	nrel = rd->d_size / sizeof(Elf64_Rela);
	for (size_t i = 0; i < nrel && base + (i + 1) * PLT_ENTRY <= end; i++) {
		GElf_Rela r;
		GElf_Sym sym;
		const char *sname;
		int n, err;

		/* An entry without a symbol (libc's IRELATIVE ones, for its ifuncs) is "@plt", as perf 6.1 names it. */
		if (!gelf_getrela(rd, (int)i, &r) || !gelf_getsym(sd, (int)GELF_R_SYM(r.r_info), &sym) ||
		    !(sname = elf_strptr(elf, sym_sh.sh_link, sym.st_name)))
			continue;
		n = snprintf(name, sizeof(name), "%s@plt", sname);
		if (n < 0 || (size_t)n >= sizeof(name))
			continue;
		err = sym_builder__add(b, base + i * PLT_ENTRY, PLT_ENTRY, name, (size_t)n, 3);
		if (err)
			return err;
	}
	if (nrel && end > *last_end)
		*last_end = end;
	return 0;
}

int elf_syms__load(struct perfev_dso *d, void *elf_, const char *name, bool dynsym_ok,
		   void *plt_elf)
{
	Elf *elf = elf_;
	Elf_Scn *scn = find_table(elf, SHT_SYMTAB);
	struct sym_builder b = { .d = d };
	struct text_sec *secs = NULL;
	size_t shnum, nsyms, entsize;
	uint64_t last_end = 0;
	GElf_Shdr sh;
	GElf_Ehdr eh;
	Elf_Data *data;
	int err;

	if (!scn && dynsym_ok)
		scn = find_table(elf, SHT_DYNSYM);
	if (!scn)
		return -ENOENT;
	if (!gelf_getehdr(elf, &eh) || elf_getshdrnum(elf, &shnum) || !gelf_getshdr(scn, &sh))
		return set_error(PERFEV_ERR_FORMAT, "%s: unreadable headers: %s", name, elf_errmsg(-1));
	entsize = gelf_fsize(elf, ELF_T_SYM, 1, EV_CURRENT);
	if (!entsize || sh.sh_entsize != entsize)
		return set_error(PERFEV_ERR_FORMAT, "%s: symbol table entries of %llu bytes, expected %zu",
				 name, (unsigned long long)sh.sh_entsize, entsize);
	if (sh.sh_link == 0 || sh.sh_link >= shnum)
		return set_error(PERFEV_ERR_FORMAT, "%s: the symbol table's string table is section %u "
				 "of %zu", name, sh.sh_link, shnum);
	data = elf_getdata(scn, NULL);
	if (!data || !data->d_buf)
		return set_error(PERFEV_ERR_FORMAT, "%s: unreadable symbol table: %s", name,
				 elf_errmsg(-1));
	nsyms = data->d_size / entsize;

	/* shnum comes from a file libelf has read the section headers of: bounded by its size. */
	secs = calloc(shnum ? shnum : 1, sizeof(*secs));
	if (!secs)
		return -ENOMEM;
	for (size_t i = 1; i < shnum; i++) {
		Elf_Scn *s = elf_getscn(elf, i);
		GElf_Shdr h;

		if (s && gelf_getshdr(s, &h) && (h.sh_flags & SHF_EXECINSTR) && (h.sh_flags & SHF_ALLOC)) {
			secs[i].exec = true;
			secs[i].end = h.sh_addr + h.sh_size < h.sh_addr ? UINT64_MAX : h.sh_addr + h.sh_size;
		}
	}

	for (size_t i = 1; i < nsyms; i++) {
		unsigned type, shndx;
		bool is_label;
		const char *sname;
		GElf_Sym sym;
		uint64_t start;

		if (!gelf_getsym(data, (int)i, &sym))
			continue;
		type = GELF_ST_TYPE(sym.st_info);
		/*
		 * Functions, and as perf takes them, labels in code (STT_NOTYPE,
		 * such as ld.so's _dl_start_user) unless hidden.
		 */
		is_label = type == STT_NOTYPE &&
			   GELF_ST_VISIBILITY(sym.st_other) != STV_HIDDEN &&
			   GELF_ST_VISIBILITY(sym.st_other) != STV_INTERNAL;
		if (type != STT_FUNC && type != STT_GNU_IFUNC && !is_label)
			continue;
		shndx = sym.st_shndx;
		/* Undefined (imports), absolute, common or beyond the table: no code here. */
		if (shndx == SHN_UNDEF || shndx >= SHN_LORESERVE || shndx >= shnum || !secs[shndx].exec)
			continue;
		sname = elf_strptr(elf, sh.sh_link, sym.st_name);
		if (!sname || !*sname)
			continue;
		/* ARM and AArch64 mapping symbols ($a, $d, $x...) mark code and data, not functions. */
		if (is_label && sname[0] == '$')
			continue;
		start = sym.st_value;
		if (eh.e_machine == EM_ARM)
			start &= ~1ull; /* the Thumb bit */
		err = sym_builder__add(&b, start, sym.st_size, sname, strlen(sname),
				       is_label ? 0 : binding_prio(GELF_ST_BIND(sym.st_info)));
		if (err)
			goto out;
		if (secs[shndx].end > last_end)
			last_end = secs[shndx].end;
	}
	err = plt_elf ? plt_syms__add(&b, plt_elf, &last_end) : 0;
	if (!err)
		err = sym_builder__finish(&b, last_end);
out:
	if (err)
		sym_builder__abort(&b);
	free(secs);
	return err;
}

int elf_segs__load(struct perfev_dso *d, void *elf_, const char *name)
{
	Elf *elf = elf_;
	size_t n, cnt = 0;

	if (elf_getphdrnum(elf, &n))
		return set_error(PERFEV_ERR_FORMAT, "%s: unreadable program headers: %s", name,
				 elf_errmsg(-1));
	free(d->segs);
	d->segs = NULL;
	d->nsegs = 0;
	d->seg_offsets_known = false;
	if (!n)
		return 0;
	/* libelf has read n headers from the file, so n is bounded by its size. */
	d->segs = calloc(n, sizeof(*d->segs));
	if (!d->segs)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_LOAD)
			continue;
		d->segs[cnt++] = (struct dso_seg){ .offset = ph.p_offset, .filesz = ph.p_filesz,
						   .vaddr = ph.p_vaddr, .align = ph.p_align,
						   .exec = (ph.p_flags & PF_X) != 0 };
		if (ph.p_filesz)
			d->seg_offsets_known = true;
	}
	d->nsegs = cnt;
	return 0;
}

/* ---- whole files ---- */

static Elf *open_elf(const char *path, int *fd)
{
	Elf *elf;

	struct stat st;

	*fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (*fd < 0)
		return NULL;
	/* A path from a recording may name a FIFO or a device: only files are read. */
	if (fstat(*fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(*fd);
		*fd = -1;
		errno = EINVAL;
		return NULL;
	}
	elf_init();
	elf = elf_begin(*fd, ELF_C_READ_MMAP, NULL);
	if (!elf) {
		close(*fd);
		*fd = -1;
		errno = PERFEV_ERR_FORMAT;
	}
	return elf;
}

static void close_elf(Elf *elf, int fd)
{
	if (elf)
		elf_end(elf);
	if (fd >= 0)
		close(fd);
}

/*
 * The file to read: path if its build id matches, else a cached copy; 0,
 * 1 for the vDSO of this process's own memory, or -errno with d's error set.
 */
static int choose_file(struct perfev_dso *d, const char *path, char *out, size_t size)
{
	bool vdso = !strcmp(d->name, BUILD_ID_VDSO_NAME);
	struct perfev_symbolizer *sy = d->sy;
	uint8_t id[BUILD_ID_MAX];
	char want[2 * BUILD_ID_MAX + 1], have[2 * BUILD_ID_MAX + 1] = "", where[1024];
	char why[512];
	int n;

	if (!d->build_id_size) {
		snprintf(out, size, "%s", path);
		return 0;
	}
	/* The vDSO has no file of its own to look at. */
	n = vdso ? -ENOENT : perfev_build_id__read(path, id, sizeof(id));
	if (n > 0 && build_id__matches(id, (size_t)n, d->build_id, d->build_id_size)) {
		snprintf(out, size, "%s", path);
		return 0;
	}
	if (n > 0)
		build_id__hex(id, (size_t)n, have);
	else
		snprintf(why, sizeof(why), "%s", perfev_last_error());
	if (*sy->buildid_dir) {
		if (build_id__path(out, size, sy->buildid_dir, d->build_id, d->build_id_size, "/elf") &&
		    file__has_build_id(out, d->build_id, d->build_id_size))
			return 0;
		/* perf's older layout: the link is the file itself. */
		if (build_id__path(out, size, sy->buildid_dir, d->build_id, d->build_id_size, "") &&
		    file__has_build_id(out, d->build_id, d->build_id_size))
			return 0;
		if (vdso &&
		    build_id__path(out, size, sy->buildid_dir, d->build_id, d->build_id_size, "/vdso") &&
		    file__has_build_id(out, d->build_id, d->build_id_size))
			return 0;
	}
	if (vdso && build_id__vdso_matches(d->build_id, d->build_id_size))
		return 1;
	if (*sy->debug_dir &&
	    build_id__path(out, size, sy->debug_dir, d->build_id, d->build_id_size, ".debug") &&
	    file__has_build_id(out, d->build_id, d->build_id_size))
		return 0;
	build_id__hex(d->build_id, build_id__trim(d->build_id, d->build_id_size), want);
	if (*sy->buildid_dir)
		snprintf(where, sizeof(where), "the build-id cache %s", sy->buildid_dir);
	else
		snprintf(where, sizeof(where), "the build-id cache (none set)");
	if (*sy->debug_dir)
		snprintf(where + strlen(where), sizeof(where) - strlen(where), " or %s/.build-id",
			 sy->debug_dir);
	if (vdso)
		dso__set_error(d, ENOENT,
			       "%s: %s has no copy of the vDSO with build id %s, and this kernel's "
			       "vDSO is another, so its samples show as addresses; record on the "
			       "machine with the build-id cache on (perfev record's default and "
			       "perf record's keep the vDSO there)",
			       d->name, where, want);
	else if (n > 0)
		dso__set_error(d, PERFEV_ERR_FORMAT,
			       "%s: its build id %s is not the %s the recording saw: the file was "
			       "rebuilt or replaced since, and %s has no copy of the recorded one, "
			       "so its samples show as addresses; record with the build-id cache "
			       "on (perfev record's default; 'perf buildid-cache -a FILE' before "
			       "rebuilding keeps one too), or report the rebuilt file with a new "
			       "recording",
			       path, have, want, where);
	else
		dso__set_error(d, ENOENT,
			       "%s: no file with build id %s (%s), and %s has no copy of it, so "
			       "its samples show as addresses; record with the build-id cache on "
			       "(perfev record's default), or point the symbolizer's root or "
			       "debug_dir at the file",
			       path, want, why, where);
	if (sy->warn)
		sy->warn(sy->warn_ctx, d->error ? d->error : perfev_last_error());
	return -ENOENT;
}

/* Symbols from the separate debug file at dbg; 0, or -errno (the main file's .dynsym is next). */
static int load_from_debug_file(struct perfev_dso *d, const char *dbg, Elf *main_elf)
{
	struct elf_info info;
	int fd, err;
	Elf *elf = open_elf(dbg, &fd);

	if (!elf)
		return -errno;
	err = elf__inspect(elf, dbg, &info);
	if (!err)
		err = elf_syms__load(d, elf, dbg, false, main_elf);
	if (!err && d->nsyms && !(d->sym_file = strdup(dbg)))
		err = -ENOMEM;
	close_elf(elf, fd);
	return err;
}

static bool is_file(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISREG(st.st_mode);
}

/*
 * Whether a cached table of file is still what reading the file would
 * give: the debug file it came from is there, and, when the file has no
 * .symtab and its table came from .dynsym, no debug file has appeared
 * since where debug_file__find() would look (by build id, by the link).
 */
static bool cache_fresh(struct perfev_dso *d, const char *file, const uint8_t *id, size_t id_size,
			const struct symcache_info *ci)
{
	struct perfev_symbolizer *sy = d->sy;
	bool from_debug = ci->sym_file && strcmp(ci->sym_file, file);
	char p[4096];
	const char *slash;
	int n;

	if ((from_debug && !is_file(ci->sym_file)) ||
	    (ci->dwarf_file && strcmp(ci->dwarf_file, file) && !is_file(ci->dwarf_file)))
		return false;
	if (!ci->no_symtab || from_debug)
		return true;
	if ((*sy->debug_dir && build_id__path(p, sizeof(p), sy->debug_dir, id, id_size, ".debug") &&
	     is_file(p)) ||
	    (*sy->buildid_dir && build_id__path(p, sizeof(p), sy->buildid_dir, id, id_size, "/debug") &&
	     is_file(p)))
		return false;
	if (!ci->debuglink)
		return true;
	slash = strrchr(file, '/');
	n = slash ? (int)(slash - file) : 0;
	if (((size_t)snprintf(p, sizeof(p), "%.*s/%s", n, file, ci->debuglink) < sizeof(p) &&
	     is_file(p)) ||
	    ((size_t)snprintf(p, sizeof(p), "%.*s/.debug/%s", n, file, ci->debuglink) < sizeof(p) &&
	     is_file(p)))
		return false;
	slash = strrchr(d->name, '/');
	n = slash ? (int)(slash - d->name) : 0;
	if (*sy->debug_dir &&
	    (size_t)snprintf(p, sizeof(p), "%s%s%.*s/%s", sy->debug_dir, d->name[0] == '/' ? "" : "/",
			     n, d->name, ci->debuglink) < sizeof(p) &&
	    is_file(p))
		return false;
	return true;
}

/* d's table from the symbol cache, when there and fresh; false: read the file. */
static bool load_cached(struct perfev_dso *d, const char *file, const char *key,
			const uint8_t *id, size_t id_size)
{
	struct symcache_info ci;

	if (symcache__load(d, key, &ci))
		return false;
	if (!cache_fresh(d, file, id, id_size, &ci)) {
		symcache__drop(d);
		return false;
	}
	d->elf_file = strdup(file);
	d->sym_file = strdup(ci.sym_file ? ci.sym_file : file);
	d->dwarf_file = ci.dwarf_file ? strdup(ci.dwarf_file) : NULL;
	d->sc_debuglink = ci.debuglink ? strdup(ci.debuglink) : NULL;
	if (!d->elf_file || !d->sym_file || (ci.dwarf_file && !d->dwarf_file) ||
	    (ci.debuglink && !d->sc_debuglink)) {
		symcache__drop(d);
		return false;
	}
	snprintf(d->sc_key, sizeof(d->sc_key), "%s", key);
	d->sc_no_symtab = ci.no_symtab;
	return true;
}

/* The vDSO from this process's memory (choose_file found its build id the recording's). */
static int load_own_vdso(struct perfev_dso *d)
{
	const void *img;
	size_t len;
	int err = build_id__vdso_image(&img, &len);

	if (err) {
		dso__set_error(d, -err, "%s", perfev_last_error());
		return err;
	}
	/* One spare NUL, as the symbolizer's other images have. */
	d->image = malloc(len + 1);
	if (!d->image)
		return -ENOMEM;
	memcpy(d->image, img, len);
	((char *)d->image)[len] = 0;
	d->image_size = len;
	return dso__load_memory(d);
}

int dso__load_file(struct perfev_dso *d)
{
	struct perfev_symbolizer *sy = d->sy;
	char path[4096], file[4096], dbg[4096], key[2 * BUILD_ID_MAX + 8] = "", link[256] = "";
	uint8_t id[BUILD_ID_MAX];
	size_t id_size = 0;
	struct elf_info info;
	uint32_t crc;
	int fd, err, n;
	Elf *elf;

	if ((size_t)snprintf(path, sizeof(path), "%s%s", sy->root, d->name) >= sizeof(path)) {
		dso__set_error(d, ENAMETOOLONG, "%s: path too long", d->name);
		return -ENAMETOOLONG;
	}
	err = choose_file(d, path, file, sizeof(file));
	if (err == 1)
		return load_own_vdso(d);
	if (err)
		return err;
	if (d->build_id_size) {
		memcpy(id, d->build_id, d->build_id_size);
		id_size = d->build_id_size;
	} else if ((n = perfev_build_id__read(file, id, sizeof(id))) > 0) {
		id_size = (size_t)n;
	}
	/* A table is known by its file's build id: without one, it is read every time. */
	if (*sy->symcache_dir && id_size) {
		memcpy(key, "elf-", 4);
		build_id__hex(id, build_id__trim(id, id_size), key + 4);
		if (load_cached(d, file, key, id, id_size))
			return 0;
	}
	elf = open_elf(file, &fd);
	if (!elf) {
		int e = errno;

		if (e == PERFEV_ERR_FORMAT)
			dso__set_error(d, e, "%s: libelf cannot read it: %s", file, elf_errmsg(-1));
		else
			dso__set_error(d, e, "%s: cannot open: %s", file, strerror(e));
		return -e;
	}
	d->elf_file = strdup(file);
	err = elf__inspect(elf, file, &info);
	if (err) {
		dso__set_error(d, -err, "%s", perfev_last_error());
		goto out;
	}
	err = elf_segs__load(d, elf, file);
	if (err)
		goto fail;
	if (info.has_dwarf)
		d->dwarf_file = strdup(file);
	/* Without .symtab or DWARF, a separate debug file may have them. */
	if ((!info.has_symtab || !info.has_dwarf) &&
	    !debug_file__find(d, file, elf, id, id_size, dbg, sizeof(dbg))) {
		if (!d->dwarf_file)
			d->dwarf_file = strdup(dbg);
		if (!info.has_symtab) {
			err = load_from_debug_file(d, dbg, elf);
			if (err == -ENOMEM)
				goto fail;
		}
	}
	if (!d->nsyms) {
		err = elf_syms__load(d, elf, file, true, elf);
		if (!err && !(d->sym_file = strdup(file)))
			err = -ENOMEM;
		if (err == -ENOENT) {
			err = 0; /* no symbol table at all: "no function symbols" */
		} else if (err && err != -ENOMEM) {
			dso__set_error(d, -err, "%s", perfev_last_error());
			goto out;
		}
	}
	if (!err && d->nsyms && *key) {
		bool has_link = !info.has_symtab && !elf_debuglink(elf, link, sizeof(link), &crc);

		/* Out of memory for the link's name: the table is not kept (the cache is an optimization). */
		if (!has_link || (d->sc_debuglink = strdup(link))) {
			snprintf(d->sc_key, sizeof(d->sc_key), "%s", key);
			d->sc_no_symtab = !info.has_symtab;
			symcache__save(d);
		}
	}
fail:
	if (err == -ENOMEM)
		dso__set_error(d, ENOMEM, "%s: out of memory while reading symbols", file);
out:
	close_elf(elf, fd);
	return err;
}

int dso__load_memory(struct perfev_dso *d)
{
	struct elf_info info;
	Elf *elf;
	int err;

	elf_init();
	elf = elf_memory(d->image, d->image_size);
	if (!elf) {
		dso__set_error(d, PERFEV_ERR_FORMAT, "ELF image: libelf cannot read it: %s",
			       elf_errmsg(-1));
		return -PERFEV_ERR_FORMAT;
	}
	err = elf__inspect(elf, d->name, &info);
	if (!err)
		err = elf_segs__load(d, elf, d->name);
	if (!err) {
		err = elf_syms__load(d, elf, d->name, true, elf);
		if (err == -ENOENT)
			err = 0;
	}
	if (err && err != -ENOMEM)
		dso__set_error(d, -err, "%s", perfev_last_error());
	/* DWARF reads the same image later. */
	d->dwarf_elf = elf;
	return err;
}

const char *perfev_dso__debug_file(struct perfev_dso *d)
{
	char path[4096], dbg[4096];
	uint8_t id[BUILD_ID_MAX];
	struct elf_info info;
	size_t id_size = 0;
	int fd, n;
	Elf *elf;

	if (!d || d->kind != DSO_FILE || !strcmp(d->name, BUILD_ID_VDSO_NAME))
		return NULL;
	if (d->loaded)
		return d->nsyms && d->sym_file && d->elf_file && strcmp(d->sym_file, d->elf_file)
			       ? d->sym_file
			       : NULL;
	if (d->debug_tried)
		return d->debug_file;
	d->debug_tried = true;
	if ((size_t)snprintf(path, sizeof(path), "%s%s", d->sy->root, d->name) >= sizeof(path))
		return NULL;
	n = perfev_build_id__read(path, id, sizeof(id));
	if (n > 0)
		id_size = (size_t)n;
	/* Only the file the recording saw: a rebuilt one's debug file is another's. */
	if (d->build_id_size && (!id_size || !build_id__matches(id, id_size, d->build_id,
								d->build_id_size)))
		return NULL;
	elf = open_elf(path, &fd);
	if (!elf)
		return NULL;
	if (!elf__inspect(elf, path, &info) && !info.has_symtab &&
	    !debug_file__find(d, path, elf, id, id_size, dbg, sizeof(dbg)))
		d->debug_file = strdup(dbg);
	close_elf(elf, fd);
	return d->debug_file;
}
