/* SPDX-License-Identifier: MIT */
/*
 * perfev annotate: where in a function its samples fell, instruction by
 * instruction with the source lines between them (perf annotate's text),
 * or source line by source line; the functions named, or every sampled
 * function, hottest first.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "annotate.h"
#include "opt.h"
#include "perfev/perfev.h"

struct annotate_opts {
	const char *input;
	enum annotate_view view;
	bool view_set;
	enum perfev_annotate_percent percent;
	bool json, quiet, verbose, no_demangle;
	const char *prefix;
	long prefix_strip;
	struct cli_filters filter;
	char **symbols; /* the operands */
	int nr_symbols;
};

enum {
	OPT_STDIO = 256,
	OPT_ASM_ONLY,
	OPT_PERCENT_TYPE,
	OPT_JSON,
	OPT_PREFIX,
	OPT_PREFIX_STRIP,
	OPT_NO_DEMANGLE,
};

#define PERCENT_TYPES "local,global,local-period,global-period,local-hits,global-hits"

static const struct opt annotate_table[] = {
	OPT_GROUP(opt_input),
	{ OPT_STDIO, "stdio", .help = "text output (the default; accepted for perf's habit)" },
	{ 's', "source", .help = "source lines with their share (own and with inlined code) instead "
				 "of instructions" },
	{ OPT_ASM_ONLY, "asm-only", .help = "instructions only, without source lines between them" },
	{ OPT_PERCENT_TYPE, "percent-type", .arg = "TYPE", .comp = COMP_WORD, .words = PERCENT_TYPES,
	  .help = "percentages of the function's samples (local, the default) or of all the event's "
		  "(global), by period; local-hits and global-hits by number of samples" },
	{ OPT_JSON, "json", .help = "JSON output: instructions, source lines and sources of each function",
	  .flags = OPT_JSON_ERRORS },
	{ OPT_PREFIX, "prefix", .arg = "DIR", .comp = COMP_FILE,
	  .help = "look for source files under DIR (with --prefix-strip, as objdump does)" },
	{ OPT_PREFIX_STRIP, "prefix-strip", .arg = "N",
	  .help = "remove N leading directories from source paths before adding --prefix" },
	OPT_GROUP(opt_filters),
	{ OPT_NO_DEMANGLE, "no-demangle", .help = "show C++ and Rust names as they are in the file" },
	OPT_GROUP(opt_verbosity),
	OPT_END,
};

static bool parse_percent(struct annotate_opts *o, const char *arg)
{
	static const struct {
		const char *name;
		enum perfev_annotate_percent p;
	} types[] = {
		{ "local", PERFEV_PERCENT_LOCAL_PERIOD },	{ "local-period", PERFEV_PERCENT_LOCAL_PERIOD },
		{ "global", PERFEV_PERCENT_GLOBAL_PERIOD },	{ "global-period", PERFEV_PERCENT_GLOBAL_PERIOD },
		{ "local-hits", PERFEV_PERCENT_LOCAL_HITS },	{ "global-hits", PERFEV_PERCENT_GLOBAL_HITS },
	};

	for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++)
		if (!strcmp(arg, types[i].name)) {
			o->percent = types[i].p;
			return true;
		}
	cli_error("--percent-type: '%s' is not one of " PERCENT_TYPES, arg);
	return false;
}

static bool set_view(struct annotate_opts *o, enum annotate_view v, const char *name)
{
	if (o->view_set && o->view != v) {
		cli_error("%s: -s/--source and --asm-only show different things; give one", name);
		return false;
	}
	o->view = v;
	o->view_set = true;
	return true;
}

static bool set_option(void *ctx, int key, const char *arg)
{
	struct annotate_opts *o = ctx;

	switch (key) {
	case OPT_STDIO:
		return true;
	case 's':
		return set_view(o, VIEW_SOURCE, "--source");
	case OPT_ASM_ONLY:
		return set_view(o, VIEW_ASM, "--asm-only");
	case OPT_PERCENT_TYPE:
		return parse_percent(o, arg);
	case OPT_JSON:
		o->json = true;
		return true;
	case OPT_PREFIX:
		o->prefix = arg;
		return true;
	case OPT_PREFIX_STRIP:
		return cli_parse_long("--prefix-strip", arg, 0, 4096, &o->prefix_strip);
	case OPT_NO_DEMANGLE:
		o->no_demangle = true;
		return true;
	}
	return false;
}

const struct opt_cmd annotate_cmd = {
	.name = "annotate",
	.summary = "show where in a function its samples fell: instructions and source lines",
	.synopsis = "[-i FILE] [--stdio] [-s | --asm-only] [--percent-type TYPE] [--json] "
		    "[--prefix DIR] [--prefix-strip N] [filters] [SYMBOL...]",
	.about = "Without SYMBOL, every function with samples, the hottest first.",
	.opts = annotate_table,
	.set = set_option,
	.operands = OPERANDS_WORDS,
};

/* Functions of a file that could not be annotated, said once for the file. */
struct skipped {
	struct perfev_dso *dso;
	char *why;
	unsigned n;
};

struct annotate_state {
	const struct annotate_opts *o;
	struct perfev_session *s;
	struct perfev_annotate_hist *h;
	struct annotate_out out;
	struct perfev_json *j;
	int shown, failed;
	struct skipped *skipped;
	size_t nr_skipped;
	/* With --json, what went wrong goes into the document: its "warnings" and "errors". */
	char **msgs[2];
	size_t nr_msgs[2];
	struct perfev_sample_filter *filter; /* NULL: none */
	/* Functions named: by frame id, whether its symbol is one of them (0 not yet, 1 no, 2 yes). */
	uint8_t *wanted;
	size_t wanted_cap;
};

enum { MSG_WARNING, MSG_ERROR };

/* An error (counted) or a warning, on stderr, or kept for the JSON document. */
static void say(struct annotate_state *st, int kind, const char *fmt, ...) PRINTF_LIKE(3, 4);
static void say(struct annotate_state *st, int kind, const char *fmt, ...)
{
	char *m = NULL, **v;
	va_list ap;

	if (kind == MSG_ERROR)
		st->failed++;
	else if (st->o->quiet)
		return;
	va_start(ap, fmt);
	if (vasprintf(&m, fmt, ap) < 0)
		m = NULL;
	va_end(ap);
	if (!m) {
		cli_error("out of memory");
		return;
	}
	if (!st->o->json) {
		if (kind == MSG_ERROR)
			cli_error("%s", m);
		else
			cli_note("warning: %s", m);
		free(m);
		return;
	}
	v = realloc(st->msgs[kind], (st->nr_msgs[kind] + 1) * sizeof(*v));
	if (!v) {
		free(m);
		return;
	}
	v[st->nr_msgs[kind]++] = m;
	st->msgs[kind] = v;
}

static void write_msgs(struct annotate_state *st, int kind)
{
	perfev_json__arr_begin(st->j, kind == MSG_ERROR ? "errors" : "warnings");
	for (size_t i = 0; i < st->nr_msgs[kind]; i++) {
		perfev_json__str(st->j, NULL, st->msgs[kind][i]);
		free(st->msgs[kind][i]);
	}
	perfev_json__arr_end(st->j);
	free(st->msgs[kind]);
	st->msgs[kind] = NULL;
	st->nr_msgs[kind] = 0;
}

static bool named(const struct annotate_opts *o, const struct perfev_symbol *sym);

/* Whether the function of f, which has a symbol, is one of those named (remembered by frame id). */
static bool wanted(struct annotate_state *st, const struct perfev_frame *f)
{
	if (!f->id)
		return named(st->o, f->sym);
	if (f->id >= st->wanted_cap) {
		size_t cap = st->wanted_cap ? st->wanted_cap : 4096;
		uint8_t *n;

		while (cap <= f->id)
			cap *= 2;
		n = realloc(st->wanted, cap);
		if (!n)
			return named(st->o, f->sym);
		memset(n + st->wanted_cap, 0, cap - st->wanted_cap);
		st->wanted = n;
		st->wanted_cap = cap;
	}
	if (!st->wanted[f->id])
		st->wanted[f->id] = named(st->o, f->sym) ? 2 : 1;
	return st->wanted[f->id] == 2;
}

static int on_sample(void *ctx, const struct perfev_session_sample *ss)
{
	struct annotate_state *st = ctx;
	const struct perfev_frame *f = ss->nr_frames ? &ss->frames[0] : NULL;

	if (ss->evsel < 0)
		return 0;
	/*
	 * With functions named, a sample in another function counts only to its
	 * event's total (the global percentages): most samples then add nothing
	 * to the histogram, to sort or to keep.  Samples in no function are
	 * weighed by file, without their addresses, to say why a file could not
	 * be annotated.
	 */
	if (st->o->nr_symbols && f && f->sym && !wanted(st, f))
		return perfev_annotate_hist__add_addr(st->h, ss->evsel, NULL, NULL, 0, ss->period);
	if (st->o->nr_symbols && f && !f->sym)
		return perfev_annotate_hist__count(st->h, ss);
	return perfev_annotate_hist__add(st->h, ss);
}

static const char *event_name(const struct annotate_state *st, int evsel)
{
	return perfev_data_reader__evsel_name(perfev_session__reader(st->s), (size_t)evsel);
}

/*
 * Samples in files that cannot be annotated (no symbols: rebuilt since the
 * recording, missing, stripped) are said, with the file's own reason; all
 * of them when a named function was not found, else those of 1% or more.
 */
static void explain_unresolved(struct annotate_state *st, double min_share)
{
	size_t n = perfev_annotate_hist__nr_syms(st->h);

	for (size_t i = 0; i < n; i++) {
		const struct perfev_annotate_sym *e = perfev_annotate_hist__sym(st->h, i);
		const char *why;
		uint64_t total = 0;
		double share;

		if (e->sym || !e->dso || !(why = perfev_dso__error(e->dso)))
			continue;
		perfev_annotate_hist__total(st->h, e->evsel, NULL, &total);
		share = total ? 100.0 * (double)e->period / (double)total : 0;
		if (share < min_share)
			continue;
		/* Asked for a function by name, only files that could have had it matter. */
		if (!min_share && (perfev_dso__is_kernel(e->dso) || perfev_dso__name(e->dso)[0] == '['))
			continue;
		if (perfev_dso__is_kernel(e->dso)) {
			say(st, MSG_WARNING, "%.1f%% of the %s samples are in the kernel, whose code perfev "
			    "does not annotate", share, event_name(st, e->evsel));
			continue;
		}
		say(st, MSG_WARNING, "%.1f%% of the %s samples are in %s, which has no symbols to "
		    "annotate: %s", share, event_name(st, e->evsel), perfev_dso__name(e->dso), why);
	}
}

/* Going through every function: one that cannot be annotated is said later, with its file's others. */
static void skip(struct annotate_state *st, struct perfev_dso *d, const char *why)
{
	struct skipped *n;

	for (size_t i = 0; i < st->nr_skipped; i++)
		if (st->skipped[i].dso == d) {
			st->skipped[i].n++;
			return;
		}
	n = realloc(st->skipped, (st->nr_skipped + 1) * sizeof(*n));
	if (!n)
		return;
	st->skipped = n;
	n[st->nr_skipped++] = (struct skipped){ d, strdup(why), 1 };
}

static void say_skipped(struct annotate_state *st)
{
	for (size_t i = 0; i < st->nr_skipped; i++) {
		struct skipped *k = &st->skipped[i];

		say(st, MSG_WARNING, "%u function%s of %s not annotated: %s", k->n, k->n > 1 ? "s" : "",
		    perfev_dso__name(k->dso), k->why ? k->why : "(no memory to say why)");
		free(k->why);
	}
	free(st->skipped);
	st->skipped = NULL;
	st->nr_skipped = 0;
}

static void show(struct annotate_state *st, const struct perfev_annotate_sym *e)
{
	/* Instructions alone need no DWARF. */
	struct perfev_annotate_opts ao = { .sz = sizeof(ao),
					   .no_lines = st->o->view == VIEW_ASM && !st->o->json };
	uint64_t end = e->sym->start + (e->sym->size ? e->sym->size : 1);
	struct perfev_annotation *a;

	a = perfev_annotation__new(st->h, e->evsel, e->dso, e->sym->start, end, &ao);
	if (!a && st->o->nr_symbols) {
		say(st, MSG_ERROR, "cannot annotate %s in %s: %s", e->sym->name, perfev_dso__name(e->dso),
		    perfev_last_error());
		return;
	}
	if (!a) {
		skip(st, e->dso, perfev_last_error());
		return;
	}
	st->out.event = event_name(st, e->evsel);
	if (st->o->json)
		annotate_print_json(&st->out, st->j, a);
	else
		annotate_print_text(&st->out, a);
	perfev_annotation__delete(a);
	st->shown++;
}

/* A function is named by its name as shown, or as the file has it (mangled). */
static bool sym_is(const char *name, const struct perfev_symbol *sym)
{
	return !strcmp(name, sym->name) || !strcmp(name, sym->raw_name);
}

static bool named(const struct annotate_opts *o, const struct perfev_symbol *sym)
{
	for (int i = 0; i < o->nr_symbols; i++)
		if (sym_is(o->symbols[i], sym))
			return true;
	return false;
}

/* The functions asked for (or all), event by event, hottest first. */
static void show_all(struct annotate_state *st)
{
	const struct annotate_opts *o = st->o;
	size_t n = perfev_annotate_hist__nr_syms(st->h);
	size_t nr_evsels = perfev_data_reader__nr_evsels(perfev_session__reader(st->s));

	for (size_t ev = 0; ev < nr_evsels; ev++)
		for (size_t i = 0; i < n; i++) {
			const struct perfev_annotate_sym *e = perfev_annotate_hist__sym(st->h, i);

			if (e->evsel == (int)ev && e->sym && (!o->nr_symbols || named(o, e->sym)))
				show(st, e);
		}
}

/* Each named function that has no samples is an error, with what may explain it. */
static void check_named(struct annotate_state *st)
{
	const struct annotate_opts *o = st->o;
	size_t n = perfev_annotate_hist__nr_syms(st->h);

	for (int k = 0; k < o->nr_symbols; k++) {
		bool found = false;

		for (size_t i = 0; i < n && !found; i++) {
			const struct perfev_annotate_sym *e = perfev_annotate_hist__sym(st->h, i);

			found = e->sym && sym_is(o->symbols[k], e->sym);
		}
		if (!found) {
			say(st, MSG_ERROR, "no samples in a function named '%s' in %s%s", o->symbols[k],
			    o->input, st->filter ? " (with these filters)" : "");
		}
	}
}

static bool parse_args(int argc, char **argv, struct annotate_opts *o, struct cli_args *a, int *ret)
{
	if (!opt_parse(&annotate_cmd, argc, argv, a, o, ret))
		return false;
	*ret = 1;
	o->input = a->input ? a->input : PERFEV_DATA_FILE_DEFAULT;
	o->filter = a->filter;
	o->quiet = a->quiet;
	o->verbose = a->verbose;
	o->symbols = a->operands;
	o->nr_symbols = a->nr_operands;
	if (o->prefix_strip && !o->prefix) {
		cli_error("--prefix-strip removes directories before --prefix is added; give --prefix too");
		return false;
	}
	return true;
}

static int run(struct annotate_state *st)
{
	const struct annotate_opts *o = st->o;
	uint64_t t0 = cli_now_ns(), t1;
	int err = perfev_session__process(st->s, on_sample, st);
	bool damaged = false;

	if (err == -ENOMEM) {
		cli_error("out of memory reading '%s'", o->input);
		return 1;
	}
	if (err < 0) {
		cli_error("'%s' is damaged: %s; the annotations cover the records before that point",
			  o->input, perfev_last_error());
		damaged = true;
	}
	t1 = cli_now_ns();
	if (o->verbose)
		cli_note("%" PRIu64 " samples read in %.3f s, %zu functions and files with samples",
			 perfev_session__stats(st->s)->nr_samples, (t1 - t0) / 1e9,
			 perfev_annotate_hist__nr_syms(st->h));
	if (o->json) {
		st->j = perfev_json__new(stdout, 0);
		if (!st->j) {
			cli_error("%s", perfev_last_error());
			return 1;
		}
		perfev_json__obj_begin(st->j, NULL);
		perfev_json__arr_begin(st->j, "annotations");
	}
	if (!o->nr_symbols)
		explain_unresolved(st, 1.0); /* first: it says why a hot file is missing below */
	show_all(st);
	if (o->json)
		perfev_json__arr_end(st->j);
	if (o->nr_symbols) {
		check_named(st);
		if (st->failed)
			explain_unresolved(st, 0);
	} else {
		bool any_skipped = st->nr_skipped > 0;

		say_skipped(st);
		if (!st->shown)
			say(st, MSG_ERROR, "%s in '%s' could be annotated",
			    any_skipped ? "no function with samples" : "no samples in any known function",
			    o->input);
	}
	if (o->json) {
		write_msgs(st, MSG_WARNING);
		write_msgs(st, MSG_ERROR);
		perfev_json__obj_end(st->j);
		if (perfev_json__delete(st->j) && !st->failed) {
			cli_note("error: writing the JSON: %s", perfev_last_error());
			st->failed++;
		}
		st->j = NULL;
	}
	if (o->verbose)
		cli_note("%d functions annotated in %.3f s", st->shown, (cli_now_ns() - t1) / 1e9);
	return st->failed || damaged ? 1 : 0;
}

int cmd_annotate(int argc, char **argv)
{
	struct annotate_opts o = { .percent = PERFEV_PERCENT_LOCAL_PERIOD };
	struct annotate_state st = { .o = &o };
	struct perfev_sources_opts so = { .sz = sizeof(so) };
	struct perfev_symbolizer *sy = NULL;
	struct cli_args a = { 0 };
	int ret = 1;

	if (!parse_args(argc, argv, &o, &a, &ret))
		goto out;
	so.prefix = o.prefix;
	so.prefix_strip = (unsigned)o.prefix_strip;
	st.h = perfev_annotate_hist__new();
	st.out = (struct annotate_out){ .f = stdout, .view = o.view, .percent = o.percent,
					.quiet = o.quiet };
	st.out.sources = perfev_sources__new(&so);
	if (!st.h || !st.out.sources) {
		cli_error("%s", perfev_last_error());
		goto out;
	}
	if (!cli_filter_new(&o.filter, &st.filter))
		goto out;
	st.s = cli_session_open_first_frame(o.input, o.no_demangle, &o.quiet, st.filter, &sy);
	if (!st.s)
		goto out;
	ret = run(&st);
out:
	perfev_session__delete(st.s);
	perfev_sample_filter__delete(st.filter);
	perfev_symbolizer__delete(sy);
	perfev_annotate_hist__delete(st.h);
	perfev_sources__delete(st.out.sources);
	annotate_out__free(&st.out);
	free(st.wanted);
	cli_args__free(&a);
	return ret;
}
