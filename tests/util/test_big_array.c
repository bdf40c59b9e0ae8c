// SPDX-License-Identifier: MIT
/*
 * big_array_grow(): an array grown element by element past the size at
 * which it moves into a mapping of its own (and past several doublings
 * there) keeps every element it held, at every step; freed with its
 * capacity.  Under the sanitizers it stays on the heap, checked the same way.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "util/internal.h"

static void test_grow_keeps_elements(void **state)
{
	uint32_t *a = NULL;
	size_t cap = 0, n = (size_t)6 << 20; /* 24 MiB of elements */

	(void)state;
	for (size_t i = 0; i < n; i++) {
		size_t before = cap;

		assert_true(big_array_grow((void **)&a, &cap, i + 1, sizeof(*a)));
		assert_true(cap >= i + 1);
		if (cap != before) /* each move: what was there is there still */
			for (size_t j = 0; j < i; j += 4093)
				assert_int_equal(a[j], (uint32_t)(j * 2654435761u));
		a[i] = (uint32_t)(i * 2654435761u);
	}
	for (size_t j = 0; j < n; j++)
		if (a[j] != (uint32_t)(j * 2654435761u))
			fail_msg("element %zu lost", j);
	assert_true(big_array_grow((void **)&a, &cap, 10, sizeof(*a))); /* no shrink */
	assert_true(cap >= n);
	big_array_free(a, cap, sizeof(*a));
}

static void test_small_and_overflow(void **state)
{
	uint64_t *a = NULL;
	size_t cap = 0;

	(void)state;
	assert_true(big_array_grow((void **)&a, &cap, 3, sizeof(*a)));
	a[2] = 7;
	assert_false(big_array_grow((void **)&a, &cap, SIZE_MAX / 4, sizeof(*a)));
	assert_int_equal(a[2], 7); /* a failed growth leaves the array as it was */
	big_array_free(a, cap, sizeof(*a));
	big_array_free(NULL, 0, sizeof(*a));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_grow_keeps_elements),
		cmocka_unit_test(test_small_and_overflow),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
