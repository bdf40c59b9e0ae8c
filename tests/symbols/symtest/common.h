/*
 * Shared by the symbol test programs: print the runtime address of each
 * function named, then wait for stdin to close, so the test can read
 * /proc/PID/maps while the mapping exists.
 */
#ifndef SYMTEST_COMMON_H
#define SYMTEST_COMMON_H

#include <stdio.h>
#include <unistd.h>

#define SHOW(fn) printf("%s %p\n", #fn, (void *)(fn))

static inline void wait_for_eof(void)
{
	char c;

	fflush(stdout);
	while (read(0, &c, 1) > 0)
		;
}

#endif
