/*
 * /proc/PID/maps lines are text from the kernel, but the parser must hold
 * for any bytes.  The input is split at newlines and each piece parsed (as
 * synthesis does), then parsed whole; every field of a good line is read
 * and checked against the grammar, so ASan sees any bound the parser got
 * wrong and a line it accepts but should not is caught here.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "perfev/perfev.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static volatile size_t sink;

static void check(const char *line, size_t len)
{
	struct perfev_proc_map m;
	/* An exact-size copy: a read one byte past the line is an ASan report. */
	char *copy = malloc(len ? len : 1);

	if (!copy)
		return;
	memcpy(copy, line, len);
	if (perfev_proc_map__parse(copy, len, &m) == 0) {
		if (m.start >= m.end || (m.prot & ~(uint32_t)(PROT_READ | PROT_WRITE | PROT_EXEC)) ||
		    (m.flags != MAP_PRIVATE && m.flags != MAP_SHARED))
			__builtin_trap();
		if (m.path_len) {
			if (m.path < copy || m.path + m.path_len > copy + len || m.path[0] == ' ' ||
			    memchr(m.path, '\0', m.path_len) || memchr(m.path, '\n', m.path_len))
				__builtin_trap();
			for (size_t i = 0; i < m.path_len; i++)
				sink += (unsigned char)m.path[i];
		}
	} else if (!perfev_last_error()[0]) {
		__builtin_trap(); /* every failure explains itself */
	}
	free(copy);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *p = (const char *)data, *end = p + size;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t len = nl ? (size_t)(nl - p) + 1 : (size_t)(end - p);

		check(p, len);
		p += len;
	}
	check((const char *)data, size);
	return 0;
}
