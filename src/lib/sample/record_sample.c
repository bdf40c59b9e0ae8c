/* SPDX-License-Identifier: MIT */
/* PERF_RECORD_SAMPLE bodies and the struct sample_id trailer of other records. */
#include "sample/record_int.h"

int perfev_sample_fmt__from_attr(const struct perf_event_attr *attr, struct perfev_sample_fmt *fmt)
{
	if (!attr || !fmt)
		return set_error(EINVAL, "sample format: no attr or no output given");
	*fmt = (struct perfev_sample_fmt){
		.sample_type = attr->sample_type,
		.read_format = attr->read_format,
		.sample_regs_user = attr->sample_regs_user,
		.sample_regs_intr = attr->sample_regs_intr,
		.branch_sample_type = attr->branch_sample_type,
		.sample_id_all = attr->sample_id_all,
	};
	return sample_fmt__check(fmt);
}

int sample_fmt__check(const struct perfev_sample_fmt *fmt)
{
	if (!fmt)
		return set_error(EINVAL, "sample format: none given");
	/* A newer kernel's field would shift every field after it: refuse rather than misread. */
	if (fmt->sample_type & ~PERFEV_SAMPLE_KNOWN)
		return set_error(PERFEV_ERR_FORMAT,
				 "sample format: sample_type 0x%llx has bits perfev cannot decode (0x%llx)",
				 (unsigned long long)fmt->sample_type,
				 (unsigned long long)(fmt->sample_type & ~PERFEV_SAMPLE_KNOWN));
	if ((fmt->sample_type & PERF_SAMPLE_WEIGHT) && (fmt->sample_type & PERF_SAMPLE_WEIGHT_STRUCT))
		return set_error(PERFEV_ERR_FORMAT,
				 "sample format: WEIGHT and WEIGHT_STRUCT together (the kernel refuses such an event)");
	if ((fmt->sample_type & PERF_SAMPLE_READ) && (fmt->read_format & ~PERFEV_FORMAT_KNOWN))
		return set_error(PERFEV_ERR_FORMAT,
				 "sample format: read_format 0x%llx has bits perfev cannot decode",
				 (unsigned long long)fmt->read_format);
	return 0;
}

size_t sample_id__size(const struct perfev_sample_fmt *fmt)
{
	uint64_t t = fmt->sample_type;
	size_t n = 0;

	if (!fmt->sample_id_all)
		return 0;
	n += !!(t & PERF_SAMPLE_TID);
	n += !!(t & PERF_SAMPLE_TIME);
	n += !!(t & PERF_SAMPLE_ID);
	n += !!(t & PERF_SAMPLE_STREAM_ID);
	n += !!(t & PERF_SAMPLE_CPU);
	n += !!(t & PERF_SAMPLE_IDENTIFIER);
	return n * 8;
}

int sample_id__parse(const struct perfev_sample_fmt *fmt, struct rd *r, struct perfev_sample_id *out)
{
	uint64_t t = fmt->sample_type;
	int err = 0;

	*out = (struct perfev_sample_id){ 0 };
	if (!err && (t & PERF_SAMPLE_TID))
		err = rd_u32x2(r, &out->pid, &out->tid, "sample_id tid");
	if (!err && (t & PERF_SAMPLE_TIME))
		err = rd_u64(r, &out->time, "sample_id time");
	if (!err && (t & PERF_SAMPLE_ID))
		err = rd_u64(r, &out->id, "sample_id id");
	if (!err && (t & PERF_SAMPLE_STREAM_ID))
		err = rd_u64(r, &out->stream_id, "sample_id stream_id");
	if (!err && (t & PERF_SAMPLE_CPU))
		err = rd_u32x2(r, &out->cpu, &out->cpu_res, "sample_id cpu");
	if (!err && (t & PERF_SAMPLE_IDENTIFIER))
		err = rd_u64(r, &out->identifier, "sample_id identifier");
	return err;
}

/* An array of nr elements of elem bytes: its size must not overflow nor pass the end. */
static int rd_array(struct rd *r, uint64_t nr, size_t elem, const void **ptr, const char *field)
{
	size_t bytes;

	if (nr > SIZE_MAX || !size_mul_ok((size_t)nr, elem, &bytes) || bytes > rd_left(r))
		return set_error(PERFEV_ERR_FORMAT,
				 "%s: %s %llu needs %llu%s bytes at offset %zu, record has %zu", r->what,
				 field, (unsigned long long)nr,
				 (unsigned long long)(nr * elem), /* wraps only when flagged below */
				 nr > UINT64_MAX / elem ? " (overflowing)" : "", r->base + r->off,
				 r->base + r->end);
	*ptr = r->p + r->off;
	r->off += bytes;
	return 0;
}

int read_value__parse(uint64_t rf, struct rd *r, uint64_t *nr, const void **data, size_t *size)
{
	size_t need;
	int err;

	*nr = 1;
	if (rf & ~PERFEV_FORMAT_KNOWN)
		return set_error(PERFEV_ERR_FORMAT,
				 "%s: read_format 0x%llx has bits perfev cannot decode", r->what,
				 (unsigned long long)rf);
	if (rf & PERF_FORMAT_GROUP) {
		err = rd_need(r, 8, "read nr");
		if (err)
			return err;
		memcpy(nr, r->p + r->off, 8);
	}
	need = perfev_read_format__size(rf, *nr);
	if (!need || need > rd_left(r))
		return set_error(PERFEV_ERR_FORMAT,
				 "%s: read value of %llu member(s) needs %zu%s bytes at offset %zu, record has %zu",
				 r->what, (unsigned long long)*nr, need, need ? "" : " (overflowing)",
				 r->base + r->off, r->base + r->end);
	*size = need;
	return rd_bytes(r, need, data, "read");
}

static int parse_regs(struct rd *r, uint64_t mask, uint64_t *abi, uint64_t *nr,
		      const void **regs, const char *field, const char *field_nr)
{
	int err = rd_u64(r, abi, field);

	*nr = 0;
	*regs = NULL;
	/* ABI_NONE: the task had no registers to give (a kernel thread), none follow. */
	if (err || !*abi)
		return err;
	*nr = (uint64_t)__builtin_popcountll(mask);
	return rd_array(r, *nr, 8, regs, field_nr);
}

/* The fields before READ: one 8-byte word each, always in this order. */
#define FIXED_FIELDS                                                                               \
	(PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |            \
	 PERF_SAMPLE_ADDR | PERF_SAMPLE_ID | PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU |             \
	 PERF_SAMPLE_PERIOD)

static const struct {
	uint64_t bit;
	const char *name;
} fixed_fields[] = {
	{ PERF_SAMPLE_IDENTIFIER, "identifier" }, { PERF_SAMPLE_IP, "ip" },
	{ PERF_SAMPLE_TID, "tid" },		  { PERF_SAMPLE_TIME, "time" },
	{ PERF_SAMPLE_ADDR, "addr" },		  { PERF_SAMPLE_ID, "id" },
	{ PERF_SAMPLE_STREAM_ID, "stream_id" },	  { PERF_SAMPLE_CPU, "cpu" },
	{ PERF_SAMPLE_PERIOD, "period" },
};

/*
 * The record ends inside its fixed fields: the error names the first field
 * that does not fit, at its offset.
 */
static int fixed_cut_short(uint64_t t, struct rd *r)
{
	for (size_t i = 0; i < ARRAY_SIZE(fixed_fields); i++) {
		if (!(t & fixed_fields[i].bit))
			continue;
		int err = rd_need(r, 8, fixed_fields[i].name);

		if (err)
			return err;
		r->off += 8;
	}
	return set_error(PERFEV_ERR_FORMAT, "%s: fixed fields cut short", r->what); /* not reached */
}

/*
 * The body of a sample, into a cleared *out, for a checked format.  Every
 * sample holds the fixed fields, so they take one bounds check, not one each:
 * the records of a big file are decoded twice (read ahead and delivered).
 */
int sample__parse_body(const struct perfev_sample_fmt *fmt, struct rd *r, struct perfev_sample *out)
{
	uint64_t t = fmt->sample_type;
	const unsigned char *p;
	int err;

	out->sample_type = t;
	if (rd_left(r) < 8u * (size_t)__builtin_popcountll(t & FIXED_FIELDS))
		return fixed_cut_short(t, r);
	p = r->p + r->off;
#define TAKE(bit, dst)                                                                             \
	if (t & (bit)) {                                                                           \
		memcpy(&(dst), p, 8);                                                              \
		p += 8;                                                                            \
	}
#define TAKE2(bit, a, b)                                                                           \
	if (t & (bit)) {                                                                           \
		memcpy(&(a), p, 4);                                                                \
		memcpy(&(b), p + 4, 4);                                                            \
		p += 8;                                                                            \
	}
	TAKE(PERF_SAMPLE_IDENTIFIER, out->identifier);
	TAKE(PERF_SAMPLE_IP, out->ip);
	TAKE2(PERF_SAMPLE_TID, out->pid, out->tid);
	TAKE(PERF_SAMPLE_TIME, out->time);
	TAKE(PERF_SAMPLE_ADDR, out->addr);
	TAKE(PERF_SAMPLE_ID, out->id);
	TAKE(PERF_SAMPLE_STREAM_ID, out->stream_id);
	TAKE2(PERF_SAMPLE_CPU, out->cpu, out->cpu_res);
	TAKE(PERF_SAMPLE_PERIOD, out->period);
#undef TAKE
#undef TAKE2
	r->off = (size_t)(p - r->p);

#define U64(bit, dst, name)                                                                        \
	if (t & (bit)) {                                                                           \
		err = rd_u64(r, &(dst), name);                                                     \
		if (err)                                                                           \
			return err;                                                                \
	}
	if (t & PERF_SAMPLE_READ) {
		out->read.format = fmt->read_format;
		err = read_value__parse(fmt->read_format, r, &out->read.nr, &out->read.data,
					&out->read.size);
		if (err)
			return err;
	}
	if (t & PERF_SAMPLE_CALLCHAIN) {
		err = rd_u64(r, &out->callchain.nr, "callchain nr");
		if (!err)
			err = rd_array(r, out->callchain.nr, 8, &out->callchain.ips, "callchain nr");
		if (err)
			return err;
	}
	if (t & PERF_SAMPLE_RAW) {
		err = rd_need(r, 4, "raw size");
		if (err)
			return err;
		memcpy(&out->raw.size, r->p + r->off, 4);
		r->off += 4;
		err = rd_bytes(r, out->raw.size, &out->raw.data, "raw data");
		if (err)
			return err;
	}
	if (t & PERF_SAMPLE_BRANCH_STACK) {
		uint64_t bst = fmt->branch_sample_type;

		err = rd_u64(r, &out->branch.nr, "branch nr");
		if (!err && (bst & PERF_SAMPLE_BRANCH_HW_INDEX)) {
			out->branch.has_hw_idx = true;
			err = rd_u64(r, &out->branch.hw_idx, "branch hw_idx");
		}
		if (!err)
			err = rd_array(r, out->branch.nr, sizeof(struct perf_branch_entry),
				       &out->branch.entries, "branch nr");
		if (!err && (bst & PERFEV_SAMPLE_BRANCH_COUNTERS))
			err = rd_array(r, out->branch.nr, 8, &out->branch.counters, "branch counters nr");
		if (err)
			return err;
	}
	if (t & PERF_SAMPLE_REGS_USER) {
		out->regs_user.mask = fmt->sample_regs_user;
		err = parse_regs(r, fmt->sample_regs_user, &out->regs_user.abi, &out->regs_user.nr,
				 &out->regs_user.regs, "regs_user abi", "regs_user count");
		if (err)
			return err;
	}
	if (t & PERF_SAMPLE_STACK_USER) {
		err = rd_u64(r, &out->stack_user.size, "stack_user size");
		if (err)
			return err;
		/* An empty stack (kernel thread) has no data and no dyn_size. */
		if (out->stack_user.size) {
			err = rd_array(r, out->stack_user.size, 1, &out->stack_user.data, "stack_user size");
			if (!err)
				err = rd_u64(r, &out->stack_user.dyn_size, "stack_user dyn_size");
			if (err)
				return err;
			if (out->stack_user.dyn_size > out->stack_user.size)
				return set_error(PERFEV_ERR_FORMAT,
						 "%s: stack_user dyn_size %llu exceeds its size %llu at offset %zu",
						 r->what, (unsigned long long)out->stack_user.dyn_size,
						 (unsigned long long)out->stack_user.size,
						 r->base + r->off - 8);
		}
	}
	U64(PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT, out->weight, "weight");
	U64(PERF_SAMPLE_DATA_SRC, out->data_src, "data_src");
	U64(PERF_SAMPLE_TRANSACTION, out->transaction, "transaction");
	if (t & PERF_SAMPLE_REGS_INTR) {
		out->regs_intr.mask = fmt->sample_regs_intr;
		err = parse_regs(r, fmt->sample_regs_intr, &out->regs_intr.abi, &out->regs_intr.nr,
				 &out->regs_intr.regs, "regs_intr abi", "regs_intr count");
		if (err)
			return err;
	}
	U64(PERF_SAMPLE_PHYS_ADDR, out->phys_addr, "phys_addr");
	U64(PERF_SAMPLE_CGROUP, out->cgroup, "cgroup");
	U64(PERF_SAMPLE_DATA_PAGE_SIZE, out->data_page_size, "data_page_size");
	U64(PERF_SAMPLE_CODE_PAGE_SIZE, out->code_page_size, "code_page_size");
	if (t & PERF_SAMPLE_AUX) {
		err = rd_u64(r, &out->aux.size, "aux size");
		if (!err && out->aux.size)
			err = rd_array(r, out->aux.size, 1, &out->aux.data, "aux size");
		if (err)
			return err;
	}
#undef U64
	return 0;
}

int sample__parse_rd(const struct perfev_sample_fmt *fmt, struct rd *r, struct perfev_sample *out)
{
	int err;

	*out = (struct perfev_sample){ 0 };
	err = sample_fmt__check(fmt);
	return err ? err : sample__parse_body(fmt, r, out);
}

int perfev_sample__parse(const struct perfev_sample_fmt *fmt, const void *rec, size_t size,
			 struct perfev_sample *out)
{
	struct rd r = { .p = rec, .end = size, .what = "sample" };

	if (!out || (!rec && size))
		return set_error(EINVAL, "sample: no record or no output given");
	return sample__parse_rd(fmt, &r, out);
}
