/* SPDX-License-Identifier: MIT */
/* perfev report: where the samples of a perf.data file went, as a table and call graphs. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "opt.h"
#include "perfev/perfev.h"
#include "report.h"
#include "trace_text.h"

static const char *const key_names[NR_KEYS] = { "comm", "pid", "tid", "dso", "sym", "srcline" };

static int parse_key(const char *s)
{
	for (int k = 0; k < NR_KEYS; k++)
		if (!strcmp(s, key_names[k]))
			return k;
	if (!strcmp(s, "symbol"))
		return KEY_SYM;
	if (!strcmp(s, "command"))
		return KEY_COMM;
	return -1;
}

static bool add_key(struct report_opts *o, int k)
{
	for (int i = 0; i < o->nr_keys; i++)
		if ((int)o->keys[i] == k)
			return true;
	o->keys[o->nr_keys++] = k;
	return true;
}

static bool parse_sort(struct report_opts *o, const char *arg)
{
	char *dup = strdup(arg), *save = NULL;
	bool ok = dup != NULL;

	for (char *t = dup ? strtok_r(dup, ",", &save) : NULL; t; t = strtok_r(NULL, ",", &save)) {
		int k = parse_key(t);

		if (!strcmp(t, "trace")) {
			o->trace = true;
			continue;
		}
		if (k < 0) {
			cli_error("unknown sort key '%s'; the keys are comm, pid, tid, dso, sym, srcline, "
				  "trace", t);
			ok = false;
			break;
		}
		add_key(o, k);
	}
	free(dup);
	if (ok && o->trace && o->nr_keys) {
		cli_error("the trace key sorts alone: '-s trace' (a tracepoint's fields), not with "
			  "other keys");
		ok = false;
	}
	return ok;
}

static bool parse_fields(struct report_opts *o, const char *arg, bool sort_given)
{
	char *dup = strdup(arg), *save = NULL;
	bool ok = dup != NULL;

	o->nr_cols = 0;
	for (char *t = dup ? strtok_r(dup, ",", &save) : NULL; t; t = strtok_r(NULL, ",", &save)) {
		int k = parse_key(t), col;

		if (k >= 0) {
			col = COL_KEY_BASE + k;
			if (!sort_given)
				add_key(o, k);
		} else if (!strcmp(t, "overhead") || !strcmp(t, "self")) {
			col = COL_OVERHEAD;
		} else if (!strcmp(t, "children") || !strcmp(t, "overhead_children")) {
			col = COL_CHILDREN;
		} else if (!strcmp(t, "sample") || !strcmp(t, "samples")) {
			col = COL_SAMPLE;
		} else if (!strcmp(t, "period")) {
			col = COL_PERIOD;
		} else if (!strcmp(t, "time")) {
			col = COL_TIME;
		} else {
			cli_error("unknown field '%s'; the fields are overhead, children, sample, period, "
				  "time, comm, pid, tid, dso, sym, srcline", t);
			ok = false;
			break;
		}
		if (o->nr_cols < (int)(sizeof(o->cols) / sizeof(o->cols[0])))
			o->cols[o->nr_cols++] = col;
	}
	free(dup);
	return ok;
}

static bool parse_graph(struct report_opts *o, const char *arg)
{
	char *dup = strdup(arg), *save = NULL;
	bool ok = dup != NULL;

	for (char *t = dup ? strtok_r(dup, ",", &save) : NULL; t; t = strtok_r(NULL, ",", &save)) {
		char *end;
		double v;

		if (!strcmp(t, "graph") || !strcmp(t, "fractal")) {
			o->graph = GRAPH_GRAPH;
		} else if (!strcmp(t, "flat")) {
			o->graph = GRAPH_FLAT;
		} else if (!strcmp(t, "folded")) {
			o->graph = GRAPH_FOLDED;
		} else if (!strcmp(t, "none")) {
			o->graph = GRAPH_NONE;
		} else if (!strcmp(t, "caller")) {
			o->caller = true;
			o->order_set = true;
			continue;
		} else if (!strcmp(t, "callee")) {
			o->caller = false;
			o->order_set = true;
			continue;
		} else if (!strcmp(t, "function") || !strcmp(t, "percent")) {
			continue; /* perf's defaults, accepted */
		} else {
			v = strtod(t, &end);
			if (end == t || *end || v < 0 || v > 100) {
				cli_error("-g: '%s' is not graph, flat, folded, none, caller, callee or a "
					  "threshold between 0 and 100", t);
				ok = false;
				break;
			}
			o->graph_threshold = v;
			continue;
		}
		o->graph_set = true;
	}
	free(dup);
	return ok;
}

enum {
	OPT_STDIO = 256,
	OPT_TUI,
	OPT_CHILDREN,
	OPT_NO_CHILDREN,
	OPT_LIMIT,
	OPT_INLINE,
	OPT_NO_INLINE,
	OPT_PERCENTAGE,
	OPT_HEADER,
	OPT_HEADER_ONLY,
	OPT_STATS,
	OPT_NS,
};

/* perf report's -g without a value */
#define GRAPH_DEFAULT "graph,0.5,caller"


static const struct opt report_table[] = {
	OPT_GROUP(opt_input),
	{ OPT_STDIO, "stdio", .help = "text output, also on a terminal" },
	{ OPT_TUI, "tui", .help = "the terminal browser (the default when stdin and stdout are a terminal)" },
	/* The shared -s, with report's trace key. */
	{ 's', "sort", .arg = "KEYS", .comp = COMP_WORDS,
	  .words = "comm,pid,tid,dso,sym,srcline,trace",
	  .help = "group samples by these, comma-separated: comm, pid, tid, dso, sym, srcline, or trace "
		  "alone (a tracepoint's fields) (default comm,dso,sym; trace for recordings of "
		  "tracepoints only)" },
	{ OPT_CHILDREN, "children",
	  .help = "also charge each sample to every caller on its stack (the default when the file has "
		  "call graphs)" },
	{ OPT_NO_CHILDREN, "no-children", .help = "charge each sample only to where it was taken" },
	{ 'g', "call-graph", .arg = "MODE", .comp = COMP_WORDS,
	  .words = "graph,flat,folded,none,caller,callee", .defval = GRAPH_DEFAULT,
	  .help = "call graphs below each entry, comma-separated: graph, flat, folded or none; caller "
		  "or callee order; a threshold in percent (default graph,0.5, caller with --children, "
		  "callee without; -g alone: " GRAPH_DEFAULT ")" },
	{ 'G', "inverted", .help = "caller-first call graphs (-g caller)" },
	{ OPT_LIMIT, "percent-limit", .arg = "P",
	  .help = "leave out entries, and call-graph branches, below P percent" },
	OPT_GROUP_ONLY(opt_sort, "F"),
	{ 'n', "show-nr-samples", .help = "a Samples column: the number of samples of each entry" },
	{ OPT_HEADER, "header", .help = "what the file says about the recording, then the report" },
	{ OPT_HEADER_ONLY, "header-only", .help = "only what the file says about the recording" },
	{ OPT_STATS, "stats", .help = "only the number of records of each type, and each event's samples" },
	{ 'T', "threads", .help = "after the report, each thread's counts from the file's READ records" },
	{ OPT_NS, "ns", .help = "times in nanoseconds (accepted as perf's: the report shows no sample times)" },
	OPT_GROUP(opt_filters),
	{ 'S', "symbols", .arg = "LIST",
	  .help = "only the rows of these functions (comma-separated names); their callers and "
		  "callees still count" },
	{ OPT_PERCENTAGE, "percentage", .arg = "HOW", .comp = COMP_WORDS, .words = "absolute,relative",
	  .help = "with filters, percentages of the whole file (absolute, the default) or of what the "
		  "filters pass (relative)" },
	OPT_GROUP(opt_off_cpu),
	{ OPT_INLINE, "inline", .help = "show inlined functions as frames of their own in every stack" },
	{ OPT_NO_INLINE, "no-inline",
	  .help = "DWARF-unwound stacks without the functions inlined at their frames (which perf "
		  "and perfev add by default)" },
	OPT_GROUP(opt_frames),
	OPT_GROUP(opt_verbosity),
	OPT_HELP('q', "no warnings or progress"),
	OPT_END,
};

static bool set_option(void *ctx, int key, const char *arg)
{
	struct report_opts *o = ctx;
	char *end;

	switch (key) {
	case OPT_STDIO:
	case OPT_TUI:
		o->ui = key == OPT_STDIO ? REPORT_UI_STDIO : REPORT_UI_TUI;
		return true;
	case OPT_CHILDREN:
	case OPT_NO_CHILDREN:
		o->children = key == OPT_CHILDREN;
		o->children_set = true;
		return true;
	case 'g':
		return parse_graph(o, arg);
	case 'G':
		o->caller = true;
		o->order_set = true;
		return true;
	case OPT_LIMIT:
		o->percent_limit = strtod(arg, &end);
		if (end == arg || (*end && strcmp(end, "%")) || o->percent_limit < 0 ||
		    o->percent_limit > 100) {
			cli_error("--percent-limit expects a percentage between 0 and 100, not '%s'", arg);
			return false;
		}
		/* As perf: the call graphs' threshold too (a later -g threshold wins). */
		o->graph_threshold = o->percent_limit;
		return true;
	case OPT_INLINE:
		o->inlines = true;
		return true;
	case OPT_NO_INLINE:
		o->no_inline = true;
		return true;
	case 'n':
		o->show_nr = true;
		return true;
	case 's':
		o->sort = arg;
		return true;
	case OPT_HEADER:
		o->header = true;
		return true;
	case OPT_HEADER_ONLY:
		o->header_only = true;
		return true;
	case OPT_STATS:
		o->stats_only = true;
		return true;
	case 'T':
		o->threads = true;
		return true;
	case OPT_NS:
		return true;
	case 'S':
		o->symbols = arg;
		return true;
	case OPT_PERCENTAGE:
		return cli_parse_percentage(arg, &o->relative);
	}
	return false;
}

const struct opt_cmd report_cmd = {
	.name = "report",
	.summary = "show where the samples of a perf.data file went",
	.synopsis = "[-i FILE] [--stdio | --tui] [-s KEYS] [--children | --no-children] [-g [MODE]] "
		    "[-G] [--percent-limit P] [-S SYMBOLS] [-F FIELDS] [filters]",
	.opts = report_table,
	.set = set_option,
	.operands = OPERANDS_NONE,
	.operand_hint = "the file is given with -i",
};

static bool parse_args(int argc, char **argv, struct report_opts *o, bool *no_demangle, int *ret)
{
	struct cli_args a = { 0 };
	bool ok = false;

	o->graph_threshold = 0.5;
	if (!opt_parse(&report_cmd, argc, argv, &a, o, ret))
		goto out;
	*ret = 1;
	*no_demangle = a.no_demangle;
	o->max_stack = (unsigned)a.max_stack;
	o->input = a.input ? a.input : PERFEV_DATA_FILE_DEFAULT;
	/*
	 * As perf: --event and --time choose the samples read; the others leave
	 * the totals alone and choose rows (report_filter.c).
	 */
	struct cli_filters read = { .events = a.filter.events, .time = a.filter.time };
	struct cli_filters rows = { .comms = a.filter.comms, .pids = a.filter.pids,
				    .tids = a.filter.tids, .dsos = a.filter.dsos };

	if (!cli_filter_new(&read, &o->filter) || !cli_filter_new(&rows, &o->rows))
		goto out;
	o->quiet = a.quiet;
	o->verbose = a.verbose;
	o->off_cpu = (struct cli_off_cpu){ a.off_cpu, a.off_cpu_thresh_ns, a.off_cpu_thresh_given };
	if (o->sort && !parse_sort(o, o->sort))
		goto out;
	if (a.fields && !parse_fields(o, a.fields, o->sort != NULL))
		goto out;
	o->sym_first = o->sort && !a.fields && o->nr_keys && o->keys[0] == KEY_SYM;
	o->keys_given = o->sort || a.fields;
	if (!o->nr_keys) {
		add_key(o, KEY_COMM);
		add_key(o, KEY_DSO);
		add_key(o, KEY_SYM);
	}
	report_hide_fixed(o, a.filter.comms, a.filter.dsos);
	o->time = a.filter.time ? strdup(a.filter.time) : NULL;
	ok = true;
out:
	cli_args__free(&a);
	return ok;
}

/* perf sorts recordings of tracepoints only by their fields. */
static bool only_tracepoints(struct perfev_data_reader *r)
{
	for (size_t i = 0; i < perfev_data_reader__nr_evsels(r); i++)
		if (perfev_data_reader__attr(r, i)->type != PERF_TYPE_TRACEPOINT)
			return false;
	return perfev_data_reader__nr_evsels(r) > 0;
}

static bool file_has_callchains(struct perfev_data_reader *r)
{
	for (size_t i = 0; i < perfev_data_reader__nr_evsels(r); i++) {
		const struct perf_event_attr *a = perfev_data_reader__attr(r, i);

		if (a->sample_type & PERF_SAMPLE_CALLCHAIN)
			return true;
		if ((a->sample_type & PERF_SAMPLE_REGS_USER) && (a->sample_type & PERF_SAMPLE_STACK_USER))
			return true;
	}
	return false;
}

struct report_state {
	struct report_opts *o;
	struct perfev_session *s;
	struct perfev_profile **profiles;
	struct report_trace **traces; /* per event, with the trace key */
	struct trace_text *tt;
	struct report_totals *file; /* per event: every sample read, filtered or not */
	struct perfev_frame *cut; /* a stack cut by --max-stack */
	size_t cap_cut;
	size_t nr_profiles;
	uint64_t delivered;
	bool progress;
	bool defaults_set;
	/* Off-CPU time: the events whose samples were waits, and the wall-clock view. */
	bool off_cpu;
	bool *waits; /* per event of profiles[] */
	int clock;   /* the first CPU clock event, whose samples are the on-CPU time; -1: none */
	bool clock_seen;
	struct perfev_profile *wall;
	struct report_wall threads;
	const char *wait_name; /* the event of the waits */
};

/*
 * Defaults that depend on the file: call graphs and children when it has
 * call chains.  Decided at the first sample, since a pipe's attrs come
 * with its data.
 */
static void set_defaults(struct report_state *st)
{
	struct report_opts *o = st->o;
	bool cg = file_has_callchains(perfev_session__reader(st->s));

	if (!o->children_set)
		o->children = cg;
	if (!o->graph_set)
		o->graph = cg ? GRAPH_GRAPH : GRAPH_NONE;
	if (!o->order_set)
		o->caller = o->children;
	if (!o->keys_given && !st->off_cpu && only_tracepoints(perfev_session__reader(st->s)))
		o->trace = true;
	st->clock = -1;
	for (size_t i = 0; st->off_cpu && i < perfev_data_reader__nr_evsels(perfev_session__reader(st->s));
	     i++)
		if (report_is_clock(perfev_data_reader__attr(perfev_session__reader(st->s), i))) {
			st->clock = (int)i;
			break;
		}
	st->defaults_set = true;
}

static struct perfev_profile *new_profile(const struct report_opts *o)
{
	struct perfev_profile_opts po = { .sz = sizeof(po), .inlines = o->inlines, .background = true,
					  .times = o->trace,
					  .unwound_inlines = !o->no_inline && !o->inlines };
	bool need[NR_KEYS] = { false };

	for (int i = 0; i < o->nr_keys; i++)
		need[o->keys[i]] = true;
	for (int i = 0; i < o->nr_cols; i++)
		if (o->cols[i] < NR_KEYS)
			need[o->cols[i]] = true;
	po.srcline = need[KEY_SRCLINE];
	/* Threads kept apart only as far as the keys tell them apart: a smaller tree. */
	po.merge_pids = !need[KEY_PID] && !need[KEY_TID];
	po.merge_threads = po.merge_pids && !need[KEY_COMM];
	return perfev_profile__new(&po);
}

/* Waits and the clock's samples go into the wall-clock view too, and into their thread's totals. */
static int add_wall(struct report_state *st, const struct perfev_session_sample *ss,
		    const struct perfev_frame *frames, size_t nr)
{
	if (!ss->off_cpu_state && ss->evsel != st->clock)
		return 0;
	if (!st->wall && !(st->wall = new_profile(st->o)))
		return -ENOMEM;
	if (!report_wall_add(&st->threads, ss))
		return -ENOMEM;
	st->clock_seen |= ss->evsel == st->clock;
	if (ss->off_cpu_state) {
		st->waits[ss->evsel] = true;
		st->wait_name = perfev_data_reader__evsel_name(perfev_session__reader(st->s),
							       (size_t)ss->evsel);
	}
	return perfev_profile__add(st->wall, ss->thread, frames, nr, ss->period) ? -ENOMEM : 0;
}

static void show_progress(struct report_state *st, bool done)
{
	uint64_t cur, total;

	perfev_session__progress(st->s, &cur, &total);
	if (done)
		fprintf(stderr, "\r%60s\r", "");
	else if (total)
		fprintf(stderr, "\rperfev report: reading %.0f%% of %.1f MB", 100.0 * cur / total,
			total / 1e6);
}

/* A sample under the trace key: its row by its fields' text ("N/A" for other events, as perf). */
static int add_traced(struct report_state *st, const struct perfev_session_sample *ss,
		      const struct perfev_frame *frames, size_t nr)
{
	const struct perfev_sample *sm = &ss->ev->rec.sample;
	const struct perfev_tp_format *tf =
		(sm->sample_type & PERF_SAMPLE_RAW) ? trace_text_format(st->tt, ss->evsel) : NULL;
	const char *text = tf ? trace_text_print(st->tt, tf, sm) : NULL;
	int err = report_trace_add(st->traces[ss->evsel], text ? text : "N/A", ss->period);

	if (err)
		return err;
	return perfev_profile__add_at(st->profiles[ss->evsel], ss->thread, frames, nr, ss->period,
				      sm->sample_type & PERF_SAMPLE_TIME ? sm->time : 0)
		       ? -ENOMEM
		       : 0;
}

static int on_sample(void *ctx, const struct perfev_session_sample *ss)
{
	struct report_state *st = ctx;
	const struct report_opts *o = st->o;
	size_t nr = ss->nr_frames;

	if (!st->defaults_set)
		set_defaults(st);
	if (st->progress && !(++st->delivered & 0x3fff))
		show_progress(st, false);
	if (ss->evsel < 0)
		return 0;
	if ((size_t)ss->evsel >= st->nr_profiles) {
		size_t n = ss->evsel + 1;
		struct perfev_profile **p = realloc(st->profiles, n * sizeof(*p));
		bool *w = realloc(st->waits, n * sizeof(*w));
		struct report_trace **tr;
		struct report_totals *t;

		if (p)
			st->profiles = p;
		if (w)
			st->waits = w;
		if (!p || !w)
			return -ENOMEM;
		memset(p + st->nr_profiles, 0, (n - st->nr_profiles) * sizeof(*p));
		memset(w + st->nr_profiles, 0, (n - st->nr_profiles) * sizeof(*w));
		tr = realloc(st->traces, n * sizeof(*tr));
		if (!tr)
			return -ENOMEM;
		st->traces = tr;
		memset(tr + st->nr_profiles, 0, (n - st->nr_profiles) * sizeof(*tr));
		t = realloc(st->file, n * sizeof(*t));
		if (!t)
			return -ENOMEM;
		st->file = t;
		memset(t + st->nr_profiles, 0, (n - st->nr_profiles) * sizeof(*t));
		st->nr_profiles = n;
	}
	if (!st->profiles[ss->evsel]) {
		if (!(st->profiles[ss->evsel] = new_profile(o)))
			return -ENOMEM;
		if (o->trace && !(st->traces[ss->evsel] = report_trace_new()))
			return -ENOMEM;
	}
	st->file[ss->evsel].samples++;
	st->file[ss->evsel].period += ss->period;
	if (o->rows && !perfev_sample_filter__thread_ok(o->rows, ss->thread))
		return 0;
	const struct perfev_frame *frames = ss->frames;

	if (o->max_stack && nr > o->max_stack) {
		/*
		 * As perf reads a chain with --max-stack: from the side the graphs
		 * start at, so callers first keeps the outermost frames, and the
		 * sample's own frame stays where the sample was taken.
		 */
		if (o->caller) {
			if (st->cap_cut < o->max_stack + 1) {
				struct perfev_frame *c = realloc(st->cut, (o->max_stack + 1) * sizeof(*c));

				if (!c)
					return -ENOMEM;
				st->cut = c;
				st->cap_cut = o->max_stack + 1;
			}
			st->cut[0] = frames[0];
			memcpy(st->cut + 1, frames + nr - o->max_stack, o->max_stack * sizeof(*frames));
			frames = st->cut;
			nr = o->max_stack + 1;
		} else {
			nr = o->max_stack;
		}
	}
	/* Without call graphs in the output, only where the sample was taken matters. */
	if (o->graph == GRAPH_NONE && !o->children && nr > 1)
		nr = ss->off_cpu_state && nr > 1 ? 2 : 1; /* a wait: its state, and where */
	if (st->off_cpu && add_wall(st, ss, frames, nr) < 0)
		return -ENOMEM;
	if (o->trace)
		return add_traced(st, ss, frames, nr);
	return perfev_profile__add(st->profiles[ss->evsel], ss->thread, frames, nr, ss->period)
		       ? -ENOMEM
		       : 0;
}

/* A count as perf's headers abbreviate it: above 1000, thousands ("4K"), and so on. */
static uint64_t abbreviated(uint64_t v, char *unit)
{
	static const char units[] = " KMG";

	*unit = units[0];
	for (int i = 1; i < 4 && v > 1000; i++) {
		v /= 1000;
		*unit = units[i];
	}
	return v;
}

struct header_ctx {
	struct report_state *st;
	size_t evsel, nr; /* the event, or a group's leader and its number of members */
	const char *group; /* the group's name; NULL: anonymous */
};

static void print_header(void *ctx, const struct report_totals *t, size_t nr)
{
	const struct header_ctx *h = ctx;
	struct perfev_data_reader *r = perfev_session__reader(h->st->s);
	struct report_totals sum = { 0 };
	uint64_t samples;
	char unit;

	/* A group's counts are its members' together, as perf's. */
	for (size_t i = 0; i < nr; i++) {
		sum.samples += t[i].samples;
		sum.period += t[i].period;
	}
	samples = abbreviated(sum.samples, &unit);
	if (nr > 1) {
		printf("# Samples: %" PRIu64 "%c of events '%s {", samples, unit,
		       h->group ? h->group : "anon group");
		for (size_t i = 0; i < nr; i++)
			printf("%s %s", i ? "," : "", perfev_data_reader__evsel_name(r, h->evsel + i));
		printf(" }'");
	} else {
		printf("# Samples: %" PRIu64 "%c of event '%s'", samples, unit,
		       perfev_data_reader__evsel_name(r, h->evsel));
	}
	/* As perf says which part of the recording it shows. */
	if (h->st->o->time)
		printf(" (time slices: %s)", h->st->o->time);
	putchar('\n');
	printf("# Event count (approx.): %" PRIu64 "\n#\n", sum.period);
}

/* Tables of time have a heading of their own (print_table()). */
static void no_header(void *ctx, const struct report_totals *t, size_t nr)
{
	(void)ctx;
	(void)t;
	(void)nr;
}

/* The totals of event i: without filters, or relative to what they pass, its profile's own. */
static struct report_totals evsel_totals(const struct report_state *st, size_t i)
{
	const struct perfev_profile_node *root;

	if (i >= st->nr_profiles || !st->profiles[i])
		return (struct report_totals){ 0 };
	if (st->o->rows && !st->o->relative)
		return st->file[i];
	root = perfev_profile__node(st->profiles[i], 0);
	return (struct report_totals){ root->total_samples, root->total };
}

/* The table of event evsel, or of the group of nr events it leads (named group). */
static void print_table(struct report_state *st, size_t evsel, size_t nr, const char *group)
{
	bool wall = evsel >= st->nr_profiles;
	struct perfev_profile *p = wall ? st->wall : st->profiles[evsel];
	struct perfev_data_reader *r = perfev_session__reader(st->s);
	struct report_print_stats ps = { 0 };
	struct header_ctx h = { st, evsel, nr, group };
	struct perfev_profile *members[64];
	struct report_totals tot = evsel_totals(st, evsel), mt[64];

	st->o->time_col = wall || st->waits[evsel];
	if (st->o->trace && !st->o->time_col) {
		print_header(&h, &tot, 1);
		if (!report_trace_print(stdout, st->traces[evsel], p, st->o, tot.period))
			cli_error("out of memory building the table of '%s'",
				  perfev_data_reader__evsel_name(r, evsel));
		return;
	}
	if (nr > 64)
		nr = 64;
	for (size_t i = 0; i < nr; i++) {
		members[i] = evsel + i < st->nr_profiles ? st->profiles[evsel + i] : NULL;
		mt[i] = evsel_totals(st, evsel + i);
	}
	if (st->o->time_col) {
		const struct perfev_profile_node *root = perfev_profile__node(p, 0);

		if (wall) {
			printf("# Wall-clock time: the samples of event '%s' (on-CPU) and the waits of "
			       "event '%s' (off-CPU, marked [off-cpu])\n# Time (ms): %.3f\n#\n",
			       perfev_data_reader__evsel_name(r, (size_t)st->clock), st->wait_name,
			       root->total / 1e6);
			report_wall_print(stdout, &st->threads,
					  perfev_data_reader__evsel_name(r, (size_t)st->clock));
		} else {
			printf("# Off-CPU time: %" PRIu64 " waits of event '%s', each weighted by how long "
			       "its thread was away, the state it left in marked [off-cpu]\n# Time (ms): "
			       "%.3f\n#\n",
			       root->total_samples, perfev_data_reader__evsel_name(r, evsel),
			       root->total / 1e6);
		}
		members[0] = p;
		mt[0] = (struct report_totals){ root->total_samples, root->total };
		nr = 1;
	}
	if (!report_table_print(stdout, members, nr, st->o, mt,
				st->o->time_col ? no_header : print_header, &h, &ps)) {
		cli_error("out of memory building the table of '%s'",
			  perfev_data_reader__evsel_name(perfev_session__reader(st->s), evsel));
		return;
	}
	if (st->o->verbose)
		cli_note("%zu nodes, %zu frames, %zu entries (%zu shown): table built and sorted in "
			 "%.3f s, written in %.3f s", perfev_profile__nr_nodes(p),
			 perfev_profile__nr_frames(p), ps.nr_entries, ps.nr_shown, ps.sort_s, ps.print_s);
}

/*
 * Each event's table in the file's order; a group's members (from its
 * GROUP_DESC) in one table with a column each, as perf report shows them.
 */
static void print_tables(struct report_state *st)
{
	struct perfev_data_reader *r = perfev_session__reader(st->s);
	size_t ng = st->o->trace ? 0 : perfev_data_reader__nr_groups(r);

	for (size_t i = 0; i < st->nr_profiles; i++) {
		const char *name = NULL;
		uint32_t leader, nr = 1;
		bool any = false;

		for (size_t g = 0; g < ng; g++)
			if (!perfev_data_reader__group(r, g, &name, &leader, &nr) && leader == i && nr > 1)
				break;
			else
				nr = 1, name = NULL;
		for (size_t m = i; m < i + nr && m < st->nr_profiles; m++)
			any |= st->profiles[m] != NULL;
		if (any)
			print_table(st, i, nr, name);
		i += nr - 1;
	}
}

/* The browser over the first event's table (perf asks which; the others are --stdio's). */
static int browse(struct report_state *st)
{
	struct perfev_data_reader *r = perfev_session__reader(st->s);
	size_t evsel = 0, shown = 0;
	char header[512], unit;
	uint64_t samples;

	for (size_t i = st->nr_profiles; i-- > 0;)
		if (st->profiles[i]) {
			evsel = i;
			shown++;
		}
	const struct perfev_profile_node *root = perfev_profile__node(st->profiles[evsel], 0);

	samples = abbreviated(root->total_samples, &unit);
	snprintf(header, sizeof(header), "Samples: %" PRIu64 "%c of event '%s', Event count (approx.): "
		 "%" PRIu64 "%s", samples, unit, perfev_data_reader__evsel_name(r, evsel), root->total,
		 shown > 1 ? "  (more events: --stdio shows them all)" : "");
	return report_tui(st->profiles[evsel], st->o, header);
}

/* The browser when asked, or by default on a terminal (not for a pipe's data on stdin). */
static void choose_ui(struct report_opts *o)
{
	if (o->ui != REPORT_UI_AUTO)
		return;
	o->ui = isatty(STDOUT_FILENO) && isatty(STDIN_FILENO) && strcmp(o->input, "-") ? REPORT_UI_TUI
											 : REPORT_UI_STDIO;
}

/* What the off-CPU reading could not use, and why a recording may show no waits. */
static void off_cpu_notes(const struct report_state *st)
{
	const struct perfev_session_stats *ss = perfev_session__stats(st->s);

	if (!ss->nr_off_cpu && !ss->nr_off_cpu_short)
		cli_note("no off-CPU time: the recording has no sched:sched_switch samples with their "
			 "tracing data (record with 'perfev record --off-cpu')");
	else if (st->o->verbose)
		cli_note("%" PRIu64 " waits (%.3f ms), %" PRIu64 " below the threshold, %" PRIu64
			 " never seen to end, %" PRIu64 " still open at the end of the recording",
			 ss->nr_off_cpu, ss->off_cpu_ns / 1e6, ss->nr_off_cpu_short,
			 ss->nr_off_cpu_unmatched, ss->nr_off_cpu_open);
}

int cmd_report(int argc, char **argv)
{
	struct report_opts o = { 0 };
	struct report_state st = { .o = &o };
	struct perfev_symbolizer *sy = NULL;
	bool no_demangle = false;
	int ret = 1, err;

	if (!parse_args(argc, argv, &o, &no_demangle, &ret))
		return ret;
	choose_ui(&o);
	/* Tens of thousands of rows: written in big pieces, not one system call per 4 KiB. */
	if (o.ui != REPORT_UI_TUI)
		cli_stdout_buffered();
	/* A flat report asked for as such needs no callers: they are not even walked. */
	st.s = cli_session_open_off_cpu(o.input, no_demangle, &o.quiet, o.filter, &o.off_cpu,
					o.graph_set && o.graph == GRAPH_NONE && o.children_set &&
						!o.children,
					&st.off_cpu, &sy);
	if (!st.s)
		goto out;
	st.tt = trace_text_new(st.s);
	if (!st.tt) {
		cli_error("out of memory reading '%s'", o.input);
		goto out;
	}
	if (o.header || o.header_only)
		report_print_header(stdout, perfev_session__reader(st.s), o.input);
	if (o.header_only) {
		ret = 0;
		goto out;
	}
	if (o.stats_only) {
		ret = report_print_stats(stdout, perfev_session__reader(st.s), o.input);
		goto out;
	}
	st.progress = !o.quiet && isatty(STDERR_FILENO);
	uint64_t t0 = cli_now_ns();

	err = perfev_session__process(st.s, on_sample, &st);
	if (st.progress)
		show_progress(&st, true);
	/* Complete: the memory only adding stacks needs goes back before the tables take theirs. */
	for (size_t i = 0; i < st.nr_profiles && err >= 0; i++)
		if (st.profiles[i])
			err = perfev_profile__trim(st.profiles[i]);
	if (err >= 0 && st.wall)
		err = perfev_profile__trim(st.wall);
	if (err >= 0)
		perfev_session__trim(st.s);
	if (err == -ENOMEM) {
		cli_error("out of memory reading '%s'", o.input);
		goto out;
	}
	if (err < 0)
		cli_error("'%s' is damaged: %s; the report covers the records before that point",
			  o.input, perfev_last_error());
	const struct perfev_session_stats *ss = perfev_session__stats(st.s);

	if (o.verbose)
		cli_note("%" PRIu64 " samples read and added to the call trees in %.3f s",
			 ss->nr_samples, (cli_now_ns() - t0) / 1e9);
	if (!ss->nr_samples) {
		cli_error("'%s' holds no samples", o.input);
		goto out;
	}
	size_t shown = 0;

	for (size_t i = 0; i < st.nr_profiles; i++)
		shown += st.profiles[i] && perfev_profile__node(st.profiles[i], 0)->total_samples;
	if (!shown) {
		cli_error("no samples of '%s' pass the filters (--comm, --pid, --tid, --dso, --event, "
			  "--time); 'perfev report --sort comm,pid,dso' lists what is there", o.input);
		goto out;
	}
	if (o.ui == REPORT_UI_TUI) {
		ret = browse(&st);
		if (!ret && err < 0)
			ret = 1;
		goto notes;
	}
	/* Once, for the whole file, as perf: the LOST_SAMPLES records' count. */
	printf("#\n");
	if (report_print_fixed(stdout, &o))
		printf("#\n");
	printf("# Total Lost Samples: %" PRIu64 "\n#\n", ss->nr_lost_samples);
	print_tables(&st);
	/* Both kinds of time per thread: only with on-CPU samples and waits. */
	if (st.wall && st.clock_seen && st.wait_name)
		print_table(&st, st.nr_profiles, 1, NULL);
	ret = err < 0 ? 1 : 0;
	if (o.threads)
		ret |= report_print_threads(stdout, o.input);
notes:
	if (st.off_cpu && !o.quiet)
		off_cpu_notes(&st);
	/* As perf warns of lost chunks: the kernel's LOST records, apart from the lost samples. */
	if (!o.quiet && ss->nr_lost_events)
		cli_note("the recording lost %" PRIu64 " samples in %" PRIu64 " chunks (its ring "
			 "buffers were full): record with more pages (-m) or a lower rate (-F)",
			 ss->nr_lost, ss->nr_lost_events);
	if (!o.quiet && ss->nr_unwind_failed)
		cli_note("%" PRIu64 " of %" PRIu64 " DWARF stacks could not be unwound past the sampled IP",
			 ss->nr_unwind_failed, ss->nr_samples);
out:
	for (size_t i = 0; i < st.nr_profiles; i++)
		perfev_profile__delete(st.profiles[i]);
	free(st.profiles);
	for (size_t i = 0; i < st.nr_profiles; i++)
		report_trace_delete(st.traces[i]);
	free(st.traces);
	trace_text_delete(st.tt);
	free(st.file);
	free(st.cut);
	free(st.waits);
	perfev_profile__delete(st.wall);
	report_wall_free(&st.threads);
	perfev_session__delete(st.s);
	perfev_symbolizer__delete(sy);
	perfev_sample_filter__delete(o.filter);
	perfev_sample_filter__delete(o.rows);
	free((char *)o.time);
	return ret;
}
