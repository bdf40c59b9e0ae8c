/* SPDX-License-Identifier: MIT */
/* Opening a perf.data file for the commands that read one (report, script). */
#include <errno.h>
#include <string.h>

#include "cli.h"
#include "opt.h"
#include "perfev/perfev.h"

static void reader_warn(void *ctx, const char *msg)
{
	if (!*(const bool *)ctx)
		cli_note("warning: %s", msg);
}

/* Once per DSO whose recorded file is gone or rebuilt (the library says which, why, what to do). */
static void symbol_warn(void *ctx, const char *msg)
{
	if (!*(const bool *)ctx)
		cli_note("warning: %s", msg);
}

bool cli_filter_new(const struct cli_filters *cf, struct perfev_sample_filter **f)
{
	struct perfev_sample_filter_opts o = { .sz = sizeof(o), .comms = cf->comms, .pids = cf->pids,
					       .tids = cf->tids, .dsos = cf->dsos, .events = cf->events,
					       .time = cf->time };

	*f = NULL;
	if (!o.comms && !o.pids && !o.tids && !o.dsos && !o.events && !o.time)
		return true;
	*f = perfev_sample_filter__new(&o);
	if (!*f)
		cli_error("%s", perfev_last_error());
	return *f != NULL;
}

enum frames_wanted { ALL_FRAMES, LEAF, USER_LEAF };

static struct perfev_session *open_session(const char *input, bool no_demangle, const bool *quiet,
					   struct perfev_sample_filter *filter,
					   enum frames_wanted want, const struct cli_off_cpu *oc,
					   struct perfev_symbolizer **sy)
{
	struct perfev_symbolizer_opts so = { .sz = sizeof(so), .no_demangle = no_demangle,
					     .buildid_dir = cli_buildid_dir(),
					     .symcache_dir = cli_cache_dir(),
					     .warn = symbol_warn, .warn_ctx = (void *)quiet };
	/* The reader copies its options; quiet, its warnings' ctx, outlives the session. */
	struct perfev_data_reader_opts ro = { .sz = sizeof(ro), .warn = reader_warn,
					      .warn_ctx = (void *)quiet };
	struct perfev_session_opts o = { .sz = sizeof(o), .reader_opts = &ro, .filter = filter,
					 .off_cpu = oc != NULL,
					 .off_cpu_thresh_ns = oc ? oc->thresh_ns : 0,
					 .read_ahead = true };
	struct perfev_session *s;

	if (want == LEAF) {
		/* Where each sample was taken, and nothing of its callers: no chain walked or unwound. */
		o.max_frames = 1;
		o.no_unwind = true;
	}
	if (want == USER_LEAF) {
		/*
		 * Where only user code is looked into (kernel code is never read):
		 * kernel samples stay in the kernel unnamed, and /proc/kallsyms, a
		 * fifth of the time of such a reading, is not read.  Neither are
		 * callers resolved or stacks unwound that nobody will look at.
		 */
		so.kallsyms = "/dev/null";
		o.max_frames = 1;
		o.no_unwind = true;
	}

	*sy = perfev_symbolizer__new(&so);
	if (!*sy) {
		cli_error("%s", perfev_last_error());
		return NULL;
	}
	o.symbolizer = *sy;
	s = perfev_session__open(input, &o);
	if (!s) {
		if (errno == ENOENT && strcmp(input, "-"))
			cli_error("cannot open '%s': no such file; record one with 'perfev record' or "
				  "give another with -i", input);
		else
			cli_error("cannot read '%s': %s", input, perfev_last_error());
		perfev_symbolizer__delete(*sy);
		*sy = NULL;
	}
	return s;
}

struct perfev_session *cli_session_open(const char *input, bool no_demangle, const bool *quiet,
					struct perfev_sample_filter *filter,
					struct perfev_symbolizer **sy)
{
	return open_session(input, no_demangle, quiet, filter, ALL_FRAMES, NULL, sy);
}

/* Whether perfev record --off-cpu made the recording, and with what --off-cpu-thresh. */
static bool recorded_off_cpu(const char *input, uint64_t *thresh)
{
	struct perfev_data_reader_opts ro = { .sz = sizeof(ro), .warn = NULL };
	struct perfev_data_reader *r;
	const char *const *argv;
	bool on = false, record = false;
	int argc;

	*thresh = 0;
	if (!strcmp(input, "-") || !(r = perfev_data_reader__open(input, &ro)))
		return false;
	if (perfev_data_reader__cmdline(r, &argc, &argv) == 0) {
		for (int i = 0; i < argc && argv[i]; i++) {
			const char *v = NULL;

			if (!strcmp(argv[i], "--"))
				break;
			if (!strcmp(argv[i], "record"))
				record = true;
			else if (!strcmp(argv[i], "--off-cpu"))
				on = true;
			else if (!strcmp(argv[i], "--off-cpu-thresh") && i + 1 < argc)
				v = argv[++i];
			else if (!strncmp(argv[i], "--off-cpu-thresh=", 17))
				v = argv[i] + 17;
			if (v && !cli_duration(v, thresh))
				*thresh = 0;
		}
	}
	perfev_data_reader__delete(r);
	return record && on;
}

struct perfev_session *cli_session_open_off_cpu(const char *input, bool no_demangle,
						const bool *quiet,
						struct perfev_sample_filter *filter,
						const struct cli_off_cpu *oc, bool leaf, bool *on,
						struct perfev_symbolizer **sy)
{
	struct cli_off_cpu use = *oc;
	uint64_t thresh = 0;

	*on = oc->mode == OFF_CPU_ON;
	if (oc->mode != OFF_CPU_OFF && recorded_off_cpu(input, &thresh)) {
		*on = true;
		if (!oc->thresh_given)
			use.thresh_ns = thresh;
	}
	/* Waits need their state frame and where they waited: never only the leaf. */
	return open_session(input, no_demangle, quiet, filter, leaf && !*on ? LEAF : ALL_FRAMES,
			    *on ? &use : NULL, sy);
}

struct perfev_session *cli_session_open_first_frame(const char *input, bool no_demangle,
						    const bool *quiet,
						    struct perfev_sample_filter *filter,
						    struct perfev_symbolizer **sy)
{
	return open_session(input, no_demangle, quiet, filter, USER_LEAF, NULL, sy);
}
