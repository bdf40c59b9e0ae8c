/* SPDX-License-Identifier: MIT */
/*
 * perfev: symbols for sampled addresses, read with elfutils (libelf,
 * libdw): function names (C++ and Rust demangled), source file and line,
 * inlined frames; the kernel from /proc/kallsyms; JIT code from
 * /tmp/perf-PID.map.
 *
 *	struct perfev_symbolizer *sy = perfev_symbolizer__new(NULL);
 *	struct perfev_dso *d = perfev_symbolizer__dso(sy, "/usr/bin/bash", bid, 20);
 *	uint64_t a = perfev_dso__map_ip(d, ip, map_start, map_pgoff);
 *	const struct perfev_symbol *s = perfev_dso__find_symbol(d, a);
 *	printf("%s+%#lx\n", s ? s->name : "??", s ? a - s->start : 0);
 *
 * A DSO is opened once, on its first lookup, and its symbols are kept
 * (sorted, for binary search) until the symbolizer is deleted; all pointers
 * the lookups return live as long as the symbolizer.  The files read are
 * untrusted: every section, symbol and DWARF range is bounds-checked, and
 * a file that cannot be used leaves the DSO without symbols and with
 * perfev_dso__error() saying why, never a crash.
 *
 * Not thread-safe: one symbolizer per thread, or a lock around it.
 */
#ifndef PERFEV_SYMBOLS_H
#define PERFEV_SYMBOLS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "perfev/common.h"

#ifdef __cplusplus
extern "C" {
#endif

struct perfev_symbolizer;
struct perfev_dso;

struct perfev_symbolizer_opts {
	size_t sz; /* sizeof(struct perfev_symbolizer_opts) */
	/*
	 * Prefix of every DSO path opened (a sysroot, or the root of another
	 * machine's files), and of the default debug_dir; NULL or "": none.
	 * Not of kallsyms, jit_dir or buildid_dir, which are given whole.
	 */
	const char *root;
	/* Where separate debug files live; NULL: "/usr/lib/debug". */
	const char *debug_dir;
	/* perf's build-id cache; NULL: "$HOME/.debug" ("" disables). */
	const char *buildid_dir;
	/* The kernel's symbols; NULL: "/proc/kallsyms". */
	const char *kallsyms;
	/* Where JIT maps perf-PID.map are; NULL: "/tmp". */
	const char *jit_dir;
	/* Keep names as in the file (no demangling). */
	bool no_demangle;
	/*
	 * Demangled C++ names with their parameter lists ("f(int)"); by
	 * default without, as perf report shows them ("f").
	 */
	bool demangle_params;
	/*
	 * Called once per DSO whose file is not the one the recording saw
	 * (rebuilt since, or gone) when no build-id cache or debug directory
	 * holds that one either, as its symbols are first asked for: msg says
	 * which file, why and what to do (it is also perfev_dso__error()).
	 * NULL: not called.
	 */
	void (*warn)(void *ctx, const char *msg);
	void *warn_ctx;
	/*
	 * Where parsed symbol tables are kept between runs (ELF files by build
	 * id, /proc/kallsyms by the running kernel's build id, boot and
	 * modules), memory-mapped when read again; NULL or "": not kept.
	 */
	const char *symcache_dir;
	size_t :0;
};

/* NULL with errno set (EINVAL: bad opts; ENOMEM). */
PERFEV_API struct perfev_symbolizer *
perfev_symbolizer__new(const struct perfev_symbolizer_opts *opts);
/* Frees every DSO and everything they returned; accepts NULL. */
PERFEV_API void perfev_symbolizer__delete(struct perfev_symbolizer *sy);

/*
 * The DSO of a mapped file, as an MMAP/MMAP2 record names it, found again
 * when asked twice (same path and build id).  build_id (NULL, or
 * build_id_size 1..20 bytes) is the one the recording saw: when given, the
 * file used is the first of path, the build-id cache, and
 * DEBUG_DIR/.build-id/xx/rest.debug whose build id matches; a file at path
 * with another build id (rebuilt since) is not used and the DSO has no
 * symbols, with an error saying so.  Symbols come from the file's .symtab,
 * or, when the file is stripped, from its separate debug file (by build id
 * under DEBUG_DIR/.build-id, or .gnu_debuglink next to it, in .debug/, or
 * under DEBUG_DIR), else from .dynsym.  Never fails for a valid path: a DSO
 * whose file cannot be read is kept, without symbols, so it is not tried
 * again.  NULL with errno only for EINVAL (path NULL or empty, bad size)
 * or ENOMEM.
 *
 * Paths in brackets are not files: "[kernel.kallsyms]" (any suffix, such
 * as "[kernel.kallsyms]_text") is perfev_symbolizer__kernel(); "[vdso]"
 * with a build id reads the vDSO's image from the build-id cache
 * (DIR/[vdso]/HEX/vdso, perf's layout), else from this process's own
 * memory when its vDSO has that build id (the same kernel); "[vdso]"
 * without one and the like give a DSO without symbols.
 */
PERFEV_API struct perfev_dso *perfev_symbolizer__dso(struct perfev_symbolizer *sy,
						     const char *path, const uint8_t *build_id,
						     size_t build_id_size);
/*
 * The kernel: symbols from opts.kallsyms (modules included: a module's
 * symbol is named "name [module]", its raw_name "name").  Each extends to
 * the next symbol, kallsyms giving no sizes.  When kptr_restrict hides the addresses
 * (every one 0), the DSO has no symbols and its error says so and what to
 * do (run as root, or sysctl kernel.kptr_restrict=0).
 */
PERFEV_API struct perfev_dso *perfev_symbolizer__kernel(struct perfev_symbolizer *sy);
/*
 * JIT-compiled code of process pid, from JIT_DIR/perf-PID.map ("START
 * SIZE NAME" per line, hex without 0x or with it, as perf reads it);
 * the DSO has no symbols when the file is absent.
 */
PERFEV_API struct perfev_dso *perfev_symbolizer__jit(struct perfev_symbolizer *sy, int pid);

/* The path the DSO was asked by; its last component; the file symbols came from (or NULL). */
PERFEV_API const char *perfev_dso__name(const struct perfev_dso *d);
PERFEV_API const char *perfev_dso__short_name(const struct perfev_dso *d);
PERFEV_API const char *perfev_dso__symbol_file(struct perfev_dso *d);
/*
 * The separate debug file holding the symbols of the DSO's file when that
 * file has no .symtab (found as symbols are, without loading them), or
 * NULL: none needed, none found, or no file.  Lives as long as the DSO.
 */
PERFEV_API const char *perfev_dso__debug_file(struct perfev_dso *d);
/* Why the DSO has no symbols (loading it if not yet done), or NULL when it has some. */
PERFEV_API const char *perfev_dso__error(struct perfev_dso *d);
PERFEV_API bool perfev_dso__is_kernel(const struct perfev_dso *d);
/* The build id the DSO was asked with, into id (up to size bytes); its length, 0 when none. */
PERFEV_API size_t perfev_dso__build_id(const struct perfev_dso *d, uint8_t *id, size_t size);

/*
 * The address to look up for a runtime address ip in a mapping of this
 * DSO at [map_start, ...) of file offset map_pgoff: for an ELF file, the
 * file offset ip - map_start + map_pgoff turned into the ELF virtual
 * address of the PT_LOAD segment holding it (so a PIE and a shared library
 * resolve wherever they were loaded); for the kernel and JIT maps, ip
 * itself.  When the file cannot be read, the file offset.
 */
PERFEV_API uint64_t perfev_dso__map_ip(struct perfev_dso *d, uint64_t ip, uint64_t map_start,
				       uint64_t map_pgoff);

struct perfev_symbol {
	uint64_t start; /* in the DSO's address space (perfev_dso__map_ip) */
	uint64_t size;	/* a symbol of size 0 in the file extends to the next one */
	const char *name; /* demangled unless opts.no_demangle */
	const char *raw_name; /* as in the file */
};

/* The function symbol covering addr, or NULL (errno ENOENT). */
PERFEV_API const struct perfev_symbol *perfev_dso__find_symbol(struct perfev_dso *d,
							       uint64_t addr);

/* A place in the source. */
struct perfev_srcline {
	const char *file; /* as DWARF names it, joined to the CU directory when relative */
	uint32_t line;
};
/* The source line of addr from the DWARF line table; -ENOENT without one. */
PERFEV_API int perfev_dso__srcline(struct perfev_dso *d, uint64_t addr,
				   struct perfev_srcline *out);

/* One frame of the inline chain at an address. */
struct perfev_inline_frame {
	const char *name; /* the function, demangled like symbols */
	struct perfev_srcline where; /* where execution is within it */
};
/*
 * The functions active at addr, innermost first: each function inlined
 * there (where: the line executing in it; for outer ones, the call site of
 * the next inner one), then the function they are inlined into (the
 * symbol).  Fills up to max frames and returns how many exist (so 1 when
 * nothing is inlined at addr), or -ENOENT without DWARF for addr.
 */
PERFEV_API int perfev_dso__inline_frames(struct perfev_dso *d, uint64_t addr,
					 struct perfev_inline_frame *frames, size_t max);

/*
 * Demangles a C++ (Itanium) or Rust (legacy or v0) name into buf; returns
 * the length, or -EINVAL when name is not mangled, or -ENOSPC (the length
 * needed is not known; try a larger buf).
 */
PERFEV_API int perfev_demangle(const char *name, bool params, char *buf, size_t size);

#ifdef __cplusplus
}
#endif
#endif
