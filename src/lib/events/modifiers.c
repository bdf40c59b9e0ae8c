/* SPDX-License-Identifier: MIT */
/* Event modifiers (":u", ":ppp", ...) with perf's semantics. */
#include <string.h>

#include "events/events_int.h"

bool modifiers__look_valid(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!strchr(EVENT_MODIFIER_CHARS, *s))
			return false;
	return true;
}

int modifiers__apply(const char *mods, const char *spec, struct perf_event_attr *attr,
		     bool *sample_read)
{
	/*
	 * Naming any of u/k/h means "only these": the first one excludes all
	 * three and each then re-includes its own; G/H likewise.  The state
	 * starts fresh and only the bits a modifier touched are written, so
	 * defaults an encoder chose (libpfm4 excludes the hypervisor) survive
	 * when no modifier speaks about them.  A group's modifiers appended to
	 * a member's own give what perf gives applying them in turn.
	 */
	int eu = 0, ek = 0, eh = 0, eG = 0, eH = 0, exclude = 0, exclude_GH = 0;
	bool precise_given = false;
	unsigned int precise = attr->precise_ip;

	for (const char *p = mods; *p; p++) {
		switch (*p) {
		case 'u':
			if (!exclude)
				exclude = eu = ek = eh = 1;
			eu = 0;
			break;
		case 'k':
			if (!exclude)
				exclude = eu = ek = eh = 1;
			ek = 0;
			break;
		case 'h':
			if (!exclude)
				exclude = eu = ek = eh = 1;
			eh = 0;
			break;
		case 'G':
			if (!exclude_GH)
				exclude_GH = eG = eH = 1;
			eG = 0;
			break;
		case 'H':
			if (!exclude_GH)
				exclude_GH = eG = eH = 1;
			eH = 0;
			break;
		case 'p':
			precise++;
			precise_given = true;
			break;
		case 'S':
			*sample_read = true;
			break;
		case 'D':
			attr->pinned = 1;
			break;
		case 'I':
			attr->exclude_idle = 1;
			break;
		case 'e':
			attr->exclusive = 1;
			break;
		default: {
			unsigned char c = (unsigned char)*p;

			if (spec_char_ok(c))
				set_error(PERFEV_ERR_SYNTAX, "unknown modifier '%c' in '%s'", c, spec);
			else
				set_error(PERFEV_ERR_SYNTAX, "unknown modifier byte 0x%02x in event spec",
					  c);
			append_error("; modifiers are u (user), k (kernel), h (hypervisor), "
				     "G (guest), H (host), p/pp/ppp (precise), S (sample-read), "
				     "D (pinned), I (exclude idle), e (exclusive)");
			return -PERFEV_ERR_SYNTAX;
		}
		}
	}
	if (precise > 3)
		return set_error(PERFEV_ERR_SYNTAX,
				 "too many 'p' modifiers in '%s': the precise level is at most 3 (ppp)",
				 spec);
	if (exclude) {
		attr->exclude_user = eu;
		attr->exclude_kernel = ek;
		attr->exclude_hv = eh;
	}
	if (exclude_GH) {
		attr->exclude_guest = eG;
		attr->exclude_host = eH;
	} else if (precise_given) {
		/* Precise sampling (PEBS, IBS) cannot follow a guest: perf excludes it too. */
		attr->exclude_guest = 1;
	}
	attr->precise_ip = precise;
	return 0;
}
