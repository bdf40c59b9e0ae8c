/* Sleeps K times (argv[1]) for 1 ms: at least K context switches. */
#include <stdlib.h>
#include <time.h>

int main(int argc, char **argv)
{
	long k = argc > 1 ? atol(argv[1]) : 10;
	struct timespec ts = { 0, 1000000 };

	for (long i = 0; i < k; i++)
		nanosleep(&ts, NULL);
	return 0;
}
