// SPDX-License-Identifier: MIT
/*
 * Libraries opened at first use (util/dynlib.h): a library that is there
 * binds its functions and is opened once; one that is missing, or lacks a
 * function, fails with a message naming the library, what it was for and
 * the package to install, every time it is asked for.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <cmocka.h>

#include "perfev/perfev.h"
#include "util/dynlib.h"

static unsigned (*zlib_compile_flags)(void);
static int binds;

static bool bind_zlib(void *h)
{
	binds++;
	zlib_compile_flags = (unsigned (*)(void))dynlib_sym(h, "zlibCompileFlags");
	return zlib_compile_flags != NULL;
}

static bool bind_missing(void *h)
{
	return dynlib_sym(h, "perfev_no_such_function") != NULL;
}

static void test_present(void **state)
{
	static struct dynlib z = DYNLIB_INIT("libz.so.1", "zlib1g", "testing", bind_zlib);

	(void)state;
	assert_true(dynlib_ready(&z));
	assert_true(dynlib_ready(&z));
	assert_int_equal(binds, 1); /* opened and bound once */
	(void)zlib_compile_flags(); /* and the function bound is callable */
}

static void test_absent(void **state)
{
	static struct dynlib x = DYNLIB_INIT("libperfev-no-such.so.9", "libperfev-nothing9",
					     "testing a missing library", bind_zlib);

	(void)state;
	for (int i = 0; i < 2; i++) {
		assert_false(dynlib_ready(&x));
		const char *e = perfev_last_error();

		assert_non_null(strstr(e, "testing a missing library needs libperfev-no-such.so.9"));
		assert_non_null(strstr(e, "libperfev-nothing9"));
	}
}

static void test_lacks_function(void **state)
{
	static struct dynlib z = DYNLIB_INIT("libz.so.1", "zlib1g", "testing", bind_missing);

	(void)state;
	assert_false(dynlib_ready(&z));
	assert_non_null(strstr(perfev_last_error(), "lacks a function"));
	assert_non_null(strstr(perfev_last_error(), "zlib1g"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_present),
		cmocka_unit_test(test_absent),
		cmocka_unit_test(test_lacks_function),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
