/* SPDX-License-Identifier: MIT */
/*
 * JIT symbols from a perf map, JIT_DIR/perf-PID.map, which runtimes (V8,
 * the JVM with perf-map-agent, LuaJIT, .NET, Python 3.12...) write: one
 * "START SIZE NAME" per line, START and SIZE in hex with or without 0x,
 * NAME the rest of the line (it may hold spaces).  The file is untrusted
 * and often written while we read it: a line that does not parse (a torn
 * last line too) is skipped and counted in a warning.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/internal.h"
#include "symbols/symbols_int.h"

/* Names longer than this are not names (perf reads lines of up to 4 KiB as well). */
#define JIT_NAME_MAX 4096

/* A hex number with an optional 0x; advances *p; false without digits or past 64 bits. */
static bool hex_field(const char **p, const char *end, uint64_t *out)
{
	const char *s = *p;
	size_t digits = 0;
	uint64_t v = 0;
	int h;

	if (end - s >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		s += 2;
	while (s < end && (h = hex_digit(*s)) >= 0) {
		if (v >> 60)
			return false;
		v = v << 4 | (uint64_t)h;
		digits++;
		s++;
	}
	if (!digits)
		return false;
	*p = s;
	*out = v;
	return true;
}

static bool blank(char c)
{
	return c == ' ' || c == '\t';
}

int perf_map__parse(struct perfev_dso *d, const char *text, size_t len)
{
	struct sym_builder b = { .d = d };
	const char *p = text, *end = text + len;
	size_t bad = 0, first_bad = 0, lineno = 0;
	int err;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end, *q = p, *name;
		uint64_t start, size;

		lineno++;
		p = nl ? nl + 1 : end;
		if (le > q && le[-1] == '\r')
			le--;
		while (q < le && blank(*q))
			q++;
		if (q == le)
			continue;
		if (!hex_field(&q, le, &start) || q == le || !blank(*q))
			goto bad;
		while (q < le && blank(*q))
			q++;
		if (!hex_field(&q, le, &size) || q == le || !blank(*q))
			goto bad;
		while (q < le && blank(*q))
			q++;
		name = q;
		while (le > name && blank(le[-1]))
			le--;
		if (le == name || le - name > JIT_NAME_MAX || memchr(name, 0, (size_t)(le - name)))
			goto bad;
		/* A symbol wrapping around the address space is no code. */
		if (size && start + size < start)
			goto bad;
		err = sym_builder__add(&b, start, size, name, (size_t)(le - name), 1);
		if (err) {
			sym_builder__abort(&b);
			return err;
		}
		continue;
bad:
		if (!bad++)
			first_bad = lineno;
	}
	if (bad)
		pr_warn("symbols: %s: %zu malformed lines skipped (the first is line %zu); expected "
			"\"START SIZE NAME\" with START and SIZE in hex\n",
			d->sym_file ? d->sym_file : d->name, bad, first_bad);
	return sym_builder__finish(&b, 0);
}

int dso__load_jit(struct perfev_dso *d)
{
	char *buf = NULL;
	size_t cap = 0;
	ssize_t n;
	int fd, err;

	/* The DSO's name is the map's path, JIT_DIR/perf-PID.map. */
	d->sym_file = strdup(d->name);
	if (!d->sym_file)
		return -ENOMEM;
	fd = open(d->name, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0) {
		err = errno;
		dso__set_error(d, err, "%s: cannot open: %s; the JIT runtime writes it when asked "
			       "to (e.g. node --perf-basic-prof, java with perf-map-agent)",
			       d->name, strerror(err));
		return -err;
	}
	n = read_fd_all(fd, &buf, &cap);
	close(fd);
	if (n < 0) {
		dso__set_error(d, (int)-n, "%s: cannot read: %s", d->name, strerror((int)-n));
		free(buf);
		return (int)n;
	}
	err = perf_map__parse(d, buf, (size_t)n);
	free(buf);
	return err;
}
