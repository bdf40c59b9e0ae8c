// SPDX-License-Identifier: MIT
/*
 * The HTML report: one file, its page (html/report.html, .css, .js) and its
 * data inline, nothing to fetch.  The data is the call tree of each series
 * as arrays (each node's parent, function, thread, self weight and
 * samples), its functions (name, file, kind) and threads, and the
 * timeline: the recording cut into buckets of equal time, each bucket's
 * samples summed by the node they ended in, so that any range of buckets
 * gives its exact self weights without holding every sample; and the source
 * views the caller annotated (write_html_source.c).  All of it is JSON made
 * safe for a <script> element.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "util/internal.h"
#include "profile/profile_int.h"
#include "profile/html_assets.h"
#include "profile/write_int.h"
#include "perfev/json.h"

#define NONE PERFEV_PROFILE_NONE
#define DEFAULT_BUCKETS 1000

struct html {
	const struct perfev_profile_write_opts *o;
	struct perfev_json *j;
	struct strtab strings;
	uint64_t t0, bucket_ns; /* the timeline's start and bucket width; bucket_ns 0: no timeline */
	uint32_t nr_buckets;
};

/* The timeline's span: every series' timed samples, from the first to the last. */
static void timeline_span(struct html *h)
{
	uint64_t first = 0, last = 0, t, w;
	uint32_t node;

	for (size_t si = 0; si < h->o->nr_series; si++) {
		const struct perfev_profile *p = h->o->series[si].profile;

		for (size_t i = 0; perfev_profile__timed(p, i, &t, &node, &w) == 0; i++) {
			if (!t)
				continue;
			if (!first || t < first)
				first = t;
			if (t > last)
				last = t;
		}
	}
	if (!first)
		return;
	h->nr_buckets = h->o->buckets ? h->o->buckets : DEFAULT_BUCKETS;
	h->t0 = first;
	h->bucket_ns = (last - first) / h->nr_buckets + 1;
	h->nr_buckets = (uint32_t)((last - first) / h->bucket_ns + 1);
}

struct cell {
	uint32_t bucket, node;
	uint64_t weight, count;
};

static int by_cell(const void *a, const void *b)
{
	const struct cell *x = a, *y = b;

	if (x->bucket != y->bucket)
		return x->bucket < y->bucket ? -1 : 1;
	return x->node < y->node ? -1 : x->node > y->node;
}

/* The samples of p by bucket and node, summed; into *cells (sorted), their number; -1 out of memory. */
static ssize_t make_cells(const struct html *h, const struct perfev_profile *p, struct cell **cells)
{
	size_t n = perfev_profile__nr_timed(p), k = 0, out = 0;
	struct cell *c = malloc((n ? n : 1) * sizeof(*c));
	uint64_t t, w;
	uint32_t node;

	if (!c)
		return -1;
	for (size_t i = 0; perfev_profile__timed(p, i, &t, &node, &w) == 0; i++)
		if (t >= h->t0)
			c[k++] = (struct cell){ (uint32_t)((t - h->t0) / h->bucket_ns), node, w, 1 };
	sort_array(c, k, sizeof(*c), by_cell);
	for (size_t i = 0; i < k; i++) {
		if (out && c[out - 1].bucket == c[i].bucket && c[out - 1].node == c[i].node) {
			c[out - 1].weight += c[i].weight;
			c[out - 1].count++;
		} else {
			c[out++] = c[i];
		}
	}
	*cells = c;
	return (ssize_t)out;
}

static int write_timeline(struct html *h, const struct perfev_profile *p)
{
	struct perfev_json *j = h->j;
	struct cell *c;
	ssize_t n;
	char t0[32];

	if (!h->bucket_ns || !perfev_profile__nr_timed(p)) {
		perfev_json__null(j, "timeline");
		return 0;
	}
	n = make_cells(h, p, &c);
	if (n < 0)
		return set_error(ENOMEM, "html: out of memory");
	perfev_json__obj_begin(j, "timeline");
	/* As a string: nanoseconds since boot can pass what a JavaScript number holds exactly. */
	snprintf(t0, sizeof(t0), "%" PRIu64, h->t0);
	perfev_json__str(j, "t0", t0);
	perfev_json__u64(j, "bucket_ns", h->bucket_ns);
	perfev_json__arr_begin(j, "start");
	for (uint32_t b = 0, i = 0; b <= h->nr_buckets; b++) {
		while ((ssize_t)i < n && c[i].bucket < b)
			i++;
		perfev_json__u64(j, NULL, i);
	}
	perfev_json__arr_end(j);
	perfev_json__arr_begin(j, "node");
	for (ssize_t i = 0; i < n; i++)
		perfev_json__u64(j, NULL, c[i].node);
	perfev_json__arr_end(j);
	perfev_json__arr_begin(j, "weight");
	for (ssize_t i = 0; i < n; i++)
		perfev_json__u64(j, NULL, c[i].weight);
	perfev_json__arr_end(j);
	perfev_json__arr_begin(j, "count");
	for (ssize_t i = 0; i < n; i++)
		perfev_json__u64(j, NULL, c[i].count);
	perfev_json__arr_end(j);
	perfev_json__obj_end(j);
	free(c);
	return 0;
}

static int write_threads(struct html *h, const struct perfev_profile *p)
{
	size_t n = perfev_profile__nr_threads(p);

	perfev_json__obj_begin(h->j, "threads");
	perfev_json__arr_begin(h->j, "comm");
	for (size_t i = 0; i < n; i++) {
		int64_t s = strtab_add(&h->strings, perfev_profile__thread(p, i)->comm);

		if (s < 0)
			return -ENOMEM;
		perfev_json__u64(h->j, NULL, (uint64_t)s);
	}
	perfev_json__arr_end(h->j);
	perfev_json__arr_begin(h->j, "pid");
	for (size_t i = 0; i < n; i++)
		perfev_json__i64(h->j, NULL, perfev_profile__thread(p, i)->pid);
	perfev_json__arr_end(h->j);
	perfev_json__arr_begin(h->j, "tid");
	for (size_t i = 0; i < n; i++)
		perfev_json__i64(h->j, NULL, perfev_profile__thread(p, i)->tid);
	perfev_json__arr_end(h->j);
	perfev_json__obj_end(h->j);
	return 0;
}

static void write_fns(struct html *h, const struct fntab *t)
{
	perfev_json__obj_begin(h->j, "fns");
	perfev_json__arr_begin(h->j, "name");
	for (size_t i = 0; i < t->nr; i++)
		perfev_json__u64(h->j, NULL, t->fns[i].name);
	perfev_json__arr_end(h->j);
	perfev_json__arr_begin(h->j, "file");
	for (size_t i = 0; i < t->nr; i++)
		perfev_json__u64(h->j, NULL, t->fns[i].file);
	perfev_json__arr_end(h->j);
	perfev_json__arr_begin(h->j, "kind");
	for (size_t i = 0; i < t->nr; i++)
		perfev_json__u64(h->j, NULL, t->fns[i].kind);
	perfev_json__arr_end(h->j);
	perfev_json__obj_end(h->j);
}

/* A node field as one array. */
#define NODE_ARRAY(h, p, key, expr)                                                   \
	do {                                                                          \
		perfev_json__arr_begin((h)->j, key);                                   \
		for (size_t i_ = 0; i_ < perfev_profile__nr_nodes(p); i_++) {          \
			const struct perfev_profile_node *n = PNODE(p, i_); \
			perfev_json__i64((h)->j, NULL, (expr));                         \
		}                                                                     \
		perfev_json__arr_end((h)->j);                                          \
	} while (0)

static void write_nodes(struct html *h, const struct perfev_profile *p, const struct fntab *t)
{
	perfev_json__obj_begin(h->j, "nodes");
	NODE_ARRAY(h, p, "parent", n->parent == NONE ? -1 : (int64_t)n->parent);
	NODE_ARRAY(h, p, "fn", n->frame == NONE ? -1 : (int64_t)t->of_frame[n->frame]);
	NODE_ARRAY(h, p, "thread", n->thread == NONE ? 0 : (int64_t)n->thread);
	NODE_ARRAY(h, p, "self", (int64_t)n->self);
	NODE_ARRAY(h, p, "ss", (int64_t)n->self_samples);
	perfev_json__obj_end(h->j);
}

/*
 * A differential report's baseline of series si: its tree and functions,
 * named from the same strings, for the page to match by name and file.
 */
static int write_base(struct html *h, size_t si)
{
	const struct perfev_profile *p = h->o->base[si].profile;
	struct fntab t = { .strings = &h->strings };
	int err = fntab_add_profile(&t, p);

	if (!err) {
		perfev_json__obj_begin(h->j, "base");
		perfev_json__u64(h->j, "total", PNODE(p, 0)->total);
		perfev_json__u64(h->j, "samples", PNODE(p, 0)->total_samples);
		write_fns(h, &t);
		perfev_json__obj_begin(h->j, "nodes");
		NODE_ARRAY(h, p, "parent", n->parent == NONE ? -1 : (int64_t)n->parent);
		NODE_ARRAY(h, p, "fn", n->frame == NONE ? -1 : (int64_t)t.of_frame[n->frame]);
		NODE_ARRAY(h, p, "self", (int64_t)n->self);
		perfev_json__obj_end(h->j);
		perfev_json__obj_end(h->j);
	}
	fntab_free(&t);
	return err;
}

static int write_series(struct html *h, size_t si)
{
	const struct perfev_profile_series *s = &h->o->series[si];
	struct fntab t = { .strings = &h->strings };
	const struct perfev_profile_node *root = PNODE(s->profile, 0);
	int err = fntab_add_profile(&t, s->profile);

	if (!err) {
		perfev_json__obj_begin(h->j, NULL);
		perfev_json__str(h->j, "name", write_series_name(s));
		perfev_json__str(h->j, "unit", write_series_unit(s));
		perfev_json__u64(h->j, "total", root->total);
		perfev_json__u64(h->j, "samples", root->total_samples);
		err = write_threads(h, s->profile);
	}
	if (!err) {
		write_fns(h, &t);
		write_nodes(h, s->profile, &t);
		err = write_timeline(h, s->profile);
		html_write_sources(h->j, h->o, si, &t);
		if (!err && h->o->base)
			err = write_base(h, si);
		perfev_json__obj_end(h->j);
	}
	fntab_free(&t);
	return err;
}

/* The data as one JSON document, made safe for a <script> element. */
static int data(struct html *h, FILE *f)
{
	int err = 0, jerr;

	h->j = perfev_json__new(f, PERFEV_JSON_HTML_SAFE);
	if (!h->j)
		return -ENOMEM;
	perfev_json__obj_begin(h->j, NULL);
	perfev_json__str(h->j, "title", h->o->title ? h->o->title : "perfev");
	perfev_json__arr_begin(h->j, "kinds");
	for (int k = 0; k < NR_KINDS; k++)
		perfev_json__str(h->j, NULL, write_kind_names[k]);
	perfev_json__arr_end(h->j);
	perfev_json__arr_begin(h->j, "series");
	for (size_t i = 0; i < h->o->nr_series && !err; i++)
		err = write_series(h, i);
	perfev_json__arr_end(h->j);
	/* Last, once every name has been interned by the series above. */
	perfev_json__arr_begin(h->j, "strings");
	for (size_t i = 0; i < h->strings.nr; i++)
		perfev_json__str(h->j, NULL, h->strings.s[i]);
	perfev_json__arr_end(h->j);
	perfev_json__obj_end(h->j);
	jerr = perfev_json__delete(h->j);
	return err ? err : jerr;
}

int perfev_profile__write_html(FILE *f, const struct perfev_profile_write_opts *opts)
{
	struct perfev_profile_write_opts o;
	const struct html_asset *page = html_asset("report.html"), *css = html_asset("report.css"),
				*js = html_asset("report.js");
	struct html h = { .o = &o };
	int err = write_opts(&o, opts, "html");

	if (err)
		return err;
	if (!page || !css || !js)
		return set_error(ENOENT, "html: the report's page is missing from this build");
	timeline_span(&h);
	fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
	      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
	      "script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:\">\n<title>", f);
	write_xml(f, o.title ? o.title : "perfev");
	fprintf(f, " \xe2\x80\x94 perfev</title>\n<style>\n%s</style>\n</head>\n<body>\n%s", css->data, page->data);
	fputs("<script type=\"application/json\" id=\"perfev-data\">", f);
	err = data(&h, f);
	fprintf(f, "</script>\n<script>\n%s</script>\n</body></html>\n", js->data);
	strtab_free(&h.strings);
	return err ? err : write_finish(f, "html");
}
