/* SPDX-License-Identifier: MIT */
/* The sample filters of the commands that read perf.data (--comm, --pid, --tid, --dso). */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "opt.h"
#include "perfev/perfev.h"

/* A comma-separated list holds s. */
static bool in_list(const char *list, const char *s)
{
	size_t n = strlen(s);

	for (const char *p = list; p && *p;) {
		const char *e = strchr(p, ',');
		size_t len = e ? (size_t)(e - p) : strlen(p);

		if (len == n && !memcmp(p, s, n))
			return true;
		p = e ? e + 1 : NULL;
	}
	return false;
}

static bool in_num_list(const char *list, int v)
{
	char buf[16];

	snprintf(buf, sizeof(buf), "%d", v);
	return in_list(list, buf);
}

bool cli_filters_match(const struct cli_filters *fl, const struct perfev_session_sample *ss)
{
	if (fl->comms && !in_list(fl->comms, perfev_thread__comm(ss->thread)))
		return false;
	if (fl->pids && !in_num_list(fl->pids, perfev_thread__pid(ss->thread)))
		return false;
	if (fl->tids && !in_num_list(fl->tids, perfev_thread__tid(ss->thread)))
		return false;
	if (fl->dsos) {
		const struct perfev_frame *f = ss->nr_frames ? &ss->frames[0] : NULL;
		const char *name = !f ? PERFEV_UNKNOWN_NAME : f->kernel ? PERFEV_KERNEL_DSO_NAME
					   : f->dso ? perfev_dso__name(f->dso) : PERFEV_UNKNOWN_NAME;

		/* A DSO is named by its path or its file name. */
		if (!in_list(fl->dsos, name) &&
		    !(f && f->dso && !f->kernel && in_list(fl->dsos, perfev_dso__short_name(f->dso))))
			return false;
	}
	return true;
}
