/*
 * A switch-heavy workload: two processes pass a byte back and forth over a
 * pair of pipes argv[1] times (default 10000), so each blocks on every
 * round trip: two context switches per side per round.
 */
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

static void __attribute__((noinline)) bounce(int in, int out, long n, int first)
{
	char c = 'x';

	for (long i = 0; i < n; i++) {
		if (first && write(out, &c, 1) != 1)
			exit(3);
		if (read(in, &c, 1) != 1)
			exit(3);
		if (!first && write(out, &c, 1) != 1)
			exit(3);
	}
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 10000;
	int a[2], b[2];
	pid_t child;

	if (n < 1 || pipe(a) || pipe(b))
		return 2;
	child = fork();
	if (child < 0)
		return 2;
	if (!child) {
		bounce(a[0], b[1], n, 0);
		_exit(0);
	}
	bounce(b[0], a[1], n, 1);
	return waitpid(child, NULL, 0) == child ? 0 : 2;
}
