/* SPDX-License-Identifier: MIT */
/*
 * perfev: reading perf.data, as written by Linux perf's "perf record" and by
 * "perfev record": file mode and pipe mode, either byte order.
 *
 *	struct perfev_data_reader *r = perfev_data_reader__open("perf.data", NULL);
 *	struct perfev_data_event ev;
 *	int err;
 *
 *	while ((err = perfev_data_reader__next(r, &ev)) > 0)
 *		if (ev.rec.type == PERF_RECORD_SAMPLE)
 *			use(ev.evsel, &ev.rec.sample);
 *	if (err < 0)
 *		fprintf(stderr, "%s\n", perfev_last_error());
 *	perfev_data_reader__delete(r);
 *
 * The whole input is untrusted: every size is checked against what the file
 * holds before anything is allocated or read, and a malformed file gives
 * -PERFEV_ERR_FORMAT with perfev_last_error() naming the offset, the
 * section or record type, and what is wrong.  Nothing crashes on any input.
 *
 * Records come back in file order, in native byte order (a file written on
 * a machine of the other byte order is converted record by record), with
 * PERF_RECORD_COMPRESSED records expanded into the records they hold.
 * perf's own records (type >= 64) come back too, after the reader has taken
 * what it needs from them: PERF_RECORD_HEADER_ATTR adds an event,
 * HEADER_FEATURE fills a feature (pipe mode), EVENT_UPDATE names an event,
 * HEADER_BUILD_ID adds a build id, ID_INDEX maps ids to cpus and threads
 * (checked, not kept: no accessor needs it).  The tracing data following a
 * pipe's HEADER_TRACING_DATA become the TRACING_DATA feature; the aux
 * bytes following an AUXTRACE record are stepped over.
 *
 * A data section running past the end of the file is an error (the file
 * was cut short); a data size of 0 (a recorder killed before it wrote its
 * header) means the data run to the end of the file, read with a warning.
 */
#ifndef PERFEV_PERFDATA_READER_H
#define PERFEV_PERFDATA_READER_H

#include <linux/perf_event.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "perfev/common.h"
#include "perfev/perfdata.h"
#include "perfev/record.h"

#ifdef __cplusplus
extern "C" {
#endif

struct perfev_data_reader;

struct perfev_data_reader_opts {
	size_t sz; /* sizeof(struct perfev_data_reader_opts) */
	/*
	 * Called for conditions worth telling the user that do not stop
	 * reading: a file whose data size is 0 (its recorder was killed; the
	 * records up to the end of the file or the first bad one are read), a
	 * feature section perfev does not know (skipped), a record of an
	 * unknown type.  NULL: warnings go to the print callback at
	 * PERFEV_WARN.
	 */
	void (*warn)(void *ctx, const char *msg);
	void *warn_ctx;
	size_t :0;
};

/*
 * Opens path ("-": standard input, which may be a pipe) and reads the
 * header, the attrs and (file mode) the feature sections.  NULL with errno
 * set: ENOENT and the other open(2) errors, PERFEV_ERR_FORMAT (stored as a
 * positive errno) for a file that is not perf.data or is malformed before
 * its data, with perfev_last_error() saying which.
 */
PERFEV_API struct perfev_data_reader *
perfev_data_reader__open(const char *path, const struct perfev_data_reader_opts *opts);
/* The same over an open fd (not owned; a regular file is mapped, anything else read as a pipe). */
PERFEV_API struct perfev_data_reader *
perfev_data_reader__new_fd(int fd, const struct perfev_data_reader_opts *opts);
/* The same over bytes in memory (not copied; they must outlive the reader). */
PERFEV_API struct perfev_data_reader *
perfev_data_reader__new_mem(const void *buf, size_t len, const struct perfev_data_reader_opts *opts);
/* Accepts NULL. */
PERFEV_API void perfev_data_reader__delete(struct perfev_data_reader *r);

PERFEV_API bool perfev_data_reader__is_pipe(const struct perfev_data_reader *r);
/* The file was written in the other byte order ("2ELIFREP"). */
PERFEV_API bool perfev_data_reader__is_swapped(const struct perfev_data_reader *r);

/*
 * Events ("evsels"), in the order of the file's attrs.  In pipe mode they
 * arrive as PERF_RECORD_HEADER_ATTR records, so the count grows while
 * reading.  The attr is in native byte order, zero-extended to
 * sizeof(struct perf_event_attr).
 */
PERFEV_API size_t perfev_data_reader__nr_evsels(const struct perfev_data_reader *r);
PERFEV_API const struct perf_event_attr *perfev_data_reader__attr(const struct perfev_data_reader *r,
								  size_t idx);
PERFEV_API const struct perfev_sample_fmt *
perfev_data_reader__sample_fmt(const struct perfev_data_reader *r, size_t idx);
/*
 * The event's name as the recorder gave it (HEADER_EVENT_DESC or an
 * EVENT_UPDATE), else one derived from the attr ("cpu-clock",
 * "raw 0x1c2", "tracepoint 312"); never NULL.
 */
PERFEV_API const char *perfev_data_reader__evsel_name(const struct perfev_data_reader *r,
						      size_t idx);
PERFEV_API const uint64_t *perfev_data_reader__evsel_ids(const struct perfev_data_reader *r,
							 size_t idx, size_t *nr);
/* The index of the event with this kernel id, or -1. */
PERFEV_API int perfev_data_reader__evsel_of_id(const struct perfev_data_reader *r, uint64_t id);

/* A feature's name as perf spells it ("SAMPLE_TIME"); NULL for a number it does not know. */
PERFEV_API const char *perfev_data_feature__name(enum perfev_feature feat);

/* Feature sections: those the file has (pipe mode: those read so far). */
PERFEV_API bool perfev_data_reader__has_feature(const struct perfev_data_reader *r,
						enum perfev_feature feat);
/*
 * A section's bytes as stored (in the file's byte order), for features
 * without an accessor below; -ENOENT when absent.
 */
PERFEV_API int perfev_data_reader__feature(const struct perfev_data_reader *r,
					   enum perfev_feature feat, const void **data,
					   size_t *size);
/*
 * A string feature (HOSTNAME, OSRELEASE, VERSION, ARCH, CPUDESC, CPUID),
 * NUL-terminated; NULL when absent or not a string feature.
 */
PERFEV_API const char *perfev_data_reader__feat_string(const struct perfev_data_reader *r,
						       enum perfev_feature feat);
/* HEADER_CMDLINE: argc and argv (valid as long as the reader); -ENOENT when absent. */
PERFEV_API int perfev_data_reader__cmdline(const struct perfev_data_reader *r, int *argc,
					   const char *const **argv);
/* HEADER_NRCPUS; -ENOENT when absent. */
PERFEV_API int perfev_data_reader__nrcpus(const struct perfev_data_reader *r, uint32_t *online,
					  uint32_t *available);
/* HEADER_TOTAL_MEM in kB; 0 when absent. */
PERFEV_API uint64_t perfev_data_reader__total_mem(const struct perfev_data_reader *r);
/* HEADER_SAMPLE_TIME: the first and last sample times; -ENOENT when absent. */
PERFEV_API int perfev_data_reader__sample_time(const struct perfev_data_reader *r,
					       uint64_t *first, uint64_t *last);

/* One build id of HEADER_BUILD_ID (or a HEADER_BUILD_ID record in a pipe). */
struct perfev_data_build_id {
	int32_t pid;
	uint16_t misc; /* PERF_RECORD_MISC_KERNEL, _USER, ... */
	uint8_t size;  /* bytes of id used: 20 for SHA-1, 16 for MD5... */
	uint8_t id[PERFEV_BUILD_ID_MAX];
	const char *filename;
};
PERFEV_API size_t perfev_data_reader__nr_build_ids(const struct perfev_data_reader *r);
PERFEV_API const struct perfev_data_build_id *
perfev_data_reader__build_id(const struct perfev_data_reader *r, size_t i);

/* HEADER_GROUP_DESC: group i's name (NULL: anonymous), leader index and member count. */
PERFEV_API size_t perfev_data_reader__nr_groups(const struct perfev_data_reader *r);
PERFEV_API int perfev_data_reader__group(const struct perfev_data_reader *r, size_t i,
					 const char **name, uint32_t *leader_idx, uint32_t *nr);

/* One record of the data. */
struct perfev_data_event {
	/*
	 * The decoded record, valid until the next call.  For perf's own
	 * types (>= 64) only type, misc, size and data are meaningful (the
	 * union holds rec.unknown).
	 */
	struct perfev_record rec;
	/* The event the record belongs to (by its id, or the only event), or -1. */
	int evsel;
	/*
	 * Where the record is: its offset in the file, or for a record taken
	 * out of a PERF_RECORD_COMPRESSED, the offset of the COMPRESSED
	 * record it begins in (and compressed is true).
	 */
	uint64_t offset;
	bool compressed;
};

/*
 * The next record: 1 when ev is filled, 0 at the end of the data, or a
 * negative error (-PERFEV_ERR_FORMAT for a malformed record, naming its
 * offset and type; -EIO and the other read errors).  After an error the
 * reader stays at the error.
 */
PERFEV_API int perfev_data_reader__next(struct perfev_data_reader *r, struct perfev_data_event *ev);

/*
 * How far reading got, for progress display: bytes of the data consumed
 * and the data size (file mode; 0 in pipe mode and for a file whose header
 * says 0).
 */
PERFEV_API void perfev_data_reader__progress(const struct perfev_data_reader *r, uint64_t *done,
					     uint64_t *total);

/* Data statistics so far: records read per type (PERF_RECORD_* and perf's own, < 128). */
PERFEV_API uint64_t perfev_data_reader__nr_records(const struct perfev_data_reader *r,
						   uint32_t type);

#ifdef __cplusplus
}
#endif
#endif
