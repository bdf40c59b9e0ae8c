// SPDX-License-Identifier: MIT
/*
 * The SVG flame graph: the flame tree of the first series drawn bottom-up
 * as FlameGraph draws it (the root at the bottom, each frame's callees on
 * it, widths in proportion to integer weights, frames under 0.1 pixel left
 * out), every frame a <g> with its tooltip, so that the picture shows in
 * any viewer; and for browsers the script (html/flame_svg.js) and the
 * whole tree as JSON, from which zoom and search work exactly.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/internal.h"
#include "profile/flame.h"
#include "profile/html_assets.h"
#include "perfev/json.h"

#define NONE PERFEV_PROFILE_NONE
#define WIDTH 1200
#define PAD 10
#define FRAME_H 16
#define TOP 60	  /* title, details and buttons above the graph */
#define BOTTOM 30 /* the details line below it */
#define MIN_W 0.1 /* pixels: thinner frames are not drawn */

struct svg {
	FILE *f;
	const struct flame *fl;
	const struct perfev_profile_write_opts *o;
	uint64_t *offset; /* each node's start, in weight, from the left of the root */
	uint32_t max_depth;
	double scale;	  /* pixels per unit of weight */
	/* A differential graph: the baseline's tree, each node's match in it, and the scale of the colours. */
	const struct flame *base;
	uint32_t *base_of;
	double max_delta; /* the largest change of a frame's self share, in points */
	double base_gone; /* the baseline's share in frames this graph has not */
};

/* A hue for a string: equal strings get equal colours across runs. */
static unsigned name_hash(const char *s)
{
	unsigned h = 2166136261u;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return h;
}

/*
 * FlameGraph's palette by kind: warm for code, orange for the kernel, aqua
 * inlined, green JIT; blue for waits, as off-CPU flame graphs draw them.
 */
static void color(const struct svg *sv, const struct flame_node *n, char *buf, size_t size)
{
	unsigned h = name_hash(sv->fl->labels.s[sv->o->colors == PERFEV_WRITE_COLOR_DSO ? n->file : n->label]);
	unsigned v1 = h % 55, v2 = (h >> 8) % 55;

	if (n->depth <= 1 && n->kind == KIND_UNKNOWN) {
		snprintf(buf, size, "rgb(%u,%u,%u)", 200 + v1 / 4, 200 + v1 / 4, 200 + v1 / 4);
		return;
	}
	if (sv->o->colors == PERFEV_WRITE_COLOR_DSO) {
		snprintf(buf, size, "hsl(%u,60%%,%u%%)", h % 360, 55 + v2 % 15);
		return;
	}
	switch (n->kind) {
	case KIND_KERNEL:
		snprintf(buf, size, "rgb(%u,%u,0)", 220 + v1 / 2, 110 + v2);
		break;
	case KIND_INLINED:
		snprintf(buf, size, "rgb(%u,%u,%u)", 60 + v1, 190 + v2 / 2, 190 + v2 / 2);
		break;
	case KIND_JIT:
		snprintf(buf, size, "rgb(%u,%u,%u)", 50 + v1, 180 + v2 / 2, 50 + v1);
		break;
	case KIND_UNKNOWN:
		snprintf(buf, size, "rgb(%u,%u,%u)", 170 + v1 / 2, 170 + v1 / 2, 170 + v1 / 2);
		break;
	case KIND_OFF_CPU:
		snprintf(buf, size, "rgb(%u,%u,%u)", 40 + v1 / 2, 90 + v2, 230 + v1 / 3);
		break;
	default:
		snprintf(buf, size, "rgb(%u,%u,%u)", 200 + v1, 80 + v2 * 2, 55 + v2 / 2);
	}
}

/* A node's share of its graph's total, in percent: its total weight, or its self weight. */
static double share(const struct flame *fl, uint32_t i, bool self)
{
	uint64_t root = fl->n[0].total;

	return root ? 100.0 * (double)(self ? fl->n[i].self : fl->n[i].total) / (double)root : 0;
}

/* The change of node i's self share from the baseline's, in points. */
static double self_delta(const struct svg *sv, uint32_t i)
{
	uint32_t b = sv->base_of[i];

	return share(sv->fl, i, true) - (b == NONE ? 0 : share(sv->base, b, true));
}

static double was(const struct svg *sv, uint32_t i)
{
	return sv->base_of[i] == NONE ? 0 : share(sv->base, sv->base_of[i], false);
}

/* Grown red, shrunk blue, by how much of the largest change; unchanged white. */
static void diff_color(const struct svg *sv, uint32_t i, char *buf, size_t size)
{
	double d = self_delta(sv, i), a = sv->max_delta > 0 ? fabs(d) / sv->max_delta : 0;
	unsigned v = 255 - (unsigned)(a * 200 + 0.5);

	if (d > 0)
		snprintf(buf, size, "rgb(255,%u,%u)", v, v);
	else if (d < 0)
		snprintf(buf, size, "rgb(%u,%u,255)", v, v);
	else
		snprintf(buf, size, "rgb(250,250,250)");
}

/* The differential graph's scale, and the baseline's share this graph does not show. */
static void diff_scale(struct svg *sv)
{
	for (uint32_t i = 1; i < sv->fl->nr; i++)
		if (fabs(self_delta(sv, i)) > sv->max_delta)
			sv->max_delta = fabs(self_delta(sv, i));
	bool *seen = calloc(sv->base->nr, sizeof(*seen));

	if (!seen)
		return;
	for (uint32_t i = 0; i < sv->fl->nr; i++)
		if (sv->base_of[i] != NONE)
			seen[sv->base_of[i]] = true;
	/* The outermost unmatched frames: their subtrees are what the graph lacks. */
	for (uint32_t b = 1; b < sv->base->nr; b++)
		if (!seen[b] && seen[sv->base->n[b].parent])
			sv->base_gone += share(sv->base, b, false);
	free(seen);
}

/* Offsets of every node: children laid left to right in label order. */
static void place(struct svg *sv)
{
	const struct flame *fl = sv->fl;

	for (size_t i = 0; i < fl->nr; i++) {
		uint64_t x = sv->offset[i];

		if (fl->n[i].depth > sv->max_depth)
			sv->max_depth = fl->n[i].depth;
		/* Children come after their parent in index order, so the parent's offset is known. */
		for (uint32_t c = fl->n[i].first_child; c != NONE; c = fl->n[c].next_sibling) {
			sv->offset[c] = x;
			x += fl->n[c].total;
		}
	}
}

static void frame(struct svg *sv, uint32_t i)
{
	const struct flame_node *n = &sv->fl->n[i];
	double x = PAD + (double)sv->offset[i] * sv->scale, w = (double)n->total * sv->scale;
	double y = TOP + (double)(sv->max_depth - n->depth) * FRAME_H;
	uint64_t root = sv->fl->n[0].total;
	const char *name = sv->fl->labels.s[n->label];
	char fill[64];
	int chars = (int)((w - 6) / 7);

	if (sv->base)
		diff_color(sv, i, fill, sizeof(fill));
	else
		color(sv, n, fill, sizeof(fill));
	fprintf(sv->f, "<g class=\"f\" data-n=\"%u\" data-o=\"%" PRIu64 "\"><title>", i, sv->offset[i]);
	write_xml(sv->f, name);
	fprintf(sv->f, " (%" PRIu64 " samples, %.2f%%", n->total_samples,
		root ? 100.0 * (double)n->total / (double)root : 0.0);
	if (sv->base)
		fprintf(sv->f, ", was %.2f%%, self %+.2f", was(sv, i), self_delta(sv, i));
	fprintf(sv->f, ")</title><rect x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" "
		"height=\"%d\" fill=\"%s\" rx=\"2\"/><text x=\"%.2f\" y=\"%.1f\">",
		x, y, w, FRAME_H - 1, fill, x + 3, y + 11.5);
	if (chars >= 3) {
		size_t len = strlen(name);

		if (len <= (size_t)chars) {
			write_xml(sv->f, name);
		} else {
			char cut[1024];

			snprintf(cut, sizeof(cut), "%.*s..", chars - 2 < 1000 ? chars - 2 : 1000, name);
			write_xml(sv->f, cut);
		}
	}
	fputs("</text></g>\n", sv->f);
}

/* The frames wide enough to see, depth first; a thin frame's callees are thinner still. */
static int frames(struct svg *sv)
{
	uint32_t *stack = malloc(sv->fl->nr * sizeof(*stack));
	size_t sp = 0;

	if (!stack)
		return set_error(ENOMEM, "svg: out of memory");
	stack[sp++] = 0;
	while (sp) {
		uint32_t i = stack[--sp];

		if ((double)sv->fl->n[i].total * sv->scale < MIN_W && i)
			continue;
		frame(sv, i);
		for (uint32_t c = sv->fl->n[i].first_child; c != NONE; c = sv->fl->n[c].next_sibling)
			stack[sp++] = c;
	}
	free(stack);
	return 0;
}

/* The whole tree for the script: each node's parent, label, weight and samples. */
static int data(struct svg *sv)
{
	const struct flame *fl = sv->fl;
	struct perfev_json *j = perfev_json__new(sv->f, PERFEV_JSON_HTML_SAFE);
	int err;

	if (!j)
		return -ENOMEM;
	fputs("<script type=\"application/json\" id=\"perfev-data\"><![CDATA[", sv->f);
	perfev_json__obj_begin(j, NULL);
	perfev_json__u64(j, "width", WIDTH);
	perfev_json__u64(j, "pad", PAD);
	perfev_json__arr_begin(j, "parent");
	for (size_t i = 0; i < fl->nr; i++)
		perfev_json__i64(j, NULL, i ? (int64_t)fl->n[i].parent : -1);
	perfev_json__arr_end(j);
	perfev_json__arr_begin(j, "label");
	for (size_t i = 0; i < fl->nr; i++)
		perfev_json__u64(j, NULL, fl->n[i].label);
	perfev_json__arr_end(j);
	perfev_json__arr_begin(j, "total");
	for (size_t i = 0; i < fl->nr; i++)
		perfev_json__u64(j, NULL, fl->n[i].total);
	perfev_json__arr_end(j);
	perfev_json__arr_begin(j, "samples");
	for (size_t i = 0; i < fl->nr; i++)
		perfev_json__u64(j, NULL, fl->n[i].total_samples);
	perfev_json__arr_end(j);
	perfev_json__arr_begin(j, "labels");
	for (size_t i = 0; i < fl->labels.nr; i++)
		perfev_json__str(j, NULL, fl->labels.s[i]);
	perfev_json__arr_end(j);
	if (sv->base) {
		/* The differential graph's: each node's total share in the baseline, and its self's change. */
		perfev_json__arr_begin(j, "was");
		for (uint32_t i = 0; i < fl->nr; i++)
			perfev_json__double(j, NULL, was(sv, i));
		perfev_json__arr_end(j);
		perfev_json__arr_begin(j, "dself");
		for (uint32_t i = 0; i < fl->nr; i++)
			perfev_json__double(j, NULL, self_delta(sv, i));
		perfev_json__arr_end(j);
	}
	perfev_json__obj_end(j);
	/* The writer buffers: what it holds goes out before the element is closed. */
	err = perfev_json__delete(j);
	fputs("]]></script>\n", sv->f);
	return err;
}

static const char svg_style[] =
	"<style>text{font:12px Verdana,sans-serif;fill:#000}g.f:hover rect{stroke:#000;stroke-width:0.5;"
	"cursor:pointer}g.f.match rect{fill:rgb(230,0,230)}g.f.parent rect{opacity:0.5}"
	"#title{font-size:17px;text-anchor:middle}.btn{cursor:pointer}</style>\n";

static void head(struct svg *sv, int height)
{
	const struct perfev_profile_series *s = &sv->o->series[0];

	fprintf(sv->f, "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n"
		"<svg version=\"1.1\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
		"xmlns=\"http://www.w3.org/2000/svg\">\n", WIDTH, height, WIDTH, height);
	fputs(svg_style, sv->f);
	fprintf(sv->f, "<rect width=\"100%%\" height=\"100%%\" fill=\"#f8f8f2\"/>\n<text id=\"title\" x=\"%d\" y=\"24\">",
		WIDTH / 2);
	write_xml(sv->f, sv->o->title ? sv->o->title : "perfev");
	fputs(": ", sv->f);
	write_xml(sv->f, write_series_name(s));
	if (sv->base)
		fprintf(sv->f, "</text>\n<text id=\"legend\" x=\"%d\" y=\"44\" style=\"text-anchor:middle\">"
			"Differential: widths are this profile's; self share grown red, shrunk blue (at most "
			"%.2f points); frames only in the baseline (%.2f%% of it) are not drawn", WIDTH / 2,
			sv->max_delta, sv->base_gone);
	fprintf(sv->f, "</text>\n<text id=\"reset\" class=\"btn\" x=\"%d\" y=\"24\" style=\"opacity:0.1\">Reset "
		"Zoom</text>\n<text id=\"search\" class=\"btn\" x=\"%d\" y=\"24\">Search</text>\n"
		"<text id=\"matched\" x=\"%d\" y=\"%d\"> </text>\n<text id=\"details\" x=\"%d\" y=\"%d\"> </text>\n",
		PAD, WIDTH - PAD - 60, WIDTH - PAD - 150, height - 10, PAD, height - 10);
}

int perfev_profile__write_svg(FILE *f, const struct perfev_profile_write_opts *opts)
{
	struct perfev_profile_write_opts o;
	const struct html_asset *js = html_asset("flame_svg.js");
	struct svg sv = { .f = f, .o = &o };
	struct flame fl, base;
	int err = write_opts(&o, opts, "svg");

	if (err)
		return err;
	if (!js)
		return set_error(ENOENT, "svg: the flame graph's script is missing from this build");
	err = flame_build(&fl, o.series[0].profile, o.prefix, false);
	if (err)
		return err;
	sv.fl = &fl;
	sv.offset = calloc(fl.nr, sizeof(*sv.offset));
	if (!sv.offset) {
		flame_free(&fl);
		return set_error(ENOMEM, "svg: out of memory");
	}
	if (o.base && !(err = flame_build(&base, o.base[0].profile, o.prefix, false))) {
		sv.base = &base;
		sv.base_of = malloc(fl.nr * sizeof(*sv.base_of));
		err = sv.base_of ? flame_match(&fl, &base, sv.base_of) : set_error(ENOMEM, "svg: out of memory");
		if (!err)
			diff_scale(&sv);
	}
	if (err) {
		free(sv.offset);
		free(sv.base_of);
		flame_free(&fl);
		if (sv.base)
			flame_free(&base);
		return err;
	}
	place(&sv);
	sv.scale = fl.n[0].total ? (double)(WIDTH - 2 * PAD) / (double)fl.n[0].total : 0;
	head(&sv, TOP + (int)(sv.max_depth + 1) * FRAME_H + BOTTOM);
	err = frames(&sv);
	if (!err)
		err = data(&sv);
	if (!err)
		fprintf(f, "<script><![CDATA[\n%s]]></script>\n</svg>\n", js->data);
	free(sv.offset);
	free(sv.base_of);
	flame_free(&fl);
	if (sv.base)
		flame_free(&base);
	return err ? err : write_finish(f, "svg");
}
