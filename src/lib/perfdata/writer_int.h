/* SPDX-License-Identifier: MIT */
/*
 * Shared by the perf.data writer's files: the writer's state, a growable
 * byte buffer, the layouts of perf's on-file structures, and the feature
 * and zstd helpers.
 */
#ifndef PERFEV_PERFDATA_INT_H
#define PERFEV_PERFDATA_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/uio.h>

#include "util/internal.h"
#include "perfev/perfdata.h"

/* "PERFILE2" read as a little-endian u64: the reader infers byte order from it. */
#define PD_MAGIC 0x32454c4946524550ull
#define PD_FILE_HEADER_SIZE 104 /* magic, size, attr_size, 3 sections, 256-bit bitmap */
#define PD_PIPE_HEADER_SIZE 16
#define PD_FEAT_BITS 256
/* perf pads strings and build-id file names to this (NAME_ALIGN). */
#define PD_NAME_ALIGN 64
/*
 * perf reads a build-id file name into a PATH_MAX buffer without checking,
 * so the padded name must fit 4096 bytes; other strings get the same limit.
 */
#define PD_MAX_STRING 4095
/* struct perf_record_header_build_id up to the file name. */
#define PD_BUILD_ID_REC_SIZE 36
/* perf's name in HEADER_GROUP_DESC for a group without a name of its own. */
#define PD_ANON_GROUP "{anon_group}"
#define PD_MISC_BUILD_ID_SIZE (1u << 15)
/* A record's size is a u16. */
#define PD_MAX_RECORD 0xffffu
#define PD_MAX_ATTRS 65536u
#define PD_MAX_IDS (1u << 20)

/*
 * perf 6.1 reads attrs of at most its own sizeof (128) and, in pipe mode,
 * copies 128 bytes whatever attr.size says, so attrs are written with this
 * size unless a field past it is set.
 */
#define PD_ATTR_SIZE_MIN 128u

/* Bytes appended with put_*(); an allocation failure sticks and is seen once at the end. */
struct pd_buf {
	unsigned char *p;
	size_t len, cap;
	bool nomem;
};

void pd_buf_free(struct pd_buf *b);
/* Makes room for n more bytes; false (and nomem) when it cannot. */
bool pd_buf_reserve(struct pd_buf *b, size_t n);
void pd_put(struct pd_buf *b, const void *src, size_t n);
void pd_put_zero(struct pd_buf *b, size_t n);
static inline void pd_put_u16(struct pd_buf *b, uint16_t v)
{
	pd_put(b, &v, sizeof(v));
}
static inline void pd_put_u32(struct pd_buf *b, uint32_t v)
{
	pd_put(b, &v, sizeof(v));
}
static inline void pd_put_u64(struct pd_buf *b, uint64_t v)
{
	pd_put(b, &v, sizeof(v));
}
/* perf's string: u32 length (NUL included, padded to 64), then the padded bytes. */
void pd_put_string(struct pd_buf *b, const char *s);
/* A perf_event_header. */
void pd_put_header(struct pd_buf *b, uint32_t type, uint16_t misc, uint16_t size);
/* Overwrites 8 bytes at off (a record header reserved earlier). */
void pd_patch_header(struct pd_buf *b, size_t off, uint32_t type, uint16_t misc, uint16_t size);

static inline size_t pd_align(size_t n, size_t a)
{
	return (n + a - 1) / a * a;
}

struct pd_attr {
	struct perf_event_attr attr;
	uint64_t *ids;
	size_t nr_ids;
	char *name;
	uint64_t ids_off; /* file offset of the ids (file mode) */
};

struct pd_group {
	char *name;
	uint32_t leader, nr;
};

struct pd_build_id {
	int32_t pid;
	uint16_t misc;
	uint8_t size;
	uint8_t id[PERFEV_BUILD_ID_MAX];
	char *filename;
};

struct pd_zstd;

enum pd_state { PD_NEW, PD_STARTED, PD_FINISHED };

struct perfev_data_writer {
	int fd;
	bool pipe;
	bool regular; /* a regular file: stale bytes past the end are truncated */
	int level;
	int argc;
	char **argv;
	enum pd_state state;
	/*
	 * The first write failure (negative errno) and its explanation: every
	 * later call returns it again, since the stream has a hole from there.
	 */
	int err;
	char errmsg[512];

	struct pd_attr *attrs;
	size_t nr_attrs;
	uint32_t attr_size; /* perf_event_attr bytes on file, fixed by start() */
	struct pd_group *groups;
	size_t nr_groups;
	struct pd_build_id *bids;
	size_t nr_bids;
	uint64_t first_sample, last_sample; /* HEADER_SAMPLE_TIME, when has_sample_time */
	bool has_sample_time;
	size_t bids_sent; /* pipe mode: those already in the stream */

	uint64_t off;	    /* bytes written: the next file offset */
	uint64_t attrs_off; /* file mode: where the perf_file_attrs are */
	uint64_t data_off;
	uint64_t round_end; /* offset just past the last complete round */
	uint64_t header_ns; /* CLOCK_MONOTONIC of the last round that rewrote the header */
	uint64_t header_sync_ns; /* opts.header_sync_ms */
	uint64_t data_in;   /* bytes the caller gave write() */
	uint64_t comp_out;  /* bytes of PERF_RECORD_COMPRESSED records */

	struct pd_zstd *z;
	struct pd_buf zbuf; /* compressed records not yet written */

	struct pd_buf tracing; /* HEADER_TRACING_DATA's body, when an event is a tracepoint */
	uint64_t tracing_off;  /* file mode: where it lies, between the attrs and the data */
	/*
	 * File mode: the header names the tracing data as a feature, with the
	 * one-entry section table at round_end, where the next record will go;
	 * the header must drop it before that table is overwritten.
	 */
	bool round_table;
	struct pd_offcpu *oc; /* opts.off_cpu_thresh_ns with a sched_switch event */
	uint64_t off_cpu_thresh_ns;
};

/* ---- data (write.c) ---- */

/* 0 between start() and finish() with no failure yet, else the explained error of fn. */
int pd_during(const struct perfev_data_writer *w, const char *fn);
/*
 * Appends the n buffers of iov, together whole records, to the data
 * (compressed when compressing); iov is consumed.
 */
int pd_append(struct perfev_data_writer *w, struct iovec *iov, int n);

/* ---- events (write_events.c) ---- */

/* Checks the events as a whole, at start(): 0 or an explained -EINVAL. */
int pd_check_events(const struct perfev_data_writer *w);
/* The perf_event_attr size every attr is written with. */
uint32_t pd_file_attr_size(const struct perfev_data_writer *w);

/* ---- output (write_io.c) ---- */

/* Appends len bytes to the stream at w->off; on failure the writer keeps the error. */
int pd_emit(struct perfev_data_writer *w, const void *buf, size_t len);
/* pd_emit() of n buffers one after the other, in one system call (iov is consumed). */
int pd_emitv(struct perfev_data_writer *w, struct iovec *iov, int n);
/* File mode: writes at a given offset without moving w->off (header rewrites, features). */
int pd_write_at(struct perfev_data_writer *w, const void *buf, size_t len, uint64_t off);
/* Says again what the first failure was (perfev_last_error) and returns it. */
int pd_sticky_error(const struct perfev_data_writer *w);

/* ---- features (write_features.c) ---- */

/*
 * Appends feature feat's body.  1: the feature is not available on this
 * machine (nothing appended) and is left out, as perf does; 0: appended.
 */
int pd_feature_body(const struct perfev_data_writer *w, int feat, struct pd_buf *b);
/* The features a file (or a pipe) carries, in bit order; returns how many. */
size_t pd_features(const struct perfev_data_writer *w, int *feats, size_t max);
/* One struct perf_record_header_build_id with its padded file name. */
void pd_put_build_id(struct pd_buf *b, const struct pd_build_id *bid);

/* ---- tracing data (write_tracing.c) ---- */

bool pd_has_tracepoints(const struct perfev_data_writer *w);
/*
 * Appends the tracing data perf decodes the tracepoint events with: the
 * ring buffer's layout and the formats of the tracepoints the attrs use,
 * read from tracefs.  0 (nothing appended when no attr is a tracepoint), or
 * an explained error: tracefs missing, a tracepoint id it does not have, a
 * format file that cannot be read.
 */
int pd_tracing_data(const struct perfev_data_writer *w, struct pd_buf *b);

/* ---- the off-CPU threshold (write_offcpu.c) ---- */

struct pd_offcpu;
/* At start(): w->oc when opts.off_cpu_thresh_ns applies (a sched_switch event); 0 or -ENOMEM. */
int pd_offcpu_new(struct perfev_data_writer *w, uint64_t thresh);
void pd_offcpu_free(struct pd_offcpu *oc);
/* Holds records (whole ones) until the round is flushed. */
int pd_offcpu_hold(struct perfev_data_writer *w, const struct iovec *iov, int n);
/*
 * Ends the round held: its records less the switch-outs of threads back
 * within the threshold, compacted in place, as *kept and the length
 * returned (valid until the next hold).
 */
size_t pd_offcpu_take(struct pd_offcpu *oc, const void **kept);

/* ---- zstd (write_zstd.c) ---- */

/*
 * The compressor closes a PERF_RECORD_COMPRESSED record after at most this
 * many input bytes, so that any record decompresses into the buffer of
 * HEADER_COMPRESSED's mmap_len that perf gives it, and so that the record's
 * compressed bytes fit a u16 size even for incompressible data.
 */
#define PD_ZSTD_SEGMENT (63u * 1024)

/* NULL (with the error set) when the level is not supported. */
struct pd_zstd *pd_zstd_new(int level);
void pd_zstd_delete(struct pd_zstd *z);
/* Compresses len bytes, appending finished COMPRESSED records to out. */
int pd_zstd_feed(struct pd_zstd *z, const void *buf, size_t len, struct pd_buf *out);
/* Ends the open record, so that everything fed so far can be decompressed. */
int pd_zstd_flush(struct pd_zstd *z, struct pd_buf *out);
/* Bytes of out that are finished records, ready to be written (the open record is not). */
size_t pd_zstd_ready(const struct pd_zstd *z, const struct pd_buf *out);
/* Drops the first n (written) bytes of out. */
void pd_zstd_consume(struct pd_zstd *z, struct pd_buf *out, size_t n);

#endif
