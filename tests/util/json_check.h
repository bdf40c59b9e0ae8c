/* SPDX-License-Identifier: MIT */
/*
 * An independent reading of what the JSON escaper must produce, shared by
 * tests/util/test_json.c and fuzz/fuzz_json.c: a strict decoder of one JSON
 * string literal (RFC 8259), and the text a literal must decode to
 * (well-formed UTF-8 by the Unicode standard's table 3-7 kept, every other
 * byte one U+FFFD).  Written apart from src/lib/util/json.c on purpose.
 */
#ifndef PERFEV_TEST_JSON_CHECK_H
#define PERFEV_TEST_JSON_CHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Bytes of the well-formed sequence starting at b (n left) per table 3-7, or 0. */
static inline size_t jc_wellformed(const unsigned char *b, size_t n)
{
	static const struct {
		unsigned char lo0, hi0, lo1, hi1;
		size_t len;
	} t[] = {
		{ 0x00, 0x7f, 0, 0, 1 },	  { 0xc2, 0xdf, 0x80, 0xbf, 2 }, { 0xe0, 0xe0, 0xa0, 0xbf, 3 },
		{ 0xe1, 0xec, 0x80, 0xbf, 3 }, { 0xed, 0xed, 0x80, 0x9f, 3 }, { 0xee, 0xef, 0x80, 0xbf, 3 },
		{ 0xf0, 0xf0, 0x90, 0xbf, 4 }, { 0xf1, 0xf3, 0x80, 0xbf, 4 }, { 0xf4, 0xf4, 0x80, 0x8f, 4 },
	};
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		if (b[0] < t[i].lo0 || b[0] > t[i].hi0)
			continue;
		if (t[i].len > n)
			return 0;
		if (t[i].len > 1 && (b[1] < t[i].lo1 || b[1] > t[i].hi1))
			return 0;
		for (size_t k = 2; k < t[i].len; k++)
			if (b[k] < 0x80 || b[k] > 0xbf)
				return 0;
		return t[i].len;
	}
	return 0;
}

/* What n bytes of b must read as once escaped and decoded; into out (3 * n bytes); its length. */
static inline size_t jc_expect(const unsigned char *b, size_t n, unsigned char *out)
{
	size_t o = 0;

	for (size_t i = 0; i < n;) {
		size_t k = jc_wellformed(b + i, n - i);

		if (!k) {
			out[o++] = 0xef, out[o++] = 0xbf, out[o++] = 0xbd;
			i++;
			continue;
		}
		for (size_t m = 0; m < k; m++)
			out[o++] = b[i + m];
		i += k;
	}
	return o;
}

static inline int jc_hex(unsigned char c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10
	       : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

static inline size_t jc_put_utf8(uint32_t cp, unsigned char *out)
{
	if (cp < 0x80)
		return out[0] = (unsigned char)cp, 1;
	if (cp < 0x800)
		return out[0] = 0xc0 | (cp >> 6), out[1] = 0x80 | (cp & 0x3f), 2;
	if (cp < 0x10000)
		return out[0] = 0xe0 | (cp >> 12), out[1] = 0x80 | ((cp >> 6) & 0x3f),
		       out[2] = 0x80 | (cp & 0x3f), 3;
	return out[0] = 0xf0 | (cp >> 18), out[1] = 0x80 | ((cp >> 12) & 0x3f),
	       out[2] = 0x80 | ((cp >> 6) & 0x3f), out[3] = 0x80 | (cp & 0x3f), 4;
}

/*
 * Decodes the JSON string literal s[0..n) (quotes included, nothing after)
 * into out (n bytes suffice); its length, or -1 when it is not a valid
 * literal: raw control bytes, bad escapes, ill-formed UTF-8, lone
 * surrogates.  html: also no raw < > & U+2028 U+2029 (the HTML-safe form).
 */
static inline long jc_decode(const unsigned char *s, size_t n, unsigned char *out, bool html)
{
	size_t i = 1, o = 0;

	if (n < 2 || s[0] != '"' || s[n - 1] != '"')
		return -1;
	while (i < n - 1) {
		unsigned char c = s[i];

		if (c == '"' || c < 0x20)
			return -1;
		if (html && (c == '<' || c == '>' || c == '&'))
			return -1;
		if (c != '\\') {
			size_t k = jc_wellformed(s + i, n - 1 - i);

			if (!k || (html && k == 3 && s[i] == 0xe2 && s[i + 1] == 0x80 &&
				   (s[i + 2] == 0xa8 || s[i + 2] == 0xa9)))
				return -1;
			for (size_t m = 0; m < k; m++)
				out[o++] = s[i + m];
			i += k;
			continue;
		}
		if (++i >= n - 1)
			return -1;
		switch (s[i++]) {
		case '"': out[o++] = '"'; break;
		case '\\': out[o++] = '\\'; break;
		case '/': out[o++] = '/'; break;
		case 'b': out[o++] = '\b'; break;
		case 'f': out[o++] = '\f'; break;
		case 'n': out[o++] = '\n'; break;
		case 'r': out[o++] = '\r'; break;
		case 't': out[o++] = '\t'; break;
		case 'u': {
			uint32_t cp = 0;

			if (i + 4 > n - 1)
				return -1;
			for (int k = 0; k < 4; k++) {
				int h = jc_hex(s[i++]);

				if (h < 0)
					return -1;
				cp = cp << 4 | (uint32_t)h;
			}
			if (cp >= 0xdc00 && cp <= 0xdfff)
				return -1;
			if (cp >= 0xd800 && cp <= 0xdbff) {
				uint32_t lo = 0;

				if (i + 6 > n - 1 || s[i] != '\\' || s[i + 1] != 'u')
					return -1;
				i += 2;
				for (int k = 0; k < 4; k++) {
					int h = jc_hex(s[i++]);

					if (h < 0)
						return -1;
					lo = lo << 4 | (uint32_t)h;
				}
				if (lo < 0xdc00 || lo > 0xdfff)
					return -1;
				cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
			}
			o += jc_put_utf8(cp, out + o);
			break;
		}
		default:
			return -1;
		}
	}
	return (long)o;
}

#endif
