// SPDX-License-Identifier: MIT
/*
 * perfev report's row order (src/cli/report_sort.c) against the plain
 * definition: weight, then self, descending; then each key's text by strcmp;
 * then the row's place.  The texts are made to stress the shortcuts: equal
 * texts at different addresses, texts sharing their first 16 or 24 bytes
 * (the part held in the sorted record) or more, texts just shorter or
 * longer than that, and prefixes of one another.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "../src/cli/report.h"

static const enum report_key *cmp_keys;
static int cmp_nr;
static const struct report_row *cmp_rows;

static int plain_cmp(const void *a, const void *b)
{
	const struct report_row *x = &cmp_rows[*(const uint32_t *)a], *y = &cmp_rows[*(const uint32_t *)b];

	if (x->v != y->v)
		return x->v > y->v ? -1 : 1;
	if (x->self != y->self)
		return x->self > y->self ? -1 : 1;
	for (int i = 0; i < cmp_nr; i++) {
		int r = strcmp(x->text[cmp_keys[i]], y->text[cmp_keys[i]]);

		if (r)
			return r;
	}
	return *(const uint32_t *)a < *(const uint32_t *)b ? -1 : 1;
}

static uint64_t rnd(uint64_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return *x;
}

static void check_order(size_t n, const enum report_key *keys, int nr, uint64_t seed)
{
	static const char *const pool[] = {
		"[.] 0x00007f0000000010", "[.] 0x00007f0000000002", "[.] 0x00007f000000001",
		"[.] 0x00007f00", "[.] 0x00007f0", "[k] do_syscall_64", "[.] main", "",
		"[.] llvm::SmallVectorImpl<char>::append", "[.] llvm::SmallVectorImpl<int>::append",
		"[.] llvm::SmallVectorImpl<char>::appen", "clang", "cc1", "libLLVM-14.so.1",
		"[unknown]", "0123456789abcdef", "0123456789abcdeg", "0123456789abcdef0",
		"[.] 0x0000000001a749e1", "[.] 0x0000000001a749e2", "01234567890123456789012",
		"012345678901234567890123", "012345678901234567890124", "0123456789012345678901234",
		"0123456789012345678901235", "01234567890123456789012345678901234567",
		"01234567890123456789012345678901234568",
	};
	size_t np = sizeof(pool) / sizeof(pool[0]);
	struct report_row *rows = calloc(n, sizeof(*rows));
	uint32_t *got = malloc(n * sizeof(*got)), *want = malloc(n * sizeof(*want));
	char (*copies)[48] = calloc(n * NR_KEYS, sizeof(*copies));
	uint64_t x = seed;

	assert_non_null(rows);
	assert_non_null(got);
	assert_non_null(want);
	assert_non_null(copies);
	for (size_t i = 0; i < n; i++) {
		rows[i].v = 50 * (rnd(&x) % 4);
		rows[i].self = rows[i].v ? 50 * (rnd(&x) % 2) : 0;
		for (int k = 0; k < NR_KEYS; k++) {
			const char *s = pool[rnd(&x) % np];

			/* Half the texts are copies: equal strings at other addresses. */
			if (rnd(&x) % 2) {
				snprintf(copies[i * NR_KEYS + k], sizeof(copies[0]), "%s", s);
				s = copies[i * NR_KEYS + k];
			}
			rows[i].text[k] = s;
		}
		want[i] = i;
	}
	cmp_keys = keys;
	cmp_nr = nr;
	cmp_rows = rows;
	qsort(want, n, sizeof(*want), plain_cmp);
	assert_true(report_sort_rows(rows, n, keys, nr, got));
	for (size_t i = 0; i < n; i++)
		if (got[i] != want[i])
			fail_msg("rows differ at %zu of %zu: row %u, want row %u", i, n, got[i], want[i]);
	free(rows);
	free(got);
	free(want);
	free(copies);
}

static void test_default_keys(void **state)
{
	const enum report_key keys[] = { KEY_COMM, KEY_DSO, KEY_SYM };

	(void)state;
	for (size_t n = 0; n < 40; n++)
		check_order(n, keys, 3, 1 + n);
	check_order(5000, keys, 3, 99);
	/* From 16,384 rows the halves are sorted on two threads and merged. */
	for (size_t n = 16383; n <= 16385; n++)
		check_order(n, keys, 3, n);
	check_order(60001, keys, 3, 5);
}

static void test_one_key_and_many(void **state)
{
	const enum report_key one[] = { KEY_SYM };
	const enum report_key all[] = { KEY_SRCLINE, KEY_TID, KEY_SYM, KEY_PID, KEY_DSO, KEY_COMM };

	(void)state;
	check_order(3000, one, 1, 7);
	check_order(3000, all, 6, 8);
	check_order(3000, all, 0, 9); /* no keys: weight, then place */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_default_keys),
		cmocka_unit_test(test_one_key_and_many),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
