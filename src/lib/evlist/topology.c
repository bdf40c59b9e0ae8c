/* SPDX-License-Identifier: MIT */
/* Where a CPU sits: its socket, die, core and NUMA node, from sysfs (perf stat --per-*). */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "evlist/evlist_int.h"

/*
 * One id of cpu's topology directory: dflt when the kernel has no such file
 * (die_id before Linux 5.2), or when it says -1 (no package on some arches).
 */
static int topology_id(int cpu, const char *name, int dflt, int *out)
{
	char rel[128], path[PATH_MAX], buf[32], *end;
	long v;
	int n;

	snprintf(rel, sizeof(rel), "/sys/devices/system/cpu/cpu%d/topology/%s", cpu, name);
	sys_root__path(path, sizeof(path), rel);
	n = read_text_file(path, buf, sizeof(buf));
	if (n == -ENOENT) {
		*out = dflt;
		return 0;
	}
	if (n < 0)
		return set_error(-n, "cannot read %s: %s", rel, strerror(-n));
	errno = 0;
	v = strtol(buf, &end, 10);
	if (errno || end == buf || (*end && *end != '\n') || v < -1 || v > INT_MAX)
		return set_error(PERFEV_ERR_SYNTAX, "%s holds '%.16s', not a number", rel, buf);
	*out = v < 0 ? dflt : (int)v;
	return 0;
}

/* The NUMA node cpu belongs to: the "nodeN" link in its directory; 0 without NUMA. */
static int node_of(int cpu)
{
	char rel[64], path[PATH_MAX];
	struct dirent *d;
	DIR *dir;
	int node = 0;

	snprintf(rel, sizeof(rel), "/sys/devices/system/cpu/cpu%d", cpu);
	sys_root__path(path, sizeof(path), rel);
	dir = opendir(path);
	if (!dir)
		return 0;
	while ((d = readdir(dir))) {
		char *end;
		long v;

		if (strncmp(d->d_name, "node", 4) || d->d_name[4] < '0' || d->d_name[4] > '9')
			continue;
		v = strtol(d->d_name + 4, &end, 10);
		if (!*end && v >= 0 && v <= INT_MAX) {
			node = (int)v;
			break;
		}
	}
	closedir(dir);
	return node;
}

int perfev_cpu__topology(int cpu, struct perfev_cpu_topology *t)
{
	char rel[64], path[PATH_MAX];
	DIR *dir;
	int err;

	if (!t || cpu < 0)
		return set_error(EINVAL, "perfev_cpu__topology: %s", !t ? "no struct to fill" : "no such CPU");
	snprintf(rel, sizeof(rel), "/sys/devices/system/cpu/cpu%d/topology", cpu);
	sys_root__path(path, sizeof(path), rel);
	dir = opendir(path);
	if (!dir)
		return set_error(errno == ENOENT ? ENOENT : errno,
				 "CPU %d has no topology in sysfs (%s): %s", cpu, rel, strerror(errno));
	closedir(dir);
	*t = (struct perfev_cpu_topology){ 0 };
	if ((err = topology_id(cpu, "physical_package_id", 0, &t->socket)) ||
	    (err = topology_id(cpu, "die_id", 0, &t->die)) ||
	    (err = topology_id(cpu, "core_id", cpu, &t->core)))
		return err;
	t->node = node_of(cpu);
	return 0;
}
