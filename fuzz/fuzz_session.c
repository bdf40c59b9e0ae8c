/*
 * The session over untrusted perf.data: records that fork, exec and map
 * anything anywhere, callchains of any length and context, group reads of
 * any shape, out of order in any round.  The input goes to a memfd that the
 * session opens by path; every sample's frames are read through and added
 * to a profile.  Symbols are looked up in whatever files the records name
 * (only regular files are read); the kernel's are left out for speed.
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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct perfev_symbolizer_opts so = { .sz = sizeof(so), .kallsyms = "/nonexistent",
					     .jit_dir = "/nonexistent", .buildid_dir = "" };
	struct perfev_data_reader_opts ro = { .sz = sizeof(ro), .warn = quiet };
	struct perfev_session_opts o = { .sz = sizeof(o), .reader_opts = &ro, .no_unwind = true,
					 .max_frames = 64 };
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
	}
	perfev_session__delete(s);
	perfev_profile__delete(p);
	perfev_symbolizer__delete(o.symbolizer);
	close(fd);
	return 0;
}
