/* SPDX-License-Identifier: MIT */
/*
 * Event lists: "a,{b,c}:S,PMU/t=1,u=2/" into an evlist.  Commas split
 * events except inside a PMU's /terms/; braces make groups, which do not
 * nest; modifiers after a group's '}' apply to every member.  Where one
 * event ends and what it says are events/'s business.
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

/* A group's members. */
struct slices {
	struct slice *v;
	size_t nr, cap;
};

static size_t skip_spaces(const char *s, size_t pos)
{
	while (s[pos] == ' ')
		pos++;
	return pos;
}

static int scan_event(const char *s, size_t pos, struct slice *ev)
{
	ev->start = pos;
	return event_spec__extent(s, pos, &ev->len);
}

static int slices_add(struct slices *l, const struct slice *ev)
{
	if (l->nr == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 8, bytes;
		struct slice *n;

		if (!size_mul_ok(cap, sizeof(*n), &bytes) || !(n = realloc(l->v, bytes)))
			return set_error(ENOMEM, "out of memory");
		l->v = n;
		l->cap = cap;
	}
	l->v[l->nr++] = *ev;
	return 0;
}

/* Parses one event's text and appends it; *leader becomes it when NULL or not in a group. */
static int add_spec(struct perfev_evlist *el, const char *buf, const char *extra_mods,
		    struct perfev_evsel **leader, bool in_group)
{
	char name[EVENT_NAME_MAX];
	struct perf_event_attr attr;
	struct perfev_evsel *evsel;
	bool sample_read;
	int err;

	err = parse_event__one(buf, extra_mods, &attr, name, sizeof(name), &sample_read);
	if (err)
		return err;
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

/* A tracepoint glob's matches, each added as an event of its own (or of the group). */
struct glob_add {
	struct perfev_evlist *el;
	const char *extra_mods;
	struct perfev_evsel **leader;
	bool in_group;
};

static int add_glob_match(const char *spec, void *ctx)
{
	struct glob_add *g = ctx;

	return add_spec(g->el, spec, g->extra_mods, g->leader, g->in_group);
}

/*
 * Parses one event of the list and appends it (el NULL: checks only its
 * length), or every tracepoint a glob such as "syscalls:*" matches.
 */
static int add_one(struct perfev_evlist *el, const char *s, const struct slice *ev,
		   const char *extra_mods, struct perfev_evsel **leader, bool in_group)
{
	char buf[EVENT_SPEC_MAX + 1];
	struct glob_add g = { el, extra_mods, leader, in_group };
	int err;

	if (ev->len > EVENT_SPEC_MAX)
		return set_error(PERFEV_ERR_SYNTAX,
				 "the event at offset %zu is longer than %d characters", ev->start,
				 EVENT_SPEC_MAX);
	if (!el)
		return 0;
	memcpy(buf, s + ev->start, ev->len);
	buf[ev->len] = '\0';
	err = tracepoint__glob(buf, add_glob_match, &g);
	if (!err)
		err = add_spec(el, buf, extra_mods, leader, in_group);
	else if (err > 0)
		err = 0;
	if (err < 0 && (ev->start || s[ev->start + ev->len]))
		/* Where in a longer list; a lone event needs no pointing at. */
		append_error(" (the event at offset %zu of the list)", ev->start);
	return err;
}

static int nested_group(size_t at)
{
	return set_error(PERFEV_ERR_SYNTAX, "nested group at offset %zu: groups cannot contain groups",
			 at);
}

static int unbalanced_open(size_t at)
{
	return set_error(PERFEV_ERR_SYNTAX,
			 "unbalanced '{' at offset %zu: the group has no closing '}'", at);
}

/* The members of the group whose '{' is at pos; *next gets the offset after its '}'. */
static int scan_members(const char *s, size_t pos, struct slices *members, size_t *next)
{
	size_t p = pos + 1;
	struct slice ev;
	int err;

	for (;;) {
		p = skip_spaces(s, p);
		if (s[p] == '{')
			return nested_group(p);
		if (!s[p])
			return unbalanced_open(pos);
		err = scan_event(s, p, &ev);
		if (!err)
			err = slices_add(members, &ev);
		if (err)
			return err;
		p = skip_spaces(s, ev.start + ev.len);
		if (s[p] == ',') {
			p++;
			continue;
		}
		if (s[p] == '}') {
			*next = p + 1;
			return 0;
		}
		return s[p] == '{' ? nested_group(p) : unbalanced_open(pos);
	}
}

/* A group's ":mods" at p (if any) into mods; *next gets the offset after them. */
static int scan_group_mods(const char *s, size_t p, char *mods, size_t *next)
{
	size_t m = p + 1, n;

	mods[0] = '\0';
	*next = p;
	if (s[p] != ':')
		return 0;
	for (p = m; s[p] && s[p] != ',' && s[p] != ' ' && s[p] != '{' && s[p] != '}'; p++)
		;
	n = p - m;
	if (!n)
		return set_error(PERFEV_ERR_SYNTAX, "empty group modifier at offset %zu", m);
	if (n > GROUP_MODS_MAX)
		return set_error(PERFEV_ERR_SYNTAX,
				 "group modifiers at offset %zu are longer than %d characters", m,
				 GROUP_MODS_MAX);
	for (size_t i = 0; i < n; i++) {
		if (!modifier__known(s[m + i])) {
			set_error(PERFEV_ERR_SYNTAX,
				  "unknown group modifier '%c' at offset %zu; modifiers are ", s[m + i],
				  m + i);
			modifiers__append_list(false);
			return -PERFEV_ERR_SYNTAX;
		}
	}
	memcpy(mods, s + m, n);
	mods[n] = '\0';
	*next = p;
	return 0;
}

/* Group ":S" is the leader's business: members keep the other modifiers. */
static void strip_sample_read(const char *mods, char *member_mods)
{
	size_t j = 0;

	for (size_t i = 0; mods[i]; i++)
		if (mods[i] != 'S')
			member_mods[j++] = mods[i];
	member_mods[j] = '\0';
}

/* A group "{a,b,...}[:mods]" at pos (its '{'); *next gets the offset after it. */
static int add_group(struct perfev_evlist *el, const char *s, size_t pos, size_t *next)
{
	char mods[GROUP_MODS_MAX + 1], member_mods[GROUP_MODS_MAX + 1];
	struct perfev_evsel *leader = NULL;
	struct slices members = { 0 };
	size_t close = pos;
	int err;

	err = scan_members(s, pos, &members, &close);
	if (!err)
		err = scan_group_mods(s, close, mods, next);
	if (!err)
		strip_sample_read(mods, member_mods);
	for (size_t i = 0; i < members.nr && !err; i++)
		err = add_one(el, s, &members.v[i], i ? member_mods : mods, &leader, true);
	if (!err && strchr(mods, 'S') && leader)
		evsel__set_sample_read(leader, true);
	free(members.v);
	return err;
}

/* After an event or group at pos: 1 at the end, 0 after a ',', or an error. */
static int list_separator(const char *spec, size_t *pos)
{
	size_t p = skip_spaces(spec, *pos);

	if (!spec[p])
		return 1;
	if (spec[p] == ',') {
		*pos = ++p;
		if (!spec[skip_spaces(spec, p)])
			return set_error(PERFEV_ERR_SYNTAX, "empty event at offset %zu", p);
		return 0;
	}
	if (spec[p] == '}')
		return set_error(PERFEV_ERR_SYNTAX, "unbalanced '}' at offset %zu: no group is open",
				 p);
	return set_error(PERFEV_ERR_SYNTAX,
			 "unexpected '%c' at offset %zu: expected ',' between events", spec[p], p);
}

/*
 * Walks the list, appending its events to el; with el NULL only checks the
 * structure, so a stray brace is reported before any event is looked up.
 */
static int walk_list(struct perfev_evlist *el, const char *spec)
{
	size_t pos = skip_spaces(spec, 0);
	int err;

	if (!spec[pos])
		return set_error(PERFEV_ERR_SYNTAX, "empty event list");
	do {
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
			if (!err)
				err = add_one(el, spec, &ev, NULL, &leader, false);
			if (!err)
				pos = ev.start + ev.len;
		}
		if (!err)
			err = list_separator(spec, &pos);
	} while (!err);
	return err < 0 ? err : 0;
}

int perfev_evlist__add_events(struct perfev_evlist *el, const char *spec)
{
	int nr_before, err;

	if (!el || !spec)
		return set_error(EINVAL, "no event list or spec given");
	err = spec_text__check(spec, LIST_SPEC_MAX, "event list", "the event list");
	if (!err)
		err = walk_list(NULL, spec);
	if (err)
		return err;
	nr_before = perfev_evlist__nr_evsels(el);
	err = walk_list(el, spec);
	if (err)
		evlist__truncate(el, nr_before);
	return err;
}
