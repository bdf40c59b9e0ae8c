/* SPDX-License-Identifier: MIT */
/*
 * What the profile's writers (write_*.c) share: their options checked once,
 * what kind a frame is and which file it is in, interned strings and
 * functions (a name in a file), and the end of every write.
 */
#ifndef PERFEV_PROFILE_WRITE_INT_H
#define PERFEV_PROFILE_WRITE_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "util/idxhash.h"
#include "perfev/profile_write.h"

/* What a frame is, for colours and annotations; the order is the HTML's and SVG's legend's. */
enum frame_kind { KIND_USER, KIND_KERNEL, KIND_INLINED, KIND_JIT, KIND_UNKNOWN, KIND_OFF_CPU, NR_KINDS };
extern const char *const write_kind_names[NR_KINDS];

/* The caller's options, checked (series given, each with a profile); 0 or -EINVAL with the error set. */
int write_opts(struct perfev_profile_write_opts *o, const struct perfev_profile_write_opts *in,
	       const char *format);
enum frame_kind write_kind(const struct perfev_profile_frame *f);
/* The file a frame is in: its path, "[kernel.kallsyms]" or "[unknown]"; and its last component. */
const char *write_dso_path(const struct perfev_profile_frame *f);
const char *write_dso_short(const struct perfev_profile_frame *f);
/* A series' name, pprof type and unit, with their defaults. */
const char *write_series_name(const struct perfev_profile_series *s);
const char *write_series_type(const struct perfev_profile_series *s);
const char *write_series_unit(const struct perfev_profile_series *s);
/*
 * Writes s as XML character data or an attribute value: & < > " ' as
 * entities, well-formed UTF-8 as it is, control bytes as "\xNN" (XML has no
 * way to carry them) and every byte of ill-formed UTF-8 as U+FFFD.
 */
void write_xml(FILE *f, const char *s);
/*
 * in as text safe for line-based and protobuf formats, into out: well-formed
 * UTF-8 kept, control bytes as "\xNN", each byte of ill-formed UTF-8 as
 * U+FFFD; cut (at a character) to fit size.
 */
const char *write_clean(const char *in, char *out, size_t size);
/* Flushes f: 0, or its error (-errno, set) naming the format. */
int write_finish(FILE *f, const char *format);

/* Strings interned to indices, each copied once. */
struct strtab {
	char **s;
	size_t nr, cap;
	struct idxhash h;
};
/* The index of s (added when new); -1 when out of memory (error set). */
int64_t strtab_add(struct strtab *t, const char *s);
void strtab_free(struct strtab *t);

/* A function: a name in a file, of a kind; frames of one profile map to them. */
struct write_fn {
	uint32_t name, file; /* strtab indices */
	uint32_t frame;	     /* its first frame */
	uint8_t kind;
};
struct fntab {
	struct write_fn *fns;
	size_t nr, cap;
	uint32_t *of_frame; /* frame index -> function index */
	struct idxhash h;
	struct strtab *strings; /* shared: names and files go there */
};
struct perfev_json;
/*
 * The HTML report's source views of series (an array "sources"): each of
 * o->source_views of that series whose function is in t.
 */
void html_write_sources(struct perfev_json *j, const struct perfev_profile_write_opts *o,
			size_t series, const struct fntab *t);

/* Adds profile p's frames (those not added yet) to t; 0 or -ENOMEM. */
int fntab_add_profile(struct fntab *t, const struct perfev_profile *p);
void fntab_free(struct fntab *t);

#endif
