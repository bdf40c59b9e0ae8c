/* SPDX-License-Identifier: MIT */
/*
 * perfev: records the kernel did not write but a profile needs, made up
 * from /proc and sysfs, the way perf synthesizes them: COMM, FORK and MMAP2
 * of processes that ran before recording started, and the kernel's own
 * maps.  Also build ids of ELF files and of the running kernel.
 *
 * Each record is handed to a callback, laid out for the stream's first
 * attr: with fmt->sample_id_all a zeroed sample_id trailer of the right size
 * follows the body (id 0, which perf's and perfev's readers take as "the
 * first event").
 */
#ifndef PERFEV_SYNTH_H
#define PERFEV_SYNTH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "perfev/common.h"
#include "perfev/record.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Receives one synthesized record (header included); nonzero stops and is returned. */
typedef int (*perfev_synth_fn_t)(const void *rec, size_t size, void *ctx);

/* Bytes of the sample_id trailer fmt asks for (0 without sample_id_all). */
PERFEV_API size_t perfev_sample_id__size(const struct perfev_sample_fmt *fmt);

/*
 * One process: FORK then COMM of each of its threads (from
 * /proc/PID/task; FORK with PERF_RECORD_MISC_FORK_EXEC, the leader's
 * parent its parent process, the other threads' the leader), then MMAP2 of
 * each executable mapping of /proc/PID/maps (misc PERF_RECORD_MISC_USER,
 * prot/flags from the maps line; the file's build id when it can be read,
 * in the build-id form of MMAP2, else device and inode; "[vdso]" and
 * anonymous code ("//anon") without one).  pid may be any thread's id:
 * its whole process is synthesized.
 *
 * Returns 0, or the callback's nonzero value, or a negative error.  A
 * process that vanished meanwhile is not a failure: -ESRCH is returned so
 * the caller can skip it quietly.  -EACCES when its maps are not ours to
 * read (its FORK and COMM went out before).
 */
PERFEV_API int perfev_synth__process(const struct perfev_sample_fmt *fmt, pid_t pid,
				     perfev_synth_fn_t fn, void *ctx);
/*
 * Every process in /proc, with perfev_synth__process(); processes that
 * vanish or whose maps cannot be read (-EACCES) are skipped, any other
 * error stops the walk.  A file's build id is read once per call, however
 * many processes map it.
 */
PERFEV_API int perfev_synth__all(const struct perfev_sample_fmt *fmt, perfev_synth_fn_t fn,
				 void *ctx);
/*
 * The kernel: an MMAP of "[kernel.kallsyms]_text" (pid -1, tid 0, misc
 * PERF_RECORD_MISC_KERNEL, from _text to the end of the address space with
 * pgoff _text's address, as perf lays it out; "_stext" when there is no
 * _text) and one MMAP per module of /proc/modules, in address order, named
 * by its file under /lib/modules/RELEASE when modules.dep has it, else
 * "[name]".  -EACCES with an explanation when kptr_restrict hides the
 * addresses (they read as 0).
 */
PERFEV_API int perfev_synth__kernel(const struct perfev_sample_fmt *fmt, perfev_synth_fn_t fn,
				    void *ctx);

/* One line of /proc/PID/maps. */
struct perfev_proc_map {
	uint64_t start, end, pgoff;
	uint32_t maj, min;
	uint64_t ino;
	uint32_t prot;	/* PROT_READ | PROT_WRITE | PROT_EXEC */
	uint32_t flags; /* MAP_PRIVATE or MAP_SHARED */
	const char *path; /* into the line; "" for an anonymous map */
	size_t path_len;
};
/*
 * Parses one line (len bytes, no NUL needed, a trailing newline allowed;
 * never reads past len).  -PERFEV_ERR_FORMAT naming the column for
 * anything malformed: hex fields that are empty, too long or not hex,
 * start not below end, perms other than exactly [r-][w-][x-][ps], a NUL in
 * the path.  The path runs to the end of the line, spaces and
 * " (deleted)" included.
 */
PERFEV_API int perfev_proc_map__parse(const char *line, size_t len, struct perfev_proc_map *out);

/*
 * The GNU build id of an ELF file (its NT_GNU_BUILD_ID note, found through
 * the PT_NOTE program headers, else the SHT_NOTE sections; 32 or 64-bit,
 * either byte order) into id (at least 20 bytes); returns its length,
 * -ENOENT when the file has none, -ENOSPC when it is longer than size,
 * -PERFEV_ERR_FORMAT when it is not a well-formed ELF file (the error names
 * the header or note at fault).  Reads the headers and notes only.
 */
PERFEV_API int perfev_build_id__read(const char *path, uint8_t *id, size_t size);
/* The same over a file's bytes in memory. */
PERFEV_API int perfev_build_id__from_mem(const void *elf, size_t len, uint8_t *id, size_t size);
/* The build id among ELF notes as in /sys/kernel/notes (native byte order, 4-byte aligned). */
PERFEV_API int perfev_build_id__from_notes(const void *notes, size_t len, uint8_t *id,
					   size_t size);
/* The running kernel's build id, from /sys/kernel/notes. */
PERFEV_API int perfev_build_id__kernel(uint8_t *id, size_t size);
/*
 * The build id of this process's vDSO (the "[vdso]" map of every 64-bit
 * process on this kernel), as perf record writes it into the build-id
 * table for that name.
 */
PERFEV_API int perfev_build_id__vdso(uint8_t *id, size_t size);

#ifdef __cplusplus
}
#endif
#endif
