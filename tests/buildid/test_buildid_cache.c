/*
 * The build-id cache: entries in perf's layout (hard links on one file
 * system, copies across), refusals (a rebuilt file, paths that could name
 * something outside the cache), and trimming: oldest first, the recent
 * kept, links that lead out of the cache never followed.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "perfev/perfev.h"
#include "buildid/buildid_int.h"

/* Paths here are a few dozen bytes under mkdtemp()'s; the PATH_MAX buffers cannot overflow. */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wformat-truncation"
#endif

static char tmp[PATH_MAX], shm[PATH_MAX];

/* Three ELF files with build ids of their own, copied under tmp/src. */
static const char *const sys_files[] = { "/bin/true", "/bin/false", "/bin/echo" };
static char files[3][PATH_MAX];
static uint8_t ids[3][PERFEV_BUILD_ID_MAX];
static size_t id_sizes[3];
static char hexes[3][2 * PERFEV_BUILD_ID_MAX + 1];

static void sh(const char *fmt, ...)
{
	char cmd[4096];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	assert_int_equal(system(cmd), 0);
}

static int setup(void **state)
{
	char d[] = "/tmp/bidcache.XXXXXX", s[] = "/dev/shm/bidcache.XXXXXX";
	(void)state;

	if (!mkdtemp(d))
		return -1;
	snprintf(tmp, sizeof(tmp), "%s", d);
	/* tmpfs: another file system than /tmp's, where a hard link cannot go. */
	shm[0] = 0;
	if (mkdtemp(s))
		snprintf(shm, sizeof(shm), "%s", s);
	sh("mkdir -p '%s/src'", tmp);
	for (int i = 0; i < 3; i++) {
		int n;

		snprintf(files[i], sizeof(files[i]), "%s/src/f%d", tmp, i);
		sh("cp '%s' '%s'", sys_files[i], files[i]);
		n = perfev_build_id__read(files[i], ids[i], sizeof(ids[i]));
		if (n <= 0)
			return -1;
		id_sizes[i] = (size_t)n;
		build_id__hex(ids[i], id_sizes[i], hexes[i]);
	}
	return strcmp(hexes[0], hexes[1]) && strcmp(hexes[1], hexes[2]) ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	sh("rm -rf '%s'", tmp);
	if (*shm)
		sh("rm -rf '%s'", shm);
	return 0;
}

static void entry_path(char *out, size_t size, const char *dir, int i, const char *leaf)
{
	snprintf(out, size, "%s%s/%s%s", dir, files[i], hexes[i], leaf);
}

static void test_add(void **state)
{
	char dir[PATH_MAX], elf[PATH_MAX], lnk[PATH_MAX], target[PATH_MAX], want[PATH_MAX];
	struct stat a, b;
	ssize_t len;
	(void)state;

	snprintf(dir, sizeof(dir), "%s/add", tmp);
	assert_int_equal(perfev_buildid_cache__add(dir, files[0], ids[0], id_sizes[0]), 1);
	entry_path(elf, sizeof(elf), dir, 0, "/elf");
	assert_int_equal(stat(elf, &a), 0);
	assert_int_equal(stat(files[0], &b), 0);
	/* One file system: a hard link, as perf makes it. */
	assert_true(a.st_ino == b.st_ino && a.st_dev == b.st_dev);
	snprintf(lnk, sizeof(lnk), "%s/.build-id/%.2s/%s", dir, hexes[0], hexes[0] + 2);
	len = readlink(lnk, target, sizeof(target) - 1);
	assert_true(len > 0);
	target[len] = 0;
	snprintf(want, sizeof(want), "../..%s/%s", files[0], hexes[0]);
	assert_string_equal(target, want);
	/* Through the link, as perf and the symbolizer look it up. */
	snprintf(want, sizeof(want), "%s/elf", lnk);
	assert_int_equal(stat(want, &b), 0);
	assert_true(a.st_ino == b.st_ino);
	/* Again: there already. */
	assert_int_equal(perfev_buildid_cache__add(dir, files[0], ids[0], id_sizes[0]), 0);
	/* perf's 20-byte slot of the same id changes nothing (a SHA-1 id is 20 bytes already). */
	assert_int_equal(perfev_buildid_cache__add(dir, files[0], ids[0], PERFEV_BUILD_ID_MAX), 0);
}

static void test_copy_across_file_systems(void **state)
{
	char dir[PATH_MAX], elf[PATH_MAX];
	struct stat a, b;
	(void)state;

	if (!*shm) {
		skip();
		return;
	}
	snprintf(dir, sizeof(dir), "%s/cache", shm);
	assert_int_equal(perfev_buildid_cache__add(dir, files[1], ids[1], id_sizes[1]), 1);
	entry_path(elf, sizeof(elf), dir, 1, "/elf");
	assert_int_equal(stat(elf, &a), 0);
	assert_int_equal(stat(files[1], &b), 0);
	assert_true(a.st_dev != b.st_dev || a.st_ino != b.st_ino);
	assert_int_equal(a.st_size, b.st_size);
	sh("cmp -s '%s' '%s'", elf, files[1]);
	assert_int_equal(a.st_mode & 0777, b.st_mode & 0777);
}

static void test_refused(void **state)
{
	char dir[PATH_MAX], rel[PATH_MAX];
	uint8_t other[PERFEV_BUILD_ID_MAX];
	(void)state;

	snprintf(dir, sizeof(dir), "%s/refused", tmp);
	memcpy(other, ids[0], sizeof(other));
	other[2] ^= 0x77;
	/* Rebuilt since it was mapped: not kept under the old id. */
	assert_int_equal(perfev_buildid_cache__add(dir, files[0], other, id_sizes[0]), -ESTALE);
	assert_non_null(strstr(perfev_last_error(), "rebuilt"));
	/* Names that would put the entry elsewhere than under its path. */
	snprintf(rel, sizeof(rel), "%s/src/../src/f0", tmp);
	assert_int_equal(perfev_buildid_cache__add(dir, rel, ids[0], id_sizes[0]), -EINVAL);
	assert_int_equal(perfev_buildid_cache__add(dir, "src/f0", ids[0], id_sizes[0]), -EINVAL);
	snprintf(rel, sizeof(rel), "%s/src/./f0", tmp);
	assert_int_equal(perfev_buildid_cache__add(dir, rel, ids[0], id_sizes[0]), -EINVAL);
	snprintf(rel, sizeof(rel), "%s//src/f0", tmp);
	assert_int_equal(perfev_buildid_cache__add(dir, rel, ids[0], id_sizes[0]), -EINVAL);
	assert_int_equal(perfev_buildid_cache__add(dir, files[0], ids[0], 0), -EINVAL);
	assert_int_equal(perfev_buildid_cache__add(dir, files[0], NULL, 20), -EINVAL);
	assert_int_equal(perfev_buildid_cache__add(NULL, files[0], ids[0], 20), -EINVAL);
	/* Gone: the file system's word. */
	assert_int_equal(perfev_buildid_cache__add(dir, "/nonexistent/f", ids[0], id_sizes[0]),
			 -ENOENT);
	assert_int_equal(access(dir, F_OK), -1);
}

static void set_age(const char *dir, int i, time_t t)
{
	char entry[PATH_MAX];
	struct timespec ts[2] = { { .tv_sec = t }, { .tv_sec = t } };

	entry_path(entry, sizeof(entry), dir, i, "");
	assert_int_equal(utimensat(AT_FDCWD, entry, ts, 0), 0);
}

static bool exists(const char *dir, int i)
{
	char elf[PATH_MAX], lnk[PATH_MAX];
	struct stat st;

	entry_path(elf, sizeof(elf), dir, i, "/elf");
	snprintf(lnk, sizeof(lnk), "%s/.build-id/%.2s/%s", dir, hexes[i], hexes[i] + 2);
	return !stat(elf, &st) && !lstat(lnk, &st);
}

static uint64_t size_of(int i)
{
	struct stat st;

	assert_int_equal(stat(files[i], &st), 0);
	return (uint64_t)st.st_size;
}

static void test_trim(void **state)
{
	char dir[PATH_MAX], path[PATH_MAX], outside[PATH_MAX];
	struct perfev_buildid_cache_usage u;
	time_t now = time(NULL);
	(void)state;

	snprintf(dir, sizeof(dir), "%s/trim", tmp);
	/* An empty (absent) cache. */
	assert_int_equal(perfev_buildid_cache__trim(dir, 0, 0, &u), 0);
	assert_true(u.entries == 0 && u.bytes == 0 && u.removed == 0);
	for (int i = 0; i < 3; i++)
		assert_int_equal(perfev_buildid_cache__add(dir, files[i], ids[i], id_sizes[i]), 1);
	set_age(dir, 0, now - 3000);
	set_age(dir, 1, now - 2000);
	/* Links that lead out of the cache, at a file that must survive. */
	snprintf(outside, sizeof(outside), "%s/outside", tmp);
	sh("mkdir -p '%s/victim' && echo keep > '%s/victim/elf'", outside, outside);
	sh("mkdir -p '%s/.build-id/aa' && ln -s ../../../outside/victim '%s/.build-id/aa/1111'",
	   dir, dir);
	sh("ln -s '../../x/../../outside/victim' '%s/.build-id/aa/2222'", dir);
	sh("ln -s '%s/victim' '%s/.build-id/aa/3333'", outside, dir);

	/* Under the limit: nothing goes. */
	assert_int_equal(perfev_buildid_cache__trim(dir, 1ull << 40, 0, &u), 0);
	assert_int_equal(u.entries, 3);
	assert_int_equal(u.bytes, size_of(0) + size_of(1) + size_of(2));
	assert_int_equal(u.removed, 0);
	/* Room for two: the oldest goes, with its directories. */
	assert_int_equal(perfev_buildid_cache__trim(dir, size_of(1) + size_of(2), 0, &u), 0);
	assert_int_equal(u.removed, 1);
	assert_int_equal(u.freed, size_of(0));
	assert_int_equal(u.entries, 2);
	assert_false(exists(dir, 0));
	assert_true(exists(dir, 1) && exists(dir, 2));
	snprintf(path, sizeof(path), "%s%s", dir, files[0]);
	assert_int_equal(access(path, F_OK), -1);
	/* The source file of a hard-linked entry is untouched. */
	assert_int_equal(access(files[0], F_OK), 0);
	/* Nothing at all allowed, but the recent kept. */
	assert_int_equal(perfev_buildid_cache__trim(dir, 0, now - 10, &u), 0);
	assert_false(exists(dir, 1));
	assert_true(exists(dir, 2));
	assert_int_equal(u.removed, 1);
	assert_int_equal(u.entries, 1);
	assert_int_equal(perfev_buildid_cache__trim(dir, 0, 0, &u), 0);
	assert_false(exists(dir, 2));
	assert_int_equal(u.entries, 0);
	/* The cache stays; what lay outside it too, and the links to it. */
	assert_int_equal(access(dir, F_OK), 0);
	snprintf(path, sizeof(path), "%s/victim/elf", outside);
	assert_int_equal(access(path, F_OK), 0);
	snprintf(path, sizeof(path), "%s/.build-id/aa/1111", dir);
	assert_int_equal(access(path, F_OK), 0);
	assert_int_equal(perfev_buildid_cache__trim(NULL, 0, 0, NULL), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_add),
		cmocka_unit_test(test_copy_across_file_systems),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_trim),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
