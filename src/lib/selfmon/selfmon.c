/* SPDX-License-Identifier: MIT */
/*
 * Self-monitoring through the perf_event_mmap_page: user-space counter reads
 * (rdpmc / mrs) inside the page's seqlock, the read(2) fallback, time
 * conversion with time_zero, and regions.  See perfev/selfmon.h.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "evlist/evlist_int.h"
#include "util/internal.h"
#include "selfmon/selfmon_int.h"
#include "util/opts.h"

/* ---- the hardware primitives ---- */

#if defined(__x86_64__)
#define SM_HAVE_USER_READ 1

static inline __attribute__((always_inline)) uint64_t arch_rdpmc(uint32_t counter)
{
	uint32_t lo, hi;

	/* "memory": keep it between the seqlock's loads. */
	__asm__ __volatile__("rdpmc" : "=a"(lo), "=d"(hi) : "c"(counter) : "memory");
	return lo | (uint64_t)hi << 32;
}

static inline __attribute__((always_inline)) uint64_t arch_rdtsc(void)
{
	uint32_t lo, hi;

	__asm__ __volatile__("rdtsc" : "=a"(lo), "=d"(hi) : : "memory");
	return lo | (uint64_t)hi << 32;
}

#elif defined(__aarch64__)
#define SM_HAVE_USER_READ 1

/*
 * The kernel's arm64 PMU driver gives event counter n the page index n + 1,
 * the cycle counter (counter 31) index 32 and the instruction counter of
 * FEAT_PMUv3_ICNTR (counter 32) index 33.  Each event counter is its own
 * system register, so the read is a switch over n.
 */
#define SM_MRS(reg) ({ uint64_t v_; __asm__ __volatile__("mrs %0, " reg : "=r"(v_) : : "memory"); v_; })
#define SM_EVCNTR(n)                                                                               \
	case n:                                                                                    \
		return SM_MRS("pmevcntr" #n "_el0")

static inline __attribute__((always_inline)) uint64_t arch_rdpmc(uint32_t counter)
{
	switch (counter) {
		SM_EVCNTR(0); SM_EVCNTR(1); SM_EVCNTR(2); SM_EVCNTR(3); SM_EVCNTR(4);
		SM_EVCNTR(5); SM_EVCNTR(6); SM_EVCNTR(7); SM_EVCNTR(8); SM_EVCNTR(9);
		SM_EVCNTR(10); SM_EVCNTR(11); SM_EVCNTR(12); SM_EVCNTR(13); SM_EVCNTR(14);
		SM_EVCNTR(15); SM_EVCNTR(16); SM_EVCNTR(17); SM_EVCNTR(18); SM_EVCNTR(19);
		SM_EVCNTR(20); SM_EVCNTR(21); SM_EVCNTR(22); SM_EVCNTR(23); SM_EVCNTR(24);
		SM_EVCNTR(25); SM_EVCNTR(26); SM_EVCNTR(27); SM_EVCNTR(28); SM_EVCNTR(29);
		SM_EVCNTR(30);
	case 31:
		return SM_MRS("pmccntr_el0");
	case 32:
		return SM_MRS("S3_3_C9_C4_0"); /* PMICNTR_EL0 */
	default:
		return 0;
	}
}

static inline __attribute__((always_inline)) uint64_t arch_rdtsc(void)
{
	uint64_t v;

	/* isb: don't let the counter be read early (speculatively). */
	__asm__ __volatile__("isb; mrs %0, cntvct_el0" : "=r"(v) : : "memory");
	return v;
}

#else
#define SM_HAVE_USER_READ 0

static inline uint64_t arch_rdpmc(uint32_t counter)
{
	(void)counter;
	return 0;
}

static inline uint64_t arch_rdtsc(void)
{
	return 0;
}
#endif

static inline __attribute__((always_inline)) uint64_t real_rdpmc(void *ctx, uint32_t counter)
{
	(void)ctx;
	return arch_rdpmc(counter);
}

static inline __attribute__((always_inline)) uint64_t real_rdtsc(void *ctx)
{
	(void)ctx;
	return arch_rdtsc();
}

static const struct selfmon_hw real_hw = { real_rdpmc, real_rdtsc, NULL };

uint64_t perfev_read_tsc(void)
{
	return arch_rdtsc();
}

/* ---- pure arithmetic ---- */

int64_t perfev_pmc_sign_extend(uint64_t pmc, unsigned int width)
{
	return sm_sign_extend(pmc, width);
}

uint64_t perfev_mul_u64_u32_shr(uint64_t cyc, uint32_t mult, unsigned int shift)
{
	return sm_mul_u64_u32_shr(cyc, mult, shift);
}

uint64_t perfev_selfmon_value__scaled(const struct perfev_selfmon_value *v)
{
	return sm_scale(v->value, v->enabled, v->running);
}

uint64_t perfev_selfmon_time__extend(const struct perfev_selfmon_time *t, uint64_t cyc)
{
	if (!t->cap_user_time_short)
		return cyc;
	return t->time_cycles + ((cyc - t->time_cycles) & t->time_mask);
}

uint64_t perfev_selfmon_time__delta(const struct perfev_selfmon_time *t, uint64_t cyc)
{
	return t->time_offset +
	       sm_mul_u64_u32_shr(perfev_selfmon_time__extend(t, cyc), t->time_mult, t->time_shift);
}

uint64_t perfev_selfmon_time__cyc_to_ns(const struct perfev_selfmon_time *t, uint64_t cyc)
{
	return t->time_zero +
	       sm_mul_u64_u32_shr(perfev_selfmon_time__extend(t, cyc), t->time_mult, t->time_shift);
}

uint64_t perfev_selfmon_time__ns_to_cyc(const struct perfev_selfmon_time *t, uint64_t ns)
{
	if (!t->time_mult)
		return 0;
	/* The header's inverse: quot/rem so that nothing overflows; exact floor. */
	uint64_t time = ns - t->time_zero;
	uint64_t quot = time / t->time_mult, rem = time % t->time_mult;
	unsigned int shift = t->time_shift & 63;
#ifdef __SIZEOF_INT128__
	uint64_t cyc = (quot << shift) + (uint64_t)(((unsigned __int128)rem << shift) / t->time_mult);
#else
	uint64_t cyc = (quot << shift) + (rem << shift) / t->time_mult;
#endif
	if (t->cap_user_time_short)
		cyc &= t->time_mask;
	return cyc;
}

const char *perfev_selfmon_path__name(enum perfev_selfmon_path path)
{
	switch (path) {
	case PERFEV_SELFMON_RDPMC:
		return "rdpmc";
	case PERFEV_SELFMON_READ_SYSCALL:
		return "read(2)";
	}
	return "?";
}

/* ---- the page-level read ---- */

int perfev_mmap_page__read_self(const volatile struct perf_event_mmap_page *pc, bool precise_times,
				struct perfev_selfmon_value *out, uint64_t *retries)
{
	uint64_t dummy = 0;

	if (!SM_HAVE_USER_READ || !pc || !out)
		return SM_NEED_SYSCALL;
	return selfmon_page_read(pc, &real_hw, precise_times, out, retries ? retries : &dummy);
}

/* ---- the fast path ---- */

static __attribute__((noinline, cold)) int sm_read_failed(int fd, ssize_t n, size_t want)
{
	if (n < 0) {
		int err = errno;

		return set_error(err, "self-monitoring: read(2) of perf event fd %d failed: %s", fd,
				 strerror(err));
	}
	if (n == 0)
		return set_error(ENODATA, "self-monitoring: read(2) of perf event fd %d returned nothing: "
					  "the event is in error state (a pinned event that could "
					  "not be scheduled)", fd);
	return set_error(EIO, "self-monitoring: read(2) of perf event fd %d returned %zd bytes, "
			      "%zu expected: the group changed since the object was made", fd, n, want);
}

static inline __attribute__((always_inline)) int sm_user_read(struct perfev_selfmon *sm,
							       const struct selfmon_counter *c,
							       struct perfev_selfmon_value *out)
{
	int r;

	if (__builtin_expect(sm->sim, 0))
		r = selfmon_page_read(c->pc, &sm->hw, sm->precise_times, out, &sm->stats.retries);
	else
		r = selfmon_page_read(c->pc, &real_hw, sm->precise_times, out, &sm->stats.retries);
	if (__builtin_expect(r == 0, 1))
		sm->stats.user_reads++;
	else if (r < 0)
		sm->stats.busy++;
	return r;
}

static inline __attribute__((always_inline)) int sm_syscall_read(struct perfev_selfmon *sm,
								  const struct selfmon_counter *c,
								  struct perfev_selfmon_value *out)
{
	uint64_t buf[SM_RDBUF_WORDS];
	ssize_t n = read(c->fd, buf, c->rd_len);

	sm->stats.syscall_reads++;
	if (__builtin_expect(n != (ssize_t)c->rd_len, 0))
		return sm_read_failed(c->fd, n, c->rd_len);
	out->value = buf[c->val_idx];
	out->enabled = buf[c->ena_idx];
	out->running = buf[c->run_idx];
	out->path = PERFEV_SELFMON_READ_SYSCALL;
	return 0;
}

int perfev_selfmon__read(struct perfev_selfmon *sm, struct perfev_selfmon_value *out)
{
	const struct selfmon_counter *c = &sm->c[0];

	if (c->user_read) {
		int r = sm_user_read(sm, c, out);

		if (__builtin_expect(r <= 0, 1))
			return r;
	}
	return sm_syscall_read(sm, c, out);
}

int perfev_selfmon__read_all(struct perfev_selfmon *sm, struct perfev_selfmon_value *out, int nr)
{
	uint64_t need = 0;
	int i, r;

	if (nr <= 0 || nr > sm->nr)
		return set_error(EINVAL, "self-monitoring: %d counters asked, the object has %d", nr,
				 sm->nr);
	for (i = 0; i < nr; i++) {
		if (sm->c[i].user_read) {
			r = sm_user_read(sm, &sm->c[i], &out[i]);
			if (r < 0)
				return r;
			if (r == 0)
				continue;
		}
		need |= 1ULL << i;
	}
	if (!need)
		return nr;
	if (sm->group_read) {
		/* One read(2) of the leader serves every counter that needs it. */
		uint64_t buf[SM_RDBUF_WORDS];
		const struct selfmon_counter *c0 = &sm->c[0];
		ssize_t n = read(c0->fd, buf, c0->rd_len);

		sm->stats.syscall_reads++;
		if (n != (ssize_t)c0->rd_len)
			return sm_read_failed(c0->fd, n, c0->rd_len);
		for (i = 0; i < nr; i++) {
			if (!(need & (1ULL << i)))
				continue;
			out[i].value = buf[sm->c[i].val_idx];
			out[i].enabled = buf[c0->ena_idx];
			out[i].running = buf[c0->run_idx];
			out[i].path = PERFEV_SELFMON_READ_SYSCALL;
		}
		return nr;
	}
	for (i = 0; i < nr; i++) {
		if (!(need & (1ULL << i)))
			continue;
		r = sm_syscall_read(sm, &sm->c[i], &out[i]);
		if (r < 0)
			return r;
	}
	return nr;
}

/* ---- making objects ---- */

int selfmon__rdpmc_sysfs_allowed(char *why, size_t size)
{
#if defined(__x86_64__)
	/* cpu, or cpu_core and cpu_atom on hybrid parts; one setting for all of them. */
	static const char *const pmus[] = { "cpu", "cpu_core", "cpu_atom" };

	for (size_t i = 0; i < ARRAY_SIZE(pmus); i++) {
		char path[96];
		uint64_t v;

		snprintf(path, sizeof(path), "/sys/bus/event_source/devices/%s/rdpmc", pmus[i]);
		if (read_u64_file(path, &v) == 0 && v == 0) {
			snprintf(why, size, "rdpmc is disabled in %s (0): user-space counter reads "
					    "are forbidden; 'echo 1 > %s' as root allows them", path, path);
			return 0;
		}
	}
	return 1;
#elif defined(__aarch64__)
	uint64_t v;

	if (read_u64_file("/proc/sys/kernel/perf_user_access", &v) == 0 && v == 0) {
		snprintf(why, size, "kernel.perf_user_access is 0: user-space counter reads are "
				    "forbidden; 'sysctl kernel.perf_user_access=1' as root allows them "
				    "(and open the event with attr.config1 bit 1 set)");
		return 0;
	}
	return 1;
#else
	snprintf(why, size, "user-space counter reads are not supported on this architecture");
	return 0;
#endif
}

void perfev_selfmon__delete(struct perfev_selfmon *sm)
{
	if (!sm)
		return;
	for (int i = 0; i < sm->nr; i++)
		if (sm->c[i].owns_page && sm->c[i].pc)
			munmap((void *)(uintptr_t)sm->c[i].pc, sm->page_size);
	free(sm);
}

static struct perfev_selfmon *sm_alloc(int nr)
{
	struct perfev_selfmon *sm;

	if (nr <= 0 || nr > PERFEV_SELFMON_MAX_COUNTERS)
		return set_error_ptr(EINVAL, "self-monitoring: %d counters asked; 1 to %d are possible",
				     nr, PERFEV_SELFMON_MAX_COUNTERS);
	sm = calloc(1, sizeof(*sm) + (size_t)nr * sizeof(sm->c[0]));
	if (!sm)
		return set_error_ptr(ENOMEM, "self-monitoring: out of memory");
	sm->nr = nr;
	sm->page_size = (size_t)sysconf(_SC_PAGESIZE);
	for (int i = 0; i < nr; i++)
		sm->c[i].fd = -1;
	return sm;
}

static int rf_words(uint64_t rf)
{
	return !!(rf & PERF_FORMAT_TOTAL_TIME_ENABLED) + !!(rf & PERF_FORMAT_TOTAL_TIME_RUNNING);
}

static int rf_entry_words(uint64_t rf)
{
	return 1 + !!(rf & PERF_FORMAT_ID) + !!(rf & PERF_FORMAT_LOST);
}

static const uint64_t sm_known_rf = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING |
				    PERF_FORMAT_ID | PERF_FORMAT_GROUP | PERF_FORMAT_LOST;

static int check_rf(uint64_t rf, int fd)
{
	uint64_t times = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;

	if ((rf & times) != times)
		return set_error(EINVAL, "self-monitoring of fd %d: its read_format 0x%llx lacks "
					 "PERF_FORMAT_TOTAL_TIME_ENABLED|PERF_FORMAT_TOTAL_TIME_RUNNING, "
					 "which scaling needs; open the event with both",
				 fd, (unsigned long long)rf);
	if (rf & ~sm_known_rf)
		return set_error(EINVAL, "self-monitoring of fd %d: unknown read_format bits 0x%llx",
				 fd, (unsigned long long)(rf & ~sm_known_rf));
	return 0;
}

/* The read(2) layout of a lone counter (rf without GROUP), checked with one read. */
static int setup_single(struct selfmon_counter *c, int fd, uint64_t rf)
{
	uint64_t buf[SM_RDBUF_WORDS];
	size_t want = (size_t)(1 + rf_words(rf) + rf_entry_words(rf) - 1) * 8;
	ssize_t n;

	c->fd = fd;
	c->rd_len = (uint16_t)want;
	c->val_idx = 0;
	c->ena_idx = 1;
	c->run_idx = 2;
	n = read(fd, buf, sizeof(buf));
	if (n < 0) {
		int err = errno;

		return set_error(err, "self-monitoring: cannot read perf event fd %d: %s%s", fd,
				 strerror(err), err == EBADF ? " (not an open fd)" : "");
	}
	if ((size_t)n != want)
		return set_error(EINVAL, "self-monitoring: read(2) of fd %d gave %zd bytes where "
					 "read_format 0x%llx gives %zu: pass the attr the fd was opened "
					 "with in opts.attr", fd, n, (unsigned long long)rf, want);
	return 0;
}

/* The read(2) layout of a group read of leader fds[0] for all nr counters. */
static int setup_group(struct perfev_selfmon *sm, const int *fds, int nr, uint64_t rf)
{
	uint64_t buf[SM_RDBUF_WORDS];
	int head = 1 + rf_words(rf), stride = rf_entry_words(rf);
	ssize_t n = read(fds[0], buf, sizeof(buf));

	if (n < 0) {
		int err = errno;

		return set_error(err, "self-monitoring: cannot read perf event fd %d: %s%s", fds[0],
				 strerror(err), err == ENOSPC ? " (the group is too big)" : "");
	}
	if (n < 8 || buf[0] == 0 || buf[0] > PERFEV_SELFMON_MAX_COUNTERS ||
	    (size_t)n != (size_t)(head + (int)buf[0] * stride) * 8)
		return set_error(EINVAL, "self-monitoring: group read(2) of leader fd %d gave %zd bytes, "
					 "which does not match read_format 0x%llx: pass the attr the "
					 "leader was opened with in opts.attr",
				 fds[0], n, (unsigned long long)rf);
	int nrg = (int)buf[0];

	if (!(rf & PERF_FORMAT_ID) && nrg < nr)
		return set_error(EINVAL, "self-monitoring: the group led by fd %d has %d events, %d fds "
					 "given", fds[0], nrg, nr);
	sm->group_read = true;
	for (int i = 0; i < nr; i++) {
		struct selfmon_counter *c = &sm->c[i];
		int pos = i;

		if (rf & PERF_FORMAT_ID) {
			uint64_t id;

			if (ioctl(fds[i], PERF_EVENT_IOC_ID, &id) < 0) {
				int err = errno;

				return set_error(err, "self-monitoring: cannot get the id of perf event "
						      "fd %d: %s", fds[i], strerror(err));
			}
			for (pos = 0; pos < nrg; pos++)
				if (buf[head + pos * stride + 1] == id)
					break;
			if (pos == nrg)
				return set_error(EINVAL, "self-monitoring: fd %d is not in the group "
							 "led by fd %d", fds[i], fds[0]);
		}
		c->fd = fds[0];
		c->rd_len = (uint16_t)n;
		c->val_idx = (uint16_t)(head + pos * stride);
		c->ena_idx = 1;
		c->run_idx = 2;
	}
	return 0;
}

/* Maps fd's page and decides whether counter c may be read in user space. */
static void setup_page(struct perfev_selfmon *sm, int i, int fd, bool inherit, bool attached,
		       bool force, char *why, size_t size)
{
	struct selfmon_counter *c = &sm->c[i];
	void *p;

	why[0] = '\0';
	c->user_read = false;
	if (inherit) {
		/* The kernel refuses to map an inherited per-task event, and its count needs read(2). */
		snprintf(why, size, "the event is inherited (attr.inherit): its count includes child "
				    "tasks, which only read(2) sums");
		return;
	}
	p = mmap(NULL, sm->page_size, PROT_READ, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED) {
		snprintf(why, size, "cannot map the event's page (mmap: %s)", strerror(errno));
		return;
	}
	c->pc = p;
	c->owns_page = true;
	if (!SM_HAVE_USER_READ) {
		snprintf(why, size, "perfev reads counters in user space only on x86-64 and arm64");
		return;
	}
	if (force) {
		snprintf(why, size, "opts.force_syscall is set");
		return;
	}
	if (attached) {
		snprintf(why, size, "the event counts another task or a CPU (opts.attached), whose "
				    "counter this thread can't read in user space");
		return;
	}
	/*
	 * cap_user_rdpmc is fixed for an event's life (the kernel decides it when
	 * the event is created) and the page is filled in by mmap(), so this
	 * holds for every later read; index, which does change, is checked on
	 * every read.
	 */
	if (!(c->pc->capabilities & SM_CAP_USER_RDPMC)) {
		snprintf(why, size, "cap_user_rdpmc is 0 in the event's page: the kernel does not let "
				    "user space read this counter (a software event, no hardware PMU "
				    "here, or rdpmc forbidden by the kernel or hypervisor)");
		return;
	}
	if (!selfmon__rdpmc_sysfs_allowed(why, size))
		return;
	c->user_read = true;
}

static struct perfev_selfmon *sm_build(const int *fds, int nr, const uint64_t *rfs, bool inherit,
				       bool attached, const struct perfev_selfmon_opts *o)
{
	struct perfev_selfmon *sm = sm_alloc(nr);
	char why[256];
	int i, err;

	if (!sm)
		return NULL;
	sm->precise_times = o->precise_times;
	for (i = 0; i < nr; i++) {
		err = check_rf(rfs[i], fds[i]);
		if (err)
			goto err_out;
	}
	if (rfs[0] & PERF_FORMAT_GROUP) {
		err = setup_group(sm, fds, nr, rfs[0]);
		if (err)
			goto err_out;
	} else {
		for (i = 0; i < nr; i++) {
			err = setup_single(&sm->c[i], fds[i], rfs[i] & ~(uint64_t)PERF_FORMAT_GROUP);
			if (err)
				goto err_out;
		}
	}
	sm->path = PERFEV_SELFMON_RDPMC;
	for (i = 0; i < nr; i++) {
		setup_page(sm, i, fds[i], inherit, attached, o->force_syscall, why, sizeof(why));
		if (!sm->c[i].user_read && sm->path == PERFEV_SELFMON_RDPMC) {
			sm->path = PERFEV_SELFMON_READ_SYSCALL;
			if (nr > 1)
				snprintf(sm->reason, sizeof(sm->reason), "counter %d (fd %d): %s", i,
					 fds[i], why);
			else
				snprintf(sm->reason, sizeof(sm->reason), "%s", why);
		}
	}
	pr_debug("selfmon: %d counter(s), path %s%s%s\n", nr, perfev_selfmon_path__name(sm->path),
		 sm->reason[0] ? ": " : "", sm->reason);
	return sm;

err_out:
	perfev_selfmon__delete(sm);
	errno = -err;
	return NULL;
}

struct perfev_selfmon *perfev_selfmon__new_group(const int *fds, int nr,
						  const struct perfev_selfmon_opts *opts)
{
	struct perfev_selfmon_opts o;
	uint64_t rfs[PERFEV_SELFMON_MAX_COUNTERS];
	uint64_t rf = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	bool inherit = false;
	int err = OPTS_COPY(&o, opts, perfev_selfmon_opts, attr);

	if (err)
		return errno = -err, NULL;
	if (!fds || nr <= 0 || nr > PERFEV_SELFMON_MAX_COUNTERS)
		return set_error_ptr(EINVAL, "self-monitoring: %d fds given; 1 to %d are possible", nr,
				     PERFEV_SELFMON_MAX_COUNTERS);
	if (o.attr) {
		rf = o.attr->read_format;
		inherit = o.attr->inherit;
	}
	for (int i = 0; i < nr; i++)
		rfs[i] = i ? rf & ~(uint64_t)PERF_FORMAT_GROUP : rf;
	return sm_build(fds, nr, rfs, inherit, o.attached, &o);
}

struct perfev_selfmon *perfev_selfmon__new(int fd, const struct perfev_selfmon_opts *opts)
{
	return perfev_selfmon__new_group(&fd, 1, opts);
}

struct perfev_selfmon *perfev_selfmon__new_evsel(struct perfev_evsel *evsel,
						  const struct perfev_selfmon_opts *opts)
{
	struct perfev_selfmon_opts o;
	int fds[PERFEV_SELFMON_MAX_COUNTERS];
	uint64_t rfs[PERFEV_SELFMON_MAX_COUNTERS];
	int nr = 0, err = OPTS_COPY(&o, opts, perfev_selfmon_opts, attr);

	if (err)
		return errno = -err, NULL;
	if (!evsel || !evsel->evlist || !evsel->evlist->open || !evsel->evlist->cpus ||
	    !evsel->evlist->threads)
		return set_error_ptr(EINVAL, "self-monitoring: the event's list is not open");

	const struct perfev_evlist *el = evsel->evlist;
	const struct perfev_cpu_map *cpus = el->cpus;
	const struct perfev_thread_map *threads = el->threads;

	if (cpus->nr != 1 || threads->nr != 1)
		return set_error_ptr(EINVAL, "self-monitoring reads one counter per event, but the "
					     "list is open on %d CPU(s) x %d thread(s): open it on "
					     "the calling thread only (pid 0, no CPU list)",
				     cpus->nr, threads->nr);
	bool self = cpus->cpus[0] == -1 && (threads->tids[0] == 0 || threads->tids[0] == gettid());

	/* A leader brings its group; any other event comes alone. */
	for (int i = 0; i < el->nr; i++) {
		struct perfev_evsel *ev = el->evsels[i];

		if (ev != evsel && (evsel->leader != evsel || ev->leader != evsel || evsel->nr_members < 2))
			continue;
		if (nr == PERFEV_SELFMON_MAX_COUNTERS)
			return set_error_ptr(EINVAL, "self-monitoring: groups of more than %d events "
						     "are not supported", PERFEV_SELFMON_MAX_COUNTERS);
		if (ev->open_err || !ev->fds || ev->fds[0] < 0)
			return set_error_ptr(ENOENT, "self-monitoring: event '%s' is not open%s%s",
					     ev->name ? ev->name : "?", ev->open_errmsg ? ": " : "",
					     ev->open_errmsg ? ev->open_errmsg : "");
		fds[nr] = ev->fds[0];
		/* A member read by itself (not through a GROUP leader) uses its own format. */
		rfs[nr] = ev->attr.read_format;
		nr++;
	}
	if (!nr)
		return set_error_ptr(EINVAL, "self-monitoring: the event is not in its list");
	/* Members of a GROUP leader are read through it; otherwise each has its own format. */
	return sm_build(fds, nr, rfs, evsel->attr.inherit, o.attached || !self, &o);
}

struct perfev_selfmon *selfmon__new_sim(const volatile struct perf_event_mmap_page *const *pages,
					 const int *fds, int nr, const struct selfmon_hw *hw,
					 bool precise_times)
{
	struct perfev_selfmon *sm = sm_alloc(nr);

	if (!sm)
		return NULL;
	sm->sim = true;
	sm->hw = *hw;
	sm->precise_times = precise_times;
	sm->path = PERFEV_SELFMON_RDPMC;
	for (int i = 0; i < nr; i++) {
		struct selfmon_counter *c = &sm->c[i];

		c->pc = pages[i];
		c->fd = fds ? fds[i] : -1;
		c->user_read = true;
		c->rd_len = 24;
		c->val_idx = 0;
		c->ena_idx = 1;
		c->run_idx = 2;
	}
	return sm;
}

int perfev_selfmon__nr(const struct perfev_selfmon *sm)
{
	return sm->nr;
}

enum perfev_selfmon_path perfev_selfmon__path(const struct perfev_selfmon *sm)
{
	return sm->path;
}

const char *perfev_selfmon__path_reason(const struct perfev_selfmon *sm)
{
	return sm->reason;
}

void perfev_selfmon__stats(const struct perfev_selfmon *sm, struct perfev_selfmon_stats *out)
{
	*out = sm->stats;
}

/* ---- time conversion ---- */

int perfev_selfmon__time(const struct perfev_selfmon *sm, struct perfev_selfmon_time *t)
{
	const volatile struct perf_event_mmap_page *pc = sm->c[0].pc;

	if (!pc)
		return set_error(EOPNOTSUPP, "self-monitoring: no event page is mapped, so there are no "
					     "time conversion fields (%s)", sm->reason);
	for (unsigned int tries = 0; tries <= PERFEV_SELFMON_MAX_RETRIES; tries++) {
		uint32_t seq = __atomic_load_n(&pc->lock, __ATOMIC_ACQUIRE);

		if (seq & 1) {
			sm_cpu_relax();
			continue;
		}
		uint64_t caps = pc->capabilities;

		t->cap_user_time = !!(caps & SM_CAP_USER_TIME);
		t->cap_user_time_zero = !!(caps & SM_CAP_USER_TIME_ZERO);
		t->cap_user_time_short = !!(caps & SM_CAP_USER_TIME_SHORT);
		t->time_offset = pc->time_offset;
		t->time_zero = pc->time_zero;
		t->time_mult = pc->time_mult;
		t->time_shift = pc->time_shift;
		t->time_cycles = t->cap_user_time_short ? pc->time_cycles : 0;
		t->time_mask = t->cap_user_time_short ? pc->time_mask : 0;
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
		if (__atomic_load_n(&pc->lock, __ATOMIC_RELAXED) == seq)
			return 0;
		sm_cpu_relax();
	}
	return set_error(EAGAIN, "self-monitoring: the event page kept changing (%d retries)",
			 PERFEV_SELFMON_MAX_RETRIES);
}

static int time_zero_params(const struct perfev_selfmon *sm, struct perfev_selfmon_time *t)
{
	int err = perfev_selfmon__time(sm, t);

	if (err)
		return err;
	if (!t->cap_user_time_zero || !t->time_mult)
		return set_error(EOPNOTSUPP,
				 "cap_user_time_zero is 0 in the event's page: the kernel can't "
				 "relate the timestamp counter to perf time here (its sched_clock "
				 "is not the TSC: in a VM usually kvm-clock, or the TSC is unstable)");
	return 0;
}

int perfev_selfmon__tsc_to_perf_time(const struct perfev_selfmon *sm, uint64_t tsc, uint64_t *ns)
{
	struct perfev_selfmon_time t;
	int err = time_zero_params(sm, &t);

	if (err)
		return err;
	*ns = perfev_selfmon_time__cyc_to_ns(&t, tsc);
	return 0;
}

int perfev_selfmon__perf_time_to_tsc(const struct perfev_selfmon *sm, uint64_t ns, uint64_t *tsc)
{
	struct perfev_selfmon_time t;
	int err = time_zero_params(sm, &t);

	if (err)
		return err;
	*tsc = perfev_selfmon_time__ns_to_cyc(&t, ns);
	return 0;
}

int perfev_selfmon__perf_time_now(const struct perfev_selfmon *sm, uint64_t *ns)
{
	struct perfev_selfmon_time t;
	int err = time_zero_params(sm, &t);

	if (err)
		return err;
	if (!SM_HAVE_USER_READ)
		return set_error(EOPNOTSUPP, "perfev reads the timestamp counter only on x86-64 and "
					     "arm64");
	*ns = perfev_selfmon_time__cyc_to_ns(&t, arch_rdtsc());
	return 0;
}

/* ---- regions ---- */

struct region_acc {
	uint64_t scaled, raw, enabled, running;
};

struct perfev_region {
	struct perfev_regions *rs;
	bool running;
	uint64_t intervals;
	struct perfev_selfmon_value *start; /* [nr counters] */
	struct region_acc *acc;		    /* [nr counters] */
	char name[PERFEV_REGION_NAME_MAX + 1];
};

struct perfev_regions {
	struct perfev_selfmon *sm;
	int nr_counters;
	int cap, nr;
	struct perfev_region *regions;	    /* [cap] */
	struct perfev_selfmon_value *start; /* [cap * nr_counters] */
	struct region_acc *acc;		    /* [cap * nr_counters] */
};

struct perfev_regions *perfev_regions__new(struct perfev_selfmon *sm, int capacity)
{
	struct perfev_regions *rs;
	size_t n;

	if (!sm || capacity <= 0 || capacity > 1 << 20)
		return set_error_ptr(EINVAL, "regions: a selfmon object and a capacity of 1 to %d are "
					     "needed", 1 << 20);
	rs = calloc(1, sizeof(*rs));
	if (!rs)
		return set_error_ptr(ENOMEM, "regions: out of memory");
	rs->sm = sm;
	rs->nr_counters = sm->nr;
	rs->cap = capacity;
	n = (size_t)capacity * (size_t)sm->nr;
	rs->regions = calloc((size_t)capacity, sizeof(*rs->regions));
	rs->start = calloc(n, sizeof(*rs->start));
	rs->acc = calloc(n, sizeof(*rs->acc));
	if (!rs->regions || !rs->start || !rs->acc) {
		perfev_regions__delete(rs);
		return set_error_ptr(ENOMEM, "regions: out of memory for %d regions", capacity);
	}
	for (int i = 0; i < capacity; i++) {
		rs->regions[i].rs = rs;
		rs->regions[i].start = rs->start + (size_t)i * (size_t)sm->nr;
		rs->regions[i].acc = rs->acc + (size_t)i * (size_t)sm->nr;
	}
	return rs;
}

void perfev_regions__delete(struct perfev_regions *rs)
{
	if (!rs)
		return;
	free(rs->regions);
	free(rs->start);
	free(rs->acc);
	free(rs);
}

struct perfev_region *perfev_regions__find(const struct perfev_regions *rs, const char *name)
{
	char key[PERFEV_REGION_NAME_MAX + 1];

	if (!rs || !name)
		return errno = EINVAL, NULL;
	snprintf(key, sizeof(key), "%s", name);
	for (int i = 0; i < rs->nr; i++)
		if (!strcmp(rs->regions[i].name, key))
			return &rs->regions[i];
	errno = ENOENT;
	return NULL;
}

struct perfev_region *perfev_regions__add(struct perfev_regions *rs, const char *name)
{
	struct perfev_region *r;

	if (!rs || !name)
		return set_error_ptr(EINVAL, "regions: a table and a name are needed");
	if (perfev_regions__find(rs, name))
		return set_error_ptr(EEXIST, "regions: '%s' exists already", name);
	if (rs->nr == rs->cap)
		return set_error_ptr(ENOSPC, "regions: the table is full (%d regions); make it bigger "
					     "with perfev_regions__new()", rs->cap);
	r = &rs->regions[rs->nr++];
	snprintf(r->name, sizeof(r->name), "%s", name);
	return r;
}

int perfev_regions__nr(const struct perfev_regions *rs)
{
	return rs->nr;
}

struct perfev_region *perfev_regions__region(const struct perfev_regions *rs, int idx)
{
	if (idx < 0 || idx >= rs->nr)
		return NULL;
	return &rs->regions[idx];
}

int perfev_region__start(struct perfev_region *r)
{
	int n;

	if (__builtin_expect(r->running, 0))
		return set_error(EBUSY, "region '%s' is already started", r->name);
	n = perfev_selfmon__read_all(r->rs->sm, r->start, r->rs->nr_counters);
	if (__builtin_expect(n < 0, 0))
		return n;
	r->running = true;
	return 0;
}

int perfev_region__stop(struct perfev_region *r)
{
	struct perfev_selfmon_value now[PERFEV_SELFMON_MAX_COUNTERS];
	int nr = r->rs->nr_counters, n;

	if (__builtin_expect(!r->running, 0))
		return set_error(EINVAL, "region '%s' is not started", r->name);
	n = perfev_selfmon__read_all(r->rs->sm, now, nr);
	r->running = false;
	if (__builtin_expect(n < 0, 0))
		return n;
	for (int i = 0; i < nr; i++) {
		uint64_t dv = now[i].value - r->start[i].value;
		uint64_t de = now[i].enabled - r->start[i].enabled;
		uint64_t dr = now[i].running - r->start[i].running;
		struct region_acc *a = &r->acc[i];

		/* Equal time deltas (also 0 and 0: the page's times did not move) need no scaling. */
		a->scaled += de == dr ? dv : sm_scale(dv, de, dr);
		a->raw += dv;
		a->enabled += de;
		a->running += dr;
	}
	r->intervals++;
	return 0;
}

void perfev_region__reset(struct perfev_region *r)
{
	r->running = false;
	r->intervals = 0;
	memset(r->acc, 0, (size_t)r->rs->nr_counters * sizeof(*r->acc));
}

const char *perfev_region__name(const struct perfev_region *r)
{
	return r->name;
}

uint64_t perfev_region__intervals(const struct perfev_region *r)
{
	return r->intervals;
}

uint64_t perfev_region__value(const struct perfev_region *r, int idx)
{
	if (idx < 0 || idx >= r->rs->nr_counters)
		return 0;
	return r->acc[idx].scaled;
}

int perfev_region__counts(const struct perfev_region *r, int idx, struct perfev_region_counts *out)
{
	if (idx < 0 || idx >= r->rs->nr_counters)
		return set_error(EINVAL, "region '%s' has counters 0 to %d, not %d", r->name,
				 r->rs->nr_counters - 1, idx);
	out->scaled = r->acc[idx].scaled;
	out->raw = r->acc[idx].raw;
	out->enabled = r->acc[idx].enabled;
	out->running = r->acc[idx].running;
	return 0;
}
