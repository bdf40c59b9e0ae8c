// SPDX-License-Identifier: MIT
/*
 * The HTML report's source views: for each annotated function of a series,
 * its source lines file by file (the function's own file first, inlined
 * code under the file it comes from), each line with its own and its
 * inlined callees' share of the function and the instructions whose line
 * it is; context lines between lines with code, up to MAX_GAP; and the
 * instructions themselves (address, text, samples, period).  Which
 * functions: the caller's annotations (perfev/annotate.h), each matched to
 * the series' function of the same DSO and symbol.
 */
#include <inttypes.h>
#include <string.h>

#include "util/internal.h"
#include "profile/profile_int.h"
#include "profile/write_int.h"
#include "perfev/annotate.h"
#include "perfev/json.h"

/* Lines without code shown between two with code, at most (else the gap is left out). */
#define MAX_GAP 8

/* The series' function whose frame has the annotation's DSO and symbol; -1 when none. */
static int64_t fn_of_annotation(const struct perfev_profile *p, const struct fntab *t,
				const struct perfev_annotation *a)
{
	const struct perfev_annotation_info *in = perfev_annotation__info(a);
	size_t n = perfev_profile__nr_frames(p);

	for (size_t i = 0; i < n; i++) {
		const struct perfev_profile_frame *f = perfev_profile__frame(p, (uint32_t)i);

		if (f->dso == in->dso && f->sym && f->sym->start == in->start && !f->inline_name)
			return t->of_frame[i];
	}
	return -1;
}

/* The text of a line of a file that was found (src NULL: a file that was not, or no sources). */
static void put_text(struct perfev_json *j, const char *key, struct perfev_sources *src,
		     const struct perfev_annotation *a, const char *file, uint32_t line)
{
	size_t len = 0;
	const char *t = src ? perfev_sources__line(src, perfev_annotation__info(a)->dso, file, line,
						   &len) : NULL;

	if (t)
		perfev_json__strn(j, key, t, len);
	else
		perfev_json__null(j, key);
}

/* A context line: its number and text, no code. */
static void put_context(struct perfev_json *j, struct perfev_sources *src,
			const struct perfev_annotation *a, const char *file, uint32_t line)
{
	perfev_json__obj_begin(j, NULL);
	perfev_json__u64(j, "line", line);
	put_text(j, "text", src, a, file, line);
	perfev_json__obj_end(j);
}

static void put_line(struct perfev_json *j, struct perfev_sources *src,
		     const struct perfev_annotation *a, const struct perfev_annotate_line *l)
{
	perfev_json__obj_begin(j, NULL);
	perfev_json__u64(j, "line", l->where.line);
	put_text(j, "text", src, a, l->where.file, l->where.line);
	perfev_json__u64(j, "self", l->self_period);
	perfev_json__u64(j, "total", l->total_period);
	perfev_json__u64(j, "samples", l->self_samples);
	perfev_json__str(j, "fn", l->function ? l->function : "??");
	perfev_json__bool(j, "inlined", l->inlined);
	perfev_json__arr_begin(j, "insns");
	for (uint32_t k = 0; k < l->nr_insns; k++)
		perfev_json__u64(j, NULL, l->insns[k]);
	perfev_json__arr_end(j);
	perfev_json__obj_end(j);
}

/* The lines of one file, from line index first; returns the index past them. */
static size_t put_file(struct perfev_json *j, struct perfev_sources *src,
		       const struct perfev_annotation *a, size_t first)
{
	size_t n = perfev_annotation__nr_lines(a), i;
	const char *file = perfev_annotation__line(a, first)->where.file;
	const char *why = src ? perfev_sources__error(src, perfev_annotation__info(a)->dso, file) : NULL;

	if (why)
		src = NULL; /* said once below, not asked again line by line */

	perfev_json__obj_begin(j, NULL);
	perfev_json__str(j, "file", file);
	if (why)
		perfev_json__str(j, "error", why);
	else
		perfev_json__null(j, "error");
	perfev_json__arr_begin(j, "lines");
	for (i = first; i < n; i++) {
		const struct perfev_annotate_line *l = perfev_annotation__line(a, i);

		if (strcmp(l->where.file, file))
			break;
		if (i > first) {
			uint32_t prev = perfev_annotation__line(a, i - 1)->where.line;

			if (l->where.line > prev + 1 && l->where.line - prev - 1 <= MAX_GAP)
				for (uint32_t c = prev + 1; c < l->where.line; c++)
					put_context(j, src, a, file, c);
		}
		put_line(j, src, a, l);
	}
	perfev_json__arr_end(j);
	perfev_json__obj_end(j);
	return i;
}

static void put_insns(struct perfev_json *j, const struct perfev_annotation *a)
{
	size_t n = perfev_annotation__nr_insns(a);
	char buf[256];

	perfev_json__obj_begin(j, "insns");
	perfev_json__arr_begin(j, "addr");
	for (size_t i = 0; i < n; i++) {
		snprintf(buf, sizeof(buf), "%" PRIx64, perfev_annotation__insn(a, i)->addr);
		perfev_json__str(j, NULL, buf);
	}
	perfev_json__arr_end(j);
	perfev_json__arr_begin(j, "text");
	for (size_t i = 0; i < n; i++) {
		const struct perfev_annotate_insn *in = perfev_annotation__insn(a, i);

		snprintf(buf, sizeof(buf), "%-6s %s", in->mnemonic, in->operands);
		perfev_json__str(j, NULL, buf);
	}
	perfev_json__arr_end(j);
	perfev_json__arr_begin(j, "period");
	for (size_t i = 0; i < n; i++)
		perfev_json__u64(j, NULL, perfev_annotation__insn(a, i)->period);
	perfev_json__arr_end(j);
	perfev_json__arr_begin(j, "samples");
	for (size_t i = 0; i < n; i++)
		perfev_json__u64(j, NULL, perfev_annotation__insn(a, i)->nr_samples);
	perfev_json__arr_end(j);
	perfev_json__obj_end(j);
}

static void put_view(struct perfev_json *j, struct perfev_sources *src,
		     const struct perfev_annotation *a, int64_t fn)
{
	const struct perfev_annotation_info *in = perfev_annotation__info(a);
	size_t n = perfev_annotation__nr_lines(a);

	perfev_json__obj_begin(j, NULL);
	perfev_json__u64(j, "fn", (uint64_t)fn);
	perfev_json__str(j, "name", in->name ? in->name : "??");
	perfev_json__str(j, "arch", in->arch);
	perfev_json__u64(j, "period", in->period);
	perfev_json__u64(j, "samples", in->nr_samples);
	perfev_json__arr_begin(j, "files");
	for (size_t i = 0; i < n;)
		i = put_file(j, src, a, i);
	perfev_json__arr_end(j);
	put_insns(j, a);
	perfev_json__obj_end(j);
}

void html_write_sources(struct perfev_json *j, const struct perfev_profile_write_opts *o,
			size_t series, const struct fntab *t)
{
	const struct perfev_profile *p = o->series[series].profile;

	perfev_json__arr_begin(j, "sources");
	for (size_t i = 0; i < o->nr_source_views; i++) {
		const struct perfev_profile_source_view *v = &o->source_views[i];
		int64_t fn;

		if (v->series != series || !v->annotation)
			continue;
		fn = fn_of_annotation(p, t, v->annotation);
		if (fn >= 0)
			put_view(j, o->sources, v->annotation, fn);
	}
	perfev_json__arr_end(j);
}
