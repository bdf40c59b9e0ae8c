/*
 * Counting a code region with libperfev: CPU time, page faults and context
 * switches of one function call, read as one group.
 *
 *   cc count_region.c $(pkg-config --cflags --libs perfev) -o count_region
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <perfev/perfev.h>

static double work(size_t n)
{
	double *v = malloc(n * sizeof(*v)), s = 0;

	if (!v)
		return 0;
	for (size_t i = 0; i < n; i++)
		v[i] = (double)i * 0.5;
	for (size_t i = 0; i < n; i++)
		s += v[i];
	free(v);
	return s;
}

int main(void)
{
	struct perfev_evlist *el = perfev_evlist__new();
	struct perfev_open_opts opts = { .sz = sizeof(opts), .pid = 0, .start_disabled = true };
	struct perfev_evsel *ev;

	if (!el || perfev_evlist__add_events(el, "{task-clock,page-faults,context-switches}") ||
	    perfev_evlist__open(el, &opts)) {
		fprintf(stderr, "count_region: %s\n", perfev_last_error());
		perfev_evlist__delete(el);
		return 1;
	}

	perfev_evlist__enable(el); /* the region starts */
	double r = work(4u << 20);
	perfev_evlist__disable(el); /* and ends */

	if (perfev_evlist__read(el)) {
		fprintf(stderr, "count_region: %s\n", perfev_last_error());
		perfev_evlist__delete(el);
		return 1;
	}
	printf("work() = %.0f\n", r);
	perfev_evlist__for_each_evsel(el, ev) {
		struct perfev_counts c;

		perfev_evsel__counts_total(ev, &c);
		printf("%20llu  %s\n", (unsigned long long)perfev_counts__scaled(&c),
		       perfev_evsel__name(ev));
	}
	perfev_evlist__delete(el);
	return 0;
}
