/* SPDX-License-Identifier: MIT */
/*
 * Writing sample bodies: the exact inverse of perfev_sample__parse(), for
 * tests and fuzz seeds now and the perf.data writer later.
 */
#include "sample/record_int.h"

/* A writer that only counts when p is NULL, so one walk both sizes and writes. */
struct wr {
	unsigned char *p;
	size_t off;
	bool overflow;
};

static void w_bytes(struct wr *w, const void *src, size_t n)
{
	if (!size_add_ok(w->off, n, &w->off)) {
		w->overflow = true;
		return;
	}
	if (w->p && n)
		memcpy(w->p + w->off - n, src, n);
}

static void w_u64(struct wr *w, uint64_t v)
{
	w_bytes(w, &v, 8);
}

static void w_u32x2(struct wr *w, uint32_t a, uint32_t b)
{
	w_bytes(w, &a, 4);
	w_bytes(w, &b, 4);
}

/* nr elements of elem bytes from src; a count that overflows poisons the writer. */
static int w_array(struct wr *w, const void *src, uint64_t nr, size_t elem, const char *field)
{
	size_t bytes;

	if (nr > SIZE_MAX || !size_mul_ok((size_t)nr, elem, &bytes)) {
		w->overflow = true;
		return 0;
	}
	if (bytes && !src)
		return set_error(EINVAL, "sample encode: %s has %llu entries but no data", field,
				 (unsigned long long)nr);
	w_bytes(w, src, bytes);
	return 0;
}

static int w_regs(struct wr *w, uint64_t mask, uint64_t abi, uint64_t nr, const void *regs,
		  const char *field)
{
	uint64_t want = (uint64_t)__builtin_popcountll(mask);

	w_u64(w, abi);
	if (!abi)
		return 0;
	if (nr != want)
		return set_error(EINVAL, "sample encode: %s has %llu registers, its mask 0x%llx needs %llu",
				 field, (unsigned long long)nr, (unsigned long long)mask,
				 (unsigned long long)want);
	return w_array(w, regs, nr, 8, field);
}

static int encode(const struct perfev_sample_fmt *fmt, const struct perfev_sample *s, struct wr *w)
{
	uint64_t t = fmt->sample_type;
	int err = 0;

	if (t & PERF_SAMPLE_IDENTIFIER)
		w_u64(w, s->identifier);
	if (t & PERF_SAMPLE_IP)
		w_u64(w, s->ip);
	if (t & PERF_SAMPLE_TID)
		w_u32x2(w, s->pid, s->tid);
	if (t & PERF_SAMPLE_TIME)
		w_u64(w, s->time);
	if (t & PERF_SAMPLE_ADDR)
		w_u64(w, s->addr);
	if (t & PERF_SAMPLE_ID)
		w_u64(w, s->id);
	if (t & PERF_SAMPLE_STREAM_ID)
		w_u64(w, s->stream_id);
	if (t & PERF_SAMPLE_CPU)
		w_u32x2(w, s->cpu, s->cpu_res);
	if (t & PERF_SAMPLE_PERIOD)
		w_u64(w, s->period);
	if (t & PERF_SAMPLE_READ) {
		uint64_t nr = 1;
		size_t need;

		if ((fmt->read_format & PERF_FORMAT_GROUP) && s->read.data && s->read.size >= 8)
			memcpy(&nr, s->read.data, 8);
		need = perfev_read_format__size(fmt->read_format, nr);
		if (!s->read.data || !need || s->read.size != need)
			return set_error(EINVAL,
					 "sample encode: read value of %zu bytes does not match read_format 0x%llx (%zu bytes)",
					 s->read.size, (unsigned long long)fmt->read_format, need);
		w_bytes(w, s->read.data, need);
	}
	if (t & PERF_SAMPLE_CALLCHAIN) {
		w_u64(w, s->callchain.nr);
		err = w_array(w, s->callchain.ips, s->callchain.nr, 8, "callchain");
		if (err)
			return err;
	}
	if (t & PERF_SAMPLE_RAW) {
		w_bytes(w, &s->raw.size, 4);
		err = w_array(w, s->raw.data, s->raw.size, 1, "raw");
		if (err)
			return err;
	}
	if (t & PERF_SAMPLE_BRANCH_STACK) {
		w_u64(w, s->branch.nr);
		if (fmt->branch_sample_type & PERF_SAMPLE_BRANCH_HW_INDEX)
			w_u64(w, s->branch.hw_idx);
		err = w_array(w, s->branch.entries, s->branch.nr, sizeof(struct perf_branch_entry),
			      "branch");
		if (!err && (fmt->branch_sample_type & PERFEV_SAMPLE_BRANCH_COUNTERS))
			err = w_array(w, s->branch.counters, s->branch.nr, 8, "branch counters");
		if (err)
			return err;
	}
	if (t & PERF_SAMPLE_REGS_USER) {
		err = w_regs(w, fmt->sample_regs_user, s->regs_user.abi, s->regs_user.nr,
			     s->regs_user.regs, "regs_user");
		if (err)
			return err;
	}
	if (t & PERF_SAMPLE_STACK_USER) {
		w_u64(w, s->stack_user.size);
		if (s->stack_user.size) {
			if (s->stack_user.dyn_size > s->stack_user.size)
				return set_error(EINVAL, "sample encode: stack_user dyn_size %llu exceeds its size %llu",
						 (unsigned long long)s->stack_user.dyn_size,
						 (unsigned long long)s->stack_user.size);
			err = w_array(w, s->stack_user.data, s->stack_user.size, 1, "stack_user");
			if (err)
				return err;
			w_u64(w, s->stack_user.dyn_size);
		}
	}
	if (t & (PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT))
		w_u64(w, s->weight);
	if (t & PERF_SAMPLE_DATA_SRC)
		w_u64(w, s->data_src);
	if (t & PERF_SAMPLE_TRANSACTION)
		w_u64(w, s->transaction);
	if (t & PERF_SAMPLE_REGS_INTR) {
		err = w_regs(w, fmt->sample_regs_intr, s->regs_intr.abi, s->regs_intr.nr,
			     s->regs_intr.regs, "regs_intr");
		if (err)
			return err;
	}
	if (t & PERF_SAMPLE_PHYS_ADDR)
		w_u64(w, s->phys_addr);
	if (t & PERF_SAMPLE_CGROUP)
		w_u64(w, s->cgroup);
	if (t & PERF_SAMPLE_DATA_PAGE_SIZE)
		w_u64(w, s->data_page_size);
	if (t & PERF_SAMPLE_CODE_PAGE_SIZE)
		w_u64(w, s->code_page_size);
	if (t & PERF_SAMPLE_AUX) {
		w_u64(w, s->aux.size);
		if (s->aux.size)
			err = w_array(w, s->aux.data, s->aux.size, 1, "aux");
	}
	return err;
}

int perfev_sample__encode(const struct perfev_sample_fmt *fmt, const struct perfev_sample *s,
			  void *buf, size_t size)
{
	struct wr w = { 0 };
	int err;

	if (!s || (!buf && size))
		return set_error(EINVAL, "sample encode: no sample or no buffer given");
	err = sample_fmt__check(fmt);
	if (!err)
		err = encode(fmt, s, &w);
	if (err)
		return err;
	/* header.size is a u16: a body that cannot sit behind one header is useless. */
	if (w.overflow || w.off > UINT16_MAX - sizeof(struct perf_event_header))
		return set_error(E2BIG, "sample encode: the body needs %s%zu bytes, a record holds at most %zu",
				 w.overflow ? "more than " : "", w.off,
				 (size_t)UINT16_MAX - sizeof(struct perf_event_header));
	if (!buf)
		return (int)w.off;
	if (size < w.off)
		return set_error(ENOSPC, "sample encode: the body needs %zu bytes, the buffer has %zu",
				 w.off, size);
	w = (struct wr){ .p = buf };
	err = encode(fmt, s, &w);
	return err ? err : (int)w.off;
}

int perfev_sample_id__encode(const struct perfev_sample_fmt *fmt, const struct perfev_sample_id *id,
			     void *buf, size_t size)
{
	uint64_t t = fmt ? fmt->sample_type : 0;
	size_t need = fmt && fmt->sample_id_all ? sample_id__size(fmt) : 0;
	struct wr w = { .p = buf };

	if (!fmt || !id || (!buf && size))
		return set_error(EINVAL, "sample_id encode: no format, id or buffer given");
	if (!buf)
		return (int)need;
	if (size < need)
		return set_error(ENOSPC, "sample_id encode: the trailer needs %zu bytes, the buffer "
					 "has %zu", need, size);
	if (!need)
		return 0;
	/* The order sample_id__parse() reads, which is the kernel's. */
	if (t & PERF_SAMPLE_TID)
		w_u32x2(&w, id->pid, id->tid);
	if (t & PERF_SAMPLE_TIME)
		w_u64(&w, id->time);
	if (t & PERF_SAMPLE_ID)
		w_u64(&w, id->id);
	if (t & PERF_SAMPLE_STREAM_ID)
		w_u64(&w, id->stream_id);
	if (t & PERF_SAMPLE_CPU)
		w_u32x2(&w, id->cpu, id->cpu_res);
	if (t & PERF_SAMPLE_IDENTIFIER)
		w_u64(&w, id->identifier);
	return (int)w.off;
}
