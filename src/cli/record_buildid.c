/* SPDX-License-Identifier: MIT */
/*
 * perfev record's last step, as perf record's: every file with samples
 * (at the sampled IP or anywhere in a callchain) goes into the build-id
 * cache, so a report finds it by build id after it was rebuilt or
 * removed; then the cache is trimmed to its size, oldest entries first.
 * Which files had samples comes from reading the finished recording back
 * with maps only, no symbols: the same maps a report will see.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "record.h"

/* The DSOs seen, by pointer (a session gives one per file and build id). */
struct hits {
	struct perfev_dso **slot;
	size_t cap, nr;
	bool nomem;
};

static bool hits_add(struct hits *h, struct perfev_dso *d)
{
	size_t i;

	if ((h->nr + 1) * 2 > h->cap) {
		size_t cap = h->cap ? h->cap * 2 : 64;
		struct perfev_dso **n = calloc(cap, sizeof(*n));

		if (!n)
			return false;
		for (i = 0; i < h->cap; i++) {
			size_t j;

			if (!h->slot[i])
				continue;
			for (j = ((uintptr_t)h->slot[i] >> 4) & (cap - 1); n[j]; j = (j + 1) & (cap - 1))
				;
			n[j] = h->slot[i];
		}
		free(h->slot);
		h->slot = n;
		h->cap = cap;
	}
	for (i = ((uintptr_t)d >> 4) & (h->cap - 1); h->slot[i]; i = (i + 1) & (h->cap - 1))
		if (h->slot[i] == d)
			return true;
	h->slot[i] = d;
	h->nr++;
	return true;
}

static int on_sample(void *ctx, const struct perfev_session_sample *s)
{
	struct hits *h = ctx;

	for (size_t i = 0; i < s->nr_frames; i++) {
		const struct perfev_frame *f = &s->frames[i];

		if (f->kernel || !f->dso || perfev_dso__is_kernel(f->dso))
			continue;
		if (!hits_add(h, f->dso)) {
			h->nomem = true;
			return 1;
		}
	}
	return 0;
}

/* A mapped name that can be a file on disk ("[vdso]", "//anon", "/memfd:x (deleted)" cannot). */
static bool file_name(const char *n)
{
	size_t len = strlen(n);

	return n[0] == '/' && n[1] != '/' && strncmp(n, "/memfd:", 7) &&
	       !(len > 10 && !strcmp(n + len - 10, " (deleted)"));
}

/* bytes as "N KiB", "N MiB" or "N GiB", whichever keeps N small and not 0. */
static const char *human(uint64_t bytes, char *buf, size_t size)
{
	if (bytes >= (10ull << 30))
		snprintf(buf, size, "%llu GiB", (unsigned long long)(bytes >> 30));
	else if (bytes >= (10ull << 20))
		snprintf(buf, size, "%llu MiB", (unsigned long long)(bytes >> 20));
	else
		snprintf(buf, size, "%llu KiB", (unsigned long long)((bytes + 1023) >> 10));
	return buf;
}

void record_buildid_cache(const char *path, time_t started, bool quiet)
{
	const char *dir = cli_buildid_dir();
	struct perfev_session_opts so = { .sz = sizeof(so), .no_unwind = true, .no_symbols = true };
	struct perfev_data_reader_opts ro = { .sz = sizeof(ro) };
	struct perfev_buildid_cache_usage u;
	struct perfev_session *s;
	struct hits h = { 0 };
	unsigned added = 0, failed = 0;
	char first[1024] = "";
	uint64_t max = cli_buildid_cache_max();

	if (!*dir)
		return;
	so.reader_opts = &ro;
	s = perfev_session__open(path, &so);
	if (!s) {
		if (!quiet)
			cli_note("the build-id cache was not updated: reading '%s' back failed: %s",
				 path, perfev_last_error());
		return;
	}
	if (perfev_session__process(s, on_sample, &h) < 0 && !quiet)
		cli_note("reading '%s' back for the build-id cache stopped early: %s", path,
			 perfev_last_error());
	if (h.nomem && !quiet)
		cli_note("out of memory listing the files with samples; the build-id cache may miss "
			 "some");
	for (size_t i = 0; i < h.cap; i++) {
		struct perfev_dso *d = h.slot ? h.slot[i] : NULL;
		uint8_t id[PERFEV_BUILD_ID_MAX];
		const char *name, *dbg;
		size_t n;
		int ret;

		if (!d)
			continue;
		name = perfev_dso__name(d);
		if (!strcmp(name, "[vdso]")) {
			/* No file: this process's own image, when it is the one recorded. */
			n = perfev_dso__build_id(d, id, sizeof(id));
			ret = n ? perfev_buildid_cache__add_vdso(dir, id, n) : 0;
			if (ret > 0)
				added++;
			else if (ret < 0 && ret != -ESTALE && !failed++)
				snprintf(first, sizeof(first), "%s", perfev_last_error());
			continue;
		}
		if (!file_name(name))
			continue;
		n = perfev_dso__build_id(d, id, sizeof(id));
		if (!n) {
			/* The kernel gave none (MMAP records): the file's, read now as perf does. */
			ret = perfev_build_id__read(name, id, sizeof(id));
			if (ret <= 0)
				continue;
			n = (size_t)ret;
		}
		ret = perfev_buildid_cache__add(dir, name, id, n);
		if (ret > 0)
			added++;
		/* A stripped file is of little use alone: its debug file goes along, as perf keeps it. */
		if (ret >= 0 && (dbg = perfev_dso__debug_file(d)) &&
		    (ret = perfev_buildid_cache__add_debug(dir, name, id, n, dbg)) > 0)
			added++;
		/* A file gone or not ELF was never going to be cached: only real failures are said. */
		if (ret < 0 && ret != -ENOENT && ret != -PERFEV_ERR_FORMAT && ret != -EINVAL) {
			if (!failed++)
				snprintf(first, sizeof(first), "%s", perfev_last_error());
		}
	}
	free(h.slot);
	perfev_session__delete(s);
	if (failed && !quiet)
		cli_note("%u of the files with samples could not be kept in the build-id cache %s, so "
			 "reports after they change will lack their symbols: %s",
			 failed, dir, first);
	if (!added)
		return;
	if (perfev_buildid_cache__trim(dir, max, (int64_t)started, &u) < 0) {
		if (!quiet)
			cli_note("%s", perfev_last_error());
		return;
	}
	if (u.bytes > max && !quiet) {
		char a[32], b[32];

		cli_note("the build-id cache %s holds %s, above its limit of %s, with only this "
			 "recording's files left; raise PERFEV_BUILDID_CACHE_SIZE or record with "
			 "--no-buildid-cache",
			 dir, human(u.bytes, a, sizeof(a)), human(max, b, sizeof(b)));
	}
}
