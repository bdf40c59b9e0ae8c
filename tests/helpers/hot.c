/*
 * A CPU-bound workload with known hot spots: hot_a() takes about two thirds
 * of the time and hot_b() one third, both called from work() from main(),
 * so a profile must show hot_a on top, then hot_b, with main → work above.
 * Usage: hot [MILLIONS [SLICES]]  (iterations of hot_b, default 100, in SLICES
 * interleaved slices, default 100: more make the 2:1 hold over shorter windows)
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

__attribute__((noinline)) static void work(unsigned long n, unsigned long slices)
{
	/* Interleaved slices, so a sample rate much below the run time still sees both. */
	for (unsigned long slice = 0; slice < slices; slice++) {
		sink += hot_a(2 * n / slices, sink + slice);
		sink += hot_b(n / slices, sink + slice);
	}
}

int main(int argc, char **argv)
{
	unsigned long millions = argc > 1 ? strtoul(argv[1], NULL, 10) : 100;
	unsigned long slices = argc > 2 ? strtoul(argv[2], NULL, 10) : 100;

	work(millions * 1000000ul, slices ? slices : 1);
	printf("%lu\n", sink & 1);
	return 0;
}
