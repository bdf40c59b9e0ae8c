/* SPDX-License-Identifier: MIT */
/* Rings: mapping an event's buffer (and AUX area), redirecting other events into it. */
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "sample/ring_int.h"
#include "util/opts.h"

static bool is_pow2(size_t n)
{
	return n && !(n & (n - 1));
}

/* The powers of two around n, to suggest in an error. */
static void pow2_around(size_t n, size_t *below, size_t *above)
{
	size_t p = 1;

	while (p <= n / 2)
		p *= 2;
	*below = p;
	*above = p * 2;
}

static int alloc_copy(struct perfev_ring *r)
{
	r->copy_size = r->size < RING_MAX_RECORD ? r->size : RING_MAX_RECORD;
	r->copy = malloc(r->copy_size);
	return r->copy ? 0 : -ENOMEM;
}

struct perfev_ring *ring__new_mem(void *page_and_data, size_t data_size, bool overwrite)
{
	struct perfev_ring *r;

	if (!page_and_data || data_size < 8 || !is_pow2(data_size))
		return set_error_ptr(EINVAL, "a ring over memory needs a power-of-two size of at "
					     "least 8 bytes, not %zu",
				     data_size);
	r = calloc(1, sizeof(*r));
	if (!r)
		return set_error_ptr(ENOMEM, "out of memory");
	r->size = data_size;
	if (alloc_copy(r)) {
		free(r);
		return set_error_ptr(ENOMEM, "out of memory");
	}
	r->fd = -1;
	r->overwrite = overwrite;
	r->page = page_and_data;
	r->data = (unsigned char *)page_and_data + RING_MEM_DATA_OFFSET;
	r->page->data_offset = RING_MEM_DATA_OFFSET;
	r->page->data_size = data_size;
	r->tail = overwrite ? 0 : r->page->data_tail;
	r->pos = r->head = r->tail;
	return r;
}

static void explain_mmap_error(int err, int fd, size_t pages, size_t len)
{
	char kb[32] = "?";

	switch (err) {
	case EPERM:
		if (read_text_file("/proc/sys/kernel/perf_event_mlock_kb", kb, sizeof(kb)) > 0)
			kb[strcspn(kb, "\n")] = 0;
		set_error(EPERM, "cannot map the %zu KiB ring (1 + %zu data pages) of event fd %d: "
				 "it is more locked memory than this user may have; the limit is "
				 "perf_event_mlock_kb (%s KiB per CPU, /proc/sys/kernel/"
				 "perf_event_mlock_kb) plus RLIMIT_MEMLOCK; use fewer data pages, "
				 "raise the sysctl, or run with CAP_IPC_LOCK",
			  len / 1024, pages, fd, kb);
		break;
	case EINVAL:
		set_error(EINVAL, "the kernel refused to map %zu data pages of event fd %d: an "
				  "inherited per-thread event (inherit needs per-CPU events), an "
				  "event already redirected into another ring (SET_OUTPUT), or one "
				  "mapped before with another size cannot be mapped",
			  pages, fd);
		break;
	case EBADF:
	case ENODEV:
		set_error(err, "fd %d is not a perf event: %s", fd, strerror(err));
		break;
	default:
		set_error(err, "cannot map the %zu KiB ring of event fd %d: %s", len / 1024, fd,
			  strerror(err));
		break;
	}
}

static int map_aux(struct perfev_ring *r, size_t pages, size_t psize)
{
	size_t len;
	void *p;

	if (!is_pow2(pages))
		return set_error(EINVAL, "aux_pages %zu is not a power of two, as the kernel needs "
					 "for an AUX area",
				 pages);
	if (r->overwrite)
		return set_error(EINVAL, "an AUX area needs its offset written into the control "
					 "page, which an overwrite ring maps read-only: map the AUX "
					 "area with a forward ring");
	if (!size_mul_ok(pages, psize, &len))
		return set_error(EINVAL, "aux_pages %zu is too large", pages);
	/* The kernel learns where and how large the AUX area is from these two fields. */
	r->page->aux_offset = r->map_len;
	r->page->aux_size = len;
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, r->fd, (off_t)r->map_len);
	if (p == MAP_FAILED) {
		int err = errno;

		if (err == EOPNOTSUPP || err == ENODEV || err == EINVAL)
			return set_error(err, "cannot map an AUX area of %zu pages on event fd %d "
					      "(%s): only hardware-tracing PMUs (intel_pt, arm_spe, "
					      "cs_etm, ...) fill an AUX area; software events, "
					      "tracepoints and counters do not, and this machine may "
					      "have no such PMU",
					 pages, r->fd, strerror(err));
		if (err == EPERM)
			return set_error(err, "cannot map an AUX area of %zu pages on event fd %d: "
					      "over the locked-memory limit "
					      "(/proc/sys/kernel/perf_event_mlock_kb, RLIMIT_MEMLOCK); "
					      "use fewer aux_pages or run with CAP_IPC_LOCK",
					 pages, r->fd);
		return set_error(err, "cannot map an AUX area of %zu pages on event fd %d: %s",
				 pages, r->fd, strerror(err));
	}
	r->aux = p;
	r->aux_size = len;
	return 0;
}

struct perfev_ring *perfev_ring__new(int fd, const struct perfev_ring_opts *opts)
{
	struct perfev_ring_opts o;
	size_t psize = (size_t)sysconf(_SC_PAGESIZE), len, below, above;
	struct perfev_ring *r;
	void *p;
	int err;

	if (OPTS_COPY(&o, opts, perfev_ring_opts, data_pages) < 0)
		return NULL;
	if (fd < 0)
		return set_error_ptr(EBADF, "no event fd to map a ring of (fd %d)", fd);
	if (!o.data_pages)
		o.data_pages = 128;
	if (!is_pow2(o.data_pages)) {
		pow2_around(o.data_pages, &below, &above);
		return set_error_ptr(EINVAL, "data_pages %zu is not a power of two, as the kernel "
					     "needs to wrap positions with a mask: use %zu or %zu",
				     o.data_pages, below, above);
	}
	if (!size_add_ok(o.data_pages, 1, &len) || !size_mul_ok(len, psize, &len))
		return set_error_ptr(EINVAL, "data_pages %zu is too large", o.data_pages);
	r = calloc(1, sizeof(*r));
	if (!r)
		return set_error_ptr(ENOMEM, "out of memory");
	r->fd = fd;
	r->overwrite = o.overwrite;
	r->size = o.data_pages * psize;
	r->map_len = len;
	if (alloc_copy(r)) {
		free(r);
		return set_error_ptr(ENOMEM, "out of memory");
	}
	/* A read-only mapping is what tells the kernel not to wait for data_tail. */
	p = mmap(NULL, len, PROT_READ | (o.overwrite ? 0 : PROT_WRITE), MAP_SHARED, fd, 0);
	if (p == MAP_FAILED) {
		err = errno;
		explain_mmap_error(err, fd, o.data_pages, len);
		goto fail;
	}
	r->mapped = true;
	r->page = p;
	r->data = (unsigned char *)p + psize;
	/* The event may have been mapped (and read) before: carry on where that reader left. */
	r->tail = o.overwrite ? 0 : r->page->data_tail;
	r->pos = r->head = r->tail;
	if (o.aux_pages) {
		err = -map_aux(r, o.aux_pages, psize);
		if (err)
			goto fail;
	}
	return r;
fail:
	perfev_ring__delete(r);
	errno = err;
	return NULL;
}

void perfev_ring__delete(struct perfev_ring *r)
{
	if (!r)
		return;
	if (r->aux)
		munmap(r->aux, r->aux_size);
	if (r->mapped)
		munmap(r->page, r->map_len);
	free(r->copy);
	free(r);
}

int perfev_ring__set_output(struct perfev_ring *r, int fd)
{
	if (!r || r->fd < 0)
		return set_error(EBADF, "the ring has no event fd to redirect records into");
	if (ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, r->fd) == 0)
		return 0;
	switch (errno) {
	case EINVAL:
		return set_error(EINVAL, "cannot redirect event fd %d into the ring of fd %d: both "
					 "must be on the same CPU (or, per thread, the same task), "
					 "use the same clock (use_clockid, clockid) and the same "
					 "write_backward, and fd %d must not have a ring of its own",
				 fd, r->fd, fd);
	case EBUSY:
		return set_error(EBUSY, "cannot redirect event fd %d into the ring of fd %d: fd %d "
					"is mapped itself; unmap it first",
				 fd, r->fd, fd);
	default:
		return set_error(errno, "cannot redirect event fd %d into the ring of fd %d: %s",
				 fd, r->fd, strerror(errno));
	}
}

int perfev_ring__fd(const struct perfev_ring *r)
{
	return r ? r->fd : -1;
}

size_t perfev_ring__size(const struct perfev_ring *r)
{
	return r ? r->size : 0;
}

const struct perf_event_mmap_page *perfev_ring__page(const struct perfev_ring *r)
{
	return r ? r->page : NULL;
}

void *perfev_ring__aux(const struct perfev_ring *r, size_t *size)
{
	if (size)
		*size = r ? r->aux_size : 0;
	return r ? r->aux : NULL;
}
