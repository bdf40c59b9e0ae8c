/*
 * Self-monitoring: the arithmetic against hand-computed values, the seqlock
 * page reader against a simulated page (also with a writer thread following
 * the kernel's protocol), regions, and the real kernel (the read(2)
 * fallback here; rdpmc and time_zero where the machine has them, skipped
 * with a printed reason where not).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "perfev/perfev.h"
#include "selfmon/selfmon_int.h"

#define RF_TIMES (PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING)

/* ---- fake hardware ---- */

struct fake_hw {
	uint64_t pmc[40];     /* what "rdpmc(counter)" returns */
	bool pmc_is_counter;  /* return the counter number itself instead */
	uint64_t tsc;
	unsigned rdpmc_calls, rdtsc_calls;
	uint32_t last_counter;
	volatile struct perf_event_mmap_page *bump_page; /* first rdpmc bumps its lock by 2 */
	int bumps;
};

static uint64_t fake_rdpmc(void *ctx, uint32_t counter)
{
	struct fake_hw *f = ctx;

	f->rdpmc_calls++;
	f->last_counter = counter;
	if (f->bump_page && f->bumps) {
		f->bumps--;
		f->bump_page->lock += 2; /* "the kernel updated the page meanwhile" */
	}
	if (f->pmc_is_counter)
		return counter;
	return counter < 40 ? f->pmc[counter] : 0;
}

static uint64_t fake_rdtsc(void *ctx)
{
	struct fake_hw *f = ctx;

	f->rdtsc_calls++;
	return f->tsc;
}

static struct selfmon_hw hw_of(struct fake_hw *f)
{
	struct selfmon_hw hw = { fake_rdpmc, fake_rdtsc, f };

	return hw;
}

static struct perf_event_mmap_page *page_new(void)
{
	void *p = aligned_alloc(4096, 4096);

	assert_non_null(p);
	memset(p, 0, 4096);
	return p;
}

/* ---- pure arithmetic ---- */

static void test_sign_extend(void **state)
{
	(void)state;
	/* 40 bits */
	assert_int_equal(perfev_pmc_sign_extend(0xffffffffffULL, 40), -1);
	assert_int_equal(perfev_pmc_sign_extend(0x8000000000ULL, 40), -(1LL << 39));
	assert_int_equal(perfev_pmc_sign_extend(0x7fffffffffULL, 40), (1LL << 39) - 1);
	assert_int_equal(perfev_pmc_sign_extend(0xfffffffff0ULL, 40), -16);
	assert_int_equal(perfev_pmc_sign_extend(0x10ULL, 40), 16);
	/* bits above the width are ignored */
	assert_int_equal(perfev_pmc_sign_extend(0xabcd00ffffffffffULL, 40), -1);
	assert_int_equal(perfev_pmc_sign_extend(0xabcd000000000005ULL, 40), 5);
	/* 48 bits */
	assert_int_equal(perfev_pmc_sign_extend(0xffffffffffffULL, 48), -1);
	assert_int_equal(perfev_pmc_sign_extend(0x800000000000ULL, 48), -(1LL << 47));
	assert_int_equal(perfev_pmc_sign_extend(0x7fffffffffffULL, 48), (1LL << 47) - 1);
	assert_int_equal(perfev_pmc_sign_extend(0x0000ffffffff0000ULL, 48), -65536);
	/* 64 bits: nothing to extend */
	assert_int_equal(perfev_pmc_sign_extend(UINT64_MAX, 64), -1);
	assert_int_equal(perfev_pmc_sign_extend(1ULL << 63, 64), INT64_MIN);
	assert_int_equal(perfev_pmc_sign_extend(12345, 64), 12345);
	/* 32 bits (arm64 without the long-counter bit), 0 (no width: as 64) */
	assert_int_equal(perfev_pmc_sign_extend(0xfffffffeULL, 32), -2);
	assert_int_equal(perfev_pmc_sign_extend(0xfffffffeULL, 0), 0xfffffffeLL);
	/* The kernel's offset + extended counter across a wrap of a 40-bit counter. */
	int64_t offset = 1000016;
	assert_int_equal(offset + perfev_pmc_sign_extend(0xfffffffff0ULL, 40), 1000000);
	assert_int_equal(offset + perfev_pmc_sign_extend(0x0000000010ULL, 40), 1000032);
	/* and of a 48-bit one */
	offset = 5000000000LL + 0x100;
	assert_int_equal(offset + perfev_pmc_sign_extend(0xffffffffff00ULL, 48), 5000000000LL);
	assert_int_equal(offset + perfev_pmc_sign_extend(0x000000000100ULL, 48), 5000000512LL);
}

static void test_scale(void **state)
{
	(void)state;
	struct perfev_selfmon_value v = { .value = 1000, .enabled = 300, .running = 100 };

	assert_int_equal(perfev_selfmon_value__scaled(&v), 3000); /* enabled != running */
	v.running = 0;
	assert_int_equal(perfev_selfmon_value__scaled(&v), 0); /* never ran: not counted */
	v.running = v.enabled = 0;
	assert_int_equal(perfev_selfmon_value__scaled(&v), 0);
	v = (struct perfev_selfmon_value){ .value = 777, .enabled = 55, .running = 55 };
	assert_int_equal(perfev_selfmon_value__scaled(&v), 777);
	assert_int_equal(sm_scale(7, 3, 2), 10); /* 10.5, floored */
	assert_int_equal(sm_scale(10, 3, 2), 15);
	/* val * ena needs more than 64 bits */
	assert_int_equal(sm_scale(1000000000000000000ULL, 1000000000000ULL, 300000000000ULL),
			 3333333333333333333ULL);
	assert_int_equal(sm_scale(1ULL << 63, 3ULL << 40, 1ULL << 41), 3ULL << 62);
	assert_int_equal(sm_scale(UINT64_MAX, 2, 1), UINT64_MAX); /* saturates */
	assert_int_equal(sm_scale(UINT64_MAX - 1, UINT64_MAX, UINT64_MAX - 1), UINT64_MAX);
}

static void test_time_math(void **state)
{
	(void)state;
	/* A 2.5 GHz TSC: 0.4 ns per cycle = 858993459 / 2^31. */
	const uint32_t mult = 858993459;
	const unsigned shift = 31;

	assert_int_equal(perfev_mul_u64_u32_shr(1000, 3, 1), 1500);
	assert_int_equal(perfev_mul_u64_u32_shr(2500000000ULL, mult, shift), 999999999);
	/* cyc * mult needs 95 bits; the quot/rem form of the header gives this exactly. */
	assert_int_equal(perfev_mul_u64_u32_shr((1ULL << 63) + 12345, mult, shift),
			 3689348813882921801ULL);
	uint64_t c = (1ULL << 63) + 12345;
	uint64_t quot = c >> shift, rem = c & ((1ULL << shift) - 1);
	assert_int_equal(perfev_mul_u64_u32_shr(c, mult, shift),
			 quot * mult + ((rem * mult) >> shift));

	struct perfev_selfmon_time t = {
		.time_offset = (uint64_t)-5000, /* time_offset is time_zero - now: "negative" */
		.time_zero = 1000000,
		.time_mult = mult,
		.time_shift = shift,
		.cap_user_time = true,
		.cap_user_time_zero = true,
	};
	assert_int_equal(perfev_selfmon_time__delta(&t, 2500000000ULL), 999999999 - 5000);
	assert_int_equal(perfev_selfmon_time__cyc_to_ns(&t, 2500000000ULL), 1000000 + 999999999);
	/* back: floor(1e9 * 2^31 / mult) */
	assert_int_equal(perfev_selfmon_time__ns_to_cyc(&t, 1000000 + 1000000000ULL), 2500000000ULL);
	assert_int_equal(perfev_selfmon_time__ns_to_cyc(&t, 1000000), 0);
	/* Round trips lose at most one ns worth of cycles (2.5 here). */
	for (uint64_t cyc = 1; cyc < (1ULL << 62); cyc = cyc * 3 + 7) {
		uint64_t back = perfev_selfmon_time__ns_to_cyc(&t, perfev_selfmon_time__cyc_to_ns(&t, cyc));

		assert_true(back <= cyc && cyc - back <= 3);
	}
	t.time_mult = 0;
	assert_int_equal(perfev_selfmon_time__ns_to_cyc(&t, 12345), 0);

	/* cap_user_time_short: a 56-bit counter that wrapped after time_cycles. */
	struct perfev_selfmon_time s = {
		.time_offset = 0,
		.time_zero = 7,
		.time_cycles = 0x00ffffffffffff00ULL,
		.time_mask = (1ULL << 56) - 1,
		.time_mult = 1U << 31,
		.time_shift = 31, /* 1 ns per cycle */
		.cap_user_time = true,
		.cap_user_time_zero = true,
		.cap_user_time_short = true,
	};
	assert_int_equal(perfev_selfmon_time__extend(&s, 0x10), 0x0100000000000010ULL);
	assert_int_equal(perfev_selfmon_time__extend(&s, 0x00ffffffffffff80ULL), 0x00ffffffffffff80ULL);
	assert_int_equal(perfev_selfmon_time__cyc_to_ns(&s, 0x10), 7 + 0x0100000000000010ULL);
	assert_int_equal(perfev_selfmon_time__delta(&s, 0x10), 0x0100000000000010ULL);
	/* back: the counter as it reads, masked to 56 bits */
	assert_int_equal(perfev_selfmon_time__ns_to_cyc(&s, 7 + 0x0100000000000010ULL), 0x10);
	/* without the short cap the same reading is taken at face value */
	s.cap_user_time_short = false;
	assert_int_equal(perfev_selfmon_time__cyc_to_ns(&s, 0x10), 7 + 0x10);
}

/* ---- the page reader on a simulated page ---- */

static void set_caps(struct perf_event_mmap_page *pc, uint64_t caps)
{
	pc->capabilities = caps | (1ULL << 1) /* cap_bit0_is_deprecated */;
}

static void test_page_read_paths(void **state)
{
	(void)state;
	struct perf_event_mmap_page *pc = page_new();
	struct fake_hw f = { 0 };
	struct selfmon_hw hw = hw_of(&f);
	struct perfev_selfmon_value v;
	uint64_t retries = 0;

	/* Software event: no cap, index 0 → read(2). */
	set_caps(pc, 0);
	pc->offset = 1234;
	assert_int_equal(selfmon_page_read(pc, &hw, false, &v, &retries), SM_NEED_SYSCALL);
	assert_int_equal(f.rdpmc_calls, 0);
	/* cap but index 0 (not on the PMU now) → read(2). */
	set_caps(pc, SM_CAP_USER_RDPMC | SM_CAP_USER_TIME);
	assert_int_equal(selfmon_page_read(pc, &hw, false, &v, &retries), SM_NEED_SYSCALL);
	assert_int_equal(f.rdpmc_calls, 0);
	/* index but no cap → read(2), never rdpmc. */
	set_caps(pc, 0);
	pc->index = 3;
	assert_int_equal(selfmon_page_read(pc, &hw, false, &v, &retries), SM_NEED_SYSCALL);
	assert_int_equal(f.rdpmc_calls, 0);

	/* rdpmc(index - 1), sign-extended from 48 bits, added to offset; not multiplexed: no rdtsc. */
	set_caps(pc, SM_CAP_USER_RDPMC | SM_CAP_USER_TIME);
	pc->lock = 10;
	pc->pmc_width = 48;
	pc->offset = 1000000;
	pc->time_enabled = pc->time_running = 5000;
	pc->time_mult = 1U << 31;
	pc->time_shift = 31;
	pc->time_offset = (uint64_t)-1000;
	f.pmc[2] = 0xffffffffff00ULL; /* -256 */
	f.tsc = 3000;
	assert_int_equal(selfmon_page_read(pc, &hw, false, &v, &retries), 0);
	assert_int_equal(f.last_counter, 2);
	assert_int_equal(v.value, 1000000 - 256);
	assert_int_equal(v.enabled, 5000);
	assert_int_equal(v.running, 5000);
	assert_int_equal(v.path, PERFEV_SELFMON_RDPMC);
	assert_int_equal(f.rdtsc_calls, 0);
	assert_int_equal(retries, 0);
	/* precise_times: extended anyway: delta = -1000 + 3000 */
	assert_int_equal(selfmon_page_read(pc, &hw, true, &v, &retries), 0);
	assert_int_equal(f.rdtsc_calls, 1);
	assert_int_equal(v.enabled, 7000);
	assert_int_equal(v.running, 7000);

	/* Multiplexed (enabled != running): both extended by the same delta. */
	pc->time_enabled = 10000;
	pc->time_running = 4000;
	pc->time_mult = 858993459; /* 0.4 ns per cycle */
	pc->time_offset = (uint64_t)-999999999 + 100;
	f.tsc = 2500000000ULL; /* 999999999 ns */
	assert_int_equal(selfmon_page_read(pc, &hw, false, &v, &retries), 0);
	assert_int_equal(v.enabled, 10100);
	assert_int_equal(v.running, 4100);
	assert_int_equal(perfev_selfmon_value__scaled(&v), sm_scale(v.value, 10100, 4100));
	/* No cap_user_time: times as the page has them. */
	set_caps(pc, SM_CAP_USER_RDPMC);
	assert_int_equal(selfmon_page_read(pc, &hw, true, &v, &retries), 0);
	assert_int_equal(v.enabled, 10000);
	assert_int_equal(v.running, 4000);

	/* cap_user_time_short: the timestamp is widened around time_cycles first. */
	set_caps(pc, SM_CAP_USER_RDPMC | SM_CAP_USER_TIME | SM_CAP_USER_TIME_SHORT);
	pc->time_mult = 1U << 31;
	pc->time_shift = 31;
	pc->time_cycles = 0xfffff000ULL;
	pc->time_mask = 0xffffffffULL; /* a 32-bit counter that wrapped */
	pc->time_offset = (uint64_t)-0xfffff000LL;
	f.tsc = 0x100; /* = 0x1_0000_0100 widened: 0x1100 cycles after time_cycles */
	assert_int_equal(selfmon_page_read(pc, &hw, false, &v, &retries), 0);
	assert_int_equal(v.enabled, 10000 + 0x1100);
	assert_int_equal(v.running, 4000 + 0x1100);

	/* pmc_width 40, 64 near wrap */
	set_caps(pc, SM_CAP_USER_RDPMC);
	pc->pmc_width = 40;
	pc->offset = 1000016;
	f.pmc[2] = 0xfffffffff0ULL;
	assert_int_equal(selfmon_page_read(pc, &hw, false, &v, &retries), 0);
	assert_int_equal(v.value, 1000000);
	f.pmc[2] = 0x10;
	assert_int_equal(selfmon_page_read(pc, &hw, false, &v, &retries), 0);
	assert_int_equal(v.value, 1000032);
	pc->pmc_width = 64;
	pc->offset = 100;
	f.pmc[2] = UINT64_MAX - 9; /* -10 */
	assert_int_equal(selfmon_page_read(pc, &hw, false, &v, &retries), 0);
	assert_int_equal(v.value, 90);
	assert_int_equal(retries, 0);

	/* The page changes under the reader once: one retry, the second pass counts. */
	f.bump_page = pc;
	f.bumps = 1;
	assert_int_equal(selfmon_page_read(pc, &hw, false, &v, &retries), 0);
	assert_int_equal(retries, 1);
	assert_int_equal(v.value, 90);
	/* A writer that never finishes (lock odd): bounded retry, then -EAGAIN. */
	pc->lock = 13;
	retries = 0;
	f.rdpmc_calls = 0;
	assert_int_equal(selfmon_page_read(pc, &hw, false, &v, &retries), -EAGAIN);
	assert_int_equal(retries, PERFEV_SELFMON_MAX_RETRIES + 1);
	assert_int_equal(f.rdpmc_calls, 0); /* nothing read while odd */
	/* Changing on every pass: -EAGAIN as well. */
	pc->lock = 14;
	f.bumps = 1000000;
	retries = 0;
	assert_int_equal(selfmon_page_read(pc, &hw, false, &v, &retries), -EAGAIN);
	assert_int_equal(retries, PERFEV_SELFMON_MAX_RETRIES + 1);
	free(pc);
}

/* ---- the torture test: a writer thread following the kernel's protocol ---- */

/*
 * Generation g determines every field, so that a value mixing two
 * generations is detectable:  index = 1 + g % 7 (rdpmc returns index - 1),
 * offset = g << 8, time_enabled = 7g, time_running = 5g, time_offset = 11g,
 * time_mult = 1 + g % 5, time_shift 0; rdtsc returns 1000.
 */
#define TORTURE_TSC 1000

struct torture {
	volatile struct perf_event_mmap_page *pc;
	atomic_bool stop;
	atomic_uint_fast64_t generations;
};

static void spin(unsigned n)
{
	for (volatile unsigned i = 0; i < n; i++)
		;
}

static void *torture_writer(void *arg)
{
	struct torture *t = arg;
	volatile struct perf_event_mmap_page *pc = t->pc;
	uint64_t g = 1;

	while (!atomic_load_explicit(&t->stop, memory_order_relaxed)) {
		g++;
		/* lock++ (odd), barrier, fields, barrier, lock++ (even): the kernel's protocol. */
		__atomic_store_n(&pc->lock, pc->lock + 1, __ATOMIC_RELAXED);
		__atomic_thread_fence(__ATOMIC_RELEASE);
		pc->time_enabled = 7 * g;
		spin(g % 4);
		pc->time_running = 5 * g;
		pc->time_offset = 11 * g;
		spin(g % 3);
		pc->time_mult = (uint32_t)(1 + g % 5);
		pc->index = (uint32_t)(1 + g % 7);
		spin(g % 5);
		pc->offset = (int64_t)(g << 8);
		__atomic_thread_fence(__ATOMIC_RELEASE);
		__atomic_store_n(&pc->lock, pc->lock + 1, __ATOMIC_RELAXED);
		atomic_store_explicit(&t->generations, g, memory_order_relaxed);
		spin(g % 2 ? 0 : 50); /* sometimes the page is quiet for a moment */
	}
	return NULL;
}

/* 0 when v is one generation's consistent combination. */
static int torture_check(const struct perfev_selfmon_value *v)
{
	uint64_t g = v->value >> 8;
	uint64_t delta = 11 * g + TORTURE_TSC * (1 + g % 5);

	if ((v->value & 0xff) != g % 7)
		return 1;
	if (v->enabled != 7 * g + delta || v->running != 5 * g + delta)
		return 1;
	return 0;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void test_seqlock_torture(void **state)
{
	(void)state;
	struct perf_event_mmap_page *page = page_new();
	struct fake_hw f = { .pmc_is_counter = true, .tsc = TORTURE_TSC };
	struct selfmon_hw hw = hw_of(&f);
	struct torture t = { .pc = page };
	const volatile struct perf_event_mmap_page *pages[1] = { page };
	struct perfev_selfmon *sm;
	pthread_t th;
	uint64_t reads = 0, torn = 0, eagain = 0, retries = 0, naive_torn = 0, naive = 0;
	double t0;

	set_caps(page, SM_CAP_USER_RDPMC | SM_CAP_USER_TIME);
	page->pmc_width = 64;
	/* generation 1, consistent */
	page->time_enabled = 7;
	page->time_running = 5;
	page->time_offset = 11;
	page->time_mult = 2;
	page->index = 2;
	page->offset = 1 << 8;
	sm = selfmon__new_sim(pages, NULL, 1, &hw, false);
	assert_non_null(sm);

	assert_int_equal(pthread_create(&th, NULL, torture_writer, &t), 0);
	t0 = now_s();
	while (now_s() - t0 < 1.0 && !(reads > 100000 && retries > 1000 && now_s() - t0 > 0.3)) {
		for (int i = 0; i < 1000; i++) {
			struct perfev_selfmon_value v;
			int r = (i & 1) ? selfmon_page_read(page, &hw, false, &v, &retries)
					: perfev_selfmon__read(sm, &v);

			if (r == -EAGAIN) {
				eagain++;
				continue;
			}
			assert_int_equal(r, 0);
			reads++;
			if (torture_check(&v))
				torn++;
		}
		/* Control: the same fields read without the seqlock do tear. */
		const volatile struct perf_event_mmap_page *vp = page;

		for (int i = 0; i < 100; i++) {
			struct perfev_selfmon_value v;

			v.enabled = vp->time_enabled;
			v.running = vp->time_running;
			uint64_t toff = vp->time_offset, mult = vp->time_mult;
			uint32_t idx = vp->index;

			v.value = (uint64_t)vp->offset + (idx - 1);
			v.enabled += toff + TORTURE_TSC * mult;
			v.running += toff + TORTURE_TSC * mult;
			naive++;
			naive_torn += torture_check(&v) != 0;
		}
	}
	atomic_store(&t.stop, true);
	pthread_join(th, NULL);

	struct perfev_selfmon_stats st;

	perfev_selfmon__stats(sm, &st);
	retries += st.retries;
	print_message("torture: %llu generations written, %llu reads, %llu torn, %llu retries, "
		      "%llu -EAGAIN; without the seqlock %llu of %llu reads were torn\n",
		      (unsigned long long)atomic_load(&t.generations), (unsigned long long)reads,
		      (unsigned long long)torn, (unsigned long long)retries,
		      (unsigned long long)eagain, (unsigned long long)naive_torn,
		      (unsigned long long)naive);
	assert_int_equal(torn, 0);
	assert_true(reads > 1000);
	assert_true(retries > 0);
	assert_true(atomic_load(&t.generations) > 1000);
	perfev_selfmon__delete(sm);
	free(page);
}

/* ---- objects and regions over simulated pages ---- */

static int open_sw(uint64_t config, uint64_t read_format, struct perf_event_attr *attr)
{
	memset(attr, 0, sizeof(*attr));
	attr->type = PERF_TYPE_SOFTWARE;
	attr->config = config;
	attr->read_format = read_format;
	return perfev_event_open(attr, 0, -1, -1, 0);
}

static void test_region_sim(void **state)
{
	(void)state;
	struct perf_event_mmap_page *p0 = page_new(), *p1 = page_new(), *p2 = page_new();
	const volatile struct perf_event_mmap_page *pages[3] = { p0, p1, p2 };
	struct fake_hw f = { 0 };
	struct selfmon_hw hw = hw_of(&f);
	struct perf_event_attr a;
	int fds[3];

	/* Counter 2 is a real task-clock whose page says "no rdpmc": it falls back per read. */
	fds[0] = fds[1] = -1;
	fds[2] = open_sw(PERF_COUNT_SW_TASK_CLOCK, RF_TIMES, &a);
	assert_true(fds[2] >= 0);

	set_caps(p0, SM_CAP_USER_RDPMC);
	set_caps(p1, SM_CAP_USER_RDPMC);
	set_caps(p2, 0);
	p0->index = 1; /* rdpmc(0) */
	p1->index = 2; /* rdpmc(1) */
	p0->pmc_width = p1->pmc_width = 48;

	struct perfev_selfmon *sm = selfmon__new_sim(pages, fds, 3, &hw, false);
	assert_non_null(sm);
	struct perfev_regions *rs = perfev_regions__new(sm, 2);
	assert_non_null(rs);
	struct perfev_region *r = perfev_regions__add(rs, "loop");
	assert_non_null(r);
	assert_non_null(perfev_regions__add(rs, "other"));
	assert_null(perfev_regions__add(rs, "loop"));
	assert_int_equal(errno, EEXIST);
	assert_null(perfev_regions__add(rs, "third"));
	assert_int_equal(errno, ENOSPC);
	assert_ptr_equal(perfev_regions__find(rs, "loop"), r);
	assert_null(perfev_regions__find(rs, "nope"));
	assert_int_equal(perfev_regions__nr(rs), 2);
	assert_ptr_equal(perfev_regions__region(rs, 0), r);
	assert_string_equal(perfev_region__name(r), "loop");
	assert_int_equal(perfev_region__stop(r), -EINVAL);

	/* Interval 1: counter 0 unmultiplexed (+2000), counter 1 ran half the time (+1000 → 2000). */
	p0->offset = 1000; p0->time_enabled = p0->time_running = 100;
	p1->offset = 500; p1->time_enabled = 100; p1->time_running = 50;
	f.pmc[0] = 0xffffffffff00ULL; /* -256 through 48 bits */
	f.pmc[1] = 0;
	assert_int_equal(perfev_region__start(r), 0);
	assert_int_equal(perfev_region__start(r), -EBUSY);
	p0->offset = 3000; p0->time_enabled = p0->time_running = 200;
	p1->offset = 1500; p1->time_enabled = 300; p1->time_running = 150;
	spin(100000); /* some task-clock */
	assert_int_equal(perfev_region__stop(r), 0);
	assert_int_equal(perfev_region__intervals(r), 1);
	assert_int_equal(perfev_region__value(r, 0), 2000);
	assert_int_equal(perfev_region__value(r, 1), 2000);
	uint64_t tc1 = perfev_region__value(r, 2);
	assert_true(tc1 > 0);

	/* Interval 2: counter 1 never ran (enabled +100, running +0): 0, "not counted". */
	f.pmc[0] = 0x10; /* +16 after 48-bit sign extension */
	assert_int_equal(perfev_region__start(r), 0);
	p1->time_enabled = 400;
	p0->offset = 3000 + 40;
	assert_int_equal(perfev_region__stop(r), 0);
	assert_int_equal(perfev_region__value(r, 0), 2040);
	assert_int_equal(perfev_region__value(r, 1), 2000);

	/* Interval 3: the page's times did not move (0 and 0): the raw delta counts. */
	assert_int_equal(perfev_region__start(r), 0);
	p1->offset = 1500 + 7;
	assert_int_equal(perfev_region__stop(r), 0);
	assert_int_equal(perfev_region__value(r, 1), 2007);
	assert_int_equal(perfev_region__intervals(r), 3);

	struct perfev_region_counts c;
	assert_int_equal(perfev_region__counts(r, 1, &c), 0);
	assert_int_equal(c.scaled, 2007);
	assert_int_equal(c.raw, 1000 + 0 + 7);
	assert_int_equal(c.enabled, 200 + 100 + 0);
	assert_int_equal(c.running, 100 + 0 + 0);
	assert_int_equal(perfev_region__counts(r, 3, &c), -EINVAL);
	assert_int_equal(perfev_region__value(r, -1), 0);

	/* Counter 2 went through read(2) every time; counters 0, 1 through the page. */
	struct perfev_selfmon_value v[3];
	assert_int_equal(perfev_selfmon__read_all(sm, v, 3), 3);
	assert_int_equal(v[0].path, PERFEV_SELFMON_RDPMC);
	assert_int_equal(v[1].path, PERFEV_SELFMON_RDPMC);
	assert_int_equal(v[2].path, PERFEV_SELFMON_READ_SYSCALL);
	assert_true(v[2].value >= tc1);
	struct perfev_selfmon_stats st;
	perfev_selfmon__stats(sm, &st);
	assert_int_equal(st.syscall_reads, 7);
	assert_int_equal(st.user_reads, 14);

	perfev_region__reset(r);
	assert_int_equal(perfev_region__intervals(r), 0);
	assert_int_equal(perfev_region__value(r, 0), 0);

	/* A read(2) error surfaces with an explanation; the region stays stopped. */
	p0->index = 0; /* counter 0 now needs fd -1 */
	assert_int_equal(perfev_region__start(r), -EBADF);
	assert_non_null(strstr(perfev_last_error(), "read(2)"));
	assert_int_equal(perfev_region__stop(r), -EINVAL);

	perfev_regions__delete(rs);
	perfev_selfmon__delete(sm);
	close(fds[2]);
	free(p0);
	free(p1);
	free(p2);
}

/* ---- the real kernel ---- */

static uint64_t raw_read1(int fd, uint64_t *ena, uint64_t *run)
{
	uint64_t b[3];

	assert_int_equal(read(fd, b, sizeof(b)), sizeof(b));
	if (ena)
		*ena = b[1];
	if (run)
		*run = b[2];
	return b[0];
}

static void touch_pages(int n)
{
	size_t ps = (size_t)sysconf(_SC_PAGESIZE);
	char *m = mmap(NULL, ps * (size_t)n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	assert_true(m != MAP_FAILED);
	for (int i = 0; i < n; i++)
		m[(size_t)i * ps] = 1;
	munmap(m, ps * (size_t)n);
}

static void test_real_software_fallback(void **state)
{
	(void)state;
	struct perf_event_attr a;
	int fd = open_sw(PERF_COUNT_SW_TASK_CLOCK, RF_TIMES, &a);

	assert_true(fd >= 0);
	struct perfev_selfmon_opts o = { .sz = sizeof(o), .attr = &a };
	struct perfev_selfmon *sm = perfev_selfmon__new(fd, &o);
	assert_non_null(sm);
	assert_int_equal(perfev_selfmon__nr(sm), 1);

	/* What this machine's page says decides the path. */
	struct perf_event_mmap_page *pc = mmap(NULL, (size_t)sysconf(_SC_PAGESIZE), PROT_READ,
					       MAP_SHARED, fd, 0);
	assert_true(pc != MAP_FAILED);
	print_message("task-clock page: cap_user_rdpmc=%u cap_user_time=%u cap_user_time_zero=%u "
		      "index=%u; path %s: %s\n", pc->cap_user_rdpmc, pc->cap_user_time,
		      pc->cap_user_time_zero, pc->index,
		      perfev_selfmon_path__name(perfev_selfmon__path(sm)),
		      perfev_selfmon__path_reason(sm));
	/* A software event has no hardware counter: index 0, no rdpmc, everywhere. */
	assert_int_equal(pc->index, 0);
	assert_int_equal(perfev_selfmon__path(sm), PERFEV_SELFMON_READ_SYSCALL);
	assert_non_null(strstr(perfev_selfmon__path_reason(sm), "cap_user_rdpmc is 0"));
	struct perfev_selfmon_value pv;
	uint64_t rt = 0;
	assert_int_equal(perfev_mmap_page__read_self(pc, false, &pv, &rt), 1);
	munmap(pc, (size_t)sysconf(_SC_PAGESIZE));

	/* The value lies between two raw read(2)s around it, and keeps growing. */
	struct perfev_selfmon_value v, prev = { 0 };
	for (int i = 0; i < 200; i++) {
		uint64_t e0, r0, e1, r1;
		uint64_t before = raw_read1(fd, &e0, &r0);
		assert_int_equal(perfev_selfmon__read(sm, &v), 0);
		uint64_t after = raw_read1(fd, &e1, &r1);

		assert_int_equal(v.path, PERFEV_SELFMON_READ_SYSCALL);
		assert_true(before <= v.value && v.value <= after);
		assert_true(e0 <= v.enabled && v.enabled <= e1);
		assert_true(r0 <= v.running && v.running <= r1);
		assert_true(v.value >= prev.value && v.enabled >= prev.enabled);
		assert_int_equal(perfev_selfmon_value__scaled(&v), v.value); /* not multiplexed */
		prev = v;
		spin(10000);
	}
	struct perfev_selfmon_stats st;
	perfev_selfmon__stats(sm, &st);
	assert_int_equal(st.user_reads, 0);
	assert_int_equal(st.syscall_reads, 200);
	perfev_selfmon__delete(sm);
	close(fd);

	/* page-faults, no opts (the default read_format): counts the pages touched. */
	fd = open_sw(PERF_COUNT_SW_PAGE_FAULTS, RF_TIMES, &a);
	assert_true(fd >= 0);
	sm = perfev_selfmon__new(fd, NULL);
	assert_non_null(sm);
	struct perfev_selfmon_value v0, v1;
	assert_int_equal(perfev_selfmon__read(sm, &v0), 0);
	touch_pages(64);
	assert_int_equal(perfev_selfmon__read(sm, &v1), 0);
	assert_true(v1.value - v0.value >= 64);
	assert_int_equal(v1.value, raw_read1(fd, NULL, NULL));
	perfev_selfmon__delete(sm);
	close(fd);
}

static void test_real_group(void **state)
{
	(void)state;
	struct perf_event_attr a, am;
	uint64_t rf = RF_TIMES | PERF_FORMAT_ID | PERF_FORMAT_GROUP;
	int fds[3];

	/*
	 * The leader starts disabled and the whole group is enabled once built:
	 * a member added to a group that is already counting on the calling
	 * task only starts at the task's next schedule-in (seen on 6.18).
	 */
	memset(&a, 0, sizeof(a));
	a.type = PERF_TYPE_SOFTWARE;
	a.config = PERF_COUNT_SW_TASK_CLOCK;
	a.read_format = rf;
	a.disabled = 1;
	fds[0] = perfev_event_open(&a, 0, -1, -1, 0);
	assert_true(fds[0] >= 0);
	memset(&am, 0, sizeof(am));
	am.type = PERF_TYPE_SOFTWARE;
	am.read_format = RF_TIMES | PERF_FORMAT_ID;
	am.config = PERF_COUNT_SW_PAGE_FAULTS;
	fds[1] = perfev_event_open(&am, 0, -1, fds[0], 0);
	am.config = PERF_COUNT_SW_CONTEXT_SWITCHES;
	fds[2] = perfev_event_open(&am, 0, -1, fds[0], 0);
	assert_true(fds[1] >= 0 && fds[2] >= 0);
	assert_int_equal(ioctl(fds[0], PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP), 0);

	/* Members given out of order: matched by id. */
	int order[3] = { fds[0], fds[2], fds[1] };
	struct perfev_selfmon_opts o = { .sz = sizeof(o), .attr = &a };
	struct perfev_selfmon *sm = perfev_selfmon__new_group(order, 3, &o);
	assert_non_null(sm);
	assert_int_equal(perfev_selfmon__nr(sm), 3);
	assert_int_equal(perfev_selfmon__path(sm), PERFEV_SELFMON_READ_SYSCALL);

	struct perfev_selfmon_value v0[3], v1[3];
	assert_int_equal(perfev_selfmon__read_all(sm, v0, 3), 3);
	touch_pages(32);
	usleep(2000); /* a context switch */
	assert_int_equal(perfev_selfmon__read_all(sm, v1, 3), 3);
	struct perfev_selfmon_stats st;
	perfev_selfmon__stats(sm, &st);
	assert_int_equal(st.syscall_reads, 2); /* one read(2) per read_all */

	uint64_t b[3 + 3 * 2];
	assert_int_equal(read(fds[0], b, sizeof(b)), sizeof(b));
	assert_int_equal(b[0], 3);
	assert_true(v1[0].value > v0[0].value && v1[0].value <= b[3]);	     /* task-clock */
	assert_true(v1[2].value - v0[2].value >= 32 && v1[2].value <= b[5]); /* page-faults */
	assert_true(v1[1].value > v0[1].value && v1[1].value <= b[7]);	     /* context-switches */
	for (int i = 0; i < 3; i++) {
		assert_int_equal(v1[i].path, PERFEV_SELFMON_READ_SYSCALL);
		assert_int_equal(v1[i].enabled, v1[0].enabled);
	}
	/* Counter 0 alone: the leader's value out of the group read. */
	struct perfev_selfmon_value one;
	assert_int_equal(perfev_selfmon__read(sm, &one), 0);
	assert_true(one.value >= v1[0].value);
	assert_int_equal(perfev_selfmon__read_all(sm, v1, 4), -EINVAL);
	perfev_selfmon__delete(sm);

	/* A region over the real group. */
	sm = perfev_selfmon__new_group(fds, 3, &o);
	assert_non_null(sm);
	struct perfev_regions *rs = perfev_regions__new(sm, 4);
	struct perfev_region *r = perfev_regions__add(rs, "touch");
	for (int i = 0; i < 5; i++) {
		assert_int_equal(perfev_region__start(r), 0);
		touch_pages(8);
		assert_int_equal(perfev_region__stop(r), 0);
	}
	assert_int_equal(perfev_region__intervals(r), 5);
	assert_true(perfev_region__value(r, 1) >= 40);
	assert_true(perfev_region__value(r, 0) > 0);
	perfev_regions__delete(rs);
	perfev_selfmon__delete(sm);

	/* Without GROUP on the leader each fd is read by itself. */
	for (int i = 0; i < 3; i++)
		close(fds[i]);
	a.read_format = RF_TIMES;
	fds[0] = perfev_event_open(&a, 0, -1, -1, 0);
	am.read_format = RF_TIMES;
	am.config = PERF_COUNT_SW_PAGE_FAULTS;
	fds[1] = perfev_event_open(&am, 0, -1, fds[0], 0);
	assert_true(fds[0] >= 0 && fds[1] >= 0);
	assert_int_equal(ioctl(fds[0], PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP), 0);
	sm = perfev_selfmon__new_group(fds, 2, &o);
	assert_non_null(sm);
	assert_int_equal(perfev_selfmon__read_all(sm, v0, 2), 2);
	touch_pages(16);
	assert_int_equal(perfev_selfmon__read_all(sm, v1, 2), 2);
	assert_true(v1[1].value - v0[1].value >= 16);
	perfev_selfmon__stats(sm, &st);
	assert_int_equal(st.syscall_reads, 4);
	perfev_selfmon__delete(sm);
	close(fds[0]);
	close(fds[1]);
}

static void test_real_evsel(void **state)
{
	(void)state;
	struct perfev_evlist *el = perfev_evlist__new();
	assert_non_null(el);
	assert_int_equal(perfev_evlist__add_events(el, "{task-clock,page-faults},context-switches"), 0);
	/* Enabled after the open, for the reason test_real_group gives. */
	struct perfev_open_opts oo = { .sz = sizeof(oo), .pid = 0, .start_disabled = true };
	assert_int_equal(perfev_evlist__open(el, &oo), 0);
	assert_int_equal(perfev_evlist__enable(el), 0);

	struct perfev_evsel *lead = perfev_evlist__next_evsel(el, NULL);
	struct perfev_evsel *pf = perfev_evlist__next_evsel(el, lead);
	struct perfev_evsel *cs = perfev_evlist__next_evsel(el, pf);
	struct perfev_selfmon *sm = perfev_selfmon__new_evsel(lead, NULL);
	assert_non_null(sm);
	assert_int_equal(perfev_selfmon__nr(sm), 2);
	assert_int_equal(perfev_selfmon__path(sm), PERFEV_SELFMON_READ_SYSCALL);
	struct perfev_selfmon_value v0[2], v1[2];
	assert_int_equal(perfev_selfmon__read_all(sm, v0, 2), 2);
	touch_pages(20);
	assert_int_equal(perfev_selfmon__read_all(sm, v1, 2), 2);
	assert_true(v1[1].value - v0[1].value >= 20);
	perfev_selfmon__delete(sm);

	/* A member alone, and an event of its own. */
	sm = perfev_selfmon__new_evsel(pf, NULL);
	assert_non_null(sm);
	assert_int_equal(perfev_selfmon__nr(sm), 1);
	assert_int_equal(perfev_selfmon__read(sm, v0), 0);
	perfev_selfmon__delete(sm);
	sm = perfev_selfmon__new_evsel(cs, NULL);
	assert_non_null(sm);
	assert_int_equal(perfev_selfmon__read(sm, v0), 0);
	perfev_selfmon__delete(sm);
	perfev_evlist__delete(el);

	/* Not open: an error that says so. */
	el = perfev_evlist__new();
	assert_int_equal(perfev_evlist__add_events(el, "task-clock"), 0);
	assert_null(perfev_selfmon__new_evsel(perfev_evlist__next_evsel(el, NULL), NULL));
	assert_non_null(strstr(perfev_last_error(), "not open"));
	perfev_evlist__delete(el);
}

static void test_real_fallback_reasons(void **state)
{
	(void)state;
	struct perf_event_attr a;
	struct perfev_selfmon *sm;
	struct perfev_selfmon_value v;
	int fd;

	/* Inherited: read(2), whatever the hardware. */
	memset(&a, 0, sizeof(a));
	a.type = PERF_TYPE_SOFTWARE;
	a.config = PERF_COUNT_SW_TASK_CLOCK;
	a.read_format = RF_TIMES;
	a.inherit = 1;
	fd = perfev_event_open(&a, 0, -1, -1, 0);
	assert_true(fd >= 0);
	struct perfev_selfmon_opts o = { .sz = sizeof(o), .attr = &a };
	sm = perfev_selfmon__new(fd, &o);
	assert_non_null(sm);
	assert_int_equal(perfev_selfmon__path(sm), PERFEV_SELFMON_READ_SYSCALL);
	assert_non_null(strstr(perfev_selfmon__path_reason(sm), "inherited"));
	assert_int_equal(perfev_selfmon__read(sm, &v), 0);
	/* No page: no time fields either. */
	struct perfev_selfmon_time t;
	assert_int_equal(perfev_selfmon__time(sm, &t), -EOPNOTSUPP);
	perfev_selfmon__delete(sm);
	close(fd);

	fd = open_sw(PERF_COUNT_SW_TASK_CLOCK, RF_TIMES, &a);
	o.attached = true;
	sm = perfev_selfmon__new(fd, &o);
	assert_non_null(sm);
	assert_non_null(strstr(perfev_selfmon__path_reason(sm), "another task"));
	perfev_selfmon__delete(sm);
	o.attached = false;
	o.force_syscall = true;
	sm = perfev_selfmon__new(fd, &o);
	assert_non_null(sm);
	assert_non_null(strstr(perfev_selfmon__path_reason(sm), "force_syscall"));
	perfev_selfmon__delete(sm);
	o.force_syscall = false;

	/* A read_format that lies, or lacks the times: refused with a reason. */
	struct perf_event_attr lie = a;
	lie.read_format = RF_TIMES | PERF_FORMAT_ID;
	o.attr = &lie;
	assert_null(perfev_selfmon__new(fd, &o));
	assert_int_equal(errno, EINVAL);
	assert_non_null(strstr(perfev_last_error(), "opts.attr"));
	lie.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED;
	assert_null(perfev_selfmon__new(fd, &o));
	assert_non_null(strstr(perfev_last_error(), "TOTAL_TIME_RUNNING"));
	close(fd);

	/* Bad fd; opts with unknown trailing fields; too small opts. */
	assert_null(perfev_selfmon__new(-1, NULL));
	assert_int_equal(errno, EBADF);
	struct {
		struct perfev_selfmon_opts o;
		uint64_t extra;
	} big = { .o = { .sz = sizeof(big) }, .extra = 1 };
	assert_null(perfev_selfmon__new(0, &big.o));
	assert_int_equal(errno, EINVAL);
	struct perfev_selfmon_opts tiny = { .sz = 4 };
	assert_null(perfev_selfmon__new(0, &tiny));
	assert_null(perfev_selfmon__new_group(NULL, 0, NULL));
	assert_null(perfev_regions__new(NULL, 4));

	perfev_selfmon__delete(NULL);
	assert_string_equal(perfev_selfmon_path__name(PERFEV_SELFMON_RDPMC), "rdpmc");
	assert_string_equal(perfev_selfmon_path__name(PERFEV_SELFMON_READ_SYSCALL), "read(2)");
}

static void work(int n)
{
	volatile uint64_t x = 1;

	for (int i = 0; i < n; i++)
		x = x * 3 + (uint64_t)i;
}

static void test_real_rdpmc(void **state)
{
	(void)state;
	struct perf_event_attr a;
	char why[320];

	memset(&a, 0, sizeof(a));
	a.type = PERF_TYPE_HARDWARE;
	a.config = PERF_COUNT_HW_INSTRUCTIONS;
	a.read_format = RF_TIMES;
	a.exclude_kernel = 1;
#if defined(__aarch64__)
	a.config1 = 2; /* ask the arm64 PMU driver for user-space access */
#endif
	int fd = perfev_event_open(&a, 0, -1, -1, 0);
	if (fd < 0) {
		perfev_explain_open_error(fd, &a, "instructions", why, sizeof(why));
		print_message("skip: no hardware counter for rdpmc: %s\n", why);
		skip();
	}
	struct perfev_selfmon_opts o = { .sz = sizeof(o), .attr = &a, .precise_times = true };
	struct perfev_selfmon *sm = perfev_selfmon__new(fd, &o);
	assert_non_null(sm);
	if (perfev_selfmon__path(sm) != PERFEV_SELFMON_RDPMC) {
		print_message("skip: instructions opened but the page forbids user-space reads: %s\n",
			      perfev_selfmon__path_reason(sm));
		perfev_selfmon__delete(sm);
		close(fd);
		skip();
	}
	struct perfev_selfmon_value v0, v1;
	int user = 0;

	for (int i = 0; i < 100; i++) {
		uint64_t before = raw_read1(fd, NULL, NULL);
		assert_int_equal(perfev_selfmon__read(sm, &v0), 0);
		work(10000);
		assert_int_equal(perfev_selfmon__read(sm, &v1), 0);
		uint64_t after = raw_read1(fd, NULL, NULL);

		user += v0.path == PERFEV_SELFMON_RDPMC;
		assert_true(before <= v0.value && v0.value <= v1.value && v1.value <= after);
		assert_true(v1.value - v0.value >= 10000);
		assert_true(v1.enabled >= v0.enabled);
	}
	print_message("rdpmc: %d of 100 reads in user space\n", user);
	assert_true(user > 0);
	perfev_selfmon__delete(sm);
	close(fd);
}

static void test_real_time_zero(void **state)
{
	(void)state;
	struct perf_event_attr a;
	/* The time fields are the same on every page; a hardware event's page fills them on
	 * more kernels, so prefer it. */
	memset(&a, 0, sizeof(a));
	a.type = PERF_TYPE_HARDWARE;
	a.config = PERF_COUNT_HW_CPU_CYCLES;
	a.read_format = RF_TIMES;
	a.exclude_kernel = 1;
	int fd = perfev_event_open(&a, 0, -1, -1, 0);
	if (fd < 0)
		fd = open_sw(PERF_COUNT_SW_TASK_CLOCK, RF_TIMES, &a);
	assert_true(fd >= 0);
	struct perfev_selfmon_opts o = { .sz = sizeof(o), .attr = &a };
	struct perfev_selfmon *sm = perfev_selfmon__new(fd, &o);
	assert_non_null(sm);
	struct perfev_selfmon_time t;
	assert_int_equal(perfev_selfmon__time(sm, &t), 0);
	uint64_t ns = 0, tsc = 0;

	if (!t.cap_user_time_zero) {
		/* Must say so, not make a number up. */
		assert_int_equal(perfev_selfmon__tsc_to_perf_time(sm, perfev_read_tsc(), &ns), -EOPNOTSUPP);
		assert_non_null(strstr(perfev_last_error(), "cap_user_time_zero is 0"));
		assert_int_equal(perfev_selfmon__perf_time_to_tsc(sm, 1, &tsc), -EOPNOTSUPP);
		assert_int_equal(perfev_selfmon__perf_time_now(sm, &ns), -EOPNOTSUPP);
		print_message("skip: %s [cap_user_time %d]\n", perfev_last_error(), t.cap_user_time);
		perfev_selfmon__delete(sm);
		close(fd);
		skip();
	}
	/* Perf time advances with CLOCK_MONOTONIC, and TSC round trips. */
	struct timespec m0, m1;
	uint64_t p0, p1;
	clock_gettime(CLOCK_MONOTONIC, &m0);
	assert_int_equal(perfev_selfmon__perf_time_now(sm, &p0), 0);
	usleep(20000);
	clock_gettime(CLOCK_MONOTONIC, &m1);
	assert_int_equal(perfev_selfmon__perf_time_now(sm, &p1), 0);
	double dm = (double)(m1.tv_sec - m0.tv_sec) * 1e9 + (double)(m1.tv_nsec - m0.tv_nsec);
	double dp = (double)(p1 - p0);
	print_message("time_zero: mult %u shift %u zero %llu; 20 ms: perf %.0f ns, monotonic %.0f ns\n",
		      t.time_mult, t.time_shift, (unsigned long long)t.time_zero, dp, dm);
	assert_true(dp > dm * 0.95 - 200000 && dp < dm * 1.05 + 200000);
	uint64_t c = perfev_read_tsc();
	assert_int_equal(perfev_selfmon__tsc_to_perf_time(sm, c, &ns), 0);
	assert_int_equal(perfev_selfmon__perf_time_to_tsc(sm, ns, &tsc), 0);
	uint64_t slack = ((uint64_t)1 << t.time_shift) / (t.time_mult ? t.time_mult : 1) + 2;
	assert_true(tsc <= c && c - tsc <= slack);
	perfev_selfmon__delete(sm);
	close(fd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sign_extend),
		cmocka_unit_test(test_scale),
		cmocka_unit_test(test_time_math),
		cmocka_unit_test(test_page_read_paths),
		cmocka_unit_test(test_seqlock_torture),
		cmocka_unit_test(test_region_sim),
		cmocka_unit_test(test_real_software_fallback),
		cmocka_unit_test(test_real_group),
		cmocka_unit_test(test_real_evsel),
		cmocka_unit_test(test_real_fallback_reasons),
		cmocka_unit_test(test_real_rdpmc),
		cmocka_unit_test(test_real_time_zero),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
