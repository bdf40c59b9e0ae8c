/*
 * Ring-buffer contents and perf.data record streams are untrusted bytes.
 * The first 32 bytes choose how to decode (sample_type, read_format, the two
 * register masks; sample_type's top bits pick sample_id_all and the branch
 * layout), the rest is walked as records by header.size until one fails.
 * Every decoded pointer is read through, so ASan sees any bound the decoder
 * got wrong, and a decoded sample must encode back to the bytes it came from.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "perfev/perfev.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static volatile uint64_t sink;

static void touch(const void *p, size_t n)
{
	const uint8_t *b = p;
	uint64_t x = 0;

	for (size_t i = 0; i < n; i++)
		x += b[i];
	sink += x;
}

static void check_sample(const struct perfev_sample_fmt *fmt, const struct perfev_sample *s,
			 const uint8_t *body, size_t len)
{
	static uint8_t again[65536];
	struct perfev_counts c[8];
	int n;

	touch(s->read.data, s->read.size);
	if (s->read.size)
		perfev_read_format__parse(s->read.format, s->read.data, s->read.size, c, 8);
	touch(s->callchain.ips, s->callchain.nr * 8);
	touch(s->raw.data, s->raw.size);
	touch(s->branch.entries, s->branch.nr * sizeof(struct perf_branch_entry));
	if (s->branch.counters)
		touch(s->branch.counters, s->branch.nr * 8);
	touch(s->regs_user.regs, s->regs_user.nr * 8);
	touch(s->regs_intr.regs, s->regs_intr.nr * 8);
	touch(s->stack_user.data, s->stack_user.size);
	touch(s->aux.data, s->aux.size);
	n = perfev_sample__encode(fmt, s, again, sizeof(again));
	if (n < 0 || (size_t)n > len || memcmp(again, body, (size_t)n))
		__builtin_trap();
}

static void touch_str(const char *s)
{
	if (s)
		touch(s, strlen(s));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct perfev_sample_fmt fmt = { 0 };
	struct perfev_record rec;
	uint64_t cfg[4], id;
	size_t off = 32;

	if (size < 32)
		return 0;
	memcpy(cfg, data, sizeof(cfg));
	fmt.sample_type = cfg[0] & PERFEV_SAMPLE_KNOWN;
	if (cfg[0] & (1ull << 60)) /* now and then an unknown bit, which must be refused */
		fmt.sample_type |= 1ull << 25;
	fmt.sample_id_all = cfg[0] >> 63;
	if (cfg[0] & (1ull << 62))
		fmt.branch_sample_type |= PERF_SAMPLE_BRANCH_HW_INDEX;
	if (cfg[0] & (1ull << 61))
		fmt.branch_sample_type |= PERFEV_SAMPLE_BRANCH_COUNTERS;
	fmt.read_format = cfg[1] & PERFEV_FORMAT_KNOWN;
	fmt.sample_regs_user = cfg[2];
	fmt.sample_regs_intr = cfg[3];

	while (off < size) {
		const uint8_t *p = data + off;
		size_t left = size - off;

		perfev_record__peek_id(&fmt, p, left, &id);
		if (perfev_record__parse(&fmt, p, left, &rec) < 0)
			break;
		if (rec.size < 8 || rec.size > left)
			__builtin_trap();
		switch (rec.type) {
		case PERF_RECORD_SAMPLE:
			check_sample(&fmt, &rec.sample, p + 8, rec.size - 8u);
			break;
		case PERF_RECORD_MMAP:
			touch_str(rec.mmap.filename);
			break;
		case PERF_RECORD_MMAP2:
			touch_str(rec.mmap2.filename);
			if (rec.mmap2.build_id)
				touch(rec.mmap2.build_id, 20);
			break;
		case PERF_RECORD_COMM:
			touch_str(rec.comm.comm);
			break;
		case PERF_RECORD_KSYMBOL:
			touch_str(rec.ksymbol.name);
			break;
		case PERF_RECORD_CGROUP:
			touch_str(rec.cgroup.path);
			break;
		case PERF_RECORD_READ:
			touch(rec.read.values, rec.read.size);
			break;
		case PERF_RECORD_NAMESPACES:
			touch(rec.namespaces.entries, rec.namespaces.nr * 16);
			break;
		case PERF_RECORD_BPF_EVENT:
			touch(rec.bpf_event.tag, 8);
			break;
		case PERF_RECORD_TEXT_POKE:
			touch(rec.text_poke.bytes,
			      (size_t)rec.text_poke.old_len + rec.text_poke.new_len);
			break;
		default:
			if (rec.type >= 22)
				touch(rec.unknown.body, rec.unknown.size);
			break;
		}
		off += rec.size;
	}
	return 0;
}
