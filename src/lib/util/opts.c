/* SPDX-License-Identifier: MIT */
/* Checking and copying a caller's options struct: one policy for every entry point. */
#include <string.h>

#include "util/internal.h"
#include "util/opts.h"

/*
 * No options struct comes near this; an sz beyond it is garbage (an
 * uninitialized struct), and scanning that far would read past the caller's.
 */
#define OPTS_MAX_SIZE 4096

int opts_copy(void *dst, size_t dst_size, const void *opts, size_t min, const char *name)
{
	const unsigned char *p = opts;
	size_t sz;
	int ret;

	memset(dst, 0, dst_size);
	if (!opts)
		return 0;
	memcpy(&sz, opts, sizeof(sz));
	if (sz < min) {
		ret = set_error(EINVAL, "%s: .sz is %zu, smaller than the struct's first version "
					"(%zu bytes): set .sz = sizeof(%s)",
				name, sz, min, name);
		goto fail;
	}
	if (sz > OPTS_MAX_SIZE) {
		ret = set_error(EINVAL, "%s: .sz is %zu, not the size of any version of it (is .sz "
					"set?): set .sz = sizeof(%s)",
				name, sz, name);
		goto fail;
	}
	for (size_t i = dst_size; i < sz; i++) {
		if (p[i]) {
			ret = set_error(EINVAL, "%s: .sz is %zu and byte %zu is set, past the %zu bytes "
						"this perfev knows: a field of a newer perfev, which "
						"this one would ignore; leave it zero, or run with the "
						"perfev whose headers the program was built with (and "
						"set .sz = sizeof(%s))",
					name, sz, i, dst_size, name);
			goto fail;
		}
	}
	memcpy(dst, opts, sz < dst_size ? sz : dst_size);
	return 0;
fail:
	errno = EINVAL;
	return ret;
}
