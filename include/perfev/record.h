/* SPDX-License-Identifier: MIT */
/*
 * perfev: decoding (and encoding) the records perf events write, the same
 * way for a live ring buffer and for a perf.data file.
 *
 *	struct perfev_sample_fmt fmt;
 *	struct perfev_record rec;
 *
 *	perfev_sample_fmt__from_attr(&attr, &fmt);
 *	while (len >= 8) {
 *		if (perfev_record__parse(&fmt, p, len, &rec) < 0)
 *			break;                  // perfev_last_error() says why
 *		if (rec.type == PERF_RECORD_SAMPLE)
 *			use(rec.sample.ip);
 *		p += rec.size, len -= rec.size;
 *	}
 *
 * Nothing is copied: every pointer in a decoded record points into the
 * caller's buffer and is valid as long as that buffer is.  Those pointers
 * may be unaligned (perf.data files do not promise alignment), so arrays of
 * u64 are read with perfev_u64_at() rather than dereferenced.
 *
 * Several events in one stream: each has its own fmt.  Give every event
 * PERF_SAMPLE_IDENTIFIER (as perf does), then perfev_record__peek_id() finds
 * a record's id at a position that does not depend on the rest of the
 * sample_type, and the caller picks that event's fmt before decoding.
 */
#ifndef PERFEV_RECORD_H
#define PERFEV_RECORD_H

#include <linux/perf_event.h>
#include <stdbool.h>
#include <string.h>

#include "perfev/common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The sample_type bits perfev decodes (IP .. WEIGHT_STRUCT); others are rejected. */
#define PERFEV_SAMPLE_KNOWN ((1ull << 25) - 1)
/* read_format bits perfev decodes: TOTAL_TIME_ENABLED/RUNNING, ID, GROUP, LOST. */
#define PERFEV_FORMAT_KNOWN 0x1full
/* misc of a PERF_RECORD_LOST_SAMPLES whose samples a BPF filter dropped (Linux 6.4): no loss. */
#define PERFEV_RECORD_MISC_LOST_SAMPLES_BPF (1u << 15)
/* branch_sample_type bit (Linux 6.8) adding a u64 counters[nr] after the entries. */
#define PERFEV_SAMPLE_BRANCH_COUNTERS (1ull << 19)

/* What decoding one event's records needs from its perf_event_attr. */
struct perfev_sample_fmt {
	uint64_t sample_type;
	uint64_t read_format;
	uint64_t sample_regs_user;
	uint64_t sample_regs_intr;
	uint64_t branch_sample_type; /* HW_INDEX and COUNTERS change the layout */
	bool sample_id_all;	     /* non-sample records end in a struct sample_id */
};

/*
 * Fills fmt from attr.  -PERFEV_ERR_FORMAT when attr asks for something the
 * decoder cannot lay out (unknown sample_type or read_format bits, WEIGHT
 * together with WEIGHT_STRUCT), so a bad attr in a file fails here, early.
 */
PERFEV_API int perfev_sample_fmt__from_attr(const struct perf_event_attr *attr,
					    struct perfev_sample_fmt *fmt);

/* An array of u64 in a record, which may sit at any address. */
static inline uint64_t perfev_u64_at(const void *base, size_t i)
{
	uint64_t v;

	memcpy(&v, (const unsigned char *)base + i * sizeof(v), sizeof(v));
	return v;
}

/* A PERF_RECORD_SAMPLE body; a field is meaningful when its bit is in sample_type. */
struct perfev_sample {
	uint64_t sample_type;
	uint64_t identifier; /* PERF_SAMPLE_IDENTIFIER */
	uint64_t ip;
	uint32_t pid, tid;
	uint64_t time;
	uint64_t addr;
	uint64_t id;
	uint64_t stream_id;
	uint32_t cpu, cpu_res;
	uint64_t period;
	/*
	 * The raw read_format value: decode with
	 * perfev_read_format__parse(read.format, read.data, read.size, out, max).
	 */
	struct {
		uint64_t format;
		uint64_t nr; /* members: 1 unless PERF_FORMAT_GROUP */
		const void *data;
		size_t size;
	} read;
	struct {
		uint64_t nr;
		const void *ips; /* nr u64: perfev_u64_at(ips, i) */
	} callchain;
	struct {
		uint32_t size;
		const void *data;
	} raw;
	struct {
		uint64_t nr;
		bool has_hw_idx; /* branch_sample_type & PERF_SAMPLE_BRANCH_HW_INDEX */
		uint64_t hw_idx;
		const void *entries;  /* nr struct perf_branch_entry: perfev_sample__branch() */
		const void *counters; /* nr u64 with PERFEV_SAMPLE_BRANCH_COUNTERS, else NULL */
	} branch;
	struct {
		uint64_t abi;  /* enum perf_sample_regs_abi; 0: no registers */
		uint64_t mask; /* the attr's mask: regs[i] is the i-th set bit's register */
		uint64_t nr;
		const void *regs;
	} regs_user, regs_intr;
	struct {
		uint64_t size;
		const void *data;
		uint64_t dyn_size; /* bytes of data actually copied; <= size */
	} stack_user;
	uint64_t weight; /* PERF_SAMPLE_WEIGHT, or WEIGHT_STRUCT's union perf_sample_weight */
	uint64_t data_src;
	uint64_t transaction;
	uint64_t phys_addr;
	uint64_t cgroup;
	uint64_t data_page_size;
	uint64_t code_page_size;
	struct {
		uint64_t size;
		const void *data;
	} aux;
};

/*
 * Decodes a PERF_RECORD_SAMPLE body (the bytes after the header) laid out by
 * fmt.  Every field is checked against what remains; -PERFEV_ERR_FORMAT
 * names the field and its byte offset in the body.  Bytes after the last
 * field are ignored.
 */
PERFEV_API int perfev_sample__parse(const struct perfev_sample_fmt *fmt, const void *rec,
				    size_t size, struct perfev_sample *out);

/*
 * Writes the body perfev_sample__parse() reads back: the fields fmt selects,
 * taken from s (the sample's own sample_type is ignored).  Returns the bytes
 * written; with buf NULL and size 0, the bytes needed.  -ENOSPC when buf is
 * too small, -EINVAL when s is inconsistent with fmt (a read value of the
 * wrong size, dyn_size > size), -E2BIG when the body cannot fit one record.
 */
PERFEV_API int perfev_sample__encode(const struct perfev_sample_fmt *fmt,
				     const struct perfev_sample *s, void *buf, size_t size);

/* Entry i of the branch stack. */
static inline void perfev_sample__branch(const struct perfev_sample *s, size_t i,
					 struct perf_branch_entry *out)
{
	memcpy(out, (const unsigned char *)s->branch.entries + i * sizeof(*out), sizeof(*out));
}

/* The struct sample_id that ends non-sample records when sample_id_all is set. */
struct perfev_sample_id {
	uint32_t pid, tid;
	uint64_t time;
	uint64_t id;
	uint64_t stream_id;
	uint32_t cpu, cpu_res;
	uint64_t identifier;
};

/*
 * Writes the sample_id trailer fmt gives non-sample records (nothing
 * without sample_id_all), as the kernel lays it out, from id.  Returns the
 * bytes written; with buf NULL and size 0, the bytes needed; -ENOSPC when
 * buf is too small.
 */
PERFEV_API int perfev_sample_id__encode(const struct perfev_sample_fmt *fmt,
					const struct perfev_sample_id *id, void *buf, size_t size);

/* One record; type says which member of the union is filled. */
struct perfev_record {
	uint32_t type;
	uint16_t misc;
	uint16_t size;	  /* header.size: where the next record starts */
	const void *data; /* the whole record, header included */
	/* The trailer, when fmt->sample_id_all and the type is a kernel one. */
	bool has_sample_id;
	struct perfev_sample_id sample_id;
	union {
		struct {
			uint32_t pid, tid;
			uint64_t addr, len, pgoff;
			const char *filename;
		} mmap;
		struct {
			uint32_t pid, tid;
			uint64_t addr, len, pgoff;
			/* misc & PERF_RECORD_MISC_MMAP_BUILD_ID: build_id; else maj..ino_generation. */
			uint32_t maj, min;
			uint64_t ino, ino_generation;
			uint8_t build_id_size; /* <= PERFEV_BUILD_ID_MAX */
			const uint8_t *build_id;
			uint32_t prot, flags;
			const char *filename;
		} mmap2;
		struct {
			uint64_t id, lost;
		} lost;
		struct {
			uint32_t pid, tid;
			const char *comm;
		} comm;
		struct {
			uint32_t pid, ppid, tid, ptid;
			uint64_t time;
		} task; /* PERF_RECORD_FORK and PERF_RECORD_EXIT */
		struct {
			uint64_t time, id, stream_id;
		} throttle; /* PERF_RECORD_THROTTLE and PERF_RECORD_UNTHROTTLE */
		struct {
			uint32_t pid, tid;
			uint64_t nr; /* members in values */
			const void *values; /* read_format layout: perfev_read_format__parse() */
			size_t size;
		} read;
		struct perfev_sample sample;
		struct {
			uint64_t aux_offset, aux_size, flags;
		} aux;
		struct {
			uint32_t pid, tid;
		} itrace_start;
		struct {
			uint64_t lost;
		} lost_samples;
		struct {
			uint32_t next_prev_pid, next_prev_tid; /* 0 for PERF_RECORD_SWITCH */
		} context_switch; /* PERF_RECORD_SWITCH and PERF_RECORD_SWITCH_CPU_WIDE */
		struct {
			uint32_t pid, tid;
			uint64_t nr;
			const void *entries; /* nr {u64 dev, inode}: perfev_u64_at(entries, 2 * i) */
		} namespaces;
		struct {
			uint64_t addr;
			uint32_t len;
			uint16_t ksym_type, flags;
			const char *name;
		} ksymbol;
		struct {
			uint16_t type, flags;
			uint32_t id;
			const uint8_t *tag; /* 8 bytes (BPF_TAG_SIZE) */
		} bpf_event;
		struct {
			uint64_t id;
			const char *path;
		} cgroup;
		struct {
			uint64_t addr;
			uint16_t old_len, new_len;
			const uint8_t *bytes; /* old bytes, then new bytes */
		} text_poke;
		struct {
			uint64_t hw_id;
		} aux_output_hw_id;
		struct {
			const void *body; /* after the header */
			size_t size;
		} unknown; /* any type not listed above, including perf's own (>= 64) */
	};
};

/*
 * Decodes the record at the start of buf (size bytes available; only
 * header.size of them are used).  Returns 0, or -PERFEV_ERR_FORMAT when the
 * header's size is below 8 or past size, a field does not fit, a string is
 * not NUL-terminated before the sample_id trailer, or a count is
 * implausible; perfev_last_error() names the record type, field and offset.
 *
 * header.size need not be a multiple of 8: the kernel's records always are,
 * but perf's own records in perf.data files are not promised to be, and a
 * reader must be able to step over them.
 *
 * A type the decoder does not know is not an error: out->type is set, the
 * body is left in out->unknown and skipping it by out->size is the caller's
 * choice.
 */
PERFEV_API int perfev_record__parse(const struct perfev_sample_fmt *fmt, const void *buf,
				    size_t size, struct perfev_record *out);

/*
 * The event id of the record at buf, to choose the fmt to decode it with:
 * with PERF_SAMPLE_IDENTIFIER the first u64 of a sample body or the last u64
 * of another record (with sample_id_all), which is where every event puts
 * it; without it, PERF_SAMPLE_ID's position under fmt, which is right only
 * when every event of the stream has the same sample_type.  Returns 0,
 * -ENOENT when the record carries no id (no ID bits, no sample_id_all, or a
 * type without a trailer), or -PERFEV_ERR_FORMAT when it is too short.
 */
PERFEV_API int perfev_record__peek_id(const struct perfev_sample_fmt *fmt, const void *buf,
				      size_t size, uint64_t *id);

#ifdef __cplusplus
}
#endif
#endif
