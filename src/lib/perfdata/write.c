/* SPDX-License-Identifier: MIT */
/*
 * Writing perf.data as Linux perf lays it out (tools/perf/util/header.c):
 *
 *	file:	perf_file_header | ids of each attr | perf_file_attr[] |
 *		[tracing data] | data | perf_file_section per feature bit |
 *		feature bodies
 *	pipe:	perf_pipe_file_header | HEADER_ATTR records | HEADER_FEATURE
 *		records, then the end mark | [HEADER_TRACING_DATA record, the
 *		tracing data, EVENT_UPDATE names] | HEADER_BUILD_ID records |
 *		data
 *
 * The data are the caller's records written as they come, one write per
 * call (write_ring.c: one writev per ring, whose bytes may wrap); with
 * compression they go through write_zstd.c first.
 *
 * perf reads no file with tracepoints unless it has the HEADER_TRACING_DATA
 * feature (it checks while reading the header, before any record, so a
 * HEADER_TRACING_DATA record in the data would not do).  So that a file
 * whose writer was killed stays readable, the tracing data go before the
 * data rather than among the feature bodies, and each round leaves the
 * header announcing that one feature, with its section table just past the
 * round.  The next record overwrites that table, so the header drops the
 * feature first.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "perfdata/writer_int.h"
#include "util/opts.h"

/* Compressed records are written once this many bytes are ready (or at a round). */
#define PD_ZBUF_SPAN (1u << 20)

/* A failure that leaves the stream in an unknown state: every later call reports it. */
static int keep_error(struct perfev_data_writer *w, int ret)
{
	if (!w->err) {
		w->err = ret;
		snprintf(w->errmsg, sizeof(w->errmsg), "%s", perfev_last_error());
	}
	return ret;
}

static int copy_argv(struct perfev_data_writer *w, int argc, const char *const *argv)
{
	if (argc < 0 || argc > 65536 || (argc > 0 && !argv))
		return set_error(EINVAL, "opts.argc is %d with argv %s; give argc >= 0 and argv "
					 "with that many strings", argc, argv ? "set" : "NULL");
	if (!argc)
		return 0;
	w->argv = calloc((size_t)argc, sizeof(*w->argv));
	if (!w->argv)
		return set_error(ENOMEM, "out of memory for the command line");
	w->argc = argc;
	for (int i = 0; i < argc; i++) {
		if (!argv[i])
			return set_error(EINVAL, "opts.argv[%d] is NULL but argc is %d", i, argc);
		w->argv[i] = strdup(argv[i]);
		if (!w->argv[i])
			return set_error(ENOMEM, "out of memory for the command line");
	}
	return 0;
}

/* File mode needs to rewrite the header at offset 0 as the data grows. */
static int check_fd(struct perfev_data_writer *w)
{
	int flags = fcntl(w->fd, F_GETFL);
	struct stat st;

	if (flags < 0)
		return set_error(EBADF, "fd %d is not an open file descriptor", w->fd);
	if ((flags & O_ACCMODE) == O_RDONLY)
		return set_error(EBADF, "fd %d is open read-only; open the output for writing",
				 w->fd);
	if (w->pipe)
		return 0;
	if (flags & O_APPEND)
		return set_error(EINVAL, "fd %d is open with O_APPEND, so the header at offset 0 "
					 "cannot be rewritten; open perf.data without O_APPEND",
				 w->fd);
	if (lseek(w->fd, 0, SEEK_CUR) < 0)
		return set_error(ESPIPE, "fd %d cannot seek (a pipe or socket?): set opts.pipe to "
					 "write the pipe format", w->fd);
	if (fstat(w->fd, &st) == 0)
		w->regular = S_ISREG(st.st_mode);
	return 0;
}

struct perfev_data_writer *perfev_data_writer__new(int fd,
						   const struct perfev_data_writer_opts *opts)
{
	struct perfev_data_writer_opts o;
	struct perfev_data_writer *w;
	int ret;

	if (OPTS_COPY(&o, opts, perfev_data_writer_opts, pipe) < 0)
		return NULL;
	if (o.compress_level < 0)
		return set_error_ptr(EINVAL, "opts.compress_level is %d; give 0 for none or a zstd "
					     "level from 1", o.compress_level);
	w = calloc(1, sizeof(*w));
	if (!w)
		return set_error_ptr(ENOMEM, "out of memory for a perf.data writer");
	w->fd = fd;
	w->pipe = o.pipe;
	w->level = o.compress_level;
	w->header_sync_ns = (uint64_t)o.header_sync_ms * 1000000ull;
	w->off_cpu_thresh_ns = o.off_cpu_thresh_ns;
	ret = check_fd(w);
	if (!ret)
		ret = copy_argv(w, o.argc, o.argv);
	if (!ret && w->level) {
		w->z = pd_zstd_new(w->level);
		if (!w->z)
			ret = -errno;
	}
	if (ret) {
		perfev_data_writer__delete(w);
		errno = -ret;
		return NULL;
	}
	return w;
}

void perfev_data_writer__delete(struct perfev_data_writer *w)
{
	if (!w)
		return;
	for (int i = 0; i < w->argc; i++)
		free(w->argv[i]);
	free(w->argv);
	for (size_t i = 0; i < w->nr_attrs; i++) {
		free(w->attrs[i].ids);
		free(w->attrs[i].name);
	}
	free(w->attrs);
	pd_offcpu_free(w->oc);
	for (size_t i = 0; i < w->nr_groups; i++)
		free(w->groups[i].name);
	free(w->groups);
	for (size_t i = 0; i < w->nr_bids; i++)
		free(w->bids[i].filename);
	free(w->bids);
	pd_zstd_delete(w->z);
	pd_buf_free(&w->zbuf);
	pd_buf_free(&w->tracing);
	free(w);
}

/* ---- start: the header and the attrs ---- */

static void put_file_header(const struct perfev_data_writer *w, struct pd_buf *b,
			    uint64_t data_size, const uint64_t *features)
{
	pd_put_u64(b, PD_MAGIC);
	pd_put_u64(b, PD_FILE_HEADER_SIZE);
	pd_put_u64(b, w->attr_size + 16);
	pd_put_u64(b, w->attrs_off);
	pd_put_u64(b, (uint64_t)w->nr_attrs * (w->attr_size + 16));
	pd_put_u64(b, w->data_off);
	pd_put_u64(b, data_size);
	pd_put_zero(b, 16); /* event_types: unused since perf 2.6.3x */
	if (features)
		pd_put(b, features, PD_FEAT_BITS / 8);
	else
		pd_put_zero(b, PD_FEAT_BITS / 8);
}

/*
 * The header as a killed writer should leave it: the data up to the last
 * round, and no features but the tracing data when their table is in place.
 */
static int rewrite_header(struct perfev_data_writer *w, bool tracing)
{
	uint64_t bits[PD_FEAT_BITS / 64] = { 1ull << PERFEV_FEAT_TRACING_DATA };
	unsigned char raw[PD_FILE_HEADER_SIZE];
	struct pd_buf b = { .p = raw, .cap = sizeof(raw) };

	put_file_header(w, &b, w->round_end - w->data_off, tracing ? bits : NULL);
	return pd_write_at(w, raw, b.len, 0);
}

/*
 * File mode, at a round's end: the section table of the tracing data goes
 * where perf looks for features (just past the round's data), then the
 * header names the feature, so a file whose writer dies before the next
 * round reads with its tracepoints decoded.
 */
static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static int place_round_table(struct perfev_data_writer *w)
{
	uint64_t table[2] = { w->tracing_off, w->tracing.len };
	int ret;

	/* At start() with compression, HEADER_COMPRESSED lies past round_end: no room there. */
	if (!w->tracing.len || w->off != w->round_end)
		return rewrite_header(w, false);
	ret = pd_write_at(w, table, sizeof(table), w->round_end);
	if (!ret)
		ret = rewrite_header(w, true);
	if (!ret)
		w->round_table = true;
	return ret;
}

/* Appends data records, first taking back a round table they would overwrite. */
static int emit_datav(struct perfev_data_writer *w, struct iovec *iov, int n)
{
	if (w->round_table && !w->err) {
		int ret = rewrite_header(w, false);

		if (ret < 0)
			return ret;
		w->round_table = false;
	}
	return pd_emitv(w, iov, n);
}

static int emit_data(struct perfev_data_writer *w, const void *buf, size_t len)
{
	struct iovec iov = { (void *)buf, len };

	return emit_datav(w, &iov, 1);
}

/* Feature feat as a PERF_RECORD_HEADER_FEATURE; nothing when it is unavailable or too big. */
static void put_feature_record(const struct perfev_data_writer *w, struct pd_buf *b, int feat)
{
	size_t at = b->len;

	pd_put_header(b, PERFEV_RECORD_HEADER_FEATURE, 0, 0);
	pd_put_u64(b, (uint64_t)feat);
	if (b->nomem)
		return;
	if (pd_feature_body(w, feat, b)) {
		b->len = at;
		return;
	}
	/*
	 * A stream's features stay 8-byte aligned (PMU_MAPPINGS ends on 4) so the
	 * tracing data after them are; readers take what they need of a record.
	 * The file's COMPRESSED record at the data's start is perf's 36 bytes.
	 */
	if (w->pipe)
		pd_put_zero(b, pd_align(b->len - at, 8) - (b->len - at));
	if (b->len - at > PD_MAX_RECORD) {
		pr_warn("perf.data: feature %d does not fit one record (%zu bytes); left out\n", feat,
			b->len - at);
		b->len = at;
		return;
	}
	pd_patch_header(b, at, PERFEV_RECORD_HEADER_FEATURE, 0, (uint16_t)(b->len - at));
}

static void put_file_start(struct perfev_data_writer *w, struct pd_buf *b)
{
	uint64_t off = PD_FILE_HEADER_SIZE;

	for (size_t i = 0; i < w->nr_attrs; i++) {
		w->attrs[i].ids_off = off;
		off += w->attrs[i].nr_ids * sizeof(uint64_t);
	}
	w->attrs_off = off;
	w->tracing_off = off + (uint64_t)w->nr_attrs * (w->attr_size + 16);
	w->data_off = w->tracing_off + pd_align(w->tracing.len, 8);
	put_file_header(w, b, 0, NULL);
	for (size_t i = 0; i < w->nr_attrs; i++)
		pd_put(b, w->attrs[i].ids, w->attrs[i].nr_ids * sizeof(uint64_t));
	for (size_t i = 0; i < w->nr_attrs; i++) {
		pd_put(b, &w->attrs[i].attr, w->attr_size);
		pd_put_u64(b, w->attrs[i].ids_off);
		pd_put_u64(b, w->attrs[i].nr_ids * sizeof(uint64_t));
	}
	pd_put(b, w->tracing.p, w->tracing.len);
	pd_put_zero(b, w->data_off - w->tracing_off - w->tracing.len);
	/*
	 * perf sizes its decompression buffer from HEADER_COMPRESSED, and
	 * without it reads no PERF_RECORD_COMPRESSED at all.  The feature
	 * section comes only with finish(), so a file whose writer was killed
	 * would be unreadable; perf's reader also takes the feature as a record
	 * in the data (as in a pipe), so the data begin with one.
	 */
	if (w->z)
		put_feature_record(w, b, PERFEV_FEAT_COMPRESSED);
}

static void put_pipe_features(const struct perfev_data_writer *w, struct pd_buf *b)
{
	int feats[PERFEV_FEAT_LAST];
	size_t n = pd_features(w, feats, ARRAY_SIZE(feats));

	for (size_t i = 0; i < n; i++)
		put_feature_record(w, b, feats[i]);
	/* The mark perf's pipe reader takes as the end of the features. */
	pd_put_header(b, PERFEV_RECORD_HEADER_FEATURE, 0, 16);
	pd_put_u64(b, PERFEV_FEAT_LAST);
}

static void put_pending_build_ids(struct perfev_data_writer *w, struct pd_buf *b)
{
	for (; w->bids_sent < w->nr_bids; w->bids_sent++)
		pd_put_build_id(b, &w->bids[w->bids_sent]);
}

/*
 * PERF_RECORD_HEADER_TRACING_DATA: header and u32 size (with a pad, 16
 * bytes, as perf 6.1 writes it), then the tracing data and their padding
 * to 8 bytes, outside the record's header.size: perf reads them straight
 * from the stream, size bytes in all.
 */
static void put_pipe_tracing(const struct perfev_data_writer *w, struct pd_buf *b)
{
	size_t padded = pd_align(w->tracing.len, 8);

	pd_put_header(b, PERFEV_RECORD_HEADER_TRACING_DATA, 0, 16);
	pd_put_u32(b, (uint32_t)padded);
	pd_put_u32(b, 0);
	pd_put(b, w->tracing.p, w->tracing.len);
	pd_put_zero(b, padded - w->tracing.len);
}

/* PERF_RECORD_EVENT_UPDATE's kind that names an event (PERF_EVENT_UPDATE__NAME). */
#define PD_EVENT_UPDATE_NAME 2

/*
 * perf script may name an event while it reads the event's attr, when it
 * has no tracing data yet: a tracepoint is then "unknown tracepoint" for
 * good, since HEADER_EVENT_DESC does not replace a name.  An EVENT_UPDATE
 * does, so each tracepoint's name follows the tracing data (perf needs an
 * id to find the event: one without ids keeps perf's name).
 */
static void put_pipe_tracepoint_names(const struct perfev_data_writer *w, struct pd_buf *b)
{
	for (size_t i = 0; i < w->nr_attrs; i++) {
		const struct pd_attr *a = &w->attrs[i];
		size_t n = strlen(a->name) + 1, padded = pd_align(n, 8);

		if (a->attr.type != PERF_TYPE_TRACEPOINT || !a->nr_ids)
			continue;
		pd_put_header(b, PERFEV_RECORD_EVENT_UPDATE, 0, (uint16_t)(24 + padded));
		pd_put_u64(b, PD_EVENT_UPDATE_NAME);
		pd_put_u64(b, a->ids[0]);
		pd_put(b, a->name, n);
		pd_put_zero(b, padded - n);
	}
}

static void put_pipe_start(struct perfev_data_writer *w, struct pd_buf *b)
{
	pd_put_u64(b, PD_MAGIC);
	pd_put_u64(b, PD_PIPE_HEADER_SIZE);
	for (size_t i = 0; i < w->nr_attrs; i++) {
		const struct pd_attr *a = &w->attrs[i];

		pd_put_header(b, PERFEV_RECORD_HEADER_ATTR, 0,
			      (uint16_t)(8 + w->attr_size + a->nr_ids * sizeof(uint64_t)));
		pd_put(b, &a->attr, w->attr_size);
		pd_put(b, a->ids, a->nr_ids * sizeof(uint64_t));
	}
	put_pipe_features(w, b);
	/* Where perf record puts it: after the features, before anything else. */
	if (w->tracing.len) {
		put_pipe_tracing(w, b);
		put_pipe_tracepoint_names(w, b);
	}
	put_pending_build_ids(w, b);
}

int perfev_data_writer__start(struct perfev_data_writer *w)
{
	struct pd_buf b = { 0 };
	int ret;

	if (!w)
		return set_error(EINVAL, "perfev_data_writer__start: the writer is NULL");
	if (w->state != PD_NEW)
		return set_error(EINVAL, "perfev_data_writer__start called twice");
	if (!w->nr_attrs)
		return set_error(EINVAL, "perfev_data_writer__start: no event was added; add each "
					 "event with perfev_data_writer__add_attr() first");
	if ((ret = pd_check_events(w)) < 0)
		return ret;
	/* Read now, so that a tracefs perf could not use is said before anything is written. */
	if (pd_has_tracepoints(w)) {
		if ((ret = pd_tracing_data(w, &w->tracing)) < 0)
			return ret;
		if (pd_align(w->tracing.len, 8) > UINT32_MAX)
			return set_error(E2BIG, "the tracing data of the tracepoints are %zu bytes; "
						"perf reads at most 4 GiB", w->tracing.len);
	}
	if ((ret = pd_offcpu_new(w, w->off_cpu_thresh_ns)) < 0)
		return ret;
	w->attr_size = pd_file_attr_size(w);
	for (size_t i = 0; i < w->nr_attrs; i++)
		w->attrs[i].attr.size = w->attr_size;
	/* perf opens its output with O_TRUNC; stale bytes past our end would only mislead. */
	if (w->regular && ftruncate(w->fd, 0) < 0)
		pr_debug("perf.data: cannot truncate fd %d: %s\n", w->fd, strerror(errno));

	if (w->pipe)
		put_pipe_start(w, &b);
	else
		put_file_start(w, &b);
	if (b.nomem) {
		pd_buf_free(&b);
		return set_error(ENOMEM, "out of memory for the perf.data header");
	}
	w->state = PD_STARTED;
	/* Until the first round, a file reads as one with no data (pipe: set below). */
	w->round_end = w->data_off;
	ret = pd_emit(w, b.p, b.len);
	pd_buf_free(&b);
	if (w->pipe)
		w->round_end = w->data_off = w->off;
	else if (!ret && w->tracing.len)
		ret = place_round_table(w);
	return ret;
}

/* ---- data ---- */

static int check_records(const unsigned char *p, size_t len)
{
	size_t off = 0;

	while (off < len) {
		uint16_t size;

		if (len - off < 8)
			return set_error(EINVAL, "perf.data write: %zu bytes at offset %zu of the "
						 "buffer are not a whole record header; give write() "
						 "whole records", len - off, off);
		memcpy(&size, p + off + 6, sizeof(size));
		if (size < 8 || size > len - off)
			return set_error(EINVAL, "perf.data write: the record at offset %zu of the "
						 "buffer has size %u but %zu bytes remain; give write() "
						 "whole records", off, size, len - off);
		off += size;
	}
	return 0;
}

int pd_during(const struct perfev_data_writer *w, const char *fn)
{
	if (!w)
		return set_error(EINVAL, "%s: the writer is NULL", fn);
	if (w->state != PD_STARTED)
		return set_error(EINVAL, "%s %s", fn, w->state == PD_NEW ? "before start()" :
									     "after finish()");
	if (w->err)
		return pd_sticky_error(w);
	return 0;
}

/* Writes the compressed records that are complete; all of them with force. */
static int emit_compressed(struct perfev_data_writer *w, bool force)
{
	size_t ready = pd_zstd_ready(w->z, &w->zbuf);
	int ret;

	if (!ready || (!force && ready < PD_ZBUF_SPAN))
		return 0;
	ret = emit_data(w, w->zbuf.p, ready);
	pd_zstd_consume(w->z, &w->zbuf, ready);
	return ret;
}

static int compress(struct perfev_data_writer *w, const void *buf, size_t len, bool flush)
{
	size_t before = w->zbuf.len;
	int ret = flush ? pd_zstd_flush(w->z, &w->zbuf) : pd_zstd_feed(w->z, buf, len, &w->zbuf);

	w->comp_out += w->zbuf.len - before;
	return ret < 0 ? keep_error(w, ret) : 0;
}

int pd_append(struct perfev_data_writer *w, struct iovec *iov, int n)
{
	int ret;

	for (int i = 0; i < n; i++)
		w->data_in += iov[i].iov_len;
	if (!w->z)
		return emit_datav(w, iov, n);
	for (int i = 0; i < n; i++)
		if ((ret = compress(w, iov[i].iov_base, iov[i].iov_len, false)) < 0)
			return ret;
	return emit_compressed(w, false);
}

/* What the off-CPU threshold held of the round, filtered, to the data. */
static int flush_round(struct perfev_data_writer *w)
{
	const void *kept;
	size_t n = pd_offcpu_take(w->oc, &kept);
	struct iovec iov = { (void *)kept, n };

	return n ? pd_append(w, &iov, 1) : 0;
}

int perfev_data_writer__write(struct perfev_data_writer *w, const void *buf, size_t len)
{
	struct iovec iov = { (void *)buf, len };
	int ret;

	if ((ret = pd_during(w, "perfev_data_writer__write")) < 0)
		return ret;
	if (!len)
		return 0;
	if (!buf)
		return set_error(EINVAL, "perfev_data_writer__write: buf is NULL with len %zu", len);
	if ((ret = check_records(buf, len)) < 0)
		return ret;
	/* What a round held goes first, in its place. */
	if (w->oc && (ret = flush_round(w)) < 0)
		return ret;
	return pd_append(w, &iov, 1);
}

int perfev_data_writer__finished_round(struct perfev_data_writer *w)
{
	unsigned char raw[8];
	struct pd_buf b = { .p = raw, .cap = sizeof(raw) };
	int ret;

	if ((ret = pd_during(w, "perfev_data_writer__finished_round")) < 0)
		return ret;
	if (w->oc && (ret = flush_round(w)) < 0)
		return ret;
	if (w->pipe && w->bids_sent < w->nr_bids) {
		struct pd_buf ids = { 0 };

		put_pending_build_ids(w, &ids);
		ret = ids.nomem ? set_error(ENOMEM, "out of memory for build id records") :
				  pd_emit(w, ids.p, ids.len);
		pd_buf_free(&ids);
		if (ret < 0)
			return ret;
	}
	/* perf writes the round mark uncompressed, after the round's compressed records. */
	if (w->z) {
		if ((ret = compress(w, NULL, 0, true)) < 0)
			return ret;
		pd_put_header(&w->zbuf, PERFEV_RECORD_FINISHED_ROUND, 0, 8);
		if (w->zbuf.nomem)
			return keep_error(w, set_error(ENOMEM, "out of memory for perf.data records"));
		/* Flushed: no record is open, all of zbuf goes out. */
		ret = emit_data(w, w->zbuf.p, w->zbuf.len);
		w->zbuf.len = 0;
	} else {
		pd_put_header(&b, PERFEV_RECORD_FINISHED_ROUND, 0, 8);
		ret = emit_data(w, b.p, b.len);
	}
	if (ret < 0)
		return ret;
	w->round_end = w->off;
	if (w->pipe)
		return 0;
	if (w->header_sync_ns && !w->tracing.len) {
		uint64_t now = now_ns();

		if (w->header_ns && now - w->header_ns < w->header_sync_ns)
			return 0;
		w->header_ns = now;
	}
	return place_round_table(w);
}

/* ---- finish ---- */

/* The section table and bodies, placed at off; *bits gets the features that are in. */
static int put_features(const struct perfev_data_writer *w, uint64_t off, struct pd_buf *out,
			uint64_t *bits)
{
	int feats[PERFEV_FEAT_LAST];
	size_t n = pd_features(w, feats, ARRAY_SIZE(feats)), nr = 0;
	uint64_t start[PERFEV_FEAT_LAST], size[PERFEV_FEAT_LAST];
	struct pd_buf body = { 0 };

	for (size_t i = 0; i < n; i++) {
		size_t at = body.len;

		/* Already in the file, before the data: the section points there. */
		if (feats[i] == PERFEV_FEAT_TRACING_DATA) {
			feats[nr] = feats[i];
			start[nr] = w->tracing_off;
			size[nr++] = w->tracing.len;
			continue;
		}
		if (pd_feature_body(w, feats[i], &body))
			continue;
		feats[nr] = feats[i];
		start[nr] = at;
		size[nr++] = body.len - at;
	}
	memset(bits, 0, PD_FEAT_BITS / 8);
	for (size_t i = 0; i < nr; i++) {
		bits[feats[i] / 64] |= 1ull << (feats[i] % 64);
		pd_put_u64(out, feats[i] == PERFEV_FEAT_TRACING_DATA ? start[i] :
								       off + nr * 16 + start[i]);
		pd_put_u64(out, size[i]);
	}
	pd_put(out, body.p, body.len);
	if (body.nomem)
		out->nomem = true;
	pd_buf_free(&body);
	return out->nomem ? set_error(ENOMEM, "out of memory for the perf.data features") : 0;
}

static int finish_file(struct perfev_data_writer *w)
{
	uint64_t bits[PD_FEAT_BITS / 64], end = w->round_end;
	struct pd_buf feat = { 0 }, hdr = { 0 };
	struct stat st;
	int ret, hret;

	/*
	 * After a write error the data end at the last complete round: the
	 * features go there, over whatever part of a round made it to disk.
	 */
	ret = put_features(w, end, &feat, bits);
	if (!ret)
		ret = pd_write_at(w, feat.p, feat.len, end);
	if (!ret)
		end += feat.len;
	pd_buf_free(&feat);
	put_file_header(w, &hdr, w->round_end - w->data_off, ret ? NULL : bits);
	hret = hdr.nomem ? set_error(ENOMEM, "out of memory for the perf.data header") :
			   pd_write_at(w, hdr.p, hdr.len, 0);
	pd_buf_free(&hdr);
	if (w->regular && fstat(w->fd, &st) == 0 && (uint64_t)st.st_size > end &&
	    ftruncate(w->fd, (off_t)end) < 0)
		pr_debug("perf.data: cannot truncate fd %d: %s\n", w->fd, strerror(errno));
	/* Leave the fd where perf leaves it, at the end. */
	lseek(w->fd, (off_t)end, SEEK_SET);
	w->off = end;
	/* A write failure, now or before, is kept in w->err with its explanation. */
	if (w->err)
		return pd_sticky_error(w);
	if (hret < 0)
		return hret;
	if (ret < 0)
		append_error(" (perf.data was written without its feature sections)");
	return ret;
}

int perfev_data_writer__finish(struct perfev_data_writer *w)
{
	if (!w)
		return set_error(EINVAL, "perfev_data_writer__finish: the writer is NULL");
	if (w->state != PD_STARTED)
		return set_error(EINVAL, "perfev_data_writer__finish %s",
				 w->state == PD_NEW ? "before start()" : "called twice");
	if (!w->err && w->oc)
		flush_round(w);
	w->state = PD_FINISHED;
	if (!w->err && w->z) {
		if (compress(w, NULL, 0, true) == 0)
			emit_compressed(w, true);
	}
	if (!w->err && w->pipe && w->bids_sent < w->nr_bids) {
		struct pd_buf ids = { 0 };

		put_pending_build_ids(w, &ids);
		if (ids.nomem)
			keep_error(w, set_error(ENOMEM, "out of memory for build id records"));
		else
			pd_emit(w, ids.p, ids.len);
		pd_buf_free(&ids);
	}
	if (!w->err)
		w->round_end = w->off;
	if (w->pipe)
		return w->err ? pd_sticky_error(w) : 0;
	return finish_file(w);
}

uint64_t perfev_data_writer__bytes_written(const struct perfev_data_writer *w)
{
	return w ? w->off : 0;
}

uint64_t perfev_data_writer__data_bytes(const struct perfev_data_writer *w)
{
	return w ? w->data_in : 0;
}
