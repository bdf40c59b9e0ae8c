/* SPDX-License-Identifier: MIT */
/*
 * The one check of a caller's options struct (first field size_t sz), as
 * libbpf does it: older callers pass a smaller struct, newer ones a bigger
 * one, and both work as long as nothing is lost.
 */
#ifndef PERFEV_UTIL_OPTS_H
#define PERFEV_UTIL_OPTS_H

#include <stddef.h>

#define offsetofend(type, field) (offsetof(type, field) + sizeof(((type *)0)->field))

/*
 * Copies the caller's options struct name at opts into dst (dst_size bytes,
 * the struct as this library knows it; zeroed first, and NULL opts leaves it
 * all zero: the defaults).  Refuses with -EINVAL (errno set too, for entry
 * points returning a pointer) and an explanation naming the struct:
 *   - sz below min, the end of the struct's first version: sz was never set;
 *   - sz past dst_size with a non-zero byte there: a newer caller set a
 *     field this library would ignore;
 *   - sz larger than any options struct could be.
 * Then min(sz, dst_size) bytes are copied; fields past sz keep their zero.
 *
 * Only bytes past dst_size are checked, not the padding after the struct's
 * last field: compilers leave padding out of `{ .sz = sizeof(o), ... }`
 * (clang does), so it may hold anything.  Hence a field added later goes
 * past the struct's previous size, never into its trailing padding, and
 * the struct should then end without implicit padding (an explicit
 * reserved field instead), or an older library would take a newer
 * caller's uninitialized padding for a field it cannot honour.
 */
int opts_copy(void *dst, size_t dst_size, const void *opts, size_t min, const char *name);

/*
 * opts_copy() of a struct TYPE (its name without "struct") into dst, which
 * must be one; its first version ended with the field FIRST.
 */
#define OPTS_COPY(dst, opts, type, first)                                                  \
	opts_copy((dst), sizeof(struct type) + 0 * OPTS_IS_A(dst, type), (opts),            \
		  offsetofend(struct type, first), "struct " #type)

/* 0, or a compile error when *dst is not a struct TYPE. */
#define OPTS_IS_A(dst, type)                                                                \
	sizeof(struct {                                                                     \
		_Static_assert(__builtin_types_compatible_p(__typeof__(*(dst)), struct type), \
			       "OPTS_COPY into something that is not a struct " #type);     \
		char c;                                                                     \
	})

#endif
