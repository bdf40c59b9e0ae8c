/* SPDX-License-Identifier: MIT */
/*
 * perfev: the JSON writer every JSON output of perfev goes through (stat
 * --json, list --json, the profile exports), for programs that write JSON
 * next to ours.  Commas and nesting are tracked; strings always come out as
 * valid UTF-8 with no raw control byte, whatever bytes they were given
 * (symbol names and command names are the recorded program's bytes).
 *
 *	struct perfev_json *j = perfev_json__new(stdout, 0);
 *	perfev_json__obj_begin(j, NULL);
 *	perfev_json__str(j, "name", sym->name);
 *	perfev_json__u64(j, "samples", n);
 *	perfev_json__obj_end(j);
 *	err = perfev_json__delete(j);		// 0, or what went wrong
 *
 * The escaper, exactly:
 *	"  \  -> \"  \\
 *	newline, tab, carriage return, backspace, form feed -> \n \t \r \b \f
 *	other bytes below 0x20, and 0x7f -> \u00XX (lower-case hex)
 *	valid UTF-8 sequences (RFC 3629: shortest form, no surrogates, at most
 *	U+10FFFF) -> copied as they are
 *	any other byte (a stray continuation byte, a truncated or overlong
 *	sequence, a surrogate, beyond U+10FFFF) -> \ufffd, the replacement
 *	character, one per byte, and the next byte is looked at afresh
 * With PERFEV_JSON_HTML_SAFE also < > & -> \u003c \u003e \u0026 and
 * U+2028, U+2029 -> \u2028 \u2029, so the text can sit inside an HTML
 * <script> element (no "</script>" or "<!--" in it) and is valid
 * JavaScript too.
 */
#ifndef PERFEV_JSON_H
#define PERFEV_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "perfev/common.h"

#ifdef __cplusplus
extern "C" {
#endif

struct perfev_json;

enum perfev_json_flags {
	PERFEV_JSON_PRETTY = 1u << 0,	 /* a value per line, indented by two spaces a level */
	PERFEV_JSON_HTML_SAFE = 1u << 1, /* strings fit inside an HTML <script> element */
};

/*
 * A writer to f (not owned) with perfev_json_flags; NULL with errno ENOMEM.
 * It buffers what it writes: write to f yourself only after
 * perfev_json__flush() or perfev_json__delete().
 */
PERFEV_API struct perfev_json *perfev_json__new(FILE *f, unsigned flags);
/* Hands what the writer holds to f (stdio may still buffer it). */
PERFEV_API void perfev_json__flush(struct perfev_json *j);
/*
 * Frees the writer, after flushing f: 0 when every value went out in a
 * well-formed document, -EINVAL when objects and arrays were not closed as
 * they were opened (or nested deeper than 256), -EIO (or the write's errno)
 * when f failed; the error set.  Accepts NULL.
 */
PERFEV_API int perfev_json__delete(struct perfev_json *j);

/*
 * Values: key is the member's name inside an object, NULL inside an array
 * or at the top level.  A top-level value ends with a newline.
 */
PERFEV_API void perfev_json__obj_begin(struct perfev_json *j, const char *key);
PERFEV_API void perfev_json__obj_end(struct perfev_json *j);
PERFEV_API void perfev_json__arr_begin(struct perfev_json *j, const char *key);
PERFEV_API void perfev_json__arr_end(struct perfev_json *j);
/* A string (NULL: ""), escaped as above. */
PERFEV_API void perfev_json__str(struct perfev_json *j, const char *key, const char *val);
/* len bytes of val, NUL bytes included (as \u0000). */
PERFEV_API void perfev_json__strn(struct perfev_json *j, const char *key, const char *val,
				  size_t len);
PERFEV_API void perfev_json__u64(struct perfev_json *j, const char *key, uint64_t val);
PERFEV_API void perfev_json__i64(struct perfev_json *j, const char *key, int64_t val);
/* %.6g; null for NaN and infinities, which JSON cannot hold. */
PERFEV_API void perfev_json__double(struct perfev_json *j, const char *key, double val);
PERFEV_API void perfev_json__bool(struct perfev_json *j, const char *key, bool val);
PERFEV_API void perfev_json__null(struct perfev_json *j, const char *key);

/* Writes len bytes of s as a JSON string literal, quotes included, escaped as above. */
PERFEV_API void perfev_json_write_string(FILE *f, const char *s, size_t len, unsigned flags);
/*
 * The same into buf, NUL-terminated, when the whole literal fits in size
 * bytes (else buf is "": part of a literal is no JSON); the length the
 * literal takes, as snprintf counts it.
 */
PERFEV_API size_t perfev_json_escape(char *buf, size_t size, const char *s, size_t len,
				     unsigned flags);

#ifdef __cplusplus
}
#endif
#endif
