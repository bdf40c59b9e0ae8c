// SPDX-License-Identifier: MIT
/*
 * perfev's JSON: for each series, its threads, frames, the call tree as
 * arrays of numbers (compact for large profiles; the field names are given
 * once) and the report's table by file and function with self and
 * children weights.  The layout is documented in perfev-export(1).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util/internal.h"
#include "profile/profile_int.h"
#include "profile/write_int.h"
#include "perfev/json.h"
#include "perfev/profile_table.h"

#define FORMAT_VERSION 1

static void write_threads(struct perfev_json *j, const struct perfev_profile *p)
{
	perfev_json__arr_begin(j, "threads");
	for (size_t i = 0; i < perfev_profile__nr_threads(p); i++) {
		const struct perfev_profile_thread *t = perfev_profile__thread(p, i);

		perfev_json__obj_begin(j, NULL);
		perfev_json__str(j, "comm", t->comm);
		perfev_json__i64(j, "pid", t->pid);
		perfev_json__i64(j, "tid", t->tid);
		perfev_json__obj_end(j);
	}
	perfev_json__arr_end(j);
}

static void write_frames(struct perfev_json *j, const struct perfev_profile *p)
{
	char buf[4096];

	perfev_json__arr_begin(j, "frames");
	for (size_t i = 0; i < perfev_profile__nr_frames(p); i++) {
		const struct perfev_profile_frame *f = perfev_profile__frame(p, i);

		perfev_json__obj_begin(j, NULL);
		perfev_json__str(j, "name", perfev_profile_frame__name(f, buf, sizeof(buf)));
		perfev_json__str(j, "file", write_dso_path(f));
		perfev_json__str(j, "kind", write_kind_names[write_kind(f)]);
		if (f->src.file) {
			perfev_json__str(j, "source", f->src.file);
			perfev_json__u64(j, "line", f->src.line);
		}
		perfev_json__obj_end(j);
	}
	perfev_json__arr_end(j);
}

/* Nodes as [parent, frame, thread, self, total, self_samples, total_samples]; -1 for none. */
static void write_nodes(struct perfev_json *j, const struct perfev_profile *p)
{
	static const char *const fields[] = { "parent", "frame",	"thread",	"self",
					      "total",	"self_samples", "total_samples" };

	perfev_json__arr_begin(j, "node_fields");
	for (size_t i = 0; i < ARRAY_SIZE(fields); i++)
		perfev_json__str(j, NULL, fields[i]);
	perfev_json__arr_end(j);
	perfev_json__arr_begin(j, "nodes");
	for (size_t i = 0; i < perfev_profile__nr_nodes(p); i++) {
		const struct perfev_profile_node *n = PNODE(p, i);

		perfev_json__arr_begin(j, NULL);
		perfev_json__i64(j, NULL, n->parent == PERFEV_PROFILE_NONE ? -1 : (int64_t)n->parent);
		perfev_json__i64(j, NULL, n->frame == PERFEV_PROFILE_NONE ? -1 : (int64_t)n->frame);
		perfev_json__i64(j, NULL, n->thread == PERFEV_PROFILE_NONE ? -1 : (int64_t)n->thread);
		perfev_json__u64(j, NULL, n->self);
		perfev_json__u64(j, NULL, n->total);
		perfev_json__u64(j, NULL, n->self_samples);
		perfev_json__u64(j, NULL, n->total_samples);
		perfev_json__arr_end(j);
	}
	perfev_json__arr_end(j);
}

static const struct perfev_profile_table *sort_t;

static int by_weight(const void *a, const void *b)
{
	const struct perfev_profile_entry *x = perfev_profile_table__entry(sort_t, *(const uint32_t *)a),
					  *y = perfev_profile_table__entry(sort_t, *(const uint32_t *)b);

	if (x->children != y->children)
		return x->children > y->children ? -1 : 1;
	if (x->self != y->self)
		return x->self > y->self ? -1 : 1;
	return *(const uint32_t *)a < *(const uint32_t *)b ? -1 : 1;
}

/* perf report --sort dso,sym --children's rows, heaviest first. */
static int write_table(struct perfev_json *j, const struct perfev_profile *p)
{
	static const enum perfev_profile_key keys[] = { PERFEV_PROFILE_KEY_DSO, PERFEV_PROFILE_KEY_SYM };
	struct perfev_profile_table_opts o = { .sz = sizeof(o), .keys = keys, .nr_keys = 2,
					       .children = true };
	struct perfev_profile_table *t = perfev_profile_table__new(p, &o);
	size_t n = t ? perfev_profile_table__nr_entries(t) : 0;
	uint32_t *order = t ? malloc((n ? n : 1) * sizeof(*order)) : NULL;
	char buf[4096];

	if (!order) {
		perfev_profile_table__delete(t);
		return set_error(ENOMEM, "json: out of memory");
	}
	for (size_t i = 0; i < n; i++)
		order[i] = (uint32_t)i;
	sort_t = t;
	sort_array(order, n, sizeof(*order), by_weight);
	perfev_json__arr_begin(j, "table");
	for (size_t i = 0; i < n; i++) {
		const struct perfev_profile_entry *e = perfev_profile_table__entry(t, order[i]);
		const struct perfev_profile_frame *f = perfev_profile__frame(p, e->frame);

		perfev_json__obj_begin(j, NULL);
		perfev_json__str(j, "sym", perfev_profile_frame__name(f, buf, sizeof(buf)));
		perfev_json__str(j, "dso", write_dso_short(f));
		perfev_json__u64(j, "self", e->self);
		perfev_json__u64(j, "children", e->children);
		perfev_json__u64(j, "samples", e->samples);
		perfev_json__obj_end(j);
	}
	perfev_json__arr_end(j);
	free(order);
	perfev_profile_table__delete(t);
	return 0;
}

static int write_series(struct perfev_json *j, const struct perfev_profile_series *s)
{
	const struct perfev_profile_node *root = PNODE(s->profile, 0);

	perfev_json__obj_begin(j, NULL);
	perfev_json__str(j, "name", write_series_name(s));
	perfev_json__str(j, "type", write_series_type(s));
	perfev_json__str(j, "unit", write_series_unit(s));
	perfev_json__u64(j, "period", s->period);
	perfev_json__u64(j, "samples", root->total_samples);
	perfev_json__u64(j, "total", root->total);
	write_threads(j, s->profile);
	write_frames(j, s->profile);
	write_nodes(j, s->profile);
	int err = write_table(j, s->profile);

	perfev_json__obj_end(j);
	return err;
}

int perfev_profile__write_json(FILE *f, const struct perfev_profile_write_opts *opts)
{
	struct perfev_profile_write_opts o;
	struct perfev_json *j;
	int err = write_opts(&o, opts, "json");

	if (err)
		return err;
	j = perfev_json__new(f, o.pretty ? PERFEV_JSON_PRETTY : 0);
	if (!j)
		return -ENOMEM;
	perfev_json__obj_begin(j, NULL);
	perfev_json__i64(j, "perfev_profile", FORMAT_VERSION);
	perfev_json__str(j, "title", o.title ? o.title : "perfev");
	perfev_json__u64(j, "start_time_ns", o.start_time_ns);
	perfev_json__arr_begin(j, "series");
	for (size_t i = 0; i < o.nr_series && !err; i++)
		err = write_series(j, &o.series[i]);
	perfev_json__arr_end(j);
	perfev_json__obj_end(j);
	if (err) {
		perfev_json__delete(j);
		return err;
	}
	err = perfev_json__delete(j);
	return err ? err : write_finish(f, "json");
}
