/* Burns CPU for argv[1] milliseconds of its own CPU time, then prints that time in ns. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static volatile unsigned long sink;

static long long cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

int main(int argc, char **argv)
{
	long long ms = argc > 1 ? atoll(argv[1]) : 100, t0 = cpu_ns();

	while (cpu_ns() - t0 < ms * 1000000LL)
		for (int i = 0; i < 10000; i++)
			sink += (unsigned long)i * 7;
	printf("%lld\n", cpu_ns());
	return 0;
}
