// SPDX-License-Identifier: MIT
/*
 * The JSON writer: the escaper (valid UTF-8 out whatever bytes come in, no
 * raw control byte; see perfev/json.h for its exact rules) and the writer
 * of nested values over it, which tracks commas and nesting.  Runs of bytes
 * that need no escape are written at once: symbol names are mostly plain.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/internal.h"
#include "perfev/json.h"

#define MAX_DEPTH 256

struct perfev_json;
static void put(struct perfev_json *j, const char *p, size_t n);

/* Where escaped text goes: a writer's buffer, a FILE, or a buffer that keeps whole pieces while they fit. */
struct sink {
	struct perfev_json *j;
	FILE *f;
	char *buf;
	size_t size, len;
	bool full;
};

static void emit(struct sink *k, const char *p, size_t n)
{
	if (k->j) {
		put(k->j, p, n);
		return;
	}
	if (k->f) {
		fwrite(p, 1, n, k->f);
		return;
	}
	if (!k->full && k->size && k->len + n < k->size)
		memcpy(k->buf + k->len, p, n);
	else
		k->full = true;
	k->len += n;
}

size_t utf8_len(const unsigned char *s, size_t n, uint32_t *cp)
{
	unsigned char c = s[0];
	size_t len;

	if (c >= 0xc2 && c <= 0xdf)
		len = 2, *cp = c & 0x1f;
	else if (c >= 0xe0 && c <= 0xef)
		len = 3, *cp = c & 0x0f;
	else if (c >= 0xf0 && c <= 0xf4)
		len = 4, *cp = c & 0x07;
	else
		return 0;
	if (len > n)
		return 0;
	for (size_t i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		*cp = (*cp << 6) | (s[i] & 0x3f);
	}
	if ((len == 3 && (*cp < 0x800 || (*cp >= 0xd800 && *cp <= 0xdfff))) ||
	    (len == 4 && (*cp < 0x10000 || *cp > 0x10ffff)))
		return 0;
	return len;
}

/* Whether the ASCII byte c is copied as it is. */
static bool plain(unsigned char c, unsigned flags)
{
	if (c < 0x20 || c >= 0x7f || c == '"' || c == '\\')
		return false;
	return !(flags & PERFEV_JSON_HTML_SAFE) || (c != '<' && c != '>' && c != '&');
}

/* The escape of the ASCII byte c, which is not plain, into out (at least 7 bytes); its length. */
static size_t escape_ascii(unsigned char c, char *out)
{
	static const char hex[] = "0123456789abcdef";
	static const char *const short_esc[] = { ['"'] = "\\\"", ['\\'] = "\\\\", ['\n'] = "\\n",
						 ['\t'] = "\\t", ['\r'] = "\\r", ['\b'] = "\\b",
						 ['\f'] = "\\f" };

	if (c < ARRAY_SIZE(short_esc) && short_esc[c]) {
		memcpy(out, short_esc[c], 2);
		return 2;
	}
	memcpy(out, "\\u00", 4);
	out[4] = hex[c >> 4];
	out[5] = hex[c & 15];
	return 6;
}

static void escape(struct sink *k, const char *str, size_t n, unsigned flags)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t i = 0, run = 0;
	char esc[8];

	emit(k, "\"", 1);
	while (i < n) {
		uint32_t cp;
		size_t len;

		if (s[i] < 0x80 && plain(s[i], flags)) {
			i++;
			continue;
		}
		if (i > run)
			emit(k, str + run, i - run);
		if (s[i] < 0x80) {
			emit(k, esc, escape_ascii(s[i], esc));
			len = 1;
		} else if (!(len = utf8_len(s + i, n - i, &cp))) {
			emit(k, "\\ufffd", 6);
			len = 1;
		} else if ((flags & PERFEV_JSON_HTML_SAFE) && (cp == 0x2028 || cp == 0x2029)) {
			emit(k, cp == 0x2028 ? "\\u2028" : "\\u2029", 6);
		} else {
			emit(k, str + i, len);
		}
		i += len;
		run = i;
	}
	if (i > run)
		emit(k, str + run, i - run);
	emit(k, "\"", 1);
}

void perfev_json_write_string(FILE *f, const char *s, size_t len, unsigned flags)
{
	struct sink k = { .f = f };

	escape(&k, s ? s : "", s ? len : 0, flags);
}

size_t perfev_json_escape(char *buf, size_t size, const char *s, size_t len, unsigned flags)
{
	struct sink k = { .buf = buf, .size = size };

	escape(&k, s ? s : "", s ? len : 0, flags);
	if (size)
		buf[k.full ? 0 : k.len] = '\0';
	/* A literal that did not fit is not given in part: half an escape would be wrong JSON. */
	return k.len;
}

#define JSON_BUF 65536

struct perfev_json {
	FILE *f;
	unsigned flags;
	int depth;	/* levels open */
	bool bad;	/* nesting went wrong */
	bool need_comma[MAX_DEPTH + 1];
	/* Bytes not yet handed to f: profiles write millions of small values. */
	size_t len;
	char buf[JSON_BUF];
};

static void flush_buf(struct perfev_json *j)
{
	if (j->len)
		fwrite(j->buf, 1, j->len, j->f);
	j->len = 0;
}

static void put(struct perfev_json *j, const char *p, size_t n)
{
	if (j->len + n > sizeof(j->buf)) {
		flush_buf(j);
		if (n > sizeof(j->buf)) {
			fwrite(p, 1, n, j->f);
			return;
		}
	}
	memcpy(j->buf + j->len, p, n);
	j->len += n;
}

static void putch(struct perfev_json *j, char c)
{
	if (j->len == sizeof(j->buf))
		flush_buf(j);
	j->buf[j->len++] = c;
}

void perfev_json__flush(struct perfev_json *j)
{
	flush_buf(j);
}

struct perfev_json *perfev_json__new(FILE *f, unsigned flags)
{
	struct perfev_json *j = calloc(1, sizeof(*j));

	if (!j)
		return set_error_ptr(ENOMEM, "JSON writer: out of memory");
	j->f = f;
	j->flags = flags;
	return j;
}

int perfev_json__delete(struct perfev_json *j)
{
	int err = 0;

	if (!j)
		return 0;
	flush_buf(j);
	if (fflush(j->f) || ferror(j->f))
		err = set_error(errno ? errno : EIO, "JSON writer: writing failed: %s",
				strerror(errno ? errno : EIO));
	else if (j->bad || j->depth)
		err = set_error(EINVAL, "JSON writer: objects and arrays were not closed as they were "
				"opened (a bug of the program writing)");
	free(j);
	return err;
}

static void indent(struct perfev_json *j)
{
	putch(j, '\n');
	for (int i = 0; i < j->depth; i++)
		put(j, "  ", 2);
}

/* A string literal into the writer's buffer. */
static void jstring(struct perfev_json *j, const char *s, size_t len)
{
	struct sink k = { .j = j };

	escape(&k, s ? s : "", s ? len : 0, j->flags);
}

/* Before a value: the comma after the previous one, the line break, and the key. */
static void sep(struct perfev_json *j, const char *key)
{
	if (j->need_comma[j->depth])
		putch(j, ',');
	if ((j->flags & PERFEV_JSON_PRETTY) && j->depth)
		indent(j);
	j->need_comma[j->depth] = true;
	if (key) {
		jstring(j, key, strlen(key));
		if (j->flags & PERFEV_JSON_PRETTY)
			put(j, ": ", 2);
		else
			putch(j, ':');
	}
}

/* After a value at the top level, a newline: one document a line. */
static void done(struct perfev_json *j)
{
	if (!j->depth)
		putch(j, '\n');
}

static void open_(struct perfev_json *j, const char *key, char c)
{
	sep(j, key);
	putch(j, c);
	if (j->depth == MAX_DEPTH) {
		j->bad = true;
		return;
	}
	j->need_comma[++j->depth] = false;
}

static void close_(struct perfev_json *j, char c)
{
	bool had = j->need_comma[j->depth];

	if (!j->depth)
		j->bad = true;
	else
		j->depth--;
	if ((j->flags & PERFEV_JSON_PRETTY) && had)
		indent(j);
	putch(j, c);
	done(j);
}

void perfev_json__obj_begin(struct perfev_json *j, const char *key)
{
	open_(j, key, '{');
}

void perfev_json__obj_end(struct perfev_json *j)
{
	close_(j, '}');
}

void perfev_json__arr_begin(struct perfev_json *j, const char *key)
{
	open_(j, key, '[');
}

void perfev_json__arr_end(struct perfev_json *j)
{
	close_(j, ']');
}

void perfev_json__strn(struct perfev_json *j, const char *key, const char *val, size_t len)
{
	sep(j, key);
	jstring(j, val, len);
	done(j);
}

void perfev_json__str(struct perfev_json *j, const char *key, const char *val)
{
	perfev_json__strn(j, key, val, val ? strlen(val) : 0);
}

/* Digits by hand: profiles write millions of numbers, and printf's parsing costs more than they do. */
static void put_u64(struct perfev_json *j, uint64_t v, bool minus)
{
	char buf[24], *p = buf + sizeof(buf);

	do
		*--p = (char)('0' + v % 10);
	while (v /= 10);
	if (minus)
		*--p = '-';
	put(j, p, (size_t)(buf + sizeof(buf) - p));
}

void perfev_json__u64(struct perfev_json *j, const char *key, uint64_t val)
{
	sep(j, key);
	put_u64(j, val, false);
	done(j);
}

void perfev_json__i64(struct perfev_json *j, const char *key, int64_t val)
{
	sep(j, key);
	put_u64(j, val < 0 ? 0 - (uint64_t)val : (uint64_t)val, val < 0);
	done(j);
}

void perfev_json__double(struct perfev_json *j, const char *key, double val)
{
	char buf[32];

	sep(j, key);
	if (isfinite(val))
		put(j, buf, (size_t)snprintf(buf, sizeof(buf), "%.6g", val));
	else
		put(j, "null", 4);
	done(j);
}

void perfev_json__bool(struct perfev_json *j, const char *key, bool val)
{
	sep(j, key);
	put(j, val ? "true" : "false", val ? 4 : 5);
	done(j);
}

void perfev_json__null(struct perfev_json *j, const char *key)
{
	sep(j, key);
	put(j, "null", 4);
	done(j);
}
