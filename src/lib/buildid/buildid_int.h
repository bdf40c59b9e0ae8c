/* SPDX-License-Identifier: MIT */
/* Build ids inside the library: what synth/ and symbols/ use of buildid/; never installed. */
#ifndef PERFEV_BUILDID_INT_H
#define PERFEV_BUILDID_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "perfev/common.h"

/* The longest build id (SHA-1), as MMAP2 records and perf's HEADER_BUILD_ID carry them. */
#define BUILD_ID_MAX PERFEV_BUILD_ID_MAX

/* The build id of an open file; the error messages name it name. */
int build_id__read_fd(int fd, const char *name, uint8_t *id, size_t size);
/*
 * The NT_GNU_BUILD_ID note among len bytes of notes (name and desc padded
 * to align, 4 or 8); -ENOENT without setting an error when there is none.
 */
int build_id__parse_notes(const void *notes, size_t len, bool big, size_t align, const char *where,
			  uint8_t *id, size_t size);

/* Lowercase hex of id into buf (2 * size + 1 bytes). */
void build_id__hex(const uint8_t *id, size_t size, char *buf);
/*
 * The length of id without perf's zero padding, as it names directories:
 * only a 16-byte (MD5) id padded to a 20-byte slot is cut.
 */
size_t build_id__trim(const uint8_t *id, size_t size);

/* The name recordings give the vDSO's map, and its directory in the build-id cache. */
#define BUILD_ID_VDSO_NAME "[vdso]"
/* This process's vDSO image (64-bit only): 0, or -errno with the error set. */
int build_id__vdso_image(const void **img, size_t *len);
/* Whether id is the build id of this process's vDSO. */
bool build_id__vdso_matches(const uint8_t *id, size_t id_size);
/* Build-id cache steps shared with vdso.c: mkdir -p of path; DIR/.build-id/xx/rest -> ../..PATH/HEX. */
int build_id_cache__mkdirs(const char *path);
int build_id_cache__link(const char *dir, const char *path, const char *hex);

#endif
