// SPDX-License-Identifier: MIT
/*
 * A group's table ({cpu-clock,page-faults}:S), as perf report shows it: one
 * row per key across the members, with a column of each member's values.
 * Each member's profile gives its own rows; they are joined here by the
 * texts of their keys.
 */
#include <stdlib.h>
#include <string.h>

#include "report.h"

static uint64_t hash_row(const struct report_row *r, const enum report_key *keys, int nr_keys)
{
	uint64_t h = 1469598103934665603ull;

	for (int k = 0; k < nr_keys; k++) {
		for (const char *s = r->text[keys[k]]; *s; s++)
			h = (h ^ (unsigned char)*s) * 1099511628211ull;
		h = (h ^ 0x1f) * 1099511628211ull;
	}
	return h;
}

static bool same_keys(const struct report_row *a, const struct report_row *b,
		      const enum report_key *keys, int nr_keys)
{
	for (int k = 0; k < nr_keys; k++)
		if (a->text[keys[k]] != b->text[keys[k]] && strcmp(a->text[keys[k]], b->text[keys[k]]))
			return false;
	return true;
}

long report_group_rows(struct report_row *const *rows, const size_t *n, size_t nr,
		       const enum report_key *keys, int nr_keys, struct report_row *out,
		       uint64_t *vals)
{
	size_t total = 0, cap = 16, nout = 0;
	uint32_t *slot;
	uint64_t *filled; /* per row: the members that gave it their values */

	for (size_t m = 0; m < nr; m++)
		total += n[m];
	while (cap < 2 * total)
		cap *= 2;
	slot = calloc(cap, sizeof(*slot));
	filled = calloc(total ? total : 1, sizeof(*filled));
	if (!slot || !filled) {
		free(slot);
		free(filled);
		return -1;
	}
	memset(vals, 0, total * nr * NR_MV * sizeof(*vals));
	for (size_t m = 0; m < nr; m++)
		for (size_t i = 0; i < n[m]; i++) {
			const struct report_row *r = &rows[m][i];
			size_t j = hash_row(r, keys, nr_keys) & (cap - 1);
			uint64_t *v;

			/*
			 * Two functions can show as one text (operator delete, of two
			 * signatures): each member's rows join distinct rows, as perf's.
			 */
			while (slot[j] && (!same_keys(&out[slot[j] - 1], r, keys, nr_keys) ||
					   (filled[slot[j] - 1] >> m & 1)))
				j = (j + 1) & (cap - 1);
			if (!slot[j]) {
				out[nout] = *r;
				out[nout].mv = vals + nout * nr * NR_MV;
				/* Only the leader's entries have call graphs (perf draws the leader's). */
				if (m)
					out[nout].entry = UINT32_MAX;
				out[nout].v = m ? 0 : r->v;
				out[nout].self = m ? 0 : r->self;
				slot[j] = (uint32_t)++nout;
			}
			filled[slot[j] - 1] |= 1ull << m;
			v = vals + (slot[j] - 1) * nr * NR_MV + m * NR_MV;
			v[MV_CHILDREN] = r->e->children;
			v[MV_SELF] = r->e->self;
			v[MV_SAMPLES] = r->e->samples;
		}
	free(slot);
	free(filled);
	return (long)nout;
}
