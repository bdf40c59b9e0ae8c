/* SPDX-License-Identifier: MIT */
/* perfev: the CPUs and threads events are opened on. */
#ifndef PERFEV_CPUMAP_H
#define PERFEV_CPUMAP_H

#include <sys/types.h>

#include "perfev/common.h"

#ifdef __cplusplus
extern "C" {
#endif

struct perfev_cpu_map;
struct perfev_thread_map;

/*
 * A CPU list such as "0-3,8,10-11" (sorted, duplicates dropped), or the
 * online CPUs when list is NULL.  NULL with errno set on malformed text
 * (perfev_last_error() names the offset) or CPUs that don't exist.
 */
PERFEV_API struct perfev_cpu_map *perfev_cpu_map__new(const char *list);
/* The one-entry map {-1}: "any CPU", for per-thread events. */
PERFEV_API struct perfev_cpu_map *perfev_cpu_map__new_any(void);
PERFEV_API void perfev_cpu_map__delete(struct perfev_cpu_map *map);
PERFEV_API int perfev_cpu_map__nr(const struct perfev_cpu_map *map);
PERFEV_API int perfev_cpu_map__cpu(const struct perfev_cpu_map *map, int idx);
/*
 * Parses a CPU list into cpus (up to max entries, sorted and unique);
 * returns how many, or a negative error for malformed text or a CPU number
 * of 2^20 or more.
 */
PERFEV_API int perfev_cpu_list__parse(const char *list, int *cpus, int max);

/* Where a CPU sits, as perf stat's --per-socket, --per-die, --per-core and --per-node group CPUs. */
struct perfev_cpu_topology {
	int socket; /* physical package; 0 where the kernel gives none (-1) */
	int die;    /* die of the package; 0 where the kernel has no dies (before Linux 5.2) */
	int core;   /* core of the die (hyperthreads share it); the CPU itself where unknown */
	int node;   /* NUMA node; 0 without NUMA */
};
/*
 * Fills t with CPU cpu's place from /sys/devices/system/cpu/cpuN/topology
 * and its node link.  0, or -ENOENT when sysfs has no such CPU, another
 * -errno when it cannot be read, -PERFEV_ERR_SYNTAX for a file that is not
 * a number; perfev_last_error() says which.
 */
PERFEV_API int perfev_cpu__topology(int cpu, struct perfev_cpu_topology *t);

/* The threads of process pid now (from /proc/PID/task), or just pid when !all. */
PERFEV_API struct perfev_thread_map *perfev_thread_map__new(pid_t pid, int all);
/* The one-entry map {-1}: "any thread", for system-wide events. */
PERFEV_API struct perfev_thread_map *perfev_thread_map__new_any(void);
PERFEV_API void perfev_thread_map__delete(struct perfev_thread_map *map);
PERFEV_API int perfev_thread_map__nr(const struct perfev_thread_map *map);
PERFEV_API pid_t perfev_thread_map__tid(const struct perfev_thread_map *map, int idx);

#ifdef __cplusplus
}
#endif
#endif
