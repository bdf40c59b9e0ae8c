// SPDX-License-Identifier: MIT
/*
 * Folded stacks, as FlameGraph's stackcollapse-perf.pl --all writes them:
 * a line per stack, "outer;...;inner COUNT", from the flame tree (so equal
 * lines are merged), depth first with children in label order.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "util/internal.h"
#include "profile/flame.h"

#define NONE PERFEV_PROFILE_NONE

struct path {
	char *buf;
	size_t len, cap;
};

/* Puts label s at offset start of the path (after a ";" unless it is the first); cuts what followed. */
static bool path_put(struct path *pa, const char *s, size_t start)
{
	size_t n = strlen(s);

	if (!array_grow((void **)&pa->buf, &pa->cap, start + n + 1, 1))
		return false;
	if (start)
		pa->buf[start - 1] = ';';
	memcpy(pa->buf + start, s, n + 1);
	pa->len = start + n;
	return true;
}

static int write_lines(FILE *f, const struct flame *fl, bool weights)
{
	struct path pa = { 0 };
	size_t *at = calloc(fl->nr, sizeof(*at)); /* where each node's label starts in the path */
	uint32_t n = fl->n[0].first_child;

	if (!at)
		return set_error(ENOMEM, "folded: out of memory");
	/* Depth first without recursion: into the first child, else on to the next sibling up the tree. */
	while (n != NONE) {
		const struct flame_node *fn = &fl->n[n];
		uint64_t v = weights ? fn->self : fn->self_samples;

		at[n] = fn->parent ? at[fn->parent] + strlen(fl->labels.s[fl->n[fn->parent].label]) + 1 : 0;
		if (!path_put(&pa, fl->labels.s[fn->label], at[n])) {
			free(at);
			free(pa.buf);
			return set_error(ENOMEM, "folded: out of memory");
		}
		if (v)
			fprintf(f, "%s %" PRIu64 "\n", pa.buf, v);
		if (fn->first_child != NONE) {
			n = fn->first_child;
			continue;
		}
		while (n != NONE && fl->n[n].next_sibling == NONE)
			n = fl->n[n].parent ? fl->n[n].parent : NONE;
		if (n != NONE)
			n = fl->n[n].next_sibling;
	}
	free(at);
	free(pa.buf);
	return 0;
}

int perfev_profile__write_folded(FILE *f, const struct perfev_profile_write_opts *opts)
{
	struct perfev_profile_write_opts o;
	struct flame fl;
	int err = write_opts(&o, opts, "folded");

	if (err)
		return err;
	err = flame_build(&fl, o.series[0].profile, o.prefix, true);
	if (err)
		return err;
	err = write_lines(f, &fl, o.folded_weights);
	flame_free(&fl);
	return err ? err : write_finish(f, "folded");
}
