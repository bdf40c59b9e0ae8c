/* SPDX-License-Identifier: MIT */
/*
 * perfev: DWARF unwinding of user stacks sampled with --call-graph dwarf
 * (PERF_SAMPLE_REGS_USER and PERF_SAMPLE_STACK_USER), with elfutils' libdw.
 *
 * The unwinder reads CFI (.eh_frame, .debug_frame of the file or its debug
 * file) of the files mapped at the time of the sample, which the caller
 * gives through a callback, and memory from the sampled stack copy (and
 * from the mapped files for addresses outside it).  It keeps one libdw
 * session per process, so each file is opened once per process however
 * many samples are unwound.
 *
 * x86_64 only for now; other architectures' registers give -EOPNOTSUPP.
 *
 * Maps whose path starts with '[' ([vdso], [stack]...) or is empty are not
 * files and are not read; a caller holding a copy of the vDSO can give its
 * path instead.  At most 32 processes are kept (each keeps its files open),
 * the least recently unwound dropped first.  An unwinder is not
 * thread-safe: use one per thread.
 */
#ifndef PERFEV_UNWIND_H
#define PERFEV_UNWIND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "perfev/common.h"
#include "perfev/record.h"

#ifdef __cplusplus
extern "C" {
#endif

struct perfev_unwinder;

/* A file mapping of the sampled process. */
struct perfev_unwind_map {
	uint64_t start, end; /* [start, end) */
	uint64_t pgoff;	     /* file offset of start */
	const char *path;    /* the file to read (after any root or build-id lookup) */
};

/*
 * Finds the mapping holding addr in the sampled process at the sample's
 * time: 0 with *map filled, or -ENOENT.
 */
typedef int (*perfev_unwind_find_map_fn)(void *ctx, uint64_t addr, struct perfev_unwind_map *map);

struct perfev_unwinder_opts {
	size_t sz; /* sizeof(struct perfev_unwinder_opts) */
	/* Directories libdw searches for separate debug files; NULL: its default (/usr/lib/debug). */
	const char *debuginfo_path;
	size_t :0;
};

PERFEV_API struct perfev_unwinder *perfev_unwinder__new(const struct perfev_unwinder_opts *opts);
PERFEV_API void perfev_unwinder__delete(struct perfev_unwinder *u);

/*
 * Unwinds the user stack of sample s (it needs regs_user with the x86_64
 * registers IP, SP and BP at least, and stack_user) of process pid.
 * Writes the return addresses, innermost first (ips[0] is the sampled IP;
 * the others are return addresses as found, not adjusted), up to max;
 * returns how many were written.  An unwind that stops early is not an
 * error: the frames found so far are returned.  Errors: -EINVAL when s has
 * no user registers or stack, -EOPNOTSUPP for another architecture's
 * registers, -ENOMEM.
 */
PERFEV_API int perfev_unwinder__unwind(struct perfev_unwinder *u, int pid,
				       const struct perfev_sample *s,
				       perfev_unwind_find_map_fn find_map, void *ctx, uint64_t *ips,
				       size_t max);

/* Drops what is kept for pid (it exited or exec'd: its mappings are gone). */
PERFEV_API void perfev_unwinder__forget(struct perfev_unwinder *u, int pid);

#ifdef __cplusplus
}
#endif
#endif
