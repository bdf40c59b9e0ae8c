/*
 * A test-side converter that turns a native (little-endian here) file-mode
 * perf.data into the other byte order, as a big-endian perf would have
 * written it, so that the reader's swapping can be tested on a machine of
 * one byte order only.  Written apart from the library's swapping code
 * (src/lib/perfdata/read_swap.c), from the layouts in linux/perf_event.h and
 * perf's header.c, so that a mistake is not made twice the same way.  It
 * follows the same reading of the layouts: numbers turn around, strings
 * and byte arrays stay, the attr's flag byte bits are reversed, a CPU map
 * keeps its body as stored.
 *
 * Handles uncompressed files whose events all carry PERF_SAMPLE_IDENTIFIER
 * (or that have one event).  Include after perfdata_test.h.
 */
#ifndef PERFEV_TESTS_PERFDATA_SWAP_CONV_H
#define PERFEV_TESTS_PERFDATA_SWAP_CONV_H

#include <byteswap.h>
#include <stddef.h>

struct conv {
	const unsigned char *in; /* native */
	unsigned char *out;	 /* the same bytes, turned around as we go */
	size_t len;
	struct perf_event_attr attrs[16];
	size_t nr_attrs;
	uint64_t ids[16][64];
	size_t nr_ids[16];
};

static void cv16(struct conv *c, size_t off)
{
	uint16_t v;

	assert_true(off + 2 <= c->len);
	memcpy(&v, c->in + off, 2);
	v = bswap_16(v);
	memcpy(c->out + off, &v, 2);
}

static void cv32(struct conv *c, size_t off)
{
	uint32_t v;

	assert_true(off + 4 <= c->len);
	memcpy(&v, c->in + off, 4);
	v = bswap_32(v);
	memcpy(c->out + off, &v, 4);
}

static void cv64(struct conv *c, size_t off)
{
	uint64_t v;

	assert_true(off + 8 <= c->len);
	memcpy(&v, c->in + off, 8);
	v = bswap_64(v);
	memcpy(c->out + off, &v, 8);
}

static uint64_t in64(const struct conv *c, size_t off)
{
	return u64_at(c->in, off);
}

static uint32_t in32(const struct conv *c, size_t off)
{
	return u32_at(c->in, off);
}

/* A perf_event_attr of n bytes at off, field by field (offsets of the uapi layout). */
static void cv_attr(struct conv *c, size_t off, size_t n)
{
	static const struct {
		unsigned char at, width;
	} f[] = {
		{ 0, 4 },   { 4, 4 },	{ 8, 8 },   { 16, 8 },	{ 24, 8 },  { 32, 8 },
		/* 40: the flag bits, below */
		{ 48, 4 },  { 52, 4 },	{ 56, 8 },  { 64, 8 },	{ 72, 8 },  { 80, 8 },
		{ 88, 4 },  { 92, 4 },	{ 96, 8 },  { 104, 4 }, { 108, 2 }, { 112, 4 },
		{ 120, 8 },
	};

	for (size_t i = 0; i < sizeof(f) / sizeof(f[0]); i++) {
		if (f[i].at + f[i].width > n)
			continue;
		if (f[i].width == 8)
			cv64(c, off + f[i].at);
		else if (f[i].width == 4)
			cv32(c, off + f[i].at);
		else
			cv16(c, off + f[i].at);
	}
	/* A big-endian compiler fills bit-fields from each byte's top bit. */
	for (size_t i = 40; i < 48 && i < n; i++) {
		unsigned char b = c->in[off + i], r = 0;

		for (int k = 0; k < 8; k++)
			if (b & (1u << k))
				r |= (unsigned char)(0x80u >> k);
		c->out[off + i] = r;
	}
}

static size_t cv_trailer_size(uint64_t t)
{
	return 8 * (size_t)(!!(t & PERF_SAMPLE_TID) + !!(t & PERF_SAMPLE_TIME) +
			    !!(t & PERF_SAMPLE_ID) + !!(t & PERF_SAMPLE_STREAM_ID) +
			    !!(t & PERF_SAMPLE_CPU) + !!(t & PERF_SAMPLE_IDENTIFIER));
}

/* Each 8-byte slot of a sample_id trailer: u32 pairs for TID and CPU, else a u64. */
static void cv_trailer(struct conv *c, size_t off, uint64_t t)
{
	static const uint64_t order[] = { PERF_SAMPLE_TID, PERF_SAMPLE_TIME, PERF_SAMPLE_ID,
					  PERF_SAMPLE_STREAM_ID, PERF_SAMPLE_CPU,
					  PERF_SAMPLE_IDENTIFIER };

	for (size_t i = 0; i < 6; i++) {
		if (!(t & order[i]))
			continue;
		if (order[i] == PERF_SAMPLE_TID || order[i] == PERF_SAMPLE_CPU) {
			cv32(c, off);
			cv32(c, off + 4);
		} else {
			cv64(c, off);
		}
		off += 8;
	}
}

static size_t cv_read_value(struct conv *c, size_t off, uint64_t rf)
{
	uint64_t nr = 1, per = 1 + !!(rf & PERF_FORMAT_ID) + !!(rf & PERF_FORMAT_LOST);
	size_t n;

	if (rf & PERF_FORMAT_GROUP) {
		nr = in64(c, off);
		n = 1 + !!(rf & PERF_FORMAT_TOTAL_TIME_ENABLED) +
		    !!(rf & PERF_FORMAT_TOTAL_TIME_RUNNING) + nr * per;
	} else {
		n = per + !!(rf & PERF_FORMAT_TOTAL_TIME_ENABLED) +
		    !!(rf & PERF_FORMAT_TOTAL_TIME_RUNNING);
	}
	for (size_t i = 0; i < n; i++)
		cv64(c, off + 8 * i);
	return off + 8 * n;
}

static void cv_sample(struct conv *c, size_t off, const struct perf_event_attr *a)
{
	uint64_t t = a->sample_type, nr;
	static const uint64_t simple1[] = { PERF_SAMPLE_IDENTIFIER, PERF_SAMPLE_IP,
					    PERF_SAMPLE_TID, PERF_SAMPLE_TIME, PERF_SAMPLE_ADDR,
					    PERF_SAMPLE_ID, PERF_SAMPLE_STREAM_ID,
					    PERF_SAMPLE_CPU, PERF_SAMPLE_PERIOD };

	for (size_t i = 0; i < sizeof(simple1) / sizeof(simple1[0]); i++) {
		if (!(t & simple1[i]))
			continue;
		if (simple1[i] == PERF_SAMPLE_TID || simple1[i] == PERF_SAMPLE_CPU) {
			cv32(c, off);
			cv32(c, off + 4);
		} else {
			cv64(c, off);
		}
		off += 8;
	}
	if (t & PERF_SAMPLE_READ)
		off = cv_read_value(c, off, a->read_format);
	if (t & PERF_SAMPLE_CALLCHAIN) {
		nr = in64(c, off);
		for (uint64_t i = 0; i <= nr; i++)
			cv64(c, off + 8 * i);
		off += 8 * (nr + 1);
	}
	if (t & PERF_SAMPLE_RAW) {
		uint32_t n = in32(c, off);

		cv32(c, off);
		off += 4 + n; /* the raw bytes stay */
	}
	assert_false(t & PERF_SAMPLE_BRANCH_STACK); /* not recorded here: no PMU */
	if (t & PERF_SAMPLE_REGS_USER) {
		uint64_t abi = in64(c, off);

		cv64(c, off);
		off += 8;
		if (abi) {
			for (int i = 0; i < __builtin_popcountll(a->sample_regs_user); i++)
				cv64(c, off + 8 * (size_t)i);
			off += 8 * (size_t)__builtin_popcountll(a->sample_regs_user);
		}
	}
	if (t & PERF_SAMPLE_STACK_USER) {
		uint64_t size = in64(c, off);

		cv64(c, off);
		off += 8;
		if (size) {
			off += size; /* the stack bytes stay */
			cv64(c, off);
			off += 8;
		}
	}
	if (t & PERF_SAMPLE_WEIGHT) {
		cv64(c, off);
		off += 8;
	}
	if (t & PERF_SAMPLE_DATA_SRC) {
		cv64(c, off);
		off += 8;
	}
	assert_false(t & (PERF_SAMPLE_TRANSACTION | PERF_SAMPLE_REGS_INTR | PERF_SAMPLE_AUX |
			  PERF_SAMPLE_WEIGHT_STRUCT));
	if (t & PERF_SAMPLE_PHYS_ADDR) {
		cv64(c, off);
		off += 8;
	}
}

/* A kernel record other than a sample: u32 and u64 fields of the fixed part, the trailer. */
static void cv_kernel(struct conv *c, size_t off, uint32_t type, uint16_t misc, uint16_t size,
		      const struct perf_event_attr *a)
{
	size_t tsz = a->sample_id_all ? cv_trailer_size(a->sample_type) : 0, b = off + 8;

	switch (type) {
	case PERF_RECORD_MMAP: /* pid tid | start len pgoff | filename */
		cv32(c, b), cv32(c, b + 4), cv64(c, b + 8), cv64(c, b + 16), cv64(c, b + 24);
		break;
	case PERF_RECORD_MMAP2: /* pid tid | start len pgoff | maj min ino ino_gen | prot flags */
		cv32(c, b), cv32(c, b + 4), cv64(c, b + 8), cv64(c, b + 16), cv64(c, b + 24);
		if (!(misc & PERF_RECORD_MISC_MMAP_BUILD_ID))
			cv32(c, b + 32), cv32(c, b + 36), cv64(c, b + 40), cv64(c, b + 48);
		cv32(c, b + 56), cv32(c, b + 60);
		break;
	case PERF_RECORD_COMM:
		cv32(c, b), cv32(c, b + 4);
		break;
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
		cv32(c, b), cv32(c, b + 4), cv32(c, b + 8), cv32(c, b + 12), cv64(c, b + 16);
		break;
	case PERF_RECORD_LOST:
	case PERF_RECORD_THROTTLE:
	case PERF_RECORD_UNTHROTTLE:
	case PERF_RECORD_LOST_SAMPLES:
		for (size_t k = b; k + 8 <= off + size - tsz; k += 8)
			cv64(c, k);
		break;
	case PERF_RECORD_KSYMBOL: /* addr | len ksym_type flags | name */
		cv64(c, b), cv32(c, b + 8), cv16(c, b + 12), cv16(c, b + 14);
		break;
	case PERF_RECORD_BPF_EVENT: /* type flags id | tag[8] */
		cv16(c, b), cv16(c, b + 2), cv32(c, b + 4);
		break;
	case PERF_RECORD_SWITCH_CPU_WIDE:
		cv32(c, b), cv32(c, b + 4);
		break;
	case PERF_RECORD_SWITCH:
		break;
	case PERF_RECORD_CGROUP:
		cv64(c, b);
		break;
	default:
		fail_msg("the converter has no layout for record type %u", type);
	}
	if (tsz)
		cv_trailer(c, off + size - tsz, a->sample_type);
}

/* perf's own records that "perf record" writes into a file. */
static void cv_user(struct conv *c, size_t off, uint32_t type, uint16_t size)
{
	size_t b = off + 8;

	switch (type) {
	case PERFEV_RECORD_FINISHED_ROUND:
	case PERFEV_RECORD_FINISHED_INIT:
		break;
	case PERFEV_RECORD_ID_INDEX:
	case PERFEV_RECORD_TIME_CONV:
		for (size_t k = b; k + 8 <= off + size; k += 8)
			cv64(c, k);
		break;
	case PERFEV_RECORD_THREAD_MAP: {
		uint64_t nr = in64(c, b);

		cv64(c, b);
		for (uint64_t i = 0; i < nr; i++)
			cv64(c, b + 8 + 24 * i); /* pid; comm[16] stays */
		break;
	}
	case PERFEV_RECORD_CPU_MAP:
		cv16(c, b); /* the type; the body stays (the reader's reading too) */
		break;
	case PERFEV_RECORD_EVENT_UPDATE:
		cv64(c, b + 8); /* id */
		if (in64(c, b) == 1) /* scale: a double */
			cv64(c, b + 16);
		cv64(c, b); /* type */
		break;
	case PERFEV_RECORD_HEADER_BUILD_ID:
		cv32(c, b);
		break;
	default:
		fail_msg("the converter has no layout for perf's record type %u", type);
	}
}

static const struct perf_event_attr *cv_attr_of(const struct conv *c, size_t off, uint32_t type,
						uint16_t size)
{
	uint64_t t = c->attrs[0].sample_type, id;

	if (c->nr_attrs == 1)
		return &c->attrs[0];
	if (t & PERF_SAMPLE_IDENTIFIER) {
		id = type == PERF_RECORD_SAMPLE ? in64(c, off + 8) : in64(c, off + size - 8);
	} else {
		/* Without IDENTIFIER perf gives every event the same sample_type, ID among it. */
		assert_true(t & PERF_SAMPLE_ID);
		for (size_t i = 1; i < c->nr_attrs; i++)
			assert_int_equal(c->attrs[i].sample_type, t);
		if (type == PERF_RECORD_SAMPLE)
			id = in64(c, off + 8 + 8 * (size_t)(!!(t & PERF_SAMPLE_IP) +
							    !!(t & PERF_SAMPLE_TID) +
							    !!(t & PERF_SAMPLE_TIME) +
							    !!(t & PERF_SAMPLE_ADDR)));
		else
			id = in64(c, off + size - 8 * (size_t)(1 + !!(t & PERF_SAMPLE_STREAM_ID) +
							       !!(t & PERF_SAMPLE_CPU)));
	}
	for (size_t i = 0; i < c->nr_attrs; i++)
		for (size_t k = 0; k < c->nr_ids[i]; k++)
			if (c->ids[i][k] == id)
				return &c->attrs[i];
	/* perf's synthesized records (id 0) and the like: every layout is the same. */
	for (size_t i = 1; i < c->nr_attrs; i++)
		if (c->attrs[i].sample_type != t)
			fail_msg("record at 0x%zx: id %llu belongs to no attr", off,
				 (unsigned long long)id);
	return &c->attrs[0];
}

/* A perf string at off; returns the offset after it. */
static size_t cv_string(struct conv *c, size_t off)
{
	uint32_t len = in32(c, off);

	cv32(c, off);
	return off + 4 + len;
}

static void cv_feature(struct conv *c, int feat, size_t off, size_t size)
{
	size_t end = off + size;
	uint32_t n;

	switch (feat) {
	case PERFEV_FEAT_HOSTNAME:
	case PERFEV_FEAT_OSRELEASE:
	case PERFEV_FEAT_VERSION:
	case PERFEV_FEAT_ARCH:
	case PERFEV_FEAT_CPUDESC:
	case PERFEV_FEAT_CPUID:
		cv_string(c, off);
		break;
	case PERFEV_FEAT_NRCPUS:
		cv32(c, off), cv32(c, off + 4);
		break;
	case PERFEV_FEAT_TOTAL_MEM:
		cv64(c, off);
		break;
	case PERFEV_FEAT_SAMPLE_TIME:
		cv64(c, off), cv64(c, off + 8);
		break;
	case PERFEV_FEAT_CMDLINE:
		n = in32(c, off);
		cv32(c, off);
		off += 4;
		for (uint32_t i = 0; i < n; i++)
			off = cv_string(c, off);
		break;
	case PERFEV_FEAT_EVENT_DESC: {
		uint32_t sz = in32(c, off + 4);

		n = in32(c, off);
		cv32(c, off), cv32(c, off + 4);
		off += 8;
		for (uint32_t i = 0; i < n; i++) {
			uint32_t nr_ids;

			cv_attr(c, off, sz);
			off += sz;
			nr_ids = in32(c, off);
			cv32(c, off);
			off = cv_string(c, off + 4);
			for (uint32_t k = 0; k < nr_ids; k++)
				cv64(c, off + 8 * k);
			off += 8 * (size_t)nr_ids;
		}
		break;
	}
	case PERFEV_FEAT_GROUP_DESC:
		n = in32(c, off);
		cv32(c, off);
		off += 4;
		for (uint32_t i = 0; i < n; i++) {
			off = cv_string(c, off);
			cv32(c, off), cv32(c, off + 4);
			off += 8;
		}
		break;
	case PERFEV_FEAT_BUILD_ID:
		while (off < end) {
			uint16_t rs;

			memcpy(&rs, c->in + off + 6, 2);
			cv32(c, off), cv16(c, off + 4), cv16(c, off + 6), cv32(c, off + 8);
			off += rs;
		}
		break;
	case PERFEV_FEAT_COMPRESSED:
		for (int i = 0; i < 5; i++)
			cv32(c, off + 4 * (size_t)i);
		break;
	default: /* bodies the reader does not parse stay as they are */
		break;
	}
}

/* The whole file turned around; free() it. */
static unsigned char *swap_perf_file(const void *file, size_t len)
{
	struct conv c = { .in = file, .len = len };
	uint64_t attr_size = u64_at(file, 16), attrs_off = u64_at(file, 24);
	uint64_t attrs_size = u64_at(file, 32), data_off = u64_at(file, 40);
	uint64_t data_size = u64_at(file, 48), bits[4];
	size_t off, nsec = 0;

	c.out = malloc(len);
	assert_non_null(c.out);
	memcpy(c.out, file, len);
	assert_memory_equal(file, "PERFILE2", 8);
	for (size_t i = 1; i < 13; i++) /* the magic reads backwards as it is */
		cv64(&c, 8 * i);
	memcpy(c.out, "2ELIFREP", 8);
	memcpy(bits, (const char *)file + 72, 32);

	c.nr_attrs = attrs_size / attr_size;
	assert_true(c.nr_attrs <= 16);
	for (size_t i = 0; i < c.nr_attrs; i++) {
		size_t at = attrs_off + i * attr_size, ids = at + attr_size - 16;
		uint64_t ids_off = in64(&c, ids), ids_size = in64(&c, ids + 8);

		memset(&c.attrs[i], 0, sizeof(c.attrs[i]));
		memcpy(&c.attrs[i], c.in + at, attr_size - 16 < sizeof(c.attrs[i]) ?
							  attr_size - 16 : sizeof(c.attrs[i]));
		cv_attr(&c, at, u32_at(file, at + 4));
		cv64(&c, ids), cv64(&c, ids + 8);
		c.nr_ids[i] = ids_size / 8;
		assert_true(c.nr_ids[i] <= 64);
		for (size_t k = 0; k < c.nr_ids[i]; k++) {
			c.ids[i][k] = in64(&c, ids_off + 8 * k);
			cv64(&c, ids_off + 8 * k);
		}
	}

	for (off = data_off; off < data_off + data_size;) {
		uint32_t type = u32_at(file, off);
		uint16_t misc, size;

		memcpy(&misc, c.in + off + 4, 2);
		memcpy(&size, c.in + off + 6, 2);
		assert_true(size >= 8);
		if (type >= 64) {
			assert_int_not_equal(type, PERFEV_RECORD_COMPRESSED);
			cv_user(&c, off, type, size);
		} else {
			const struct perf_event_attr *a = cv_attr_of(&c, off, type, size);

			if (type == PERF_RECORD_SAMPLE)
				cv_sample(&c, off + 8, a);
			else
				cv_kernel(&c, off, type, misc, size, a);
		}
		cv32(&c, off), cv16(&c, off + 4), cv16(&c, off + 6);
		off += size;
	}

	off = data_off + data_size;
	for (int f = 0; f < 256; f++) {
		if (!((bits[f / 64] >> (f % 64)) & 1))
			continue;
		cv_feature(&c, f, in64(&c, off + 16 * nsec), in64(&c, off + 16 * nsec + 8));
		cv64(&c, off + 16 * nsec), cv64(&c, off + 16 * nsec + 8);
		nsec++;
	}
	return c.out;
}

#endif
