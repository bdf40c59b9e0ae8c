/* SPDX-License-Identifier: MIT */
/*
 * One event spec, perf's syntax, into a perf_event_attr: cut once into its
 * parts (spec_split.c), then offered to an ordered table of resolvers, each
 * of which takes it, leaves it to the next or explains what is wrong with
 * it; then modifiers, and the event's canonical name.
 */
#include <stdio.h>
#include <string.h>

#include "events/events_int.h"

static bool is_hex(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

/* "r" then hex digits only: "r" alone or "rxyz" is a name, not raw. */
static bool looks_raw(const char *s)
{
	if (s[0] != 'r' || !s[1])
		return false;
	for (s++; *s; s++)
		if (!is_hex(*s))
			return false;
	return true;
}

/* s is looks_raw(): 'r' and hexadecimal digits, never decimal (r0123 is 0x123). */
static int parse_raw(const char *name, struct perf_event_attr *attr)
{
	const char *s = name + 1;
	uint64_t v = 0;

	for (; *s == '0' && s[1]; s++)
		;
	if (strlen(s) > 16)
		return set_error(PERFEV_ERR_SYNTAX, "raw event '%s' is wider than 64 bits", name);
	for (; *s; s++)
		v = v << 4 | (uint64_t)(*s <= '9' ? *s - '0' : (*s | 0x20) - 'a' + 10);
	attr->type = PERF_TYPE_RAW;
	attr->config = v;
	return 0;
}

/*
 * The names that resolve without a PMU lookup: generic hardware, software,
 * cache and raw.  1 when name is one of them (attr and canon filled), 0 when
 * not, or an error.
 */
static int lookup_basic(const char *name, struct perf_event_attr *attr, char *canon, size_t size)
{
	const struct symbolic_event *e = symbolic_event__find(name);
	uint64_t config;
	int err;

	if (e) {
		attr->type = e->type;
		attr->config = e->config;
		snprintf(canon, size, "%s", e->name);
		return 1;
	}
	if (cache_event__parse(name, &config, canon, size)) {
		attr->type = PERF_TYPE_HW_CACHE;
		attr->config = config;
		return 1;
	}
	if (looks_raw(name)) {
		err = parse_raw(name, attr);
		if (err)
			return err;
		snprintf(canon, size, "%s", name);
		return 1;
	}
	return 0;
}

static int unknown_event(const char *name)
{
	char buf[64];
	struct suggest s;

	suggest__init(&s, name);
	for (size_t i = 0; i < nr_symbolic_events; i++) {
		suggest__add(&s, symbolic_events[i].name, NULL);
		if (symbolic_events[i].alias)
			suggest__add(&s, symbolic_events[i].alias, NULL);
	}
	for (unsigned int c = 0; c < PERF_COUNT_HW_CACHE_MAX; c++)
		for (unsigned int op = 0; op < PERF_COUNT_HW_CACHE_OP_MAX; op++)
			for (unsigned int r = 0; r < PERF_COUNT_HW_CACHE_RESULT_MAX; r++) {
				cache_event__name(c, op, r, buf, sizeof(buf));
				suggest__add(&s, buf, NULL);
			}
	pmu__suggest_aliases(&s);
	pfm__suggest(&s);
	set_error(PERFEV_ERR_UNKNOWN_EVENT, "unknown event '%s'", name);
	suggest__append_then(&s, "run 'perfev list' to see every event");
	return -PERFEV_ERR_UNKNOWN_EVENT;
}

/*
 * What a resolver makes of a spec: attr (zeroed before each try), the
 * canonical name, a name= term, and which modifiers follow the event.
 */
struct resolved {
	struct perf_event_attr *attr;
	char canon[EVENT_NAME_MAX], name_term[EVENT_NAME_MAX];
	const char *mods;
};

/* 1 when the spec is the resolver's (r filled), 0 when not, or an error. */
typedef int (*resolver_fn)(const struct spec_split *s, struct resolved *r);

static int resolve_breakpoint(const struct spec_split *s, struct resolved *r)
{
	int err = breakpoint__resolve(s, r->attr, r->canon, sizeof(r->canon));

	r->mods = s->mods;
	return err ? err : 1;
}

static int resolve_pmu_terms(const struct spec_split *s, struct resolved *r)
{
	int err = pmu__parse(s->pmu.pmu, s->pmu.terms, s->spec, r->attr, r->name_term,
			     sizeof(r->name_term));

	if (err)
		return err;
	snprintf(r->canon, sizeof(r->canon), "%s", s->pmu.event);
	r->mods = s->mods;
	return 1;
}

/* "cycles[:u]", "L1-dcache-loads[:u]", "r1a[:u]": after the first ':', modifiers only. */
static int resolve_basic(const struct spec_split *s, struct resolved *r)
{
	int ret = lookup_basic(s->name.head, r->attr, r->canon, sizeof(r->canon));

	r->mods = s->name.rest;
	return ret;
}

/* "sys:event[:mods]" in tracefs. */
static int tracepoint_named(const struct spec_split *s, struct resolved *r)
{
	int err = tracepoint__parse(s->name.head, s->name.tp_event, s->spec, r->attr);

	if (err)
		return err;
	snprintf(r->canon, sizeof(r->canon), "%.*s", (int)s->name.tp_len, s->text);
	r->mods = s->name.tp_mods;
	return 1;
}

/* A tracepoint of a subsystem tracefs has; its errors are final. */
static int resolve_tracepoint(const struct spec_split *s, struct resolved *r)
{
	if (!s->name.rest || !tracepoint__sys_exists(s->name.head))
		return 0;
	return tracepoint_named(s, r);
}

/* "tsc[:u]": an alias that only one PMU has. */
static int resolve_pmu_alias(const struct spec_split *s, struct resolved *r)
{
	int ret;

	if (!s->name.mods_only)
		return 0;
	ret = pmu__find_unique_alias(s->name.head, r->attr, r->canon, sizeof(r->canon));
	r->mods = s->name.rest;
	return ret;
}

/* libpfm4's name for an event, then perfev's modifiers (or none). */
static int pfm_named(const char *name, const char *mods, struct resolved *r)
{
	if (pfm__parse(name, r->attr))
		return 0;
	snprintf(r->canon, sizeof(r->canon), "%s", name);
	r->mods = mods;
	return 1;
}

/* "RETIRED_UOPS[:u]": modifier letters after the name are perfev's. */
static int resolve_pfm_modified(const struct spec_split *s, struct resolved *r)
{
	return s->name.mods_only ? pfm_named(s->name.head, s->name.rest, r) : 0;
}

/* libpfm4's own syntax, "pmu::EVENT:UMASK" (or "EVENT:u", when nothing took it above). */
static int resolve_pfm_whole(const struct spec_split *s, struct resolved *r)
{
	return s->name.rest ? pfm_named(s->text, NULL, r) : 0;
}

/* "pmu::EVENT:UMASK:u": libpfm4's syntax, then perfev's modifiers. */
static int resolve_pfm_then_modifiers(const struct spec_split *s, struct resolved *r)
{
	if (s->name.mods_only || !modifiers__only(s->name.last))
		return 0;
	return pfm_named(s->name.before_last, s->name.last, r);
}

/* "sys:event" of no subsystem tracefs has: the tracepoint code says what is close. */
static int resolve_unknown_tracepoint(const struct spec_split *s, struct resolved *r)
{
	if (s->name.mods_only || !s->name.tp_event[0])
		return 0;
	return tracepoint_named(s, r);
}

/* Nothing took it: say so, with the names close to it. */
static int resolve_unknown(const struct spec_split *s, struct resolved *r)
{
	(void)r;
	return unknown_event(s->name.mods_only ? s->name.head : s->spec);
}

/*
 * Every reading of a spec, in the order they are tried: the first that
 * takes a spec of its form wins, and its errors are final.  The order
 * decides what a name two could take means: perf's own names before
 * tracepoints, PMU aliases before libpfm4, which knows a great many names,
 * and for "NAME:letters" perfev's modifiers before libpfm4's own syntax.
 */
static const struct resolver {
	enum spec_form form;
	resolver_fn resolve;
} resolvers[] = {
	{ SPEC_BREAKPOINT, resolve_breakpoint },
	{ SPEC_PMU, resolve_pmu_terms },
	{ SPEC_NAME, resolve_basic },
	{ SPEC_NAME, resolve_tracepoint },
	{ SPEC_NAME, resolve_pmu_alias },
	{ SPEC_NAME, resolve_pfm_modified },
	{ SPEC_NAME, resolve_pfm_whole },
	{ SPEC_NAME, resolve_pfm_then_modifiers },
	{ SPEC_NAME, resolve_unknown_tracepoint },
	{ SPEC_NAME, resolve_unknown },
};

static int resolve(const struct spec_split *s, struct resolved *r)
{
	for (size_t i = 0; i < ARRAY_SIZE(resolvers); i++) {
		int ret;

		if (resolvers[i].form != s->form)
			continue;
		memset(r->attr, 0, sizeof(*r->attr));
		r->mods = NULL;
		ret = resolvers[i].resolve(s, r);
		if (ret)
			return ret < 0 ? ret : 0;
	}
	/* Not reached: the last resolver of each form takes or refuses every spec. */
	return set_error(PERFEV_ERR_UNKNOWN_EVENT, "unknown event '%s'", s->spec);
}

/* The event's own modifiers then the group's, in one go: see modifiers__apply(). */
static int apply_modifiers(const struct spec_split *s, const struct resolved *r,
			   const char *extra_mods, char *all_mods, size_t size, bool *sample_read)
{
	if (r->mods && !*r->mods)
		return set_error(PERFEV_ERR_SYNTAX, "empty modifier in '%s'", s->spec);
	snprintf(all_mods, size, "%s%s", r->mods ? r->mods : "", extra_mods ? extra_mods : "");
	return all_mods[0] ? modifiers__apply(all_mods, s->spec, r->attr, sample_read) : 0;
}

static void event_name(const struct resolved *r, const char *all_mods, char *name,
		       size_t name_size)
{
	size_t clen = strlen(r->canon);
	/* perf writes PMU modifiers straight after the closing '/': "msr/tsc/u". */
	bool sep = all_mods[0] && !(clen && r->canon[clen - 1] == '/');

	if (r->name_term[0])
		snprintf(name, name_size, "%s", r->name_term);
	else
		snprintf(name, name_size, "%s%s%s", r->canon, sep ? ":" : "", all_mods);
}

int parse_event__one(const char *spec, const char *extra_mods, struct perf_event_attr *attr,
		     char *name, size_t name_size, bool *sample_read)
{
	struct spec_split s;
	struct resolved r = { .attr = attr };
	char all_mods[EVENT_SPEC_MAX + 64];
	int err;

	memset(attr, 0, sizeof(*attr));
	*sample_read = false;
	if (name && name_size)
		name[0] = '\0';
	err = event_spec__split(spec, &s);
	if (!err)
		err = resolve(&s, &r);
	if (!err)
		err = apply_modifiers(&s, &r, extra_mods, all_mods, sizeof(all_mods), sample_read);
	if (err) {
		memset(attr, 0, sizeof(*attr));
		return err;
	}
	if (name && name_size)
		event_name(&r, all_mods, name, name_size);
	return 0;
}

int perfev_parse_event(const char *spec, struct perf_event_attr *attr, char *name,
		       size_t name_size)
{
	bool sample_read;
	int err;

	if (!spec || !attr)
		return set_error(EINVAL, "no event spec or attribute given");
	memset(attr, 0, sizeof(*attr));
	if (name && name_size)
		name[0] = '\0';
	if (!*spec)
		return set_error(PERFEV_ERR_SYNTAX, "empty event spec");
	err = spec_text__check(spec, EVENT_SPEC_MAX, "event spec", "event spec");
	if (!err)
		err = parse_event__one(spec, NULL, attr, name, name_size, &sample_read);
	if (!err && sample_read)
		attr->sample_type |= PERF_SAMPLE_READ;
	return err;
}
