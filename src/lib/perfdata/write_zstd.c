/* SPDX-License-Identifier: MIT */
/*
 * Compressing the data section as "perf record -z" does: one zstd stream,
 * never ended, cut into PERF_RECORD_COMPRESSED records.  perf decompresses
 * each record's payload on its own into a buffer of HEADER_COMPRESSED's
 * mmap_len bytes and fails on a record that yields nothing, so every record
 * here holds one whole flushed segment of at most PD_ZSTD_SEGMENT input
 * bytes: it always yields something, never more than mmap_len, and its
 * compressed size stays below the u16 record size limit.
 */
#include <stdlib.h>
#include <zstd.h>

#include "perfdata/writer_int.h"

/* perf's limit for a compressed record's payload (PERF_SAMPLE_MAX_SIZE - header - 1). */
#define PD_ZSTD_MAX_PAYLOAD (65536u - 8u - 1u)

struct pd_zstd {
	ZSTD_CCtx *cctx;
	size_t seg_fill; /* input bytes in the open record */
	size_t rec_off;	 /* where the open record starts in the output; SIZE_MAX: none */
};

/*
 * A flushed segment shorter than a zstd block (128 KiB) is one block, raw
 * when it does not compress: at most the input plus a block header (3) and,
 * the first time, a frame header (18).
 */
_Static_assert(PD_ZSTD_SEGMENT + 3 + 18 <= PD_ZSTD_MAX_PAYLOAD && PD_ZSTD_SEGMENT < 128 * 1024,
	       "a segment's worst-case compressed size must fit one record");

struct pd_zstd *pd_zstd_new(int level)
{
	struct pd_zstd *z;
	size_t r;

	if (level < 1 || level > ZSTD_maxCLevel())
		return set_error_ptr(EINVAL, "zstd compression level %d is out of range 1..%d",
				     level, ZSTD_maxCLevel());
	z = calloc(1, sizeof(*z));
	if (!z)
		return set_error_ptr(ENOMEM, "out of memory for the zstd compressor");
	z->cctx = ZSTD_createCCtx();
	if (!z->cctx) {
		free(z);
		return set_error_ptr(ENOMEM, "out of memory for the zstd compressor");
	}
	r = ZSTD_CCtx_setParameter(z->cctx, ZSTD_c_compressionLevel, level);
	if (ZSTD_isError(r)) {
		pd_zstd_delete(z);
		return set_error_ptr(EINVAL, "zstd rejects compression level %d: %s", level,
				     ZSTD_getErrorName(r));
	}
	z->rec_off = SIZE_MAX;
	return z;
}

void pd_zstd_delete(struct pd_zstd *z)
{
	if (!z)
		return;
	ZSTD_freeCCtx(z->cctx);
	free(z);
}

static int open_record(struct pd_zstd *z, struct pd_buf *out)
{
	if (!pd_buf_reserve(out, 8 + PD_ZSTD_MAX_PAYLOAD))
		return set_error(ENOMEM, "out of memory for compressed perf.data records");
	z->rec_off = out->len;
	pd_put_header(out, PERFEV_RECORD_COMPRESSED, 0, 8);
	return 0;
}

/* The open record's payload as a zstd output buffer; the space was reserved in open_record(). */
static ZSTD_outBuffer record_out(const struct pd_zstd *z, const struct pd_buf *out)
{
	size_t start = z->rec_off + 8;

	return (ZSTD_outBuffer){ out->p + start, PD_ZSTD_MAX_PAYLOAD, out->len - start };
}

static int zstd_failed(size_t r, const char *what)
{
	return set_error(EIO, "zstd failed to %s perf.data records: %s", what, ZSTD_getErrorName(r));
}

/*
 * Only reachable if zstd broke its own bound (ZSTD_compressBound): a
 * segment's output then cannot be one record, and splitting it could leave
 * perf a record that decompresses to nothing.
 */
static int overflow(void)
{
	return set_error(EIO, "zstd output for %u input bytes exceeds one PERF_RECORD_COMPRESSED "
			      "(%u bytes); this is a bug in perfev or zstd",
			 PD_ZSTD_SEGMENT, PD_ZSTD_MAX_PAYLOAD);
}

int pd_zstd_flush(struct pd_zstd *z, struct pd_buf *out)
{
	ZSTD_inBuffer in = { NULL, 0, 0 };
	ZSTD_outBuffer o;
	size_t r;

	if (z->rec_off == SIZE_MAX)
		return 0;
	o = record_out(z, out);
	do {
		r = ZSTD_compressStream2(z->cctx, &o, &in, ZSTD_e_flush);
		if (ZSTD_isError(r))
			return zstd_failed(r, "flush");
		if (r && o.pos == o.size)
			return overflow();
	} while (r);
	out->len = z->rec_off + 8 + o.pos;
	pd_patch_header(out, z->rec_off, PERFEV_RECORD_COMPRESSED, 0, (uint16_t)(8 + o.pos));
	z->rec_off = SIZE_MAX;
	z->seg_fill = 0;
	return 0;
}

int pd_zstd_feed(struct pd_zstd *z, const void *buf, size_t len, struct pd_buf *out)
{
	const unsigned char *p = buf;
	int ret;

	while (len) {
		size_t n = PD_ZSTD_SEGMENT - z->seg_fill;
		ZSTD_inBuffer in;
		ZSTD_outBuffer o;

		if (z->rec_off == SIZE_MAX && (ret = open_record(z, out)) < 0)
			return ret;
		if (n > len)
			n = len;
		in = (ZSTD_inBuffer){ p, n, 0 };
		o = record_out(z, out);
		while (in.pos < in.size) {
			size_t r = ZSTD_compressStream2(z->cctx, &o, &in, ZSTD_e_continue);

			if (ZSTD_isError(r))
				return zstd_failed(r, "compress");
			if (in.pos < in.size && o.pos == o.size)
				return overflow();
		}
		out->len = z->rec_off + 8 + o.pos;
		z->seg_fill += n;
		p += n;
		len -= n;
		if (z->seg_fill == PD_ZSTD_SEGMENT && (ret = pd_zstd_flush(z, out)) < 0)
			return ret;
	}
	return 0;
}

size_t pd_zstd_ready(const struct pd_zstd *z, const struct pd_buf *out)
{
	return z->rec_off == SIZE_MAX ? out->len : z->rec_off;
}

void pd_zstd_consume(struct pd_zstd *z, struct pd_buf *out, size_t n)
{
	/* The buffer may never have been grown (NULL) when there is nothing to take. */
	if (!n)
		return;
	memmove(out->p, out->p + n, out->len - n);
	out->len -= n;
	if (z->rec_off != SIZE_MAX)
		z->rec_off -= n;
}
