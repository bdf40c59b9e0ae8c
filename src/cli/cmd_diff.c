// SPDX-License-Identifier: MIT
/*
 * perfev diff: two or more recordings compared as perf diff compares them
 * (the comparison is the library's, perfev/profile_diff.h): the baseline's
 * share of each function, and how the other files differ from it; also as
 * JSON, as a differential flame graph (SVG or the HTML report) and as a pair
 * of pprof files for go tool pprof -diff_base.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "diff.h"
#include "export.h"
#include "opt.h"

#define DEFAULT_BASE "perf.data.old"

enum {
	OPT_PERCENTAGE = 256,
	OPT_JSON,
	OPT_FLAMEGRAPH,
	OPT_PPROF,
	OPT_TIME,
	OPT_NO_DEMANGLE,
};

static const struct opt diff_table[] = {
	{ 'c', "compute", .arg = "METHOD", .comp = COMP_WORD, .words = "delta-abs,delta,ratio",
	  .help = "what to compute against the baseline: delta-abs (the default: the change of share, "
		  "rows by its size), delta (rows from the largest growth down), ratio (of periods) or "
		  "wdiff:W1,W2 (period * W2 - baseline period * W1)" },
	OPT_GROUP_ONLY(opt_sort, "s"),
	OPT_HELP('s', "match and show rows by these keys, comma-separated: comm, pid, tid, dso, sym, "
		      "srcline (default dso,sym)"),
	{ 'p', "period", .help = "also show each file's period of every row" },
	{ 'F', "formula", .help = "also show how each computed value is made" },
	{ 'o', "order", .arg = "N", .help = "order rows by file N's computed value (default 1; 0: by the "
					    "baseline's share)" },
	{ 'b', "baseline-only", .help = "only rows in the baseline and in another file" },
	{ 'C', "comms", .arg = "LIST", .help = "only rows of these commands, comma-separated" },
	{ 'd', "dsos", .arg = "LIST", .help = "only rows in these files (name or path), comma-separated" },
	{ 'S', "symbols", .arg = "LIST", .help = "only rows of these functions, comma-separated" },
	{ OPT_PERCENTAGE, "percentage", .arg = "HOW", .comp = COMP_WORD, .words = "absolute,relative",
	  .help = "with -C, -d or -S: shares of each file's whole total (absolute, the default) or of "
		  "what the filters keep (relative)" },
	{ OPT_TIME, "time", .arg = "RANGES",
	  .help = "only samples in these time ranges of each file, as perf's --time (percents such as "
		  "10%/2 fit every file)" },
	{ 't', "field-separator", .arg = "SEP", .help = "separate columns by SEP, unpadded" },
	{ OPT_JSON, "json", .help = "JSON output: each event's rows, every file's period, samples, share and "
				    "computed values", .flags = OPT_JSON_ERRORS },
	{ OPT_FLAMEGRAPH, "flamegraph", .arg = "FILE", .comp = COMP_FILE,
	  .help = "also write a differential flame graph of the first new file against the baseline: "
		  "FILE.svg or FILE.html (the HTML report), grown frames red, shrunk blue" },
	{ OPT_PPROF, "pprof", .arg = "DIR", .comp = COMP_FILE,
	  .help = "also write DIR/base.pb.gz and DIR/new.pb.gz (new2... for more files), for go tool "
		  "pprof -diff_base" },
	{ OPT_NO_DEMANGLE, "no-demangle", .help = "show C++ and Rust names as they are in the file" },
	OPT_GROUP(opt_verbosity),
	OPT_END,
};

static bool parse_compute(struct diff_opts *o, const char *arg)
{
	static const struct {
		const char *name;
		enum perfev_diff_compute c;
	} names[] = { { "delta-abs", PERFEV_DIFF_DELTA_ABS }, { "delta", PERFEV_DIFF_DELTA },
		      { "ratio", PERFEV_DIFF_RATIO }, { "wdiff", PERFEV_DIFF_WDIFF } };
	const char *colon = strchr(arg, ':');
	size_t len = colon ? (size_t)(colon - arg) : strlen(arg);

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (strlen(names[i].name) != len || strncmp(names[i].name, arg, len))
			continue;
		o->compute = names[i].c;
		if (o->compute != PERFEV_DIFF_WDIFF) {
			if (!colon)
				return true;
			cli_error("-c %s takes no weights ('%s')", names[i].name, colon + 1);
			return false;
		}
		char *end;

		if (colon) {
			o->w1 = strtoll(colon + 1, &end, 10);
			if (end != colon + 1 && *end == ',') {
				const char *w2 = end + 1;

				o->w2 = strtoll(w2, &end, 10);
				if (end != w2 && !*end && o->w1 && o->w2)
					return true;
			}
		}
		cli_error("-c wdiff needs two non-zero weights: wdiff:W1,W2 (such as wdiff:1,2), not '%s'", arg);
		return false;
	}
	cli_error("-c: '%s' is not a computation; they are delta-abs, delta, ratio and wdiff:W1,W2", arg);
	return false;
}

static bool parse_keys(struct diff_opts *o, const char *arg)
{
	static const char *const names[NR_KEYS] = { "comm", "pid", "tid", "dso", "sym", "srcline" };
	char *dup = strdup(arg), *save = NULL;
	bool ok = dup != NULL;

	o->nr_keys = 0;
	for (char *t = dup ? strtok_r(dup, ",", &save) : NULL; t; t = strtok_r(NULL, ",", &save)) {
		int k = -1;

		for (int i = 0; i < NR_KEYS; i++)
			if (!strcmp(t, names[i]))
				k = i;
		if (!strcmp(t, "symbol"))
			k = KEY_SYM;
		else if (!strcmp(t, "command"))
			k = KEY_COMM;
		if (k < 0) {
			cli_error("unknown sort key '%s'; the keys are comm, pid, tid, dso, sym, srcline", t);
			ok = false;
			break;
		}
		bool seen = false;

		for (int i = 0; i < o->nr_keys; i++)
			seen |= (int)o->keys[i] == k;
		if (!seen)
			o->keys[o->nr_keys++] = (enum report_key)k;
	}
	free(dup);
	return ok;
}

static bool set_option(void *ctx, int key, const char *arg)
{
	struct diff_opts *o = ctx;

	switch (key) {
	case 'c':
		return parse_compute(o, arg);
	case 'p':
		o->period = true;
		return true;
	case 'F':
		o->formula = true;
		return true;
	case 'o':
		return cli_parse_long("-o", arg, 0, 1024, &o->order);
	case 'b':
		o->baseline_only = true;
		return true;
	case 'C':
		o->comms = arg;
		return true;
	case 'd':
		o->dsos = arg;
		return true;
	case 'S':
		o->syms = arg;
		return true;
	case 't':
		if (!*arg) {
			cli_error("-t needs a separator");
			return false;
		}
		o->field_sep = arg;
		return true;
	case OPT_PERCENTAGE:
		return cli_parse_percentage(arg, &o->relative);
	case OPT_TIME:
		o->filter.time = arg;
		return true;
	case OPT_JSON:
		o->json = true;
		return true;
	case OPT_FLAMEGRAPH:
		o->flamegraph = arg;
		return true;
	case OPT_PPROF:
		o->pprof = arg;
		return true;
	case OPT_NO_DEMANGLE:
		o->no_demangle = true;
		return true;
	}
	return false;
}

const struct opt_cmd diff_cmd = {
	.name = "diff",
	.summary = "compare perf.data files: how each function's share changed",
	.synopsis = "[options] [BASE] [NEW...]",
	.about = "Compares recordings (perfev's or perf's) as perf diff does: BASE, the baseline, "
		 "defaults to perf.data.old and NEW to perf.data; with one file given, it is NEW. "
		 "Rows are matched by file name and function name, so a program rebuilt or moved "
		 "still matches. A row without a Baseline is new; one without a computed value is gone.",
	.opts = diff_table,
	.set = set_option,
	.operands = OPERANDS_WORDS,
	.operand_comp = COMP_FILE,
};

static bool is_clock(const struct perf_event_attr *a)
{
	return a->type == PERF_TYPE_SOFTWARE &&
	       (a->config == PERF_COUNT_SW_CPU_CLOCK || a->config == PERF_COUNT_SW_TASK_CLOCK);
}

struct read_state {
	struct diff_file *df;
	const struct diff_opts *o;
};

static int on_sample(void *ctx, const struct perfev_session_sample *ss)
{
	struct diff_file *df = ((struct read_state *)ctx)->df;

	if (ss->evsel < 0)
		return 0;
	if ((size_t)ss->evsel >= df->nr_profiles) {
		size_t n = (size_t)ss->evsel + 1;
		struct perfev_profile **p = realloc(df->profiles, n * sizeof(*p));

		if (!p)
			return -ENOMEM;
		memset(p + df->nr_profiles, 0, (n - df->nr_profiles) * sizeof(*p));
		df->profiles = p;
		df->nr_profiles = n;
	}
	if (!df->profiles[ss->evsel]) {
		/* The HTML report's timeline needs the samples' times. */
		struct perfev_profile_opts po = { .sz = sizeof(po), .background = true,
						  .times = ((struct read_state *)ctx)->o->flamegraph != NULL };

		df->profiles[ss->evsel] = perfev_profile__new(&po);
		if (!df->profiles[ss->evsel])
			return -ENOMEM;
	}
	return perfev_profile__add(df->profiles[ss->evsel], ss->thread, ss->frames, ss->nr_frames,
				   ss->period)
		       ? -ENOMEM
		       : 0;
}

/* Reads one recording into a profile per event; false after printing why. */
static bool read_file(struct diff_file *df, const struct diff_opts *o)
{
	struct read_state st = { df, o };
	bool quiet = o->quiet;
	struct stat sb;
	int err;

	if (stat(df->path, &sb) && errno == ENOENT) {
		cli_error("cannot open '%s': no such file; perfev diff compares BASE (default %s) with "
			  "NEW (default perf.data): record them, or name them", df->path, DEFAULT_BASE);
		return false;
	}
	/* A filter of each file's own: --time's percents are of each recording. */
	if (!cli_filter_new(&o->filter, &df->filter))
		return false;
	df->s = cli_session_open(df->path, o->no_demangle, &quiet, df->filter, &df->sy);
	if (!df->s)
		return false;
	err = perfev_session__process(df->s, on_sample, &st);
	for (size_t i = 0; i < df->nr_profiles && err >= 0; i++)
		if (df->profiles[i])
			err = perfev_profile__sync(df->profiles[i]);
	if (err == -ENOMEM) {
		cli_error("out of memory reading '%s'", df->path);
		return false;
	}
	if (err < 0) {
		cli_error("cannot compare '%s': it is damaged (%s); a comparison with part of a recording "
			  "would mislead", df->path, perfev_last_error());
		return false;
	}
	if (!perfev_session__stats(df->s)->nr_samples) {
		cli_error("'%s' holds no samples: there is nothing to compare", df->path);
		return false;
	}
	return true;
}

static void file_free(struct diff_file *df)
{
	for (size_t i = 0; i < df->nr_profiles; i++)
		perfev_profile__delete(df->profiles[i]);
	free(df->profiles);
	perfev_session__delete(df->s);
	perfev_symbolizer__delete(df->sy);
	perfev_sample_filter__delete(df->filter);
}

/* File df's event of the baseline's attr a (perf matches type and config), or -1. */
static long match_event(const struct diff_file *df, const struct perf_event_attr *a)
{
	struct perfev_data_reader *r = perfev_session__reader(df->s);

	for (size_t i = 0; i < perfev_data_reader__nr_evsels(r); i++) {
		const struct perf_event_attr *b = perfev_data_reader__attr(r, i);

		if (b && b->type == a->type && b->config == a->config)
			return (long)i;
	}
	return -1;
}

/* The series a file's event gives the writers: named as the baseline's, so that two files' agree. */
static struct perfev_profile_series series_of(const struct diff_file *base, size_t ev,
					      const struct perfev_profile *p)
{
	struct perfev_data_reader *r = perfev_session__reader(base->s);
	const struct perf_event_attr *a = perfev_data_reader__attr(r, ev);
	struct perfev_profile_series s = { .profile = p, .name = perfev_data_reader__evsel_name(r, ev) };

	if (a && is_clock(a)) {
		s.type = "cpu";
		s.unit = "nanoseconds";
	}
	return s;
}

static bool write_flamegraph(const struct diff_opts *o, const struct diff_event *evs, size_t nr_evs,
			     struct diff_file *files, const size_t *ev_index)
{
	const char *ext = strrchr(o->flamegraph, '.');
	bool svg = ext && !strcmp(ext, ".svg"), html = ext && (!strcmp(ext, ".html") || !strcmp(ext, ".htm"));
	struct perfev_profile_series *ser = calloc(nr_evs ? nr_evs : 1, sizeof(*ser));
	struct perfev_profile_series *base = calloc(nr_evs ? nr_evs : 1, sizeof(*base));
	size_t n = 0;
	char title[1024];
	FILE *f = NULL;
	bool ok = false;
	int err;

	if (!svg && !html) {
		cli_error("--flamegraph writes FILE.svg or FILE.html, not '%s'", o->flamegraph);
		goto out;
	}
	if (!ser || !base) {
		cli_error("out of memory");
		goto out;
	}
	for (size_t e = 0; e < nr_evs; e++) {
		if (!evs[e].profiles[0] || !evs[e].profiles[1])
			continue;
		ser[n] = series_of(&files[0], ev_index[e], evs[e].profiles[1]);
		base[n] = series_of(&files[0], ev_index[e], evs[e].profiles[0]);
		n++;
	}
	if (!n) {
		cli_error("--flamegraph: no event has samples in both '%s' and '%s'", files[0].path,
			  files[1].path);
		goto out;
	}
	snprintf(title, sizeof(title), "%s vs %s", files[1].path, files[0].path);
	struct perfev_profile_write_opts wo = { .sz = sizeof(wo), .series = ser, .nr_series = n,
						.base = base, .title = title };

	f = export_open_output(o->flamegraph, false);
	if (!f)
		goto out;
	err = svg ? perfev_profile__write_svg(f, &wo) : perfev_profile__write_html(f, &wo);
	if (err)
		cli_error("cannot write '%s': %s", o->flamegraph, perfev_last_error());
	ok = export_close_output(f, o->flamegraph, !err);
	if (ok && !o->quiet)
		cli_note("wrote the differential flame graph of '%s' against '%s' to %s", files[1].path,
			 files[0].path, o->flamegraph);
out:
	free(ser);
	free(base);
	return ok;
}

/* One pprof file of file fi's profiles of the events every file has. */
static bool write_one_pprof(const char *path, const struct diff_event *evs, size_t nr_evs,
			    struct diff_file *files, size_t nr, size_t fi, const size_t *ev_index)
{
	struct perfev_profile_series *ser = calloc(nr_evs ? nr_evs : 1, sizeof(*ser));
	size_t n = 0;
	FILE *f;
	bool ok;
	int err;

	if (!ser) {
		cli_error("out of memory");
		return false;
	}
	for (size_t e = 0; e < nr_evs; e++) {
		bool all = true;

		for (size_t i = 0; i < nr; i++)
			all &= evs[e].profiles[i] != NULL;
		if (all)
			ser[n++] = series_of(&files[0], ev_index[e], evs[e].profiles[fi]);
	}
	struct perfev_profile_write_opts wo = { .sz = sizeof(wo), .series = ser, .nr_series = n,
						.title = files[fi].path };

	f = n ? export_open_output(path, true) : NULL;
	if (!n)
		cli_error("--pprof: no event has samples in every file");
	if (!f) {
		free(ser);
		return false;
	}
	err = perfev_profile__write_pprof(f, &wo);
	if (err)
		cli_error("cannot write '%s': %s", path, perfev_last_error());
	ok = export_close_output(f, path, !err);
	free(ser);
	return ok;
}

static bool write_pprof(const struct diff_opts *o, const struct diff_event *evs, size_t nr_evs,
			struct diff_file *files, size_t nr, const size_t *ev_index)
{
	char path[4096], first[4096] = "";

	if (mkdir(o->pprof, 0777) && errno != EEXIST) {
		cli_error("cannot make the directory '%s': %s", o->pprof, strerror(errno));
		return false;
	}
	for (size_t i = 0; i < nr; i++) {
		if (!i)
			snprintf(path, sizeof(path), "%s/base.pb.gz", o->pprof);
		else if (i == 1)
			snprintf(path, sizeof(path), "%s/new.pb.gz", o->pprof);
		else
			snprintf(path, sizeof(path), "%s/new%zu.pb.gz", o->pprof, i);
		if (i == 1)
			snprintf(first, sizeof(first), "%s", path);
		if (!write_one_pprof(path, evs, nr_evs, files, nr, i, ev_index))
			return false;
	}
	if (!o->quiet)
		cli_note("wrote %s/base.pb.gz and %s: go tool pprof -diff_base %s/base.pb.gz %s", o->pprof,
			 first, o->pprof, first);
	return true;
}

static bool parse_args(int argc, char **argv, struct diff_opts *o, struct cli_args *a, int *ret)
{
	o->order = 1;
	if (!opt_parse(&diff_cmd, argc, argv, a, o, ret))
		return false;
	*ret = 1;
	o->quiet = a->quiet;
	o->verbose = a->verbose;
	if (a->sort && !parse_keys(o, a->sort))
		return false;
	if (!o->nr_keys) {
		o->keys[o->nr_keys++] = KEY_DSO;
		o->keys[o->nr_keys++] = KEY_SYM;
	}
	size_t nr = a->nr_operands < 2 ? 2 : (size_t)a->nr_operands;

	if ((size_t)o->order >= nr) {
		cli_error("-o %ld: there are only files 0 to %zu (0 is the baseline)", o->order, nr - 1);
		return false;
	}
	if (o->json && o->field_sep) {
		cli_error("--json and -t are two output formats: give one");
		return false;
	}
	return true;
}

int cmd_diff(int argc, char **argv)
{
	struct diff_opts o = { 0 };
	struct cli_args a = { 0 };
	struct diff_file *files = NULL;
	struct diff_event *evs = NULL;
	size_t nr = 0, nr_evs = 0, *ev_index = NULL;
	struct perfev_profile *empty = NULL;
	int ret = 1;

	if (!parse_args(argc, argv, &o, &a, &ret))
		goto out;
	nr = a.nr_operands < 2 ? 2 : (size_t)a.nr_operands;
	files = calloc(nr, sizeof(*files));
	if (!files)
		goto oom;
	files[0].path = a.nr_operands >= 2 ? a.operands[0] : DEFAULT_BASE;
	files[1].path = a.nr_operands >= 2 ? a.operands[1] : a.nr_operands ? a.operands[0] : PERFEV_DATA_FILE_DEFAULT;
	for (size_t i = 2; i < nr; i++)
		files[i].path = a.operands[i];
	for (size_t i = 0; i < nr; i++)
		if (!read_file(&files[i], &o))
			goto out;

	/* Each event of the baseline, with every file's profile of the same event. */
	struct perfev_data_reader *br = perfev_session__reader(files[0].s);
	size_t nev = perfev_data_reader__nr_evsels(br);

	evs = calloc(nev ? nev : 1, sizeof(*evs));
	ev_index = calloc(nev ? nev : 1, sizeof(*ev_index));
	if (!evs || !ev_index)
		goto oom;
	for (size_t e = 0; e < nev; e++) {
		const struct perf_event_attr *attr = perfev_data_reader__attr(br, e);
		struct diff_event *ev = &evs[nr_evs];
		struct perfev_profile_diff_opts dopts = {
			.sz = sizeof(dopts), .keys = (const enum perfev_profile_key *)o.keys,
			.nr_keys = (size_t)o.nr_keys, .compute = o.compute, .wdiff_base = o.w1,
			.wdiff_new = o.w2, .order = (uint32_t)o.order, .order_baseline = o.order == 0,
			.baseline_only = o.baseline_only, .comms = o.comms, .dsos = o.dsos, .syms = o.syms,
			.relative = o.relative
		};
		const struct perfev_profile **cmp;
		bool any = false;

		if (!attr)
			continue;
		ev->name = perfev_data_reader__evsel_name(br, e);
		ev->profiles = calloc(nr, sizeof(*ev->profiles));
		cmp = calloc(nr, sizeof(*cmp));
		if (!ev->profiles || !cmp) {
			free(cmp);
			goto oom;
		}
		for (size_t i = 0; i < nr; i++) {
			long k = i ? match_event(&files[i], attr) : (long)e;

			if (k >= 0 && (size_t)k < files[i].nr_profiles)
				ev->profiles[i] = files[i].profiles[k];
			any |= ev->profiles[i] != NULL;
		}
		if (!any) {
			free(ev->profiles);
			free(cmp);
			continue;
		}
		/* A file without the event compares as one without samples of it. */
		if (!empty && !(empty = perfev_profile__new(NULL))) {
			free(cmp);
			goto oom;
		}
		for (size_t i = 0; i < nr; i++)
			cmp[i] = ev->profiles[i] ? ev->profiles[i] : empty;
		ev->d = perfev_profile_diff__new(cmp, nr, &dopts);
		free(cmp);
		if (!ev->d) {
			cli_error("cannot compare event '%s': %s", ev->name, perfev_last_error());
			nr_evs++;
			goto out;
		}
		ev_index[nr_evs++] = e;
	}
	if (!nr_evs) {
		cli_error("no event of '%s' has samples in any file compared", files[0].path);
		goto out;
	}
	if (o.json) {
		struct perfev_json *j = perfev_json__new(stdout, 0);

		if (!j)
			goto oom;
		diff_print_json(j, &o, evs, nr_evs, files, nr);
		cli_json_done(j, stdout);
	} else {
		for (size_t e = 0; e < nr_evs; e++)
			diff_print_text(stdout, &o, &evs[e], files, nr, e == 0);
	}
	if (!cli_stream_ok(stdout, "standard output"))
		goto out;
	if (o.flamegraph && !write_flamegraph(&o, evs, nr_evs, files, ev_index))
		goto out;
	if (o.pprof && !write_pprof(&o, evs, nr_evs, files, nr, ev_index))
		goto out;
	ret = 0;
	goto out;
oom:
	cli_error("out of memory");
out:
	for (size_t e = 0; e < nr_evs; e++) {
		perfev_profile_diff__delete(evs[e].d);
		free(evs[e].profiles);
	}
	free(evs);
	free(ev_index);
	for (size_t i = 0; files && i < nr; i++)
		file_free(&files[i]);
	free(files);
	perfev_profile__delete(empty);
	cli_args__free(&a);
	return ret;
}
