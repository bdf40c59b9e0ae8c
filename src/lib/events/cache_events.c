/* SPDX-License-Identifier: MIT */
/* Hardware cache events: PERF_TYPE_HW_CACHE's cache x operation x result matrix. */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "events/events_int.h"

/* perf's spellings, first one canonical; matched case-insensitively like perf. */
static const char *const cache_names[PERF_COUNT_HW_CACHE_MAX][CACHE_MAX_ALIASES] = {
	{ "L1-dcache", "l1-d", "l1d", "L1-data" },
	{ "L1-icache", "l1-i", "l1i", "L1-instruction" },
	{ "LLC", "L2" },
	{ "dTLB", "d-tlb", "Data-TLB" },
	{ "iTLB", "i-tlb", "Instruction-TLB" },
	{ "branch", "branches", "bpu", "btb", "bpc" },
	{ "node" },
};

/* [0] names a miss event ("load-misses"), [1] an access event ("loads"). */
static const char *const cache_ops[PERF_COUNT_HW_CACHE_OP_MAX][CACHE_MAX_ALIASES] = {
	{ "load", "loads", "read" },
	{ "store", "stores", "write" },
	{ "prefetch", "prefetches", "speculative-read", "speculative-load" },
};

static const char *const cache_results[PERF_COUNT_HW_CACHE_RESULT_MAX][CACHE_MAX_ALIASES] = {
	{ "refs", "Reference", "ops", "access", "accesses" },
	{ "misses", "miss" },
};

static const char *const cache_descs[PERF_COUNT_HW_CACHE_MAX] = {
	"Level 1 data cache", "Level 1 instruction cache", "Last level cache", "Data TLB",
	"Instruction TLB", "Branch prediction unit", "Local memory (NUMA node)",
};

/* What perf lists: the operations each cache has on common hardware. */
#define OPS_ALL ((1u << PERF_COUNT_HW_CACHE_OP_READ) | (1u << PERF_COUNT_HW_CACHE_OP_WRITE) | \
		 (1u << PERF_COUNT_HW_CACHE_OP_PREFETCH))
static const unsigned int cache_listed_ops[PERF_COUNT_HW_CACHE_MAX] = {
	[PERF_COUNT_HW_CACHE_L1D] = OPS_ALL,
	[PERF_COUNT_HW_CACHE_L1I] = (1u << PERF_COUNT_HW_CACHE_OP_READ) |
				    (1u << PERF_COUNT_HW_CACHE_OP_PREFETCH),
	[PERF_COUNT_HW_CACHE_LL] = OPS_ALL,
	[PERF_COUNT_HW_CACHE_DTLB] = OPS_ALL,
	[PERF_COUNT_HW_CACHE_ITLB] = 1u << PERF_COUNT_HW_CACHE_OP_READ,
	[PERF_COUNT_HW_CACHE_BPU] = 1u << PERF_COUNT_HW_CACHE_OP_READ,
	[PERF_COUNT_HW_CACHE_NODE] = OPS_ALL,
};

bool cache_event__listed(unsigned int cache, unsigned int op)
{
	if (cache >= PERF_COUNT_HW_CACHE_MAX || op >= PERF_COUNT_HW_CACHE_OP_MAX)
		return false;
	return cache_listed_ops[cache] & (1u << op);
}

/*
 * Matches the longest alias of one table row at s, which must end there or
 * at a '-'.  Aliases themselves contain '-', so splitting on '-' first would
 * not work.
 */
static int match_alias(const char *s, const char *const (*tab)[CACHE_MAX_ALIASES], int rows,
		       size_t *matched)
{
	size_t best_len = 0;
	int best = -1;

	for (int i = 0; i < rows; i++) {
		for (int j = 0; j < CACHE_MAX_ALIASES && tab[i][j]; j++) {
			size_t n = strlen(tab[i][j]);

			if (n > best_len && !strncasecmp(s, tab[i][j], n) &&
			    (s[n] == '\0' || s[n] == '-')) {
				best = i;
				best_len = n;
			}
		}
	}
	*matched = best_len;
	return best;
}

bool cache_event__parse(const char *name, uint64_t *config, char *canon, size_t size)
{
	int cache, op = -1, result = -1;
	size_t n;

	cache = match_alias(name, cache_names, PERF_COUNT_HW_CACHE_MAX, &n);
	if (cache < 0)
		return false;
	name += n;
	/* At most an operation and a result, in either order, as perf allows. */
	for (int part = 0; part < 2 && *name == '-'; part++) {
		int i;

		name++;
		if (op < 0) {
			i = match_alias(name, cache_ops, PERF_COUNT_HW_CACHE_OP_MAX, &n);
			if (i >= 0) {
				op = i;
				name += n;
				continue;
			}
		}
		if (result < 0) {
			i = match_alias(name, cache_results, PERF_COUNT_HW_CACHE_RESULT_MAX, &n);
			if (i >= 0) {
				result = i;
				name += n;
				continue;
			}
		}
		return false;
	}
	if (*name)
		return false;
	if (op < 0)
		op = PERF_COUNT_HW_CACHE_OP_READ;
	if (result < 0)
		result = PERF_COUNT_HW_CACHE_RESULT_ACCESS;
	*config = (uint64_t)cache | (uint64_t)op << 8 | (uint64_t)result << 16;
	if (canon)
		cache_event__name((unsigned int)cache, (unsigned int)op, (unsigned int)result, canon,
				  size);
	return true;
}

void cache_event__name(unsigned int cache, unsigned int op, unsigned int result, char *buf,
		       size_t size)
{
	if (!size)
		return;
	if (cache >= PERF_COUNT_HW_CACHE_MAX || op >= PERF_COUNT_HW_CACHE_OP_MAX ||
	    result >= PERF_COUNT_HW_CACHE_RESULT_MAX) {
		buf[0] = '\0';
		return;
	}
	if (result == PERF_COUNT_HW_CACHE_RESULT_MISS)
		snprintf(buf, size, "%s-%s-%s", cache_names[cache][0], cache_ops[op][0],
			 cache_results[result][0]);
	else
		snprintf(buf, size, "%s-%s", cache_names[cache][0], cache_ops[op][1]);
}

void cache_event__desc(unsigned int cache, unsigned int op, unsigned int result, char *buf,
		       size_t size)
{
	if (!size)
		return;
	if (cache >= PERF_COUNT_HW_CACHE_MAX || op >= PERF_COUNT_HW_CACHE_OP_MAX ||
	    result >= PERF_COUNT_HW_CACHE_RESULT_MAX) {
		buf[0] = '\0';
		return;
	}
	snprintf(buf, size, "%s %s %s", cache_descs[cache], cache_ops[op][0],
		 result == PERF_COUNT_HW_CACHE_RESULT_MISS ? "misses" : "accesses");
}
