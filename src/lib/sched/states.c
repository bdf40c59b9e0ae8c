/* SPDX-License-Identifier: MIT */
/*
 * sched_switch's prev_state as a letter.  The kernel's bits have moved
 * over the years; the event's print fmt says what each means, in a
 * __print_flags(REC->prev_state ..., "|", { 0x01, "S" }, { 0x02, "D" }, ...)
 * that perf reads too.  The text is untrusted: bounded by its length.
 */
#include <stdlib.h>
#include <string.h>

#include "sched/sched_int.h"

/* Today's TASK_REPORT letters, for a format that does not say. */
static const char default_states[] = "SDTtXZPI";

static const char *skip_space(const char *p, const char *end)
{
	while (p < end && (*p == ' ' || *p == '\t' || *p == '\n'))
		p++;
	return p;
}

/* A number (hex with 0x, or decimal) at p, at most end; NULL when none. */
static const char *read_number(const char *p, const char *end, unsigned long long *v)
{
	unsigned long long x = 0;
	bool hex = end - p > 2 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X');
	const char *start;

	if (hex)
		p += 2;
	start = p;
	for (; p < end; p++) {
		int d;

		if (*p >= '0' && *p <= '9')
			d = *p - '0';
		else if (hex && *p >= 'a' && *p <= 'f')
			d = *p - 'a' + 10;
		else if (hex && *p >= 'A' && *p <= 'F')
			d = *p - 'A' + 10;
		else
			break;
		if (x >> 59)
			return NULL; /* more than 64 bits */
		x = x * (hex ? 16 : 10) + (unsigned)d;
	}
	if (p == start)
		return NULL;
	*v = x;
	return p;
}

void sched_states_from_fmt(const char *fmt, char *out, size_t size)
{
	const char *p = fmt ? strstr(fmt, "__print_flags(") : NULL, *end;
	size_t found = 0;

	memset(out, 0, size);
	/* The flags of prev_state: the first __print_flags() over it. */
	while (p && strncmp(skip_space(p + 14, p + 14 + strlen(p + 14)), "REC->prev_state", 15))
		p = strstr(p + 14, "__print_flags(");
	if (p) {
		end = p + strlen(p);
		/* Each "{ VALUE, "LETTER" }" up to the call's closing ')'. */
		for (p += 14; p < end && *p != ')';) {
			unsigned long long v;
			const char *q;

			if (*p != '{') {
				/* Skip the flag expression and the delimiter, parentheses balanced. */
				if (*p == '"') {
					for (p++; p < end && *p != '"'; p++)
						;
				} else if (*p == '(') {
					int depth = 1;

					for (p++; p < end && depth; p++)
						depth += (*p == '(') - (*p == ')');
					continue;
				}
				p++;
				continue;
			}
			q = read_number(skip_space(p + 1, end), end, &v);
			if (!q)
				break;
			q = skip_space(q, end);
			if (q >= end || *q != ',')
				break;
			q = skip_space(q + 1, end);
			if (end - q < 3 || *q != '"' || q[1] == '"')
				break;
			/* A single bit names one letter; its position is the index. */
			if (v && !(v & (v - 1))) {
				unsigned bit = (unsigned)__builtin_ctzll(v);

				if (bit < size - 1) {
					out[bit] = q[1];
					found++;
				}
			}
			for (q++; q < end && *q != '}'; q++)
				;
			p = q < end ? q + 1 : end;
		}
	}
	if (!found)
		memcpy(out, default_states, size - 1 < sizeof(default_states) ? size - 1
									 : sizeof(default_states));
}

char sched_state_char(const char *states, uint64_t v)
{
	unsigned bit;

	if (!v)
		return 'R';
	bit = (unsigned)__builtin_ctzll(v);
	/* A bit the format does not name (a preempted task's TASK_REPORT_MAX) reads as running. */
	return bit < 15 && states[bit] ? states[bit] : 'R';
}
