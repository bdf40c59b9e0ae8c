// SPDX-License-Identifier: MIT
/*
 * perfev report's trace key, perf's default for recordings of tracepoints
 * only: a row per distinct text of the samples' fields ("prev_comm=sh
 * prev_pid=12 ... ==> next_comm=..."), weighed by its samples, its call graph
 * the stacks they were taken at.  The samples go into the event's profile as
 * usual (with their order kept); each remembers its row, so a row's graph is
 * drawn from the nodes its samples ended in.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"

struct report_trace {
	char **text;
	uint64_t *period, *samples;
	size_t nr, cap;
	uint32_t *slots; /* row + 1 by the text's hash; 0 empty */
	size_t nr_slots;
	uint32_t *row_of; /* per sample added, in order */
	size_t nr_added, cap_added;
};

struct report_trace *report_trace_new(void)
{
	return calloc(1, sizeof(struct report_trace));
}

void report_trace_delete(struct report_trace *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->nr; i++)
		free(t->text[i]);
	free(t->text);
	free(t->period);
	free(t->samples);
	free(t->slots);
	free(t->row_of);
	free(t);
}

static uint64_t hash_text(const char *s)
{
	uint64_t h = 1469598103934665603ull;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return h;
}

static bool grow(void **p, size_t *cap, size_t need, size_t size)
{
	size_t n = *cap ? *cap : 16;
	void *q;

	if (need <= *cap)
		return true;
	while (n < need)
		n *= 2;
	q = realloc(*p, n * size);
	if (!q)
		return false;
	*p = q;
	*cap = n;
	return true;
}

static bool rehash(struct report_trace *t)
{
	size_t n = t->nr_slots ? t->nr_slots * 2 : 64;
	uint32_t *s = calloc(n, sizeof(*s));

	if (!s)
		return false;
	for (size_t r = 0; r < t->nr; r++) {
		size_t j = hash_text(t->text[r]) & (n - 1);

		while (s[j])
			j = (j + 1) & (n - 1);
		s[j] = (uint32_t)r + 1;
	}
	free(t->slots);
	t->slots = s;
	t->nr_slots = n;
	return true;
}

int report_trace_add(struct report_trace *t, const char *text, uint64_t period)
{
	size_t j, cap;
	uint32_t r;

	if (2 * (t->nr + 1) > t->nr_slots && !rehash(t))
		return -ENOMEM;
	for (j = hash_text(text) & (t->nr_slots - 1); t->slots[j]; j = (j + 1) & (t->nr_slots - 1))
		if (!strcmp(t->text[t->slots[j] - 1], text))
			break;
	if (!t->slots[j]) {
		cap = t->cap;
		if (!grow((void **)&t->text, &cap, t->nr + 1, sizeof(*t->text)))
			return -ENOMEM;
		cap = t->cap;
		if (!grow((void **)&t->period, &cap, t->nr + 1, sizeof(*t->period)))
			return -ENOMEM;
		cap = t->cap;
		if (!grow((void **)&t->samples, &cap, t->nr + 1, sizeof(*t->samples)))
			return -ENOMEM;
		t->cap = cap;
		if (!(t->text[t->nr] = strdup(text)))
			return -ENOMEM;
		t->period[t->nr] = t->samples[t->nr] = 0;
		t->slots[j] = (uint32_t)++t->nr;
	}
	r = t->slots[j] - 1;
	if (!grow((void **)&t->row_of, &t->cap_added, t->nr_added + 1, sizeof(*t->row_of)))
		return -ENOMEM;
	t->row_of[t->nr_added++] = r;
	t->period[r] += period;
	t->samples[r]++;
	return 0;
}

static const struct report_trace *sorting;

static int row_cmp(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	if (sorting->period[x] != sorting->period[y])
		return sorting->period[x] > sorting->period[y] ? -1 : 1;
	return strcmp(sorting->text[x], sorting->text[y]);
}

static void dots(FILE *f, size_t n)
{
	while (n--)
		fputc('.', f);
}

bool report_trace_print(FILE *f, const struct report_trace *t, const struct perfev_profile *p,
			const struct report_opts *o, uint64_t total)
{
	static const char title[] = "Trace output";
	size_t w = sizeof(title) - 1, nt = perfev_profile__nr_timed(p);
	uint32_t *order = malloc((t->nr ? t->nr : 1) * sizeof(*order));
	uint32_t *nodes = malloc((nt ? nt : 1) * sizeof(*nodes));
	uint64_t *weights = malloc((nt ? nt : 1) * sizeof(*weights));
	bool ok = order && nodes && weights;

	for (size_t r = 0; ok && r < t->nr; r++) {
		order[r] = (uint32_t)r;
		if (strlen(t->text[r]) > w)
			w = strlen(t->text[r]);
	}
	if (ok) {
		sorting = t;
		qsort(order, t->nr, sizeof(*order), row_cmp);
		fprintf(f, "# %s%8s  %s%-*s\n# ", o->children ? "Children  " : "",
			o->children ? "Self" : "Overhead", o->show_nr ? "     Samples  " : "", (int)w,
			title);
		if (o->children) {
			dots(f, 8);
			fputs("  ", f);
		}
		dots(f, 8);
		fputs("  ", f);
		if (o->show_nr) {
			dots(f, 12);
			fputs("  ", f);
		}
		dots(f, w);
		fputs("\n#\n", f);
	}
	for (size_t i = 0; ok && i < t->nr; i++) {
		uint32_t r = order[i];
		double pct = total ? 100.0 * t->period[r] / total : 0;
		size_t n = 0;

		if (pct < o->percent_limit)
			continue;
		if (o->children)
			fprintf(f, "  %7.2f%%", pct);
		fprintf(f, "  %7.2f%%", pct);
		if (o->show_nr)
			fprintf(f, "  %12" PRIu64, t->samples[r]);
		fprintf(f, "  %s\n", t->text[r]);
		for (size_t s = 0; s < nt && s < t->nr_added; s++) {
			uint64_t time;

			if (t->row_of[s] == r &&
			    !perfev_profile__timed(p, s, &time, &nodes[n], &weights[n]))
				n++;
		}
		if (o->graph != GRAPH_NONE)
			report_graph_print_nodes(f, p, nodes, weights, n, o, total);
	}
	if (ok)
		fputc('\n', f);
	free(order);
	free(nodes);
	free(weights);
	return ok;
}
