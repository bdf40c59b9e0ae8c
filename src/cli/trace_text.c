// SPDX-License-Identifier: MIT
/* Tracepoint samples as text, for script and report (trace_text.h). */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "trace_text.h"

struct trace_text {
	struct perfev_session *s;
	struct perfev_tracefmt *tf;
	bool tf_loaded;
	const struct perfev_tp_format **formats; /* per event; NULL: none (yet) */
	bool *format_looked_up;
	size_t nr_formats;
	char *line;
	size_t line_size;
};

struct trace_text *trace_text_new(struct perfev_session *s)
{
	struct trace_text *t = calloc(1, sizeof(*t));

	if (t)
		t->s = s;
	return t;
}

void trace_text_delete(struct trace_text *t)
{
	if (!t)
		return;
	perfev_tracefmt__delete(t->tf);
	free(t->formats);
	free(t->format_looked_up);
	free(t->line);
	free(t);
}

/* Formats come with the file: its tracing data, read when the first tracepoint sample needs it. */
static void load_formats(struct trace_text *t, struct perfev_data_reader *r)
{
	const void *data;
	size_t size;

	t->tf_loaded = true;
	t->tf = perfev_tracefmt__new();
	if (!t->tf)
		return;
	if (perfev_data_reader__feature(r, PERFEV_FEAT_TRACING_DATA, &data, &size) < 0) {
		cli_note("the file has tracepoint samples but no tracing data; their fields are not "
			 "printed");
		return;
	}
	if (perfev_tracefmt__add_tracing_data(t->tf, data, size) < 0)
		cli_note("the file's tracing data cannot be read (%s); tracepoint fields are not "
			 "printed", perfev_last_error());
}

const struct perfev_tp_format *trace_text_format(struct trace_text *t, int evsel)
{
	struct perfev_data_reader *r = perfev_session__reader(t->s);
	const struct perf_event_attr *a;

	if (evsel < 0)
		return NULL;
	a = perfev_data_reader__attr(r, (size_t)evsel);
	if (!a || a->type != PERF_TYPE_TRACEPOINT)
		return NULL;
	if ((size_t)evsel >= t->nr_formats) {
		size_t n = (size_t)evsel + 1;
		const struct perfev_tp_format **f = realloc(t->formats, n * sizeof(*f));
		bool *l;

		if (f)
			t->formats = f;
		l = realloc(t->format_looked_up, n * sizeof(*l));
		if (l)
			t->format_looked_up = l;
		if (!f || !l)
			return NULL;
		memset(f + t->nr_formats, 0, (n - t->nr_formats) * sizeof(*f));
		memset(l + t->nr_formats, 0, (n - t->nr_formats) * sizeof(*l));
		t->nr_formats = n;
	}
	if (!t->format_looked_up[evsel]) {
		if (!t->tf_loaded)
			load_formats(t, r);
		t->formats[evsel] = perfev_tracefmt__find_id(t->tf, a->config);
		t->format_looked_up[evsel] = true;
	}
	return t->formats[evsel];
}

/* %pS in a print fmt: the kernel's symbols, as perf resolves them. */
static const char *kernel_symbol(void *ctx, uint64_t addr, uint64_t *start)
{
	struct trace_text *t = ctx;
	struct perfev_dso *k = perfev_symbolizer__kernel(perfev_session__symbolizer(t->s));
	const struct perfev_symbol *sym = k ? perfev_dso__find_symbol(k, addr) : NULL;

	if (!sym)
		return NULL;
	*start = sym->start;
	return sym->name;
}

const char *trace_text_print(struct trace_text *t, const struct perfev_tp_format *tf,
			     const struct perfev_sample *sm)
{
	struct perfev_tp_print_opts po = { .sz = sizeof(po), .ksym = kernel_symbol, .ctx = t };
	int n;

	if (!t->line) {
		t->line_size = 256;
		t->line = malloc(t->line_size);
		if (!t->line)
			return NULL;
	}
	n = perfev_tp_format__print(tf, sm->raw.data, sm->raw.size, &po, t->line, t->line_size);
	if (n >= 0 && (size_t)n >= t->line_size) {
		char *big = realloc(t->line, (size_t)n + 1);

		if (!big)
			return NULL;
		t->line = big;
		t->line_size = (size_t)n + 1;
		n = perfev_tp_format__print(tf, sm->raw.data, sm->raw.size, &po, t->line,
					    t->line_size);
	}
	return n >= 0 ? t->line : NULL;
}
