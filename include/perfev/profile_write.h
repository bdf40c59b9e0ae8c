/* SPDX-License-Identifier: MIT */
/*
 * perfev: a profile written in the formats people open, share and feed to
 * other tools: pprof (profile.proto, gzip), speedscope's JSON, folded stacks
 * (FlameGraph's), perfev's own JSON (the call tree and the report's table),
 * an interactive SVG flame graph, and a self-contained HTML report.
 *
 *	struct perfev_profile_series s = { .profile = p, .name = "cpu-clock",
 *					   .type = "cpu", .unit = "nanoseconds" };
 *	struct perfev_profile_write_opts o = { .sz = sizeof(o), .series = &s, .nr_series = 1 };
 *	err = perfev_profile__write_pprof(f, &o);
 *
 * A series is one value column: an event's profile and what its weights
 * are.  Several series (several events of one recording, or later other
 * kinds of weight) go into one file where the format allows it: pprof as
 * sample types beside "samples/count", speedscope as profiles of their
 * own, JSON and HTML as a list; folded stacks and the SVG hold one value
 * and show the first series.  Names are the profile's: the symbol's (as
 * the session demangled it), the inlined function's, or the address.
 *
 * Every writer writes to a FILE (not closed), gives 0 or a negative errno
 * with perfev_last_error() saying why (-EINVAL for bad options, -ENOMEM,
 * the write's errno); writes a valid, empty file for a profile without
 * samples; and escapes every name for its format (JSON through
 * perfev/json.h, XML in the SVG), whatever bytes the program's symbols hold.
 */
#ifndef PERFEV_PROFILE_WRITE_H
#define PERFEV_PROFILE_WRITE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "perfev/common.h"
#include "perfev/profile.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One value column: an event's profile, with what its weights mean. */
struct perfev_profile_series {
	const struct perfev_profile *profile;
	const char *name; /* the event, as the recording names it: "cpu-clock"; NULL: "samples" */
	/* pprof's sample type ("cpu" for a CPU clock); NULL: the name */
	const char *type;
	/* The weights' unit: "nanoseconds", or NULL: "count" (events) */
	const char *unit;
	uint64_t period; /* events between two samples (pprof's period); 0: not fixed */
};

struct perfev_annotation;
struct perfev_sources;

/*
 * A function's annotation (perfev/annotate.h) for the HTML report's source
 * view: the source of a function of series series, with each line's share
 * of the function and the instructions under it.
 */
struct perfev_profile_source_view {
	size_t series; /* the series (event) whose samples the annotation counts */
	const struct perfev_annotation *annotation;
};

/* How folded stacks and the flame graphs begin each stack. */
enum perfev_write_prefix {
	PERFEV_WRITE_PREFIX_COMM, /* "make;main;..." as stackcollapse-perf.pl writes */
	PERFEV_WRITE_PREFIX_NONE, /* "main;..." */
	PERFEV_WRITE_PREFIX_PID,  /* "make-1234;main;..." */
	PERFEV_WRITE_PREFIX_TID,  /* "make-1234/1236;main;..." */
};

/* How the flame graphs colour frames. */
enum perfev_write_colors {
	PERFEV_WRITE_COLOR_KIND, /* user, kernel, inlined, JIT, unknown */
	PERFEV_WRITE_COLOR_DSO,	 /* one hue per file */
};

struct perfev_profile_write_opts {
	size_t sz; /* sizeof(struct perfev_profile_write_opts) */
	const struct perfev_profile_series *series;
	size_t nr_series;
	enum perfev_write_prefix prefix; /* folded and flame graphs */
	enum perfev_write_colors colors; /* flame graphs */
	/* Folded: weights are the series' (periods) instead of sample counts. */
	bool folded_weights;
	/* JSON: indented. */
	bool pretty;
	/* The recording's wall-clock start, ns since the epoch (pprof's time_nanos); 0: unknown. */
	uint64_t start_time_ns;
	/* The span of its samples in ns (pprof's duration_nanos); 0: unknown. */
	uint64_t duration_ns;
	/* What the profile is of (a title; the input file's name); NULL: "perfev". */
	const char *title;
	/* HTML: timeline buckets (each a column of the heat map); 0: about 1000. */
	uint32_t buckets;
	/*
	 * HTML: source views, each shown for the function of its series that
	 * has the annotation's DSO and symbol (one without such a function is
	 * left out); their source lines' text read through sources (NULL: no
	 * text, line numbers only).
	 */
	const struct perfev_profile_source_view *source_views;
	size_t nr_source_views;
	struct perfev_sources *sources;
	/*
	 * SVG and HTML: a differential flame graph.  base[i] is the baseline
	 * of series[i] (the same event in an earlier recording); frames are
	 * drawn as series[i]'s and coloured by how their share of its total
	 * changed from base[i]'s: grown red, shrunk blue.  NULL: none.
	 */
	const struct perfev_profile_series *base;
};

/*
 * pprof's profile.proto, gzipped, for go tool pprof and the servers that
 * read it: sample types "samples/count" then one per series; a sample
 * per stack and thread with labels pid, tid and thread (the command);
 * locations leaf first, a location's inlined functions as lines of it
 * (innermost first); mappings with file name, load address, offset and
 * build id; functions with name, system (mangled) name, file and start
 * line where DWARF gives them; period, time and duration.
 */
PERFEV_API int perfev_profile__write_pprof(FILE *f, const struct perfev_profile_write_opts *o);
/*
 * speedscope's file format (its published schema): shared frames (name,
 * file, line), one "sampled" profile per series and thread, weights in the
 * series' unit.
 */
PERFEV_API int perfev_profile__write_speedscope(FILE *f, const struct perfev_profile_write_opts *o);
/*
 * Folded stacks of the first series, as FlameGraph's stackcollapse-perf.pl
 * --all writes them: "comm;outer;...;inner COUNT" a line, outermost first,
 * each stack once (sort(1) gives stackcollapse's order), kernel frames
 * "name_[k]", JIT frames "name_[j]", inlined functions "name_[i]", an
 * unresolved address "[file]", names tidied as stackcollapse tidies them
 * (";" as ":", quotes dropped, arguments after "(" dropped).
 */
PERFEV_API int perfev_profile__write_folded(FILE *f, const struct perfev_profile_write_opts *o);
/*
 * perfev's JSON: per series its threads, frames (name, file, kind),
 * the call tree (each node's parent, frame, thread, self and total weight
 * and samples) and the report's table (sym and dso entries, self and
 * children); described in perfev-export(1).
 */
PERFEV_API int perfev_profile__write_json(FILE *f, const struct perfev_profile_write_opts *o);
/*
 * An interactive flame graph of the first series as one SVG file (its
 * script inline): hover for name, samples and share, click to zoom, search
 * by regular expression with the matched share, reset; colours by kind or
 * by file; widths from integer weights.
 */
PERFEV_API int perfev_profile__write_svg(FILE *f, const struct perfev_profile_write_opts *o);
/*
 * The HTML report, one file that needs no network: flame graph and
 * icicle (callers) of the same data, a sortable table of functions (self,
 * total, samples, file) whose rows focus the graph, search, thread and
 * process selection, a timeline (needs perfev_profile_opts.times) on
 * which a range picks the samples everything shows, and the source views
 * of opts.source_views: a function's source lines with a heat margin
 * (each line's share of the function, inlined code under its own file)
 * and the instructions under each line.
 */
PERFEV_API int perfev_profile__write_html(FILE *f, const struct perfev_profile_write_opts *o);

#ifdef __cplusplus
}
#endif
#endif
