/*
 * Starts argv[1] threads (default 3000), all alive at once, each faulting in
 * a page of its own: a recording of page-faults -c 1 then has a sample in
 * every thread (a report by tid has that many rows).
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

static pthread_barrier_t all_started;

static void *touch(void *arg)
{
	long pg = sysconf(_SC_PAGESIZE);
	volatile char *p = mmap(NULL, (size_t)pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
				-1, 0);

	(void)arg;
	if (p != MAP_FAILED) {
		p[0] = 1;
		munmap((void *)p, (size_t)pg);
	}
	pthread_barrier_wait(&all_started);
	return NULL;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 3000;
	pthread_t *t = calloc(n > 0 ? (size_t)n : 1, sizeof(*t));
	pthread_attr_t attr;

	if (n <= 0 || !t || pthread_barrier_init(&all_started, NULL, (unsigned)n + 1))
		return 1;
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, 64 << 10);
	for (long i = 0; i < n; i++)
		if (pthread_create(&t[i], &attr, touch, NULL)) {
			fprintf(stderr, "many_threads: thread %ld of %ld could not start\n", i + 1, n);
			return 1;
		}
	pthread_barrier_wait(&all_started);
	for (long i = 0; i < n; i++)
		pthread_join(t[i], NULL);
	free(t);
	return 0;
}
