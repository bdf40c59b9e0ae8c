/* SPDX-License-Identifier: MIT */
/* Error codes, the per-thread failure explanation and the log callback. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "util/internal.h"

static const char *const perfev_errstr[] = {
	[PERFEV_ERR_SYNTAX - __PERFEV_ERRNO_START] = "Malformed text",
	[PERFEV_ERR_UNKNOWN_EVENT - __PERFEV_ERRNO_START] = "Unknown event",
	[PERFEV_ERR_UNKNOWN_PMU - __PERFEV_ERRNO_START] = "Unknown PMU",
	[PERFEV_ERR_FORMAT - __PERFEV_ERRNO_START] = "Malformed input data",
	[PERFEV_ERR_NOTRACEFS - __PERFEV_ERRNO_START] = "tracefs is not mounted",
	[PERFEV_ERR_EXEC - __PERFEV_ERRNO_START] = "Workload could not be started",
};

const char *perfev_version(void)
{
#define STR2(x) #x
#define STR(x) STR2(x)
	return STR(PERFEV_VERSION_MAJOR) "." STR(PERFEV_VERSION_MINOR) "." STR(PERFEV_VERSION_PATCH);
}

int perfev_strerror(int err, char *buf, size_t size)
{
	if (!buf || !size)
		return -EINVAL;
	if (err < 0)
		err = -err;
	if (err >= __PERFEV_ERRNO_START && err < __PERFEV_ERRNO_END) {
		snprintf(buf, size, "%s", perfev_errstr[err - __PERFEV_ERRNO_START]);
		return 0;
	}
	/* strerror_r's GNU variant may return a static string instead of filling buf. */
	const char *s = strerror_r(err, buf, size);
	if (s != buf)
		snprintf(buf, size, "%s", s);
	return 0;
}

static _Thread_local char last_error[1024];

const char *perfev_last_error(void)
{
	return last_error;
}

static void vset(const char *fmt, va_list ap)
{
	vsnprintf(last_error, sizeof(last_error), fmt, ap);
}

int set_error(int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vset(fmt, ap);
	va_end(ap);
	pr_debug("error: %s\n", last_error);
	return -err;
}

void *set_error_ptr(int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vset(fmt, ap);
	va_end(ap);
	pr_debug("error: %s\n", last_error);
	errno = err;
	return NULL;
}

void append_error(const char *fmt, ...)
{
	size_t len = strlen(last_error);
	va_list ap;

	if (len + 1 >= sizeof(last_error))
		return;
	va_start(ap, fmt);
	vsnprintf(last_error + len, sizeof(last_error) - len, fmt, ap);
	va_end(ap);
}

static perfev_print_fn_t print_fn;

perfev_print_fn_t perfev_set_print(perfev_print_fn_t fn)
{
	perfev_print_fn_t old = print_fn;

	print_fn = fn;
	return old;
}

void pr_log(enum perfev_print_level level, const char *fmt, ...)
{
	va_list ap;
	int saved = errno;

	if (!print_fn)
		return;
	va_start(ap, fmt);
	print_fn(level, fmt, ap);
	va_end(ap);
	errno = saved;
}
