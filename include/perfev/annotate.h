/* SPDX-License-Identifier: MIT */
/*
 * perfev: annotation: where in a function its samples fell, instruction by
 * instruction (disassembled with Capstone) and source line by source line
 * (DWARF lines and inline chains), inlined code under its own file and
 * line as well as under the line that called it.
 *
 *	struct perfev_annotate_hist *h = perfev_annotate_hist__new();
 *	perfev_session__process(s, fn, h);    // fn: perfev_annotate_hist__add(h, sample)
 *	const struct perfev_annotate_sym *top = perfev_annotate_hist__sym(h, 0);
 *	struct perfev_annotation *a = perfev_annotation__new(h, top->evsel, top->dso,
 *		top->sym->start, top->sym->start + top->sym->size, NULL);
 *	for (size_t i = 0; i < perfev_annotation__nr_insns(a); i++) {
 *		const struct perfev_annotate_insn *in = perfev_annotation__insn(a, i);
 *		printf("%6.2f %llx %s %s\n", perfev_annotation__percent(a, in->nr_samples,
 *		       in->period, PERFEV_PERCENT_LOCAL_PERIOD), in->addr, in->mnemonic, in->operands);
 *	}
 *
 * The percentages are perf annotate's: an instruction's share of the
 * function's samples (local) or of all the event's samples (global), by
 * period or by number of samples (hits).  Code bytes come from the file
 * whose build id the recording saw, never from a file rebuilt since; they
 * are untrusted and every range is bounds-checked.  Not thread-safe.
 */
#ifndef PERFEV_ANNOTATE_H
#define PERFEV_ANNOTATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "perfev/common.h"
#include "perfev/session.h"
#include "perfev/symbols.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- the samples of a session, by event, symbol and address ---- */

struct perfev_annotate_hist;

/* NULL with errno ENOMEM. */
PERFEV_API struct perfev_annotate_hist *perfev_annotate_hist__new(void);
PERFEV_API void perfev_annotate_hist__delete(struct perfev_annotate_hist *h);

/*
 * Counts a sample where it was taken (its first frame) for its event and
 * period; a sample in no known symbol counts for its DSO (sym NULL), and
 * every sample in the event's total.  0, or -ENOMEM.
 */
PERFEV_API int perfev_annotate_hist__add(struct perfev_annotate_hist *h,
					 const struct perfev_session_sample *s);
/*
 * Counts a sample as perfev_annotate_hist__add() does, in its function's
 * (or DSO's) sample count and period and the event's total, but keeps no
 * address: for samples that will not be annotated, only weighed (why a
 * file could not be annotated).  Much cheaper on big recordings.
 */
PERFEV_API int perfev_annotate_hist__count(struct perfev_annotate_hist *h,
					   const struct perfev_session_sample *s);
/*
 * The same by hand: period at address addr (in the DSO's address space)
 * of symbol sym (NULL: none) of DSO d (NULL: unknown) for event evsel.
 * -EINVAL for a negative evsel.
 */
PERFEV_API int perfev_annotate_hist__add_addr(struct perfev_annotate_hist *h, int evsel,
					      struct perfev_dso *d, const struct perfev_symbol *sym,
					      uint64_t addr, uint64_t period);

/* A symbol with samples (sym NULL: samples in d that no symbol holds). */
struct perfev_annotate_sym {
	int evsel;
	struct perfev_dso *dso;
	const struct perfev_symbol *sym;
	uint64_t nr_samples;
	uint64_t period;
};
/*
 * The symbols with samples, the hottest first (by period, then samples,
 * then DSO and symbol name, so the order is stable); valid until the next
 * add.
 */
PERFEV_API size_t perfev_annotate_hist__nr_syms(struct perfev_annotate_hist *h);
PERFEV_API const struct perfev_annotate_sym *perfev_annotate_hist__sym(struct perfev_annotate_hist *h,
									size_t i);
/* Every sample of event evsel and its period (the base of global percentages); -ENOENT for none. */
PERFEV_API int perfev_annotate_hist__total(const struct perfev_annotate_hist *h, int evsel,
					   uint64_t *nr_samples, uint64_t *period);

/* ---- one function (or address range) annotated ---- */

struct perfev_annotation;

struct perfev_annotate_opts {
	size_t sz; /* sizeof(struct perfev_annotate_opts) */
	/* No source lines or inline chains (do not read DWARF). */
	bool no_lines;
	size_t :0;
};

/*
 * Disassembles [start, end) of d (x86-64, i386, AArch64) and gives each
 * instruction event evsel's samples in h and, from DWARF, its source line
 * and inline chain.  NULL with errno and perfev_last_error() saying why:
 * ENOENT (no code to read: the kernel, JIT code, no file, or a file
 * rebuilt since the recording, refused since its code would not be the
 * code sampled), E2BIG (a range of more than 64 MiB), PERFEV_ERR_FORMAT
 * (an unreadable file, or a machine Capstone does not decode here),
 * EINVAL, ENOMEM.
 */
PERFEV_API struct perfev_annotation *
perfev_annotation__new(struct perfev_annotate_hist *h, int evsel, struct perfev_dso *d,
		       uint64_t start, uint64_t end, const struct perfev_annotate_opts *opts);
PERFEV_API void perfev_annotation__delete(struct perfev_annotation *a);

struct perfev_annotation_info {
	const char *name; /* the symbol at start, or NULL */
	struct perfev_dso *dso;
	uint64_t start, end; /* end: past the last instruction decoded */
	int evsel;
	uint64_t nr_samples, period;	   /* in [start, end) */
	uint64_t total_samples, total_period; /* of the event, for global percentages */
	const char *arch;		   /* "x86-64", "i386", "aarch64" */
	bool has_lines;			   /* DWARF gave source lines */
	const char *file;		   /* the function's own source file, or NULL */
};
PERFEV_API const struct perfev_annotation_info *
perfev_annotation__info(const struct perfev_annotation *a);

enum perfev_annotate_percent {
	PERFEV_PERCENT_LOCAL_PERIOD,  /* of the function's period (perf's default) */
	PERFEV_PERCENT_GLOBAL_PERIOD, /* of the event's period */
	PERFEV_PERCENT_LOCAL_HITS,    /* of the function's samples */
	PERFEV_PERCENT_GLOBAL_HITS,   /* of the event's samples */
};
/* 100 * (samples or period) over the base type names; 0 when the base is 0. */
PERFEV_API double perfev_annotation__percent(const struct perfev_annotation *a, uint64_t nr_samples,
					     uint64_t period, enum perfev_annotate_percent type);

struct perfev_annotate_insn {
	uint64_t addr; /* in the DSO's address space */
	uint32_t size;
	const uint8_t *bytes;
	const char *mnemonic; /* ".byte" for bytes that decode as no instruction */
	/*
	 * The operands (AT&T on x86), a direct jump's or call's target and a
	 * RIP-relative address written as objdump writes them: "12bb
	 * <hot+0x5b>".
	 */
	const char *operands;
	bool jump, call, ret;
	bool has_target;    /* a direct jump or call */
	uint64_t target;
	const char *target_sym; /* the symbol holding target, or NULL */
	uint64_t target_off;	/* target - target_sym's start */
	uint64_t nr_samples, period; /* samples in [addr, addr + size) */
	/* Where the instruction is in the source, innermost; file NULL when unknown. */
	struct perfev_srcline line;
	/*
	 * The functions active here, innermost first, as
	 * perfev_dso__inline_frames() gives them: each inlined function
	 * (where: its line; for outer ones, the call site of the inner), the
	 * function last.  nr_inlines 0 without DWARF.
	 */
	const struct perfev_inline_frame *inlines;
	uint32_t nr_inlines;
	uint32_t line_index; /* perfev_annotation__line() of line, or UINT32_MAX */
};
PERFEV_API size_t perfev_annotation__nr_insns(const struct perfev_annotation *a);
PERFEV_API const struct perfev_annotate_insn *
perfev_annotation__insn(const struct perfev_annotation *a, size_t i);
/* The instruction holding addr, or -1. */
PERFEV_API int64_t perfev_annotation__insn_at(const struct perfev_annotation *a, uint64_t addr);

/*
 * A source line of the function and what ran there: its own instructions
 * (self: where the line is the innermost location) and, for a line that
 * calls inlined code, that code too (total: every instruction with the line
 * anywhere in its inline chain, counted once).  An inlined callee's line
 * is a line of its own file (inlined true, function the callee's name);
 * the call site in the caller's file carries the callee's samples in its
 * total.
 */
struct perfev_annotate_line {
	struct perfev_srcline where;
	const char *function; /* the function the line belongs to */
	bool inlined;	      /* a line of inlined code, not of the annotated function itself */
	uint64_t self_samples, self_period;
	uint64_t total_samples, total_period;
	const uint32_t *insns; /* indexes of the instructions whose innermost line this is */
	uint32_t nr_insns;
};
/* The lines, sorted by file (the function's own file first), then line. */
PERFEV_API size_t perfev_annotation__nr_lines(const struct perfev_annotation *a);
PERFEV_API const struct perfev_annotate_line *
perfev_annotation__line(const struct perfev_annotation *a, size_t i);

/* ---- source files ---- */

struct perfev_sources;

struct perfev_sources_opts {
	size_t sz; /* sizeof(struct perfev_sources_opts) */
	/*
	 * Where the sources are now: each path DWARF gives loses its first
	 * prefix_strip components and gets prefix in front (objdump's
	 * --prefix and --prefix-strip).  NULL: the paths as they are.
	 */
	const char *prefix;
	unsigned prefix_strip;
	/* Never ask debuginfod (by default asked when DEBUGINFOD_URLS is set). */
	bool no_debuginfod;
	size_t :0;
};

/* NULL with errno (EINVAL: bad opts; ENOMEM). */
PERFEV_API struct perfev_sources *perfev_sources__new(const struct perfev_sources_opts *opts);
PERFEV_API void perfev_sources__delete(struct perfev_sources *s);

/*
 * Line line (from 1) of the source file DWARF names file, in the code of
 * DSO d (its build id names it to debuginfod): its text without the line
 * end, *len its length.  Looked for at the path with opts' prefix, at the
 * path itself, then through debuginfod; each file read once.  NULL with
 * errno: ENOENT (not found: perfev_sources__error() says where it was
 * looked for), ERANGE (the file is shorter: the source changed since the
 * build?), EINVAL, ENOMEM.
 */
PERFEV_API const char *perfev_sources__line(struct perfev_sources *s, struct perfev_dso *d,
					    const char *file, uint32_t line, size_t *len);
/* The file read for file (the local path or debuginfod's cached copy); NULL when none was found. */
PERFEV_API const char *perfev_sources__path(struct perfev_sources *s, struct perfev_dso *d,
					    const char *file);
/* Why file was not found (every place tried), or NULL when it was. */
PERFEV_API const char *perfev_sources__error(struct perfev_sources *s, struct perfev_dso *d,
					     const char *file);
/* The number of lines of file, or -errno as perfev_sources__line(). */
PERFEV_API int perfev_sources__nr_lines(struct perfev_sources *s, struct perfev_dso *d,
					const char *file);

#ifdef __cplusplus
}
#endif
#endif
