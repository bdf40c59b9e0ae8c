/*
 * A multi-threaded workload for the profile exports: argv[1] ms of CPU in
 * each of three threads, each in a function of its own (thread_alpha,
 * thread_beta, thread_gamma), and the main thread in main_spin.
 */
#include <pthread.h>
#include <stdlib.h>
#include <time.h>

static volatile unsigned long sink;
static long ms = 300;

static long long cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void __attribute__((noinline)) burn(long scale)
{
	long long t0 = cpu_ns();

	while (cpu_ns() - t0 < ms * scale * 1000000LL / 4)
		for (int i = 0; i < 1000; i++)
			sink += (unsigned long)i;
}

static void *__attribute__((noinline)) thread_alpha(void *arg)
{
	(void)arg;
	burn(4);
	return NULL;
}

static void *__attribute__((noinline)) thread_beta(void *arg)
{
	(void)arg;
	burn(2);
	return NULL;
}

static void *__attribute__((noinline)) thread_gamma(void *arg)
{
	(void)arg;
	burn(1);
	return NULL;
}

static void __attribute__((noinline)) main_spin(void)
{
	burn(1);
}

int main(int argc, char **argv)
{
	void *(*fns[])(void *) = { thread_alpha, thread_beta, thread_gamma };
	pthread_t t[3];

	if (argc > 1)
		ms = atol(argv[1]);
	for (int i = 0; i < 3; i++)
		if (pthread_create(&t[i], NULL, fns[i], NULL))
			return 1;
	main_spin();
	for (int i = 0; i < 3; i++)
		pthread_join(t[i], NULL);
	return 0;
}
