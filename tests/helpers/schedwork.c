/*
 * A workload whose scheduling is known, for perfev sched's tests: a thread
 * that sleeps (sleepy: 20 sleeps of 10 ms), one that blocks reading a pipe
 * that another fills every 5 ms (waiter and feeder, 10 times), and two
 * threads that compute on the same CPU (spin0 and spin1, pinned to CPU 0,
 * each for about SPIN_MS ms of its own CPU time), so each waits runnable
 * while the other runs: preemption.  Threads are named for the reports.
 * Usage: schedwork [SPIN_MS]   (default 100)
 */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

static int fds[2];
static long spin_ms = 100;

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, ms % 1000 * 1000000 };

	while (nanosleep(&ts, &ts))
		;
}

static double thread_cpu_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static void *sleepy(void *arg)
{
	(void)arg;
	prctl(PR_SET_NAME, "sleepy");
	for (int i = 0; i < 20; i++)
		sleep_ms(10);
	return NULL;
}

static void *waiter(void *arg)
{
	char c;

	(void)arg;
	prctl(PR_SET_NAME, "waiter");
	for (int i = 0; i < 10; i++)
		if (read(fds[0], &c, 1) != 1)
			break;
	return NULL;
}

static void *feeder(void *arg)
{
	(void)arg;
	prctl(PR_SET_NAME, "feeder");
	for (int i = 0; i < 10; i++) {
		sleep_ms(5);
		if (write(fds[1], "x", 1) != 1)
			break;
	}
	return NULL;
}

static void *spin(void *arg)
{
	cpu_set_t set;
	volatile unsigned long x = 0;
	double end;

	prctl(PR_SET_NAME, (const char *)arg);
	CPU_ZERO(&set);
	CPU_SET(0, &set);
	sched_setaffinity(0, sizeof(set), &set);
	end = thread_cpu_ms() + (double)spin_ms;
	while (thread_cpu_ms() < end)
		for (int i = 0; i < 10000; i++)
			x++;
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t t[5];
	void *(*fn[5])(void *) = { sleepy, waiter, feeder, spin, spin };
	char *names[5] = { NULL, NULL, NULL, "spin0", "spin1" };

	if (argc > 1)
		spin_ms = atol(argv[1]);
	if (pipe(fds))
		return 1;
	for (int i = 0; i < 5; i++)
		if (pthread_create(&t[i], NULL, fn[i], names[i]))
			return 1;
	for (int i = 0; i < 5; i++)
		pthread_join(t[i], NULL);
	return 0;
}
