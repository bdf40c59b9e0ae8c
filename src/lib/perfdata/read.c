/* SPDX-License-Identifier: MIT */
/*
 * Opening perf.data (tools/perf/util/header.c's layout): the file or pipe
 * header and the file's attr section, whose events and ids go to
 * read_evsels.c.
 *
 *	file:	perf_file_header (104 bytes; 72 in files older than the
 *		feature bitmap) | ... | perf_file_attr[] (attr, then the
 *		section of its ids) | data | section table | feature bodies
 *	pipe:	perf_pipe_file_header (16 bytes) | records, the attrs and
 *		features among them
 *
 * The header decides the byte order ("PERFILE2" read backwards: the file
 * was written on a machine of the other order).  Every offset and size is
 * checked against the input's length before it is used; a mapped file is
 * never read past its end.
 */
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "perfdata/reader_int.h"
#include "util/opts.h"

/* attr_size above this (a perf_event_attr of 4 KiB) is taken for corruption. */
#define PDR_MAX_ATTR_SIZE 4096u
/* A pipe is read in chunks of at least this much. */
#define PDR_STREAM_BUF (256u * 1024)

static int check_section(const struct perfev_data_reader *r, uint64_t off, uint64_t size,
			 const char *what)
{
	if (off > r->mem_len || size > r->mem_len - off)
		return set_error(PERFEV_ERR_FORMAT,
				 "perf.data: the %s at offset 0x%llx (%llu bytes) run%s past the end "
				 "of the file (%zu bytes); the file is truncated or corrupt",
				 what, (unsigned long long)off, (unsigned long long)size,
				 off > r->mem_len ? "s" : "", r->mem_len);
	return 0;
}

/* One perf_file_attr: the attr (of its own size), the section of its ids. */
static int read_file_attr(struct perfev_data_reader *r, uint64_t at, size_t attr_size, size_t i)
{
	const unsigned char *p = r->mem + at;
	size_t room = attr_size - 16, sz = pdr_u32(r, p + 4);
	unsigned char attr[sizeof(struct perf_event_attr)] = { 0 };
	uint64_t ids_off = pdr_u64(r, p + attr_size - 16), ids_size = pdr_u64(r, p + attr_size - 8);
	char where[64];
	int ret;

	snprintf(where, sizeof(where), "attr %zu at offset 0x%llx", i, (unsigned long long)at);
	if (sz == 0) /* perf's first ABI wrote no size */
		sz = PERF_ATTR_SIZE_VER0;
	if (sz < PERF_ATTR_SIZE_VER0 || sz > room)
		return set_error(PERFEV_ERR_FORMAT,
				 "perf.data: %s says its size is %zu bytes, but attrs are %zu bytes "
				 "apart (%u at least)",
				 where, sz, room, PERF_ATTR_SIZE_VER0);
	/* A newer recorder's fields: fine while unset, as the kernel does it. */
	for (size_t k = sizeof(attr); k < sz; k++)
		if (p[k])
			return set_error(PERFEV_ERR_FORMAT,
					 "perf.data: %s sets byte %zu of perf_event_attr, a field this "
					 "perfev does not know; a newer perfev may read it",
					 where, k);
	memcpy(attr, p, sz < sizeof(attr) ? sz : sizeof(attr));
	if (r->swapped)
		pdr_swap_attr(attr, sz < sizeof(attr) ? sz : sizeof(attr));
	if ((ret = pdr_add_evsel(r, attr, sizeof(attr), where)) < 0)
		return ret;
	if (ids_size % 8)
		return set_error(PERFEV_ERR_FORMAT,
				 "perf.data: %s: its ids section is %llu bytes, not a whole number "
				 "of u64 ids", where, (unsigned long long)ids_size);
	snprintf(where, sizeof(where), "ids of attr %zu", i);
	if ((ret = check_section(r, ids_off, ids_size, where)) < 0)
		return ret;
	if (ids_size / 8 > PD_MAX_IDS - r->nr_ids_total)
		return set_error(PERFEV_ERR_FORMAT,
				 "perf.data: attr %zu has %llu ids, more than the %u perfev accepts "
				 "in a file", i, (unsigned long long)(ids_size / 8), PD_MAX_IDS);
	for (uint64_t k = 0; k < ids_size / 8; k++)
		if ((ret = pdr_add_id(r, i, pdr_u64(r, r->mem + ids_off + k * 8))) < 0)
			return ret;
	return 0;
}

/*
 * A file whose recorder was killed has data size 0 and, from perf, feature
 * bits without sections (perf writes them only at the end).  Our writer's
 * killed file may name the tracing data with a table right at the data's
 * start; it is taken when it is whole and ends the file (no data then).
 */
static bool table_ends_file(const struct perfev_data_reader *r, const uint64_t *bits)
{
	size_t n = 0;

	for (int f = 0; f < PD_FEAT_BITS; f++)
		n += (bits[f / 64] >> (f % 64)) & 1;
	if (!n || r->data_off > r->mem_len || r->mem_len - r->data_off != n * 16)
		return false;
	for (size_t i = 0; i < n; i++) {
		uint64_t off = pdr_u64(r, r->mem + r->data_off + i * 16);
		uint64_t size = pdr_u64(r, r->mem + r->data_off + i * 16 + 8);

		if (off > r->mem_len || size > r->mem_len - off)
			return false;
	}
	return true;
}

static int read_file_header(struct perfev_data_reader *r, uint64_t hdr_size)
{
	const unsigned char *p = r->mem;
	uint64_t attr_size, attrs_off, attrs_size, nr, bits[PD_FEAT_BITS / 64] = { 0 };
	int ret;

	if (r->mem_len < hdr_size)
		return set_error(PERFEV_ERR_FORMAT,
				 "perf.data: the file is %zu bytes, shorter than its %llu-byte header",
				 r->mem_len, (unsigned long long)hdr_size);
	attr_size = pdr_u64(r, p + 16);
	attrs_off = pdr_u64(r, p + 24);
	attrs_size = pdr_u64(r, p + 32);
	r->data_off = pdr_u64(r, p + 40);
	r->data_size = pdr_u64(r, p + 48);
	if (hdr_size == PD_FILE_HEADER_SIZE)
		for (int i = 0; i < PD_FEAT_BITS / 64; i++)
			bits[i] = pdr_u64(r, p + 72 + i * 8);

	if (attr_size < PERF_ATTR_SIZE_VER0 + 16 || attr_size > PDR_MAX_ATTR_SIZE + 16)
		return set_error(PERFEV_ERR_FORMAT,
				 "perf.data: the header's attr_size is %llu; an attr and its ids "
				 "section take %u to %u bytes%s",
				 (unsigned long long)attr_size, PERF_ATTR_SIZE_VER0 + 16,
				 PDR_MAX_ATTR_SIZE + 16,
				 attr_size ? "" : " (was the recorder killed before it began?)");
	if (attrs_size % attr_size)
		return set_error(PERFEV_ERR_FORMAT,
				 "perf.data: the attrs section is %llu bytes, not a multiple of the "
				 "attr_size %llu",
				 (unsigned long long)attrs_size, (unsigned long long)attr_size);
	nr = attrs_size / attr_size;
	if (nr > PD_MAX_ATTRS)
		return set_error(PERFEV_ERR_FORMAT,
				 "perf.data: the header gives %llu attrs, more than the %u perfev "
				 "accepts", (unsigned long long)nr, PD_MAX_ATTRS);
	if ((ret = check_section(r, attrs_off, attrs_size, "attrs")) < 0)
		return ret;
	for (uint64_t i = 0; i < nr; i++)
		if ((ret = read_file_attr(r, attrs_off + i * attr_size, (size_t)attr_size,
					  (size_t)i)) < 0)
			return ret;

	if (r->data_off < hdr_size)
		return set_error(PERFEV_ERR_FORMAT,
				 "perf.data: the data offset 0x%llx lies inside the %llu-byte header",
				 (unsigned long long)r->data_off, (unsigned long long)hdr_size);
	if (r->data_size == 0) {
		if (r->data_off > r->mem_len)
			return check_section(r, r->data_off, 0, "data");
		if (table_ends_file(r, bits)) {
			r->data_end = r->data_off;
			return pdr_read_features(r, bits);
		}
		r->to_eof = true;
		r->data_end = r->mem_len;
		pdr_warn(r, "perf.data: data size is 0 in the header (the recorder did not finish); "
			    "reading the %llu bytes present",
			 (unsigned long long)(r->mem_len - r->data_off));
		return 0;
	}
	if ((ret = check_section(r, r->data_off, r->data_size, "data")) < 0)
		return ret;
	r->data_end = r->data_off + r->data_size;
	return pdr_read_features(r, bits);
}

/* ---- opening ---- */

static int check_magic(struct perfev_data_reader *r, const unsigned char *p)
{
	uint64_t m;

	memcpy(&m, p, 8);
	if (m == PD_MAGIC)
		return 0;
	if (m == bswap_64(PD_MAGIC)) {
		r->swapped = true;
		return 0;
	}
	if (!memcmp(p, "PERFFILE", 8))
		return set_error(PERFEV_ERR_FORMAT,
				 "perf.data: version 1 (\"PERFFILE\", perf before Linux 2.6.37) is not "
				 "supported; convert it with a perf of that time");
	return set_error(PERFEV_ERR_FORMAT,
			 "perf.data: not a perf.data file (it does not begin with \"PERFILE2\")");
}

static int read_header(struct perfev_data_reader *r)
{
	const unsigned char *p;
	uint64_t hdr_size;
	size_t avail;
	int ret;

	if (r->mem) {
		if (r->mem_len < PD_PIPE_HEADER_SIZE)
			return set_error(PERFEV_ERR_FORMAT,
					 "perf.data: the input is %zu bytes, too short for a header%s",
					 r->mem_len, r->mem_len ? "" : " (an empty file)");
		p = r->mem;
	} else {
		ret = pdr_stream_get(r, 0, PD_PIPE_HEADER_SIZE, &p, &avail);
		if (ret < 0)
			return ret;
		if (!ret)
			return set_error(PERFEV_ERR_FORMAT,
					 "perf.data: the stream ends after %zu bytes, too short for a "
					 "header%s", avail, avail ? "" : " (nothing was written to it)");
	}
	if ((ret = check_magic(r, p)) < 0)
		return ret;
	hdr_size = pdr_u64(r, p + 8);
	if (hdr_size == PD_PIPE_HEADER_SIZE) {
		r->pipe = true;
		r->to_eof = true;
		r->data_off = r->pos = PD_PIPE_HEADER_SIZE;
		r->data_end = r->mem ? r->mem_len : UINT64_MAX;
		return 0;
	}
	if (hdr_size != PD_FILE_HEADER_SIZE && hdr_size != PD_FILE_HEADER_SIZE - PD_FEAT_BITS / 8)
		return set_error(PERFEV_ERR_FORMAT,
				 "perf.data: the header says it is %llu bytes; perf writes 104 (a "
				 "file) or 16 (a pipe)", (unsigned long long)hdr_size);
	if (!r->mem)
		return set_error(PERFEV_ERR_FORMAT,
				 "perf.data: a file-mode perf.data cannot be read from a pipe (its "
				 "features are at its end); give its path, or record with \"-o -\"");
	ret = read_file_header(r, hdr_size);
	r->pos = r->data_off;
	return ret;
}

static int copy_opts(struct perfev_data_reader *r, const struct perfev_data_reader_opts *opts)
{
	struct perfev_data_reader_opts o;
	int ret;

	if ((ret = OPTS_COPY(&o, opts, perfev_data_reader_opts, warn)) < 0)
		return ret;
	r->warn = o.warn;
	r->warn_ctx = o.warn_ctx;
	return 0;
}

static struct perfev_data_reader *reader_new(const struct perfev_data_reader_opts *opts)
{
	struct perfev_data_reader *r = calloc(1, sizeof(*r));

	if (!r)
		return set_error_ptr(ENOMEM, "out of memory for a perf.data reader");
	r->fd = -1;
	r->own_fd = -1;
	r->same_fmt = true;
	if (copy_opts(r, opts) < 0) {
		free(r);
		errno = EINVAL;
		return NULL;
	}
	return r;
}

/* Reads the header and attrs; on failure frees r and returns NULL with errno set. */
static struct perfev_data_reader *reader_start(struct perfev_data_reader *r)
{
	int ret = read_header(r);

	/* Swapped records are turned around in it; a pipe keeps a record there while it skips. */
	if (!ret && (r->swapped || !r->mem)) {
		r->scratch = malloc(PD_MAX_RECORD + 1);
		if (!r->scratch)
			ret = set_error(ENOMEM, "out of memory for the perf.data reader");
	}
	if (ret < 0) {
		perfev_data_reader__delete(r);
		errno = -ret;
		return NULL;
	}
	return r;
}

struct perfev_data_reader *perfev_data_reader__new_mem(const void *buf, size_t len,
						       const struct perfev_data_reader_opts *opts)
{
	struct perfev_data_reader *r;

	if (!buf && len)
		return set_error_ptr(EINVAL, "perfev_data_reader__new_mem: buf is NULL with len %zu",
				     len);
	r = reader_new(opts);
	if (!r)
		return NULL;
	/* Any non-NULL pointer does for 0 bytes: the header check fails first. */
	r->mem = buf ? buf : (const unsigned char *)"";
	r->mem_len = len;
	return reader_start(r);
}

static struct perfev_data_reader *new_fd(int fd, int own_fd,
					 const struct perfev_data_reader_opts *opts,
					 const char *name)
{
	struct perfev_data_reader *r = reader_new(opts);
	struct stat st;

	if (!r) {
		if (own_fd >= 0)
			close(own_fd);
		return NULL;
	}
	r->own_fd = own_fd;
	if (fstat(fd, &st) < 0) {
		int e = errno;

		perfev_data_reader__delete(r);
		return set_error_ptr(e, "perf.data: cannot stat %s: %s", name, strerror(e));
	}
	if (S_ISDIR(st.st_mode)) {
		perfev_data_reader__delete(r);
		return set_error_ptr(EISDIR, "perf.data: %s is a directory (perf record --threads "
					     "writes one); perfev reads a single perf.data file",
				     name);
	}
	if (S_ISREG(st.st_mode) && st.st_size > 0) {
		if ((uint64_t)st.st_size > SIZE_MAX) {
			perfev_data_reader__delete(r);
			return set_error_ptr(EFBIG, "perf.data: %s is too big to map", name);
		}
		r->map_len = (size_t)st.st_size;
		r->map = mmap(NULL, r->map_len, PROT_READ, MAP_PRIVATE, fd, 0);
		if (r->map == MAP_FAILED) {
			int e = errno;

			r->map = NULL;
			perfev_data_reader__delete(r);
			return set_error_ptr(e, "perf.data: cannot map %s (%zu bytes): %s", name,
					     (size_t)st.st_size, strerror(e));
		}
		/* Read in order, once: let the kernel read ahead. */
		madvise(r->map, r->map_len, MADV_SEQUENTIAL);
		r->mem = r->map;
		r->mem_len = r->map_len;
	} else if (S_ISREG(st.st_mode)) {
		r->mem = (const unsigned char *)"";
		r->mem_len = 0;
	} else {
		r->fd = fd;
		r->scap = PDR_STREAM_BUF;
		r->sbuf = malloc(r->scap);
		if (!r->sbuf) {
			perfev_data_reader__delete(r);
			return set_error_ptr(ENOMEM, "out of memory for the perf.data reader");
		}
	}
	return reader_start(r);
}

struct perfev_data_reader *perfev_data_reader__new_fd(int fd,
						      const struct perfev_data_reader_opts *opts)
{
	char name[32];

	if (fd < 0)
		return set_error_ptr(EBADF, "perfev_data_reader__new_fd: fd %d is not valid", fd);
	snprintf(name, sizeof(name), "fd %d", fd);
	return new_fd(fd, -1, opts, name);
}

struct perfev_data_reader *perfev_data_reader__open(const char *path,
						    const struct perfev_data_reader_opts *opts)
{
	int fd;

	if (!path)
		return set_error_ptr(EINVAL, "perfev_data_reader__open: path is NULL");
	if (!strcmp(path, "-"))
		return new_fd(STDIN_FILENO, -1, opts, "standard input");
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		int e = errno;

		set_error(e, "cannot open %s: %s", path, strerror(e));
		if (e == ENOENT && !strcmp(path, PERFEV_DATA_FILE_DEFAULT))
			append_error(" (record one first: perfev record or perf record)");
		errno = e;
		return NULL;
	}
	return new_fd(fd, fd, opts, path);
}

/* Given back in steps of this much, so that madvise() runs rarely. */
#define RELEASE_STEP (8u << 20)

void pdr_release_before(struct perfev_data_reader *r, uint64_t off)
{
	size_t end;

	if (!r->map || off > r->map_len)
		return;
	end = (size_t)off & ~(size_t)(RELEASE_STEP - 1);
	if (end <= r->released)
		return;
	madvise((char *)r->map + r->released, end - r->released, MADV_DONTNEED);
	r->released = end;
}

void pdr_release_all(struct perfev_data_reader *r)
{
	/* released stays: reading on, the pages come back and go again with the window. */
	if (r->map && r->released < r->map_len)
		madvise((char *)r->map + r->released, r->map_len - r->released, MADV_DONTNEED);
}

void perfev_data_reader__delete(struct perfev_data_reader *r)
{
	if (!r)
		return;
	for (size_t i = 0; i < r->nr_evsels; i++) {
		free(r->evsels[i].ids);
		free(r->evsels[i].name);
	}
	free(r->evsels);
	free(r->ids.keys);
	free(r->ids.vals);
	pdr_free_features(r);
	pdr_free_data(r);
	free(r->scratch);
	free(r->sbuf);
	if (r->map)
		munmap(r->map, r->map_len);
	if (r->own_fd >= 0)
		close(r->own_fd);
	free(r);
}

/* ---- accessors ---- */

bool perfev_data_reader__is_pipe(const struct perfev_data_reader *r)
{
	return r && r->pipe;
}

bool perfev_data_reader__is_swapped(const struct perfev_data_reader *r)
{
	return r && r->swapped;
}
