// The shared library of the C++ parity workload: calls that cross the PLT both
// ways (malloc, operator new, memcpy), and an inlined helper for DWARF frames.
#include <cstdlib>
#include <cstring>
#include <vector>

#include "parity_lib.h"

static inline unsigned long __attribute__((always_inline)) mix(unsigned long x, unsigned long i)
{
	return (x ^ (x >> 29)) * 2862933555777941757ul + i;
}

unsigned long lib_hash(unsigned long n, unsigned long seed)
{
	unsigned long x = seed;

	for (unsigned long i = 0; i < n; i++)
		x = mix(x, i);
	return x;
}

unsigned long lib_alloc(unsigned long n)
{
	unsigned long sum = 0;

	for (unsigned long i = 0; i < n; i++) {
		std::vector<unsigned long> *v = new std::vector<unsigned long>(64, i);
		char *p = static_cast<char *>(std::malloc(256 + i % 512));

		std::memcpy(p, v->data(), 256);
		sum += static_cast<unsigned long>(p[i % 256]) + v->back();
		std::free(p);
		delete v;
	}
	return sum;
}
