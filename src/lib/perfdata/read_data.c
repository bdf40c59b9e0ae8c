/* SPDX-License-Identifier: MIT */
/*
 * The data of perf.data: records in file order, PERF_RECORD_COMPRESSED
 * expanded, perf's own records taken in (attrs, features, names, build
 * ids, id index) and passed on, every record turned to native byte order
 * and decoded with the event it belongs to.
 *
 * Compressed data are one zstd stream cut into records wherever the
 * compressor's output was flushed: "perf record -z" compresses each ring
 * span as it comes (a span may end inside a record where the ring wraps)
 * and perfev's writer cuts its segments at fixed sizes, so a record may
 * begin in one COMPRESSED record and end in the next, with uncompressed
 * records (FINISHED_ROUND) between them.  The decompressed bytes are one
 * stream of their own: a record is handed out once it is whole, and what
 * is left of one waits for the next COMPRESSED record.
 *
 * No allocation happens per record: a swapped record is turned around in
 * one scratch buffer, decompressed records live in one buffer that is
 * compacted as it is consumed, and a pipe is read into one buffer.
 */
#include <stdlib.h>
#include <unistd.h>
#include <zstd.h>

#include "perfdata/reader_int.h"
#include "sample/record_int.h"

/* Decompressed bytes are produced into this much room; two records of the largest size fit. */
#define PDR_DBUF (256u * 1024)

static const char *tname(uint32_t type)
{
	const char *n = record_type_name(type);

	return n ? n : "unknown";
}

static int stick(struct perfev_data_reader *r, int err)
{
	r->err = err;
	snprintf(r->errmsg, sizeof(r->errmsg), "%s", perfev_last_error());
	return err;
}

/* ---- the input ---- */

int pdr_stream_get(struct perfev_data_reader *r, uint64_t off, size_t n, const unsigned char **p,
		   size_t *avail)
{
	if (off + n <= r->sbase + r->slen) {
		*p = r->sbuf + (off - r->sbase);
		return 1;
	}
	if (off >= r->sbase + r->slen) {
		/* Skipping ahead (bytes nobody needs, like aux data): read and drop them. */
		uint64_t drop = off - (r->sbase + r->slen);

		r->sbase += r->slen;
		r->slen = 0;
		while (drop && !r->eof) {
			ssize_t got = read(r->fd, r->sbuf, drop < r->scap ? (size_t)drop : r->scap);

			if (got < 0 && errno == EINTR)
				continue;
			if (got < 0)
				return set_error(errno, "perf.data: cannot read the input at offset "
						 "0x%llx: %s", (unsigned long long)r->sbase,
						 strerror(errno));
			if (!got)
				r->eof = true;
			r->sbase += (uint64_t)got;
			drop -= (uint64_t)got;
		}
		if (drop) {
			*avail = 0;
			return 0;
		}
	} else {
		size_t keep = (size_t)(off - r->sbase);

		memmove(r->sbuf, r->sbuf + keep, r->slen - keep);
		r->slen -= keep;
		r->sbase = off;
	}
	while (r->slen < n && !r->eof) {
		ssize_t got = read(r->fd, r->sbuf + r->slen, r->scap - r->slen);

		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0)
			return set_error(errno, "perf.data: cannot read the input at offset 0x%llx: %s",
					 (unsigned long long)(r->sbase + r->slen), strerror(errno));
		if (!got)
			r->eof = true;
		r->slen += (size_t)got;
	}
	if (r->slen < n) {
		*avail = r->slen;
		return 0;
	}
	*p = r->sbuf;
	return 1;
}

/* Bytes [off, off + n) of the input, n <= what the stream buffer holds. */
static int get(struct perfev_data_reader *r, uint64_t off, size_t n, const unsigned char **p,
	       size_t *avail)
{
	if (!r->mem)
		return pdr_stream_get(r, off, n, p, avail);
	if (off > r->mem_len || n > r->mem_len - off) {
		*avail = off > r->mem_len ? 0 : r->mem_len - (size_t)off;
		return 0;
	}
	*p = r->mem + off;
	return 1;
}

/*
 * The input ends inside the record at pos.  Where the header gave no size
 * (a pipe, a killed recorder) that is where the recorder stopped; else the
 * data section is cut short.
 */
static int cut_short(struct perfev_data_reader *r, uint64_t pos, uint64_t avail)
{
	uint64_t end = r->data_end;

	r->pos = end == UINT64_MAX ? pos + avail : end;
	if (!r->to_eof)
		return set_error(PERFEV_ERR_FORMAT,
				 "perf.data: the data end %llu bytes into the record at offset 0x%llx "
				 "(the data section ends at 0x%llx); the file is truncated or corrupt",
				 (unsigned long long)avail, (unsigned long long)pos,
				 (unsigned long long)end);
	/* A file with data size 0 was warned about at open: it stops here quietly. */
	if (r->pipe)
		pdr_warn(r, "perf.data: the stream ends %llu bytes into a record at offset 0x%llx "
			    "(the recorder did not finish); the rest is ignored",
			 (unsigned long long)avail, (unsigned long long)pos);
	return 0;
}

/*
 * The tracing data following a pipe's HEADER_TRACING_DATA record: kept as
 * the TRACING_DATA feature, copied when they come from a stream.
 */
static int take_tracing(struct perfev_data_reader *r, uint64_t at, uint64_t size)
{
	const unsigned char *p;
	size_t avail, got = 0, cap = 0;
	unsigned char *buf = NULL;
	int ret;

	if (r->feat[PERFEV_FEAT_TRACING_DATA].has) /* a file's section says it already */
		return 0;
	if (r->mem)
		return pdr_feature(r, PERFEV_FEAT_TRACING_DATA, r->mem + at, (size_t)size, at, false);
	/* Grown as the bytes arrive, so that a lying size allocates nothing. */
	while (got < size) {
		size_t n = size - got < 65536 ? (size_t)(size - got) : 65536;

		if ((ret = pdr_stream_get(r, at + got, n, &p, &avail)) <= 0) {
			free(buf);
			return ret < 0 ? ret : cut_short(r, at, got + avail);
		}
		if (got + n > cap) {
			size_t ncap = cap ? cap * 2 : 65536;
			void *nb;

			while (ncap < got + n)
				ncap *= 2;
			nb = realloc(buf, ncap);
			if (!nb) {
				free(buf);
				return set_error(ENOMEM, "out of memory for %llu bytes of tracing data",
						 (unsigned long long)size);
			}
			buf = nb;
			cap = ncap;
		}
		memcpy(buf + got, p, n);
		got += n;
	}
	free(r->tracing_own);
	r->tracing_own = buf;
	return pdr_feature(r, PERFEV_FEAT_TRACING_DATA, buf ? buf : (const unsigned char *)"",
			   (size_t)size, at, false);
}

/*
 * The next record of the input (not of a COMPRESSED record): 1 with *rec
 * and its native header in *h, 0 at the end, or an error.  Records with
 * bytes after them (HEADER_TRACING_DATA, AUXTRACE) are stepped past whole.
 */
static int outer_next(struct perfev_data_reader *r, const unsigned char **rec,
		      struct perf_event_header *h, uint64_t *off)
{
	uint64_t pos = r->pos, left, extra = 0;
	const unsigned char *p;
	size_t avail;
	int ret;

	if (pos >= r->data_end)
		return 0;
	left = r->data_end - pos;
	ret = get(r, pos, 8, &p, &avail);
	if (ret < 0)
		return ret;
	if (!ret || left < 8) {
		if (!ret && !avail && !r->mem) { /* a pipe ending between records */
			r->pos = pos;
			r->data_end = pos;
			return 0;
		}
		return cut_short(r, pos, ret ? left : avail);
	}
	pdr_header(r, p, h);
	if (h->size < 8)
		return set_error(PERFEV_ERR_FORMAT,
				 "perf.data: record at offset 0x%llx (type %u, %s) has size %u, below "
				 "its 8-byte header; the file is corrupt",
				 (unsigned long long)pos, h->type, tname(h->type), h->size);
	if (h->size > left) {
		if (r->to_eof)
			return cut_short(r, pos, left);
		return set_error(PERFEV_ERR_FORMAT,
				 "perf.data: record at offset 0x%llx (type %u, %s) has size %u, past "
				 "the end of the data at 0x%llx; the file is truncated or corrupt",
				 (unsigned long long)pos, h->type, tname(h->type), h->size,
				 (unsigned long long)r->data_end);
	}
	ret = get(r, pos, h->size, &p, &avail);
	if (ret <= 0)
		return ret < 0 ? ret : cut_short(r, pos, avail);
	if (h->type == PERFEV_RECORD_HEADER_TRACING_DATA && h->size >= 16)
		extra = pdr_u32(r, p + 8);
	else if (h->type == PERFEV_RECORD_AUXTRACE && h->size >= 16)
		extra = pdr_u64(r, p + 8);
	if (extra > left - h->size)
		return set_error(PERFEV_ERR_FORMAT,
				 "perf.data: record at offset 0x%llx (type %u, %s) is followed by "
				 "%llu bytes, past the end of the data at 0x%llx",
				 (unsigned long long)pos, h->type, tname(h->type),
				 (unsigned long long)extra, (unsigned long long)r->data_end);
	*off = pos;
	*rec = p;
	r->pos = pos + h->size + extra;
	if (extra && !r->mem) {
		/* The bytes after it move the stream buffer: keep the record aside. */
		memcpy(r->scratch, p, h->size);
		*rec = r->scratch;
	}
	if (h->type == PERFEV_RECORD_HEADER_TRACING_DATA &&
	    (ret = take_tracing(r, pos + h->size, extra)) < 0)
		return ret;
	return 1;
}

/* ---- compressed records ---- */

static int start_compressed(struct perfev_data_reader *r, const unsigned char *rec,
			    const struct perf_event_header *h, uint64_t off)
{
	if (!r->zd) {
		r->zd = ZSTD_createDStream();
		r->dbuf = malloc(PDR_DBUF);
		r->dcap = PDR_DBUF;
		if (!r->zd || !r->dbuf)
			return set_error(ENOMEM, "out of memory for decompressing perf.data");
		ZSTD_initDStream(r->zd);
	}
	r->zin = rec + 8;
	r->zin_len = h->size - 8u;
	r->zin_pos = 0;
	r->zin_more = false;
	r->zin_off = off;
	if (r->dhead == r->dlen)
		r->dhead_src = off;
	return 0;
}

/* Produces more decompressed bytes from the current COMPRESSED record. */
static int inflate(struct perfev_data_reader *r)
{
	ZSTD_inBuffer in = { r->zin, r->zin_len, r->zin_pos };
	ZSTD_outBuffer out;
	size_t ret, before;

	if (r->dhead) {
		memmove(r->dbuf, r->dbuf + r->dhead, r->dlen - r->dhead);
		r->dlen -= r->dhead;
		r->dhead = 0;
	}
	out = (ZSTD_outBuffer){ r->dbuf, r->dcap, r->dlen };
	before = r->dlen;
	ret = ZSTD_decompressStream(r->zd, &out, &in);
	if (ZSTD_isError(ret))
		return set_error(PERFEV_ERR_FORMAT,
				 "perf.data: record at offset 0x%llx (type %u, COMPRESSED): zstd "
				 "cannot decompress it (%s); the file is corrupt",
				 (unsigned long long)r->zin_off, PERFEV_RECORD_COMPRESSED,
				 ZSTD_getErrorName(ret));
	r->dlen = out.pos;
	/* A full buffer may leave output inside zstd even with the input consumed. */
	r->zin_more = out.pos == out.size;
	if ((in.pos == r->zin_pos && out.pos == before) ||
	    (in.pos == in.size && !r->zin_more))
		r->zin = NULL;
	r->zin_pos = in.pos;
	return 0;
}

/*
 * The next raw record in file byte order: from the decompressed bytes when
 * a whole one is there, else from the input.  1, 0 at the end, or an error.
 */
static int next_raw(struct perfev_data_reader *r, const unsigned char **rec,
		    struct perf_event_header *h, uint64_t *off, bool *comp)
{
	int ret;

	for (;;) {
		size_t have = r->dlen - r->dhead;

		if (have >= 8) {
			const unsigned char *p = r->dbuf + r->dhead;

			pdr_header(r, p, h);
			if (h->size < 8)
				return set_error(PERFEV_ERR_FORMAT,
						 "perf.data: a record decompressed from the record at "
						 "offset 0x%llx (type %u, %s) has size %u, below its "
						 "8-byte header; the file is corrupt",
						 (unsigned long long)r->dhead_src, h->type, tname(h->type),
						 h->size);
			if (h->size <= have) {
				if (h->type == PERFEV_RECORD_COMPRESSED ||
				    h->type == PERFEV_RECORD_HEADER_TRACING_DATA ||
				    h->type == PERFEV_RECORD_AUXTRACE)
					return set_error(PERFEV_ERR_FORMAT,
							 "perf.data: a %s record was decompressed from "
							 "the record at offset 0x%llx; it cannot be "
							 "compressed",
							 tname(h->type), (unsigned long long)r->dhead_src);
				*rec = p;
				*off = r->dhead_src;
				*comp = true;
				r->dhead += h->size;
				/* What follows came from the latest COMPRESSED record. */
				r->dhead_src = r->zin_off;
				return 1;
			}
		}
		if (r->zin) {
			if ((ret = inflate(r)) < 0)
				return ret;
			continue;
		}
		ret = outer_next(r, rec, h, off);
		if (ret <= 0) {
			if (ret == 0 && have && !r->to_eof)
				return set_error(PERFEV_ERR_FORMAT,
						 "perf.data: the data end with %zu bytes of a record "
						 "decompressed from the record at offset 0x%llx; the "
						 "file is truncated or corrupt",
						 have, (unsigned long long)r->dhead_src);
			return ret;
		}
		if (h->type != PERFEV_RECORD_COMPRESSED) {
			*comp = false;
			return 1;
		}
		r->counts[PERFEV_RECORD_COMPRESSED]++;
		if ((ret = start_compressed(r, *rec, h, *off)) < 0)
			return ret;
	}
}

/* ---- perf's own records ---- */

/* Each type's smallest size (tools/lib/perf/include/perf/event.h). */
static const uint16_t user_min[] = {
	[PERFEV_RECORD_HEADER_ATTR - 64] = 8 + PERF_ATTR_SIZE_VER0,
	[PERFEV_RECORD_HEADER_EVENT_TYPE - 64] = 8 + 8 + 64,
	[PERFEV_RECORD_HEADER_TRACING_DATA - 64] = 16,
	[PERFEV_RECORD_HEADER_BUILD_ID - 64] = PD_BUILD_ID_REC_SIZE + 1,
	[PERFEV_RECORD_FINISHED_ROUND - 64] = 8,
	[PERFEV_RECORD_ID_INDEX - 64] = 16,
	[PERFEV_RECORD_AUXTRACE_INFO - 64] = 16,
	[PERFEV_RECORD_AUXTRACE - 64] = 48,
	[PERFEV_RECORD_AUXTRACE_ERROR - 64] = 40,
	[PERFEV_RECORD_THREAD_MAP - 64] = 16,
	[PERFEV_RECORD_CPU_MAP - 64] = 10,
	[PERFEV_RECORD_STAT_CONFIG - 64] = 16,
	[PERFEV_RECORD_STAT - 64] = 48,
	[PERFEV_RECORD_STAT_ROUND - 64] = 24,
	[PERFEV_RECORD_EVENT_UPDATE - 64] = 24,
	[PERFEV_RECORD_TIME_CONV - 64] = 32,
	[PERFEV_RECORD_HEADER_FEATURE - 64] = 16,
	[PERFEV_RECORD_COMPRESSED - 64] = 8,
	[PERFEV_RECORD_FINISHED_INIT - 64] = 8,
};

/* perf's PERF_EVENT_UPDATE__NAME */
#define PDR_EVENT_UPDATE_NAME 2

static void warn_type(struct perfev_data_reader *r, uint32_t type, uint64_t off)
{
	uint32_t t = type & 255;

	if (r->warned_types[t / 64] & (1ull << (t % 64)))
		return;
	r->warned_types[t / 64] |= 1ull << (t % 64);
	pdr_warn(r, "perf.data: record at offset 0x%llx has type %u, which perfev does not know; "
		    "passed on undecoded", (unsigned long long)off, type);
}

static int bad(const char *what, uint64_t off, const struct perf_event_header *h, const char *why)
{
	return set_error(PERFEV_ERR_FORMAT, "perf.data: record at offset 0x%llx%s (type %u, %s): %s",
			 (unsigned long long)off, what, h->type, tname(h->type), why);
}

static int take_attr(struct perfev_data_reader *r, const unsigned char *rec,
		     const struct perf_event_header *h, uint64_t off, int *evsel)
{
	uint32_t sz;
	char where[64];
	size_t idx = r->nr_evsels, nr;
	int ret;

	memcpy(&sz, rec + 12, 4);
	if (!sz)
		sz = PERF_ATTR_SIZE_VER0;
	if (sz < PERF_ATTR_SIZE_VER0 || sz > h->size - 8u)
		return set_error(PERFEV_ERR_FORMAT,
				 "perf.data: record at offset 0x%llx (type %u, HEADER_ATTR): its attr "
				 "says it is %u bytes; the record has room for %u",
				 (unsigned long long)off, h->type, sz, h->size - 8u);
	for (size_t k = sizeof(struct perf_event_attr); k < sz; k++)
		if (rec[8 + k])
			return set_error(PERFEV_ERR_FORMAT,
					 "perf.data: record at offset 0x%llx (HEADER_ATTR) sets byte "
					 "%zu of perf_event_attr, a field this perfev does not know",
					 (unsigned long long)off, k);
	snprintf(where, sizeof(where), "HEADER_ATTR at offset 0x%llx", (unsigned long long)off);
	if ((ret = pdr_add_evsel(r, rec + 8, sz, where)) < 0)
		return ret;
	nr = (h->size - 8u - sz) / 8;
	for (size_t i = 0; i < nr; i++) {
		uint64_t id;

		memcpy(&id, rec + 8 + sz + i * 8, 8);
		if ((ret = pdr_add_id(r, idx, id)) < 0)
			return ret;
	}
	*evsel = (int)idx;
	return 0;
}

/*
 * ID_INDEX tells, for ids the attrs already gave, the ring (idx), cpu and
 * thread each was opened on; perf fails on an id it does not know.  The
 * reader has no use for them beyond checking the layout.
 */
static int take_id_index(const unsigned char *rec, const struct perf_event_header *h,
			 uint64_t off)
{
	uint64_t nr = perfev_u64_at(rec, 1);

	if (nr > (h->size - 16u) / 32)
		return set_error(PERFEV_ERR_FORMAT,
				 "perf.data: record at offset 0x%llx (ID_INDEX): %llu entries cannot fit "
				 "its %u bytes", (unsigned long long)off, (unsigned long long)nr,
				 h->size);
	return 0;
}

static int take_feature(struct perfev_data_reader *r, const unsigned char *rec,
			const struct perf_event_header *h, uint64_t off)
{
	uint64_t feat = perfev_u64_at(rec, 1);

	if (feat == PERFEV_FEAT_LAST) /* the end of a pipe's features */
		return 0;
	if (feat == 0 || feat > PERFEV_FEAT_LAST) {
		pdr_warn(r, "perf.data: record at offset 0x%llx (HEADER_FEATURE) carries feature "
			    "%llu, unknown to perfev; skipped",
			 (unsigned long long)off, (unsigned long long)feat);
		return 0;
	}
	/* A file's own section comes first; the copy in the data is for readers without it. */
	if (!r->pipe && r->feat[feat].has)
		return 0;
	return pdr_feature(r, (int)feat, rec + 16, h->size - 16u, off + 16, true);
}

static int take_user(struct perfev_data_reader *r, const unsigned char *rec,
		     const struct perf_event_header *h, uint64_t off, const char *where,
		     struct perfev_data_event *ev)
{
	uint64_t id;

	if (h->type - 64 < ARRAY_SIZE(user_min) && h->size < user_min[h->type - 64]) {
		char why[96];

		snprintf(why, sizeof(why), "size %u is below the %u bytes of its layout", h->size,
			 user_min[h->type - 64]);
		return bad(where, off, h, why);
	}
	switch (h->type) {
	case PERFEV_RECORD_HEADER_ATTR:
		return take_attr(r, rec, h, off, &ev->evsel);
	case PERFEV_RECORD_HEADER_FEATURE:
		return take_feature(r, rec, h, off);
	case PERFEV_RECORD_HEADER_BUILD_ID:
		return pdr_build_id(r, rec, h->size, off, true);
	case PERFEV_RECORD_ID_INDEX:
		return take_id_index(rec, h, off);
	case PERFEV_RECORD_EVENT_UPDATE:
		id = perfev_u64_at(rec, 2);
		ev->evsel = pdr_evsel_of_id(r, id);
		if (perfev_u64_at(rec, 1) != PDR_EVENT_UPDATE_NAME)
			return 0;
		if (!memchr(rec + 24, '\0', h->size - 24u))
			return bad(where, off, h, "the event name has no NUL within the record");
		return ev->evsel >= 0 ? pdr_set_name(r, (size_t)ev->evsel, (const char *)rec + 24) : 0;
	default:
		if (h->type > PERFEV_RECORD_FINISHED_INIT)
			warn_type(r, h->type, off);
		return 0;
	}
}

/* ---- records ---- */

static const struct perfev_sample_fmt no_fmt;

/* The event a kernel record belongs to: the only one, or the one its id names. */
static int pick_evsel(struct perfev_data_reader *r, const unsigned char *rec, size_t size,
		      const struct perfev_sample_fmt **fmt)
{
	uint64_t id;
	int idx = -1;

	if (r->nr_evsels == 1)
		idx = 0;
	else if (r->nr_evsels > 1 && !perfev_record__peek_id(&r->evsels[0].fmt, rec, size, &id))
		idx = pdr_evsel_of_id(r, r->swapped ? bswap_64(id) : id);
	*fmt = idx >= 0 ? &r->evsels[idx].fmt : r->nr_evsels ? &r->evsels[0].fmt : &no_fmt;
	return idx;
}

static int deliver(struct perfev_data_reader *r, const unsigned char *p,
		   const struct perf_event_header *h, uint64_t off, bool comp,
		   struct perfev_data_event *ev)
{
	const char *where = comp ? " (in a compressed record)" : "";
	const struct perfev_sample_fmt *fmt;
	unsigned char *rec = (unsigned char *)p;
	int ret;

	if (r->swapped) {
		/* ours, not the input's: a mapping is read-only */
		if (p != r->scratch)
			memcpy(r->scratch, p, h->size);
		rec = r->scratch;
		pdr_swap_header(rec);
	}
	if (h->type < 128)
		r->counts[h->type]++;
	ev->evsel = -1;
	ev->offset = off;
	ev->compressed = comp;
	if (h->type >= 64) {
		if (r->swapped)
			pdr_swap_user(rec, h->size);
		memset(&ev->rec, 0, sizeof(ev->rec));
		ev->rec.type = h->type;
		ev->rec.misc = h->misc;
		ev->rec.size = h->size;
		ev->rec.data = rec;
		ev->rec.unknown.body = rec + 8;
		ev->rec.unknown.size = h->size - 8u;
		ret = take_user(r, rec, h, off, where, ev);
		return ret < 0 ? ret : 1;
	}
	ev->evsel = pick_evsel(r, rec, h->size, &fmt);
	if (ev->evsel < 0 && h->type == PERF_RECORD_SAMPLE && !r->same_fmt)
		return bad(where, off, h, "its id names no event of the file, and the events' "
					  "samples differ in layout: it cannot be decoded");
	if (!r->nr_evsels && h->type == PERF_RECORD_SAMPLE)
		return bad(where, off, h, "a sample before any event was declared (no attr)");
	if (h->type > PERF_RECORD_AUX_OUTPUT_HW_ID)
		warn_type(r, h->type, off);
	if (r->swapped)
		pdr_swap_kernel(rec, h->size, fmt);
	ret = perfev_record__parse(fmt, rec, h->size, &ev->rec);
	if (ret < 0) {
		char why[512];

		snprintf(why, sizeof(why), "%s", perfev_last_error());
		return bad(where, off, h, why);
	}
	return 1;
}

int perfev_data_reader__next(struct perfev_data_reader *r, struct perfev_data_event *ev)
{
	struct perf_event_header h;
	const unsigned char *rec = NULL;
	uint64_t off = 0;
	bool comp = false;
	int ret;

	if (!r || !ev)
		return set_error(EINVAL, "perfev_data_reader__next: reader or event is NULL");
	if (r->err)
		return set_error(-r->err, "%s", r->errmsg);
	ret = next_raw(r, &rec, &h, &off, &comp);
	if (ret > 0)
		ret = deliver(r, rec, &h, off, comp, ev);
	return ret < 0 ? stick(r, ret) : ret;
}

void perfev_data_reader__progress(const struct perfev_data_reader *r, uint64_t *done,
				  uint64_t *total)
{
	uint64_t d = 0, t = 0;

	if (r) {
		uint64_t pos = r->pos < r->data_end ? r->pos : r->data_end;

		d = pos > r->data_off ? pos - r->data_off : 0;
		t = r->pipe || r->to_eof ? 0 : r->data_size;
	}
	if (done)
		*done = d;
	if (total)
		*total = t;
}

uint64_t perfev_data_reader__nr_records(const struct perfev_data_reader *r, uint32_t type)
{
	return r && type < 128 ? r->counts[type] : 0;
}

void pdr_free_data(struct perfev_data_reader *r)
{
	ZSTD_freeDStream(r->zd);
	free(r->dbuf);
}
