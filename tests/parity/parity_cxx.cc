// The C++ parity workload: a program whose time goes to a shared library
// (through its PLT), to libstdc++ and libc (operator new, malloc), and to a
// template instantiated here.  Usage: parity_cxx [ROUNDS]
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "parity_lib.h"

namespace parity {
template <typename T> __attribute__((noinline)) T sort_some(std::vector<T> &v, unsigned seed)
{
	for (auto &x : v)
		x = static_cast<T>(seed = seed * 1103515245u + 12345u);
	std::sort(v.begin(), v.end());
	return v[v.size() / 2];
}
} // namespace parity

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? std::atoi(argv[1]) : 10;
	std::vector<unsigned> v(20000);
	unsigned long sum = 0;

	for (int r = 0; r < rounds; r++) {
		sum += lib_hash(2000000, static_cast<unsigned long>(r));
		sum += lib_alloc(20000);
		sum += parity::sort_some(v, static_cast<unsigned>(r));
	}
	std::printf("%lu\n", sum & 1);
	return 0;
}
