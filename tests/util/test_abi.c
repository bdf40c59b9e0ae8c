/*
 * The library's ABI, as a program built against one version of the headers
 * meets another version of the library:
 *   - every options struct (first field size_t sz) is taken at its first
 *     version's size and at any size up to its own (whatever its padding
 *     holds), and at a newer, bigger size while the bytes past the struct
 *     this library knows are zero; a smaller sz, or a newer field set, fails
 *     with EINVAL naming the struct; each entry point taking one is called
 *     for real;
 *   - the structs users allocate keep their sizes, and the options structs
 *     and the records of perfev/record.h their field offsets (LP64).
 * That libperfev.so exports exactly the PERFEV_API functions, each in the
 * version node of src/lib/libperfev.map, is tests/cli/test_build.sh's part.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <inttypes.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "perfev/perfev.h"

#define offsetofend(type, field) (offsetof(type, field) + sizeof(((type *)0)->field))

static char tmpdir[64], data_path[128];
static void *data_mem;
static size_t data_len;
/* Events of the calling thread, open, for the entry points that need a list or an fd. */
static struct perfev_evlist *self_el;
/* task-clock of the calling thread with the read_format self-monitoring assumes by default. */
static int self_fd = -1;

/* ---- the entry points, each called with a caller's options struct ---- */

static int ptr_result(void *p, void (*del)(void *))
{
	if (!p)
		return -errno;
	del(p);
	return 0;
}

static void del_evlist(void *p)
{
	perfev_evlist__delete(p);
}

static void del_ring(void *p)
{
	perfev_ring__delete(p);
}

static void del_writer(void *p)
{
	perfev_data_writer__delete(p);
}

static void del_reader(void *p)
{
	perfev_data_reader__delete(p);
}

static void del_profile(void *p)
{
	perfev_profile__delete(p);
}

static void del_selfmon(void *p)
{
	perfev_selfmon__delete(p);
}

static void del_session(void *p)
{
	perfev_session__delete(p);
}

static void del_symbolizer(void *p)
{
	perfev_symbolizer__delete(p);
}

static void del_unwinder(void *p)
{
	perfev_unwinder__delete(p);
}

static int first_event(const struct perfev_event_info *info, void *ctx)
{
	(void)info;
	(void)ctx;
	return 1;
}

static int call_perfev_list_events(const void *opts)
{
	return perfev_list_events(opts, first_event, NULL);
}

static struct perfev_evlist *task_clock_list(void)
{
	struct perfev_evlist *el = perfev_evlist__new();

	assert_non_null(el);
	assert_int_equal(perfev_evlist__add_events(el, "task-clock"), 0);
	return el;
}

static int call_perfev_evlist__open(const void *opts)
{
	struct perfev_evlist *el = task_clock_list();
	int ret = perfev_evlist__open(el, opts);

	perfev_evlist__delete(el);
	return ret;
}

static int call_perfev_evlist__mmap(const void *opts)
{
	struct perfev_evlist *el = task_clock_list();
	struct perfev_open_opts o = { .sz = sizeof(o) };
	int ret;

	assert_int_equal(perfev_evlist__open(el, &o), 0);
	ret = perfev_evlist__mmap(el, opts);
	del_evlist(el);
	return ret;
}

static int call_perfev_ring__new(const void *opts)
{
	return ptr_result(perfev_ring__new(self_fd, opts), del_ring);
}

static int call_perfev_data_writer__new(const void *opts)
{
	int fd = open(data_path, O_RDWR), ret;

	assert_true(fd >= 0);
	/* A writer that starts nothing writes nothing: the file stays as it is. */
	ret = ptr_result(perfev_data_writer__new(fd, opts), del_writer);
	close(fd);
	return ret;
}

static int call_perfev_data_writer__write_ring(const void *opts)
{
	struct perfev_data_writer_opts wo = { .sz = sizeof(wo) };
	struct perfev_evlist *el = task_clock_list();
	struct perfev_open_opts oo = { .sz = sizeof(oo) };
	struct perfev_mmap_opts mo = { .sz = sizeof(mo), .data_pages = 1 };
	struct perf_event_attr *attr;
	struct perfev_data_writer *w;
	int fd = open("/dev/null", O_WRONLY), ret;

	assert_true(fd >= 0);
	attr = perfev_evsel__attr(perfev_evlist__next_evsel(el, NULL));
	attr->sample_period = 1000000;
	attr->sample_type = PERF_SAMPLE_IP;
	assert_int_equal(perfev_evlist__open(el, &oo), 0);
	assert_int_equal(perfev_evlist__mmap(el, &mo), 0);
	w = perfev_data_writer__new(fd, &wo);
	assert_non_null(w);
	assert_int_equal(perfev_data_writer__add_attr(w, attr, NULL, 0, "task-clock"), 0);
	assert_int_equal(perfev_data_writer__start(w), 0);
	ret = (int)perfev_data_writer__write_ring(w, perfev_evlist__ring(el, 0), opts);
	perfev_data_writer__delete(w);
	perfev_evlist__delete(el);
	close(fd);
	return ret;
}

static int call_perfev_data_reader__open(const void *opts)
{
	return ptr_result(perfev_data_reader__open(data_path, opts), del_reader);
}

static int call_perfev_data_reader__new_fd(const void *opts)
{
	int fd = open(data_path, O_RDONLY), ret;

	assert_true(fd >= 0);
	ret = ptr_result(perfev_data_reader__new_fd(fd, opts), del_reader);
	close(fd);
	return ret;
}

static int call_perfev_data_reader__new_mem(const void *opts)
{
	return ptr_result(perfev_data_reader__new_mem(data_mem, data_len, opts), del_reader);
}

static int call_perfev_profile__new(const void *opts)
{
	return ptr_result(perfev_profile__new(opts), del_profile);
}

static void del_profile_table(void *t)
{
	perfev_profile_table__delete(t);
}

static int call_perfev_profile_table__new(const void *opts)
{
	struct perfev_profile *p = perfev_profile__new(NULL);
	int ret;

	assert_non_null(p);
	ret = ptr_result(perfev_profile_table__new(p, opts), del_profile_table);
	perfev_profile__delete(p);
	return ret;
}

static int call_perfev_profile_diff__new(const void *opts)
{
	const struct perfev_profile *p[2] = { perfev_profile__new(NULL), perfev_profile__new(NULL) };
	struct perfev_profile_diff *d;
	int ret = 0;

	assert_non_null(p[0]);
	assert_non_null(p[1]);
	d = perfev_profile_diff__new(p, 2, opts);
	if (!d)
		ret = -errno;
	perfev_profile_diff__delete(d);
	perfev_profile__delete((struct perfev_profile *)p[0]);
	perfev_profile__delete((struct perfev_profile *)p[1]);
	return ret;
}

static int call_perfev_profile__zoom(const void *opts)
{
	struct perfev_profile *p = perfev_profile__new(NULL);
	int ret;

	assert_non_null(p);
	ret = ptr_result(perfev_profile__zoom(p, opts), del_profile);
	perfev_profile__delete(p);
	return ret;
}

static int call_perfev_session__new_live(const void *opts)
{
	return ptr_result(perfev_session__new_live(self_el, opts), del_session);
}

static int call_perfev_selfmon__new(const void *opts)
{
	return ptr_result(perfev_selfmon__new(self_fd, opts), del_selfmon);
}

static int call_perfev_selfmon__new_group(const void *opts)
{
	return ptr_result(perfev_selfmon__new_group(&self_fd, 1, opts), del_selfmon);
}

static int call_perfev_selfmon__new_evsel(const void *opts)
{
	return ptr_result(perfev_selfmon__new_evsel(perfev_evlist__next_evsel(self_el, NULL), opts),
			  del_selfmon);
}

static int call_perfev_session__open(const void *opts)
{
	return ptr_result(perfev_session__open(data_path, opts), del_session);
}

static void del_sample_filter(void *f)
{
	perfev_sample_filter__delete(f);
}

static int call_perfev_sample_filter__new(const void *opts)
{
	return ptr_result(perfev_sample_filter__new(opts), del_sample_filter);
}

static int call_perfev_symbolizer__new(const void *opts)
{
	return ptr_result(perfev_symbolizer__new(opts), del_symbolizer);
}

static void del_workload(void *p)
{
	perfev_workload__delete(p);
}

static int call_perfev_workload__new_opts(const void *opts)
{
	char *argv[] = { "true", NULL };

	return ptr_result(perfev_workload__new_opts(argv, opts), del_workload);
}

static int call_perfev_unwinder__new(const void *opts)
{
	return ptr_result(perfev_unwinder__new(opts), del_unwinder);
}

static void del_annotation(void *p)
{
	perfev_annotation__delete(p);
}

static void del_sources(void *p)
{
	perfev_sources__delete(p);
}

/* This function's own address in this program's file, from the map /proc/self/maps shows. */
static uint64_t own_code(struct perfev_dso *d)
{
	uint64_t ip = (uint64_t)(uintptr_t)own_code, start, end, pgoff;
	char line[512];
	FILE *f = fopen("/proc/self/maps", "r");

	assert_non_null(f);
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%" SCNx64 "-%" SCNx64 " %*s %" SCNx64, &start, &end, &pgoff) == 3 &&
		    ip >= start && ip < end) {
			fclose(f);
			return perfev_dso__map_ip(d, ip, start, pgoff);
		}
	fclose(f);
	fail_msg("no map of this program holds %#" PRIx64, ip);
	return 0;
}

static int call_perfev_annotation__new(const void *opts)
{
	struct perfev_symbolizer *sy = perfev_symbolizer__new(NULL);
	struct perfev_annotate_hist *h = perfev_annotate_hist__new();
	struct perfev_dso *d = perfev_symbolizer__dso(sy, "/proc/self/exe", NULL, 0);
	uint64_t at = own_code(d);
	int ret = ptr_result(perfev_annotation__new(h, 0, d, at, at + 16, opts), del_annotation);

	perfev_annotate_hist__delete(h);
	perfev_symbolizer__delete(sy);
	return ret;
}

static int call_perfev_sources__new(const void *opts)
{
	return ptr_result(perfev_sources__new(opts), del_sources);
}

static void del_sched(void *p)
{
	perfev_sched__delete(p);
}

static int call_perfev_sched__new(const void *opts)
{
	return ptr_result(perfev_sched__new(opts), del_sched);
}

/* ---- layouts ---- */

struct layout {
	const char *type, *field; /* field NULL: the struct's size */
	size_t got, want;
	size_t got_size, want_size;
};

#define S(type, size) { #type, NULL, sizeof(struct type), size, 0, 0 }
#define F(type, field, off, size)                                                                  \
	{ #type, #field, offsetof(struct type, field), off, sizeof(((struct type *)0)->field), size }

/*
 * The options structs and the records field by field, and the size of every
 * other struct a caller allocates or indexes an array of: a change here
 * breaks programs built against the released headers.
 */
static const struct layout layouts[] = {
	S(perfev_list_opts, 32),
	F(perfev_list_opts, sz, 0, 8),
	F(perfev_list_opts, kinds, 8, 4),
	F(perfev_list_opts, filter, 16, 8),
	F(perfev_list_opts, only_openable, 24, 1),
	S(perfev_open_opts, 56),
	F(perfev_open_opts, sz, 0, 8),
	F(perfev_open_opts, pid, 8, 4),
	F(perfev_open_opts, cpus, 16, 8),
	F(perfev_open_opts, system_wide, 24, 1),
	F(perfev_open_opts, attach_all_threads, 25, 1),
	F(perfev_open_opts, inherit, 26, 1),
	F(perfev_open_opts, enable_on_exec, 27, 1),
	F(perfev_open_opts, start_disabled, 28, 1),
	F(perfev_open_opts, skip_unsupported, 29, 1),
	F(perfev_open_opts, cgroup, 32, 8),
	F(perfev_open_opts, cpu_map, 40, 8),
	F(perfev_open_opts, fallback_user_only, 48, 1),
	F(perfev_open_opts, reserved_, 49, 7),
	S(perfev_mmap_opts, 32),
	F(perfev_mmap_opts, sz, 0, 8),
	F(perfev_mmap_opts, data_pages, 8, 8),
	F(perfev_mmap_opts, overwrite, 16, 1),
	F(perfev_mmap_opts, aux_pages, 24, 8),
	S(perfev_data_writer_opts, 48),
	F(perfev_data_writer_opts, sz, 0, 8),
	F(perfev_data_writer_opts, pipe, 8, 1),
	F(perfev_data_writer_opts, compress_level, 12, 4),
	F(perfev_data_writer_opts, argc, 16, 4),
	F(perfev_data_writer_opts, argv, 24, 8),
	F(perfev_data_writer_opts, header_sync_ms, 32, 4),
	F(perfev_data_writer_opts, off_cpu_thresh_ns, 40, 8),
	S(perfev_write_ring_opts, 32),
	F(perfev_write_ring_opts, sz, 0, 8),
	F(perfev_write_ring_opts, types, 8, 8),
	F(perfev_write_ring_opts, fn, 16, 8),
	F(perfev_write_ring_opts, ctx, 24, 8),
	S(perfev_data_reader_opts, 24),
	F(perfev_data_reader_opts, sz, 0, 8),
	F(perfev_data_reader_opts, warn, 8, 8),
	F(perfev_data_reader_opts, warn_ctx, 16, 8),
	S(perfev_profile_opts, 16),
	F(perfev_profile_opts, sz, 0, 8),
	F(perfev_profile_opts, srcline, 8, 1),
	F(perfev_profile_opts, inlines, 9, 1),
	F(perfev_profile_opts, merge_threads, 10, 1),
	F(perfev_profile_opts, merge_pids, 11, 1),
	F(perfev_profile_opts, background, 12, 1),
	S(perfev_profile_table_opts, 32),
	F(perfev_profile_table_opts, sz, 0, 8),
	F(perfev_profile_table_opts, keys, 8, 8),
	F(perfev_profile_table_opts, nr_keys, 16, 8),
	F(perfev_profile_table_opts, children, 24, 1),
	S(perfev_profile_diff_opts, 88),
	F(perfev_profile_diff_opts, sz, 0, 8),
	F(perfev_profile_diff_opts, keys, 8, 8),
	F(perfev_profile_diff_opts, nr_keys, 16, 8),
	F(perfev_profile_diff_opts, compute, 24, 4),
	F(perfev_profile_diff_opts, wdiff_base, 32, 8),
	F(perfev_profile_diff_opts, wdiff_new, 40, 8),
	F(perfev_profile_diff_opts, order, 48, 4),
	F(perfev_profile_diff_opts, order_baseline, 52, 1),
	F(perfev_profile_diff_opts, baseline_only, 53, 1),
	F(perfev_profile_diff_opts, comms, 56, 8),
	F(perfev_profile_diff_opts, dsos, 64, 8),
	F(perfev_profile_diff_opts, syms, 72, 8),
	F(perfev_profile_diff_opts, relative, 80, 1),
	S(perfev_profile_diff_cell, 48),
	F(perfev_profile_diff_cell, period, 0, 8),
	F(perfev_profile_diff_cell, samples, 8, 8),
	F(perfev_profile_diff_cell, share, 16, 8),
	F(perfev_profile_diff_cell, delta, 24, 8),
	F(perfev_profile_diff_cell, ratio, 32, 8),
	F(perfev_profile_diff_cell, wdiff, 40, 8),
	S(perfev_profile_diff_row, 16),
	F(perfev_profile_diff_row, profile, 0, 4),
	F(perfev_profile_diff_row, entry, 4, 4),
	F(perfev_profile_diff_row, cells, 8, 8),
	S(perfev_profile_zoom_opts, 32),
	F(perfev_profile_zoom_opts, sz, 0, 8),
	F(perfev_profile_zoom_opts, by_thread, 8, 1),
	F(perfev_profile_zoom_opts, thread, 12, 4),
	F(perfev_profile_zoom_opts, comm, 16, 8),
	F(perfev_profile_zoom_opts, by_frame, 24, 1),
	F(perfev_profile_zoom_opts, frame, 28, 4),
	S(perfev_ring_opts, 32),
	F(perfev_ring_opts, sz, 0, 8),
	F(perfev_ring_opts, data_pages, 8, 8),
	F(perfev_ring_opts, overwrite, 16, 1),
	F(perfev_ring_opts, aux_pages, 24, 8),
	S(perfev_selfmon_opts, 24),
	F(perfev_selfmon_opts, sz, 0, 8),
	F(perfev_selfmon_opts, attr, 8, 8),
	F(perfev_selfmon_opts, attached, 16, 1),
	F(perfev_selfmon_opts, force_syscall, 17, 1),
	F(perfev_selfmon_opts, precise_times, 18, 1),
	S(perfev_session_opts, 64),
	F(perfev_session_opts, sz, 0, 8),
	F(perfev_session_opts, symbolizer, 8, 8),
	F(perfev_session_opts, reader_opts, 16, 8),
	F(perfev_session_opts, file_order, 24, 1),
	F(perfev_session_opts, no_unwind, 25, 1),
	F(perfev_session_opts, max_frames, 28, 4),
	F(perfev_session_opts, filter, 32, 8),
	F(perfev_session_opts, no_symbols, 40, 1),
	F(perfev_session_opts, off_cpu, 41, 1),
	F(perfev_session_opts, off_cpu_thresh_ns, 48, 8),
	F(perfev_session_opts, read_ahead, 56, 1),
	S(perfev_sample_filter_opts, 56),
	F(perfev_sample_filter_opts, sz, 0, 8),
	F(perfev_sample_filter_opts, comms, 8, 8),
	F(perfev_sample_filter_opts, pids, 16, 8),
	F(perfev_sample_filter_opts, tids, 24, 8),
	F(perfev_sample_filter_opts, dsos, 32, 8),
	F(perfev_sample_filter_opts, events, 40, 8),
	F(perfev_sample_filter_opts, time, 48, 8),
	S(perfev_symbolizer_opts, 80),
	F(perfev_symbolizer_opts, sz, 0, 8),
	F(perfev_symbolizer_opts, root, 8, 8),
	F(perfev_symbolizer_opts, debug_dir, 16, 8),
	F(perfev_symbolizer_opts, buildid_dir, 24, 8),
	F(perfev_symbolizer_opts, kallsyms, 32, 8),
	F(perfev_symbolizer_opts, jit_dir, 40, 8),
	F(perfev_symbolizer_opts, no_demangle, 48, 1),
	F(perfev_symbolizer_opts, demangle_params, 49, 1),
	F(perfev_symbolizer_opts, warn, 56, 8),
	F(perfev_symbolizer_opts, warn_ctx, 64, 8),
	F(perfev_symbolizer_opts, symcache_dir, 72, 8),
	S(perfev_annotate_opts, 16),
	F(perfev_annotate_opts, sz, 0, 8),
	F(perfev_annotate_opts, no_lines, 8, 1),
	S(perfev_sources_opts, 24),
	F(perfev_sources_opts, sz, 0, 8),
	F(perfev_sources_opts, prefix, 8, 8),
	F(perfev_sources_opts, prefix_strip, 16, 4),
	F(perfev_sources_opts, no_debuginfod, 20, 1),
	S(perfev_sched_opts, 16),
	F(perfev_sched_opts, sz, 0, 8),
	F(perfev_sched_opts, per_thread, 8, 1),
	F(perfev_sched_opts, migrations, 9, 1),
	F(perfev_sched_opts, wakeups, 10, 1),
	F(perfev_sched_opts, perf61, 11, 1),
	S(perfev_unwinder_opts, 16),
	F(perfev_unwinder_opts, sz, 0, 8),
	F(perfev_unwinder_opts, debuginfo_path, 8, 8),
	S(perfev_workload_opts, 16),
	F(perfev_workload_opts, sz, 0, 8),
	F(perfev_workload_opts, parent_death_signal, 8, 4),
	S(perfev_sample_fmt, 48),
	F(perfev_sample_fmt, sample_type, 0, 8),
	F(perfev_sample_fmt, read_format, 8, 8),
	F(perfev_sample_fmt, sample_regs_user, 16, 8),
	F(perfev_sample_fmt, sample_regs_intr, 24, 8),
	F(perfev_sample_fmt, branch_sample_type, 32, 8),
	F(perfev_sample_fmt, sample_id_all, 40, 1),
	S(perfev_sample, 344),
	F(perfev_sample, sample_type, 0, 8),
	F(perfev_sample, identifier, 8, 8),
	F(perfev_sample, ip, 16, 8),
	F(perfev_sample, pid, 24, 4),
	F(perfev_sample, tid, 28, 4),
	F(perfev_sample, time, 32, 8),
	F(perfev_sample, addr, 40, 8),
	F(perfev_sample, id, 48, 8),
	F(perfev_sample, stream_id, 56, 8),
	F(perfev_sample, cpu, 64, 4),
	F(perfev_sample, cpu_res, 68, 4),
	F(perfev_sample, period, 72, 8),
	F(perfev_sample, read, 80, 32),
	F(perfev_sample, callchain, 112, 16),
	F(perfev_sample, raw, 128, 16),
	F(perfev_sample, branch, 144, 40),
	F(perfev_sample, regs_user, 184, 32),
	F(perfev_sample, regs_intr, 216, 32),
	F(perfev_sample, stack_user, 248, 24),
	F(perfev_sample, weight, 272, 8),
	F(perfev_sample, data_src, 280, 8),
	F(perfev_sample, transaction, 288, 8),
	F(perfev_sample, phys_addr, 296, 8),
	F(perfev_sample, cgroup, 304, 8),
	F(perfev_sample, data_page_size, 312, 8),
	F(perfev_sample, code_page_size, 320, 8),
	F(perfev_sample, aux, 328, 16),
	S(perfev_sample_id, 48),
	F(perfev_sample_id, pid, 0, 4),
	F(perfev_sample_id, tid, 4, 4),
	F(perfev_sample_id, time, 8, 8),
	F(perfev_sample_id, id, 16, 8),
	F(perfev_sample_id, stream_id, 24, 8),
	F(perfev_sample_id, cpu, 32, 4),
	F(perfev_sample_id, cpu_res, 36, 4),
	F(perfev_sample_id, identifier, 40, 8),
	S(perfev_record, 416),
	F(perfev_record, type, 0, 4),
	F(perfev_record, misc, 4, 2),
	F(perfev_record, size, 6, 2),
	F(perfev_record, data, 8, 8),
	F(perfev_record, has_sample_id, 16, 1),
	F(perfev_record, sample_id, 24, 48),
	F(perfev_record, mmap, 72, 40),
	F(perfev_record, mmap2, 72, 88),
	F(perfev_record, lost, 72, 16),
	F(perfev_record, comm, 72, 16),
	F(perfev_record, task, 72, 24),
	F(perfev_record, throttle, 72, 24),
	F(perfev_record, read, 72, 32),
	F(perfev_record, sample, 72, 344),
	F(perfev_record, aux, 72, 24),
	F(perfev_record, itrace_start, 72, 8),
	F(perfev_record, lost_samples, 72, 8),
	F(perfev_record, context_switch, 72, 8),
	F(perfev_record, namespaces, 72, 24),
	F(perfev_record, ksymbol, 72, 24),
	F(perfev_record, bpf_event, 72, 16),
	F(perfev_record, cgroup, 72, 16),
	F(perfev_record, text_poke, 72, 24),
	F(perfev_record, aux_output_hw_id, 72, 8),
	F(perfev_record, unknown, 72, 16),
	S(perfev_event_info, 32),
	S(perfev_counts, 40),
	S(perfev_cpu_topology, 16),
	S(perfev_data_build_id, 40),
	S(perfev_data_event, 440),
	S(perfev_profile_frame, 56),
	S(perfev_profile_thread, 16),
	S(perfev_profile_node, 56),
	S(perfev_profile_entry, 32),
	S(perfev_span, 16),
	S(perfev_ring_stats, 64),
	S(perfev_selfmon_value, 32),
	S(perfev_selfmon_stats, 32),
	S(perfev_selfmon_time, 48),
	S(perfev_region_counts, 32),
	S(perfev_map, 48),
	S(perfev_frame, 48),
	S(perfev_session_sample, 56),
	F(perfev_session_sample, off_cpu_state, 48, 1),
	S(perfev_session_stats, 128),
	F(perfev_session_stats, nr_off_cpu, 88, 8),
	F(perfev_session_stats, nr_off_cpu_open, 120, 8),
	S(perfev_symbol, 32),
	S(perfev_srcline, 16),
	S(perfev_inline_frame, 24),
	S(perfev_proc_map, 64),
	S(perfev_unwind_map, 32),
	S(perfev_annotate_sym, 40),
	S(perfev_annotation_info, 96),
	S(perfev_annotate_insn, 120),
	S(perfev_annotate_line, 80),
};

/* ---- the options structs ---- */

struct opts_case {
	const char *type;
	const char *entry;
	size_t size;  /* sizeof, as this program was built */
	size_t first; /* the end of the struct's first version */
	int (*call)(const void *opts);
};

/* FIRST: the last field of the struct's first version (sz and the field after it). */
#define CASE(type, first, entry)                                                                   \
	{ "struct " #type, #entry, sizeof(struct type), offsetofend(struct type, first),           \
	  call_##entry }

/* Where the last field of c's struct ends, by the table. */
static size_t fields_end(const struct opts_case *c)
{
	size_t end = 0;

	for (size_t j = 0; j < sizeof(layouts) / sizeof(layouts[0]); j++) {
		const struct layout *l = &layouts[j];

		if (l->field && !strcmp(c->type + strlen("struct "), l->type) &&
		    l->got + l->got_size > end)
			end = l->got + l->got_size;
	}
	assert_true(end > 0);
	return end;
}

static const struct opts_case cases[] = {
	CASE(perfev_list_opts, kinds, perfev_list_events),
	CASE(perfev_open_opts, pid, perfev_evlist__open),
	CASE(perfev_mmap_opts, data_pages, perfev_evlist__mmap),
	CASE(perfev_ring_opts, data_pages, perfev_ring__new),
	CASE(perfev_data_writer_opts, pipe, perfev_data_writer__new),
	CASE(perfev_write_ring_opts, types, perfev_data_writer__write_ring),
	CASE(perfev_data_reader_opts, warn, perfev_data_reader__open),
	CASE(perfev_data_reader_opts, warn, perfev_data_reader__new_fd),
	CASE(perfev_data_reader_opts, warn, perfev_data_reader__new_mem),
	CASE(perfev_profile_opts, srcline, perfev_profile__new),
	CASE(perfev_profile_table_opts, children, perfev_profile_table__new),
	CASE(perfev_profile_diff_opts, relative, perfev_profile_diff__new),
	CASE(perfev_profile_zoom_opts, frame, perfev_profile__zoom),
	CASE(perfev_selfmon_opts, attr, perfev_selfmon__new),
	CASE(perfev_selfmon_opts, attr, perfev_selfmon__new_group),
	CASE(perfev_selfmon_opts, attr, perfev_selfmon__new_evsel),
	CASE(perfev_session_opts, symbolizer, perfev_session__open),
	CASE(perfev_session_opts, symbolizer, perfev_session__new_live),
	CASE(perfev_sample_filter_opts, time, perfev_sample_filter__new),
	CASE(perfev_symbolizer_opts, root, perfev_symbolizer__new),
	CASE(perfev_unwinder_opts, debuginfo_path, perfev_unwinder__new),
	CASE(perfev_workload_opts, parent_death_signal, perfev_workload__new_opts),
	CASE(perfev_annotate_opts, no_lines, perfev_annotation__new),
	CASE(perfev_sources_opts, no_debuginfod, perfev_sources__new),
	CASE(perfev_sched_opts, perf61, perfev_sched__new),
};

/* A caller's struct of sz bytes, all zero (the defaults) but sz and the byte at set_at. */
static int call_with(const struct opts_case *c, size_t sz, size_t set_at)
{
	union {
		unsigned char b[512];
		max_align_t align;
	} buf;

	assert_true(c->size + 16 <= sizeof(buf.b));
	memset(&buf, 0, sizeof(buf));
	memcpy(buf.b, &sz, sizeof(sz));
	if (set_at)
		buf.b[set_at] = 0x5a;
	errno = 0;
	return c->call(buf.b);
}

static int failures;

static void expect(const struct opts_case *c, const char *what, size_t sz, size_t set_at, bool ok)
{
	int ret = call_with(c, sz, set_at);
	char why[160];

	if (ok && ret >= 0)
		return;
	if (!ok && ret == -EINVAL && strstr(perfev_last_error(), c->type)) {
		snprintf(why, sizeof(why), "set .sz = sizeof(%s)", c->type);
		if (strstr(perfev_last_error(), why))
			return;
	}
	print_error("%s (%s): %s, sz %zu: got %d (%s), want %s\n", c->entry, c->type, what, sz,
		    ret, perfev_last_error(),
		    ok ? "success" : "-EINVAL explained, naming the struct and what to set");
	failures++;
}

static void test_options_structs(void **state)
{
	(void)state;
	failures = 0;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct opts_case *c = &cases[i];

		assert_true(c->first <= c->size);
		expect(c, "the first version's size", c->first, 0, true);
		if (c->size - 8 >= c->first)
			expect(c, "an older caller's (sizeof - 8)", c->size - 8, 0, true);
		expect(c, "its own size", c->size, 0, true);
		if (fields_end(c) < c->size)
			expect(c, "its own size, its padding not zeroed (as clang leaves it)", c->size,
			       fields_end(c), true);
		expect(c, "a newer caller's, its new field zero", c->size + 8, 0, true);
		expect(c, "a newer caller's, its new field set", c->size + 8, c->size + 3, false);
		expect(c, "smaller than the first version", c->first - 1, 0, false);
		expect(c, "zero (never set)", 0, 0, false);
		expect(c, "no size any version could have", 1 << 20, 0, false);
		/* NULL: the defaults. */
		if (c->call(NULL) < 0) {
			print_error("%s (%s): NULL options fail: %s\n", c->entry, c->type,
				    perfev_last_error());
			failures++;
		}
	}
	assert_int_equal(failures, 0);
}

static void test_layouts(void **state)
{
	int bad = 0;

	(void)state;
#if !defined(__x86_64__) && !defined(__aarch64__)
	skip(); /* the figures are LP64's (x86-64, AArch64) */
#endif
	for (size_t i = 0; i < sizeof(layouts) / sizeof(layouts[0]); i++) {
		const struct layout *l = &layouts[i];

		if (l->got == l->want && l->got_size == l->want_size)
			continue;
		if (l->field)
			print_error("struct %s: .%s at %zu (%zu bytes), was at %zu (%zu bytes)\n",
				    l->type, l->field, l->got, l->got_size, l->want, l->want_size);
		else
			print_error("struct %s: %zu bytes, was %zu\n", l->type, l->got, l->want);
		bad++;
	}
	assert_int_equal(bad, 0);
}

static int setup(void **state)
{
	struct perfev_data_writer_opts wo = { .sz = sizeof(wo) };
	struct perf_event_attr a = { .size = sizeof(a), .type = PERF_TYPE_SOFTWARE,
				     .config = PERF_COUNT_SW_TASK_CLOCK, .sample_period = 100000,
				     .sample_type = PERF_SAMPLE_IP };
	struct perfev_open_opts oo = { .sz = sizeof(oo) };
	struct perfev_data_writer *w;
	FILE *f;
	int fd;

	(void)state;
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/perfev-abi-XXXXXX");
	if (!mkdtemp(tmpdir))
		return -1;
	/* A perf.data of one event and no records, for the readers. */
	snprintf(data_path, sizeof(data_path), "%s/abi.data", tmpdir);
	fd = open(data_path, O_RDWR | O_CREAT | O_TRUNC, 0644);
	w = fd < 0 ? NULL : perfev_data_writer__new(fd, &wo);
	if (!w || perfev_data_writer__add_attr(w, &a, NULL, 0, "task-clock") < 0 ||
	    perfev_data_writer__start(w) < 0 || perfev_data_writer__finish(w) < 0)
		return -1;
	perfev_data_writer__delete(w);
	close(fd);
	f = fopen(data_path, "rb");
	data_mem = malloc(1 << 16);
	if (!f || !data_mem)
		return -1;
	data_len = fread(data_mem, 1, 1 << 16, f);
	fclose(f);
	self_el = task_clock_list();
	a.sample_period = 0;
	a.sample_type = 0;
	a.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	self_fd = perfev_event_open(&a, 0, -1, -1, 0);
	if (self_fd < 0)
		return -1;
	return perfev_evlist__open(self_el, &oo);
}

static int teardown(void **state)
{
	char cmd[128];

	(void)state;
	perfev_evlist__delete(self_el);
	close(self_fd);
	free(data_mem);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	return system(cmd) == 0 ? 0 : -1;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_options_structs),
		cmocka_unit_test(test_layouts),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
