/* SPDX-License-Identifier: MIT */
/*
 * perfev: writing perf.data, the file format Linux perf reads and writes.
 *
 *	struct perfev_data_writer_opts o = { .sz = sizeof(o) };
 *	struct perfev_data_writer *w = perfev_data_writer__new(fd, &o);
 *	perfev_data_writer__add_attr(w, &attr, ids, nr_ids, "cpu-clock");
 *	perfev_data_writer__start(w);           // header, attrs (and ids)
 *	... perfev_data_writer__write_ring(w, ring, NULL); per ring ...
 *	perfev_data_writer__finished_round(w);  // after each drain of every ring
 *	perfev_data_writer__finish(w);          // feature sections, final header
 *	perfev_data_writer__delete(w);
 *
 * File mode (the default) lays the file out as perf does: the header, the
 * ids of each attr, the attrs, the data, then the feature sections.  The
 * header is rewritten with the current data size after every round (or
 * every opts.header_sync_ms), so a file whose writer was killed reads up to
 * its last round (without feature sections).  Pipe mode (opts.pipe, for "-o -") writes the pipe header and
 * carries attrs and features as PERF_RECORD_HEADER_ATTR / HEADER_FEATURE
 * records, since nothing can be rewritten.
 *
 * With opts.compress_level > 0 the records are compressed with zstd into
 * PERF_RECORD_COMPRESSED records and the HEADER_COMPRESSED feature is
 * written, as "perf record -z" does; round marks stay uncompressed, as
 * perf has them.  In file mode the data also begin with HEADER_COMPRESSED
 * as a PERF_RECORD_HEADER_FEATURE, since perf cannot decompress anything
 * without it and the feature sections come only with finish().
 *
 * Write failures (a full disk: ENOSPC, EDQUOT, EFBIG, EIO) come back as
 * -errno with perfev_last_error() naming the file offset; what was written
 * before stays readable and finish() still tries to write the header.  The
 * first failure sticks: every later call returns it (the stream has a hole
 * from there) and finish() closes the file at the last complete round.
 * A pipe whose reader went away raises SIGPIPE: ignore it to get EPIPE.
 *
 * Attrs are written with perf 6.1's attr size (128) unless a later field
 * is set, so that perf 6.1 reads the file.
 *
 * When an attr is a tracepoint (PERF_TYPE_TRACEPOINT), perf decodes its
 * samples' raw data with the formats tracefs gives, which start() reads
 * (for the tracepoints used: the attr's name "system:event" when that
 * event has attr.config as its id, else the event that does) and writes as
 * perf's tracing data: in a file, the HEADER_TRACING_DATA feature, its body
 * placed between the attrs and the data; in a pipe, a
 * PERF_RECORD_HEADER_TRACING_DATA after the feature records, followed by a
 * PERF_RECORD_EVENT_UPDATE naming each tracepoint (perf script would
 * otherwise call one "unknown tracepoint").  perf refuses a file with
 * tracepoints but without that feature, and reads features only from the
 * header, not from records in the data; so after each round (and at
 * start()) the header names that one feature, with its section table just
 * past the round.  A file whose writer was killed between rounds reads with
 * its tracepoints decoded; one killed in the middle of a round, after the
 * next record overwrote that table, has no features and perf refuses it
 * (as "incompatible file format").
 */
#ifndef PERFEV_PERFDATA_H
#define PERFEV_PERFDATA_H

#include <linux/perf_event.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "perfev/common.h"
#include "perfev/ring.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The file perf and perfev read and write when given none. */
#define PERFEV_DATA_FILE_DEFAULT "perf.data"

/* perf's own record types (tools/lib/perf/include/perf/event.h numbering). */
enum perfev_user_record_type {
	PERFEV_RECORD_HEADER_ATTR = 64,
	PERFEV_RECORD_HEADER_EVENT_TYPE = 65,
	PERFEV_RECORD_HEADER_TRACING_DATA = 66,
	PERFEV_RECORD_HEADER_BUILD_ID = 67,
	PERFEV_RECORD_FINISHED_ROUND = 68,
	PERFEV_RECORD_ID_INDEX = 69,
	PERFEV_RECORD_AUXTRACE_INFO = 70,
	PERFEV_RECORD_AUXTRACE = 71,
	PERFEV_RECORD_AUXTRACE_ERROR = 72,
	PERFEV_RECORD_THREAD_MAP = 73,
	PERFEV_RECORD_CPU_MAP = 74,
	PERFEV_RECORD_STAT_CONFIG = 75,
	PERFEV_RECORD_STAT = 76,
	PERFEV_RECORD_STAT_ROUND = 77,
	PERFEV_RECORD_EVENT_UPDATE = 78,
	PERFEV_RECORD_TIME_CONV = 79,
	PERFEV_RECORD_HEADER_FEATURE = 80,
	PERFEV_RECORD_COMPRESSED = 81,
	PERFEV_RECORD_FINISHED_INIT = 82,
};

/* Feature section numbers (perf's HEADER_* bits). */
enum perfev_feature {
	PERFEV_FEAT_TRACING_DATA = 1,
	PERFEV_FEAT_BUILD_ID = 2,
	PERFEV_FEAT_HOSTNAME = 3,
	PERFEV_FEAT_OSRELEASE = 4,
	PERFEV_FEAT_VERSION = 5,
	PERFEV_FEAT_ARCH = 6,
	PERFEV_FEAT_NRCPUS = 7,
	PERFEV_FEAT_CPUDESC = 8,
	PERFEV_FEAT_CPUID = 9,
	PERFEV_FEAT_TOTAL_MEM = 10,
	PERFEV_FEAT_CMDLINE = 11,
	PERFEV_FEAT_EVENT_DESC = 12,
	PERFEV_FEAT_CPU_TOPOLOGY = 13,
	PERFEV_FEAT_NUMA_TOPOLOGY = 14,
	PERFEV_FEAT_BRANCH_STACK = 15,
	PERFEV_FEAT_PMU_MAPPINGS = 16,
	PERFEV_FEAT_GROUP_DESC = 17,
	PERFEV_FEAT_AUXTRACE = 18,
	PERFEV_FEAT_STAT = 19,
	PERFEV_FEAT_CACHE = 20,
	PERFEV_FEAT_SAMPLE_TIME = 21,
	PERFEV_FEAT_MEM_TOPOLOGY = 22,
	PERFEV_FEAT_CLOCKID = 23,
	PERFEV_FEAT_DIR_FORMAT = 24,
	PERFEV_FEAT_BPF_PROG_INFO = 25,
	PERFEV_FEAT_BPF_BTF = 26,
	PERFEV_FEAT_COMPRESSED = 27,
	PERFEV_FEAT_CPU_PMU_CAPS = 28,
	PERFEV_FEAT_CLOCK_DATA = 29,
	PERFEV_FEAT_HYBRID_TOPOLOGY = 30,
	PERFEV_FEAT_PMU_CAPS = 31,
	PERFEV_FEAT_LAST = 32,
};

struct perfev_data_writer;

struct perfev_data_writer_opts {
	size_t sz;	    /* sizeof(struct perfev_data_writer_opts) */
	bool pipe;	    /* pipe mode: nothing is ever seeked or rewritten */
	int compress_level; /* 0: none; 1..22: zstd level (perf's -z uses 1) */
	/* The command line stored in HEADER_CMDLINE; NULL: none stored. */
	int argc;
	const char *const *argv;
	/*
	 * File mode: bring the header up to date at the end of a round only
	 * when this many milliseconds passed since it last was (0: at every
	 * round).  A recorder ending thousands of rounds a second saves a
	 * pwrite per round; a killed writer's file then reads up to a round at
	 * most this old.  Files with tracepoints sync at every round.
	 */
	unsigned int header_sync_ms;
	unsigned int reserved_; /* zero: keeps the struct free of padding a caller may leave unset */
	/*
	 * With a sched:sched_switch event (perfev_evlist__add_off_cpu()) and
	 * every event carrying PERF_SAMPLE_IDENTIFIER: leave out the
	 * switch-outs of threads seen running again less than this many ns
	 * later.  write_ring() then holds each ring's records until
	 * finished_round() (or write(), or finish()), which looks at the
	 * round's records together: a switch-out whose thread's next event in
	 * the round is a switch-in (a PERF_RECORD_SWITCH, or a sched_switch
	 * naming it as next_pid) within the threshold is dropped; one whose
	 * switch-in falls into a later round is kept, so a reader must filter
	 * again.  PERF_RECORD_SWITCH records of switch-outs are left out too
	 * (the sched_switch samples say the same).  Nothing longer than the threshold is dropped, and records
	 * never leave their round.  0: everything is written.
	 */
	uint64_t off_cpu_thresh_ns;
	size_t :0;
};

/*
 * A writer onto fd (not owned; in file mode a seekable fd without
 * O_APPEND, written from offset 0 and truncated to what was written;
 * anything writable in pipe mode).  NULL with errno set on failure
 * (EINVAL: bad opts or O_APPEND, an unsupported compression level;
 * EBADF: fd not open for writing; ESPIPE: file mode on a pipe).
 */
PERFEV_API struct perfev_data_writer *perfev_data_writer__new(int fd,
							      const struct perfev_data_writer_opts *opts);
/* Frees the writer without writing anything more; accepts NULL. */
PERFEV_API void perfev_data_writer__delete(struct perfev_data_writer *w);

/*
 * Declares one event: its attr (copied; bytes past attr->size are taken as
 * zero), the kernel ids of its fds (PERF_EVENT_IOC_ID; none is fine for a
 * single event), and its name (1..4095 bytes) for HEADER_EVENT_DESC, which
 * perf shows instead of one derived from the attr.  Only before start().
 * Several events must carry their ids where perf can find them (give each
 * PERF_SAMPLE_IDENTIFIER) with one sample_id_all, and no id twice: start()
 * checks, as perf would refuse the file.  A pipe carries at most 8174 ids
 * per event (one u16-sized record).
 */
PERFEV_API int perfev_data_writer__add_attr(struct perfev_data_writer *w,
					    const struct perf_event_attr *attr, const uint64_t *ids,
					    size_t nr_ids, const char *name);

/*
 * Declares a group of the attrs just added (leader_idx is the index of the
 * leader among add_attr() calls, nr its members, the leader included) for
 * HEADER_GROUP_DESC; name NULL gives perf's "{anon_group}".  Groups come in
 * order and do not overlap.  Only before start().
 */
PERFEV_API int perfev_data_writer__add_group(struct perfev_data_writer *w, const char *name,
					     int leader_idx, int nr);

/*
 * Records a DSO's build id (1..20 bytes) for HEADER_BUILD_ID (misc is
 * PERF_RECORD_MISC_KERNEL or _USER, or a _GUEST_ one; pid -1 for the
 * kernel).  The same (filename, build id) given twice is kept once.  Any
 * time before finish(); a pipe gets them as PERF_RECORD_HEADER_BUILD_ID
 * records at start() and then at the next round.
 */
PERFEV_API int perfev_data_writer__add_build_id(struct perfev_data_writer *w, int32_t pid,
						uint16_t misc, const uint8_t *build_id,
						size_t build_id_size, const char *filename);

/*
 * The times of the first and last samples written, for HEADER_SAMPLE_TIME
 * (perf report --time 10%/2 reads the recording's span from it; file mode
 * only, as perf).  Any time before finish(); 0, or -EINVAL when last < first.
 */
PERFEV_API int perfev_data_writer__set_sample_time(struct perfev_data_writer *w, uint64_t first,
						   uint64_t last);

/*
 * Writes the header and attrs (pipe mode: also the feature records), and
 * the tracing data when an event is a tracepoint.  Fails before writing
 * anything when those cannot be read: -PERFEV_ERR_NOTRACEFS without
 * tracefs, -ENOENT when no tracepoint has an attr's config as its id, or
 * the error of a format file that cannot be read (-EACCES...).
 */
PERFEV_API int perfev_data_writer__start(struct perfev_data_writer *w);

/*
 * Appends records (whole records, in the order a ring gives them; any
 * alignment) to the data section, in one write(2) per call.  A span that
 * is not whole records (a header.size below 8 or past len) is -EINVAL and
 * nothing is written.  With compression they are compressed as they come
 * and written in spans of about 1 MiB, and all of them at each round.
 */
PERFEV_API int perfev_data_writer__write(struct perfev_data_writer *w, const void *buf,
					 size_t len);
struct perfev_write_ring_opts {
	size_t sz; /* sizeof(struct perfev_write_ring_opts) */
	/*
	 * Records the caller wants to see as they go by (a recorder noting
	 * build ids, counting samples): each record whose type t is below 64
	 * with bit (1ull << t) set in types is passed to fn whole, joined if it
	 * wraps around the end of the ring, valid during the call only, before
	 * anything of the ring is written.  fn returns 0 to go on; any other
	 * value stops: nothing of the ring is written or consumed, and
	 * write_ring() returns that value (a later call shows the same records
	 * again).
	 */
	uint64_t types;
	perfev_ring_fn_t fn;
	void *ctx;
	size_t :0;
};

/*
 * Appends what ring holds (a forward ring of an event whose attr was added)
 * to the data and hands the space back to the kernel: the bytes as they lie
 * in the ring, in one writev(2) even when they wrap around its end.  Each
 * record is accounted once, in the ring's perfev_ring__stats() (records,
 * PERF_RECORD_LOST and LOST_SAMPLES counts, throttling), when its bytes are
 * written.  opts may be NULL.  Returns the bytes written (0: the ring was
 * empty), or a negative error with nothing consumed: the writer's (a
 * failed write sticks, as with write()); -PERFEV_ERR_FORMAT when a record
 * header in the ring is malformed (nothing is written, and the ring cannot
 * be read any more); -EINVAL for an overwrite ring; fn's value.
 */
PERFEV_API int64_t perfev_data_writer__write_ring(struct perfev_data_writer *w,
						  struct perfev_ring *ring,
						  const struct perfev_write_ring_opts *opts);

/*
 * Appends a PERF_RECORD_FINISHED_ROUND and (file mode) rewrites the header
 * with the data size up to here and no features: a file whose writer dies
 * later reads up to this round.
 */
PERFEV_API int perfev_data_writer__finished_round(struct perfev_data_writer *w);

/*
 * Ends the data: writes the feature sections (file mode: tracing data
 * when an event is a tracepoint, build ids, hostname, osrelease, version, arch, nrcpus, cpudesc, cpuid, total_mem,
 * cmdline, event_desc, pmu_mappings, group_desc when groups were declared,
 * sample_time when set, compressed when compressing; a host fact that cannot
 * be read is left out, as perf does) and the final header.  The fd is left open, positioned at the end.
 * After a write failure it returns that failure again, having closed the
 * file at the last complete round.
 */
PERFEV_API int perfev_data_writer__finish(struct perfev_data_writer *w);

/*
 * Bytes written to fd so far, after compression (file mode: the file's
 * size), and the bytes of records given to write(), before compression.
 */
PERFEV_API uint64_t perfev_data_writer__bytes_written(const struct perfev_data_writer *w);
/* The switch-outs opts.off_cpu_thresh_ns left out so far. */
PERFEV_API uint64_t perfev_data_writer__off_cpu_dropped(const struct perfev_data_writer *w);
PERFEV_API uint64_t perfev_data_writer__data_bytes(const struct perfev_data_writer *w);

#ifdef __cplusplus
}
#endif
#endif
