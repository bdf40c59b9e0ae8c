/*
 * ELF images are untrusted bytes (any file a process maps).  Each input is
 * parsed as an image in memory, as kernel notes, and through a file (a
 * memfd), which takes the windowed pread path: memory and file must agree
 * on the result, and a build id found must be the bytes of a note in the
 * input.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "perfev/perfev.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int memfd = -1;

static void check_id(const uint8_t *data, size_t size, const uint8_t *id, int n)
{
	if (n <= 0)
		return;
	if (n > 20 || !memmem(data, size, id, (size_t)n))
		__builtin_trap();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t id[20], id2[20];
	char path[64];
	int a, b;
	/* Exact-size copy so a read past the end is an ASan report. */
	uint8_t *copy = malloc(size ? size : 1);

	if (!copy)
		return 0;
	memcpy(copy, data, size);
	a = perfev_build_id__from_mem(copy, size, id, sizeof(id));
	check_id(copy, size, id, a);
	check_id(copy, size, id2, perfev_build_id__from_notes(copy, size, id2, sizeof(id2)));
	/* A small output buffer must be refused, not overrun. */
	perfev_build_id__from_mem(copy, size, id2, 4);

	if (memfd < 0)
		memfd = memfd_create("fuzz_build_id", MFD_CLOEXEC);
	if (memfd >= 0 && !ftruncate(memfd, 0) && pwrite(memfd, copy, size, 0) == (ssize_t)size) {
		snprintf(path, sizeof(path), "/proc/self/fd/%d", memfd);
		b = perfev_build_id__read(path, id2, sizeof(id2));
		if (a != b || (a > 0 && memcmp(id, id2, (size_t)a)))
			__builtin_trap();
	}
	free(copy);
	return 0;
}
