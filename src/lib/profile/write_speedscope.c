// SPDX-License-Identifier: MIT
/*
 * speedscope's file format (its published file-format-schema.json): the
 * functions of every series as shared frames, then a "sampled" profile per
 * series and thread whose samples are the call tree's stacks (outermost
 * first) that ended samples, each weighted by what ended there.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util/internal.h"
#include "profile/profile_int.h"
#include "profile/write_int.h"
#include "perfev/json.h"

#define NONE PERFEV_PROFILE_NONE

struct ss_ctx {
	struct perfev_json *j;
	/* The current series' nodes that ended samples, grouped by thread: by_thread[first[t] .. first[t + 1]). */
	uint32_t *by_thread;
	size_t *first;
	struct strtab strings;
	struct fntab fns;
	uint32_t *stack;
	size_t cap_stack;
};

/* speedscope knows time units and bytes; counts of events are "none". */
static const char *ss_unit(const struct perfev_profile_series *s)
{
	static const char *const known[] = { "nanoseconds", "microseconds", "milliseconds", "seconds",
					     "bytes" };
	const char *u = write_series_unit(s);

	for (size_t i = 0; i < ARRAY_SIZE(known); i++)
		if (!strcmp(u, known[i]))
			return u;
	return "none";
}

static void write_frames(struct ss_ctx *c)
{
	perfev_json__obj_begin(c->j, "shared");
	perfev_json__arr_begin(c->j, "frames");
	for (size_t i = 0; i < c->fns.nr; i++) {
		const struct write_fn *fn = &c->fns.fns[i];

		perfev_json__obj_begin(c->j, NULL);
		perfev_json__str(c->j, "name", c->strings.s[fn->name]);
		perfev_json__str(c->j, "file", c->strings.s[fn->file]);
		perfev_json__obj_end(c->j);
	}
	perfev_json__arr_end(c->j);
	perfev_json__obj_end(c->j);
}

/* The functions from the thread's outermost caller down to node, into c->stack; how many. */
static size_t stack_of(struct ss_ctx *c, const struct perfev_profile *p, uint32_t node)
{
	size_t d = PNODE(p, node)->depth;
	size_t n = d >= 2 ? d - 1 : 0;

	if (!array_grow((void **)&c->stack, &c->cap_stack, n + 1, sizeof(*c->stack)))
		return SIZE_MAX;
	for (uint32_t a = node; PNODE(p, a)->depth >= 2; a = PNODE(p, a)->parent)
		c->stack[PNODE(p, a)->depth - 2] = c->fns.of_frame[PNODE(p, a)->frame];
	return n;
}

/* Groups the nodes of p that ended samples by thread, in index order within each (a counting sort). */
static int group_by_thread(struct ss_ctx *c, const struct perfev_profile *p)
{
	size_t nt = perfev_profile__nr_threads(p), nr = perfev_profile__nr_nodes(p);

	free(c->by_thread);
	free(c->first);
	c->by_thread = malloc((nr ? nr : 1) * sizeof(*c->by_thread));
	c->first = calloc(nt + 2, sizeof(*c->first));
	if (!c->by_thread || !c->first)
		return set_error(ENOMEM, "speedscope: out of memory");
	for (size_t i = 1; i < nr; i++) {
		const struct perfev_profile_node *n = PNODE(p, i);

		if (n->self && n->depth >= 2)
			c->first[n->thread + 2]++;
	}
	for (size_t t = 2; t < nt + 2; t++)
		c->first[t] += c->first[t - 1];
	for (size_t i = 1; i < nr; i++) {
		const struct perfev_profile_node *n = PNODE(p, i);

		if (n->self && n->depth >= 2)
			c->by_thread[c->first[n->thread + 1]++] = (uint32_t)i;
	}
	return 0;
}

/* One thread's profile: the stacks of its nodes that ended samples. */
static int write_thread(struct ss_ctx *c, const struct perfev_profile_series *s, uint32_t tnode)
{
	const struct perfev_profile *p = s->profile;
	const struct perfev_profile_node *tn = PNODE(p, tnode);
	const struct perfev_profile_thread *t = perfev_profile__thread(p, tn->thread);
	char name[512];
	size_t from = c->first[tn->thread], to = c->first[tn->thread + 1];

	snprintf(name, sizeof(name), "%s %d/%d: %s", t->comm, t->pid, t->tid, write_series_name(s));
	perfev_json__obj_begin(c->j, NULL);
	perfev_json__str(c->j, "type", "sampled");
	perfev_json__str(c->j, "name", name);
	perfev_json__str(c->j, "unit", ss_unit(s));
	perfev_json__u64(c->j, "startValue", 0);
	perfev_json__u64(c->j, "endValue", tn->total);
	perfev_json__arr_begin(c->j, "samples");
	for (size_t i = from; i < to; i++) {
		size_t k = stack_of(c, p, c->by_thread[i]);

		if (k == SIZE_MAX)
			return set_error(ENOMEM, "speedscope: out of memory");
		perfev_json__arr_begin(c->j, NULL);
		for (size_t m = 0; m < k; m++)
			perfev_json__u64(c->j, NULL, c->stack[m]);
		perfev_json__arr_end(c->j);
	}
	perfev_json__arr_end(c->j);
	perfev_json__arr_begin(c->j, "weights");
	for (size_t i = from; i < to; i++)
		perfev_json__u64(c->j, NULL, PNODE(p, c->by_thread[i])->self);
	perfev_json__arr_end(c->j);
	perfev_json__obj_end(c->j);
	return 0;
}

static int write_profiles(struct ss_ctx *c, const struct perfev_profile_write_opts *o)
{
	int err = 0;

	perfev_json__arr_begin(c->j, "profiles");
	for (size_t si = 0; si < o->nr_series && !err; si++) {
		const struct perfev_profile *p = o->series[si].profile;

		err = fntab_add_profile(&c->fns, p);
		if (!err)
			err = group_by_thread(c, p);
		for (uint32_t t = PNODE(p, 0)->first_child; t != NONE && !err;
		     t = PNODE(p, t)->next_sibling)
			err = write_thread(c, &o->series[si], t);
	}
	perfev_json__arr_end(c->j);
	return err;
}

/* Every series' functions first: the shared frames come before the profiles that name them. */
static int collect_functions(struct ss_ctx *c, const struct perfev_profile_write_opts *o)
{
	for (size_t i = 0; i < o->nr_series; i++) {
		int err = fntab_add_profile(&c->fns, o->series[i].profile);

		if (err)
			return err;
	}
	return 0;
}

int perfev_profile__write_speedscope(FILE *f, const struct perfev_profile_write_opts *opts)
{
	struct perfev_profile_write_opts o;
	struct ss_ctx c = { 0 };
	int err = write_opts(&o, opts, "speedscope");

	if (err)
		return err;
	c.fns.strings = &c.strings;
	err = collect_functions(&c, &o);
	if (!err && !(c.j = perfev_json__new(f, o.pretty ? PERFEV_JSON_PRETTY : 0)))
		err = -ENOMEM;
	if (!err) {
		perfev_json__obj_begin(c.j, NULL);
		perfev_json__str(c.j, "$schema", "https://www.speedscope.app/file-format-schema.json");
		perfev_json__str(c.j, "name", o.title ? o.title : "perfev");
		char exporter[64];

		snprintf(exporter, sizeof(exporter), "perfev %s", perfev_version());
		perfev_json__str(c.j, "exporter", exporter);
		perfev_json__u64(c.j, "activeProfileIndex", 0);
		write_frames(&c);
		err = write_profiles(&c, &o);
		perfev_json__obj_end(c.j);
		int jerr = perfev_json__delete(c.j);

		err = err ? err : jerr;
	}
	fntab_free(&c.fns);
	strtab_free(&c.strings);
	free(c.stack);
	free(c.by_thread);
	free(c.first);
	return err ? err : write_finish(f, "speedscope");
}
