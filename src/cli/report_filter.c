// SPDX-License-Identifier: MIT
/*
 * perf report's filters on rows: --dso and --symbols choose which rows are
 * shown, not which samples are read, so a function's callers still weigh
 * what it called in other files and the percentages stay those of the whole
 * file.  A filter naming one value hides the column it fixes, as perf does.
 */
#include <string.h>

#include "perfev/perfev.h"
#include "report.h"

/* Whether name is one of the comma-separated list's. */
static bool list_has(const char *list, const char *name)
{
	size_t n = strlen(name);

	for (const char *p = list; p;) {
		const char *e = strchr(p, ',');
		size_t len = e ? (size_t)(e - p) : strlen(p);

		if (len == n && !memcmp(p, name, n))
			return true;
		p = e ? e + 1 : NULL;
	}
	return false;
}

bool report_entry_passes(const struct report_opts *o, const struct perfev_profile *p,
			 const struct perfev_profile_entry *e)
{
	const struct perfev_profile_frame *f = perfev_profile__frame(p, e->frame);

	if (o->rows && !perfev_sample_filter__dso_ok(o->rows, f->dso, f->kernel))
		return false;
	if (o->symbols) {
		const char *name = f->inline_name ? f->inline_name : f->sym ? f->sym->name : NULL;

		if (!name || !list_has(o->symbols, name))
			return false;
	}
	return true;
}

static const char *single(const char *list)
{
	return list && *list && !strchr(list, ',') ? list : NULL;
}

void report_hide_fixed(struct report_opts *o, const char *comms, const char *dsos)
{
	int hidden = 0;

	o->fixed[KEY_COMM] = single(comms);
	o->fixed[KEY_DSO] = single(dsos);
	o->fixed[KEY_SYM] = single(o->symbols);
	for (int i = 0; i < o->nr_keys; i++)
		hidden += (o->hide[o->keys[i]] = o->fixed[o->keys[i]] != NULL);
	if (hidden == o->nr_keys)
		memset(o->hide, 0, sizeof(o->hide));
}

bool report_print_fixed(FILE *f, const struct report_opts *o)
{
	static const char *const what[NR_KEYS] = { [KEY_COMM] = "comm", [KEY_DSO] = "dso",
						    [KEY_SYM] = "symbol" };
	bool any = false;

	/* In the columns' order, for each sort key a filter fixes (shown or not). */
	for (int i = 0; i < o->nr_keys && !o->trace; i++)
		if (o->fixed[o->keys[i]]) {
			fprintf(f, "# %s: %s\n", what[o->keys[i]], o->fixed[o->keys[i]]);
			any = true;
		}
	return any;
}
