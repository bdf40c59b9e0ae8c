/* SPDX-License-Identifier: MIT */
/* Shared by the synthesis files (synth.c, kernel_maps.c); never installed. */
#ifndef PERFEV_SYNTH_INT_H
#define PERFEV_SYNTH_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "perfev/synth.h"
#include "buildid/buildid_int.h"

/* Longest filename put in a record, like perf (PATH_MAX less the NUL). */
#define SYNTH_NAME_MAX 4095
/* header + MMAP2 body + filename + NUL + the largest sample_id. */
#define SYNTH_REC_MAX (8 + 64 + SYNTH_NAME_MAX + 1 + 48)


/* Where records go: the caller's callback, laid out for one fmt. */
struct synth_out {
	const struct perfev_sample_fmt *fmt;
	size_t id_size;
	perfev_synth_fn_t fn;
	void *ctx;
	int stopped; /* the callback's nonzero value, once it returned one */
	uint64_t rec[(SYNTH_REC_MAX + 7) / 8];
};

int synth_out__init(struct synth_out *o, const struct perfev_sample_fmt *fmt, perfev_synth_fn_t fn,
		    void *ctx);
/*
 * Builds header + fixed + str (NUL-padded to 8 bytes; none when str is
 * NULL) + a zeroed sample_id, and hands it to the callback, whose value is
 * returned (and kept in o->stopped when nonzero).  str_len <= SYNTH_NAME_MAX.
 */
int synth__emit(struct synth_out *o, uint32_t type, uint16_t misc, const void *fixed,
		size_t fixed_len, const char *str, size_t str_len);

#endif
