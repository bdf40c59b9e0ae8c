// SPDX-License-Identifier: MIT
/*
 * The JSON writer: the escaper byte by byte against the rules of
 * perfev/json.h and an independent decoder (json_check.h): every single
 * byte, every two-byte string, the edges of UTF-8 (overlong, surrogates,
 * past U+10FFFF, cut short), the HTML-safe form, NUL bytes; random strings
 * round-trip; and the writer's commas, nesting, pretty form and errors.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "perfev/json.h"
#include "json_check.h"

/* s (n bytes) escaped with flags, into a fresh buffer; *len its length. */
static char *esc(const char *s, size_t n, unsigned flags, size_t *len)
{
	size_t need = perfev_json_escape(NULL, 0, s, n, flags);
	char *buf = malloc(need + 1);

	assert_non_null(buf);
	assert_int_equal(perfev_json_escape(buf, need + 1, s, n, flags), need);
	assert_int_equal(strlen(buf), need);
	if (len)
		*len = need;
	return buf;
}

static void expect(const char *in, size_t n, unsigned flags, const char *want)
{
	char *got = esc(in, n, flags, NULL);

	if (strcmp(got, want))
		fail_msg("escaped %zu bytes to %s, expected %s", n, got, want);
	free(got);
}

/* The escaped form decodes, strictly, to what the rules say the bytes read as. */
static void roundtrip(const unsigned char *in, size_t n, unsigned flags)
{
	size_t len;
	char *e = esc((const char *)in, n, flags, &len);
	unsigned char *dec = malloc(len + 1), *want = malloc(3 * n + 1);
	long d = jc_decode((const unsigned char *)e, len, dec, flags & PERFEV_JSON_HTML_SAFE);
	size_t w = jc_expect(in, n, want);

	if (d < 0)
		fail_msg("escaping %zu bytes (first 0x%02x) gave invalid JSON: %s", n, n ? in[0] : 0, e);
	if ((size_t)d != w || memcmp(dec, want, w))
		fail_msg("escaping %zu bytes (first 0x%02x) decodes to other text: %s", n, n ? in[0] : 0, e);
	free(e);
	free(dec);
	free(want);
}

static void test_every_byte(void **state)
{
	char want[16];

	(void)state;
	for (unsigned c = 0; c < 256; c++) {
		char b = (char)c;

		if (c == '"')
			strcpy(want, "\"\\\"\"");
		else if (c == '\\')
			strcpy(want, "\"\\\\\"");
		else if (c == '\n' || c == '\t' || c == '\r' || c == '\b' || c == '\f')
			snprintf(want, sizeof(want), "\"\\%c\"",
				 c == '\n' ? 'n' : c == '\t' ? 't' : c == '\r' ? 'r' : c == '\b' ? 'b' : 'f');
		else if (c < 0x20 || c == 0x7f)
			snprintf(want, sizeof(want), "\"\\u%04x\"", c);
		else if (c >= 0x80)
			strcpy(want, "\"\\ufffd\""); /* alone, no byte above 0x7f is UTF-8 */
		else
			snprintf(want, sizeof(want), "\"%c\"", c);
		expect(&b, 1, 0, want);
		roundtrip((const unsigned char *)&b, 1, 0);
		roundtrip((const unsigned char *)&b, 1, PERFEV_JSON_HTML_SAFE);
	}
}

static void test_every_pair(void **state)
{
	(void)state;
	for (unsigned a = 0; a < 256; a++)
		for (unsigned b = 0; b < 256; b++) {
			unsigned char s[2] = { (unsigned char)a, (unsigned char)b };

			roundtrip(s, 2, 0);
		}
}

static void test_utf8_edges(void **state)
{
	(void)state;
	expect("h\xc3\xa9llo", 6, 0, "\"h\xc3\xa9llo\"");			/* U+00E9 kept */
	expect("\xe2\x82\xac", 3, 0, "\"\xe2\x82\xac\"");			/* U+20AC */
	expect("\xf0\x9f\x94\xa5", 4, 0, "\"\xf0\x9f\x94\xa5\"");		/* U+1F525 */
	expect("\xf4\x8f\xbf\xbf", 4, 0, "\"\xf4\x8f\xbf\xbf\"");		/* U+10FFFF, the last */
	expect("\xc0\xaf", 2, 0, "\"\\ufffd\\ufffd\"");			/* overlong '/' */
	expect("\xe0\x80\xaf", 3, 0, "\"\\ufffd\\ufffd\\ufffd\"");		/* overlong, 3 bytes */
	expect("\xed\xa0\x80", 3, 0, "\"\\ufffd\\ufffd\\ufffd\"");		/* a surrogate */
	expect("\xf4\x90\x80\x80", 4, 0, "\"\\ufffd\\ufffd\\ufffd\\ufffd\""); /* past U+10FFFF */
	expect("a\xe2\x82", 3, 0, "\"a\\ufffd\\ufffd\"");			/* cut short */
	expect("\xe2\x82z", 3, 0, "\"\\ufffd\\ufffdz\"");			/* broken by ASCII */
	expect("\x80\xc3\xa9", 3, 0, "\"\\ufffd\xc3\xa9\"");		/* stray continuation, then é */
	expect("x\0y", 3, 0, "\"x\\u0000y\"");				/* NUL inside */
	expect("\xe2\x80\xa8", 3, 0, "\"\xe2\x80\xa8\"");			/* U+2028 is valid JSON */
	expect(NULL, 5, 0, "\"\"");
}

static void test_html_safe(void **state)
{
	(void)state;
	expect("</script><!--&", 14, PERFEV_JSON_HTML_SAFE,
	       "\"\\u003c/script\\u003e\\u003c!--\\u0026\"");
	expect("a\xe2\x80\xa8" "b\xe2\x80\xa9", 8, PERFEV_JSON_HTML_SAFE, "\"a\\u2028b\\u2029\"");
	expect("<&>", 3, 0, "\"<&>\"");
}

static void test_random_roundtrip(void **state)
{
	unsigned char s[64];
	unsigned seed = 12345;

	(void)state;
	for (int i = 0; i < 20000; i++) {
		size_t n = (size_t)(rand_r(&seed) % (int)sizeof(s));

		for (size_t k = 0; k < n; k++) {
			/* Mostly the bytes that make UTF-8, so that valid sequences come up too. */
			int r = rand_r(&seed);

			s[k] = r % 4 ? (unsigned char)(0x80 + r % 0x80) : (unsigned char)r;
		}
		roundtrip(s, n, i % 2 ? PERFEV_JSON_HTML_SAFE : 0);
	}
}

static void test_escape_buffer(void **state)
{
	char buf[8];

	(void)state;
	/* "ab\n" is "\"ab\\n\"": 6 bytes, which fit in 7 with the NUL. */
	assert_int_equal(perfev_json_escape(buf, 7, "ab\n", 3, 0), 6);
	assert_string_equal(buf, "\"ab\\n\"");
	/* In 6 it does not fit whole: nothing of it is given. */
	assert_int_equal(perfev_json_escape(buf, 6, "ab\n", 3, 0), 6);
	assert_string_equal(buf, "");
	assert_int_equal(perfev_json_escape(NULL, 0, "ab\n", 3, 0), 6);
}

/* Runs fn over a writer with flags into memory; the text written, and delete's result. */
static char *written(void (*fn)(struct perfev_json *), unsigned flags, int *err)
{
	char *text = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&text, &size);
	struct perfev_json *j;

	assert_non_null(f);
	j = perfev_json__new(f, flags);
	assert_non_null(j);
	fn(j);
	*err = perfev_json__delete(j);
	fclose(f);
	return text;
}

static void doc(struct perfev_json *j)
{
	perfev_json__obj_begin(j, NULL);
	perfev_json__str(j, "name", "a\"b");
	perfev_json__u64(j, "n", 18446744073709551615ull);
	perfev_json__i64(j, "i", -5);
	perfev_json__double(j, "d", 0.5);
	perfev_json__double(j, "nan", NAN);
	perfev_json__bool(j, "b", true);
	perfev_json__null(j, "z");
	perfev_json__arr_begin(j, "list");
	perfev_json__u64(j, NULL, 1);
	perfev_json__obj_begin(j, NULL);
	perfev_json__obj_end(j);
	perfev_json__strn(j, NULL, "x\0", 2);
	perfev_json__arr_end(j);
	perfev_json__arr_begin(j, "empty");
	perfev_json__arr_end(j);
	perfev_json__obj_end(j);
}

static void unbalanced(struct perfev_json *j)
{
	perfev_json__obj_begin(j, NULL);
	perfev_json__arr_begin(j, "a");
	perfev_json__obj_end(j);
}

static void too_many_ends(struct perfev_json *j)
{
	perfev_json__arr_begin(j, NULL);
	perfev_json__arr_end(j);
	perfev_json__arr_end(j);
}

static void too_deep(struct perfev_json *j)
{
	for (int i = 0; i < 300; i++)
		perfev_json__arr_begin(j, NULL);
	for (int i = 0; i < 300; i++)
		perfev_json__arr_end(j);
}

static void test_writer(void **state)
{
	int err;
	char *t;

	(void)state;
	t = written(doc, 0, &err);
	assert_int_equal(err, 0);
	assert_string_equal(t, "{\"name\":\"a\\\"b\",\"n\":18446744073709551615,\"i\":-5,\"d\":0.5,"
			       "\"nan\":null,\"b\":true,\"z\":null,\"list\":[1,{},\"x\\u0000\"],"
			       "\"empty\":[]}\n");
	free(t);
	t = written(doc, PERFEV_JSON_PRETTY, &err);
	assert_int_equal(err, 0);
	assert_string_equal(t, "{\n  \"name\": \"a\\\"b\",\n  \"n\": 18446744073709551615,\n  \"i\": -5,\n"
			       "  \"d\": 0.5,\n  \"nan\": null,\n  \"b\": true,\n  \"z\": null,\n"
			       "  \"list\": [\n    1,\n    {},\n    \"x\\u0000\"\n  ],\n  \"empty\": []\n}\n");
	free(t);
	free(written(unbalanced, 0, &err));
	assert_int_equal(err, -EINVAL);
	free(written(too_many_ends, 0, &err));
	assert_int_equal(err, -EINVAL);
	free(written(too_deep, 0, &err));
	assert_int_equal(err, -EINVAL);
	assert_non_null(strstr(perfev_last_error(), "not closed"));
}

static void test_write_error(void **state)
{
	FILE *f = fopen("/dev/full", "w");
	struct perfev_json *j;

	(void)state;
	if (!f) {
		skip();
		return;
	}
	j = perfev_json__new(f, 0);
	assert_non_null(j);
	for (int i = 0; i < 10000; i++)
		perfev_json__str(j, NULL, "a string long enough to fill stdio's buffer");
	assert_int_equal(perfev_json__delete(j), -ENOSPC);
	assert_non_null(strstr(perfev_last_error(), "writing failed"));
	fclose(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_byte),	 cmocka_unit_test(test_every_pair),
		cmocka_unit_test(test_utf8_edges),	 cmocka_unit_test(test_html_safe),
		cmocka_unit_test(test_random_roundtrip), cmocka_unit_test(test_escape_buffer),
		cmocka_unit_test(test_writer),		 cmocka_unit_test(test_write_error),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
