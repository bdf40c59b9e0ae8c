/* SPDX-License-Identifier: MIT */
/*
 * perfev: common definitions of the public API.
 *
 * Conventions: functions returning int give 0 (or a count) on success and a
 * negative errno on failure; functions returning a pointer give NULL and set
 * errno.  The library never prints and never exits; it reports through the
 * print callback set with perfev_set_print() and keeps a human-readable
 * explanation of the latest failure of the calling thread, which
 * perfev_last_error() returns.
 */
#ifndef PERFEV_COMMON_H
#define PERFEV_COMMON_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PERFEV_API __attribute__((visibility("default")))

#define PERFEV_VERSION_MAJOR 0
#define PERFEV_VERSION_MINOR 1
#define PERFEV_VERSION_PATCH 0

/*
 * Names perf.data gives what has no file of its own, as perf writes them:
 * the kernel's map, and what a report shows for a DSO or symbol it cannot
 * name.
 */
#define PERFEV_KERNEL_DSO_NAME "[kernel.kallsyms]"
#define PERFEV_UNKNOWN_NAME "[unknown]"
/* The longest build id (a SHA-1) MMAP2 records and perf.data carry; shorter ones are padded. */
#define PERFEV_BUILD_ID_MAX 20

/* "MAJOR.MINOR.PATCH" of the library actually loaded. */
PERFEV_API const char *perfev_version(void);

/*
 * Error codes of perfev's own, beyond errno's range.  They are returned
 * negated like errno values; perfev_strerror() names both kinds.
 */
enum perfev_errno {
	__PERFEV_ERRNO_START = 5000,
	PERFEV_ERR_SYNTAX = __PERFEV_ERRNO_START, /* malformed text (event spec, cpu list) */
	PERFEV_ERR_UNKNOWN_EVENT,		  /* no event of that name here */
	PERFEV_ERR_UNKNOWN_PMU,			  /* no PMU of that name in sysfs */
	PERFEV_ERR_FORMAT,			  /* malformed binary input (record, file) */
	PERFEV_ERR_NOTRACEFS,			  /* tracefs is not mounted */
	PERFEV_ERR_EXEC,			  /* a workload could not be started */
	__PERFEV_ERRNO_END,
};

/* Describes err (positive or negative; errno or perfev_errno) into buf. */
PERFEV_API int perfev_strerror(int err, char *buf, size_t size);

/*
 * The explanation of the latest failure in the calling thread: what failed,
 * why, and what the user can do.  Never NULL; "" when nothing failed yet.
 * Valid until the next failing perfev call in the same thread.
 */
PERFEV_API const char *perfev_last_error(void);

enum perfev_print_level {
	PERFEV_WARN,
	PERFEV_INFO,
	PERFEV_DEBUG,
};

typedef int (*perfev_print_fn_t)(enum perfev_print_level level, const char *fmt, va_list ap);

/*
 * Sets the callback the library logs through and returns the previous one.
 * The default callback drops everything.  NULL silences the library.
 */
PERFEV_API perfev_print_fn_t perfev_set_print(perfev_print_fn_t fn);

#ifdef __cplusplus
}
#endif
#endif
