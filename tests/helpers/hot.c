/*
 * A CPU-bound workload with known hot spots: hot_a() takes about two thirds
 * of the time and hot_b() one third, both called from work() from main(),
 * so a profile must show hot_a on top, then hot_b, with main → work above.
 * Usage: hot [MILLIONS]  (iterations of hot_b, default 100)
 */
#include <stdio.h>
#include <stdlib.h>

static volatile unsigned long sink;

__attribute__((noinline)) static unsigned long hot_a(unsigned long n, unsigned long seed)
{
	unsigned long x = seed;

	for (unsigned long i = 0; i < n; i++)
		x = (x ^ (x >> 29)) * 2862933555777941757ul + i;
	return x;
}

__attribute__((noinline)) static unsigned long hot_b(unsigned long n, unsigned long seed)
{
	unsigned long x = seed;

	for (unsigned long i = 0; i < n; i++)
		x = (x ^ (x >> 31)) * 6364136223846793005ul + i;
	return x;
}

__attribute__((noinline)) static void work(unsigned long n)
{
	/* Interleaved slices, so a sample rate much below the run time still sees both. */
	for (int slice = 0; slice < 100; slice++) {
		sink += hot_a(2 * n / 100, sink + (unsigned long)slice);
		sink += hot_b(n / 100, sink + (unsigned long)slice);
	}
}

int main(int argc, char **argv)
{
	unsigned long millions = argc > 1 ? strtoul(argv[1], NULL, 10) : 100;

	work(millions * 1000000ul);
	printf("%lu\n", sink & 1);
	return 0;
}
