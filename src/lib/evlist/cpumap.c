/* SPDX-License-Identifier: MIT */
/* CPU lists ("0-3,8") and thread lists (/proc/PID/task). */
#include <ctype.h>
#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "evlist/evlist_int.h"

#define MAX_CPU (1 << 20)

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

/* Reads a decimal CPU number at *p; moves *p past it. */
static int parse_cpu_num(const char *list, const char **p, int *out)
{
	long v = 0;
	const char *s = *p;

	if (!isdigit((unsigned char)*s))
		return set_error(PERFEV_ERR_SYNTAX, "bad CPU list '%.64s': expected a number at offset %td",
				 list, s - list);
	while (isdigit((unsigned char)*s)) {
		v = v * 10 + (*s - '0');
		if (v >= MAX_CPU)
			return set_error(PERFEV_ERR_SYNTAX,
					 "bad CPU list '%.64s': CPU number at offset %td is too large",
					 list, *p - list);
		s++;
	}
	*p = s;
	*out = (int)v;
	return 0;
}

int perfev_cpu_list__parse(const char *list, int *cpus, int max)
{
	const char *p = list;
	int nr = 0, err;

	if (!list || max < 0 || (max && !cpus))
		return -EINVAL;
	while (*p == ' ')
		p++;
	if (!*p || *p == '\n')
		return set_error(PERFEV_ERR_SYNTAX, "empty CPU list");
	for (;;) {
		int a, b;

		err = parse_cpu_num(list, &p, &a);
		if (err)
			return err;
		b = a;
		if (*p == '-') {
			p++;
			err = parse_cpu_num(list, &p, &b);
			if (err)
				return err;
			if (b < a)
				return set_error(PERFEV_ERR_SYNTAX,
						 "bad CPU list '%.64s': range %d-%d runs backwards", list,
						 a, b);
		}
		for (int c = a; c <= b; c++) {
			if (nr >= max)
				return set_error(E2BIG, "CPU list '%.64s' names more than %d CPUs", list,
						 max);
			cpus[nr++] = c;
		}
		if (*p == ',') {
			p++;
			continue;
		}
		if (*p == '\n' && !p[1])
			break;
		if (*p)
			return set_error(PERFEV_ERR_SYNTAX,
					 "bad CPU list '%.64s': unexpected '%c' at offset %td", list,
					 isprint((unsigned char)*p) ? *p : '?', p - list);
		break;
	}
	sort_array(cpus, (size_t)nr, sizeof(*cpus), cmp_int);
	int u = 0;
	for (int i = 0; i < nr; i++)
		if (!u || cpus[u - 1] != cpus[i])
			cpus[u++] = cpus[i];
	return u;
}

static struct perfev_cpu_map *cpu_map_alloc(int nr)
{
	struct perfev_cpu_map *m = malloc(sizeof(*m) + (size_t)nr * sizeof(int));

	if (m)
		m->nr = nr;
	return m;
}

struct perfev_cpu_map *perfev_cpu_map__new(const char *list)
{
	char online[4096];
	int max = 4096, n;
	int *cpus;
	struct perfev_cpu_map *m;

	int len = read_text_file("/sys/devices/system/cpu/online", online, sizeof(online));
	if (len < 0)
		return set_error_ptr(-len, "cannot read /sys/devices/system/cpu/online: %s",
				     strerror(-len));
	cpus = malloc((size_t)max * sizeof(int));
	if (!cpus)
		return set_error_ptr(ENOMEM, "out of memory");
	n = perfev_cpu_list__parse(list ? list : online, cpus, max);
	if (n < 0)
		goto err_out;
	if (list) {
		int *on = malloc((size_t)max * sizeof(int));
		int non;

		if (!on) {
			n = -ENOMEM;
			goto err_out;
		}
		non = perfev_cpu_list__parse(online, on, max);
		for (int i = 0; i < n && non >= 0; i++) {
			if (!search_array(&cpus[i], on, (size_t)non, sizeof(int), cmp_int)) {
				n = set_error(ENODEV, "CPU %d is not online (online CPUs: %.64s)",
					      cpus[i], strtok(online, "\n"));
				break;
			}
		}
		free(on);
		if (n < 0)
			goto err_out;
	}
	m = cpu_map_alloc(n);
	if (!m) {
		n = -ENOMEM;
		goto err_out;
	}
	memcpy(m->cpus, cpus, (size_t)n * sizeof(int));
	free(cpus);
	return m;
err_out:
	free(cpus);
	errno = -n;
	return NULL;
}

struct perfev_cpu_map *cpu_map__dup(const struct perfev_cpu_map *map)
{
	struct perfev_cpu_map *m = cpu_map_alloc(map->nr);

	if (!m)
		return set_error_ptr(ENOMEM, "out of memory");
	memcpy(m->cpus, map->cpus, (size_t)map->nr * sizeof(int));
	return m;
}

struct perfev_cpu_map *perfev_cpu_map__new_any(void)
{
	struct perfev_cpu_map *m = cpu_map_alloc(1);

	if (m)
		m->cpus[0] = -1;
	return m;
}

void perfev_cpu_map__delete(struct perfev_cpu_map *map)
{
	free(map);
}

int perfev_cpu_map__nr(const struct perfev_cpu_map *map)
{
	return map ? map->nr : 0;
}

int perfev_cpu_map__cpu(const struct perfev_cpu_map *map, int idx)
{
	if (!map || idx < 0 || idx >= map->nr)
		return -1;
	return map->cpus[idx];
}

static struct perfev_thread_map *thread_map_alloc(int nr)
{
	struct perfev_thread_map *m = malloc(sizeof(*m) + (size_t)nr * sizeof(pid_t));

	if (m)
		m->nr = nr;
	return m;
}

struct perfev_thread_map *perfev_thread_map__new(pid_t pid, int all)
{
	struct perfev_thread_map *m;
	char path[64];
	DIR *d;
	struct dirent *de;
	int nr = 0, cap = 16;

	if (!all || pid <= 0) {
		m = thread_map_alloc(1);
		if (m)
			m->tids[0] = pid;
		return m;
	}
	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	d = opendir(path);
	if (!d)
		return set_error_ptr(errno == ENOENT ? ESRCH : errno,
				     "no process %d (%s): check the pid with 'ps -p %d'", (int)pid,
				     strerror(errno), (int)pid);
	m = thread_map_alloc(cap);
	while (m && (de = readdir(d))) {
		char *end;
		long tid = strtol(de->d_name, &end, 10);

		if (*end || tid <= 0)
			continue;
		if (nr == cap) {
			struct perfev_thread_map *n;

			cap *= 2;
			n = realloc(m, sizeof(*m) + (size_t)cap * sizeof(pid_t));
			if (!n) {
				free(m);
				m = NULL;
				break;
			}
			m = n;
		}
		m->tids[nr++] = (pid_t)tid;
	}
	closedir(d);
	if (!m)
		return set_error_ptr(ENOMEM, "out of memory");
	if (!nr) {
		free(m);
		return set_error_ptr(ESRCH, "process %d has no threads left", (int)pid);
	}
	m->nr = nr;
	sort_array(m->tids, (size_t)nr, sizeof(pid_t), cmp_int);
	return m;
}

struct perfev_thread_map *perfev_thread_map__new_any(void)
{
	return perfev_thread_map__new(-1, 0);
}

void perfev_thread_map__delete(struct perfev_thread_map *map)
{
	free(map);
}

int perfev_thread_map__nr(const struct perfev_thread_map *map)
{
	return map ? map->nr : 0;
}

pid_t perfev_thread_map__tid(const struct perfev_thread_map *map, int idx)
{
	if (!map || idx < 0 || idx >= map->nr)
		return -1;
	return map->tids[idx];
}
