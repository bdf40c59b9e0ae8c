/* Touches N fresh anonymous pages (argv[1]): at least N page faults. */
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 1000, pg = sysconf(_SC_PAGESIZE);
	volatile char *p = mmap(NULL, (size_t)(n * pg), PROT_READ | PROT_WRITE,
				MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED) {
		perror("mmap");
		return 1;
	}
	for (long i = 0; i < n; i++)
		p[i * pg] = 1;
	return argc > 2 ? atoi(argv[2]) : 0; /* argv[2]: exit status to return */
}
