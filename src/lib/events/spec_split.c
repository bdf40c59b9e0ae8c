/* SPDX-License-Identifier: MIT */
/*
 * The lexical side of event specs, done once: the text check every spec
 * passes, where an event ends in a list, and one event cut into the parts
 * the resolvers (parse_events.c) read.  Nothing here looks anything up.
 */
#include <string.h>

#include "events/events_int.h"

#define BREAKPOINT_PREFIX "mem:"

int spec_text__check(const char *s, size_t max, const char *noun, const char *of_noun)
{
	size_t len = strnlen(s, max + 1);

	if (len > max)
		return set_error(PERFEV_ERR_SYNTAX, "%s is longer than %zu characters", noun, max);
	for (size_t i = 0; i < len; i++)
		if (!spec_char_ok((unsigned char)s[i]))
			return set_error(PERFEV_ERR_SYNTAX, "invalid byte 0x%02x at offset %zu of %s",
					 (unsigned char)s[i], i, of_noun);
	return 0;
}

static bool is_breakpoint(const char *s)
{
	return !strncmp(s, BREAKPOINT_PREFIX, strlen(BREAKPOINT_PREFIX));
}

int event_spec__extent(const char *s, size_t pos, size_t *len)
{
	bool bp = is_breakpoint(s + pos), in_terms = false, terms_done = false;
	size_t p = pos, open_at = 0, end;

	for (; s[p]; p++) {
		char c = s[p];

		/* A breakpoint's '/' is its length, not PMU terms. */
		if (c == '/' && !bp && !terms_done) {
			if (!in_terms)
				open_at = p;
			else
				terms_done = true;
			in_terms = !in_terms;
			continue;
		}
		if (!in_terms && (c == ',' || c == '{' || c == '}'))
			break;
	}
	if (in_terms)
		return set_error(PERFEV_ERR_SYNTAX,
				 "unterminated PMU terms: the '/' at offset %zu has no closing '/'",
				 open_at);
	for (end = p; end > pos && s[end - 1] == ' '; end--)
		;
	if (end == pos)
		return set_error(PERFEV_ERR_SYNTAX, "empty event at offset %zu", pos);
	*len = end - pos;
	return 0;
}

/*
 * "mem:ADDR[/LEN][:rwx][:mods]".  ":w" is the access type, ":u" a modifier:
 * a group of only r, w and x is the access, and modifiers may follow it.
 * The values are the breakpoint resolver's to check.
 */
static void split_breakpoint(struct spec_split *s)
{
	const char *p = s->text + strlen(BREAKPOINT_PREFIX);
	size_t n;

	s->form = SPEC_BREAKPOINT;
	s->bp.addr = p;
	s->bp.addr_len = strcspn(p, "/:");
	p += s->bp.addr_len;
	if (*p == '/') {
		s->bp.len = ++p;
		s->bp.len_len = strcspn(p, ":");
		p += s->bp.len_len;
	}
	if (*p != ':')
		return;
	n = strcspn(++p, ":");
	if (!n || strspn(p, "rwx") != n) {
		s->mods = p;
		return;
	}
	s->bp.access = p;
	s->bp.access_len = n;
	if (p[n] == ':')
		s->mods = p + n + 1;
}

/* Length of a leading PMU name followed by '/', or 0. */
static size_t pmu_prefix(const char *s)
{
	size_t n = 0;

	while ((s[n] >= 'a' && s[n] <= 'z') || (s[n] >= 'A' && s[n] <= 'Z') ||
	       (s[n] >= '0' && s[n] <= '9') || s[n] == '_' || s[n] == '-' || s[n] == '.')
		n++;
	return n && s[n] == '/' ? n : 0;
}

/* "PMU/terms/[:]mods": its syntax errors come before any lookup. */
static int split_pmu(struct spec_split *s, size_t plen)
{
	const char *close = strchr(s->text + plen + 1, '/');
	size_t tlen;

	if (!close)
		return set_error(PERFEV_ERR_SYNTAX,
				 "unterminated terms in '%s': expected PMU/terms/ with a closing '/'",
				 s->spec);
	if (close[1]) {
		s->mods = close + 1 + (close[1] == ':');
		if (!*s->mods)
			return set_error(PERFEV_ERR_SYNTAX, "empty modifier in '%s'", s->spec);
		if (strchr(s->mods, '/'))
			return set_error(PERFEV_ERR_SYNTAX,
					 "unexpected text after the terms of '%s'", s->spec);
	}
	tlen = (size_t)(close - s->text) - plen - 1;
	s->form = SPEC_PMU;
	memcpy(s->pmu.pmu, s->text, plen);
	s->pmu.pmu[plen] = '\0';
	memcpy(s->pmu.terms, s->text + plen + 1, tlen);
	s->pmu.terms[tlen] = '\0';
	memcpy(s->pmu.event, s->text, plen + tlen + 2);
	s->pmu.event[plen + tlen + 2] = '\0';
	return 0;
}

/* A copy of the first n bytes of src into dst (both EVENT_SPEC_MAX + 1 long). */
static void copy_part(char *dst, const char *src, size_t n)
{
	memcpy(dst, src, n);
	dst[n] = '\0';
}

/* "a:b:c" read every way a resolver may want it. */
static void split_name(struct spec_split *s)
{
	const char *c1 = strchr(s->text, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
	const char *last = strrchr(s->text, ':');
	size_t len = strlen(s->text);

	s->form = SPEC_NAME;
	copy_part(s->name.head, s->text, c1 ? (size_t)(c1 - s->text) : len);
	copy_part(s->name.before_last, s->text, last ? (size_t)(last - s->text) : len);
	s->name.rest = c1 ? c1 + 1 : NULL;
	s->name.last = last ? last + 1 : NULL;
	s->name.tp_event[0] = '\0';
	if (c1)
		copy_part(s->name.tp_event, c1 + 1, c2 ? (size_t)(c2 - c1 - 1) : strlen(c1 + 1));
	s->name.tp_len = c2 ? (size_t)(c2 - s->text) : len;
	s->name.tp_mods = c2 ? c2 + 1 : NULL;
	s->name.mods_only = !c1 || modifiers__only(c1 + 1);
}

int event_spec__split(const char *spec, struct spec_split *s)
{
	const char *bad;
	size_t plen;

	memset(s, 0, sizeof(*s));
	s->spec = spec;
	if (!str_copy(s->text, sizeof(s->text), spec))
		return set_error(PERFEV_ERR_SYNTAX, "event spec is longer than %d characters",
				 EVENT_SPEC_MAX);
	if (is_breakpoint(s->text)) {
		split_breakpoint(s);
		return 0;
	}
	plen = pmu_prefix(s->text);
	if (plen)
		return split_pmu(s, plen);
	bad = strpbrk(s->text, ",{}");
	if (bad)
		return set_error(PERFEV_ERR_SYNTAX,
				 "unexpected '%c' at offset %zu of '%s': this takes one event; lists "
				 "and groups go to perfev_evlist__add_events()",
				 *bad, (size_t)(bad - s->text), spec);
	bad = strchr(s->text, '/');
	if (bad)
		return set_error(PERFEV_ERR_SYNTAX,
				 "unexpected '/' at offset %zu of '%s' (a PMU event is PMU/terms/)",
				 (size_t)(bad - s->text), spec);
	split_name(s);
	return 0;
}
