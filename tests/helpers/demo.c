/*
 * The bundled workload of 'make demo': a small program with a few clearly
 * different hot spots, so a profile of it has something to show.
 *   compute_primes  - pure integer work
 *   sort_records    - qsort over an array, memory and branches
 *   touch_memory    - fresh pages: page faults
 *   chatty_syscalls - many small system calls
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

static unsigned long __attribute__((noinline)) compute_primes(unsigned long limit)
{
	unsigned long found = 0;

	for (unsigned long n = 2; n < limit; n++) {
		int prime = 1;

		for (unsigned long d = 2; d * d <= n; d++)
			if (n % d == 0) {
				prime = 0;
				break;
			}
		found += (unsigned long)prime;
	}
	return found;
}

static int cmp_u32(const void *a, const void *b)
{
	unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;

	return (x > y) - (x < y);
}

static unsigned __attribute__((noinline)) sort_records(size_t n)
{
	unsigned *v = malloc(n * sizeof(*v)), seed = 12345, r;

	if (!v)
		return 0;
	for (size_t i = 0; i < n; i++)
		v[i] = seed = seed * 1103515245u + 12345u;
	qsort(v, n, sizeof(*v), cmp_u32);
	r = v[n / 2];
	free(v);
	return r;
}

static long __attribute__((noinline)) touch_memory(long pages)
{
	long pg = sysconf(_SC_PAGESIZE), sum = 0;
	char *p = mmap(NULL, (size_t)(pages * pg), PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return 0;
	for (long i = 0; i < pages; i++) {
		p[i * pg] = (char)i;
		sum += p[i * pg];
	}
	munmap(p, (size_t)(pages * pg));
	return sum;
}

static long __attribute__((noinline)) chatty_syscalls(long n)
{
	long s = 0;

	for (long i = 0; i < n; i++)
		s += syscall(SYS_getppid);
	return s;
}

int main(int argc, char **argv)
{
	int scale = argc > 1 ? atoi(argv[1]) : 1;

	if (scale < 1)
		scale = 1;
	unsigned long primes = compute_primes(300000UL * (unsigned long)scale);
	unsigned median = sort_records(2000000u * (size_t)scale);
	long touched = touch_memory(20000L * scale);
	long calls = chatty_syscalls(200000L * scale);

	printf("demo workload: %lu primes, median %u, %ld pages, %ld syscalls\n", primes, median,
	       touched ? 20000L * scale : 0, calls ? 200000L * scale : 0);
	return 0;
}
