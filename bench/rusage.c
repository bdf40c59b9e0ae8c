// SPDX-License-Identifier: MIT
/*
 * rusage [-c] RUNS COMMAND [ARGS...]: runs the command RUNS times with its
 * output to /dev/null and prints "MEDIAN_WALL_SECONDS MAX_PEAK_RSS_KB" (the
 * peak resident memory the kernel accounted to the child, wait4's
 * ru_maxrss), for the benchmarks that compare time and memory of two tools
 * in one run.  With -c, a third column: the median CPU seconds (user +
 * system, all threads), steadier than wall time on a loaded machine.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
	int cpu_too = argc > 1 && !strcmp(argv[1], "-c");
	int runs;
	double *wall, *cpu;
	long peak = 0;

	argv += cpu_too;
	argc -= cpu_too;
	runs = argc > 2 ? atoi(argv[1]) : 0;
	if (runs < 1 || runs > 1000) {
		fprintf(stderr, "usage: rusage [-c] RUNS COMMAND [ARGS...]\n");
		return 2;
	}
	wall = calloc(runs, sizeof(*wall));
	cpu = calloc(runs, sizeof(*cpu));
	if (!wall || !cpu)
		return 2;
	for (int i = 0; i < runs; i++) {
		struct timespec a, b;
		struct rusage ru;
		int status;
		pid_t pid;

		clock_gettime(CLOCK_MONOTONIC, &a);
		pid = fork();
		if (pid < 0) {
			perror("rusage: fork");
			return 2;
		}
		if (!pid) {
			int fd = open("/dev/null", O_WRONLY);

			if (fd >= 0) {
				dup2(fd, 1);
				dup2(fd, 2);
			}
			execvp(argv[2], argv + 2);
			_exit(127);
		}
		if (wait4(pid, &status, 0, &ru) < 0) {
			perror("rusage: wait4");
			return 2;
		}
		clock_gettime(CLOCK_MONOTONIC, &b);
		if (!WIFEXITED(status) || WEXITSTATUS(status)) {
			fprintf(stderr, "rusage: '%s' failed (status %d)\n", argv[2], status);
			return 1;
		}
		wall[i] = (b.tv_sec - a.tv_sec) + (b.tv_nsec - a.tv_nsec) / 1e9;
		cpu[i] = ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 + ru.ru_stime.tv_sec +
			 ru.ru_stime.tv_usec / 1e6;
		if (ru.ru_maxrss > peak)
			peak = ru.ru_maxrss;
	}
	qsort(wall, runs, sizeof(*wall), cmp);
	qsort(cpu, runs, sizeof(*cpu), cmp);
	if (cpu_too)
		printf("%.6f %ld %.6f\n", wall[runs / 2], peak, cpu[runs / 2]);
	else
		printf("%.6f %ld\n", wall[runs / 2], peak);
	free(wall);
	free(cpu);
	return 0;
}
