/*
 * A program before and after a change, for perfev diff: built as it is, and
 * again with -DAFTER (into another directory, under the same file name, as a
 * rebuilt program is).  The change moves time between functions, removes
 * one and adds one:
 *
 *	            before   after
 *	steady        ~20%    ~20%   the same work in both
 *	shrinks       ~50%    ~15%   less work after
 *	grows         ~15%    ~50%   more work after
 *	gone          ~15%      -    only before
 *	fresh           -     ~15%   only after
 *
 * AFTER also puts a function first in the text, so every function of both
 * builds starts at another address: matching must go by name.
 * Usage: diffwork [MILLIONS]  (a unit of work, default 10)
 */
#include <stdio.h>
#include <stdlib.h>

static volatile unsigned long sink;

#define SPIN(n, mul)                                                           \
	do {                                                                   \
		unsigned long x_ = sink;                                       \
		for (unsigned long i_ = 0; i_ < (n); i_++)                     \
			x_ = (x_ ^ (x_ >> 29)) * (mul) + i_;                   \
		sink += x_;                                                    \
	} while (0)

#ifdef AFTER
/* Never run: it only moves the functions below to other addresses. */
__attribute__((noinline)) void padding(unsigned long n)
{
	SPIN(n, 11ul);
	SPIN(n, 13ul);
	SPIN(n, 17ul);
	SPIN(n, 19ul);
}
#endif

__attribute__((noinline)) void steady(unsigned long n)
{
	SPIN(n, 2862933555777941757ul);
}

__attribute__((noinline)) void shrinks(unsigned long n)
{
	SPIN(n, 6364136223846793005ul);
}

__attribute__((noinline)) void grows(unsigned long n)
{
	SPIN(n, 3935559000370003845ul);
}

#ifdef AFTER
__attribute__((noinline)) void fresh(unsigned long n)
{
	SPIN(n, 2685821657736338717ul);
}
#else
__attribute__((noinline)) void gone(unsigned long n)
{
	SPIN(n, 1181783497276652981ul);
}
#endif

int main(int argc, char **argv)
{
	unsigned long unit = (argc > 1 ? strtoul(argv[1], NULL, 10) : 10) * 10000ul;

	/* Interleaved slices, so any stretch of the run sees every function. */
	for (int slice = 0; slice < 100; slice++) {
		steady(4 * unit);
#ifdef AFTER
		shrinks(3 * unit);
		grows(10 * unit);
		fresh(3 * unit);
#else
		shrinks(10 * unit);
		grows(3 * unit);
		gone(3 * unit);
#endif
	}
	printf("%lu\n", sink & 1);
	return 0;
}
