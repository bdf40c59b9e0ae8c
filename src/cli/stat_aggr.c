/* SPDX-License-Identifier: MIT */
/*
 * perfev stat's groups of counts, as perf stat's options make them: per CPU
 * (-A), per thread, per core, die, socket or NUMA node (the CPUs' topology
 * from the library), and the order rows are printed in.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "stat_printer.h"

/* One row per event (and group of CPUs or threads, once they are known). */
int stat_rows__make(struct stat_printer *pr)
{
	struct perfev_evsel *ev;
	int e = 0;

	free(pr->rows);
	pr->nr = pr->nr_evs * pr->nr_aggrs;
	pr->rows = calloc((size_t)pr->nr + 1, sizeof(*pr->rows));
	if (!pr->rows)
		return -1;
	perfev_evlist__for_each_evsel(pr->el, ev) {
		for (int a = 0; a < pr->nr_aggrs; a++) {
			pr->rows[e * pr->nr_aggrs + a].ev = ev;
			pr->rows[e * pr->nr_aggrs + a].aggr = a;
		}
		e++;
	}
	return 0;
}

/* The key and label of CPU cpu's group; -1 after saying why the topology is unknown. */
static int cpu_aggr(const struct stat_printer *pr, int cpu, struct aggr *g)
{
	struct perfev_cpu_topology t;

	*g = (struct aggr){ .nr = 1, .cpu = cpu };
	if (pr->o.aggr == AGGR_NONE) {
		g->key[0] = cpu;
		snprintf(g->label, sizeof(g->label), "CPU%d", cpu);
		return 0;
	}
	if (perfev_cpu__topology(cpu, &t)) {
		cli_error("%s; --per-core, --per-die, --per-socket and --per-node need it", perfev_last_error());
		return -1;
	}
	switch (pr->o.aggr) {
	case AGGR_CORE:
		g->key[0] = t.socket, g->key[1] = t.die, g->key[2] = t.core;
		snprintf(g->label, sizeof(g->label), "S%d-D%d-C%d", t.socket, t.die, t.core);
		break;
	case AGGR_DIE:
		g->key[0] = t.socket, g->key[1] = t.die;
		snprintf(g->label, sizeof(g->label), "S%d-D%d", t.socket, t.die);
		break;
	case AGGR_SOCKET:
		g->key[0] = t.socket;
		snprintf(g->label, sizeof(g->label), "S%d", t.socket);
		break;
	default:
		g->key[0] = t.node;
		snprintf(g->label, sizeof(g->label), "N%d", t.node);
		break;
	}
	return 0;
}

/* The group of thread tid: its name from /proc as it is now (perf's "comm-tid"). */
static void thread_aggr(pid_t tid, struct aggr *g)
{
	char path[64];
	FILE *f;

	*g = (struct aggr){ .nr = 1, .tid = tid, .key = { tid } };
	snprintf(path, sizeof(path), "/proc/%d/comm", (int)tid);
	f = fopen(path, "re");
	if (!f || !fgets(g->comm, sizeof(g->comm), f))
		snprintf(g->comm, sizeof(g->comm), "?");
	if (f)
		fclose(f);
	g->comm[strcspn(g->comm, "\n")] = '\0';
	for (char *c = g->comm; *c; c++)
		if ((unsigned char)*c < 0x20 || *c == 0x7f)
			*c = '?';
	snprintf(g->label, sizeof(g->label), "%s-%d", g->comm, (int)tid);
}

static int cmp_aggr(const void *a, const void *b)
{
	const struct aggr *x = a, *y = b;

	for (int i = 0; i < 3; i++)
		if (x->key[i] != y->key[i])
			return x->key[i] < y->key[i] ? -1 : 1;
	return 0;
}

/*
 * The groups of the CPUs and threads the events were opened on, sorted,
 * and the group of each (CPU, thread) of the maps; -1 after saying why.
 */
int stat_aggrs__make(struct stat_printer *pr)
{
	const struct perfev_cpu_map *cpus = perfev_evlist__cpus(pr->el);
	const struct perfev_thread_map *threads = perfev_evlist__threads(pr->el);
	struct aggr *all;
	int n = 0;

	if (pr->o.aggr == AGGR_GLOBAL || !cpus || !threads)
		return 0;
	pr->nr_cpus = perfev_cpu_map__nr(cpus);
	pr->nr_threads = perfev_thread_map__nr(threads);
	int cells = pr->o.aggr == AGGR_THREAD ? pr->nr_threads : pr->nr_cpus;

	all = calloc((size_t)cells + 1, sizeof(*all));
	pr->cell_aggr = calloc((size_t)pr->nr_cpus * (size_t)pr->nr_threads + 1, sizeof(int));
	if (!all || !pr->cell_aggr) {
		free(all);
		cli_error("out of memory");
		return -1;
	}
	/* Every CPU (or thread) is a group of its own, then those of the same key become one. */
	for (int i = 0; i < cells; i++) {
		struct aggr g;

		if (pr->o.aggr == AGGR_THREAD)
			thread_aggr(perfev_thread_map__tid(threads, i), &g);
		else if (cpu_aggr(pr, perfev_cpu_map__cpu(cpus, i), &g)) {
			free(all);
			return -1;
		}
		int k = 0;

		while (k < n && (pr->o.aggr == AGGR_THREAD || cmp_aggr(&all[k], &g)))
			k++;
		if (k == n)
			all[n++] = g;
		else
			all[k].nr++;
	}
	qsort(all, (size_t)n, sizeof(*all), cmp_aggr);
	for (int ci = 0; ci < pr->nr_cpus; ci++)
		for (int ti = 0; ti < pr->nr_threads; ti++) {
			struct aggr g;
			int *cell = &pr->cell_aggr[ci * pr->nr_threads + ti];

			if (pr->o.aggr == AGGR_THREAD)
				g = (struct aggr){ .key = { perfev_thread_map__tid(threads, ti) } };
			else if (cpu_aggr(pr, perfev_cpu_map__cpu(cpus, ci), &g)) {
				free(all);
				return -1;
			}
			*cell = 0;
			while (*cell < n && cmp_aggr(&all[*cell], &g))
				(*cell)++;
		}
	free(pr->aggrs);
	pr->aggrs = all;
	pr->nr_aggrs = n;
	if (stat_rows__make(pr)) {
		cli_error("out of memory");
		return -1;
	}
	return 0;
}

/* The reading of row r's event summed over the CPUs and threads of its group; -1 when none. */
int stat_row__counts(const struct stat_printer *pr, const struct srow *r, struct perfev_counts *c)
{
	int found = 0;

	if (pr->o.aggr == AGGR_GLOBAL || !pr->cell_aggr)
		return perfev_evsel__counts_total(r->ev, c);
	*c = (struct perfev_counts){ 0 };
	for (int ci = 0; ci < pr->nr_cpus; ci++)
		for (int ti = 0; ti < pr->nr_threads; ti++) {
			struct perfev_counts x;

			if (pr->cell_aggr[ci * pr->nr_threads + ti] != r->aggr ||
			    perfev_evsel__counts(r->ev, ci, ti, &x))
				continue;
			c->val += x.val;
			c->ena += x.ena;
			c->run += x.run;
			found++;
		}
	return found ? 0 : -1;
}

/* qsort_r's context: the rows of one event of --per-thread, heaviest first (perf's order). */
static int cmp_heavier(const void *a, const void *b, void *ctx)
{
	const struct srow *rows = ctx, *x = &rows[*(const int *)a], *y = &rows[*(const int *)b];
	double vx = x->counted ? x->val : -1, vy = y->counted ? y->val : -1;

	if (vx != vy)
		return vx > vy ? -1 : 1;
	return (x->aggr > y->aggr) - (x->aggr < y->aggr);
}

/*
 * The rows in the order they are printed, hidden ones left out, into order
 * (pr->nr entries); their number.  Per CPU and per thread, as perf: each
 * event's rows together (per thread the heaviest first); per core, die,
 * socket or node, each group's events together.
 */
int stat_rows__order(const struct stat_printer *pr, int *order)
{
	int n = 0, na = pr->nr_aggrs;
	bool by_group = pr->o.aggr >= AGGR_CORE;

	for (int i = 0; i < (by_group ? na : pr->nr_evs); i++) {
		int start = n;

		for (int k = 0; k < (by_group ? pr->nr_evs : na); k++) {
			int idx = by_group ? k * na + i : i * na + k;

			if (!pr->rows[idx].hidden)
				order[n++] = idx;
		}
		if (pr->o.aggr == AGGR_THREAD)
			qsort_r(order + start, (size_t)(n - start), sizeof(*order), cmp_heavier,
				pr->rows);
	}
	return n;
}

