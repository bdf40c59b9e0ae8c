/* SPDX-License-Identifier: MIT */
/*
 * Self-monitoring internals: the object layouts and the seqlock page reader
 * with injectable hardware primitives, so tests can drive it with a
 * simulated page and fake rdpmc/timestamp counters on a machine without a
 * PMU.  Library-internal; tests include it.
 */
#ifndef PERFEV_SELFMON_INT_H
#define PERFEV_SELFMON_INT_H

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>

#include "perfev/selfmon.h"

/* Bits of perf_event_mmap_page.capabilities (named in the header's bitfield). */
#define SM_CAP_USER_RDPMC (1ULL << 2)
#define SM_CAP_USER_TIME (1ULL << 3)
#define SM_CAP_USER_TIME_ZERO (1ULL << 4)
#define SM_CAP_USER_TIME_SHORT (1ULL << 5)

/* The user-space read primitives; ctx is passed back. */
struct selfmon_hw {
	uint64_t (*rdpmc)(void *ctx, uint32_t counter); /* raw hardware counter "counter" */
	uint64_t (*rdtsc)(void *ctx);			/* timestamp counter */
	void *ctx;
};

/* Results of selfmon_page_read() besides 0 and -EAGAIN. */
#define SM_NEED_SYSCALL 1

static inline __attribute__((always_inline)) int64_t sm_sign_extend(uint64_t pmc, unsigned int width)
{
	if (width == 0 || width >= 64)
		return (int64_t)pmc;
	uint64_t m = 1ULL << (width - 1);

	pmc &= (m << 1) - 1;
	return (int64_t)((pmc ^ m) - m);
}

static inline __attribute__((always_inline)) uint64_t sm_mul_u64_u32_shr(uint64_t cyc, uint32_t mult,
									  unsigned int shift)
{
#ifdef __SIZEOF_INT128__
	return (uint64_t)(((unsigned __int128)cyc * mult) >> (shift & 127));
#else
	if (shift >= 64)
		return 0;
	uint64_t quot = cyc >> shift, rem = cyc & ((1ULL << shift) - 1);

	return quot * mult + ((rem * mult) >> shift);
#endif
}

/* val * ena / run, as perfev_selfmon_value__scaled() documents. */
static inline __attribute__((always_inline)) uint64_t sm_scale(uint64_t val, uint64_t ena, uint64_t run)
{
	if (!run)
		return 0;
	if (ena == run)
		return val;
#ifdef __SIZEOF_INT128__
	unsigned __int128 v = (unsigned __int128)val * ena / run;

	return v > UINT64_MAX ? UINT64_MAX : (uint64_t)v;
#else
	uint64_t quot = val / run, rem = val % run, hi, lo;

	if (__builtin_mul_overflow(quot, ena, &hi) || __builtin_mul_overflow(rem, ena, &lo) ||
	    __builtin_add_overflow(hi, lo / run, &hi))
		return UINT64_MAX;
	return hi;
#endif
}

static inline __attribute__((always_inline)) void sm_cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__asm__ __volatile__("pause" ::: "memory");
#elif defined(__aarch64__)
	__asm__ __volatile__("yield" ::: "memory");
#else
	__asm__ __volatile__("" ::: "memory");
#endif
}

/*
 * The read loop of <linux/perf_event.h>, with a bounded retry.  The kernel
 * updates a task's page on the CPU the task runs on (between the reader's
 * instructions, never during them), with `lock` odd while it writes; the
 * acquire load of `lock` and the acquire fence before re-reading it also
 * make the loop correct against a writer on another CPU (the tests' writer
 * thread; x86 needs no instruction for either).  capabilities and index are
 * read first so that a counter that can't be read in user space costs no
 * timestamp read; the order of loads inside the loop does not matter to the
 * seqlock.
 *
 * Returns 0 (out filled, path RDPMC), SM_NEED_SYSCALL, or -EAGAIN after
 * PERFEV_SELFMON_MAX_RETRIES retries; *retries grows by the retries made.
 */
static inline __attribute__((always_inline)) int
selfmon_page_read(const volatile struct perf_event_mmap_page *pc, const struct selfmon_hw *hw,
		  bool precise_times, struct perfev_selfmon_value *out, uint64_t *retries)
{
	uint64_t caps, ena, run, cyc = 0, time_offset = 0, time_cycles = 0, time_mask = 0, pmc;
	uint32_t seq, idx, time_mult = 0;
	uint16_t time_shift = 0, width;
	int64_t offset;
	bool have_time;
	unsigned int tries = 0;

	for (;;) {
		seq = __atomic_load_n(&pc->lock, __ATOMIC_ACQUIRE);
		if (__builtin_expect(seq & 1, 0))
			goto retry; /* a writer is in the middle of an update */

		caps = pc->capabilities;
		idx = pc->index;
		if (!(caps & SM_CAP_USER_RDPMC) || !idx) {
			*retries += tries;
			return SM_NEED_SYSCALL;
		}

		ena = pc->time_enabled;
		run = pc->time_running;
		have_time = (caps & SM_CAP_USER_TIME) && (precise_times || ena != run);
		if (have_time) {
			cyc = hw->rdtsc(hw->ctx);
			time_offset = pc->time_offset;
			time_mult = pc->time_mult;
			time_shift = pc->time_shift;
			if (caps & SM_CAP_USER_TIME_SHORT) {
				time_cycles = pc->time_cycles;
				time_mask = pc->time_mask;
			}
		}

		offset = pc->offset;
		width = pc->pmc_width;
		pmc = hw->rdpmc(hw->ctx, idx - 1);

		__atomic_thread_fence(__ATOMIC_ACQUIRE);
		if (__builtin_expect(__atomic_load_n(&pc->lock, __ATOMIC_RELAXED) == seq, 1))
			break;
retry:
		if (++tries > PERFEV_SELFMON_MAX_RETRIES) {
			*retries += tries;
			return -EAGAIN;
		}
		sm_cpu_relax();
	}
	*retries += tries;

	out->value = (uint64_t)offset + (uint64_t)sm_sign_extend(pmc, width);
	if (have_time) {
		if (caps & SM_CAP_USER_TIME_SHORT)
			cyc = time_cycles + ((cyc - time_cycles) & time_mask);
		uint64_t delta = time_offset + sm_mul_u64_u32_shr(cyc, time_mult, time_shift);

		ena += delta;
		run += delta; /* index != 0: the event is running now */
	}
	out->enabled = ena;
	out->running = run;
	out->path = PERFEV_SELFMON_RDPMC;
	return 0;
}

/* One counter of an object. */
struct selfmon_counter {
	const volatile struct perf_event_mmap_page *pc; /* NULL when not mapped */
	int fd;		 /* the fd read(2) reads for this counter (the leader's with group_read) */
	bool user_read;	 /* the page may be read (arch, mapped, sysfs, self, not inherited) */
	bool owns_page;	 /* pc was mmap()ed here */
	uint16_t rd_len; /* bytes read(2) of fd returns */
	uint16_t val_idx, ena_idx, run_idx; /* u64 positions in that buffer */
};

struct perfev_selfmon {
	int nr;
	bool group_read; /* counters needing read(2) share one read of c[0].fd */
	bool precise_times;
	bool sim; /* simulated pages and primitives (tests) */
	enum perfev_selfmon_path path;
	struct selfmon_hw hw; /* sim only */
	size_t page_size;
	struct perfev_selfmon_stats stats;
	char reason[320];
	struct selfmon_counter c[];
};

/* Largest read(2) buffer: GROUP with ENABLED, RUNNING and {value, id, lost} per member. */
#define SM_RDBUF_WORDS (3 + 3 * PERFEV_SELFMON_MAX_COUNTERS)

/*
 * Tests: an object over nr simulated pages, read with hw's primitives;
 * fds[i] (may be -1) is read(2) with read_format TOTAL_TIME_ENABLED|RUNNING
 * when a page says so.  NULL with errno set on failure.  Free with
 * perfev_selfmon__delete() (the pages are not unmapped).
 */
struct perfev_selfmon *selfmon__new_sim(const volatile struct perf_event_mmap_page *const *pages,
					 const int *fds, int nr, const struct selfmon_hw *hw,
					 bool precise_times);

/* Whether rdpmc is allowed by sysfs/sysctl here (1), forbidden (0, with why filled). */
int selfmon__rdpmc_sysfs_allowed(char *why, size_t size);

#endif
