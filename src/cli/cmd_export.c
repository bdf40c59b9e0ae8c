/* SPDX-License-Identifier: MIT */
/*
 * perfev export: a recording's profile in the formats other tools read:
 * pprof (go tool pprof, continuous-profiling servers), speedscope, folded
 * stacks (FlameGraph), and perfev's own JSON.  The writing is the library's.
 */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "export.h"
#include "opt.h"

enum format { FMT_NONE, FMT_PPROF, FMT_SPEEDSCOPE, FMT_FOLDED, FMT_JSON };

static const struct {
	const char *name;
	enum format fmt;
	int (*write)(FILE *f, const struct perfev_profile_write_opts *o);
	bool binary, one_series;
} formats[] = {
	{ "pprof", FMT_PPROF, perfev_profile__write_pprof, true, false },
	{ "speedscope", FMT_SPEEDSCOPE, perfev_profile__write_speedscope, false, false },
	{ "folded", FMT_FOLDED, perfev_profile__write_folded, false, true },
	{ "json", FMT_JSON, perfev_profile__write_json, false, false },
};

struct export_opts {
	int fmt; /* index into formats, -1 none */
	enum perfev_write_prefix prefix;
	bool weights, pretty, inlines;
};

enum { OPT_PREFIX = 256, OPT_WEIGHTS, OPT_PRETTY, OPT_INLINE };

static const struct opt export_table[] = {
	{ 'f', "format", .arg = "FORMAT", .comp = COMP_WORD, .words = "pprof,speedscope,folded,json",
	  .help = "pprof (gzipped profile.proto), speedscope (JSON), folded (stacks as FlameGraph's "
		  "stackcollapse-perf.pl writes them) or json (perfev's: the call tree and the table)" },
	OPT_GROUP(opt_input),
	OPT_GROUP(opt_output),
	OPT_HELP('o', "write to FILE (default: standard output; '-' too)"),
	OPT_GROUP(opt_filters),
	OPT_GROUP(opt_off_cpu),
	{ OPT_INLINE, "inline", .help = "show inlined functions as frames of their own (pprof: as lines "
					"of one location)" },
	{ OPT_PREFIX, "prefix", .arg = "WHAT", .comp = COMP_WORD, .words = "comm,pid,tid,none",
	  .help = "folded: begin each stack with the command (comm, the default), the command and "
		  "process id (pid), and thread id (tid), or nothing (none)" },
	{ OPT_WEIGHTS, "weights", .help = "folded: count the event's weights (periods) instead of samples" },
	{ OPT_PRETTY, "pretty", .help = "json and speedscope: indented, a value per line" },
	OPT_GROUP(opt_frames),
	OPT_GROUP(opt_verbosity),
	OPT_END,
};

static bool set_option(void *ctx, int key, const char *arg)
{
	struct export_opts *o = ctx;
	static const char *const prefixes[] = { "comm", "none", "pid", "tid" };

	switch (key) {
	case 'f':
		for (size_t i = 0; i < sizeof(formats) / sizeof(formats[0]); i++)
			if (!strcmp(arg, formats[i].name)) {
				o->fmt = (int)i;
				return true;
			}
		cli_error("unknown format '%s'; the formats are pprof, speedscope, folded, json", arg);
		return false;
	case OPT_PREFIX:
		for (size_t i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++)
			if (!strcmp(arg, prefixes[i])) {
				o->prefix = (enum perfev_write_prefix)i;
				return true;
			}
		cli_error("--prefix is comm, pid, tid or none, not '%s'", arg);
		return false;
	case OPT_WEIGHTS:
		o->weights = true;
		return true;
	case OPT_PRETTY:
		o->pretty = true;
		return true;
	case OPT_INLINE:
		o->inlines = true;
		return true;
	}
	return false;
}

const struct opt_cmd export_cmd = {
	.name = "export",
	.summary = "write a perf.data file's profile as pprof, speedscope, folded stacks or JSON",
	.synopsis = "-f FORMAT [-i FILE] [-o FILE] [filters] [--inline] [--prefix WHAT] [--weights] "
		    "[--pretty]",
	.about = "Reads a perf.data file (perfev's or perf's) and writes its samples' profile for "
		 "other tools: go tool pprof, speedscope, flamegraph.pl. Totals do not depend on "
		 "--children: every format holds each sample once.",
	.opts = export_table,
	.set = set_option,
	.operands = OPERANDS_NONE,
	.operand_hint = "the file is given with -i",
};

int cmd_export(int argc, char **argv)
{
	struct export_opts eo = { .fmt = -1 };
	struct cli_args a = { 0 };
	struct export_input in = { 0 };
	struct export_data d = { 0 };
	FILE *out = NULL;
	int ret, err;

	if (!opt_parse(&export_cmd, argc, argv, &a, &eo, &ret))
		goto out;
	ret = 1;
	if (eo.fmt < 0) {
		cli_error("give the format with -f: pprof, speedscope, folded or json");
		goto out;
	}
	in = (struct export_input){ .input = a.input ? a.input : PERFEV_DATA_FILE_DEFAULT,
				    .inlines = eo.inlines, .quiet = a.quiet, .verbose = a.verbose,
				    .max_stack = (unsigned)a.max_stack, .no_demangle = a.no_demangle,
				    .filter = a.filter,
				    .off_cpu = { a.off_cpu, a.off_cpu_thresh_ns, a.off_cpu_thresh_given } };
	if (!export_read(&in, &d))
		goto out;
	if (formats[eo.fmt].one_series)
		export_first_series(&d, formats[eo.fmt].name, a.quiet);
	out = export_open_output(a.output, formats[eo.fmt].binary);
	if (!out)
		goto out;
	/* Off-CPU and wall-clock time are counted in ns: a wait is one sample of any length. */
	bool time_series = d.off_cpu && d.series[0].unit && !strcmp(d.series[0].unit, "nanoseconds");
	struct perfev_profile_write_opts wo = { .sz = sizeof(wo), .series = d.series,
						.nr_series = d.nr_series, .prefix = eo.prefix,
						.folded_weights = eo.weights || time_series,
						.pretty = eo.pretty,
						.start_time_ns = d.start_time_ns, .title = d.title };

	err = formats[eo.fmt].write(out, &wo);
	if (err)
		cli_error("cannot write %s: %s", a.output && strcmp(a.output, "-") ? a.output : "the output",
			  perfev_last_error());
	if (export_close_output(out, a.output, !err))
		ret = 0;
out:
	export_data_free(&d);
	cli_args__free(&a);
	return ret;
}
