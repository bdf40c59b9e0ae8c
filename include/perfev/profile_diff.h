/* SPDX-License-Identifier: MIT */
/*
 * perfev: profiles compared as perf diff compares them.  Each profile's
 * samples are grouped by sort keys (perfev/profile_table.h: where each
 * sample was taken, its self weight only), and the groups of all profiles
 * are matched by what the keys show, not by addresses: the command's name,
 * the file's name without its directory (a program rebuilt elsewhere is
 * the same file), the function's name.  The first profile is the baseline;
 * every row has each profile's weight and share of its total, and for the
 * others what perf diff computes against the baseline: the delta of the
 * shares, the ratio of the weights, a weighted difference.
 *
 *	const struct perfev_profile *p[2] = { old_profile, new_profile };
 *	struct perfev_profile_diff *d = perfev_profile_diff__new(p, 2, NULL);
 *	for (size_t i = 0; i < perfev_profile_diff__nr_rows(d); i++) {
 *		const struct perfev_profile_diff_row *r = perfev_profile_diff__row(d, i);
 *		printf("%6.2f%% %+.2f%%\n", r->cells[0].share, r->cells[1].delta);
 *	}
 *
 * A row absent from the baseline is new (cells[0].period is 0; its delta is
 * its share); one in the baseline only is gone (cells[i].period 0 for every
 * other i, and no value computed).
 */
#ifndef PERFEV_PROFILE_DIFF_H
#define PERFEV_PROFILE_DIFF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "perfev/common.h"
#include "perfev/profile.h"
#include "perfev/profile_table.h"

#ifdef __cplusplus
extern "C" {
#endif

struct perfev_profile_diff;

/* What is computed against the baseline, and orders the rows (perf diff -c). */
enum perfev_diff_compute {
	PERFEV_DIFF_DELTA_ABS, /* share - baseline's share, rows by its magnitude (perf's default) */
	PERFEV_DIFF_DELTA,     /* the same, rows from the largest growth to the largest loss */
	PERFEV_DIFF_RATIO,     /* weight / baseline's weight */
	PERFEV_DIFF_WDIFF,     /* weight * wdiff_new - baseline's weight * wdiff_base */
};

struct perfev_profile_diff_opts {
	size_t sz; /* sizeof(struct perfev_profile_diff_opts) */
	/* The keys, in the order the rows are ordered by them at last; none: dso, sym as perf diff's. */
	const enum perfev_profile_key *keys;
	size_t nr_keys;
	enum perfev_diff_compute compute;
	/* PERFEV_DIFF_WDIFF's weights (perf's wdiff:W1,W2 is base, new); both non-zero. */
	int64_t wdiff_base, wdiff_new;
	/*
	 * The profile whose computed value orders the rows first (perf diff -o
	 * N): 1 to nr - 1; 0 means 1.  order_baseline: the baseline's share
	 * instead (perf diff -o 0).
	 */
	uint32_t order;
	bool order_baseline;
	/*
	 * Only rows that are in the baseline and in another profile (perf diff
	 * -b); the baseline's shares are then of those rows (the deltas stay
	 * of the whole), as perf diff -b shows them.
	 */
	bool baseline_only;
	/*
	 * Only each profile's entries of these, comma-separated (perf diff -C,
	 * -d, -S; NULL: all): commands, files (name or path: a path is one
	 * build's), functions (exact names).  Shares stay of each profile's
	 * whole total unless relative: then of what passes.
	 */
	const char *comms, *dsos, *syms;
	bool relative;
	size_t :0;
};

/* One profile's part of a row. */
struct perfev_profile_diff_cell {
	uint64_t period;  /* the weight; 0: not in this profile */
	uint64_t samples; /* the number of samples */
	double share;	  /* percent of the profile's total */
	/*
	 * Against the baseline (profiles 1 and on, when period is not 0):
	 * share - the baseline's share (0 when it has none); period / the
	 * baseline's period (its period taken as 1 when it has none); period *
	 * wdiff_new - the baseline's period * wdiff_base.
	 */
	double delta;
	double ratio;
	int64_t wdiff;
};

/* A row: one group of samples, matched across the profiles. */
struct perfev_profile_diff_row {
	/* Where its keys' values are: a profile that has it and the entry of its table. */
	uint32_t profile, entry;
	const struct perfev_profile_diff_cell *cells; /* one per profile */
};

/*
 * Compares nr profiles (2 or more; the first is the baseline), each as it
 * is now (stacks added later are not seen), by opts (NULL: perf diff's
 * defaults); NULL with errno (EINVAL: fewer than 2 profiles, an unknown key
 * or compute, zero wdiff weights, order past the profiles; ENOMEM).  The
 * profiles must outlive the diff.
 */
PERFEV_API struct perfev_profile_diff *
perfev_profile_diff__new(const struct perfev_profile *const *profiles, size_t nr,
			 const struct perfev_profile_diff_opts *opts);
PERFEV_API void perfev_profile_diff__delete(struct perfev_profile_diff *d);

/* The rows in perf diff's order. */
PERFEV_API size_t perfev_profile_diff__nr_rows(const struct perfev_profile_diff *d);
PERFEV_API const struct perfev_profile_diff_row *
perfev_profile_diff__row(const struct perfev_profile_diff *d, size_t i);
/* Profile i's table (the entries rows name), and the total its shares are of. */
PERFEV_API const struct perfev_profile_table *
perfev_profile_diff__table(const struct perfev_profile_diff *d, size_t i);
PERFEV_API uint64_t perfev_profile_diff__total(const struct perfev_profile_diff *d, size_t i);

#ifdef __cplusplus
}
#endif
#endif
