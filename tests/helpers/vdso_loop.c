/*
 * Reads the clock for argv[1] milliseconds (default 300): clock_gettime of
 * CLOCK_MONOTONIC_COARSE runs in the vDSO whatever the machine's clock
 * source (a fine clock falls back to a system call on some), so most of
 * this program's samples fall there.  Prints how many reads it made.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

int main(int argc, char **argv)
{
	long long ms = argc > 1 ? atoll(argv[1]) : 300, reads = 0, end, now;
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_COARSE, &ts);
	end = ts.tv_sec * 1000000000LL + ts.tv_nsec + ms * 1000000LL;
	do {
		clock_gettime(CLOCK_MONOTONIC_COARSE, &ts);
		now = ts.tv_sec * 1000000000LL + ts.tv_nsec;
		reads++;
	} while (now < end);
	printf("%lld reads\n", reads);
	return 0;
}
