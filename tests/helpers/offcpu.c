/*
 * The off-CPU workload, with its own truth: sleepy() sleeps 30 x 10 ms,
 * waity() blocks 10 times on a pipe read that another process (the feeder)
 * answers after 15 ms, busy() computes for 200 ms of CPU, and two threads
 * (starved(), "starved-a" and "starved-b") spin for 300 ms each pinned to
 * the same CPU, so that each waits runnable while the other runs.  Every
 * blocking call is a system call made from the function itself (not
 * through libc, which has no frame pointers), so frame-pointer stacks
 * show the function.  What each part took, as the workload measured it,
 * goes to standard output (a thread's elapsed time from its first line to
 * its last):
 *
 *	main tid=T elapsed_ns=N sleepy_ns=N waity_ns=N busy_ns=N
 *	starved tid=T elapsed_ns=N cpu_ns=N
 *	feeder tid=T elapsed_ns=N
 *
 * argv[1] scales every duration (default 1).
 */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double scale = 1;
static volatile unsigned long sink;

/* A system call made right here: the kernel's user stack starts in the caller's frame. */
static inline __attribute__((always_inline)) long sys3(long nr, long a, long b, long c)
{
	long ret;
#if defined(__x86_64__)
	__asm__ volatile("syscall"
			 : "=a"(ret)
			 : "a"(nr), "D"(a), "S"(b), "d"(c)
			 : "rcx", "r11", "memory");
#elif defined(__aarch64__)
	register long x8 __asm__("x8") = nr, x0 __asm__("x0") = a, x1 __asm__("x1") = b,
			   x2 __asm__("x2") = c;
	__asm__ volatile("svc 0" : "+r"(x0) : "r"(x8), "r"(x1), "r"(x2) : "memory");
	ret = x0;
#else
	ret = syscall(nr, a, b, c);
#endif
	return ret;
}

static long long now_ns(clockid_t c)
{
	struct timespec ts;

	clock_gettime(c, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static long long ms(double v)
{
	return (long long)(v * scale * 1e6);
}

static long long __attribute__((noinline)) sleepy(void)
{
	long long total = 0;

	for (int i = 0; i < 30; i++) {
		struct timespec ts = { 0, ms(10) };
		long long t0 = now_ns(CLOCK_MONOTONIC);

		while (ts.tv_nsec >= 1000000000L) {
			ts.tv_sec++;
			ts.tv_nsec -= 1000000000L;
		}
		sys3(SYS_nanosleep, (long)&ts, 0, 0);
		total += now_ns(CLOCK_MONOTONIC) - t0;
	}
	return total;
}

static long long __attribute__((noinline)) waity(int req, int resp)
{
	long long total = 0;
	char c = 'x';

	for (int i = 0; i < 10; i++) {
		long long t0;

		if (sys3(SYS_write, req, (long)&c, 1) != 1)
			exit(3);
		t0 = now_ns(CLOCK_MONOTONIC);
		if (sys3(SYS_read, resp, (long)&c, 1) != 1)
			exit(3);
		total += now_ns(CLOCK_MONOTONIC) - t0;
	}
	return total;
}

static long long __attribute__((noinline)) busy(void)
{
	long long t0 = now_ns(CLOCK_THREAD_CPUTIME_ID), w0 = now_ns(CLOCK_MONOTONIC);

	while (now_ns(CLOCK_THREAD_CPUTIME_ID) - t0 < ms(200))
		for (int i = 0; i < 1000; i++)
			sink += (unsigned long)i;
	return now_ns(CLOCK_MONOTONIC) - w0;
}

/* The other process: each byte asked for is answered 15 ms later. */
static void __attribute__((noinline)) feeder(int req, int resp, long long t0)
{
	char line[128], c;
	int n;

	while (read(req, &c, 1) == 1 && c != 'q') {
		struct timespec ts = { 0, ms(15) };

		nanosleep(&ts, NULL);
		if (write(resp, &c, 1) != 1)
			_exit(3);
	}
	n = snprintf(line, sizeof(line), "feeder tid=%d elapsed_ns=%lld\n", (int)getpid(),
		     now_ns(CLOCK_MONOTONIC) - t0);
	if (write(1, line, (size_t)n) != n)
		_exit(3);
	_exit(0);
}

struct starved_arg {
	const char *name;
	long long elapsed, cpu;
	int tid;
};

static pthread_barrier_t barrier;

static void *__attribute__((noinline)) starved(void *p)
{
	struct starved_arg *a = p;
	long long t0 = now_ns(CLOCK_MONOTONIC), c0 = now_ns(CLOCK_THREAD_CPUTIME_ID), s0;
	cpu_set_t set;

	prctl(PR_SET_NAME, a->name);
	a->tid = (int)syscall(SYS_gettid);
	CPU_ZERO(&set);
	CPU_SET(0, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		exit(4);
	pthread_barrier_wait(&barrier);
	s0 = now_ns(CLOCK_MONOTONIC);
	while (now_ns(CLOCK_MONOTONIC) - s0 < ms(300))
		for (int i = 0; i < 1000; i++)
			sink += (unsigned long)i;
	a->cpu = now_ns(CLOCK_THREAD_CPUTIME_ID) - c0;
	a->elapsed = now_ns(CLOCK_MONOTONIC) - t0;
	return NULL;
}

int main(int argc, char **argv)
{
	long long t0 = now_ns(CLOCK_MONOTONIC), s, w, b;
	struct starved_arg args[2] = { { .name = "starved-a" }, { .name = "starved-b" } };
	pthread_t th[2];
	int req[2], resp[2];
	pid_t child;

	if (argc > 1)
		scale = atof(argv[1]);
	if (scale <= 0 || scale > 100 || pipe(req) || pipe(resp))
		return 2;
	child = fork();
	if (child < 0)
		return 2;
	if (!child) {
		long long f0 = now_ns(CLOCK_MONOTONIC);

		close(req[1]);
		close(resp[0]);
		feeder(req[0], resp[1], f0);
	}
	close(req[0]);
	close(resp[1]);
	s = sleepy();
	w = waity(req[1], resp[0]);
	b = busy();
	pthread_barrier_init(&barrier, NULL, 2);
	for (int i = 0; i < 2; i++)
		if (pthread_create(&th[i], NULL, starved, &args[i]))
			return 2;
	for (int i = 0; i < 2; i++)
		pthread_join(th[i], NULL);
	if (write(req[1], "q", 1) != 1 || waitpid(child, NULL, 0) != child)
		return 2;
	for (int i = 0; i < 2; i++)
		printf("starved tid=%d elapsed_ns=%lld cpu_ns=%lld\n", args[i].tid, args[i].elapsed,
		       args[i].cpu);
	printf("main tid=%d elapsed_ns=%lld sleepy_ns=%lld waity_ns=%lld busy_ns=%lld\n", (int)getpid(),
	       now_ns(CLOCK_MONOTONIC) - t0, s, w, b);
	return 0;
}
