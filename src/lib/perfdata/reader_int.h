/* SPDX-License-Identifier: MIT */
/*
 * Shared by the perf.data reader's files: the reader's state, the input
 * (bytes in memory, a mapped file, or a pipe read through a buffer), the
 * parsed feature sections, and the byte-swapping helpers.
 *
 * Offsets are always those of the input: the file offset in file mode, the
 * stream offset (from the pipe header's first byte) in pipe mode.
 */
#ifndef PERFEV_PERFDATA_READ_INT_H
#define PERFEV_PERFDATA_READ_INT_H

#include <byteswap.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "util/internal.h"
#include "perfdata/writer_int.h"
#include "perfev/perfdata_reader.h"


struct pdr_evsel {
	struct perf_event_attr attr; /* native order, zero-extended */
	struct perfev_sample_fmt fmt;
	uint64_t *ids;
	size_t nr_ids, cap_ids;
	char *name;	   /* from HEADER_EVENT_DESC or EVENT_UPDATE; NULL: derived */
	char derived[64];  /* the name made from the attr */
};

/* A feature section's bytes, as stored (the file's byte order). */
struct pdr_feat {
	bool has;
	const unsigned char *p;
	size_t size;
	uint64_t off;	    /* where its bytes are, for errors */
	unsigned char *own; /* a copy we free (from a pipe's HEADER_FEATURE record) */
};

/* ids -> evsel index: open addressing, a power-of-two table. */
struct pdr_idmap {
	uint64_t *keys;
	int32_t *vals; /* -1: empty slot */
	size_t cap, n;
};

struct perfev_data_reader {
	/* ---- input ---- */
	const unsigned char *mem; /* the whole input (memory or a mapped file); NULL: stream */
	size_t mem_len;
	void *map; /* our mapping of a regular file, unmapped by delete */
	size_t map_len;
	size_t released; /* pages of map below this were given back (pdr_release_before) */
	int fd; /* stream mode: read(2) from here */
	int own_fd; /* opened by __open(); closed by delete; -1: none */
	unsigned char *sbuf; /* stream mode: bytes [sbase, sbase + slen) of the stream */
	size_t scap, slen;
	uint64_t sbase;
	bool eof;

	bool pipe, swapped;
	void (*warn)(void *ctx, const char *msg);
	void *warn_ctx;

	/* ---- events ---- */
	struct pdr_evsel *evsels;
	size_t nr_evsels, cap_evsels;
	struct pdr_idmap ids;
	bool same_fmt; /* every evsel decodes with the same fmt */
	size_t nr_ids_total;

	/* ---- features ---- */
	struct pdr_feat feat[PERFEV_FEAT_LAST];
	char *strings[PERFEV_FEAT_LAST]; /* the string features, parsed */
	int argc;
	char **argv;
	bool has_nrcpus;
	uint32_t nr_cpus_online, nr_cpus_avail;
	uint64_t total_mem;
	bool has_sample_time;
	uint64_t time_first, time_last;
	struct perfev_data_build_id *bids;
	size_t nr_bids, cap_bids;
	struct {
		char *name;
		uint32_t leader, nr;
	} *groups;
	size_t nr_groups;
	uint32_t comp_type, comp_level, comp_mmap_len;
	unsigned char *tracing_own; /* a pipe's tracing data copied from the stream */

	/* ---- data ---- */
	uint64_t data_off, data_end; /* data_end UINT64_MAX: to the end of the input */
	uint64_t data_size;	     /* as the header says (0 in a pipe) */
	bool to_eof;		     /* the header gave no size: a truncated tail is the end */
	uint64_t pos;		     /* the next outer record */
	int err;		     /* sticky error of next() */
	char errmsg[512];
	unsigned char *scratch; /* a record copied for swapping (PD_MAX_RECORD + 1 bytes) */
	uint64_t counts[128];
	uint64_t warned_types[4]; /* unknown types warned about (type < 256) */

	/* ---- decompression of PERF_RECORD_COMPRESSED ---- */
	void *zd; /* ZSTD_DStream */
	const unsigned char *zin;
	size_t zin_len, zin_pos;
	bool zin_more;	 /* the decompressor may hold output for zin */
	uint64_t zin_off; /* the COMPRESSED record being expanded */
	unsigned char *dbuf;
	size_t dcap, dhead, dlen;
	uint64_t dhead_src; /* the COMPRESSED record the record at dhead came from */
};

/* ---- byte order (read_swap.c) ---- */

static inline uint16_t pdr_u16(const struct perfev_data_reader *r, const void *p)
{
	uint16_t v;

	memcpy(&v, p, 2);
	return r->swapped ? bswap_16(v) : v;
}
static inline uint32_t pdr_u32(const struct perfev_data_reader *r, const void *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return r->swapped ? bswap_32(v) : v;
}
static inline uint64_t pdr_u64(const struct perfev_data_reader *r, const void *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return r->swapped ? bswap_64(v) : v;
}

/* A perf_event_header in native order. */
static inline void pdr_header(const struct perfev_data_reader *r, const void *p,
			      struct perf_event_header *h)
{
	const unsigned char *b = p;

	h->type = pdr_u32(r, b);
	h->misc = pdr_u16(r, b + 4);
	h->size = pdr_u16(r, b + 6);
}

/* Swaps a perf_event_attr of n bytes in place (n <= sizeof), perf's way. */
void pdr_swap_attr(void *attr, size_t n);
/* Swaps the header of the record at p in place. */
void pdr_swap_header(void *p);
/*
 * Swaps the body of a kernel record (type < 64, header already native) in
 * place by its layout under fmt, as far as the layout fits in size bytes:
 * the decoder then reports what does not fit.
 */
void pdr_swap_kernel(void *p, size_t size, const struct perfev_sample_fmt *fmt);
/* The same for perf's own records (type >= 64). */
void pdr_swap_user(void *p, size_t size);

/* ---- the reader's events (read_evsels.c) ---- */

/* Passes a warning to the caller's callback or to the log. */
void pdr_warn(struct perfev_data_reader *r, const char *fmt, ...) PRINTF_LIKE(2, 3);
/* Adds an event; its attr is native, attr_len bytes of it given. */
int pdr_add_evsel(struct perfev_data_reader *r, const void *attr, size_t attr_len,
		  const char *where);
/*
 * Whether [p, p + n) lies in the whole input (a mapped file or memory),
 * which stays as it is while the reader lives: a record read from there
 * and what its parse points to can be kept without a copy.
 */
static inline bool pdr_in_input(const struct perfev_data_reader *r, const void *p, size_t n)
{
	const unsigned char *c = p;

	return r->mem && c >= r->mem && n <= r->mem_len && (size_t)(c - r->mem) <= r->mem_len - n;
}

/*
 * Gives back the mapped file's pages below off (a file offset): the
 * caller has read everything there.  Peak memory then stays a window of
 * the file, not all of it.  Always safe: a page used again is read from
 * the file again.
 */
void pdr_release_before(struct perfev_data_reader *r, uint64_t off);
/* Gives back every page of the mapping for now (as safe: a page used again is read again). */
void pdr_release_all(struct perfev_data_reader *r);

/*
 * The type of the record next() reads next, when it is a whole record of
 * the mapped input itself (not decompressed, not byte-swapped, not cut
 * short); else -1 (the end, a stream, bytes pending from a COMPRESSED
 * record, a swapped file, a record past the end).  Reads the input only:
 * a session's reading thread asks before each record whether reading it
 * may change what the delivering thread reads (event names, features).
 */
static inline int pdr_peek_type(const struct perfev_data_reader *r)
{
	uint32_t t;
	uint16_t size;
	uint64_t end = r->data_end < r->mem_len ? r->data_end : r->mem_len;

	if (!r->mem || r->swapped || r->err || r->dhead != r->dlen || r->zin || r->pos >= end ||
	    end - r->pos < 8)
		return -1;
	memcpy(&t, r->mem + r->pos, 4);
	memcpy(&size, r->mem + r->pos + 6, 2);
	if (size < 8 || size > end - r->pos || t > INT32_MAX)
		return -1;
	return (int)t;
}

/* Maps id to evsel idx (first mapping wins) and lists it under the evsel. */
int pdr_add_id(struct perfev_data_reader *r, size_t idx, uint64_t id);
int pdr_evsel_of_id(const struct perfev_data_reader *r, uint64_t id);
/* Sets evsel idx's name (copied); -ENOMEM. */
int pdr_set_name(struct perfev_data_reader *r, size_t idx, const char *name);

/* ---- features (read_features.c) ---- */

/* File mode: reads the section table at the data's end and the sections. */
int pdr_read_features(struct perfev_data_reader *r, const uint64_t *bits);
/*
 * Takes feature feat's bytes (file byte order) from a section or a
 * HEADER_FEATURE record at off and parses what the accessors need.
 */
int pdr_feature(struct perfev_data_reader *r, int feat, const unsigned char *p, size_t size,
		uint64_t off, bool copy);
/* One struct perf_record_header_build_id (a section entry or a record) at off. */
int pdr_build_id(struct perfev_data_reader *r, const unsigned char *p, size_t size, uint64_t off,
		 bool native);
void pdr_free_features(struct perfev_data_reader *r);

/* ---- data (read_data.c) ---- */

/*
 * Stream mode: makes bytes [off, off + n) of the stream available; *p
 * points at them.  1: there; 0: the stream ends first (*avail says how
 * many are); negative: a read error.
 */
int pdr_stream_get(struct perfev_data_reader *r, uint64_t off, size_t n, const unsigned char **p,
		   size_t *avail);
void pdr_free_data(struct perfev_data_reader *r);

#endif
