/*
 * A C++ program whose hot helper, mix() of mix.h, is inlined into hot():
 * perfev annotate must put mix()'s samples under mix.h's lines and count
 * them for the line of hot() that calls it.
 * Usage: inl [REPS]   (passes over 4096 values; default 30000)
 */
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "mix.h"

__attribute__((noinline)) unsigned long hot(const std::vector<unsigned long> &v, int reps)
{
	unsigned long s = 0;

	for (int r = 0; r < reps; r++)
		for (unsigned long x : v)
			s = mix(s + x, (unsigned long)r);	/* calls the hot helper */
	return s;
}

int main(int argc, char **argv)
{
	std::vector<unsigned long> v(4096);

	for (size_t i = 0; i < v.size(); i++)
		v[i] = i * 7;
	std::printf("%lu\n", hot(v, argc > 1 ? std::atoi(argv[1]) : 30000));
	return 0;
}
