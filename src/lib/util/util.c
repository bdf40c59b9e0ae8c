/* SPDX-License-Identifier: MIT */
/* Small readers of sysfs and procfs files. */
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "util/internal.h"

static const char *sys_root = "";

void sys_root__set(const char *root)
{
	sys_root = root ? root : "";
}

void sys_root__path(char *buf, size_t size, const char *path)
{
	snprintf(buf, size, "%s%s", sys_root, path);
}

int read_text_file(const char *path, char *buf, size_t size)
{
	size_t len = 0;
	int fd;

	if (!size)
		return -EINVAL;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	while (len + 1 < size) {
		ssize_t n = read(fd, buf + len, size - 1 - len);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			int err = errno;

			close(fd);
			return -err;
		}
		if (n == 0)
			break;
		len += (size_t)n;
	}
	close(fd);
	buf[len] = '\0';
	return (int)len;
}

ssize_t read_fd_all(int fd, char **buf, size_t *cap)
{
	size_t len = 0;

	for (;;) {
		ssize_t n;

		if (*cap - len < 4096) {
			size_t ncap = *cap ? *cap * 2 : 1 << 16;
			char *b = realloc(*buf, ncap);

			if (!b)
				return -ENOMEM;
			*buf = b;
			*cap = ncap;
		}
		n = read(fd, *buf + len, *cap - 1 - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			break;
		len += (size_t)n;
	}
	(*buf)[len] = '\0';
	return (ssize_t)len;
}

int read_u64_file(const char *path, uint64_t *val)
{
	char buf[64], *end;
	int n = read_text_file(path, buf, sizeof(buf));

	if (n < 0)
		return n;
	errno = 0;
	unsigned long long v = strtoull(buf, &end, 0);
	if (errno || end == buf || (*end && *end != '\n'))
		return -PERFEV_ERR_SYNTAX;
	*val = v;
	return 0;
}

/* The capacity an array of cap elements grows to for need: doubled from cap (or 16) until it holds. */
static bool grown_cap(size_t cap, size_t need, size_t *n)
{
	*n = cap ? cap : 16;
	while (*n < need)
		if (!size_mul_ok(*n, 2, n))
			return false;
	return true;
}

static bool realloc_to(void **arr, size_t *cap, size_t n, size_t elem)
{
	size_t bytes;
	void *p;

	if (!size_mul_ok(n, elem, &bytes) || !(p = realloc(*arr, bytes)))
		return false;
	*arr = p;
	*cap = n;
	return true;
}

bool array_grow_slow(void **arr, size_t *cap, size_t need, size_t elem)
{
	size_t n;

	return need <= *cap || (grown_cap(*cap, need, &n) && realloc_to(arr, cap, n, elem));
}

/*
 * Tables probed at random (hash slots) are read before they are written: on
 * calloc'ed pages the first read maps the shared zero page and the first
 * write then faults again and flushes that mapping from every CPU the
 * process runs on (an interrupt to the other threads).  Big ones are
 * instead mapped with their pages already in place, in one system call,
 * and huge ones where the kernel allows: a probe at random misses the TLB
 * on 4 KiB pages nearly every time (the children report 1.5x faster).
 */
#if defined(__SANITIZE_ADDRESS__)
#define BIG_TABLE SIZE_MAX /* the sanitizer checks bounds on malloc'ed memory only */
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define BIG_TABLE SIZE_MAX
#endif
#endif
#ifndef BIG_TABLE
#define BIG_TABLE ((size_t)1 << 20)
#endif

void *table_calloc(size_t n, size_t size)
{
	size_t bytes;
	void *p;

	if (!size_mul_ok(n, size, &bytes))
		return NULL;
	if (bytes < BIG_TABLE)
		return calloc(n, size);
	p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return NULL;
	madvise(p, bytes, MADV_HUGEPAGE);
#ifdef MADV_POPULATE_WRITE
	if (madvise(p, bytes, MADV_POPULATE_WRITE))
#endif
		memset(p, 0, bytes); /* a kernel before 5.14: touched by hand */
	return p;
}

void table_free(void *p, size_t n, size_t size)
{
	if (!p)
		return;
	if (n * size < BIG_TABLE)
		free(p);
	else
		munmap(p, n * size);
}

/*
 * One big growing array outside the heap: past BIG_ARRAY bytes it lives in
 * its own mapping, grown by mremap() (never copied, and no old block left
 * behind in the heap, resident, for the rest of the run) and backed by huge
 * pages where the kernel allows.  Its mapping is its capacity's bytes
 * rounded up to 2 MiB.
 */
#define BIG_ARRAY ((size_t)4 << 20)
#define BIG_ROUND ((size_t)2 << 20)

static bool big_bytes(size_t cap, size_t elem, size_t *bytes)
{
	if (!size_mul_ok(cap, elem, bytes) || *bytes > SIZE_MAX - BIG_ROUND)
		return false;
	*bytes = (*bytes + BIG_ROUND - 1) & ~(BIG_ROUND - 1);
	return true;
}

static bool is_big(size_t cap, size_t elem)
{
	size_t bytes;

	return BIG_TABLE != SIZE_MAX && size_mul_ok(cap, elem, &bytes) && bytes >= BIG_ARRAY;
}

bool big_array_grow_slow(void **arr, size_t *cap, size_t need, size_t elem)
{
	size_t n, old_bytes, bytes;
	void *p;

	if (need <= *cap)
		return true;
	if (!grown_cap(*cap, need, &n))
		return false;
	if (!is_big(n, elem))
		return realloc_to(arr, cap, n, elem);
	if (!big_bytes(n, elem, &bytes))
		return false;
	if (*arr && is_big(*cap, elem)) {
		if (!big_bytes(*cap, elem, &old_bytes))
			return false;
		p = mremap(*arr, old_bytes, bytes, MREMAP_MAYMOVE);
		if (p == MAP_FAILED)
			return false;
	} else {
		p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED)
			return false;
		madvise(p, bytes, MADV_HUGEPAGE);
		if (*arr) {
			memcpy(p, *arr, *cap * elem);
			free(*arr);
		}
	}
	*arr = p;
	*cap = n;
	return true;
}

void big_array_free(void *arr, size_t cap, size_t elem)
{
	size_t bytes;

	if (!arr)
		return;
	if (is_big(cap, elem) && big_bytes(cap, elem, &bytes))
		munmap(arr, bytes);
	else
		free(arr);
}
