/*
 * The session over untrusted perf.data: records that fork, exec and map
 * anything anywhere, callchains of any length and context, group reads of
 * any shape, out of order in any round.  The input goes to a memfd that the
 * session opens by path; every sample's frames are read through and added
 * to a profile, whose nodes are then grouped into a report's entries.
 * Symbols are looked up in whatever files the records name (only regular
 * files are read); the kernel's are left out for speed.  Off-CPU time is
 * on: sched_switch samples are held, paired and delivered late.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "perfev/perfev.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static volatile uint64_t sink;

static void quiet(void *ctx, const char *msg)
{
	(void)ctx;
	sink += strlen(msg);
}

static int on_sample(void *ctx, const struct perfev_session_sample *s)
{
	struct perfev_profile *p = ctx;

	sink += strlen(perfev_thread__comm(s->thread)) + s->period;
	for (size_t i = 0; i < s->nr_frames; i++) {
		const struct perfev_frame *f = &s->frames[i];

		sink += f->ip + f->addr;
		if (f->map)
			sink += strlen(f->map->filename);
		if (f->sym)
			sink += strlen(f->sym->name);
	}
	return perfev_profile__add(p, s->thread, s->frames, s->nr_frames, s->period) ? 1 : 0;
}

/* The profile's entries by keys, as a report reads them: weights and each entry's nodes. */
static void read_table(const struct perfev_profile *p, const enum perfev_profile_key *keys, size_t n,
		       bool children)
{
	struct perfev_profile_table_opts to = { .sz = sizeof(to), .keys = keys, .nr_keys = n,
						.children = children };
	struct perfev_profile_table *t = perfev_profile_table__new(p, &to);

	if (!t)
		return;
	for (size_t i = 0; i < perfev_profile_table__nr_entries(t); i++) {
		const struct perfev_profile_entry *e = perfev_profile_table__entry(t, i);

		sink += e->self + e->children + e->samples + e->thread + e->frame;
		for (uint32_t nd = perfev_profile_table__first_node(t, i); nd != PERFEV_PROFILE_NONE;
		     nd = perfev_profile_table__next_node(t, nd))
			sink += perfev_profile_table__node_entry(t, nd);
	}
	perfev_profile_table__delete(t);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const enum perfev_profile_key report_keys[] = {
		PERFEV_PROFILE_KEY_COMM, PERFEV_PROFILE_KEY_DSO, PERFEV_PROFILE_KEY_SYM
	};
	static const enum perfev_profile_key all_keys[] = {
		PERFEV_PROFILE_KEY_COMM, PERFEV_PROFILE_KEY_PID, PERFEV_PROFILE_KEY_TID,
		PERFEV_PROFILE_KEY_DSO,	 PERFEV_PROFILE_KEY_SYM, PERFEV_PROFILE_KEY_SRCLINE
	};
	struct perfev_symbolizer_opts so = { .sz = sizeof(so), .kallsyms = "/nonexistent",
					     .jit_dir = "/nonexistent", .buildid_dir = "" };
	struct perfev_data_reader_opts ro = { .sz = sizeof(ro), .warn = quiet };
	/* Off-CPU time too: sched_switch samples paired with switch records, fields read raw. */
	struct perfev_session_opts o = { .sz = sizeof(o), .reader_opts = &ro, .no_unwind = true,
					 .max_frames = 64, .off_cpu = true,
					 .off_cpu_thresh_ns = size & 1 ? 1000 : 0 };
	struct perfev_session *s;
	struct perfev_profile *p;
	char path[64];
	int fd = memfd_create("fuzz_session", MFD_CLOEXEC);

	if (fd < 0 || write(fd, data, size) != (ssize_t)size) {
		if (fd >= 0)
			close(fd);
		return 0;
	}
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	o.symbolizer = perfev_symbolizer__new(&so);
	p = perfev_profile__new(NULL);
	s = o.symbolizer && p ? perfev_session__open(path, &o) : NULL;
	if (s) {
		perfev_session__process(s, on_sample, p);
		sink += perfev_session__stats(s)->nr_samples;
		read_table(p, report_keys, 3, true);
		read_table(p, all_keys, 6, false);
	}
	perfev_session__delete(s);
	perfev_profile__delete(p);
	perfev_symbolizer__delete(o.symbolizer);
	close(fd);
	return 0;
}
