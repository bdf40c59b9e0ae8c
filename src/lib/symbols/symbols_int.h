/* SPDX-License-Identifier: MIT */
/*
 * Shared by the symbol files (symtab.c, demangle.c, elf.c, debug.c, kallsyms.c,
 * jit.c, dso.c, dwarf.c, code.c, symbolizer.c), the folders above that use
 * symbols/ (annotate/) and the fuzzers; never installed.
 */
#ifndef PERFEV_SYMBOLS_INT_H
#define PERFEV_SYMBOLS_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "perfev/symbols.h"

#include "buildid/buildid_int.h"

/* ---- string arena: every name a DSO hands out lives in one ---- */

struct arena_chunk;
struct arena {
	struct arena_chunk *head;
	size_t used, cap; /* of head */
};

/* A copy of s[0..len) NUL-terminated, or NULL (ENOMEM). */
char *arena_strndup(struct arena *a, const char *s, size_t len);
/* size bytes aligned for any object, or NULL (ENOMEM). */
void *arena_alloc(struct arena *a, size_t size);
void arena_free(struct arena *a);

/* ---- DSOs ---- */

enum dso_kind {
	DSO_FILE,   /* an ELF file named by its path */
	DSO_MEMORY, /* an ELF image in memory (fuzzers, tests) */
	DSO_KERNEL,
	DSO_JIT,
	DSO_NONE,   /* "[vdso]", "[heap]" and other bracketed names: no symbols */
};

/* A PT_LOAD segment, for file offset -> ELF address. */
struct dso_seg {
	uint64_t offset, filesz, vaddr, align;
	bool exec;
};

struct addr_cache; /* dwarf.c */

struct perfev_dso {
	struct perfev_symbolizer *sy;
	struct perfev_dso *next; /* in the symbolizer's hash chain */
	enum dso_kind kind;
	int pid; /* DSO_JIT */
	char *name;
	const char *short_name; /* into name */
	uint8_t build_id[BUILD_ID_MAX];
	size_t build_id_size; /* 0: none given */

	bool loaded; /* load tried (whatever its outcome) */
	char *error; /* why there are no symbols; NULL when there are */
	char *elf_file; /* the file segments (map_ip) came from */
	char *sym_file; /* the file symbols came from: elf_file or a separate debug file */
	char *dwarf_file; /* the file with DWARF, when one was found */
	bool debug_tried; /* perfev_dso__debug_file() before loading */
	char *debug_file;

	struct perfev_symbol *syms; /* sorted by start, no overlap at starts */
	size_t nsyms;
	struct arena names;

	struct dso_seg *segs;
	size_t nsegs;
	bool seg_offsets_known; /* false when only a debug file's phdrs (filesz 0) were seen */

	/* DSO_MEMORY: our copy of the image (libelf may convert it in place). */
	void *image;
	size_t image_size;

	/* The symbol cache file the table's names are in (mapped), or NULL. */
	void *sc_map;
	size_t sc_len;
	/*
	 * A table from a cache file: its entries in the mapping (checked when
	 * it was read), where the search reads the starts, and no syms array:
	 * a symbol is made when first found, kept by its index in memo, so
	 * loading a table of 100,000 symbols writes none of them.
	 */
	const unsigned char *sc_syms;
	const char *sc_strtab;
	bool sc_names_hold;
	struct sym_memo_slot *memo;
	size_t memo_cap, memo_n;
	/*
	 * The cache file's key ("": the table has none) and what rewriting it
	 * takes; names_new: names were demangled since the file was read or
	 * written, and it gets them when d goes (symcache__update()).
	 */
	char sc_key[2 * BUILD_ID_MAX + 8];
	bool sc_no_symtab;
	char *sc_debuglink;
	bool names_new;

	/* DWARF, opened on the first srcline/inline question. */
	bool dwarf_tried;
	int dwarf_fd;
	void *dwarf_elf; /* Elf * */
	void *dwarf; /* Dwarf * */
	struct addr_cache *cache;
};

struct perfev_symbolizer {
	char *root; /* "" for none */
	char *debug_dir;
	char *buildid_dir; /* "" disables */
	char *kallsyms;
	char *jit_dir;
	char *symcache_dir; /* "" disables */
	bool no_demangle, demangle_params;
	void (*warn)(void *ctx, const char *msg);
	void *warn_ctx;

	struct perfev_dso **buckets;
	size_t nbuckets, ndsos;
	struct perfev_dso *kernel;
};

/*
 * Records why d has no symbols (kept in d->error) and logs it; the
 * explanation also becomes perfev_last_error().
 */
void dso__set_error(struct perfev_dso *d, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/*
 * Adds a symbol to the DSO being loaded (raw name interned; demangled on
 * first lookup).  mod: a kernel module name, or NULL.  0 or -ENOMEM.
 */
struct sym_builder {
	struct perfev_dso *d;
	struct perfev_symbol *syms;
	unsigned char *prio; /* per symbol: which of two at one address to keep */
	size_t n, cap;
	/*
	 * Of several names at one address keep the one added last, whatever
	 * their prio: perf keeps every kallsyms alias and its lookup lands on
	 * the last ("__x64_sys_vfork", after "__ia32_sys_vfork").
	 */
	bool last_wins;
};
int sym_builder__add(struct sym_builder *b, uint64_t start, uint64_t size, const char *name,
		     size_t name_len, unsigned prio);
/*
 * Sorts, drops duplicates at one address (keeping the highest prio, then
 * the name with fewer leading underscores, as perf does), gives each
 * zero-size symbol the room up to the next one (or up to limit, when the
 * last: 0 for none) and hands the array to the DSO.
 */
int sym_builder__finish(struct sym_builder *b, uint64_t last_end);
void sym_builder__abort(struct sym_builder *b);

/* Loads d's symbols once, on first use, whatever the outcome. */
void dso__load(struct perfev_dso *d);

/* ---- loaders; each returns 0 or -errno with dso__set_error() done ---- */

/* What an ELF file (Elf *) has; 0, or -errno with the error set when it is no usable ELF file. */
struct elf_info {
	bool has_symtab, has_dynsym, has_dwarf;
};
int elf__inspect(void *elf, const char *name, struct elf_info *info);
/*
 * Function symbols from .symtab, else (when dynsym_ok) .dynsym, into d, with
 * "NAME@plt" for the PLT entries of plt_elf (the file that runs; NULL: none);
 * -ENOENT without either table.
 */
int elf_syms__load(struct perfev_dso *d, void *elf, const char *name, bool dynsym_ok,
		   void *plt_elf);
/* The PT_LOAD segments, for perfev_dso__map_ip(). */
int elf_segs__load(struct perfev_dso *d, void *elf, const char *name);
/* Loads a DSO_FILE: finds the file (build id, cache), then its symbols. */
int dso__load_file(struct perfev_dso *d);
/* Loads a DSO_MEMORY from its image. */
int dso__load_memory(struct perfev_dso *d);

/* The .gnu_debuglink of elf: name and CRC, or -ENOENT. */
int elf_debuglink(void *elf, char *name, size_t size, uint32_t *crc);
/* The CRC-32 .gnu_debuglink uses, of the file at fd; 0 or -errno. */
int debuglink_crc(int fd, uint32_t *crc);
/*
 * The separate debug file of the ELF file at path (bytes root-prefixed):
 * by build id under DEBUG_DIR/.build-id, then by .gnu_debuglink; copied to
 * out.  0, or -ENOENT.
 */
int debug_file__find(struct perfev_dso *d, const char *path, void *elf, const uint8_t *bid,
		     size_t bid_size, char *out, size_t size);
/* DIR/.build-id/xx/rest SUFFIX into out; false when it does not fit. */
bool build_id__path(char *out, size_t size, const char *dir, const uint8_t *id, size_t id_size,
		    const char *suffix);
/* The file at path, when it is a regular file whose build id matches; else false. */
bool file__has_build_id(const char *path, const uint8_t *id, size_t id_size);
/* Whether a file's build id matches the one recorded (which perf pads to 20 bytes). */
bool build_id__matches(const uint8_t *file_id, size_t file_size, const uint8_t *want,
		       size_t want_size);

/* Parses kallsyms text into d (DSO_KERNEL). */
int kallsyms__parse(struct perfev_dso *d, const char *text, size_t len);
int dso__load_kernel(struct perfev_dso *d);
/* Parses perf-PID.map text into d (DSO_JIT). */
int perf_map__parse(struct perfev_dso *d, const char *text, size_t len);
int dso__load_jit(struct perfev_dso *d);

/* ---- machine code (code.c) ---- */

struct dso_code {
	uint8_t *bytes; /* malloc'd; the caller frees it */
	size_t len;	/* may be short of the range asked when its section ends first */
	uint64_t addr;	/* of bytes[0] */
	unsigned machine; /* the file's e_machine */
	unsigned elf_class; /* ELFCLASS32 or ELFCLASS64 */
	bool big_endian;
};
/*
 * The code at [start, end) of d (more than max bytes is refused) from the
 * file whose build id the recording saw; 0, or -errno with the error set:
 * the kernel, JIT code and bracketed names have no file to read, a file
 * rebuilt since the recording is refused (d's error says so), no section
 * holds start.
 */
int dso__read_code(struct perfev_dso *d, uint64_t start, uint64_t end, size_t max,
		   struct dso_code *out);
/* d's build id: the recorded one, else its file's; the length or -ENOENT. */
int dso__build_id(struct perfev_dso *d, uint8_t *id, size_t size);

/* ---- the symbol cache (symcache.c) ---- */

/* What a cached table says beyond its symbols and segments; strings point into the cache file. */
struct symcache_info {
	const char *sym_file, *dwarf_file;
	const char *debuglink; /* the file's .gnu_debuglink name, when it has no .symtab */
	bool no_symtab;	       /* the file has no .symtab: a debug file found later is better */
};
/*
 * Fills d's symbols and segments from a cache file's bytes (img must
 * outlive d's table: names point into it).  0, -PERFEV_ERR_FORMAT when any
 * check fails (d unchanged), or -ENOMEM.
 */
int symcache__parse(struct perfev_dso *d, const void *img, size_t len, struct symcache_info *info);
/* The cached table named key, mapped, into d; 0, or -ENOENT (none, or unusable), -ENOMEM. */
int symcache__load(struct perfev_dso *d, const char *key, struct symcache_info *info);
/* Writes d's table (just loaded) under key; failures are silent: the cache is an optimization. */
void symcache__store(struct perfev_dso *d, const char *key, const struct symcache_info *info);
/* Writes d's table under d->sc_key, with what d holds of its files (sym_file, sc_debuglink, ...). */
void symcache__save(struct perfev_dso *d);
/* Writes d's table again when names were demangled since (d->names_new), before d goes. */
void symcache__update(struct perfev_dso *d);
/* Drops a table symcache__load() gave d. */
void symcache__drop(struct perfev_dso *d);

/* A symbol cache file's entry: the file's format, read where the file is mapped. */
struct sc_sym {
	uint64_t start, size;
	uint32_t raw, name; /* strtab offsets; name SC_NONE: demangled when first asked */
};

struct sym_memo_slot {
	size_t idx1; /* the symbol's index + 1; 0: free */
	struct perfev_symbol *sym;
};

static inline uint64_t symcache__start(const struct perfev_dso *d, size_t i)
{
	uint64_t start;

	memcpy(&start, d->sc_syms + i * sizeof(struct sc_sym) + offsetof(struct sc_sym, start),
	       sizeof(start));
	return start;
}

static inline uint64_t symcache__size(const struct perfev_dso *d, size_t i)
{
	uint64_t size;

	memcpy(&size, d->sc_syms + i * sizeof(struct sc_sym) + offsetof(struct sc_sym, size),
	       sizeof(size));
	return size;
}

/* Symbol i of d's table from its cache file, made when first asked; NULL when out of memory. */
struct perfev_symbol *symcache__sym(struct perfev_dso *d, size_t i);

/* Symbol i of d's table; NULL when out of memory. */
static inline struct perfev_symbol *dso__sym(struct perfev_dso *d, size_t i)
{
	return d->sc_syms ? symcache__sym(d, i) : &d->syms[i];
}
/* The cache's file for key (false: no cache); its folders made (0 or -errno); the oldest dropped. */
bool symcache__path(const struct perfev_dso *d, const char *key, char *out, size_t size);
int symcache__mkdir(char *path);
void symcache__trim(const char *dir);

/* ---- DWARF kept decompressed (dwarfcache.c) ---- */

/* A descriptor of path's DWARF with its compressed sections decompressed, or -1: read path itself. */
int dwarfcache__open(const struct perfev_dso *d, const char *path);

/* DWARF teardown (dwarf.c). */
void dso__dwarf_close(struct perfev_dso *d);

/* Demangles name for the symbolizer's options into the arena; NULL when not mangled. */
const char *sym__demangle(struct perfev_dso *d, const char *name);

/*
 * For the fuzzers: a DSO of an ELF image in memory (copied), of kallsyms
 * text, or of perf map text, owned by sy like any other.  NULL with errno
 * (ENOMEM).  Symbols are loaded on the first lookup as for files.
 */
struct perfev_dso *symbolizer__dso_from_elf_image(struct perfev_symbolizer *sy, const void *img,
						  size_t len);
struct perfev_dso *symbolizer__dso_from_text(struct perfev_symbolizer *sy, bool kallsyms,
					     const char *text, size_t len);

#endif
