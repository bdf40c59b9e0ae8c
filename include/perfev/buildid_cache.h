/* SPDX-License-Identifier: MIT */
/*
 * perfev: the build-id cache, the files a recording sampled kept by build
 * id so that a report still finds them after they were rebuilt, moved or
 * deleted.  The layout is Linux perf's (~/.debug by default), so perf
 * report finds perfev's entries and perfev finds perf's:
 *
 *	DIR/<the file's absolute path>/<build id in hex>/elf
 *		a hard link to the file when DIR is on its file system, else a copy
 *	DIR/<the file's absolute path>/<build id in hex>/debug
 *		the separate debug file of a stripped file, when it has one
 *	DIR/[vdso]/<build id in hex>/vdso
 *		the vDSO's image (it has no file), as the recorder's own memory holds it
 *	DIR/.build-id/<first 2 hex digits>/<the other digits>
 *		a symbolic link to ../../<the file's path>/<build id in hex>
 *
 * perfev_symbolizer_opts.buildid_dir is where the symbolizer looks the
 * entries up.  Entries are whole directories; one's age is its
 * directory's modification time, which adding it again refreshes.
 */
#ifndef PERFEV_BUILDID_CACHE_H
#define PERFEV_BUILDID_CACHE_H

#include <stddef.h>
#include <stdint.h>

#include "perfev/common.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Keeps the file at path (absolute, without "." or ".." components) under
 * its build id id (1..20 bytes; perf's 20-byte slot of a 16-byte id is
 * understood) in the cache at dir, creating dir as needed.  The file must
 * still have that build id (it may have been rebuilt since it was mapped).
 * Returns 1 when added, 0 when the entry was there already (its age then
 * refreshed), or a negative errno with perfev_last_error() saying why:
 * -EINVAL for a bad path or id, -ESTALE when the file's build id is
 * another, else what the file system said.
 */
PERFEV_API int perfev_buildid_cache__add(const char *dir, const char *path, const uint8_t *id,
					 size_t id_size);

/*
 * Keeps debug_file, the separate debug file with the symbols of a stripped
 * file path, beside that file's entry (added first) as "debug", where perf
 * looks for it too.  It must have build id id, or none (found by
 * .gnu_debuglink and its CRC).  1 when added, 0 when there already, or a
 * negative errno: -ENOENT when path has no entry, -ESTALE for another id.
 */
PERFEV_API int perfev_buildid_cache__add_debug(const char *dir, const char *path,
					       const uint8_t *id, size_t id_size,
					       const char *debug_file);

/*
 * Keeps this process's vDSO image under its build id, which must be id (a
 * recording's "[vdso]" entry: the same kernel and ABI as the caller).
 * 1 when added, 0 when there already, or a negative errno: -ESTALE when
 * this process's vDSO has another build id.
 */
PERFEV_API int perfev_buildid_cache__add_vdso(const char *dir, const uint8_t *id, size_t id_size);

struct perfev_buildid_cache_usage {
	uint64_t entries, bytes;     /* what the cache holds afterwards */
	uint64_t removed, freed;     /* entries removed, and their bytes */
};

/*
 * Removes the oldest entries of the cache at dir until its entries
 * (every regular file of each, a hard link counted at its full size) take
 * at most max_bytes, leaving those modified at or after keep_since (a
 * time() value; 0: none kept) whatever their size.  Only entries reached
 * from dir/.build-id whose links point inside dir are looked at.  usage
 * (may be NULL) gets what was done.  0, or a negative errno when dir
 * cannot be read (a cache that does not exist is empty: 0).
 */
PERFEV_API int perfev_buildid_cache__trim(const char *dir, uint64_t max_bytes, int64_t keep_since,
					  struct perfev_buildid_cache_usage *usage);

#ifdef __cplusplus
}
#endif

#endif
