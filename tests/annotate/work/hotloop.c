/*
 * A C program with a known hot loop, for perfev annotate's tests: nearly
 * all its time is hot_loop()'s inner loop (the lines marked HOT).  Built
 * as is, stripped with a separate debug file, with its source path moved
 * away, and with other code (-DREBUILT) to stand for a rebuilt binary.
 * Usage: hotloop [REPS]   (passes over 4096 values; default 100000)
 */
#include <stdio.h>
#include <stdlib.h>

static volatile double sink;

/* Kept whole and under its own name (gcc would clone it as hot_loop.constprop.0). */
#ifdef __clang__
#define KEEP __attribute__((noinline))
#else
#define KEEP __attribute__((noinline, noclone))
#endif

#ifdef REBUILT
/* Code the recorded binary did not have, placed first: hot_loop() moves. */
__attribute__((noinline)) double rebuilt_extra(double x)
{
	for (int i = 0; i < 64; i++)
		x = x * 1.0001 + (double)i;
	return x;
}
#endif

KEEP double hot_loop(const double *v, size_t n, int reps)
{
	double s = 0;

	for (int r = 0; r < reps; r++)
		for (size_t i = 0; i < n; i++) {	/* HOT */
			if (v[i] > 0.5)			/* HOT */
				s += v[i] * v[i];	/* HOT */
			else
				s -= v[i] / 3.0;	/* HOT */
		}
	return s;
}

int main(int argc, char **argv)
{
	size_t n = 4096;
	int reps = argc > 1 ? atoi(argv[1]) : 100000;
	double *v = malloc(n * sizeof(*v));

	if (!v)
		return 1;
	for (size_t i = 0; i < n; i++)
		v[i] = (double)((i * 2654435761u) % 1000) / 1000.0;
#ifdef REBUILT
	sink = rebuilt_extra(hot_loop(v, n, reps));
#else
	sink = hot_loop(v, n, reps);
#endif
	printf("%f\n", sink);
	free(v);
	return 0;
}
