/* SPDX-License-Identifier: MIT */
/* Shared by the record decoder's files: a bounds-checked reader over one record. */
#ifndef PERFEV_RECORD_INT_H
#define PERFEV_RECORD_INT_H

#include <string.h>

#include "util/internal.h"
#include "perfev/evlist.h"
#include "perfev/record.h"

/*
 * A cursor over [p, p + end).  Offsets in error messages are counted from
 * the start of the record (base is what precedes p there, e.g. the header),
 * so they match what a hex dump of the file shows.
 */
struct rd {
	const unsigned char *p;
	size_t off;
	size_t end;
	size_t base;
	const char *what; /* "sample", "record MMAP", ... */
};

static inline size_t rd_left(const struct rd *r)
{
	return r->end - r->off;
}

/* n bytes for field must remain; the error names them. */
static inline int rd_need(const struct rd *r, size_t n, const char *field)
{
	if (n > rd_left(r))
		return set_error(PERFEV_ERR_FORMAT, "%s: %s needs %zu bytes at offset %zu, record has %zu",
				 r->what, field, n, r->base + r->off, r->base + r->end);
	return 0;
}

static inline int rd_u64(struct rd *r, uint64_t *v, const char *field)
{
	int err = rd_need(r, 8, field);

	if (err)
		return err;
	memcpy(v, r->p + r->off, 8);
	r->off += 8;
	return 0;
}

/* Two u32 packed in one u64 slot (pid/tid, cpu/res). */
static inline int rd_u32x2(struct rd *r, uint32_t *a, uint32_t *b, const char *field)
{
	int err = rd_need(r, 8, field);

	if (err)
		return err;
	memcpy(a, r->p + r->off, 4);
	memcpy(b, r->p + r->off + 4, 4);
	r->off += 8;
	return 0;
}

/* n bytes in place; *ptr points into the record. */
static inline int rd_bytes(struct rd *r, size_t n, const void **ptr, const char *field)
{
	int err = rd_need(r, n, field);

	if (err)
		return err;
	*ptr = r->p + r->off;
	r->off += n;
	return 0;
}

/* Checks that fmt describes a layout the decoder knows. */
int sample_fmt__check(const struct perfev_sample_fmt *fmt);
/* Bytes of struct sample_id under fmt (0 without sample_id_all). */
size_t sample_id__size(const struct perfev_sample_fmt *fmt);
/* Decodes a sample body from r (offsets in errors relative to the record). */
int sample__parse_rd(const struct perfev_sample_fmt *fmt, struct rd *r, struct perfev_sample *out);
/* The same for a checked format, into a cleared *out. */
int sample__parse_body(const struct perfev_sample_fmt *fmt, struct rd *r, struct perfev_sample *out);
/* A read_format value (PERF_SAMPLE_READ, PERF_RECORD_READ) in place. */
int read_value__parse(uint64_t rf, struct rd *r, uint64_t *nr, const void **data, size_t *size);
int sample_id__parse(const struct perfev_sample_fmt *fmt, struct rd *r, struct perfev_sample_id *out);

/* The name of a record type, kernel's or perf's own ("SAMPLE", "FINISHED_ROUND"), or NULL. */
const char *record_type_name(uint32_t type);

#endif
