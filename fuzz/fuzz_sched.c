/*
 * sched/ over untrusted input.  Odd first byte: the rest is a print fmt
 * whose prev_state letters are parsed (states.c).  Even: the rest is a
 * perf.data file (given to the session through a memfd) whose sched
 * tracepoint samples make perf sched latency's and timehist's figures,
 * with today's reading and perf 6.1's, every row and line read, the lines
 * sorted by every key.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "perfev/perfev.h"
#include "sched/sched_int.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static volatile uint64_t sink;

static void quiet(void *ctx, const char *msg)
{
	(void)ctx;
	sink += strlen(msg);
}

static int on_row(void *ctx, const struct perfev_sched_row *r)
{
	(void)ctx;
	sink += r->time + r->cpu + r->wait + r->delay + r->run + (uint64_t)r->state +
		strlen(r->thread.comm) + strlen(r->next_comm) + (uint64_t)r->thread.pid;
	if (r->kind != PERFEV_SCHED_ROW_SWITCH)
		sink += strlen(r->other.comm);
	return 0;
}

static void run(const char *path, bool perf61)
{
	struct perfev_symbolizer_opts so = { .sz = sizeof(so), .kallsyms = "/nonexistent",
					     .jit_dir = "/nonexistent", .buildid_dir = "" };
	struct perfev_data_reader_opts ro = { .sz = sizeof(ro), .warn = quiet };
	struct perfev_session_opts o = { .sz = sizeof(o), .reader_opts = &ro, .no_unwind = true,
					 .max_frames = 1 };
	struct perfev_sched_opts sco = { .sz = sizeof(sco), .perf61 = perf61, .wakeups = true,
					 .migrations = true, .per_thread = perf61 };
	struct perfev_sched *sc = perfev_sched__new(&sco);
	struct perfev_session *s;

	o.symbolizer = perfev_symbolizer__new(&so);
	s = o.symbolizer && sc ? perfev_session__open(path, &o) : NULL;
	if (s && perfev_sched__process(sc, s, on_row, NULL) == 0) {
		static const char *const keys[] = { "avg,max,switch,runtime", "pid", "max, pid" };

		for (size_t k = 0; k < 3; k++) {
			perfev_sched__sort_latencies(sc, keys[k]);
			for (size_t i = 0; i < perfev_sched__nr_latencies(sc); i++) {
				const struct perfev_sched_latency *l = perfev_sched__latency(sc, i);

				sink += strlen(l->comm) + l->max_delay + l->total_delay / l->nr_switches;
			}
		}
		for (size_t i = 0; i < perfev_sched__nr_tasks(sc); i++)
			sink += perfev_sched__task(sc, i)->run + strlen(perfev_sched__task(sc, i)->thread.comm);
		for (size_t c = 0; c < perfev_sched__nr_cpus(sc); c++)
			if (perfev_sched__idle(sc, c))
				sink += perfev_sched__idle(sc, c)->run;
		sink += perfev_sched__stats(sc)->nr_switch_bugs;
	}
	perfev_sched__delete(sc);
	perfev_session__delete(s);
	perfev_symbolizer__delete(o.symbolizer);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char path[64];
	int fd;

	if (!size)
		return 0;
	if (data[0] & 1) {
		char *fmt = malloc(size);
		char st[16];

		if (!fmt)
			return 0;
		memcpy(fmt, data + 1, size - 1);
		fmt[size - 1] = '\0';
		sched_states_from_fmt(fmt, st, sizeof(st));
		for (unsigned b = 0; b < 64; b++)
			sink += (uint64_t)sched_state_char(st, 1ull << b);
		free(fmt);
		return 0;
	}
	fd = memfd_create("fuzz_sched", MFD_CLOEXEC);
	if (fd < 0 || write(fd, data + 1, size - 1) != (ssize_t)(size - 1)) {
		if (fd >= 0)
			close(fd);
		return 0;
	}
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	run(path, false);
	run(path, true);
	close(fd);
	return 0;
}
