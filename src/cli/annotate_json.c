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

static void json_hex(struct json *j, const char *key, uint64_t v)
{
	char buf[24];

	snprintf(buf, sizeof(buf), "0x%" PRIx64, v);
	json_str(j, key, buf);
}

static void json_bytes(struct json *j, const char *key, const uint8_t *b, uint32_t n)
{
	char buf[2 * 32 + 1];
	uint32_t k = n < 32 ? n : 32;

	for (uint32_t i = 0; i < k; i++)
		snprintf(buf + 2 * i, 3, "%02x", b[i]);
	buf[2 * k] = 0;
	json_str(j, key, buf);
}

static void json_where(struct json *j, const struct perfev_srcline *w)
{
	if (w->file)
		json_str(j, "file", w->file);
	else
		json_null(j, "file");
	json_u64(j, "line", w->line);
}

static void write_insn(struct annotate_out *o, struct json *j, const struct perfev_annotation *a,
		       const struct perfev_annotate_insn *in)
{
	const struct perfev_annotation_info *info = perfev_annotation__info(a);

	json_obj_begin(j, NULL);
	json_hex(j, "addr", in->addr);
	json_u64(j, "offset", in->addr - info->start);
	json_bytes(j, "bytes", in->bytes, in->size);
	json_str(j, "mnemonic", in->mnemonic);
	json_str(j, "operands", in->operands);
	json_u64(j, "samples", in->nr_samples);
	json_u64(j, "period", in->period);
	json_double(j, "percent", perfev_annotation__percent(a, in->nr_samples, in->period, o->percent));
	if (in->has_target) {
		json_obj_begin(j, "target");
		json_hex(j, "addr", in->target);
		if (in->target_sym) {
			json_str(j, "symbol", in->target_sym);
			json_u64(j, "offset", in->target_off);
		} else {
			json_null(j, "symbol");
		}
		json_obj_end(j);
	}
	json_where(j, &in->line);
	json_arr_begin(j, "inlines");
	for (uint32_t k = 0; k < in->nr_inlines; k++) {
		json_obj_begin(j, NULL);
		json_str(j, "function", in->inlines[k].name);
		json_where(j, &in->inlines[k].where);
		json_obj_end(j);
	}
	json_arr_end(j);
	json_obj_end(j);
}

static void write_line(struct annotate_out *o, struct json *j, const struct perfev_annotation *a,
		       const struct perfev_annotate_line *l)
{
	size_t len = 0;
	const char *t = annotate_source_line(o, a, l->where.file, l->where.line, &len);

	json_obj_begin(j, NULL);
	json_where(j, &l->where);
	json_str(j, "function", l->function ? l->function : "??");
	json_bool(j, "inlined", l->inlined);
	json_u64(j, "self_samples", l->self_samples);
	json_u64(j, "self_period", l->self_period);
	json_double(j, "self_percent", perfev_annotation__percent(a, l->self_samples, l->self_period,
								  o->percent));
	json_u64(j, "total_samples", l->total_samples);
	json_u64(j, "total_period", l->total_period);
	json_double(j, "total_percent", perfev_annotation__percent(a, l->total_samples, l->total_period,
								   o->percent));
	if (t) {
		char *dup = strndup(t, len);

		json_str(j, "source", dup ? dup : "");
		free(dup);
	} else {
		json_null(j, "source");
	}
	json_arr_begin(j, "instructions");
	for (uint32_t k = 0; k < l->nr_insns; k++)
		json_u64(j, NULL, l->insns[k]);
	json_arr_end(j);
	json_obj_end(j);
}

/* Each source file once: where it was read from, or why it was not found. */
static void write_sources(struct annotate_out *o, struct json *j, const struct perfev_annotation *a)
{
	struct perfev_dso *d = perfev_annotation__info(a)->dso;
	size_t n = perfev_annotation__nr_lines(a);

	json_arr_begin(j, "sources");
	for (size_t i = 0; i < n; i++) {
		const char *file = perfev_annotation__line(a, i)->where.file, *path, *err;

		if (i && !strcmp(file, perfev_annotation__line(a, i - 1)->where.file))
			continue;
		json_obj_begin(j, NULL);
		json_str(j, "file", file);
		path = perfev_sources__path(o->sources, d, file);
		err = path ? NULL : perfev_sources__error(o->sources, d, file);
		if (path)
			json_str(j, "path", path);
		else
			json_null(j, "path");
		if (err)
			json_str(j, "error", err);
		else
			json_null(j, "error");
		json_obj_end(j);
	}
	json_arr_end(j);
}

void annotate_print_json(struct annotate_out *o, struct json *j, const struct perfev_annotation *a)
{
	const struct perfev_annotation_info *info = perfev_annotation__info(a);
	size_t n;

	json_obj_begin(j, NULL);
	if (info->name)
		json_str(j, "symbol", info->name);
	else
		json_null(j, "symbol");
	json_str(j, "dso", perfev_dso__name(info->dso));
	json_str(j, "event", o->event);
	json_hex(j, "start", info->start);
	json_hex(j, "end", info->end);
	json_str(j, "arch", info->arch);
	json_u64(j, "samples", info->nr_samples);
	json_u64(j, "period", info->period);
	json_u64(j, "event_samples", info->total_samples);
	json_u64(j, "event_period", info->total_period);
	json_str(j, "percent_type", annotate_percent_name(o->percent));
	if (info->file)
		json_str(j, "file", info->file);
	else
		json_null(j, "file");
	json_arr_begin(j, "instructions");
	n = perfev_annotation__nr_insns(a);
	for (size_t i = 0; i < n; i++)
		write_insn(o, j, a, perfev_annotation__insn(a, i));
	json_arr_end(j);
	json_arr_begin(j, "lines");
	n = perfev_annotation__nr_lines(a);
	for (size_t i = 0; i < n; i++)
		write_line(o, j, a, perfev_annotation__line(a, i));
	json_arr_end(j);
	write_sources(o, j, a);
	json_obj_end(j);
}
