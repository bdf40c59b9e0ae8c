/* SPDX-License-Identifier: MIT */
/*
 * perfev annotate --json: one object per annotated function with its
 * instructions (address, bytes, text, target, samples, percent, source
 * line, inline chain), its source lines (self and total, the text, the
 * instructions under each) and where each source file was found.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "annotate.h"

static void put_hex(struct perfev_json *j, const char *key, uint64_t v)
{
	char buf[24];

	snprintf(buf, sizeof(buf), "0x%" PRIx64, v);
	perfev_json__str(j, key, buf);
}

static void put_bytes(struct perfev_json *j, const char *key, const uint8_t *b, uint32_t n)
{
	char buf[2 * 32 + 1];
	uint32_t k = n < 32 ? n : 32;

	for (uint32_t i = 0; i < k; i++)
		snprintf(buf + 2 * i, 3, "%02x", b[i]);
	buf[2 * k] = 0;
	perfev_json__str(j, key, buf);
}

static void put_where(struct perfev_json *j, const struct perfev_srcline *w)
{
	if (w->file)
		perfev_json__str(j, "file", w->file);
	else
		perfev_json__null(j, "file");
	perfev_json__u64(j, "line", w->line);
}

static void write_insn(struct annotate_out *o, struct perfev_json *j, const struct perfev_annotation *a,
		       const struct perfev_annotate_insn *in)
{
	const struct perfev_annotation_info *info = perfev_annotation__info(a);

	perfev_json__obj_begin(j, NULL);
	put_hex(j, "addr", in->addr);
	perfev_json__u64(j, "offset", in->addr - info->start);
	put_bytes(j, "bytes", in->bytes, in->size);
	perfev_json__str(j, "mnemonic", in->mnemonic);
	perfev_json__str(j, "operands", in->operands);
	perfev_json__u64(j, "samples", in->nr_samples);
	perfev_json__u64(j, "period", in->period);
	perfev_json__double(j, "percent", perfev_annotation__percent(a, in->nr_samples, in->period, o->percent));
	if (in->has_target) {
		perfev_json__obj_begin(j, "target");
		put_hex(j, "addr", in->target);
		if (in->target_sym) {
			perfev_json__str(j, "symbol", in->target_sym);
			perfev_json__u64(j, "offset", in->target_off);
		} else {
			perfev_json__null(j, "symbol");
		}
		perfev_json__obj_end(j);
	}
	put_where(j, &in->line);
	perfev_json__arr_begin(j, "inlines");
	for (uint32_t k = 0; k < in->nr_inlines; k++) {
		perfev_json__obj_begin(j, NULL);
		perfev_json__str(j, "function", in->inlines[k].name);
		put_where(j, &in->inlines[k].where);
		perfev_json__obj_end(j);
	}
	perfev_json__arr_end(j);
	perfev_json__obj_end(j);
}

static void write_line(struct annotate_out *o, struct perfev_json *j, const struct perfev_annotation *a,
		       const struct perfev_annotate_line *l)
{
	size_t len = 0;
	const char *t = annotate_source_line(o, a, l->where.file, l->where.line, &len);

	perfev_json__obj_begin(j, NULL);
	put_where(j, &l->where);
	perfev_json__str(j, "function", l->function ? l->function : "??");
	perfev_json__bool(j, "inlined", l->inlined);
	perfev_json__u64(j, "self_samples", l->self_samples);
	perfev_json__u64(j, "self_period", l->self_period);
	perfev_json__double(j, "self_percent", perfev_annotation__percent(a, l->self_samples, l->self_period,
								  o->percent));
	perfev_json__u64(j, "total_samples", l->total_samples);
	perfev_json__u64(j, "total_period", l->total_period);
	perfev_json__double(j, "total_percent", perfev_annotation__percent(a, l->total_samples, l->total_period,
								   o->percent));
	if (t) {
		perfev_json__strn(j, "source", t, len);
	} else {
		perfev_json__null(j, "source");
	}
	perfev_json__arr_begin(j, "instructions");
	for (uint32_t k = 0; k < l->nr_insns; k++)
		perfev_json__u64(j, NULL, l->insns[k]);
	perfev_json__arr_end(j);
	perfev_json__obj_end(j);
}

/* Each source file once: where it was read from, or why it was not found. */
static void write_sources(struct annotate_out *o, struct perfev_json *j, const struct perfev_annotation *a)
{
	struct perfev_dso *d = perfev_annotation__info(a)->dso;
	size_t n = perfev_annotation__nr_lines(a);

	perfev_json__arr_begin(j, "sources");
	for (size_t i = 0; i < n; i++) {
		const char *file = perfev_annotation__line(a, i)->where.file, *path, *err;

		if (i && !strcmp(file, perfev_annotation__line(a, i - 1)->where.file))
			continue;
		perfev_json__obj_begin(j, NULL);
		perfev_json__str(j, "file", file);
		path = perfev_sources__path(o->sources, d, file);
		err = path ? NULL : perfev_sources__error(o->sources, d, file);
		if (path)
			perfev_json__str(j, "path", path);
		else
			perfev_json__null(j, "path");
		if (err)
			perfev_json__str(j, "error", err);
		else
			perfev_json__null(j, "error");
		perfev_json__obj_end(j);
	}
	perfev_json__arr_end(j);
}

void annotate_print_json(struct annotate_out *o, struct perfev_json *j, const struct perfev_annotation *a)
{
	const struct perfev_annotation_info *info = perfev_annotation__info(a);
	size_t n;

	perfev_json__obj_begin(j, NULL);
	if (info->name)
		perfev_json__str(j, "symbol", info->name);
	else
		perfev_json__null(j, "symbol");
	perfev_json__str(j, "dso", perfev_dso__name(info->dso));
	perfev_json__str(j, "event", o->event);
	put_hex(j, "start", info->start);
	put_hex(j, "end", info->end);
	perfev_json__str(j, "arch", info->arch);
	perfev_json__u64(j, "samples", info->nr_samples);
	perfev_json__u64(j, "period", info->period);
	perfev_json__u64(j, "event_samples", info->total_samples);
	perfev_json__u64(j, "event_period", info->total_period);
	perfev_json__str(j, "percent_type", annotate_percent_name(o->percent));
	if (info->file)
		perfev_json__str(j, "file", info->file);
	else
		perfev_json__null(j, "file");
	perfev_json__arr_begin(j, "instructions");
	n = perfev_annotation__nr_insns(a);
	for (size_t i = 0; i < n; i++)
		write_insn(o, j, a, perfev_annotation__insn(a, i));
	perfev_json__arr_end(j);
	perfev_json__arr_begin(j, "lines");
	n = perfev_annotation__nr_lines(a);
	for (size_t i = 0; i < n; i++)
		write_line(o, j, a, perfev_annotation__line(a, i));
	perfev_json__arr_end(j);
	write_sources(o, j, a);
	perfev_json__obj_end(j);
}
