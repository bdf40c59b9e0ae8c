/* SPDX-License-Identifier: MIT */
/* Counter values: the read_format layouts and scaling for multiplexing. */
#include <string.h>

#include "evlist/evlist_int.h"

uint64_t perfev_scale(uint64_t val, uint64_t ena, uint64_t run)
{
	if (!run)
		return 0;
	if (ena == run)
		return val;
	unsigned __int128 v = (unsigned __int128)val * ena / run;

	return v > UINT64_MAX ? UINT64_MAX : (uint64_t)v;
}

uint64_t perfev_counts__scaled(const struct perfev_counts *c)
{
	return perfev_scale(c->val, c->ena, c->run);
}

double perfev_counts__running_pct(const struct perfev_counts *c)
{
	if (!c->ena)
		return c->run ? 100.0 : 0.0;
	return 100.0 * (double)c->run / (double)c->ena;
}

/*
 * Layout (linux/perf_event.h):
 *   !GROUP: value, [enabled], [running], [id], [lost]
 *   GROUP:  nr, [enabled], [running], nr * { value, [id], [lost] }
 */
size_t perfev_read_format__size(uint64_t read_format, uint64_t nr)
{
	size_t per = 1, head = 0, total;

	if (read_format & PERF_FORMAT_TOTAL_TIME_ENABLED)
		head++;
	if (read_format & PERF_FORMAT_TOTAL_TIME_RUNNING)
		head++;
	if (read_format & PERF_FORMAT_ID)
		per++;
	if (read_format & PERF_FORMAT_LOST)
		per++;
	if (!(read_format & PERF_FORMAT_GROUP))
		return (head + per) * sizeof(uint64_t);
	if (nr > SIZE_MAX / sizeof(uint64_t) || !size_mul_ok((size_t)nr, per, &total) ||
	    !size_add_ok(total, head + 1, &total) || !size_mul_ok(total, sizeof(uint64_t), &total))
		return 0;
	return total;
}

int perfev_read_format__parse(uint64_t read_format, const void *buf, size_t len,
			      struct perfev_counts *out, size_t max)
{
	const unsigned char *p = buf;
	uint64_t nr = 1, ena = 0, run = 0;
	size_t need, off = 0;

#define TAKE(dst)                                                                                  \
	do {                                                                                       \
		memcpy(&(dst), p + off, sizeof(uint64_t));                                         \
		off += sizeof(uint64_t);                                                           \
	} while (0)

	if (!buf && len)
		return -EINVAL;
	if (read_format & PERF_FORMAT_GROUP) {
		if (len < sizeof(uint64_t))
			return set_error(PERFEV_ERR_FORMAT,
					 "read value of %zu bytes is too short for its member count",
					 len);
		TAKE(nr);
	}
	need = perfev_read_format__size(read_format, nr);
	if (!need || need > len)
		return set_error(PERFEV_ERR_FORMAT,
				 "read value of %zu bytes is too short for read_format 0x%llx with %llu member(s)",
				 len, (unsigned long long)read_format, (unsigned long long)nr);
	if (!(read_format & PERF_FORMAT_GROUP)) {
		struct perfev_counts c = { 0 };

		TAKE(c.val);
		if (read_format & PERF_FORMAT_TOTAL_TIME_ENABLED)
			TAKE(c.ena);
		if (read_format & PERF_FORMAT_TOTAL_TIME_RUNNING)
			TAKE(c.run);
		if (read_format & PERF_FORMAT_ID)
			TAKE(c.id);
		if (read_format & PERF_FORMAT_LOST)
			TAKE(c.lost);
		if (max)
			out[0] = c;
		return 1;
	}
	if (read_format & PERF_FORMAT_TOTAL_TIME_ENABLED)
		TAKE(ena);
	if (read_format & PERF_FORMAT_TOTAL_TIME_RUNNING)
		TAKE(run);
	for (uint64_t i = 0; i < nr; i++) {
		struct perfev_counts c = { .ena = ena, .run = run };

		TAKE(c.val);
		if (read_format & PERF_FORMAT_ID)
			TAKE(c.id);
		if (read_format & PERF_FORMAT_LOST)
			TAKE(c.lost);
		if (i < max)
			out[i] = c;
	}
	return nr > INT32_MAX ? INT32_MAX : (int)nr;
#undef TAKE
}
