/* SPDX-License-Identifier: MIT */
/* Definitions shared by the library's files; never installed. */
#ifndef PERFEV_INTERNAL_H
#define PERFEV_INTERNAL_H

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "perfev/common.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
/* Whether string s starts with the string literal lit (its length from sizeof). */
#define STARTS_WITH(s, lit) (strncmp((s), "" lit, sizeof(lit) - 1) == 0)

/*
 * Names MMAP records give maps without a file: perf's for anonymous memory,
 * the kernel's for shared anonymous memory and memfd_create()'s files (a
 * prefix), and perf's prefix of a guest kernel's map.
 */
#define MAP_NAME_ANON "//anon"
#define MAP_NAME_DEV_ZERO "/dev/zero"
#define MAP_NAME_MEMFD "/memfd:"
#define MAP_NAME_GUEST_KERNEL "[guest.kernel.kallsyms"
#define PRINTF_LIKE(f, a) __attribute__((format(printf, f, a)))

void pr_log(enum perfev_print_level level, const char *fmt, ...) PRINTF_LIKE(2, 3);
#define pr_warn(...) pr_log(PERFEV_WARN, __VA_ARGS__)
#define pr_info(...) pr_log(PERFEV_INFO, __VA_ARGS__)
#define pr_debug(...) pr_log(PERFEV_DEBUG, __VA_ARGS__)

/*
 * Records the explanation perfev_last_error() returns and gives back -err
 * (err positive), so a failure path reads: return set_error(ENOENT, "...").
 */
int set_error(int err, const char *fmt, ...) PRINTF_LIKE(2, 3);
/* Appends to the current explanation (e.g. a hint after the cause). */
void append_error(const char *fmt, ...) PRINTF_LIKE(1, 2);
/* Like set_error() but for pointer-returning functions: sets errno, returns NULL. */
void *set_error_ptr(int err, const char *fmt, ...) PRINTF_LIKE(2, 3);

/*
 * Makes room for need elements of elem bytes in *arr, whose capacity *cap
 * is doubled (from 16) until it holds them; false (nothing changed) when
 * the size would overflow or memory runs out.
 */
bool array_grow_slow(void **arr, size_t *cap, size_t need, size_t elem);
/* Inline where there is room already, as there nearly always is: it runs per record and frame. */
static inline bool array_grow(void **arr, size_t *cap, size_t need, size_t elem)
{
	return need <= *cap || array_grow_slow(arr, cap, need, elem);
}
/*
 * A zeroed table of n elements whose big instances come with their pages in
 * place (for hash slots, read at random before written); freed only with
 * table_free() and the same n and size.
 */
void *table_calloc(size_t n, size_t size);
void table_free(void *p, size_t n, size_t size);
/*
 * Like array_grow() for an array that may grow to megabytes: past a few it
 * has a mapping of its own, grown in place; freed only with big_array_free()
 * and its capacity.
 */
bool big_array_grow_slow(void **arr, size_t *cap, size_t need, size_t elem);
/* Inline where there is room already: it runs per frame numbered and per node added. */
static inline bool big_array_grow(void **arr, size_t *cap, size_t need, size_t elem)
{
	return need <= *cap || big_array_grow_slow(arr, cap, need, elem);
}
void big_array_free(void *arr, size_t cap, size_t elem);

/*
 * Test hook: /proc, /sys and /lib/modules are read under root instead of
 * "/" (NULL or "" for the real ones), so tests can feed kallsyms as a
 * kptr_restrict'ed kernel shows it.  Not thread-safe; tests only.
 */
void sys_root__set(const char *root);
/* root + path (path absolute) into buf; truncation makes the path fail to open. */
void sys_root__path(char *buf, size_t size, const char *path);

/* Reads a whole small text file (sysfs, procfs) into buf; returns length or -errno. */
int read_text_file(const char *path, char *buf, size_t size);
/*
 * Reads fd to its end into *buf (grown with realloc as needed, *cap its
 * size; reusable across calls), NUL-terminated; the length or -errno.
 */
ssize_t read_fd_all(int fd, char **buf, size_t *cap);
/* Reads an unsigned integer (decimal, or 0x hex) from a sysfs/procfs file. */
int read_u64_file(const char *path, uint64_t *val);

/*
 * Length (2 to 4) of the well-formed UTF-8 sequence of a multi-byte
 * character at s (n bytes left), with its code point in *cp; 0 when the
 * bytes are not one (overlong, surrogate, beyond U+10FFFF, cut short).
 */
size_t utf8_len(const unsigned char *s, size_t n, uint32_t *cp);

/* access.c: sysctls and capabilities (read under sys_root), INT_MIN when unreadable. */
#define CAP_SYSLOG_BIT 34
#define CAP_PERFMON_BIT 38
#define CAP_SYS_ADMIN_BIT 21
int sysctl_perf_paranoid(void);
int sysctl_kptr_restrict(void);
/* Whether the calling process has capability cap in its effective set. */
bool has_capability(int cap);
/*
 * Why /proc/kallsyms and the like read as address 0 for this process, and
 * what would show them here (kptr_restrict, perf_event_paranoid, CAP_SYSLOG).
 */
void explain_hidden_kptrs(char *buf, size_t size);

/* The value of a hex digit, -1 for any other byte. */
static inline int hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/*
 * qsort() and bsearch() of what may be an empty array never grown (NULL):
 * the C library declares their base nonnull even for 0 elements, and a
 * sanitized build aborts on it.  Every sort and search goes through these.
 */
static inline void sort_array(void *base, size_t n, size_t size,
			      int (*cmp)(const void *, const void *))
{
	if (n > 1)
		qsort(base, n, size, cmp);
}
static inline void *search_array(const void *key, const void *base, size_t n, size_t size,
				 int (*cmp)(const void *, const void *))
{
	return n ? bsearch(key, base, n, size, cmp) : NULL;
}

/* Overflow-checked size arithmetic. */
static inline bool size_mul_ok(size_t a, size_t b, size_t *res)
{
	return !__builtin_mul_overflow(a, b, res);
}
static inline bool size_add_ok(size_t a, size_t b, size_t *res)
{
	return !__builtin_add_overflow(a, b, res);
}

#endif
