/* SPDX-License-Identifier: MIT */
/*
 * perfev: tracepoint formats.  A tracepoint sample carries its fields as raw
 * bytes (PERF_SAMPLE_RAW) laid out as tracefs's events/SYSTEM/EVENT/format
 * file says: each field's name, type, offset and size, and a "print fmt"
 * (a printf format with C expressions over the fields) that tells how the
 * kernel and perf show an event.  This reads those files, from a perf.data
 * file's tracing data (perf's HEADER_TRACING_DATA) or from tracefs, gives
 * each field's value, and prints a record as `perf script` does.
 *
 *	struct perfev_tracefmt *tf = perfev_tracefmt__new();
 *	perfev_tracefmt__add_tracing_data(tf, data, size);   // or __add_tracefs()
 *	const struct perfev_tp_format *f = perfev_tracefmt__find_id(tf, attr->config);
 *	char line[4096];
 *	perfev_tp_format__print(f, sample->raw.data, sample->raw.size, NULL, line, sizeof(line));
 *	// "prev_comm=sleep prev_pid=123 prev_prio=120 prev_state=S ==> next_comm=..."
 *
 * Both the format text and the raw bytes are untrusted: every length,
 * offset and nesting depth is bounded, a malformed format is refused with
 * -PERFEV_ERR_FORMAT and perfev_last_error() saying where, and a field
 * that lies outside its record reads as 0 (or as an empty string), the way
 * perf's libtraceevent treats it.  A print fmt that uses what perf's parser
 * does not know (a helper function it lacks) leaves the format usable for
 * its fields, and printing shows "[FAILED TO PARSE]" and each field raw, as
 * perf does.
 *
 * Raw data are in the byte order of the machine that recorded them: the
 * tracing data say which, and tracefs's formats are the running machine's.
 */
#ifndef PERFEV_TRACEFMT_H
#define PERFEV_TRACEFMT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "perfev/common.h"

#ifdef __cplusplus
extern "C" {
#endif

struct perfev_tracefmt;
struct perfev_tp_format;

/* What a field is, from its declaration. */
enum perfev_tp_field_flags {
	PERFEV_TP_FIELD_SIGNED = 1u << 0,
	PERFEV_TP_FIELD_ARRAY = 1u << 1,    /* "name[N]", or a __data_loc/__rel_loc array */
	PERFEV_TP_FIELD_DYNAMIC = 1u << 2,  /* __data_loc: a u32 of (length << 16 | offset) */
	PERFEV_TP_FIELD_RELATIVE = 1u << 3, /* __rel_loc: the offset counts from after the field */
	PERFEV_TP_FIELD_STRING = 1u << 4,   /* an array of char, u8 or s8 */
	PERFEV_TP_FIELD_POINTER = 1u << 5,  /* its type has a '*' */
	PERFEV_TP_FIELD_LONG = 1u << 6,     /* its type says long */
	PERFEV_TP_FIELD_COMMON = 1u << 7,   /* common_type, common_pid...: every event has them */
};

struct perfev_tp_field {
	const char *name;
	/* As declared, without the name and its brackets: "char", "__data_loc char[]", "pid_t". */
	const char *type;
	uint32_t offset, size;
	uint32_t elem_size; /* of one element of an array; size for a scalar */
	uint32_t array_len; /* elements of a fixed-size array; 0 otherwise */
	unsigned flags;	    /* enum perfev_tp_field_flags */
};

PERFEV_API struct perfev_tracefmt *perfev_tracefmt__new(void);
/* Accepts NULL. */
PERFEV_API void perfev_tracefmt__delete(struct perfev_tracefmt *t);

/*
 * Adds every event format in perf's tracing data (the TRACING_DATA feature
 * of a perf.data file, perfev_data_reader__feature(), or what follows a
 * pipe's PERF_RECORD_HEADER_TRACING_DATA), and takes from it the byte order
 * and long size of the recording machine.  Returns the number of formats
 * added, or -PERFEV_ERR_FORMAT naming the offset and what is wrong
 * (nothing is added then), -ENOMEM.
 */
PERFEV_API int perfev_tracefmt__add_tracing_data(struct perfev_tracefmt *t, const void *data,
						 size_t size);
/*
 * Adds one format file's text (as events/SYS/NAME/format reads) for
 * system sys.  0, -PERFEV_ERR_FORMAT (its line and what is wrong), -ENOMEM;
 * -EEXIST when a format of that id is there already.
 */
PERFEV_API int perfev_tracefmt__add_format(struct perfev_tracefmt *t, const char *sys,
					   const char *text, size_t len);
/*
 * Reads and adds events/SYS/NAME/format of the mounted tracefs (the
 * running machine's byte order).  -PERFEV_ERR_NOTRACEFS, -ENOENT (no such
 * tracepoint), -EACCES, or add_format()'s errors; 0 when added or already
 * there.
 */
PERFEV_API int perfev_tracefmt__add_tracefs(struct perfev_tracefmt *t, const char *sys,
					    const char *name);

PERFEV_API size_t perfev_tracefmt__nr_formats(const struct perfev_tracefmt *t);
PERFEV_API const struct perfev_tp_format *perfev_tracefmt__format(const struct perfev_tracefmt *t,
								  size_t i);
/* The format whose ID is id (a tracepoint attr's config), or NULL. */
PERFEV_API const struct perfev_tp_format *perfev_tracefmt__find_id(const struct perfev_tracefmt *t,
								   uint64_t id);
/* By system and event name, or NULL. */
PERFEV_API const struct perfev_tp_format *perfev_tracefmt__find(const struct perfev_tracefmt *t,
								const char *sys, const char *name);

PERFEV_API const char *perfev_tp_format__system(const struct perfev_tp_format *f);
PERFEV_API const char *perfev_tp_format__name(const struct perfev_tp_format *f);
PERFEV_API uint64_t perfev_tp_format__id(const struct perfev_tp_format *f);
/* The print fmt as written in the format file ("" when it had none). */
PERFEV_API const char *perfev_tp_format__print_fmt(const struct perfev_tp_format *f);
/*
 * NULL when the print fmt is understood; otherwise why not (printing then
 * gives perf's "[FAILED TO PARSE]" and the fields raw).
 */
PERFEV_API const char *perfev_tp_format__print_error(const struct perfev_tp_format *f);

/* The fields, common ones (common_type, common_flags, ...) first. */
PERFEV_API size_t perfev_tp_format__nr_fields(const struct perfev_tp_format *f);
PERFEV_API const struct perfev_tp_field *perfev_tp_format__field(const struct perfev_tp_format *f,
								size_t i);
PERFEV_API const struct perfev_tp_field *
perfev_tp_format__field_by_name(const struct perfev_tp_format *f, const char *name);

/*
 * A scalar field's value in raw (size bytes of a sample's raw data),
 * sign-extended when the field is signed; for an array, its first element.
 * -ENOENT (no field of that name), -ERANGE (the field lies outside the
 * record; *val is 0), -EINVAL (a size other than 1, 2, 4 or 8).
 */
PERFEV_API int perfev_tp_field__int(const struct perfev_tp_format *f,
				    const struct perfev_tp_field *fl, const void *raw, size_t size,
				    uint64_t *val);
PERFEV_API int perfev_tp_format__int(const struct perfev_tp_format *f, const char *name,
				     const void *raw, size_t size, uint64_t *val);
/*
 * The bytes of an array field (fixed, or the dynamic area a __data_loc or
 * __rel_loc points at), within raw: *p and *len.  -ENOENT, -EINVAL (not an
 * array), -ERANGE (outside the record).
 */
PERFEV_API int perfev_tp_field__bytes(const struct perfev_tp_format *f,
				      const struct perfev_tp_field *fl, const void *raw, size_t size,
				      const void **p, size_t *len);
/*
 * A string field (char array or __data_loc char[]) copied into buf up to its
 * first NUL, NUL-terminated (truncated to fit).  The length of the whole
 * string, or the errors of perfev_tp_field__bytes().
 */
PERFEV_API int perfev_tp_format__str(const struct perfev_tp_format *f, const char *name,
				     const void *raw, size_t size, char *buf, size_t bufsize);

struct perfev_tp_print_opts {
	size_t sz; /* sizeof(struct perfev_tp_print_opts) */
	/*
	 * Names a kernel address for %pS, %ps, %pF and %pf: the symbol's name
	 * and its start address, or NULL when none holds it (the address is
	 * then printed in hex).  NULL: addresses are printed in hex.
	 */
	const char *(*ksym)(void *ctx, uint64_t addr, uint64_t *start);
	void *ctx;
	size_t :0;
};
#define perfev_tp_print_opts__last_field ctx

/*
 * Writes raw (a sample's PERF_SAMPLE_RAW bytes) as perf script shows the
 * event: the print fmt with its arguments evaluated, as libtraceevent does.
 * Like snprintf: the length of the whole text (buf holds what fits,
 * NUL-terminated), or -EINVAL for bad opts.
 */
PERFEV_API int perfev_tp_format__print(const struct perfev_tp_format *f, const void *raw,
				       size_t size, const struct perfev_tp_print_opts *opts,
				       char *buf, size_t bufsize);

#ifdef __cplusplus
}
#endif
#endif
