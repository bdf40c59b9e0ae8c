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
