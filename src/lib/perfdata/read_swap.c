/* SPDX-License-Identifier: MIT */
/*
 * Byte swapping of perf.data written on a machine of the other byte order.
 *
 * perf's rule (tools/perf/util/session.c) is to swap every field by its
 * type: u64 and u32 (and u16) fields turn around, strings and byte arrays
 * (file names, raw tracepoint data, user stacks, aux data, build ids) stay
 * as they are.  perf swaps sample bodies as a run of u64 and undoes it for
 * the u32 pairs when it parses them; we walk each sample field by field
 * under the event's sample_fmt instead, which comes to the same bytes.
 *
 * The attr's flag bits (disabled, inherit, ..., the u64 after read_format)
 * are C bit-fields, which a big-endian compiler allocates from the most
 * significant bit: perf reverses the bits of each byte, and so do we.
 * Fields perf 6.1 does not swap (clockid, sample_regs_intr, sig_data...)
 * are swapped by their type here: that is our reading of the layout.
 *
 * No big-endian machine was at hand: these rules are tested against files
 * turned around by a converter written separately in the tests.
 *
 * Every walk stops where the record's size ends; the decoder then reports
 * whatever does not fit.
 */
#include <stddef.h>

#include "perfdata/reader_int.h"
#include "sample/record_int.h"

static void sw16(unsigned char *p)
{
	uint16_t v;

	memcpy(&v, p, 2);
	v = bswap_16(v);
	memcpy(p, &v, 2);
}

static void sw32(unsigned char *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	v = bswap_32(v);
	memcpy(p, &v, 4);
}

static void sw64(unsigned char *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	v = bswap_64(v);
	memcpy(p, &v, 8);
}

static uint64_t get64(const unsigned char *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return v;
}

static unsigned char revbits(unsigned char b)
{
	b = (unsigned char)((b >> 4) | (b << 4));
	b = (unsigned char)(((b & 0xcc) >> 2) | ((b & 0x33) << 2));
	return (unsigned char)(((b & 0xaa) >> 1) | ((b & 0x55) << 1));
}

#define ATTR_FIELD(f, bits)                                                                        \
	do {                                                                                       \
		if (offsetof(struct perf_event_attr, f) + (bits) / 8 <= n)                          \
			sw##bits(a + offsetof(struct perf_event_attr, f));                          \
	} while (0)

void pdr_swap_attr(void *attr, size_t n)
{
	unsigned char *a = attr;
	/* The flag bit-fields: the u64 right after read_format. */
	size_t flags = offsetof(struct perf_event_attr, read_format) + 8;

	ATTR_FIELD(type, 32);
	ATTR_FIELD(size, 32);
	ATTR_FIELD(config, 64);
	ATTR_FIELD(sample_period, 64);
	ATTR_FIELD(sample_type, 64);
	ATTR_FIELD(read_format, 64);
	if (flags + 8 <= n)
		for (size_t i = 0; i < 8; i++)
			a[flags + i] = revbits(a[flags + i]);
	ATTR_FIELD(wakeup_events, 32);
	ATTR_FIELD(bp_type, 32);
	ATTR_FIELD(bp_addr, 64);
	ATTR_FIELD(bp_len, 64);
	ATTR_FIELD(branch_sample_type, 64);
	ATTR_FIELD(sample_regs_user, 64);
	ATTR_FIELD(sample_stack_user, 32);
	ATTR_FIELD(clockid, 32);
	ATTR_FIELD(sample_regs_intr, 64);
	ATTR_FIELD(aux_watermark, 32);
	ATTR_FIELD(sample_max_stack, 16);
	ATTR_FIELD(aux_sample_size, 32);
	ATTR_FIELD(sig_data, 64);
}

void pdr_swap_header(void *p)
{
	unsigned char *b = p;

	sw32(b);
	sw16(b + 4);
	sw16(b + 6);
}

/* A cursor over [off, end) of a record being swapped; false once past the end. */
struct sw {
	unsigned char *p;
	size_t off, end;
};

static bool fits(const struct sw *s, size_t n)
{
	return n <= s->end - s->off;
}

static bool s64(struct sw *s)
{
	if (!fits(s, 8))
		return false;
	sw64(s->p + s->off);
	s->off += 8;
	return true;
}

/* Swaps a u64 and gives its (native) value. */
static bool s64v(struct sw *s, uint64_t *v)
{
	if (!s64(s))
		return false;
	*v = get64(s->p + s->off - 8);
	return true;
}

static bool s32(struct sw *s)
{
	if (!fits(s, 4))
		return false;
	sw32(s->p + s->off);
	s->off += 4;
	return true;
}

static bool s16(struct sw *s)
{
	if (!fits(s, 2))
		return false;
	sw16(s->p + s->off);
	s->off += 2;
	return true;
}

static bool skip(struct sw *s, uint64_t n)
{
	if (n > s->end - s->off)
		return false;
	s->off += (size_t)n;
	return true;
}

/* n u64 in a row. */
static bool s64n(struct sw *s, uint64_t n)
{
	if (n > (s->end - s->off) / 8)
		return false;
	for (uint64_t i = 0; i < n; i++)
		s64(s);
	return true;
}

/* A NUL-terminated string padded to 8 bytes, as the kernel writes it. */
static bool str8(struct sw *s)
{
	const unsigned char *nul = memchr(s->p + s->off, '\0', s->end - s->off);
	size_t len;

	if (!nul)
		return false;
	len = (size_t)(nul - (s->p + s->off)) + 1;
	return skip(s, (len + 7) / 8 * 8 > s->end - s->off ? s->end - s->off : (len + 7) / 8 * 8);
}

static void swap_sample_id(struct sw *s, uint64_t t)
{
	if (t & PERF_SAMPLE_TID)
		s32(s), s32(s);
	if (t & PERF_SAMPLE_TIME)
		s64(s);
	if (t & PERF_SAMPLE_ID)
		s64(s);
	if (t & PERF_SAMPLE_STREAM_ID)
		s64(s);
	if (t & PERF_SAMPLE_CPU)
		s32(s), s32(s);
	if (t & PERF_SAMPLE_IDENTIFIER)
		s64(s);
}

/* A read_format value: all u64, the member count first with PERF_FORMAT_GROUP. */
static bool swap_read(struct sw *s, uint64_t rf)
{
	uint64_t nr = 1;
	size_t size;

	if ((rf & PERF_FORMAT_GROUP) && !s64v(s, &nr))
		return false;
	size = perfev_read_format__size(rf, nr);
	if (!size)
		return false;
	if (rf & PERF_FORMAT_GROUP)
		size -= 8;
	return s64n(s, size / 8);
}

static bool swap_regs(struct sw *s, uint64_t mask)
{
	uint64_t abi;

	if (!s64v(s, &abi))
		return false;
	return !abi || s64n(s, (uint64_t)__builtin_popcountll(mask));
}

static void swap_sample(struct sw *s, const struct perfev_sample_fmt *fmt)
{
	uint64_t t = fmt->sample_type, nr, size;

#define U64(bit)                                                                                   \
	if ((t & (bit)) && !s64(s))                                                                \
		return;
#define U32X2(bit)                                                                                 \
	if ((t & (bit)) && !(s32(s) && s32(s)))                                                    \
		return;
	U64(PERF_SAMPLE_IDENTIFIER);
	U64(PERF_SAMPLE_IP);
	U32X2(PERF_SAMPLE_TID);
	U64(PERF_SAMPLE_TIME);
	U64(PERF_SAMPLE_ADDR);
	U64(PERF_SAMPLE_ID);
	U64(PERF_SAMPLE_STREAM_ID);
	U32X2(PERF_SAMPLE_CPU);
	U64(PERF_SAMPLE_PERIOD);
	if ((t & PERF_SAMPLE_READ) && !swap_read(s, fmt->read_format))
		return;
	if ((t & PERF_SAMPLE_CALLCHAIN) && !(s64v(s, &nr) && s64n(s, nr)))
		return;
	if (t & PERF_SAMPLE_RAW) {
		uint32_t raw;

		if (!s32(s))
			return;
		memcpy(&raw, s->p + s->off - 4, 4);
		if (!skip(s, raw)) /* tracepoint fields: decoded later in the file's order */
			return;
	}
	if (t & PERF_SAMPLE_BRANCH_STACK) {
		if (!s64v(s, &nr))
			return;
		if ((fmt->branch_sample_type & PERF_SAMPLE_BRANCH_HW_INDEX) && !s64(s))
			return;
		/* from, to, and the flags word (bit-fields again: swapped as a u64). */
		if (nr > UINT64_MAX / 3 || !s64n(s, nr * 3))
			return;
		if ((fmt->branch_sample_type & PERFEV_SAMPLE_BRANCH_COUNTERS) && !s64n(s, nr))
			return;
	}
	if ((t & PERF_SAMPLE_REGS_USER) && !swap_regs(s, fmt->sample_regs_user))
		return;
	if (t & PERF_SAMPLE_STACK_USER) {
		if (!s64v(s, &size))
			return;
		if (size && !(skip(s, size) && s64(s)))
			return;
	}
	if (t & PERF_SAMPLE_WEIGHT_STRUCT) {
		/* union perf_sample_weight: u32 var1_dw, u16 var2_w, u16 var3_w */
		if (!(s32(s) && s16(s) && s16(s)))
			return;
	}
	U64(PERF_SAMPLE_WEIGHT);
	U64(PERF_SAMPLE_DATA_SRC);
	U64(PERF_SAMPLE_TRANSACTION);
	if ((t & PERF_SAMPLE_REGS_INTR) && !swap_regs(s, fmt->sample_regs_intr))
		return;
	U64(PERF_SAMPLE_PHYS_ADDR);
	U64(PERF_SAMPLE_CGROUP);
	U64(PERF_SAMPLE_DATA_PAGE_SIZE);
	U64(PERF_SAMPLE_CODE_PAGE_SIZE);
	if (t & PERF_SAMPLE_AUX)
		s64(s); /* the size; the aux bytes stay */
#undef U64
#undef U32X2
}

/* The body of a kernel record other than a sample, before its sample_id trailer. */
static void swap_body(struct sw *s, uint32_t type, uint16_t misc,
		      const struct perfev_sample_fmt *fmt)
{
	uint64_t nr;

	switch (type) {
	case PERF_RECORD_MMAP:
		if (s32(s) && s32(s) && s64(s) && s64(s) && s64(s))
			str8(s);
		break;
	case PERF_RECORD_MMAP2:
		if (!(s32(s) && s32(s) && s64(s) && s64(s) && s64(s)))
			break;
		if (misc & PERF_RECORD_MISC_MMAP_BUILD_ID) {
			if (!skip(s, 24)) /* u8 size, 3 reserved, 20 id bytes */
				break;
		} else if (!(s32(s) && s32(s) && s64(s) && s64(s))) {
			break;
		}
		if (s32(s) && s32(s))
			str8(s);
		break;
	case PERF_RECORD_LOST:
	case PERF_RECORD_THROTTLE:
	case PERF_RECORD_UNTHROTTLE:
	case PERF_RECORD_AUX:
	case PERF_RECORD_LOST_SAMPLES:
	case PERF_RECORD_AUX_OUTPUT_HW_ID:
		s64n(s, (s->end - s->off) / 8);
		break;
	case PERF_RECORD_COMM:
		if (s32(s) && s32(s))
			str8(s);
		break;
	case PERF_RECORD_EXIT:
	case PERF_RECORD_FORK:
		if (s32(s) && s32(s) && s32(s) && s32(s))
			s64(s);
		break;
	case PERF_RECORD_READ:
		if (s32(s) && s32(s))
			swap_read(s, fmt->read_format);
		break;
	case PERF_RECORD_ITRACE_START:
	case PERF_RECORD_SWITCH_CPU_WIDE:
		if (s32(s))
			s32(s);
		break;
	case PERF_RECORD_NAMESPACES:
		if (s32(s) && s32(s) && s64v(s, &nr) && nr <= UINT64_MAX / 2)
			s64n(s, nr * 2);
		break;
	case PERF_RECORD_KSYMBOL:
		if (s64(s) && s32(s) && s16(s) && s16(s))
			str8(s);
		break;
	case PERF_RECORD_BPF_EVENT:
		if (s16(s) && s16(s))
			s32(s); /* the 8-byte tag stays */
		break;
	case PERF_RECORD_CGROUP:
		if (s64(s))
			str8(s);
		break;
	case PERF_RECORD_TEXT_POKE:
		if (s64(s) && s16(s))
			s16(s); /* the old and new bytes stay */
		break;
	}
}

void pdr_swap_kernel(void *p, size_t size, const struct perfev_sample_fmt *fmt)
{
	unsigned char *b = p;
	struct perf_event_header h;
	size_t tsz;
	struct sw s = { .p = b, .off = 8, .end = size };

	memcpy(&h, b, sizeof(h));
	if (h.type == PERF_RECORD_SAMPLE) {
		swap_sample(&s, fmt);
		return;
	}
	/* Types past the last we know have no layout to go by: left as they are. */
	if (h.type > PERF_RECORD_AUX_OUTPUT_HW_ID)
		return;
	tsz = sample_id__size(fmt);
	if (tsz > size - 8)
		return;
	s.end = size - tsz;
	swap_body(&s, h.type, h.misc, fmt);
	s = (struct sw){ .p = b, .off = size - tsz, .end = size };
	if (fmt->sample_id_all)
		swap_sample_id(&s, fmt->sample_type);
}

/* perf's own records, each by its layout in tools/lib/perf/include/perf/event.h. */
void pdr_swap_user(void *p, size_t size)
{
	unsigned char *b = p;
	struct perf_event_header h;
	struct sw s = { .p = b, .off = 8, .end = size };
	uint64_t nr, kind;
	uint32_t v;

	memcpy(&h, b, sizeof(h));
	switch (h.type) {
	case PERFEV_RECORD_HEADER_ATTR:
		if (fits(&s, 8)) {
			/* the attr (of its own size), then its ids */
			memcpy(&v, b + 12, 4);
			v = bswap_32(v);
			if (v == 0)
				v = PERF_ATTR_SIZE_VER0;
			if (v > size - 8)
				v = (uint32_t)(size - 8);
			pdr_swap_attr(b + 8, v < sizeof(struct perf_event_attr) ?
						   v : sizeof(struct perf_event_attr));
			s.off = 8 + v;
			s64n(&s, (s.end - s.off) / 8);
		}
		break;
	case PERFEV_RECORD_HEADER_EVENT_TYPE: /* u64 event_id, char name[64] */
		s64(&s);
		break;
	case PERFEV_RECORD_HEADER_TRACING_DATA: /* u32 size */
		s32(&s);
		break;
	case PERFEV_RECORD_HEADER_BUILD_ID: /* s32 pid; the id and file name stay */
		s32(&s);
		break;
	case PERFEV_RECORD_ID_INDEX:   /* nr, then {id, idx, cpu, tid} */
	case PERFEV_RECORD_STAT_CONFIG: /* nr, then {tag, val} */
	case PERFEV_RECORD_STAT_ROUND: /* type, time */
	case PERFEV_RECORD_TIME_CONV:  /* shift, mult, zero[, cycles, mask, caps] */
		s64n(&s, (s.end - s.off) / 8);
		break;
	case PERFEV_RECORD_AUXTRACE_INFO: /* u32 type, u32 reserved, u64 priv[] */
		if (s32(&s) && skip(&s, 4))
			s64n(&s, (s.end - s.off) / 8);
		break;
	case PERFEV_RECORD_AUXTRACE: /* size, offset, reference; idx, tid, cpu, reserved */
		if (s64(&s) && s64(&s) && s64(&s) && s32(&s) && s32(&s))
			s32(&s);
		break;
	case PERFEV_RECORD_AUXTRACE_ERROR:
		/* type, code, cpu, pid, tid, fmt; ip; time; msg[64]; machine_pid, vcpu */
		if (size < 32)
			break;
		for (int i = 0; i < 6; i++)
			s32(&s);
		memcpy(&v, b + 28, 4); /* fmt, now native */
		if (!s64(&s) || (v >= 1 && !s64(&s)))
			break;
		if (v >= 2 && skip(&s, 64) && s32(&s))
			s32(&s);
		break;
	case PERFEV_RECORD_THREAD_MAP: /* nr, then {u64 pid, char comm[16]} */
		if (!s64v(&s, &nr))
			break;
		for (uint64_t i = 0; i < nr && s64(&s) && skip(&s, 16); i++)
			;
		break;
	case PERFEV_RECORD_STAT: /* id; u32 cpu, thread; val, ena, run */
		if (s64(&s) && s32(&s) && s32(&s))
			s64n(&s, 3);
		break;
	case PERFEV_RECORD_EVENT_UPDATE: /* type, id, then by type */
		if (!s64v(&s, &kind) || !s64(&s))
			break;
		if (kind == 1) /* PERF_EVENT_UPDATE__SCALE: a double */
			s64(&s);
		/* UNIT and NAME are strings; the CPUS map is left as stored (our reading). */
		break;
	case PERFEV_RECORD_HEADER_FEATURE: /* u64 feat_id; the body stays in file order */
		s64(&s);
		break;
	case PERFEV_RECORD_CPU_MAP:
		/* u16 type, then a cpu list or mask: left as stored (our reading). */
		s16(&s);
		break;
	default:
		break;
	}
}
