/* SPDX-License-Identifier: MIT */
/*
 * Event lists: "a,{b,c}:S,PMU/t=1,u=2/" into an evlist.  Commas split
 * events except inside a PMU's /terms/; braces make groups, which do not
 * nest; modifiers after a group's '}' apply to every member.
 */
#include <stdlib.h>
#include <string.h>

#include "evlist/evlist_int.h"
#include "events/events_int.h"

/* A list may name many events, but not unboundedly many bytes of them. */
#define LIST_SPEC_MAX (1u << 20)
#define GROUP_MODS_MAX 32

struct slice {
	size_t start, len;
};

static size_t skip_spaces(const char *s, size_t pos)
{
	while (s[pos] == ' ')
		pos++;
	return pos;
}

/*
 * Finds the end of the event starting at pos: the next ',', '{' or '}' that
 * is not inside a PMU's /terms/.  Trailing spaces are not part of it.
 */
static int scan_event(const char *s, size_t pos, struct slice *ev)
{
	bool bp = !strncmp(s + pos, "mem:", 4), in_terms = false, terms_done = false;
	size_t p = pos, open_at = 0, end;

	for (; s[p]; p++) {
		char c = s[p];

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
	ev->start = pos;
	ev->len = end - pos;
	return 0;
}

/*
 * Parses one event of the list and appends it (el NULL: checks only its
 * length); *leader becomes it when NULL.
 */
static int add_one(struct perfev_evlist *el, const char *s, const struct slice *ev,
		   const char *extra_mods, struct perfev_evsel **leader, bool in_group)
{
	char buf[EVENT_SPEC_MAX + 1], name[EVENT_NAME_MAX];
	struct perf_event_attr attr;
	struct perfev_evsel *evsel;
	bool sample_read;
	int err;

	if (ev->len > EVENT_SPEC_MAX)
		return set_error(PERFEV_ERR_SYNTAX,
				 "the event at offset %zu is longer than %d characters", ev->start,
				 EVENT_SPEC_MAX);
	if (!el)
		return 0;
	memcpy(buf, s + ev->start, ev->len);
	buf[ev->len] = '\0';
	err = parse_event__one(buf, extra_mods, &attr, name, sizeof(name), &sample_read);
	if (err) {
		/* Where in a longer list; a lone event needs no pointing at. */
		if (ev->start || s[ev->start + ev->len])
			append_error(" (the event at offset %zu of the list)", ev->start);
		return err;
	}
	evsel = perfev_evlist__add_attr(el, &attr, name, in_group ? *leader : NULL);
	if (!evsel)
		return -(errno ? errno : ENOMEM);
	if (!*leader || !in_group)
		*leader = evsel;
	/* ":S" on any event makes its group's leader (or the lone event) sample-read. */
	if (sample_read)
		evsel__set_sample_read(*leader, true);
	return 0;
}

/* A group "{a,b,...}[:mods]" at pos (its '{'); *next gets the offset after it. */
static int add_group(struct perfev_evlist *el, const char *s, size_t pos, size_t *next)
{
	struct slice *members = NULL, ev;
	size_t nr = 0, cap = 0, p = pos + 1;
	char mods[GROUP_MODS_MAX + 1] = "", member_mods[GROUP_MODS_MAX + 1];
	struct perfev_evsel *leader = NULL;
	bool group_sample_read;
	int err = 0;

	for (;;) {
		p = skip_spaces(s, p);
		if (s[p] == '{') {
			err = set_error(PERFEV_ERR_SYNTAX,
					"nested group at offset %zu: groups cannot contain groups", p);
			goto out;
		}
		if (s[p] == '\0') {
			err = set_error(PERFEV_ERR_SYNTAX,
					"unbalanced '{' at offset %zu: the group has no closing '}'", pos);
			goto out;
		}
		err = scan_event(s, p, &ev);
		if (err)
			goto out;
		if (nr == cap) {
			size_t ncap = cap ? cap * 2 : 8, bytes;
			struct slice *n;

			if (!size_mul_ok(ncap, sizeof(*n), &bytes) || !(n = realloc(members, bytes))) {
				err = set_error(ENOMEM, "out of memory");
				goto out;
			}
			members = n;
			cap = ncap;
		}
		members[nr++] = ev;
		p = skip_spaces(s, ev.start + ev.len);
		if (s[p] == ',') {
			p++;
			continue;
		}
		if (s[p] == '}')
			break;
		if (s[p] == '{') {
			err = set_error(PERFEV_ERR_SYNTAX,
					"nested group at offset %zu: groups cannot contain groups", p);
			goto out;
		}
		err = set_error(PERFEV_ERR_SYNTAX,
				"unbalanced '{' at offset %zu: the group has no closing '}'", pos);
		goto out;
	}
	p++; /* the '}' */
	if (s[p] == ':') {
		size_t m = ++p, n = 0;

		while (s[p] && s[p] != ',' && s[p] != ' ' && s[p] != '{' && s[p] != '}')
			p++;
		n = p - m;
		if (!n) {
			err = set_error(PERFEV_ERR_SYNTAX, "empty group modifier at offset %zu", m);
			goto out;
		}
		if (n > GROUP_MODS_MAX) {
			err = set_error(PERFEV_ERR_SYNTAX,
					"group modifiers at offset %zu are longer than %d characters", m,
					GROUP_MODS_MAX);
			goto out;
		}
		for (size_t i = 0; i < n; i++) {
			if (!strchr(EVENT_MODIFIER_CHARS, s[m + i])) {
				err = set_error(PERFEV_ERR_SYNTAX,
						"unknown group modifier '%c' at offset %zu; modifiers "
						"are u k h G H p pp ppp S D I e",
						s[m + i], m + i);
				goto out;
			}
		}
		memcpy(mods, s + m, n);
		mods[n] = '\0';
	}
	/* Group ":S" is the leader's business: members keep the other modifiers. */
	group_sample_read = strchr(mods, 'S') != NULL;
	{
		size_t j = 0;

		for (size_t i = 0; mods[i]; i++)
			if (mods[i] != 'S')
				member_mods[j++] = mods[i];
		member_mods[j] = '\0';
	}
	for (size_t i = 0; i < nr && !err; i++)
		err = add_one(el, s, &members[i], i ? member_mods : mods, &leader, true);
	if (!err && group_sample_read && leader)
		evsel__set_sample_read(leader, true);
	*next = p;
out:
	free(members);
	return err;
}

/*
 * Walks the list, appending its events to el; with el NULL only checks the
 * structure, so a stray brace is reported before any event is looked up.
 */
static int walk_list(struct perfev_evlist *el, const char *spec)
{
	size_t pos;
	int err = 0;

	pos = skip_spaces(spec, 0);
	if (!spec[pos])
		return set_error(PERFEV_ERR_SYNTAX, "empty event list");
	for (;;) {
		pos = skip_spaces(spec, pos);
		if (spec[pos] == '}')
			return set_error(PERFEV_ERR_SYNTAX,
					 "unbalanced '}' at offset %zu: no group is open", pos);
		if (spec[pos] == '{') {
			err = add_group(el, spec, pos, &pos);
		} else {
			struct perfev_evsel *leader = NULL;
			struct slice ev;

			err = scan_event(spec, pos, &ev);
			if (!err) {
				err = add_one(el, spec, &ev, NULL, &leader, false);
				pos = ev.start + ev.len;
			}
		}
		if (err)
			return err;
		pos = skip_spaces(spec, pos);
		if (!spec[pos])
			return 0;
		if (spec[pos] == ',') {
			pos++;
			if (!spec[skip_spaces(spec, pos)])
				return set_error(PERFEV_ERR_SYNTAX, "empty event at offset %zu", pos);
			continue;
		}
		if (spec[pos] == '}')
			return set_error(PERFEV_ERR_SYNTAX,
					 "unbalanced '}' at offset %zu: no group is open", pos);
		return set_error(PERFEV_ERR_SYNTAX,
				 "unexpected '%c' at offset %zu: expected ',' between events",
				 spec[pos], pos);
	}
}

int perfev_evlist__add_events(struct perfev_evlist *el, const char *spec)
{
	size_t len;
	int nr_before, err;

	if (!el || !spec)
		return set_error(EINVAL, "no event list or spec given");
	len = strnlen(spec, LIST_SPEC_MAX + 1);
	if (len > LIST_SPEC_MAX)
		return set_error(PERFEV_ERR_SYNTAX, "event list is longer than %u characters",
				 LIST_SPEC_MAX);
	for (size_t i = 0; i < len; i++)
		if (!spec_char_ok((unsigned char)spec[i]))
			return set_error(PERFEV_ERR_SYNTAX,
					 "invalid byte 0x%02x at offset %zu of the event list",
					 (unsigned char)spec[i], i);
	err = walk_list(NULL, spec);
	if (err)
		return err;
	nr_before = perfev_evlist__nr_evsels(el);
	err = walk_list(el, spec);
	if (err)
		evlist__truncate(el, nr_before);
	return err;
}
