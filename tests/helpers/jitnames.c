/*
 * Code whose names no compiler would give it, for the escaping of every
 * output: "JIT" code (copies of a tiny counting loop in executable anonymous
 * memory, x86-64 only) named in /tmp/perf-PID.map as a runtime names it,
 * with names holding invalid UTF-8, quotes, <, &, ; and control bytes; the
 * command itself renamed to such bytes.  Runs each for argv[1] ms (default
 * 200) of CPU; prints "unsupported" and exits 2 on other machines.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

static const char *const names[] = {
	"bad\xff\xfe utf8 \xc3(",
	"quote\"double' and `back`",
	"<script>alert(1)</script> & &amp;",
	"ctrl\x01\x02\x1b[31mred\x7f tab\there",
	"semi;colon name(args) [x]",
};
#define NR (sizeof(names) / sizeof(names[0]))

static long long cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

int main(int argc, char **argv)
{
#if defined(__x86_64__)
	/* mov rcx, 1000000; loop: dec rcx; jnz loop; ret */
	static const unsigned char loop[] = { 0x48, 0xb9, 0x40, 0x42, 0x0f, 0, 0, 0, 0, 0,
					      0x48, 0xff, 0xc9, 0x75, 0xfb, 0xc3 };
	long ms = argc > 1 ? atol(argv[1]) : 200;
	unsigned char *code = mmap(NULL, 4096 * NR, PROT_READ | PROT_WRITE,
				   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char path[64];
	FILE *map;

	if (code == MAP_FAILED)
		return 1;
	for (size_t i = 0; i < NR; i++)
		memcpy(code + 4096 * i, loop, sizeof(loop));
	if (mprotect(code, 4096 * NR, PROT_READ | PROT_EXEC))
		return 1;
	snprintf(path, sizeof(path), "/tmp/perf-%d.map", (int)getpid());
	map = fopen(path, "w");
	if (!map)
		return 1;
	for (size_t i = 0; i < NR; i++)
		fprintf(map, "%lx %zx %s\n", (unsigned long)(code + 4096 * i), sizeof(loop), names[i]);
	fclose(map);
	prctl(PR_SET_NAME, "j\xff<&\"\x01;x", 0, 0, 0);
	for (size_t i = 0; i < NR; i++) {
		void (*fn)(void) = (void (*)(void))(code + 4096 * i);
		long long t0 = cpu_ns();

		while (cpu_ns() - t0 < ms * 1000000LL)
			fn();
	}
	return 0;
#else
	(void)argc;
	(void)argv;
	puts("unsupported");
	return 2;
#endif
}
