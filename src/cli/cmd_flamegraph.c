/* SPDX-License-Identifier: MIT */
/*
 * perfev flamegraph: a recording's profile as something to look at: the
 * HTML report (flame graph, callers, functions, timeline; one file that
 * needs no network) or an interactive SVG flame graph, by the output's name
 * or --format.  The writing is the library's.
 */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "export.h"
#include "opt.h"

#define DEFAULT_OUTPUT "flamegraph.html"
/* Source views of this many of each event's hottest functions, by default. */
#define DEFAULT_SOURCES 20

struct fg_opts {
	int format; /* 0 by the file's name, 1 html, 2 svg */
	enum perfev_write_prefix prefix;
	enum perfev_write_colors colors;
	bool inlines;
	const char *title;
	long buckets;
	long sources;
};

enum { OPT_PREFIX = 256, OPT_COLORS, OPT_INLINE, OPT_TITLE, OPT_BUCKETS, OPT_SOURCE };

static const struct opt fg_table[] = {
	OPT_GROUP(opt_input),
	OPT_GROUP(opt_output),
	OPT_HELP('o', "write to FILE (default " DEFAULT_OUTPUT "; a name ending in .svg writes an "
		      "SVG flame graph; '-' standard output)"),
	{ 'f', "format", .arg = "FORMAT", .comp = COMP_WORD, .words = "html,svg",
	  .help = "html (the report: flame graph, callers, functions, timeline) or svg (a flame "
		  "graph); default by the output's name" },
	OPT_GROUP(opt_filters),
	OPT_GROUP(opt_off_cpu),
	{ OPT_INLINE, "inline", .help = "show inlined functions as frames of their own" },
	{ OPT_COLORS, "colors", .arg = "BY", .comp = COMP_WORD, .words = "kind,dso",
	  .help = "svg: colour frames by kind (user, kernel, inlined, JIT, off-CPU waits: the default) "
		  "or by file (dso)" },
	{ OPT_PREFIX, "prefix", .arg = "WHAT", .comp = COMP_WORD, .words = "comm,pid,tid,none",
	  .help = "svg: the frames above the root: the command (comm, the default), with its "
		  "process id (pid) and thread id (tid), or none" },
	{ OPT_TITLE, "title", .arg = "TEXT", .help = "the title (default: the input file's name)" },
	{ OPT_BUCKETS, "buckets", .arg = "N", .help = "html: the timeline's columns (default 1000)" },
	{ OPT_SOURCE, "source", .arg = "N",
	  .help = "html: source views (lines with their share, instructions under each) of each "
		  "event's N hottest functions (default 20; 0: none)" },
	OPT_GROUP(opt_frames),
	OPT_GROUP(opt_verbosity),
	OPT_END,
};

static bool pick(const char *arg, const char *const *words, size_t n, int *out, const char *what)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(arg, words[i])) {
			*out = (int)i;
			return true;
		}
	cli_error("%s: '%s' is not one of its values; see 'perfev flamegraph --help'", what, arg);
	return false;
}

static bool set_option(void *ctx, int key, const char *arg)
{
	static const char *const formats[] = { "", "html", "svg" }, *const colors[] = { "kind", "dso" },
				 *const prefixes[] = { "comm", "none", "pid", "tid" };
	struct fg_opts *o = ctx;
	int v;

	switch (key) {
	case 'f':
		return pick(arg, formats + 1, 2, &v, "--format") && (o->format = v + 1);
	case OPT_COLORS:
		if (!pick(arg, colors, 2, &v, "--colors"))
			return false;
		o->colors = (enum perfev_write_colors)v;
		return true;
	case OPT_PREFIX:
		if (!pick(arg, prefixes, 4, &v, "--prefix"))
			return false;
		o->prefix = (enum perfev_write_prefix)v;
		return true;
	case OPT_INLINE:
		o->inlines = true;
		return true;
	case OPT_TITLE:
		o->title = arg;
		return true;
	case OPT_BUCKETS:
		return cli_parse_long("--buckets", arg, 1, 100000, &o->buckets);
	case OPT_SOURCE:
		return cli_parse_long("--source", arg, 0, 10000, &o->sources);
	}
	return false;
}

const struct opt_cmd flamegraph_cmd = {
	.name = "flamegraph",
	.summary = "draw a perf.data file's profile: an HTML report or an SVG flame graph",
	.synopsis = "[-i FILE] [-o FILE.html|FILE.svg] [-f html|svg] [filters] [--inline] "
		    "[--colors BY] [--prefix WHAT] [--title TEXT]",
	.about = "Reads a perf.data file (perfev's or perf's) and writes a file to open in a browser: "
		 "the HTML report (flame graph and callers of the same samples, a table of functions, "
		 "search, thread selection, and a timeline whose ranges pick the samples shown), or an "
		 "SVG flame graph (zoom, search). Neither needs the network.",
	.opts = fg_table,
	.set = set_option,
	.operands = OPERANDS_NONE,
	.operand_hint = "the file is given with -i",
};

struct views {
	struct perfev_profile_source_view *v;
	size_t n;
	struct perfev_sources *sources;
};

static void views_free(struct views *vs)
{
	for (size_t i = 0; i < vs->n; i++)
		perfev_annotation__delete((struct perfev_annotation *)vs->v[i].annotation);
	free(vs->v);
	perfev_sources__delete(vs->sources);
}

/*
 * Each series' n hottest functions that can be annotated (the kernel's and
 * files rebuilt since cannot), for the report's source views; false after
 * printing why (out of memory).
 */
static bool make_views(const struct export_data *d, long n, bool verbose, struct views *vs)
{
	size_t nsyms = perfev_annotate_hist__nr_syms(d->hist);

	vs->v = calloc((size_t)n * d->nr_series + 1, sizeof(*vs->v));
	vs->sources = perfev_sources__new(NULL);
	if (!vs->v || !vs->sources) {
		cli_error("out of memory");
		return false;
	}
	for (size_t si = 0; si < d->nr_series; si++) {
		long made = 0;

		for (size_t i = 0; i < nsyms && made < n; i++) {
			const struct perfev_annotate_sym *e = perfev_annotate_hist__sym(d->hist, i);
			struct perfev_annotation *a;

			if (e->evsel != (int)d->series_evsel[si] || !e->sym)
				continue;
			a = perfev_annotation__new(d->hist, e->evsel, e->dso, e->sym->start,
						   e->sym->start + (e->sym->size ? e->sym->size : 1), NULL);
			if (!a) {
				if (verbose)
					cli_note("no source view of %s: %s", e->sym->name, perfev_last_error());
				continue;
			}
			vs->v[vs->n++] = (struct perfev_profile_source_view){ si, a };
			made++;
		}
	}
	return true;
}

static bool ends_with(const char *s, const char *tail)
{
	size_t n = strlen(s), t = strlen(tail);

	return n >= t && !strcmp(s + n - t, tail);
}

int cmd_flamegraph(int argc, char **argv)
{
	struct fg_opts fo = { .sources = DEFAULT_SOURCES };
	struct views vs = { 0 };
	struct cli_args a = { 0 };
	struct export_input in = { 0 };
	struct export_data d = { 0 };
	const char *output;
	bool svg;
	FILE *out;
	int ret, err;

	if (!opt_parse(&flamegraph_cmd, argc, argv, &a, &fo, &ret))
		goto out;
	ret = 1;
	output = a.output ? a.output : DEFAULT_OUTPUT;
	svg = fo.format ? fo.format == 2 : ends_with(output, ".svg") || ends_with(output, ".SVG");
	in = (struct export_input){ .input = a.input ? a.input : PERFEV_DATA_FILE_DEFAULT,
				    .inlines = fo.inlines, .times = !svg, .quiet = a.quiet,
				    .verbose = a.verbose, .max_stack = (unsigned)a.max_stack,
				    .no_demangle = a.no_demangle, .filter = a.filter,
				    .off_cpu = { a.off_cpu, a.off_cpu_thresh_ns, a.off_cpu_thresh_given },
				    .annotate = !svg && fo.sources > 0 };
	if (!export_read(&in, &d))
		goto out;
	if (in.annotate && !make_views(&d, fo.sources, a.verbose, &vs))
		goto out;
	if (svg)
		export_first_series(&d, "an SVG flame graph", a.quiet);
	out = export_open_output(output, false);
	if (!out)
		goto out;
	struct perfev_profile_write_opts wo = { .sz = sizeof(wo), .series = d.series,
						.nr_series = d.nr_series, .prefix = fo.prefix,
						.colors = fo.colors, .title = fo.title ? fo.title : d.title,
						.buckets = (uint32_t)fo.buckets, .source_views = vs.v,
						.nr_source_views = vs.n, .sources = vs.sources };

	err = svg ? perfev_profile__write_svg(out, &wo) : perfev_profile__write_html(out, &wo);
	if (err)
		cli_error("cannot write %s: %s", output, perfev_last_error());
	if (export_close_output(out, output, !err)) {
		ret = 0;
		if (!a.quiet && out != stdout)
			printf("%s\n", output);
	}
out:
	views_free(&vs);
	export_data_free(&d);
	cli_args__free(&a);
	return ret;
}
