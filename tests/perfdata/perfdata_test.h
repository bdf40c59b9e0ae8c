/*
 * Helpers shared by the perf.data writer's tests: a scratch directory,
 * running the perf peer, reading files back, and building byte streams.
 * Include after <cmocka.h>.
 */
#ifndef PERFEV_TESTS_PERFDATA_TEST_H
#define PERFEV_TESTS_PERFDATA_TEST_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "perfev/perfev.h"

#define TEST_HELPER static __attribute__((unused))

/* The scratch directory, made by each test file's setup. */
static char tmpdir[64];
static int perf_ok = -1;

TEST_HELPER const char *tpath(const char *name)
{
	static char p[4][PATH_MAX];
	static int i;

	i = (i + 1) % 4;
	snprintf(p[i], sizeof(p[i]), "%s/%s", tmpdir, name);
	return p[i];
}

/* The whole file, NUL-terminated; its length in *len when len is not NULL. */
TEST_HELPER char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t n = 0, cap = 0, r;

	assert_non_null(f);
	do {
		if (n + 65536 + 1 > cap) {
			cap = (n + 65536 + 1) * 2;
			buf = realloc(buf, cap);
			assert_non_null(buf);
		}
		r = fread(buf + n, 1, cap - n - 1, f);
		n += r;
	} while (r > 0);
	fclose(f);
	buf[n] = '\0';
	if (len)
		*len = n;
	return buf;
}

TEST_HELPER bool have_perf(void)
{
	if (perf_ok < 0)
		perf_ok = system("perf version >/dev/null 2>&1") == 0;
	return perf_ok;
}

/* Runs "perf ARGS"; its stdout and stderr (malloc'ed) and exit status. */
TEST_HELPER int perf(const char *args, char **out, char **err)
{
	char cmd[4096];
	int st;

	snprintf(cmd, sizeof(cmd), "perf %s >'%s' 2>'%s' </dev/null", args, tpath("perf.out"),
		 tpath("perf.err"));
	st = system(cmd);
	*out = slurp(tpath("perf.out"), NULL);
	*err = slurp(tpath("perf.err"), NULL);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

TEST_HELPER void expect_error(int ret, int err, const char *words)
{
	if (ret != -err || !strstr(perfev_last_error(), words))
		fail_msg("got %d (%s), want %d with \"%s\"", ret, perfev_last_error(), -err, words);
}

struct stream {
	unsigned char *p;
	size_t len, cap;
};

TEST_HELPER void put(struct stream *s, const void *d, size_t n)
{
	if (s->len + n > s->cap) {
		s->cap = (s->len + n) * 2 + 4096;
		s->p = realloc(s->p, s->cap);
		assert_non_null(s->p);
	}
	memcpy(s->p + s->len, d, n);
	s->len += n;
}

TEST_HELPER void put_u32(struct stream *s, uint32_t v)
{
	put(s, &v, 4);
}

TEST_HELPER void put_u64(struct stream *s, uint64_t v)
{
	put(s, &v, 8);
}

TEST_HELPER uint32_t u32_at(const void *p, size_t off)
{
	uint32_t v;

	memcpy(&v, (const char *)p + off, 4);
	return v;
}

TEST_HELPER uint64_t u64_at(const void *p, size_t off)
{
	uint64_t v;

	memcpy(&v, (const char *)p + off, 8);
	return v;
}

#endif
