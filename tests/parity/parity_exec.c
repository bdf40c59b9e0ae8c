/*
 * The fork/exec parity workload: parity_exec N forks a child that execs
 * parity_exec N-1 (a chain of processes, each new image exec'd while being
 * sampled), and spins between; at 0 it execs the command given after "--".
 * Usage: parity_exec DEPTH [-- COMMAND ARGS...]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile unsigned long sink;

__attribute__((noinline)) static void spin(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		sink += i;
}

int main(int argc, char **argv)
{
	int depth = argc > 1 ? atoi(argv[1]) : 3;
	char arg[16];
	pid_t c;

	spin(60000000);
	if (depth <= 0) {
		if (argc > 3 && !strcmp(argv[2], "--")) {
			execvp(argv[3], argv + 3);
			perror(argv[3]);
			return 127;
		}
		return 0;
	}
	c = fork();
	if (c < 0)
		return 1;
	if (c == 0) {
		snprintf(arg, sizeof(arg), "%d", depth - 1);
		argv[1] = arg;
		execv(argv[0], argv);
		_exit(127);
	}
	spin(20000000);
	waitpid(c, NULL, 0);
	return 0;
}
