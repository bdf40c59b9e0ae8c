/* The record decoder: sample round trips, every record type from hand-built bytes, malformed input. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <string.h>

#include "perfev/perfev.h"

/* ---- sample round trips ---- */

static const uint64_t rf_all = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING |
			       PERF_FORMAT_ID | PERF_FORMAT_GROUP | PERF_FORMAT_LOST;
/* GROUP of 2: nr, ena, run, 2 * {value, id, lost} */
static const uint64_t read_group[] = { 2, 1000, 900, 11, 101, 0, 22, 102, 1 };
static const uint64_t ips[] = { 0xffffffffffffff80ull, 0xffffffff81000000ull, 0xfffffffffffffe00ull,
				0x401000 };
static const uint8_t raw_data[12] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12 };
static const uint64_t branch_entries[2 * 3] = { 0x401000, 0x402000, 0x5, 0x403000, 0x404000, 0x6 };
static const uint64_t branch_counters[2] = { 7, 8 };
static const uint64_t regs_u[3] = { 0x1111, 0x2222, 0x3333 };
static const uint64_t regs_i[2] = { 0x4444, 0x5555 };
static const uint8_t stack_data[16] = { 0xde, 0xad, 0xbe, 0xef };
static const uint8_t aux_data[8] = { 0xa, 0xb, 0xc, 0xd, 0xe, 0xf, 0x1, 0x2 };

static struct perfev_sample_fmt full_fmt(uint64_t sample_type)
{
	return (struct perfev_sample_fmt){
		.sample_type = sample_type,
		.read_format = rf_all,
		.sample_regs_user = 0x7,	/* 3 registers */
		.sample_regs_intr = 0x101,	/* 2 registers */
		.branch_sample_type = PERF_SAMPLE_BRANCH_ANY | PERF_SAMPLE_BRANCH_HW_INDEX,
	};
}

static struct perfev_sample example_sample(void)
{
	struct perfev_sample s = {
		.identifier = 0x1d, .ip = 0x401234, .pid = 42, .tid = 43, .time = 123456789,
		.addr = 0xdead0000, .id = 0x1d, .stream_id = 0x5d, .cpu = 3, .cpu_res = 0,
		.period = 4000, .weight = 77, .data_src = 0x1234, .transaction = 0x5678,
		.phys_addr = 0x9abc000, .cgroup = 0x1234567, .data_page_size = 4096,
		.code_page_size = 2 << 20,
	};

	s.read.format = rf_all;
	s.read.nr = 2;
	s.read.data = read_group;
	s.read.size = sizeof(read_group);
	s.callchain.nr = 4;
	s.callchain.ips = ips;
	s.raw.size = sizeof(raw_data);
	s.raw.data = raw_data;
	s.branch.nr = 2;
	s.branch.has_hw_idx = true;
	s.branch.hw_idx = 1;
	s.branch.entries = branch_entries;
	s.branch.counters = branch_counters;
	s.regs_user.abi = PERF_SAMPLE_REGS_ABI_64;
	s.regs_user.mask = 0x7;
	s.regs_user.nr = 3;
	s.regs_user.regs = regs_u;
	s.regs_intr.abi = PERF_SAMPLE_REGS_ABI_64;
	s.regs_intr.mask = 0x101;
	s.regs_intr.nr = 2;
	s.regs_intr.regs = regs_i;
	s.stack_user.size = sizeof(stack_data);
	s.stack_user.data = stack_data;
	s.stack_user.dyn_size = 4;
	s.aux.size = sizeof(aux_data);
	s.aux.data = aux_data;
	return s;
}

static void assert_same_sample(const struct perfev_sample_fmt *fmt, const struct perfev_sample *a,
			       const struct perfev_sample *b)
{
	uint64_t t = fmt->sample_type;

	assert_int_equal(b->sample_type, t);
	if (t & PERF_SAMPLE_IDENTIFIER)
		assert_int_equal(a->identifier, b->identifier);
	if (t & PERF_SAMPLE_IP)
		assert_int_equal(a->ip, b->ip);
	if (t & PERF_SAMPLE_TID) {
		assert_int_equal(a->pid, b->pid);
		assert_int_equal(a->tid, b->tid);
	}
	if (t & PERF_SAMPLE_TIME)
		assert_int_equal(a->time, b->time);
	if (t & PERF_SAMPLE_ADDR)
		assert_int_equal(a->addr, b->addr);
	if (t & PERF_SAMPLE_ID)
		assert_int_equal(a->id, b->id);
	if (t & PERF_SAMPLE_STREAM_ID)
		assert_int_equal(a->stream_id, b->stream_id);
	if (t & PERF_SAMPLE_CPU) {
		assert_int_equal(a->cpu, b->cpu);
		assert_int_equal(a->cpu_res, b->cpu_res);
	}
	if (t & PERF_SAMPLE_PERIOD)
		assert_int_equal(a->period, b->period);
	if (t & PERF_SAMPLE_READ) {
		struct perfev_counts c[4];

		assert_int_equal(b->read.format, fmt->read_format);
		assert_int_equal(a->read.nr, b->read.nr);
		assert_int_equal(a->read.size, b->read.size);
		assert_memory_equal(a->read.data, b->read.data, a->read.size);
		assert_int_equal(perfev_read_format__parse(b->read.format, b->read.data, b->read.size, c, 4),
				 2);
		assert_int_equal(c[1].val, 22);
		assert_int_equal(c[1].id, 102);
		assert_int_equal(c[1].ena, 1000);
	}
	if (t & PERF_SAMPLE_CALLCHAIN) {
		assert_int_equal(a->callchain.nr, b->callchain.nr);
		for (uint64_t i = 0; i < a->callchain.nr; i++)
			assert_int_equal(perfev_u64_at(b->callchain.ips, i), ips[i]);
	}
	if (t & PERF_SAMPLE_RAW) {
		assert_int_equal(a->raw.size, b->raw.size);
		assert_memory_equal(a->raw.data, b->raw.data, a->raw.size);
	}
	if (t & PERF_SAMPLE_BRANCH_STACK) {
		struct perf_branch_entry e;

		assert_int_equal(a->branch.nr, b->branch.nr);
		assert_int_equal(a->branch.has_hw_idx, b->branch.has_hw_idx);
		assert_int_equal(a->branch.hw_idx, b->branch.hw_idx);
		perfev_sample__branch(b, 1, &e);
		assert_int_equal(e.from, 0x403000);
		assert_int_equal(e.to, 0x404000);
		assert_memory_equal(a->branch.entries, b->branch.entries, a->branch.nr * 24);
		if (fmt->branch_sample_type & PERFEV_SAMPLE_BRANCH_COUNTERS)
			assert_memory_equal(a->branch.counters, b->branch.counters, a->branch.nr * 8);
		else
			assert_null(b->branch.counters);
	}
	if (t & PERF_SAMPLE_REGS_USER) {
		assert_int_equal(a->regs_user.abi, b->regs_user.abi);
		assert_int_equal(a->regs_user.mask, b->regs_user.mask);
		assert_int_equal(a->regs_user.nr, b->regs_user.nr);
		assert_memory_equal(a->regs_user.regs, b->regs_user.regs, a->regs_user.nr * 8);
	}
	if (t & PERF_SAMPLE_STACK_USER) {
		assert_int_equal(a->stack_user.size, b->stack_user.size);
		assert_int_equal(a->stack_user.dyn_size, b->stack_user.dyn_size);
		assert_memory_equal(a->stack_user.data, b->stack_user.data, a->stack_user.size);
	}
	if (t & (PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT))
		assert_int_equal(a->weight, b->weight);
	if (t & PERF_SAMPLE_DATA_SRC)
		assert_int_equal(a->data_src, b->data_src);
	if (t & PERF_SAMPLE_TRANSACTION)
		assert_int_equal(a->transaction, b->transaction);
	if (t & PERF_SAMPLE_REGS_INTR) {
		assert_int_equal(a->regs_intr.abi, b->regs_intr.abi);
		assert_int_equal(a->regs_intr.mask, b->regs_intr.mask);
		assert_int_equal(a->regs_intr.nr, b->regs_intr.nr);
		assert_memory_equal(a->regs_intr.regs, b->regs_intr.regs, a->regs_intr.nr * 8);
	}
	if (t & PERF_SAMPLE_PHYS_ADDR)
		assert_int_equal(a->phys_addr, b->phys_addr);
	if (t & PERF_SAMPLE_CGROUP)
		assert_int_equal(a->cgroup, b->cgroup);
	if (t & PERF_SAMPLE_DATA_PAGE_SIZE)
		assert_int_equal(a->data_page_size, b->data_page_size);
	if (t & PERF_SAMPLE_CODE_PAGE_SIZE)
		assert_int_equal(a->code_page_size, b->code_page_size);
	if (t & PERF_SAMPLE_AUX) {
		assert_int_equal(a->aux.size, b->aux.size);
		assert_memory_equal(a->aux.data, b->aux.data, a->aux.size);
	}
}

/* Encodes s under fmt, decodes it back, compares; every strict prefix must be refused. */
static void round_trip(const struct perfev_sample_fmt *fmt, const struct perfev_sample *s)
{
	uint64_t buf[128];
	struct perfev_sample out;
	int n = perfev_sample__encode(fmt, s, NULL, 0);

	assert_true(n >= 0);
	assert_true((size_t)n <= sizeof(buf));
	assert_int_equal(perfev_sample__encode(fmt, s, buf, sizeof(buf)), n);
	if (n)
		assert_int_equal(perfev_sample__encode(fmt, s, buf, (size_t)n - 1), -ENOSPC);
	assert_int_equal(perfev_sample__parse(fmt, buf, (size_t)n, &out), 0);
	assert_same_sample(fmt, s, &out);
	for (int len = 0; len < n; len++) {
		assert_int_equal(perfev_sample__parse(fmt, buf, (size_t)len, &out), -PERFEV_ERR_FORMAT);
		assert_true(perfev_last_error()[0] != '\0');
	}
}

static void test_round_trip_each_bit(void **state)
{
	(void)state;
	struct perfev_sample s = example_sample();

	for (int bit = 0; bit < 25; bit++) {
		struct perfev_sample_fmt fmt = full_fmt(1ull << bit);

		round_trip(&fmt, &s);
	}
}

static void test_round_trip_all_bits(void **state)
{
	(void)state;
	struct perfev_sample s = example_sample();
	struct perfev_sample_fmt fmt = full_fmt(PERFEV_SAMPLE_KNOWN & ~PERF_SAMPLE_WEIGHT_STRUCT);

	round_trip(&fmt, &s);
	fmt = full_fmt(PERFEV_SAMPLE_KNOWN & ~PERF_SAMPLE_WEIGHT);
	round_trip(&fmt, &s);
	/* Branch counters (Linux 6.8) and no hw_idx. */
	fmt.branch_sample_type = PERFEV_SAMPLE_BRANCH_COUNTERS;
	s.branch.has_hw_idx = false;
	s.branch.hw_idx = 0;
	round_trip(&fmt, &s);
	/* No registers (ABI_NONE), empty stack, empty aux, empty callchain. */
	s = example_sample();
	memset(&s.regs_user, 0, sizeof(s.regs_user));
	s.regs_user.mask = 0x7;
	memset(&s.regs_intr, 0, sizeof(s.regs_intr));
	s.regs_intr.mask = 0x101;
	memset(&s.stack_user, 0, sizeof(s.stack_user));
	memset(&s.aux, 0, sizeof(s.aux));
	s.callchain.nr = 0;
	fmt = full_fmt(PERFEV_SAMPLE_KNOWN & ~PERF_SAMPLE_WEIGHT_STRUCT);
	round_trip(&fmt, &s);
	/* A single read value without GROUP. */
	static const uint64_t one[] = { 5, 6, 7, 8, 9 };
	s.read.data = one;
	s.read.size = sizeof(one);
	s.read.nr = 1;
	fmt.read_format = rf_all & ~PERF_FORMAT_GROUP;
	fmt.sample_type = PERF_SAMPLE_READ;
	{
		uint64_t buf[8];
		struct perfev_sample out;

		assert_int_equal(perfev_sample__encode(&fmt, &s, buf, sizeof(buf)), 40);
		assert_int_equal(perfev_sample__parse(&fmt, buf, 40, &out), 0);
		assert_int_equal(out.read.nr, 1);
		assert_int_equal(out.read.size, 40);
	}
}

/*
 * The fields before READ are taken with one bounds check: every subset of
 * them (with a callchain after) decodes to what was encoded, through the
 * sample and the record parser, and a record cut short inside them names
 * the field it ends in, at that field's offset.
 */
static const struct {
	uint64_t bit;
	const char *name;
} fixed[] = {
	{ PERF_SAMPLE_IDENTIFIER, "identifier" }, { PERF_SAMPLE_IP, "ip" },
	{ PERF_SAMPLE_TID, "tid" },		  { PERF_SAMPLE_TIME, "time" },
	{ PERF_SAMPLE_ADDR, "addr" },		  { PERF_SAMPLE_ID, "id" },
	{ PERF_SAMPLE_STREAM_ID, "stream_id" },	  { PERF_SAMPLE_CPU, "cpu" },
	{ PERF_SAMPLE_PERIOD, "period" },
};

static void test_fixed_fields(void **state)
{
	(void)state;
	struct perfev_sample s = example_sample();
	size_t nfixed = sizeof(fixed) / sizeof(fixed[0]);

	for (unsigned m = 0; m < 1u << nfixed; m++) {
		struct perfev_sample_fmt fmt = full_fmt(PERF_SAMPLE_CALLCHAIN);
		uint64_t buf[64], rec[66];
		struct perfev_sample out;
		struct perfev_record r;
		const char *names[9];
		size_t k = 0;
		char want[160];

		for (size_t i = 0; i < nfixed; i++)
			if (m & (1u << i)) {
				fmt.sample_type |= fixed[i].bit;
				names[k++] = fixed[i].name;
			}
		int n = perfev_sample__encode(&fmt, &s, buf, sizeof(buf));

		assert_int_equal(n, (int)(8 * k + 8 + 8 * s.callchain.nr));
		memset(&out, 0xa5, sizeof(out));
		assert_int_equal(perfev_sample__parse(&fmt, buf, (size_t)n, &out), 0);
		assert_same_sample(&fmt, &s, &out);
		/* The same body after a header: the record parser's own path. */
		struct perf_event_header h = { PERF_RECORD_SAMPLE, 0, (uint16_t)(n + 8) };

		memcpy(rec, &h, 8);
		memcpy(rec + 1, buf, (size_t)n);
		assert_int_equal(perfev_record__parse(&fmt, rec, (size_t)n + 8, &r), 0);
		assert_same_sample(&fmt, &s, &r.sample);
		assert_int_equal(r.sample.sample_type, fmt.sample_type);
		for (size_t len = 0; len < 8 * k; len++) {
			size_t at = len / 8 * 8;

			snprintf(want, sizeof(want), "sample: %s needs 8 bytes at offset %zu, record has %zu",
				 names[len / 8], at, len);
			assert_int_equal(perfev_sample__parse(&fmt, buf, len, &out), -PERFEV_ERR_FORMAT);
			assert_string_equal(perfev_last_error(), want);
			h.size = (uint16_t)(len + 8);
			memcpy(rec, &h, 8);
			snprintf(want, sizeof(want), "needs 8 bytes at offset %zu, record has %zu", at + 8,
				 len + 8);
			assert_int_equal(perfev_record__parse(&fmt, rec, len + 8, &r), -PERFEV_ERR_FORMAT);
			assert_non_null(strstr(perfev_last_error(), want));
			assert_non_null(strstr(perfev_last_error(), names[len / 8]));
		}
	}
}

static void test_encode_inconsistent(void **state)
{
	(void)state;
	struct perfev_sample s = example_sample();
	struct perfev_sample_fmt fmt = full_fmt(PERF_SAMPLE_STACK_USER);
	uint64_t buf[64];

	s.stack_user.dyn_size = 17;
	assert_int_equal(perfev_sample__encode(&fmt, &s, buf, sizeof(buf)), -EINVAL);
	s = example_sample();
	fmt = full_fmt(PERF_SAMPLE_REGS_USER);
	s.regs_user.nr = 2;
	assert_int_equal(perfev_sample__encode(&fmt, &s, buf, sizeof(buf)), -EINVAL);
	s = example_sample();
	fmt = full_fmt(PERF_SAMPLE_READ);
	s.read.size = 16;
	assert_int_equal(perfev_sample__encode(&fmt, &s, buf, sizeof(buf)), -EINVAL);
	s = example_sample();
	fmt = full_fmt(PERF_SAMPLE_AUX);
	s.aux.size = 70000;
	assert_int_equal(perfev_sample__encode(&fmt, &s, NULL, 0), -E2BIG);
	assert_true(perfev_last_error()[0] != '\0');
}

static void test_from_attr(void **state)
{
	(void)state;
	struct perf_event_attr attr = { .size = sizeof(attr) };
	struct perfev_sample_fmt fmt;

	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_REGS_USER;
	attr.read_format = PERF_FORMAT_ID;
	attr.sample_regs_user = 0xff;
	attr.sample_id_all = 1;
	assert_int_equal(perfev_sample_fmt__from_attr(&attr, &fmt), 0);
	assert_int_equal(fmt.sample_type, attr.sample_type);
	assert_int_equal(fmt.sample_regs_user, 0xff);
	assert_true(fmt.sample_id_all);
	attr.sample_type |= 1ull << 40;
	assert_int_equal(perfev_sample_fmt__from_attr(&attr, &fmt), -PERFEV_ERR_FORMAT);
	assert_non_null(strstr(perfev_last_error(), "sample_type"));
	attr.sample_type = PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT;
	assert_int_equal(perfev_sample_fmt__from_attr(&attr, &fmt), -PERFEV_ERR_FORMAT);
	assert_int_equal(perfev_sample_fmt__from_attr(NULL, &fmt), -EINVAL);
}

/* ---- hand-built records ---- */

struct rb {
	uint8_t b[1024];
	size_t n;
};

static void put(struct rb *r, const void *p, size_t n)
{
	memcpy(r->b + r->n, p, n);
	r->n += n;
}
static void put64(struct rb *r, uint64_t v)
{
	put(r, &v, 8);
}
static void put32(struct rb *r, uint32_t v)
{
	put(r, &v, 4);
}
static void put16(struct rb *r, uint16_t v)
{
	put(r, &v, 2);
}
/* A string NUL-padded to a u64 boundary, as the kernel writes it. */
static void putstr(struct rb *r, const char *s)
{
	size_t len = strlen(s) + 1, pad = (len + 7) / 8 * 8;

	memset(r->b + r->n, 0, pad);
	memcpy(r->b + r->n, s, len);
	r->n += pad;
}
static void begin(struct rb *r, uint32_t type, uint16_t misc)
{
	r->n = 0;
	put32(r, type);
	put16(r, misc);
	put16(r, 0);
}
/* The trailer for id_fmt: TID, TIME, ID, STREAM_ID, CPU, IDENTIFIER. */
static void put_sample_id(struct rb *r)
{
	put32(r, 100);
	put32(r, 101);
	put64(r, 555);
	put64(r, 0x1d);
	put64(r, 0x5d);
	put32(r, 2);
	put32(r, 0);
	put64(r, 0x1d);
}
static size_t end(struct rb *r, bool id)
{
	uint16_t sz;

	if (id)
		put_sample_id(r);
	sz = (uint16_t)r->n;
	memcpy(r->b + 6, &sz, 2);
	return r->n;
}

static const struct perfev_sample_fmt plain_fmt = { .sample_type = PERF_SAMPLE_IP,
						    .read_format = PERF_FORMAT_ID };
static const struct perfev_sample_fmt id_fmt = {
	.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID |
		       PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU | PERF_SAMPLE_IDENTIFIER,
	.read_format = PERF_FORMAT_ID,
	.sample_id_all = true,
};

static void check_id(const struct perfev_record *rec, bool id)
{
	assert_int_equal(rec->has_sample_id, id);
	if (!id)
		return;
	assert_int_equal(rec->sample_id.pid, 100);
	assert_int_equal(rec->sample_id.tid, 101);
	assert_int_equal(rec->sample_id.time, 555);
	assert_int_equal(rec->sample_id.id, 0x1d);
	assert_int_equal(rec->sample_id.stream_id, 0x5d);
	assert_int_equal(rec->sample_id.cpu, 2);
	assert_int_equal(rec->sample_id.identifier, 0x1d);
}

static void parse_ok(struct rb *r, bool id, struct perfev_record *rec)
{
	size_t n = end(r, id);
	uint64_t pid;

	assert_int_equal(perfev_record__parse(id ? &id_fmt : &plain_fmt, r->b, n, rec), 0);
	assert_int_equal(rec->size, n);
	assert_ptr_equal(rec->data, r->b);
	check_id(rec, id);
	if (id) {
		assert_int_equal(perfev_record__peek_id(&id_fmt, r->b, n, &pid), 0);
		assert_int_equal(pid, 0x1d);
	}
}

static void test_record_types(void **state)
{
	(void)state;
	struct rb r;
	struct perfev_record rec;

	for (int id = 0; id < 2; id++) {
		begin(&r, PERF_RECORD_MMAP, PERF_RECORD_MISC_USER);
		put32(&r, 7), put32(&r, 8), put64(&r, 0x400000), put64(&r, 0x1000), put64(&r, 0);
		putstr(&r, "/bin/true");
		parse_ok(&r, id, &rec);
		assert_int_equal(rec.type, PERF_RECORD_MMAP);
		assert_int_equal(rec.misc, PERF_RECORD_MISC_USER);
		assert_int_equal(rec.mmap.pid, 7);
		assert_int_equal(rec.mmap.tid, 8);
		assert_int_equal(rec.mmap.addr, 0x400000);
		assert_int_equal(rec.mmap.len, 0x1000);
		assert_string_equal(rec.mmap.filename, "/bin/true");

		begin(&r, PERF_RECORD_MMAP2, 0);
		put32(&r, 7), put32(&r, 8), put64(&r, 0x400000), put64(&r, 0x1000), put64(&r, 0x10);
		put32(&r, 8), put32(&r, 1), put64(&r, 1234), put64(&r, 5);
		put32(&r, 5), put32(&r, 2);
		putstr(&r, "/lib/libc.so.6");
		parse_ok(&r, id, &rec);
		assert_int_equal(rec.mmap2.maj, 8);
		assert_int_equal(rec.mmap2.min, 1);
		assert_int_equal(rec.mmap2.ino, 1234);
		assert_int_equal(rec.mmap2.ino_generation, 5);
		assert_int_equal(rec.mmap2.prot, 5);
		assert_int_equal(rec.mmap2.flags, 2);
		assert_null(rec.mmap2.build_id);
		assert_string_equal(rec.mmap2.filename, "/lib/libc.so.6");

		begin(&r, PERF_RECORD_MMAP2, PERF_RECORD_MISC_MMAP_BUILD_ID);
		put32(&r, 7), put32(&r, 8), put64(&r, 0x400000), put64(&r, 0x1000), put64(&r, 0x10);
		{
			uint8_t bid[24] = { 20, 0, 0, 0 };

			for (int i = 0; i < 20; i++)
				bid[4 + i] = (uint8_t)(0xa0 + i);
			put(&r, bid, 24);
		}
		put32(&r, 5), put32(&r, 2);
		putstr(&r, "/lib/libc.so.6");
		parse_ok(&r, id, &rec);
		assert_int_equal(rec.mmap2.build_id_size, 20);
		assert_int_equal(rec.mmap2.build_id[0], 0xa0);
		assert_int_equal(rec.mmap2.build_id[19], 0xa0 + 19);
		assert_int_equal(rec.mmap2.prot, 5);

		/*
		 * The build-id bit Linux 6.18 leaves set on other events' records:
		 * the bytes are a device (major 254, a virtio disk's) and an inode.
		 */
		begin(&r, PERF_RECORD_MMAP2, PERF_RECORD_MISC_MMAP_BUILD_ID | PERF_RECORD_MISC_USER);
		put32(&r, 7), put32(&r, 8), put64(&r, 0x400000), put64(&r, 0x1000), put64(&r, 0x10);
		put32(&r, 254), put32(&r, 1), put64(&r, 4321), put64(&r, 9);
		put32(&r, 5), put32(&r, 2);
		putstr(&r, "/usr/bin/true");
		parse_ok(&r, id, &rec);
		assert_int_equal(rec.misc, PERF_RECORD_MISC_USER);
		assert_null(rec.mmap2.build_id);
		assert_int_equal(rec.mmap2.maj, 254);
		assert_int_equal(rec.mmap2.ino, 4321);
		assert_string_equal(rec.mmap2.filename, "/usr/bin/true");

		begin(&r, PERF_RECORD_LOST, 0);
		put64(&r, 0x1d), put64(&r, 99);
		parse_ok(&r, id, &rec);
		assert_int_equal(rec.lost.id, 0x1d);
		assert_int_equal(rec.lost.lost, 99);

		begin(&r, PERF_RECORD_COMM, PERF_RECORD_MISC_COMM_EXEC);
		put32(&r, 7), put32(&r, 8);
		putstr(&r, "true");
		parse_ok(&r, id, &rec);
		assert_int_equal(rec.comm.pid, 7);
		assert_string_equal(rec.comm.comm, "true");

		for (uint32_t t = PERF_RECORD_EXIT; t <= PERF_RECORD_FORK; t += 3) {
			begin(&r, t, 0);
			put32(&r, 7), put32(&r, 1), put32(&r, 8), put32(&r, 1), put64(&r, 777);
			parse_ok(&r, id, &rec);
			assert_int_equal(rec.type, t);
			assert_int_equal(rec.task.pid, 7);
			assert_int_equal(rec.task.ppid, 1);
			assert_int_equal(rec.task.tid, 8);
			assert_int_equal(rec.task.ptid, 1);
			assert_int_equal(rec.task.time, 777);
		}

		for (uint32_t t = PERF_RECORD_THROTTLE; t <= PERF_RECORD_UNTHROTTLE; t++) {
			begin(&r, t, 0);
			put64(&r, 888), put64(&r, 0x1d), put64(&r, 0x5d);
			parse_ok(&r, id, &rec);
			assert_int_equal(rec.throttle.time, 888);
			assert_int_equal(rec.throttle.id, 0x1d);
			assert_int_equal(rec.throttle.stream_id, 0x5d);
		}

		begin(&r, PERF_RECORD_READ, 0);
		put32(&r, 7), put32(&r, 8), put64(&r, 12345), put64(&r, 0x1d);
		parse_ok(&r, id, &rec);
		assert_int_equal(rec.read.pid, 7);
		assert_int_equal(rec.read.nr, 1);
		assert_int_equal(rec.read.size, 16);
		{
			struct perfev_counts c;

			assert_int_equal(perfev_read_format__parse(PERF_FORMAT_ID, rec.read.values,
								   rec.read.size, &c, 1), 1);
			assert_int_equal(c.val, 12345);
			assert_int_equal(c.id, 0x1d);
		}

		begin(&r, PERF_RECORD_AUX, 0);
		put64(&r, 4096), put64(&r, 512), put64(&r, PERF_AUX_FLAG_TRUNCATED);
		parse_ok(&r, id, &rec);
		assert_int_equal(rec.aux.aux_offset, 4096);
		assert_int_equal(rec.aux.aux_size, 512);
		assert_int_equal(rec.aux.flags, PERF_AUX_FLAG_TRUNCATED);

		begin(&r, PERF_RECORD_ITRACE_START, 0);
		put32(&r, 7), put32(&r, 8);
		parse_ok(&r, id, &rec);
		assert_int_equal(rec.itrace_start.pid, 7);
		assert_int_equal(rec.itrace_start.tid, 8);

		begin(&r, PERF_RECORD_LOST_SAMPLES, 0);
		put64(&r, 31);
		parse_ok(&r, id, &rec);
		assert_int_equal(rec.lost_samples.lost, 31);

		begin(&r, PERF_RECORD_SWITCH, PERF_RECORD_MISC_SWITCH_OUT);
		parse_ok(&r, id, &rec);
		assert_int_equal(rec.type, PERF_RECORD_SWITCH);
		assert_int_equal(rec.misc, PERF_RECORD_MISC_SWITCH_OUT);

		begin(&r, PERF_RECORD_SWITCH_CPU_WIDE, 0);
		put32(&r, 70), put32(&r, 80);
		parse_ok(&r, id, &rec);
		assert_int_equal(rec.context_switch.next_prev_pid, 70);
		assert_int_equal(rec.context_switch.next_prev_tid, 80);

		begin(&r, PERF_RECORD_NAMESPACES, 0);
		put32(&r, 7), put32(&r, 8), put64(&r, 2);
		put64(&r, 3), put64(&r, 0xf0000001), put64(&r, 3), put64(&r, 0xf0000002);
		parse_ok(&r, id, &rec);
		assert_int_equal(rec.namespaces.nr, 2);
		assert_int_equal(perfev_u64_at(rec.namespaces.entries, 3), 0xf0000002);

		begin(&r, PERF_RECORD_KSYMBOL, 0);
		put64(&r, 0xffffffffa0000000ull), put32(&r, 256), put16(&r, PERF_RECORD_KSYMBOL_TYPE_BPF);
		put16(&r, 0);
		putstr(&r, "bpf_prog_123_main");
		parse_ok(&r, id, &rec);
		assert_int_equal(rec.ksymbol.addr, 0xffffffffa0000000ull);
		assert_int_equal(rec.ksymbol.len, 256);
		assert_int_equal(rec.ksymbol.ksym_type, PERF_RECORD_KSYMBOL_TYPE_BPF);
		assert_string_equal(rec.ksymbol.name, "bpf_prog_123_main");

		begin(&r, PERF_RECORD_BPF_EVENT, 0);
		put16(&r, PERF_BPF_EVENT_PROG_LOAD), put16(&r, 0), put32(&r, 123);
		put(&r, "\x01\x02\x03\x04\x05\x06\x07\x08", 8);
		parse_ok(&r, id, &rec);
		assert_int_equal(rec.bpf_event.type, PERF_BPF_EVENT_PROG_LOAD);
		assert_int_equal(rec.bpf_event.id, 123);
		assert_int_equal(rec.bpf_event.tag[7], 8);

		begin(&r, PERF_RECORD_CGROUP, 0);
		put64(&r, 0x1234);
		putstr(&r, "/user.slice");
		parse_ok(&r, id, &rec);
		assert_int_equal(rec.cgroup.id, 0x1234);
		assert_string_equal(rec.cgroup.path, "/user.slice");

		begin(&r, PERF_RECORD_TEXT_POKE, 0);
		put64(&r, 0xffffffff81000000ull), put16(&r, 2), put16(&r, 3);
		put(&r, "\x90\x90\xe8\x00\x00\x00\x00\x00", 8); /* 5 bytes + padding */
		parse_ok(&r, id, &rec);
		assert_int_equal(rec.text_poke.old_len, 2);
		assert_int_equal(rec.text_poke.new_len, 3);
		assert_int_equal(rec.text_poke.bytes[2], 0xe8);

		begin(&r, PERF_RECORD_AUX_OUTPUT_HW_ID, 0);
		put64(&r, 0x77);
		parse_ok(&r, id, &rec);
		assert_int_equal(rec.aux_output_hw_id.hw_id, 0x77);
	}
}

static void test_record_sample(void **state)
{
	(void)state;
	struct rb r;
	struct perfev_record rec;
	uint64_t id;

	/* A sample never has a trailer, even with sample_id_all. */
	begin(&r, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER | PERF_RECORD_MISC_EXACT_IP);
	put64(&r, 0x1d), put64(&r, 0x401000), put32(&r, 7), put32(&r, 8), put64(&r, 5);
	put64(&r, 0x1d), put64(&r, 0x5d), put32(&r, 1), put32(&r, 0);
	end(&r, false);
	assert_int_equal(perfev_record__parse(&id_fmt, r.b, r.n, &rec), 0);
	assert_false(rec.has_sample_id);
	assert_int_equal(rec.sample.identifier, 0x1d);
	assert_int_equal(rec.sample.ip, 0x401000);
	assert_int_equal(rec.sample.tid, 8);
	assert_int_equal(rec.sample.time, 5);
	assert_int_equal(rec.sample.stream_id, 0x5d);
	assert_int_equal(rec.sample.cpu, 1);
	assert_int_equal(perfev_record__peek_id(&id_fmt, r.b, r.n, &id), 0);
	assert_int_equal(id, 0x1d);

	/* Without IDENTIFIER, ID's position comes from the fmt (same sample_type everywhere). */
	struct perfev_sample_fmt f = { .sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_ID |
						      PERF_SAMPLE_CPU,
				       .sample_id_all = true };
	begin(&r, PERF_RECORD_SAMPLE, 0);
	put64(&r, 0x401000), put32(&r, 7), put32(&r, 8), put64(&r, 0x2e), put32(&r, 1), put32(&r, 0);
	end(&r, false);
	assert_int_equal(perfev_record__peek_id(&f, r.b, r.n, &id), 0);
	assert_int_equal(id, 0x2e);
	/* ... and in a trailer {tid, id, cpu}: the id sits before cpu. */
	begin(&r, PERF_RECORD_LOST_SAMPLES, 0);
	put64(&r, 3), put32(&r, 7), put32(&r, 8), put64(&r, 0x2f), put32(&r, 1), put32(&r, 0);
	end(&r, false);
	assert_int_equal(perfev_record__peek_id(&f, r.b, r.n, &id), 0);
	assert_int_equal(id, 0x2f);
	assert_int_equal(perfev_record__parse(&f, r.b, r.n, &rec), 0);
	assert_int_equal(rec.sample_id.id, 0x2f);
	assert_int_equal(rec.lost_samples.lost, 3);
	/* No id to be had. */
	assert_int_equal(perfev_record__peek_id(&plain_fmt, r.b, r.n, &id), -ENOENT);
}

static void test_record_stream(void **state)
{
	(void)state;
	uint64_t stream[64];
	uint8_t *p = (uint8_t *)stream;
	struct rb r;
	size_t len = 0, n;
	struct perfev_record rec;
	int count = 0;

	begin(&r, PERF_RECORD_COMM, 0), put32(&r, 1), put32(&r, 1), putstr(&r, "init");
	n = end(&r, true), memcpy(p + len, r.b, n), len += n;
	/* perf's own record type: passed through by size, never an error. */
	begin(&r, 68, 0), put(&r, "abc", 3);
	n = end(&r, false), memcpy(p + len, r.b, n), len += n;
	begin(&r, PERF_RECORD_LOST_SAMPLES, 0), put64(&r, 4);
	n = end(&r, true), memcpy(p + len, r.b, n), len += n;
	for (size_t off = 0; off < len; off += rec.size, count++)
		assert_int_equal(perfev_record__parse(&id_fmt, p + off, len - off, &rec), 0);
	assert_int_equal(count, 3);
}

/* ---- malformed input ---- */

#define assert_format_error(call)                                                                  \
	do {                                                                                       \
		assert_int_equal((call), -PERFEV_ERR_FORMAT);                                      \
		assert_true(perfev_last_error()[0] != '\0');                                       \
	} while (0)

static void test_malformed_header(void **state)
{
	(void)state;
	struct rb r;
	struct perfev_record rec;

	begin(&r, PERF_RECORD_LOST_SAMPLES, 0), put64(&r, 1);
	end(&r, false);
	assert_format_error(perfev_record__parse(&plain_fmt, r.b, 0, &rec));
	assert_format_error(perfev_record__parse(&plain_fmt, r.b, 7, &rec));
	/* size 0 in the header */
	r.b[6] = 0, r.b[7] = 0;
	assert_format_error(perfev_record__parse(&plain_fmt, r.b, r.n, &rec));
	assert_non_null(strstr(perfev_last_error(), "smaller than"));
	r.b[6] = 4;
	assert_format_error(perfev_record__parse(&plain_fmt, r.b, r.n, &rec));
	/* size past the end */
	end(&r, false);
	assert_format_error(perfev_record__parse(&plain_fmt, r.b, r.n - 1, &rec));
	assert_non_null(strstr(perfev_last_error(), "passes the end"));
	/* body too short for its fixed fields */
	begin(&r, PERF_RECORD_LOST, 0), put64(&r, 1);
	end(&r, false);
	assert_format_error(perfev_record__parse(&plain_fmt, r.b, r.n, &rec));
	assert_non_null(strstr(perfev_last_error(), "lost"));
	/* body too short for the trailer */
	assert_format_error(perfev_record__parse(&id_fmt, r.b, r.n, &rec));
	assert_non_null(strstr(perfev_last_error(), "sample_id"));
	/* header.size not a multiple of 8 is accepted (perf's own records) */
	begin(&r, PERF_RECORD_SWITCH, 0), put(&r, "x", 1);
	end(&r, false);
	assert_int_equal(perfev_record__parse(&plain_fmt, r.b, r.n, &rec), 0);
	assert_int_equal(rec.size, 9);
}

static void test_malformed_unknown(void **state)
{
	(void)state;
	struct rb r;
	struct perfev_record rec;
	struct perfev_sample_fmt f = plain_fmt;

	for (uint32_t t = 0; t < 200; t += (t == 0 ? 22 : 23)) {
		begin(&r, t, 0), put64(&r, 1);
		end(&r, false);
		assert_int_equal(perfev_record__parse(&id_fmt, r.b, r.n, &rec), 0);
		assert_int_equal(rec.type, t);
		assert_int_equal(rec.size, 16);
		assert_int_equal(rec.unknown.size, 8);
		assert_ptr_equal(rec.unknown.body, r.b + 8);
		assert_false(rec.has_sample_id);
	}
	/* An unknown sample_type bit is refused, even for a non-sample record. */
	f.sample_type |= 1ull << 25;
	begin(&r, PERF_RECORD_SAMPLE, 0), put64(&r, 1);
	end(&r, false);
	assert_format_error(perfev_record__parse(&f, r.b, r.n, &rec));
	assert_non_null(strstr(perfev_last_error(), "sample_type"));
	assert_format_error(perfev_sample__parse(&f, r.b + 8, 8, &rec.sample));
	f.sample_type = 1ull << 63;
	assert_format_error(perfev_sample__parse(&f, r.b + 8, 8, &rec.sample));
}

static void test_malformed_strings(void **state)
{
	(void)state;
	struct rb r;
	struct perfev_record rec;

	/* comm with no NUL at all */
	begin(&r, PERF_RECORD_COMM, 0), put32(&r, 1), put32(&r, 1), put(&r, "abcdefgh", 8);
	end(&r, false);
	assert_format_error(perfev_record__parse(&plain_fmt, r.b, r.n, &rec));
	assert_non_null(strstr(perfev_last_error(), "comm is not NUL-terminated"));
	/* comm whose NUL lies only in the trailer */
	begin(&r, PERF_RECORD_COMM, 0), put32(&r, 1), put32(&r, 1), put(&r, "abcdefgh", 8);
	end(&r, true);
	r.b[r.n - 1] = 0; /* identifier's top byte */
	assert_format_error(perfev_record__parse(&id_fmt, r.b, r.n, &rec));
	/* comm with nothing at all */
	begin(&r, PERF_RECORD_COMM, 0), put32(&r, 1), put32(&r, 1);
	end(&r, false);
	assert_format_error(perfev_record__parse(&plain_fmt, r.b, r.n, &rec));
	/* mmap filename unterminated */
	begin(&r, PERF_RECORD_MMAP, 0), put32(&r, 1), put32(&r, 1), put64(&r, 1), put64(&r, 1);
	put64(&r, 0), put(&r, "/bin/abc", 8);
	end(&r, false);
	assert_format_error(perfev_record__parse(&plain_fmt, r.b, r.n, &rec));
	assert_non_null(strstr(perfev_last_error(), "filename"));
	/* MMAP2 "build id" longer than 20: a device and inode under a stray bit, never an id */
	begin(&r, PERF_RECORD_MMAP2, PERF_RECORD_MISC_MMAP_BUILD_ID);
	put32(&r, 1), put32(&r, 1), put64(&r, 1), put64(&r, 1), put64(&r, 0);
	put32(&r, 21), put32(&r, 0), put64(&r, 0), put64(&r, 0), put64(&r, 0);
	putstr(&r, "/x");
	end(&r, false);
	assert_int_equal(perfev_record__parse(&plain_fmt, r.b, r.n, &rec), 0);
	assert_null(rec.mmap2.build_id);
	assert_int_equal(rec.mmap2.maj, 21);
	/* ... and one cut short still fails */
	begin(&r, PERF_RECORD_MMAP2, PERF_RECORD_MISC_MMAP_BUILD_ID);
	put32(&r, 1), put32(&r, 1), put64(&r, 1), put64(&r, 1), put64(&r, 0);
	put32(&r, 21);
	end(&r, false);
	assert_format_error(perfev_record__parse(&plain_fmt, r.b, r.n, &rec));
	/* namespaces nr overflowing */
	begin(&r, PERF_RECORD_NAMESPACES, 0), put32(&r, 1), put32(&r, 1), put64(&r, 1ull << 61);
	end(&r, false);
	assert_format_error(perfev_record__parse(&plain_fmt, r.b, r.n, &rec));
	/* text_poke bytes past the end */
	begin(&r, PERF_RECORD_TEXT_POKE, 0), put64(&r, 1), put16(&r, 100), put16(&r, 100);
	put32(&r, 0);
	end(&r, false);
	assert_format_error(perfev_record__parse(&plain_fmt, r.b, r.n, &rec));
	/* READ record with a group count that overflows */
	struct perfev_sample_fmt g = { .read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID };
	begin(&r, PERF_RECORD_READ, 0), put32(&r, 1), put32(&r, 1), put64(&r, UINT64_MAX / 2);
	end(&r, false);
	assert_format_error(perfev_record__parse(&g, r.b, r.n, &rec));
}

/* One sample body field under fmt, then parse it expecting a format error. */
static void sample_fails(const struct perfev_sample_fmt *fmt, const struct rb *r, const char *what)
{
	struct perfev_sample s;

	assert_format_error(perfev_sample__parse(fmt, r->b, r->n, &s));
	assert_non_null(strstr(perfev_last_error(), what));
}

static void test_malformed_sample(void **state)
{
	(void)state;
	struct rb r;
	struct perfev_sample s;
	struct perfev_sample_fmt f = { 0 };

	/* callchain nr whose byte size overflows, then one that merely passes the end */
	f.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_CALLCHAIN;
	r.n = 0, put64(&r, 1), put64(&r, 2), put64(&r, UINT64_MAX / 4), put64(&r, 1);
	sample_fails(&f, &r, "callchain nr");
	assert_non_null(strstr(perfev_last_error(), "overflowing"));
	r.n = 0, put64(&r, 1), put64(&r, 2), put64(&r, 1000000), put64(&r, 1), put64(&r, 2);
	sample_fails(&f, &r, "callchain nr 1000000 needs 8000000 bytes at offset 24, record has 40");
	/* With the header in front, offsets count from the record's start. */
	{
		struct rb h;
		struct perfev_record rec;

		begin(&h, PERF_RECORD_SAMPLE, 0), put(&h, r.b, r.n);
		end(&h, false);
		assert_format_error(perfev_record__parse(&f, h.b, h.n, &rec));
		assert_non_null(strstr(perfev_last_error(), "at offset 32, record has 48"));
	}
	/* branch nr overflowing (24-byte entries) */
	f.sample_type = PERF_SAMPLE_BRANCH_STACK;
	r.n = 0, put64(&r, UINT64_MAX / 16), put64(&r, 0);
	sample_fails(&f, &r, "branch nr");
	f.branch_sample_type = PERF_SAMPLE_BRANCH_HW_INDEX;
	r.n = 0, put64(&r, 1);
	sample_fails(&f, &r, "branch hw_idx");
	/* raw size past the end */
	f.sample_type = PERF_SAMPLE_RAW;
	r.n = 0, put32(&r, 100), put32(&r, 0);
	sample_fails(&f, &r, "raw data");
	r.n = 0, put16(&r, 1);
	sample_fails(&f, &r, "raw size");
	/* regs: abi 0 means no registers follow */
	f.sample_type = PERF_SAMPLE_REGS_USER | PERF_SAMPLE_PERIOD;
	f.sample_regs_user = 0xff;
	r.n = 0, put64(&r, 9), put64(&r, PERF_SAMPLE_REGS_ABI_NONE);
	assert_int_equal(perfev_sample__parse(&f, r.b, r.n, &s), 0);
	assert_int_equal(s.regs_user.nr, 0);
	assert_null(s.regs_user.regs);
	/* ... abi 64 with 8 registers promised but 2 given */
	r.n = 0, put64(&r, 9), put64(&r, PERF_SAMPLE_REGS_ABI_64), put64(&r, 1), put64(&r, 2);
	sample_fails(&f, &r, "regs_user count 8 needs 64 bytes");
	f.sample_type = PERF_SAMPLE_REGS_INTR;
	f.sample_regs_intr = 0x3;
	r.n = 0, put64(&r, PERF_SAMPLE_REGS_ABI_32), put64(&r, 1);
	sample_fails(&f, &r, "regs_intr count");
	/* stack size past the record; dyn_size > size; size 0 has no dyn_size */
	f.sample_type = PERF_SAMPLE_STACK_USER;
	r.n = 0, put64(&r, 4096), put64(&r, 0), put64(&r, 0);
	sample_fails(&f, &r, "stack_user size 4096");
	r.n = 0, put64(&r, 8), put64(&r, 0), put64(&r, 9);
	sample_fails(&f, &r, "dyn_size 9 exceeds");
	r.n = 0, put64(&r, 8), put64(&r, 0);
	sample_fails(&f, &r, "stack_user dyn_size");
	r.n = 0, put64(&r, 0);
	assert_int_equal(perfev_sample__parse(&f, r.b, r.n, &s), 0);
	assert_int_equal(s.stack_user.size, 0);
	/* aux size past the end */
	f.sample_type = PERF_SAMPLE_AUX;
	r.n = 0, put64(&r, 1ull << 40);
	sample_fails(&f, &r, "aux size");
	/* read group count overflowing, and short */
	f.sample_type = PERF_SAMPLE_READ;
	f.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID;
	r.n = 0, put64(&r, UINT64_MAX / 8), put64(&r, 1);
	sample_fails(&f, &r, "read value");
	r.n = 0, put64(&r, 2), put64(&r, 1), put64(&r, 2), put64(&r, 3);
	sample_fails(&f, &r, "read value of 2 member(s) needs 40 bytes");
	/* WEIGHT with WEIGHT_STRUCT, unknown read_format bits */
	f.sample_type = PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT;
	sample_fails(&f, &r, "WEIGHT");
	f.sample_type = PERF_SAMPLE_READ;
	f.read_format = 1ull << 10;
	sample_fails(&f, &r, "read_format");
	/* bad arguments are EINVAL, not format errors */
	assert_int_equal(perfev_sample__parse(NULL, r.b, r.n, &s), -EINVAL);
	assert_int_equal(perfev_record__parse(&f, r.b, r.n, NULL), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip_each_bit),
		cmocka_unit_test(test_round_trip_all_bits),
		cmocka_unit_test(test_fixed_fields),
		cmocka_unit_test(test_encode_inconsistent),
		cmocka_unit_test(test_from_attr),
		cmocka_unit_test(test_record_types),
		cmocka_unit_test(test_record_sample),
		cmocka_unit_test(test_record_stream),
		cmocka_unit_test(test_malformed_header),
		cmocka_unit_test(test_malformed_unknown),
		cmocka_unit_test(test_malformed_strings),
		cmocka_unit_test(test_malformed_sample),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
