/*
 * The threaded parity workload: three named threads (so --comm tells them
 * apart), each spinning in a function of its own, and the main thread
 * sleeping in the kernel.  Usage: parity_threads [MILLIONS]
 */
#include <pthread.h>
#include <stdlib.h>

static volatile unsigned long sink;

__attribute__((noinline)) static void spin_x(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		sink += i * 7;
}

__attribute__((noinline)) static void spin_y(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		sink ^= i * 13;
}

struct job {
	const char *name;
	void (*fn)(unsigned long);
	unsigned long n;
};

static void *run(void *arg)
{
	const struct job *j = arg;

	pthread_setname_np(pthread_self(), j->name);
	j->fn(j->n);
	return NULL;
}

int main(int argc, char **argv)
{
	unsigned long m = (argc > 1 ? strtoul(argv[1], NULL, 10) : 50) * 1000000ul;
	struct job jobs[3] = { { "worker-x", spin_x, m }, { "worker-y", spin_y, m / 2 },
			       { "worker-z", spin_x, m / 4 } };
	pthread_t t[3];

	for (int i = 0; i < 3; i++)
		pthread_create(&t[i], NULL, run, &jobs[i]);
	for (int i = 0; i < 3; i++)
		pthread_join(t[i], NULL);
	return 0;
}
