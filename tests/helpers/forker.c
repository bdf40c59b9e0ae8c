/* Forks a child that forks a grandchild; only the grandchild touches N pages (argv[1]). */
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 1000, pg = sysconf(_SC_PAGESIZE);
	pid_t c = fork();

	if (c == 0) {
		pid_t g = fork();

		if (g == 0) {
			volatile char *p = mmap(NULL, (size_t)(n * pg), PROT_READ | PROT_WRITE,
						MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

			if (p == MAP_FAILED)
				_exit(1);
			for (long i = 0; i < n; i++)
				p[i * pg] = 1;
			_exit(0);
		}
		waitpid(g, NULL, 0);
		_exit(0);
	}
	waitpid(c, NULL, 0);
	return 0;
}
