/*
 * The JSON escaper takes untrusted bytes (symbol and command names of the
 * recorded program).  The first byte picks the flags; the rest is escaped,
 * both to a FILE and into a buffer, and must be the same valid JSON string
 * literal, decoding (tests/util/json_check.h, written apart from the
 * escaper) to the input with each ill-formed byte as U+FFFD.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perfev/perfev.h"
#include "../tests/util/json_check.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	unsigned flags;
	char *text = NULL, *buf;
	size_t len = 0, need;
	unsigned char *dec, *want;
	FILE *f;
	long d;

	if (!size)
		return 0;
	flags = data[0] & (PERFEV_JSON_PRETTY | PERFEV_JSON_HTML_SAFE);
	data++, size--;
	f = open_memstream(&text, &len);
	if (!f)
		return 0;
	perfev_json_write_string(f, (const char *)data, size, flags);
	fclose(f);
	need = perfev_json_escape(NULL, 0, (const char *)data, size, flags);
	buf = malloc(need + 1);
	dec = malloc(len + 1);
	want = malloc(3 * size + 1);
	if (!buf || !dec || !want)
		__builtin_trap();
	if (need != len || perfev_json_escape(buf, need + 1, (const char *)data, size, flags) != need ||
	    memcmp(buf, text, len))
		__builtin_trap();
	d = jc_decode((const unsigned char *)text, len, dec, flags & PERFEV_JSON_HTML_SAFE);
	if (d < 0 || (size_t)d != jc_expect(data, size, want) || memcmp(dec, want, (size_t)d))
		__builtin_trap();
	free(text);
	free(buf);
	free(dec);
	free(want);
	return 0;
}
