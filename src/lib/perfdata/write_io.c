/* SPDX-License-Identifier: MIT */
/* The perf.data writer's output: a growable buffer, and writes that survive EINTR and short counts. */
#include <poll.h>
#include <stdlib.h>
#include <sys/uio.h>
#include <unistd.h>

#include "perfdata/writer_int.h"

void pd_buf_free(struct pd_buf *b)
{
	free(b->p);
	*b = (struct pd_buf){ 0 };
}

bool pd_buf_reserve(struct pd_buf *b, size_t n)
{
	size_t need, cap;
	unsigned char *p;

	if (b->nomem)
		return false;
	if (!size_add_ok(b->len, n, &need)) {
		b->nomem = true;
		return false;
	}
	if (need <= b->cap)
		return true;
	cap = b->cap ? b->cap : 4096;
	while (cap < need) {
		if (!size_mul_ok(cap, 2, &cap)) {
			cap = need;
			break;
		}
	}
	p = realloc(b->p, cap);
	if (!p) {
		b->nomem = true;
		return false;
	}
	b->p = p;
	b->cap = cap;
	return true;
}

void pd_put(struct pd_buf *b, const void *src, size_t n)
{
	if (!n || !pd_buf_reserve(b, n))
		return;
	memcpy(b->p + b->len, src, n);
	b->len += n;
}

void pd_put_zero(struct pd_buf *b, size_t n)
{
	if (!n || !pd_buf_reserve(b, n))
		return;
	memset(b->p + b->len, 0, n);
	b->len += n;
}

void pd_put_string(struct pd_buf *b, const char *s)
{
	size_t n = strlen(s) + 1, padded = pd_align(n, PD_NAME_ALIGN);

	pd_put_u32(b, (uint32_t)padded);
	pd_put(b, s, n);
	pd_put_zero(b, padded - n);
}

void pd_put_header(struct pd_buf *b, uint32_t type, uint16_t misc, uint16_t size)
{
	pd_put_u32(b, type);
	pd_put_u16(b, misc);
	pd_put_u16(b, size);
}

void pd_patch_header(struct pd_buf *b, size_t off, uint32_t type, uint16_t misc, uint16_t size)
{
	if (b->nomem || off + 8 > b->len)
		return;
	memcpy(b->p + off, &type, 4);
	memcpy(b->p + off + 4, &misc, 2);
	memcpy(b->p + off + 6, &size, 2);
}

int pd_sticky_error(const struct perfev_data_writer *w)
{
	return set_error(-w->err, "%s", w->errmsg);
}

static const char *write_hint(int err)
{
	switch (err) {
	case ENOSPC:
		return "the file system is full: free space (or write elsewhere) and record again";
	case EDQUOT:
		return "the disk quota is exhausted: free space or raise the quota and record again";
	case EFBIG:
		return "the file exceeds the file size limit (ulimit -f) or the file system's "
		       "largest file: raise the limit or record less (a shorter run, a lower rate)";
	case EIO:
		return "the device reported an I/O error: check it (dmesg) and record elsewhere";
	case EPIPE:
		return "the reading end of the pipe was closed: keep the reader running until "
		       "the writer finishes";
	default:
		return "check the output file or pipe and record again";
	}
}

/* Remembers the first failure; what was written up to the last round stays readable. */
static int write_failed(struct perfev_data_writer *w, int err, uint64_t off)
{
	char why[128], msg[sizeof(w->errmsg)];

	perfev_strerror(err, why, sizeof(why));
	if (w->pipe)
		snprintf(msg, sizeof(msg), "cannot write perf.data at offset %llu of the pipe: %s; %s",
			 (unsigned long long)off, why, write_hint(err));
	else
		snprintf(msg, sizeof(msg),
			 "cannot write perf.data at offset %llu: %s; %s (the file reads up to its "
			 "last complete round, %llu bytes of data)",
			 (unsigned long long)off, why, write_hint(err),
			 (unsigned long long)(w->round_end - w->data_off));
	if (!w->err) {
		w->err = -err;
		memcpy(w->errmsg, msg, sizeof(msg));
	}
	return set_error(err, "%s", msg);
}

/* A non-blocking pipe that is full: wait until it drains rather than fail. */
static int wait_writable(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLOUT };

	while (poll(&p, 1, -1) < 0)
		if (errno != EINTR)
			return errno;
	return 0;
}

/*
 * Writes the n buffers of iov (which it consumes) at off, or at the pipe's
 * end, in one system call when the kernel takes everything.
 */
static int write_all(struct perfev_data_writer *w, struct iovec *iov, int n_iov, uint64_t off,
		     uint64_t *done)
{
	*done = 0;
	for (;;) {
		ssize_t n;

		while (n_iov && !iov->iov_len) {
			iov++;
			n_iov--;
		}
		if (!n_iov)
			return 0;
		if (w->pipe)
			n = writev(w->fd, iov, n_iov);
		else
			n = pwritev(w->fd, iov, n_iov, (off_t)(off + *done));
		if (n < 0) {
			int err = errno;

			if (err == EINTR)
				continue;
			if (err == EAGAIN || err == EWOULDBLOCK) {
				err = wait_writable(w->fd);
				if (!err)
					continue;
			}
			return write_failed(w, err, off + *done);
		}
		/* A regular file at its size limit or a full device may take 0 bytes. */
		if (n == 0)
			return write_failed(w, ENOSPC, off + *done);
		*done += (uint64_t)n;
		/* A short count: step over what was taken. */
		for (size_t k = (size_t)n; k;) {
			size_t m = k < iov->iov_len ? k : iov->iov_len;

			iov->iov_base = (unsigned char *)iov->iov_base + m;
			iov->iov_len -= m;
			k -= m;
			if (!iov->iov_len && k) {
				iov++;
				n_iov--;
			}
		}
	}
}

int pd_emitv(struct perfev_data_writer *w, struct iovec *iov, int n)
{
	uint64_t done;
	int ret;

	if (w->err)
		return pd_sticky_error(w);
	ret = write_all(w, iov, n, w->off, &done);
	w->off += done;
	return ret;
}

int pd_emit(struct perfev_data_writer *w, const void *buf, size_t len)
{
	struct iovec iov = { (void *)buf, len };

	return pd_emitv(w, &iov, 1);
}

int pd_write_at(struct perfev_data_writer *w, const void *buf, size_t len, uint64_t off)
{
	struct iovec iov = { (void *)buf, len };
	uint64_t done;

	return write_all(w, &iov, 1, off, &done);
}
