/*
 * The unwind tests' workload: main -> uw_outer -> uw_middle -> uw_inner,
 * built with -O2 -fomit-frame-pointer so only CFI can walk its stack.
 * uw_inner spins itself ("exe"), or calls uw_lib_spin in libuwlib.so
 * ("lib", GNU ld) or uw_lld_spin in libuwlld.so ("lld", linked by lld),
 * until the time is up.  Prints "ready" on stdout once running.
 *
 *	uw_work SECONDS [exe|lib|lld]
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#if defined(__clang__)
#define NOINLINE __attribute__((noinline))
#else
/* No clones (uw_middle.constprop.0) either: the tests look for these names. */
#define NOINLINE __attribute__((noipa))
#endif

unsigned long uw_lib_spin(unsigned long x);
unsigned long uw_lld_spin(unsigned long x);
unsigned long uw_inner(unsigned long x, int mode);
unsigned long uw_middle(unsigned long x, int mode);
unsigned long uw_outer(unsigned long x, int mode);

static volatile sig_atomic_t done;

static void on_alarm(int sig)
{
	(void)sig;
	done = 1;
}

NOINLINE unsigned long uw_inner(unsigned long x, int mode)
{
	volatile unsigned long buf[4] = { x, x + 1, x + 2, x + 3 };

	while (!done) {
		if (mode == 1)
			x = uw_lib_spin(x);
		else if (mode == 2)
			x = uw_lld_spin(x);
		else
			for (unsigned long i = 0; i < 200000; i++)
				x = x * 2862933555777941757ul + buf[i & 3];
	}
	return x + buf[1];
}

/* Frames of different sizes, so each step has its own CFA offset. */
NOINLINE unsigned long uw_middle(unsigned long x, int mode)
{
	volatile unsigned long pad[24];

	for (unsigned i = 0; i < 24; i++)
		pad[i] = x ^ i;
	return uw_inner(x + pad[3], mode) + pad[7];
}

NOINLINE unsigned long uw_outer(unsigned long x, int mode)
{
	volatile char pad[200];

	memset((char *)pad, (int)x, sizeof(pad));
	return uw_middle(x + (unsigned long)pad[5], mode) + (unsigned long)pad[9];
}

int main(int argc, char **argv)
{
	unsigned secs = argc > 1 ? (unsigned)atoi(argv[1]) : 10;
	const char *m = argc > 2 ? argv[2] : "exe";
	int mode = !strcmp(m, "lib") ? 1 : !strcmp(m, "lld") ? 2 : 0;
	unsigned long r;

	signal(SIGALRM, on_alarm);
	alarm(secs ? secs : 1);
	printf("ready\n");
	fflush(stdout);
	r = uw_outer((unsigned long)argc, mode);
	return r == 42; /* uses r, so nothing above is optimised away */
}
