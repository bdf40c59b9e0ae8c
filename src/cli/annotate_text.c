/* SPDX-License-Identifier: MIT */
/*
 * perfev annotate's text: perf annotate's layout ("percent : address:
 * instruction", source lines between the instructions), with a line
 * naming the function and file wherever inlined code begins or ends, so
 * inlined code reads under its own file; and the source view, one row per
 * source line with its own and its inlined callees' share.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "annotate.h"

#define BLANK_PERCENT "         " /* as wide as "%8.2f " */
/* Source lines without code between two with code: shown up to this many, else "...". */
#define MAX_GAP 8

const char *annotate_percent_words(enum perfev_annotate_percent p)
{
	switch (p) {
	case PERFEV_PERCENT_GLOBAL_PERIOD:
		return "global period";
	case PERFEV_PERCENT_LOCAL_HITS:
		return "local hits";
	case PERFEV_PERCENT_GLOBAL_HITS:
		return "global hits";
	default:
		return "local period";
	}
}

const char *annotate_percent_name(enum perfev_annotate_percent p)
{
	switch (p) {
	case PERFEV_PERCENT_GLOBAL_PERIOD:
		return "global-period";
	case PERFEV_PERCENT_LOCAL_HITS:
		return "local-hits";
	case PERFEV_PERCENT_GLOBAL_HITS:
		return "global-hits";
	default:
		return "local-period";
	}
}

static bool noted(struct annotate_out *o, const char *file)
{
	char **n;

	for (size_t i = 0; i < o->nr_noted; i++)
		if (!strcmp(o->noted[i], file))
			return true;
	n = realloc(o->noted, (o->nr_noted + 1) * sizeof(*n));
	if (!n)
		return true; /* no memory to remember: say nothing rather than repeat */
	o->noted = n;
	o->noted[o->nr_noted] = strdup(file);
	if (o->noted[o->nr_noted])
		o->nr_noted++;
	return false;
}

const char *annotate_source_line(struct annotate_out *o, const struct perfev_annotation *a,
				 const char *file, unsigned line, size_t *len)
{
	struct perfev_dso *d = perfev_annotation__info(a)->dso;
	const char *why = perfev_sources__error(o->sources, d, file);

	if (!why)
		return perfev_sources__line(o->sources, d, file, line, len);
	/* The first says where it looked and what to do; the others only which file. */
	if (!o->quiet && !noted(o, file)) {
		if (o->nr_noted > 1)
			cli_note("note: source file %s not found either", file);
		else
			cli_note("note: %s", why);
	}
	return NULL;
}

void annotate_out__free(struct annotate_out *o)
{
	for (size_t i = 0; i < o->nr_noted; i++)
		free(o->noted[i]);
	free(o->noted);
	o->noted = NULL;
	o->nr_noted = 0;
}

static const char *base_name(const char *path)
{
	const char *s = path ? strrchr(path, '/') : NULL;

	return s ? s + 1 : path ? path : "??";
}

static double pct(const struct annotate_out *o, const struct perfev_annotation *a, uint64_t samples,
		  uint64_t period)
{
	return perfev_annotation__percent(a, samples, period, o->percent);
}

static void print_header(struct annotate_out *o, const struct perfev_annotation *a, const char *what)
{
	const struct perfev_annotation_info *in = perfev_annotation__info(a);
	int n;

	n = fprintf(o->f, " Percent |\t%s of %s for %s (%" PRIu64 " samples, percent: %s)\n", what,
		    perfev_dso__short_name(in->dso), o->event, in->nr_samples,
		    annotate_percent_words(o->percent));
	for (int i = 0; i < n + 6; i++)
		fputc('-', o->f);
	fputc('\n', o->f);
}

/* ---- instructions with their source lines ---- */

static void print_insn(struct annotate_out *o, const struct perfev_annotation *a,
		       const struct perfev_annotate_insn *in)
{
	fprintf(o->f, "%8.2f :   %" PRIx64 ":   ", pct(o, a, in->nr_samples, in->period), in->addr);
	if (*in->operands)
		fprintf(o->f, "%-6s %s\n", in->mnemonic, in->operands);
	else
		fprintf(o->f, "%s\n", in->mnemonic);
}

/* Where the instruction runs: its innermost function and file. */
static const char *fn_of(const struct perfev_annotate_insn *in, const char *dflt)
{
	return in->nr_inlines ? in->inlines[0].name : dflt;
}

/* "mix() inlined into hot() at inl.cc:10 [/src/mix.h]", or "hot() [/src/inl.cc]". */
static void print_context(struct annotate_out *o, const struct perfev_annotation *a,
			  const struct perfev_annotate_insn *in)
{
	const struct perfev_annotation_info *info = perfev_annotation__info(a);
	const char *fn = fn_of(in, info->name ? info->name : "??");

	fprintf(o->f, "%s:      %s()", BLANK_PERCENT, fn);
	if (in->nr_inlines > 1)
		fprintf(o->f, " inlined into %s() at %s:%u", in->inlines[1].name,
			base_name(in->inlines[1].where.file), in->inlines[1].where.line);
	if (in->line.file)
		fprintf(o->f, " [%s]", in->line.file);
	fputc('\n', o->f);
}

static void print_source_row(struct annotate_out *o, const struct perfev_annotation *a,
			     const struct perfev_srcline *l)
{
	size_t len = 0;
	const char *t = annotate_source_line(o, a, l->file, l->line, &len);

	/* perf shows the line without its indentation. */
	while (t && len && (*t == ' ' || *t == '\t'))
		t++, len--;
	if (t)
		fprintf(o->f, "%s: %-4u %.*s\n", BLANK_PERCENT, l->line, (int)len, t);
	else
		fprintf(o->f, "%s: %-4u %s:%u\n", BLANK_PERCENT, l->line, base_name(l->file), l->line);
}

static bool same_line(const struct perfev_srcline *x, const struct perfev_srcline *y)
{
	return x->line == y->line && x->file && y->file && !strcmp(x->file, y->file);
}

static bool same_context(const struct perfev_annotate_insn *x, const struct perfev_annotate_insn *y)
{
	const char *fx = fn_of(x, ""), *fy = fn_of(y, "");

	if (strcmp(fx ? fx : "", fy ? fy : "") || x->nr_inlines != y->nr_inlines)
		return false;
	return x->line.file == y->line.file || (x->line.file && y->line.file &&
						  !strcmp(x->line.file, y->line.file));
}

static void print_mixed(struct annotate_out *o, const struct perfev_annotation *a)
{
	const struct perfev_annotate_insn *prev = NULL;
	size_t n = perfev_annotation__nr_insns(a);
	bool asm_only = o->view == VIEW_ASM;

	print_header(o, a, asm_only ? "Disassembly" : "Source code & Disassembly");
	fprintf(o->f, "%s:      %016" PRIx64 " <%s>:\n", BLANK_PERCENT, perfev_annotation__info(a)->start,
		perfev_annotation__info(a)->name ? perfev_annotation__info(a)->name : "??");
	for (size_t i = 0; i < n; i++) {
		const struct perfev_annotate_insn *in = perfev_annotation__insn(a, i);

		if (!asm_only && in->line.file) {
			if (!prev || !same_context(prev, in))
				print_context(o, a, in);
			if (!prev || !same_line(&prev->line, &in->line))
				print_source_row(o, a, &in->line);
		}
		print_insn(o, a, in);
		prev = in;
	}
	fputc('\n', o->f);
}

/* ---- source lines with their totals ---- */

static void print_line_row(struct annotate_out *o, const struct perfev_annotation *a,
			   const struct perfev_annotate_line *l)
{
	size_t len = 0;
	const char *t = annotate_source_line(o, a, l->where.file, l->where.line, &len);

	fprintf(o->f, "%8.2f %8.2f : %-5u %.*s\n", pct(o, a, l->self_samples, l->self_period),
		pct(o, a, l->total_samples, l->total_period), l->where.line, t ? (int)len : 0,
		t ? t : "");
}

static void print_context_rows(struct annotate_out *o, const struct perfev_annotation *a,
			       const char *file, unsigned from, unsigned to)
{
	size_t len;
	const char *t;

	for (unsigned line = from; line < to; line++) {
		t = annotate_source_line(o, a, file, line, &len);
		fprintf(o->f, "%s%s: %-5u %.*s\n", BLANK_PERCENT, BLANK_PERCENT, line, t ? (int)len : 0,
			t ? t : "");
	}
}

/* Up to three distinct names, then "..." */
struct names {
	const char *v[3];
	size_t n;
	bool more;
};

static void names_add(struct names *ns, const char *name)
{
	for (size_t k = 0; k < ns->n; k++)
		if (!strcmp(ns->v[k], name))
			return;
	if (ns->n < 3)
		ns->v[ns->n++] = name;
	else
		ns->more = true;
}

static void names_print(FILE *f, const char *what, const struct names *ns)
{
	fputs(what, f);
	for (size_t k = 0; k < ns->n; k++)
		fprintf(f, "%s%s", k ? ", " : "", ns->v[k]);
	if (ns->more)
		fputs(", ...", f);
}

/* The header of one file's lines: the file, the functions of it that ran here, those inlined apart. */
static void print_file_header(struct annotate_out *o, const struct perfev_annotation *a, size_t first)
{
	const char *file = perfev_annotation__line(a, first)->where.file;
	struct names own = { 0 }, inl = { 0 };
	size_t n = perfev_annotation__nr_lines(a);

	for (size_t i = first; i < n; i++) {
		const struct perfev_annotate_line *l = perfev_annotation__line(a, i);

		if (strcmp(l->where.file, file))
			break;
		names_add(l->inlined ? &inl : &own, l->function ? l->function : "??");
	}
	fprintf(o->f, "%s%s:       %s (", BLANK_PERCENT, BLANK_PERCENT, file);
	if (own.n)
		names_print(o->f, "", &own);
	if (inl.n)
		names_print(o->f, own.n ? "; inlined: " : "inlined: ", &inl);
	fputs(")\n", o->f);
}

static void print_source(struct annotate_out *o, const struct perfev_annotation *a)
{
	size_t n = perfev_annotation__nr_lines(a);
	const struct perfev_annotate_line *prev = NULL;

	print_header(o, a, "Source lines");
	fprintf(o->f, "%s%s:       %s\n", BLANK_PERCENT, BLANK_PERCENT,
		perfev_annotation__info(a)->name ? perfev_annotation__info(a)->name : "??");
	fprintf(o->f, "    self    total :  line  source\n");
	if (!n)
		fprintf(o->f, "%s%s:       (no source lines: %s has no DWARF line table here)\n",
			BLANK_PERCENT, BLANK_PERCENT, perfev_dso__short_name(perfev_annotation__info(a)->dso));
	for (size_t i = 0; i < n; i++) {
		const struct perfev_annotate_line *l = perfev_annotation__line(a, i);
		bool new_file = !prev || strcmp(prev->where.file, l->where.file);

		if (new_file) {
			print_file_header(o, a, i);
		} else if (l->where.line - prev->where.line - 1 > MAX_GAP) {
			fprintf(o->f, "%s%s:  ...\n", BLANK_PERCENT, BLANK_PERCENT);
		} else if (l->where.line > prev->where.line + 1) {
			print_context_rows(o, a, l->where.file, prev->where.line + 1, l->where.line);
		}
		print_line_row(o, a, l);
		prev = l;
	}
	fputc('\n', o->f);
}

void annotate_print_text(struct annotate_out *o, const struct perfev_annotation *a)
{
	if (o->view == VIEW_SOURCE)
		print_source(o, a);
	else
		print_mixed(o, a);
}
