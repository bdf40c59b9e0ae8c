/*
 * The cost of reading one counter through libperfev (perfev_evlist__read of
 * a one-event list, which decodes the read_format and stores the reading)
 * against a raw read(2) of the same fd.  Rounds alternate the two so that
 * machine noise hits all alike; the figure is the median of the per-round ratios.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "perfev/perfev.h"

#define ROUNDS 201
#define READS 4000

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

int main(void)
{
	struct perfev_evlist *el = perfev_evlist__new();
	struct perfev_open_opts o = { .sz = sizeof(o), .pid = 0 };
	double lib[ROUNDS], one[ROUNDS], raw[ROUNDS];
	struct perfev_counts c;
	struct perfev_evsel *ev;
	uint64_t buf[8];
	int fd;

	if (perfev_evlist__add_events(el, "task-clock") || perfev_evlist__open(el, &o)) {
		fprintf(stderr, "bench_read: %s\n", perfev_last_error());
		return 1;
	}
	ev = perfev_evlist__next_evsel(el, NULL);
	fd = perfev_evsel__fd(ev, 0, 0);
	for (int r = 0; r < ROUNDS; r++) {
		double t[4];

		/* The order rotates each round so warm-up and drift favour no one. */
		for (int k = 0; k < 3; k++) {
			int which = (k + r) % 3;

			t[0] = now();
			for (int i = 0; i < READS; i++) {
				if (which == 0)
					perfev_evsel__read(ev, 0, 0, &c);
				else if (which == 1)
					perfev_evlist__read(el);
				else if (read(fd, buf, sizeof(buf)) < 0)
					return 1;
			}
			t[1] = now();
			(which == 0 ? one : which == 1 ? lib : raw)[r] = (t[1] - t[0]) / READS;
		}
	}
	/* Ratios within a round share that round's machine state; their median is the figure. */
	double r1[ROUNDS], r2[ROUNDS];

	for (int r = 0; r < ROUNDS; r++) {
		r1[r] = one[r] / raw[r];
		r2[r] = lib[r] / raw[r];
	}
	qsort(r1, ROUNDS, sizeof(double), cmp_double);
	qsort(r2, ROUNDS, sizeof(double), cmp_double);
	qsort(lib, ROUNDS, sizeof(double), cmp_double);
	qsort(one, ROUNDS, sizeof(double), cmp_double);
	qsort(raw, ROUNDS, sizeof(double), cmp_double);
	printf("counter_read_vs_read2: ratio %.3f (perfev_evsel__read %.1f ns, read(2) %.1f ns; "
	       "medians of %d rounds x %d reads; goal <= 1.05)\n",
	       r1[ROUNDS / 2], one[ROUNDS / 2], raw[ROUNDS / 2], ROUNDS, READS);
	printf("evlist_read_vs_read2: ratio %.3f (perfev_evlist__read of a one-event list %.1f ns, "
	       "read(2) %.1f ns)\n",
	       r2[ROUNDS / 2], lib[ROUNDS / 2], raw[ROUNDS / 2]);
	perfev_evlist__delete(el);
	return 0;
}
