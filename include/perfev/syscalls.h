/* SPDX-License-Identifier: MIT */
/*
 * perfev: system calls by name, and per-thread syscall statistics from the
 * raw_syscalls:sys_enter and raw_syscalls:sys_exit tracepoints, as perf
 * trace -s shows them.
 *
 * The tracepoints carry a syscall's number, not its name: the names come
 * from tables made when the library is built, from the kernel's own
 * headers (asm/unistd_64.h, asm/unistd_32.h, asm-generic/unistd.h), one
 * per architecture, chosen by the recording's architecture (perf.data's
 * HEADER_ARCH, uname -m).
 *
 *	struct perfev_syscall_stats *st = perfev_syscall_stats__new("x86_64");
 *	// for each sample, in time order:
 *	perfev_syscall_stats__sample(st, format, pid, tid, time, raw, raw_size);
 *	for (size_t i = 0; i < perfev_syscall_stats__nr_threads(st); i++) {
 *		const struct perfev_syscall_thread *t = perfev_syscall_stats__thread(st, i);
 *		...
 *	}
 *	perfev_syscall_stats__delete(st);
 *
 * A call is counted when it returns (its sys_exit), as strace -c counts: a
 * call that never returns (exit_group) is not a call; one whose entry was
 * not seen (the execve that started tracing) is, with a latency of 0, but
 * not the return of clone, clone3, fork or vfork in the new thread, which
 * never entered it.  An error is a return value from -4095 to -1, as the
 * kernel encodes errors.
 */
#ifndef PERFEV_SYSCALLS_H
#define PERFEV_SYSCALLS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "perfev/common.h"
#include "perfev/tracefmt.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * The name of syscall nr on arch ("x86_64", "i386" or "i686", "aarch64" or
 * "arm64", and the other asm-generic ones such as "riscv64"; NULL: this
 * machine's), or NULL when the table has no such number or the library
 * has no table for arch.
 */
PERFEV_API const char *perfev_syscall__name(const char *arch, long nr);
/* The number of syscall name on arch, or -ENOENT (unknown name), -EOPNOTSUPP (no table for arch). */
PERFEV_API long perfev_syscall__nr(const char *arch, const char *name);
/* Whether the library has a syscall table for arch (NULL: this machine). */
PERFEV_API bool perfev_syscall__have_arch(const char *arch);

/* One syscall's figures in one thread; times in nanoseconds. */
struct perfev_syscall_stat {
	long nr;
	uint64_t calls;	 /* returns seen */
	uint64_t errors; /* returns of -4095..-1 */
	uint64_t total_ns, min_ns, max_ns;
	double mean_ns, m2; /* running mean and sum of squared deviations (Welford) */
};

/*
 * The relative standard deviation of the mean, in percent, as perf trace
 * -s prints it (100 * sqrt(variance / calls) / mean; 0 for fewer than 2
 * calls or a mean of 0).
 */
PERFEV_API double perfev_syscall_stat__stddev_pct(const struct perfev_syscall_stat *s);

struct perfev_syscall_thread {
	int pid, tid;
	const char *comm;    /* the last name given to it, or NULL */
	uint64_t nr_events;  /* sys_enter and sys_exit events of this thread */
	size_t nr_syscalls;
	const struct perfev_syscall_stat *syscalls; /* by syscall number */
};

struct perfev_syscall_stats;

/* For syscalls numbered as on arch (NULL: this machine); NULL with errno ENOMEM. */
PERFEV_API struct perfev_syscall_stats *perfev_syscall_stats__new(const char *arch);
/* Accepts NULL. */
PERFEV_API void perfev_syscall_stats__delete(struct perfev_syscall_stats *st);

/* A thread entered syscall nr at time (ns). 0 or -ENOMEM. */
PERFEV_API int perfev_syscall_stats__enter(struct perfev_syscall_stats *st, int pid, int tid,
					   uint64_t time, long nr);
/* A thread returned ret from syscall nr at time. 0 or -ENOMEM. */
PERFEV_API int perfev_syscall_stats__exit(struct perfev_syscall_stats *st, int pid, int tid,
					  uint64_t time, long nr, long ret);
/*
 * A tracepoint sample's raw bytes (untrusted) with their event's format:
 * raw_syscalls:sys_enter and sys_exit are counted, its fields "id" and
 * "ret" read as the format lays them out.  1 when counted, 0 when the
 * format is another event's, -PERFEV_ERR_FORMAT when the format lacks
 * the fields or the record is too short for them, -ENOMEM.
 */
PERFEV_API int perfev_syscall_stats__sample(struct perfev_syscall_stats *st,
					    const struct perfev_tp_format *f, int pid, int tid,
					    uint64_t time, const void *raw, size_t size);
/* Names thread tid (a COMM record, or what /proc says); comm is copied.  0 or -ENOMEM. */
PERFEV_API int perfev_syscall_stats__comm(struct perfev_syscall_stats *st, int pid, int tid,
					  const char *comm);
/* Thread tid was created by ptid (a FORK record): it takes its creator's name.  0 or -ENOMEM. */
PERFEV_API int perfev_syscall_stats__fork(struct perfev_syscall_stats *st, int ptid, int pid,
					  int tid);

/*
 * The threads that made a syscall, in the order perf trace -s prints them
 * (most events first, then by tid), their syscalls by total time, the
 * longest first (then by number).  Valid until the next change of st.
 */
PERFEV_API size_t perfev_syscall_stats__nr_threads(struct perfev_syscall_stats *st);
PERFEV_API const struct perfev_syscall_thread *
perfev_syscall_stats__thread(struct perfev_syscall_stats *st, size_t i);
/* Every event counted, of all threads (the denominator of perf trace's per-thread share). */
PERFEV_API uint64_t perfev_syscall_stats__nr_events(const struct perfev_syscall_stats *st);

#ifdef __cplusplus
}
#endif
#endif
