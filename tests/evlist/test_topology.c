/*
 * Where a CPU sits (perfev_cpu__topology): this machine's CPUs against what
 * sysfs says, read here apart from the library, and machines made up under
 * a fake /sys root (sys_root__set): two sockets with dies and NUMA nodes,
 * an old kernel without die_id, a package id of -1, and files that are not
 * numbers or not there.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "evlist/evlist_int.h"
#include "perfev/perfev.h"

static char fake_root[64];

static void put_file(const char *rel, const char *text)
{
	char path[256], cmd[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", fake_root, rel);
	snprintf(cmd, sizeof(cmd), "mkdir -p \"$(dirname '%s')\"", path);
	assert_int_equal(system(cmd), 0);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

/* CPU cpu of the fake machine: its ids as sysfs writes them (NULL: no such file), its node (-1: none). */
static void fake_cpu(int cpu, const char *pkg, const char *die, const char *core, int node)
{
	char rel[128];

	snprintf(rel, sizeof(rel), "sys/devices/system/cpu/cpu%d/topology/physical_package_id", cpu);
	if (pkg)
		put_file(rel, pkg);
	snprintf(rel, sizeof(rel), "sys/devices/system/cpu/cpu%d/topology/die_id", cpu);
	if (die)
		put_file(rel, die);
	snprintf(rel, sizeof(rel), "sys/devices/system/cpu/cpu%d/topology/core_id", cpu);
	if (core)
		put_file(rel, core);
	if (node >= 0) {
		char cmd[256];

		snprintf(cmd, sizeof(cmd), "mkdir -p '%s/sys/devices/system/cpu/cpu%d/node%d'", fake_root,
			 cpu, node);
		assert_int_equal(system(cmd), 0);
	}
}

static int setup(void **state)
{
	(void)state;
	snprintf(fake_root, sizeof(fake_root), "/tmp/perfev-topo-XXXXXX");
	assert_non_null(mkdtemp(fake_root));
	return 0;
}

static int teardown(void **state)
{
	char cmd[128];

	(void)state;
	sys_root__set(NULL);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", fake_root);
	return system(cmd);
}

/* An id of this machine's CPU as sysfs gives it, read here with stdio; dflt when missing. */
static int real_id(int cpu, const char *name, int dflt)
{
	char path[128];
	FILE *f;
	int v = dflt;

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/topology/%s", cpu, name);
	f = fopen(path, "r");
	if (!f)
		return dflt;
	if (fscanf(f, "%d", &v) != 1 || v < 0)
		v = dflt;
	fclose(f);
	return v;
}

static void test_this_machine(void **state)
{
	struct perfev_cpu_map *online = perfev_cpu_map__new(NULL);

	(void)state;
	assert_non_null(online);
	for (int i = 0; i < perfev_cpu_map__nr(online); i++) {
		int cpu = perfev_cpu_map__cpu(online, i);
		struct perfev_cpu_topology t;

		assert_int_equal(perfev_cpu__topology(cpu, &t), 0);
		assert_int_equal(t.socket, real_id(cpu, "physical_package_id", 0));
		assert_int_equal(t.die, real_id(cpu, "die_id", 0));
		assert_int_equal(t.core, real_id(cpu, "core_id", cpu));
		assert_true(t.node >= 0);
	}
	perfev_cpu_map__delete(online);
}

static void test_two_sockets(void **state)
{
	struct perfev_cpu_topology t;

	(void)state;
	fake_cpu(0, "0\n", "0\n", "0\n", 0);
	fake_cpu(1, "0\n", "1\n", "4\n", 0);
	fake_cpu(2, "1\n", "0\n", "0\n", 1);
	fake_cpu(3, "1\n", "1\n", "7\n", 3);
	sys_root__set(fake_root);
	assert_int_equal(perfev_cpu__topology(1, &t), 0);
	assert_int_equal(t.socket, 0);
	assert_int_equal(t.die, 1);
	assert_int_equal(t.core, 4);
	assert_int_equal(t.node, 0);
	assert_int_equal(perfev_cpu__topology(3, &t), 0);
	assert_int_equal(t.socket, 1);
	assert_int_equal(t.die, 1);
	assert_int_equal(t.core, 7);
	assert_int_equal(t.node, 3);
	sys_root__set(NULL);
}

static void test_old_kernel(void **state)
{
	struct perfev_cpu_topology t;

	(void)state;
	/* No die_id (before 5.2), a package of -1 (no package), no node link (no NUMA). */
	fake_cpu(5, "-1\n", NULL, "2\n", -1);
	sys_root__set(fake_root);
	assert_int_equal(perfev_cpu__topology(5, &t), 0);
	assert_int_equal(t.socket, 0);
	assert_int_equal(t.die, 0);
	assert_int_equal(t.core, 2);
	assert_int_equal(t.node, 0);
	sys_root__set(NULL);
}

static void test_bad_input(void **state)
{
	struct perfev_cpu_topology t;

	(void)state;
	fake_cpu(6, "zero\n", "0\n", "0\n", -1);
	fake_cpu(7, "0\n", "0\n", "99999999999999999999\n", -1);
	fake_cpu(8, "0 1\n", "0\n", "0\n", -1);
	sys_root__set(fake_root);
	assert_int_equal(perfev_cpu__topology(6, &t), -PERFEV_ERR_SYNTAX);
	assert_non_null(strstr(perfev_last_error(), "cpu6/topology/physical_package_id"));
	assert_non_null(strstr(perfev_last_error(), "not a number"));
	assert_int_equal(perfev_cpu__topology(7, &t), -PERFEV_ERR_SYNTAX);
	assert_int_equal(perfev_cpu__topology(8, &t), -PERFEV_ERR_SYNTAX);
	assert_int_equal(perfev_cpu__topology(42, &t), -ENOENT);
	assert_non_null(strstr(perfev_last_error(), "CPU 42"));
	assert_int_equal(perfev_cpu__topology(-1, &t), -EINVAL);
	assert_int_equal(perfev_cpu__topology(0, NULL), -EINVAL);
	sys_root__set(NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_this_machine),
		cmocka_unit_test(test_two_sockets),
		cmocka_unit_test(test_old_kernel),
		cmocka_unit_test(test_bad_input),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
