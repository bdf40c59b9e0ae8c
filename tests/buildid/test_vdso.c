/*
 * The vDSO, which has no file: its build id read from this process's
 * image, the image kept in the build-id cache in perf's layout
 * (DIR/[vdso]/HEX/vdso), and a "[vdso]" DSO with a build id resolving
 * addresses from that copy, from this process's own image when the cache
 * has none, or saying why not when the recorded vDSO is another kernel's.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <dlfcn.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <unistd.h>

#include "perfev/perfev.h"
#include "buildid/buildid_int.h"

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wformat-truncation"
#endif

static char tmp[PATH_MAX];
static uint8_t id[PERFEV_BUILD_ID_MAX];
static size_t id_size;
static char hex[2 * PERFEV_BUILD_ID_MAX + 1];
static uintptr_t base;	/* where the vDSO is mapped (file offset 0) */
static uintptr_t ip;	/* an address inside its clock_gettime */

static int setup(void **state)
{
	char d[] = "/tmp/vdso.XXXXXX";
	void *h;
	int n;
	(void)state;

	base = (uintptr_t)getauxval(AT_SYSINFO_EHDR);
	if (!base || !mkdtemp(d))
		return -1;
	snprintf(tmp, sizeof(tmp), "%s", d);
	n = perfev_build_id__vdso(id, sizeof(id));
	if (n <= 0)
		return -1;
	id_size = (size_t)n;
	build_id__hex(id, id_size, hex);
	/* glibc names the vDSO linux-vdso.so.1 and lets dlsym find its symbols. */
	h = dlopen("linux-vdso.so.1", RTLD_LAZY | RTLD_NOLOAD);
	if (!h)
		return -1;
	ip = (uintptr_t)dlsym(h, "__vdso_clock_gettime");
	dlclose(h);
	return ip ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[PATH_MAX + 16];
	(void)state;

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmp);
	return system(cmd) == 0 ? 0 : -1;
}

/* The [vdso] line of /proc/self/maps: the whole mapping, another way to the same bytes. */
static void test_build_id(void **state)
{
	char line[512];
	uint8_t again[PERFEV_BUILD_ID_MAX];
	unsigned long lo = 0, hi = 0;
	FILE *f = fopen("/proc/self/maps", "r");
	(void)state;

	assert_non_null(f);
	while (fgets(line, sizeof(line), f))
		if (strstr(line, "[vdso]") && sscanf(line, "%lx-%lx", &lo, &hi) == 2)
			break;
	fclose(f);
	assert_int_equal(lo, base);
	assert_true(hi > lo);
	assert_int_equal(perfev_build_id__from_mem((const void *)lo, hi - lo, again, sizeof(again)),
			 (int)id_size);
	assert_memory_equal(again, id, id_size);
	assert_int_equal(perfev_build_id__vdso(NULL, 20), -EINVAL);
}

static void test_cache(void **state)
{
	char dir[PATH_MAX], file[PATH_MAX], lnk[PATH_MAX], target[PATH_MAX], want[PATH_MAX];
	uint8_t other[PERFEV_BUILD_ID_MAX], got[PERFEV_BUILD_ID_MAX];
	struct perfev_buildid_cache_usage u;
	ssize_t len;
	(void)state;

	snprintf(dir, sizeof(dir), "%s/cache", tmp);
	assert_int_equal(perfev_buildid_cache__add_vdso(dir, id, id_size), 1);
	snprintf(file, sizeof(file), "%s/[vdso]/%s/vdso", dir, hex);
	assert_int_equal(perfev_build_id__read(file, got, sizeof(got)), (int)id_size);
	assert_memory_equal(got, id, id_size);
	/* perf's link: to the entry's directory. */
	snprintf(lnk, sizeof(lnk), "%s/.build-id/%.2s/%s", dir, hex, hex + 2);
	len = readlink(lnk, target, sizeof(target) - 1);
	assert_true(len > 0);
	target[len] = 0;
	snprintf(want, sizeof(want), "../../[vdso]/%s", hex);
	assert_string_equal(target, want);
	assert_int_equal(perfev_buildid_cache__add_vdso(dir, id, id_size), 0);
	/* Another kernel's vDSO is not this process's: nothing kept under its id. */
	memcpy(other, id, id_size);
	other[0] ^= 0xff;
	assert_int_equal(perfev_buildid_cache__add_vdso(dir, other, id_size), -ESTALE);
	assert_non_null(strstr(perfev_last_error(), "another kernel"));
	assert_int_equal(perfev_buildid_cache__add_vdso(NULL, id, id_size), -EINVAL);
	/* Trimming knows the entry as any other. */
	assert_int_equal(perfev_buildid_cache__trim(dir, UINT64_MAX, 0, &u), 0);
	assert_int_equal(u.entries, 1);
	assert_int_equal(perfev_buildid_cache__trim(dir, 0, 0, &u), 0);
	assert_int_equal(u.removed, 1);
	assert_int_not_equal(access(file, F_OK), 0);
}

static unsigned warnings;
static char last_warning[1024];

static void on_warn(void *ctx, const char *msg)
{
	(void)ctx;
	warnings++;
	snprintf(last_warning, sizeof(last_warning), "%s", msg);
}

static struct perfev_symbolizer *symbolizer(const char *buildid_dir)
{
	struct perfev_symbolizer_opts o = { .sz = sizeof(o), .buildid_dir = buildid_dir,
					    .warn = on_warn };

	warnings = 0;
	last_warning[0] = 0;
	return perfev_symbolizer__new(&o);
}

static const struct perfev_symbol *lookup(struct perfev_dso *d)
{
	return perfev_dso__find_symbol(d, perfev_dso__map_ip(d, ip, base, 0));
}

static void test_symbols_from_cache(void **state)
{
	char dir[PATH_MAX], file[PATH_MAX], real[PATH_MAX];
	const struct perfev_symbol *s;
	struct perfev_symbolizer *sy;
	struct perfev_dso *d;
	(void)state;

	snprintf(dir, sizeof(dir), "%s/symcache", tmp);
	assert_int_equal(perfev_buildid_cache__add_vdso(dir, id, id_size), 1);
	sy = symbolizer(dir);
	assert_non_null(sy);
	d = perfev_symbolizer__dso(sy, "[vdso]", id, id_size);
	assert_non_null(d);
	s = lookup(d);
	assert_non_null(s);
	assert_non_null(strstr(s->name, "clock_gettime"));
	/* Found through the .build-id link, to the entry's copy. */
	snprintf(file, sizeof(file), "%s/[vdso]/%s/vdso", dir, hex);
	assert_non_null(perfev_dso__symbol_file(d));
	assert_non_null(realpath(perfev_dso__symbol_file(d), real));
	assert_string_equal(real, file);
	assert_int_equal(warnings, 0);
	perfev_symbolizer__delete(sy);
}

static void test_symbols_from_own_image(void **state)
{
	char dir[PATH_MAX];
	const struct perfev_symbol *s;
	struct perfev_symbolizer *sy;
	struct perfev_dso *d;
	(void)state;

	snprintf(dir, sizeof(dir), "%s/empty", tmp);
	sy = symbolizer(dir);
	assert_non_null(sy);
	d = perfev_symbolizer__dso(sy, "[vdso]", id, id_size);
	s = lookup(d);
	assert_non_null(s);
	assert_non_null(strstr(s->name, "clock_gettime"));
	assert_null(perfev_dso__error(d));
	assert_int_equal(warnings, 0);
	perfev_symbolizer__delete(sy);
}

static void test_foreign_vdso(void **state)
{
	uint8_t other[PERFEV_BUILD_ID_MAX];
	struct perfev_symbolizer *sy;
	struct perfev_dso *d;
	char dir[PATH_MAX];
	(void)state;

	snprintf(dir, sizeof(dir), "%s/empty", tmp);
	memcpy(other, id, id_size);
	other[id_size - 1] ^= 0x5a;
	sy = symbolizer(dir);
	assert_non_null(sy);
	d = perfev_symbolizer__dso(sy, "[vdso]", other, id_size);
	assert_null(lookup(d));
	assert_non_null(strstr(perfev_dso__error(d), "has no copy of the vDSO with build id"));
	assert_non_null(strstr(perfev_dso__error(d), "build-id cache"));
	assert_int_equal(warnings, 1);
	assert_string_equal(last_warning, perfev_dso__error(d));
	/* No build id at all: nothing to find it by. */
	d = perfev_symbolizer__dso(sy, "[vdso]", NULL, 0);
	assert_null(lookup(d));
	assert_non_null(strstr(perfev_dso__error(d), "not a file"));
	perfev_symbolizer__delete(sy);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_build_id),
		cmocka_unit_test(test_cache),
		cmocka_unit_test(test_symbols_from_cache),
		cmocka_unit_test(test_symbols_from_own_image),
		cmocka_unit_test(test_foreign_vdso),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
