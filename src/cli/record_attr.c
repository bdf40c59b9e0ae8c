/* SPDX-License-Identifier: MIT */
/* perfev record: how each event is set up for sampling. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#if defined(__x86_64__) || defined(__aarch64__)
#include <asm/perf_regs.h>
#endif

#include "cli.h"
#include "record.h"

/*
 * The user registers DWARF unwinding needs: every general register the
 * kernel can give (the x86 segment registers other than CS/SS are not
 * sampled by the kernel, so perf leaves them out too).
 */
static uint64_t user_regs_mask(void)
{
#if defined(__x86_64__)
	return ((1ull << PERF_REG_X86_64_MAX) - 1) &
	       ~((1ull << PERF_REG_X86_DS) | (1ull << PERF_REG_X86_ES) | (1ull << PERF_REG_X86_FS) |
		 (1ull << PERF_REG_X86_GS));
#elif defined(__aarch64__)
	return (1ull << PERF_REG_ARM64_MAX) - 1;
#else
	return 0;
#endif
}

long record_max_sample_rate(void)
{
	FILE *f = fopen("/proc/sys/kernel/perf_event_max_sample_rate", "re");
	long v = 0;

	if (f) {
		if (fscanf(f, "%ld", &v) != 1)
			v = 0;
		fclose(f);
	}
	return v;
}

int record_config_evlist(struct perfev_evlist *el, const struct record_opts *o)
{
	struct perfev_evsel *ev;
	long freq = o->freq;
	long max = record_max_sample_rate();
	bool first = true;
	bool per_cpu = cli_target__system_wide(&o->target);

	/* The default may exceed a lowered limit; a given -F was checked (and said) once before. */
	if (!o->period && max > 0 && freq > max)
		freq = max;
	if (o->callgraph == CG_DWARF && !user_regs_mask()) {
		cli_error("--call-graph dwarf is not supported on this architecture; use -g (frame pointers)");
		return -1;
	}
	perfev_evlist__for_each_evsel(el, ev) {
		struct perf_event_attr *a = perfev_evsel__attr(ev);
		struct perfev_evsel *leader = perfev_evsel__leader(ev);
		bool group_sampling = perfev_evsel__sample_read(leader) &&
				      perfev_evsel__nr_members(leader) > 1;

		a->sample_type |= PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID |
				  PERF_SAMPLE_TIME;
		if (per_cpu)
			a->sample_type |= PERF_SAMPLE_CPU;
		if (a->type == PERF_TYPE_TRACEPOINT)
			a->sample_type |= PERF_SAMPLE_RAW;
		if (o->callgraph != CG_NONE)
			a->sample_type |= PERF_SAMPLE_CALLCHAIN;
		if (o->callgraph == CG_DWARF) {
			a->sample_type |= PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER;
			a->sample_regs_user = user_regs_mask();
			a->sample_stack_user = (uint32_t)o->stack_size;
			/* The user part of the stack is unwound from the copy; the kernel part is exact. */
			a->exclude_callchain_user = 1;
		}
		a->sample_id_all = 1;
		/* Events with a period in their spec ("/period=N/") keep it. */
		if (!a->sample_period) {
			if (group_sampling && ev != leader) {
				/* Members only count: every leader sample carries their values. */
				a->sample_period = 0;
				a->freq = 0;
			} else if (o->period) {
				a->sample_period = (uint64_t)o->period;
				a->freq = 0;
			} else if (a->type == PERF_TYPE_TRACEPOINT && !o->freq_given) {
				/* Each tracepoint hit is a sample, as perf does by default. */
				a->sample_period = 1;
				a->freq = 0;
			} else {
				a->sample_freq = (uint64_t)freq;
				a->freq = 1;
			}
		}
		/*
		 * The period is in each sample only when it varies (frequency
		 * mode), as perf records it: with PERIOD asked for and a fixed
		 * period, Linux samples a software event at every occurrence and
		 * reports how many it stands for, so -c would not thin them out.
		 */
		if (a->freq)
			a->sample_type |= PERF_SAMPLE_PERIOD;
		/*
		 * A tracepoint hit may count more than one (sched_stat_runtime counts
		 * its nanoseconds): with the period in the sample, Linux writes one
		 * sample carrying the count, as perf record -c 1 has it, instead of one
		 * copy per unit counted.
		 */
		if (a->type == PERF_TYPE_TRACEPOINT && !a->freq && a->sample_period == 1)
			a->sample_type |= PERF_SAMPLE_PERIOD;
		if (group_sampling) {
			a->sample_type |= PERF_SAMPLE_READ;
			a->read_format |= PERF_FORMAT_ID | PERF_FORMAT_TOTAL_TIME_ENABLED |
					  PERF_FORMAT_TOTAL_TIME_RUNNING;
			if (ev == leader)
				a->read_format |= PERF_FORMAT_GROUP;
		}
		if (first) {
			/* The first event carries the side band every profile needs. */
			a->mmap = 1;
			a->mmap2 = 1;
			a->comm = 1;
			a->comm_exec = 1;
			a->task = 1;
			a->build_id = 1;
			/*
			 * DWARF unwinders read .eh_frame_hdr, which PIE binaries keep in a
			 * mapping that is not executable: its map must be recorded too.
			 */
			a->mmap_data = o->callgraph == CG_DWARF;
			first = false;
		}
		/*
		 * Wake the reader when a quarter of the ring is full rather than
		 * per sample: far fewer wakeups, and a periodic timeout still
		 * drains slow streams.
		 */
		a->watermark = 1;
		a->wakeup_watermark = (uint32_t)((size_t)o->mmap_pages * (size_t)sysconf(_SC_PAGESIZE) / 2);
	}
	return 0;
}
