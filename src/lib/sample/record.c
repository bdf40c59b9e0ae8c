/* SPDX-License-Identifier: MIT */
/* Records of every kernel type: header checks, the fixed bodies, strings, the sample_id trailer. */
#include "perfev/perfdata.h"
#include "sample/record_int.h"

/* One past the last type decoded here; newer kernels' types are passed through raw. */
#define RECORD_KNOWN_END 22

/*
 * The kernel's types, then perf's own (perfev/perfdata.h), for messages: "record NAME",
 * made once rather than formatted for every record parsed.
 */
#define WHAT_PREFIX (sizeof("record ") - 1)
static const char *const record_whats[PERFEV_RECORD_FINISHED_INIT + 1] = {
	[PERF_RECORD_MMAP] = "record MMAP",
	[PERF_RECORD_LOST] = "record LOST",
	[PERF_RECORD_COMM] = "record COMM",
	[PERF_RECORD_EXIT] = "record EXIT",
	[PERF_RECORD_THROTTLE] = "record THROTTLE",
	[PERF_RECORD_UNTHROTTLE] = "record UNTHROTTLE",
	[PERF_RECORD_FORK] = "record FORK",
	[PERF_RECORD_READ] = "record READ",
	[PERF_RECORD_SAMPLE] = "record SAMPLE",
	[PERF_RECORD_MMAP2] = "record MMAP2",
	[PERF_RECORD_AUX] = "record AUX",
	[PERF_RECORD_ITRACE_START] = "record ITRACE_START",
	[PERF_RECORD_LOST_SAMPLES] = "record LOST_SAMPLES",
	[PERF_RECORD_SWITCH] = "record SWITCH",
	[PERF_RECORD_SWITCH_CPU_WIDE] = "record SWITCH_CPU_WIDE",
	[PERF_RECORD_NAMESPACES] = "record NAMESPACES",
	[PERF_RECORD_KSYMBOL] = "record KSYMBOL",
	[PERF_RECORD_BPF_EVENT] = "record BPF_EVENT",
	[PERF_RECORD_CGROUP] = "record CGROUP",
	[PERF_RECORD_TEXT_POKE] = "record TEXT_POKE",
	[PERF_RECORD_AUX_OUTPUT_HW_ID] = "record AUX_OUTPUT_HW_ID",
	[PERFEV_RECORD_HEADER_ATTR] = "record HEADER_ATTR",
	[PERFEV_RECORD_HEADER_EVENT_TYPE] = "record HEADER_EVENT_TYPE",
	[PERFEV_RECORD_HEADER_TRACING_DATA] = "record HEADER_TRACING_DATA",
	[PERFEV_RECORD_HEADER_BUILD_ID] = "record HEADER_BUILD_ID",
	[PERFEV_RECORD_FINISHED_ROUND] = "record FINISHED_ROUND",
	[PERFEV_RECORD_ID_INDEX] = "record ID_INDEX",
	[PERFEV_RECORD_AUXTRACE_INFO] = "record AUXTRACE_INFO",
	[PERFEV_RECORD_AUXTRACE] = "record AUXTRACE",
	[PERFEV_RECORD_AUXTRACE_ERROR] = "record AUXTRACE_ERROR",
	[PERFEV_RECORD_THREAD_MAP] = "record THREAD_MAP",
	[PERFEV_RECORD_CPU_MAP] = "record CPU_MAP",
	[PERFEV_RECORD_STAT_CONFIG] = "record STAT_CONFIG",
	[PERFEV_RECORD_STAT] = "record STAT",
	[PERFEV_RECORD_STAT_ROUND] = "record STAT_ROUND",
	[PERFEV_RECORD_EVENT_UPDATE] = "record EVENT_UPDATE",
	[PERFEV_RECORD_TIME_CONV] = "record TIME_CONV",
	[PERFEV_RECORD_HEADER_FEATURE] = "record HEADER_FEATURE",
	[PERFEV_RECORD_COMPRESSED] = "record COMPRESSED",
	[PERFEV_RECORD_FINISHED_INIT] = "record FINISHED_INIT",
};

const char *record_type_name(uint32_t type)
{
	return type < ARRAY_SIZE(record_whats) && record_whats[type] ? record_whats[type] + WHAT_PREFIX
								     : NULL;
}

static bool record_known(uint32_t type)
{
	return type < RECORD_KNOWN_END && record_whats[type];
}

static int rd_u32(struct rd *r, uint32_t *v, const char *field)
{
	int err = rd_need(r, 4, field);

	if (err)
		return err;
	memcpy(v, r->p + r->off, 4);
	r->off += 4;
	return 0;
}

static int rd_u16(struct rd *r, uint16_t *v, const char *field)
{
	int err = rd_need(r, 2, field);

	if (err)
		return err;
	memcpy(v, r->p + r->off, 2);
	r->off += 2;
	return 0;
}

/*
 * A string runs to the trailer (the kernel pads it with NULs to a u64
 * boundary); its NUL must come before the trailer, or a reader of the
 * string would walk into the sample_id and past the record.
 */
static int rd_string(struct rd *r, const char **s, const char *field)
{
	const unsigned char *start = r->p + r->off;

	if (!rd_left(r) || !memchr(start, '\0', rd_left(r)))
		return set_error(PERFEV_ERR_FORMAT,
				 "%s: %s is not NUL-terminated within its %zu bytes at offset %zu",
				 r->what, field, rd_left(r), r->base + r->off);
	*s = (const char *)start;
	r->off = r->end;
	return 0;
}

static int header_check(const void *buf, size_t size, struct perf_event_header *h)
{
	if (!buf || size < sizeof(*h))
		return set_error(PERFEV_ERR_FORMAT,
				 "record: header needs %zu bytes, only %zu remain", sizeof(*h), size);
	memcpy(h, buf, sizeof(*h));
	if (h->size < sizeof(*h))
		return set_error(PERFEV_ERR_FORMAT,
				 "record type %u: size %u is smaller than its %zu-byte header", h->type,
				 h->size, sizeof(*h));
	if (h->size > size)
		return set_error(PERFEV_ERR_FORMAT,
				 "record type %u: size %u passes the end of the data (%zu bytes remain)",
				 h->type, h->size, size);
	return 0;
}

static int parse_body(const struct perfev_sample_fmt *fmt, struct rd *r, struct perfev_record *o)
{
	int err = 0;

	switch (o->type) {
	case PERF_RECORD_MMAP:
		err = rd_u32x2(r, &o->mmap.pid, &o->mmap.tid, "pid");
		if (!err)
			err = rd_u64(r, &o->mmap.addr, "addr");
		if (!err)
			err = rd_u64(r, &o->mmap.len, "len");
		if (!err)
			err = rd_u64(r, &o->mmap.pgoff, "pgoff");
		if (!err)
			err = rd_string(r, &o->mmap.filename, "filename");
		break;
	case PERF_RECORD_MMAP2:
		err = rd_u32x2(r, &o->mmap2.pid, &o->mmap2.tid, "pid");
		if (!err)
			err = rd_u64(r, &o->mmap2.addr, "addr");
		if (!err)
			err = rd_u64(r, &o->mmap2.len, "len");
		if (!err)
			err = rd_u64(r, &o->mmap2.pgoff, "pgoff");
		if (err)
			break;
		/*
		 * u8 size, u8 + u16 reserved, u8 build_id[20]: the same 24 bytes
		 * as maj..ino_generation.  A size past any build id's is Linux
		 * (seen on 6.18) leaving the bit set in the records of other
		 * events after writing one for an event that asked for build ids:
		 * those bytes are then the device and inode, read as such.
		 */
		if ((o->misc & PERF_RECORD_MISC_MMAP_BUILD_ID) &&
		    rd_left(r) >= 1 && r->p[r->off] > PERFEV_BUILD_ID_MAX)
			o->misc &= (uint16_t)~PERF_RECORD_MISC_MMAP_BUILD_ID;
		if (o->misc & PERF_RECORD_MISC_MMAP_BUILD_ID) {
			const void *id;

			err = rd_bytes(r, 24, &id, "build_id");
			if (err)
				break;
			o->mmap2.build_id_size = *(const uint8_t *)id;
			o->mmap2.build_id = (const uint8_t *)id + 4;
		} else {
			err = rd_u32x2(r, &o->mmap2.maj, &o->mmap2.min, "maj");
			if (!err)
				err = rd_u64(r, &o->mmap2.ino, "ino");
			if (!err)
				err = rd_u64(r, &o->mmap2.ino_generation, "ino_generation");
		}
		if (!err)
			err = rd_u32x2(r, &o->mmap2.prot, &o->mmap2.flags, "prot");
		if (!err)
			err = rd_string(r, &o->mmap2.filename, "filename");
		break;
	case PERF_RECORD_LOST:
		err = rd_u64(r, &o->lost.id, "id");
		if (!err)
			err = rd_u64(r, &o->lost.lost, "lost");
		break;
	case PERF_RECORD_COMM:
		err = rd_u32x2(r, &o->comm.pid, &o->comm.tid, "pid");
		if (!err)
			err = rd_string(r, &o->comm.comm, "comm");
		break;
	case PERF_RECORD_EXIT:
	case PERF_RECORD_FORK:
		err = rd_u32x2(r, &o->task.pid, &o->task.ppid, "pid");
		if (!err)
			err = rd_u32x2(r, &o->task.tid, &o->task.ptid, "tid");
		if (!err)
			err = rd_u64(r, &o->task.time, "time");
		break;
	case PERF_RECORD_THROTTLE:
	case PERF_RECORD_UNTHROTTLE:
		err = rd_u64(r, &o->throttle.time, "time");
		if (!err)
			err = rd_u64(r, &o->throttle.id, "id");
		if (!err)
			err = rd_u64(r, &o->throttle.stream_id, "stream_id");
		break;
	case PERF_RECORD_READ:
		err = rd_u32x2(r, &o->read.pid, &o->read.tid, "pid");
		if (!err)
			err = read_value__parse(fmt->read_format, r, &o->read.nr, &o->read.values,
						&o->read.size);
		break;
	case PERF_RECORD_AUX:
		err = rd_u64(r, &o->aux.aux_offset, "aux_offset");
		if (!err)
			err = rd_u64(r, &o->aux.aux_size, "aux_size");
		if (!err)
			err = rd_u64(r, &o->aux.flags, "flags");
		break;
	case PERF_RECORD_ITRACE_START:
		err = rd_u32x2(r, &o->itrace_start.pid, &o->itrace_start.tid, "pid");
		break;
	case PERF_RECORD_LOST_SAMPLES:
		err = rd_u64(r, &o->lost_samples.lost, "lost");
		break;
	case PERF_RECORD_SWITCH:
		break;
	case PERF_RECORD_SWITCH_CPU_WIDE:
		err = rd_u32x2(r, &o->context_switch.next_prev_pid, &o->context_switch.next_prev_tid,
			       "next_prev_pid");
		break;
	case PERF_RECORD_NAMESPACES: {
		size_t bytes;

		err = rd_u32x2(r, &o->namespaces.pid, &o->namespaces.tid, "pid");
		if (!err)
			err = rd_u64(r, &o->namespaces.nr, "nr_namespaces");
		if (err)
			break;
		if (o->namespaces.nr > SIZE_MAX || !size_mul_ok((size_t)o->namespaces.nr, 16, &bytes) ||
		    bytes > rd_left(r))
			return set_error(PERFEV_ERR_FORMAT,
					 "%s: nr_namespaces %llu needs %llu%s bytes at offset %zu, record has %zu",
					 r->what, (unsigned long long)o->namespaces.nr,
					 (unsigned long long)(o->namespaces.nr * 16),
					 o->namespaces.nr > UINT64_MAX / 16 ? " (overflowing)" : "",
					 r->base + r->off, r->base + r->end);
		err = rd_bytes(r, bytes, &o->namespaces.entries, "namespaces");
		break;
	}
	case PERF_RECORD_KSYMBOL:
		err = rd_u64(r, &o->ksymbol.addr, "addr");
		if (!err)
			err = rd_u32(r, &o->ksymbol.len, "len");
		if (!err)
			err = rd_u16(r, &o->ksymbol.ksym_type, "ksym_type");
		if (!err)
			err = rd_u16(r, &o->ksymbol.flags, "flags");
		if (!err)
			err = rd_string(r, &o->ksymbol.name, "name");
		break;
	case PERF_RECORD_BPF_EVENT: {
		const void *tag;

		err = rd_u16(r, &o->bpf_event.type, "type");
		if (!err)
			err = rd_u16(r, &o->bpf_event.flags, "flags");
		if (!err)
			err = rd_u32(r, &o->bpf_event.id, "id");
		if (!err)
			err = rd_bytes(r, 8, &tag, "tag");
		if (!err)
			o->bpf_event.tag = tag;
		break;
	}
	case PERF_RECORD_CGROUP:
		err = rd_u64(r, &o->cgroup.id, "id");
		if (!err)
			err = rd_string(r, &o->cgroup.path, "path");
		break;
	case PERF_RECORD_TEXT_POKE: {
		const void *bytes;

		err = rd_u64(r, &o->text_poke.addr, "addr");
		if (!err)
			err = rd_u16(r, &o->text_poke.old_len, "old_len");
		if (!err)
			err = rd_u16(r, &o->text_poke.new_len, "new_len");
		/* Two u16 cannot overflow size_t. */
		if (!err)
			err = rd_bytes(r, (size_t)o->text_poke.old_len + o->text_poke.new_len, &bytes,
				       "bytes");
		if (!err)
			o->text_poke.bytes = bytes;
		break;
	}
	case PERF_RECORD_AUX_OUTPUT_HW_ID:
		err = rd_u64(r, &o->aux_output_hw_id.hw_id, "hw_id");
		break;
	}
	return err;
}

int perfev_record__parse(const struct perfev_sample_fmt *fmt, const void *buf, size_t size,
			 struct perfev_record *out)
{
	struct perf_event_header h;
	const char *what;
	size_t blen, tsz;
	int err;

	if (!fmt || !out)
		return set_error(EINVAL, "record: no format or no output given");
	memset(out, 0, sizeof(*out));
	err = sample_fmt__check(fmt);
	if (!err)
		err = header_check(buf, size, &h);
	if (err)
		return err;
	out->type = h.type;
	out->misc = h.misc;
	out->size = h.size;
	out->data = buf;
	blen = h.size - sizeof(h);

	const unsigned char *body = (const unsigned char *)buf + sizeof(h);

	if (!record_known(h.type)) {
		out->unknown.body = body;
		out->unknown.size = blen;
		return 0;
	}
	what = record_whats[h.type];
	if (h.type == PERF_RECORD_SAMPLE) {
		struct rd r = { .p = body, .end = blen, .base = sizeof(h), .what = what };

		return sample__parse_body(fmt, &r, &out->sample);
	}
	tsz = sample_id__size(fmt);
	if (tsz > blen)
		return set_error(PERFEV_ERR_FORMAT, "%s: sample_id needs %zu bytes, record has %zu",
				 what, tsz, (size_t)h.size);
	if (fmt->sample_id_all) {
		struct rd t = { .p = body, .off = blen - tsz, .end = blen, .base = sizeof(h),
				.what = what };

		err = sample_id__parse(fmt, &t, &out->sample_id);
		if (err)
			return err;
		out->has_sample_id = true;
	}

	struct rd r = { .p = body, .end = blen - tsz, .base = sizeof(h), .what = what };

	return parse_body(fmt, &r, out);
}

int perfev_record__peek_id(const struct perfev_sample_fmt *fmt, const void *buf, size_t size,
			   uint64_t *id)
{
	struct perf_event_header h;
	const unsigned char *body;
	size_t blen, pos;
	uint64_t t;
	int err;

	if (!fmt || !id)
		return set_error(EINVAL, "record: no format or no output given");
	err = header_check(buf, size, &h);
	if (err)
		return err;
	body = (const unsigned char *)buf + sizeof(h);
	blen = h.size - sizeof(h);
	t = fmt->sample_type;
	if (h.type == PERF_RECORD_SAMPLE) {
		if (t & PERF_SAMPLE_IDENTIFIER) {
			pos = 0;
		} else if (t & PERF_SAMPLE_ID) {
			/* Only the fixed-size fields before ID move it. */
			pos = 8 * (!!(t & PERF_SAMPLE_IP) + !!(t & PERF_SAMPLE_TID) +
				   !!(t & PERF_SAMPLE_TIME) + !!(t & PERF_SAMPLE_ADDR));
		} else {
			return set_error(ENOENT, "record SAMPLE: sample_type 0x%llx carries no id",
					 (unsigned long long)t);
		}
	} else {
		size_t tsz = sample_id__size(fmt);

		if (!record_known(h.type) || !tsz || !(t & (PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_ID)))
			return set_error(ENOENT, "record type %u carries no id under this format",
					 h.type);
		if (tsz > blen)
			return set_error(PERFEV_ERR_FORMAT,
					 "%s: sample_id needs %zu bytes, record has %u",
					 record_whats[h.type], tsz, h.size);
		if (t & PERF_SAMPLE_IDENTIFIER)
			pos = blen - 8;
		else /* ID is followed by STREAM_ID and CPU in the trailer. */
			pos = blen - 8 * (1 + !!(t & PERF_SAMPLE_STREAM_ID) + !!(t & PERF_SAMPLE_CPU));
	}
	if (pos > blen || blen - pos < 8)
		return set_error(PERFEV_ERR_FORMAT,
				 "record type %u: id needs 8 bytes at offset %zu, record has %u", h.type,
				 sizeof(h) + pos, h.size);
	memcpy(id, body + pos, 8);
	return 0;
}
