/* SPDX-License-Identifier: MIT */
/*
 * Parsed symbol tables kept on disk, so that a report does not parse the
 * same ELF symbol tables and /proc/kallsyms again on every run: one file
 * per table, named by what determines its content (an ELF file's build
 * id; the running kernel's build id, boot and modules), holding the
 * sorted symbols, the segments and the names, memory-mapped when used
 * (names are read in place).
 *
 * What a table holds depends on the code that built it too (which names
 * perf's rules keep, which PLT entries get names): file names carry the
 * build id of the library itself, so a perfev built from other sources
 * never reads another's tables (and without a build id, none is kept).
 *
 * A file is written whole under a temporary name and renamed into place.
 * Its bytes are untrusted all the same (another version, a damaged disk,
 * someone else's file): every count, offset and string is checked before
 * use, the symbols must be sorted, and a file that fails any check is
 * ignored (the table is parsed from the ELF file again and rewritten).
 * Files not owned by the user are not used.
 */
#include <dirent.h>
#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <pthread.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "util/idxhash.h"
#include "util/internal.h"
#include "symbols/symbols_int.h"

#define SC_MAGIC "PERFEVSC"
#define SC_VERSION 1
#define SC_NONE UINT32_MAX
#define SC_SEG_KNOWN 1u
#define SC_NO_SYMTAB 2u
/* The names of a program's symbols are demangled as without (PLAIN) or with parameters. */
#define SC_NAMES_PLAIN 4u
#define SC_NAMES_PARAMS 8u
/* A table larger than this is no symbol table (10 million symbols). */
#define SC_MAX_SYMS (10u << 20)
#define SC_MAX_SEGS 4096u

struct sc_hdr {
	char magic[8];
	uint32_t version, hdr_size;
	uint64_t file_size;
	uint64_t nsyms, nsegs;
	uint64_t syms_off, segs_off, strtab_off, strtab_size;
	uint32_t sym_file, dwarf_file, debuglink, flags;
};

/* How this symbolizer demangles: which stored names of a program's table it may use. */
static uint32_t names_mode(const struct perfev_symbolizer *sy)
{
	return sy->no_demangle ? 0 : sy->demangle_params ? SC_NAMES_PARAMS : SC_NAMES_PLAIN;
}

struct sc_seg {
	uint64_t offset, filesz, vaddr, align;
	uint32_t exec, pad;
};

static bool range_ok(uint64_t off, uint64_t n, uint64_t elem, uint64_t size)
{
	return off % 8 == 0 && off <= size && n <= (size - off) / elem;
}

static const char *str_at(const char *strtab, uint64_t size, uint32_t off)
{
	return off == SC_NONE || off >= size ? NULL : strtab + off;
}

int symcache__parse(struct perfev_dso *d, const void *img, size_t len, struct symcache_info *info)
{
	const unsigned char *p = img;
	struct sc_hdr h;
	const char *strtab;
	struct dso_seg *segs = NULL;

	memset(info, 0, sizeof(*info));
	if (len < sizeof(h))
		return -PERFEV_ERR_FORMAT;
	memcpy(&h, p, sizeof(h));
	if (memcmp(h.magic, SC_MAGIC, 8) || h.version != SC_VERSION || h.hdr_size != sizeof(h) ||
	    h.file_size != len || h.nsyms > SC_MAX_SYMS || h.nsegs > SC_MAX_SEGS ||
	    !range_ok(h.syms_off, h.nsyms, sizeof(struct sc_sym), len) ||
	    !range_ok(h.segs_off, h.nsegs, sizeof(struct sc_seg), len) ||
	    !range_ok(h.strtab_off, h.strtab_size, 1, len) || !h.strtab_size || !h.nsyms ||
	    h.strtab_size > UINT32_MAX)
		return -PERFEV_ERR_FORMAT;
	strtab = (const char *)p + h.strtab_off;
	/* Every string ends inside the table: its last byte ends the last one. */
	if (strtab[h.strtab_size - 1])
		return -PERFEV_ERR_FORMAT;
	/*
	 * Every entry is checked now, read only: the symbols themselves are
	 * made when first found (symcache__sym()).
	 */
	for (uint64_t i = 0, prev = 0; i < h.nsyms; i++) {
		struct sc_sym s;

		memcpy(&s, p + h.syms_off + i * sizeof(s), sizeof(s));
		if (s.raw >= h.strtab_size || (s.name != SC_NONE && s.name >= h.strtab_size) ||
		    s.start < prev)
			return -PERFEV_ERR_FORMAT;
		prev = s.start;
	}
	/*
	 * A program's names were demangled one way: another way demangles
	 * them again when asked.  The kernel's own names (modules') always hold.
	 */
	d->sc_names_hold = d->kind == DSO_KERNEL ||
			   (names_mode(d->sy) && (h.flags & (SC_NAMES_PLAIN | SC_NAMES_PARAMS)) ==
							 names_mode(d->sy));
	if (h.nsegs && !(segs = calloc(h.nsegs, sizeof(*segs))))
		return -ENOMEM;
	for (uint64_t i = 0; i < h.nsegs; i++) {
		struct sc_seg s;

		memcpy(&s, p + h.segs_off + i * sizeof(s), sizeof(s));
		segs[i] = (struct dso_seg){ .offset = s.offset, .filesz = s.filesz,
					    .vaddr = s.vaddr, .align = s.align, .exec = s.exec != 0 };
	}
	info->sym_file = str_at(strtab, h.strtab_size, h.sym_file);
	info->dwarf_file = str_at(strtab, h.strtab_size, h.dwarf_file);
	info->debuglink = str_at(strtab, h.strtab_size, h.debuglink);
	info->no_symtab = h.flags & SC_NO_SYMTAB;
	d->syms = NULL;
	d->nsyms = h.nsyms;
	d->sc_syms = p + h.syms_off;
	d->sc_strtab = strtab;
	d->segs = segs;
	d->nsegs = h.nsegs;
	d->seg_offsets_known = h.flags & SC_SEG_KNOWN;
	return 0;
}

/* ---- the build id of this code: the object (library or program) symcache.c is in ---- */

static char code_id[2 * BUILD_ID_MAX + 1];
static pthread_once_t code_id_once = PTHREAD_ONCE_INIT;

static int find_code(struct dl_phdr_info *info, size_t size, void *ctx)
{
	uintptr_t me = (uintptr_t)ctx;
	bool mine = false;

	(void)size;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		uintptr_t start = info->dlpi_addr + ph->p_vaddr;

		if (ph->p_type == PT_LOAD && me >= start && me - start < ph->p_memsz)
			mine = true;
	}
	if (!mine)
		return 0;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		uint8_t id[BUILD_ID_MAX];
		int n;

		if (ph->p_type != PT_NOTE)
			continue;
		n = build_id__parse_notes((const void *)(info->dlpi_addr + ph->p_vaddr), ph->p_memsz,
					  __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__,
					  ph->p_align == 8 ? 8 : 4, "perfev", id, sizeof(id));
		if (n > 0) {
			build_id__hex(id, (size_t)n, code_id);
			return 1;
		}
	}
	return 1;
}

static void find_code_id(void)
{
	dl_iterate_phdr(find_code, (void *)(uintptr_t)&find_code_id);
}

bool symcache__path(const struct perfev_dso *d, const char *key, char *out, size_t size)
{
	const char *dir = d->sy->symcache_dir;

	if (!*dir)
		return false;
	pthread_once(&code_id_once, find_code_id);
	return *code_id && (size_t)snprintf(out, size, "%s/symbols-v%d/%.16s-%s", dir, SC_VERSION,
					    code_id, key) < size;
}

int symcache__load(struct perfev_dso *d, const char *key, struct symcache_info *info)
{
	char path[PATH_MAX];
	struct stat st;
	void *map;
	int fd, err;

	if (!symcache__path(d, key, path, sizeof(path)))
		return -ENOENT;
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0)
		return -ENOENT;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || st.st_uid != geteuid() ||
	    st.st_size < (off_t)sizeof(struct sc_hdr) || (uint64_t)st.st_size > SIZE_MAX) {
		close(fd);
		return -ENOENT;
	}
	map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (map == MAP_FAILED)
		return -ENOENT;
	err = symcache__parse(d, map, (size_t)st.st_size, info);
	if (err) {
		munmap(map, (size_t)st.st_size);
		pr_debug("symbols: %s: not a usable symbol cache file; %s is read again\n", path,
			 d->name);
		return err == -ENOMEM ? err : -ENOENT;
	}
	d->sc_map = map;
	d->sc_len = (size_t)st.st_size;
	pr_debug("symbols: %s: %zu symbols from %s\n", d->name, d->nsyms, path);
	return 0;
}

/* Symbol i as its cache file's entry gives it (offsets and order were checked when it was read). */
static struct perfev_symbol entry_sym(const struct perfev_dso *d, size_t i)
{
	struct sc_sym s;

	memcpy(&s, d->sc_syms + i * sizeof(s), sizeof(s));
	return (struct perfev_symbol){ .start = s.start, .size = s.size,
				       .raw_name = d->sc_strtab + s.raw,
				       .name = d->sc_names_hold && s.name != SC_NONE ? d->sc_strtab + s.name
										 : NULL };
}

static struct perfev_symbol *memo_make(struct perfev_dso *d, size_t i)
{
	struct perfev_symbol *sym = arena_alloc(&d->names, sizeof(*sym));

	if (sym)
		*sym = entry_sym(d, i);
	return sym;
}

static size_t memo_slot(size_t i, size_t cap)
{
	return (size_t)(hash_mix(i, 0) & (cap - 1));
}

static bool memo_grow(struct perfev_dso *d)
{
	size_t cap = d->memo_cap ? d->memo_cap * 2 : 256;
	struct sym_memo_slot *n = calloc(cap, sizeof(*n));

	if (!n)
		return false;
	for (size_t k = 0; k < d->memo_cap; k++) {
		size_t j;

		if (!d->memo[k].idx1)
			continue;
		for (j = memo_slot(d->memo[k].idx1 - 1, cap); n[j].idx1; j = (j + 1) & (cap - 1))
			;
		n[j] = d->memo[k];
	}
	free(d->memo);
	d->memo = n;
	d->memo_cap = cap;
	return true;
}

/* Symbol i when it was made before, else NULL; *slot: where it goes. */
static struct perfev_symbol *memo_find(const struct perfev_dso *d, size_t i, size_t *slot)
{
	size_t j;

	if (!d->memo_cap)
		return NULL;
	for (j = memo_slot(i, d->memo_cap); d->memo[j].idx1; j = (j + 1) & (d->memo_cap - 1))
		if (d->memo[j].idx1 == i + 1)
			return d->memo[j].sym;
	if (slot)
		*slot = j;
	return NULL;
}

struct perfev_symbol *symcache__sym(struct perfev_dso *d, size_t i)
{
	struct perfev_symbol *sym;
	size_t j = 0;

	if ((sym = memo_find(d, i, &j)))
		return sym;
	/* At most half full: short probes, and always a free slot. */
	if ((d->memo_n + 1) * 2 > d->memo_cap) {
		if (!memo_grow(d))
			return NULL;
		memo_find(d, i, &j);
	}
	if (!(sym = memo_make(d, i)))
		return NULL;
	d->memo[j] = (struct sym_memo_slot){ i + 1, sym };
	d->memo_n++;
	return sym;
}

void symcache__drop(struct perfev_dso *d)
{
	free(d->sc_debuglink);
	d->sc_debuglink = NULL;
	d->sc_key[0] = '\0';
	d->names_new = false;
	free(d->syms);
	free(d->segs);
	d->syms = NULL;
	d->sc_syms = NULL;
	d->sc_strtab = NULL;
	free(d->memo);
	d->memo = NULL;
	d->memo_cap = d->memo_n = 0;
	d->segs = NULL;
	d->nsyms = d->nsegs = 0;
	d->seg_offsets_known = false;
	if (d->sc_map)
		munmap(d->sc_map, d->sc_len);
	d->sc_map = NULL;
	d->sc_len = 0;
}

/* ---- writing ---- */

struct strtab {
	char *buf;
	size_t len, cap;
	bool nomem;
};

static uint32_t add_str(struct strtab *t, const char *s)
{
	size_t n;

	if (!s)
		return SC_NONE;
	n = strlen(s) + 1;
	if (t->len + n > UINT32_MAX - 1 || !array_grow((void **)&t->buf, &t->cap, t->len + n, 1)) {
		t->nomem = true;
		return SC_NONE;
	}
	memcpy(t->buf + t->len, s, n);
	t->len += n;
	return (uint32_t)(t->len - n);
}

static bool write_all(int fd, const void *p, size_t n)
{
	while (n) {
		ssize_t w = write(fd, p, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return false;
		p = (const char *)p + w;
		n -= (size_t)w;
	}
	return true;
}

int symcache__mkdir(char *path)
{
	for (char *s = path + 1; *s; s++) {
		if (*s != '/')
			continue;
		*s = 0;
		if (mkdir(path, 0700) < 0 && errno != EEXIST) {
			*s = '/';
			return -errno;
		}
		*s = '/';
	}
	return mkdir(path, 0700) < 0 && errno != EEXIST ? -errno : 0;
}

/* At most this much on disk: the oldest files go first. */
#define SC_MAX_BYTES (512ull << 20)

struct sc_file {
	char *name;
	time_t mtime;
	uint64_t size;
};

static int by_age(const void *a, const void *b)
{
	const struct sc_file *x = a, *y = b;

	return x->mtime < y->mtime ? -1 : x->mtime > y->mtime;
}

void symcache__trim(const char *dir)
{
	struct sc_file *v = NULL;
	size_t n = 0, cap = 0;
	uint64_t total = 0;
	struct dirent *de;
	DIR *dp = opendir(dir);

	if (!dp)
		return;
	while ((de = readdir(dp))) {
		struct stat st;

		if (de->d_name[0] == '.' || fstatat(dirfd(dp), de->d_name, &st, AT_SYMLINK_NOFOLLOW) ||
		    !S_ISREG(st.st_mode) || !array_grow((void **)&v, &cap, n + 1, sizeof(*v)))
			continue;
		v[n] = (struct sc_file){ strdup(de->d_name), st.st_mtime, (uint64_t)st.st_size };
		if (!v[n].name)
			continue;
		total += v[n++].size;
	}
	if (total > SC_MAX_BYTES) {
		sort_array(v, n, sizeof(*v), by_age);
		for (size_t i = 0; i < n && total > SC_MAX_BYTES; i++)
			if (!unlinkat(dirfd(dp), v[i].name, 0))
				total -= v[i].size;
	}
	for (size_t i = 0; i < n; i++)
		free(v[i].name);
	free(v);
	closedir(dp);
}

void symcache__store(struct perfev_dso *d, const char *key, const struct symcache_info *info)
{
	char path[PATH_MAX], tmp[PATH_MAX + 32], *slash;
	struct strtab t = { 0 };
	struct sc_hdr h = { .version = SC_VERSION, .hdr_size = sizeof(h) };
	struct sc_sym *syms = NULL;
	struct sc_seg *segs = NULL;
	size_t bytes;
	int fd;
	bool ok;

	if (!d->nsyms || d->nsyms > SC_MAX_SYMS || d->nsegs > SC_MAX_SEGS ||
	    !symcache__path(d, key, path, sizeof(path)))
		return;
	if (!size_mul_ok(d->nsyms, sizeof(*syms), &bytes) || !(syms = malloc(bytes)) ||
	    !(segs = calloc(d->nsegs ? d->nsegs : 1, sizeof(*segs))))
		goto out;
	memcpy(h.magic, SC_MAGIC, 8);
	add_str(&t, ""); /* offset 0: no string is ever there but the empty one */
	/*
	 * A name of its own is kept for the kernel's modules ("name [mod]"), and
	 * a program's names as far as they were demangled (the others are
	 * demangled when first asked, as from the file), with how.
	 */
	uint32_t mode = d->kind == DSO_KERNEL ? 0 : names_mode(d->sy);

	for (size_t i = 0; i < d->nsyms; i++) {
		/* A symbol the run never made: as the file has it. */
		struct perfev_symbol unmade;
		const struct perfev_symbol *s = d->sc_syms ? memo_find(d, i, NULL) : &d->syms[i];

		if (!s) {
			unmade = entry_sym(d, i);
			s = &unmade;
		}
		uint32_t raw = add_str(&t, s->raw_name), name = SC_NONE;

		if (s->name && s->name == s->raw_name && mode)
			name = raw;
		else if (s->name && s->name != s->raw_name && (mode || d->kind == DSO_KERNEL))
			name = add_str(&t, s->name);
		syms[i] = (struct sc_sym){ s->start, s->size, raw, name };
	}
	for (size_t i = 0; i < d->nsegs; i++)
		segs[i] = (struct sc_seg){ d->segs[i].offset, d->segs[i].filesz, d->segs[i].vaddr,
					   d->segs[i].align, d->segs[i].exec, 0 };
	h.sym_file = add_str(&t, info->sym_file);
	h.dwarf_file = add_str(&t, info->dwarf_file);
	h.debuglink = add_str(&t, info->debuglink);
	h.flags = (d->seg_offsets_known ? SC_SEG_KNOWN : 0) | (info->no_symtab ? SC_NO_SYMTAB : 0) |
		  mode;
	if (t.nomem)
		goto out;
	h.nsyms = d->nsyms;
	h.nsegs = d->nsegs;
	h.syms_off = sizeof(h);
	h.segs_off = h.syms_off + d->nsyms * sizeof(*syms);
	h.strtab_off = h.segs_off + d->nsegs * sizeof(*segs);
	h.strtab_size = t.len;
	h.file_size = h.strtab_off + t.len;

	slash = strrchr(path, '/');
	*slash = 0;
	if (symcache__mkdir(path) < 0) {
		*slash = '/';
		goto out;
	}
	*slash = '/';
	snprintf(tmp, sizeof(tmp), "%s.%d.tmp", path, (int)getpid());
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0)
		goto out;
	ok = write_all(fd, &h, sizeof(h)) && write_all(fd, syms, d->nsyms * sizeof(*syms)) &&
	     write_all(fd, segs, d->nsegs * sizeof(*segs)) && write_all(fd, t.buf, t.len);
	if (close(fd) < 0)
		ok = false;
	if (!ok || rename(tmp, path) < 0) {
		unlink(tmp);
		goto out;
	}
	*slash = 0;
	symcache__trim(path);
out:
	free(t.buf);
	free(syms);
	free(segs);
}

void symcache__save(struct perfev_dso *d)
{
	struct symcache_info ci = { .sym_file = d->sym_file, .dwarf_file = d->dwarf_file,
				    .debuglink = d->sc_debuglink, .no_symtab = d->sc_no_symtab };

	symcache__store(d, d->sc_key, &ci);
	d->names_new = false;
}

void symcache__update(struct perfev_dso *d)
{
	if (d->names_new && d->sc_key[0] && d->nsyms)
		symcache__save(d);
}
