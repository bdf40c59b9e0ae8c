/* SPDX-License-Identifier: MIT */
/*
 * One event spec, perf's syntax, into a perf_event_attr: symbolic hardware,
 * software and cache names, raw rNNN, mem: breakpoints, PMU/terms/,
 * sys:tracepoint and libpfm4's vendor names, then modifiers.
 */
#include <linux/hw_breakpoint.h>
#include <stdio.h>
#include <string.h>

#include "events/events_int.h"

/* Everything spec-shaped is refused before any lookup if it is not plain printable text. */
static int check_spec_text(const char *spec)
{
	size_t len = strnlen(spec, EVENT_SPEC_MAX + 1);

	if (!len)
		return set_error(PERFEV_ERR_SYNTAX, "empty event spec");
	if (len > EVENT_SPEC_MAX)
		return set_error(PERFEV_ERR_SYNTAX, "event spec is longer than %d characters",
				 EVENT_SPEC_MAX);
	for (size_t i = 0; i < len; i++)
		if (!spec_char_ok((unsigned char)spec[i]))
			return set_error(PERFEV_ERR_SYNTAX,
					 "invalid byte 0x%02x at offset %zu of event spec",
					 (unsigned char)spec[i], i);
	return 0;
}

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

/* lookup_basic(), then an alias only one PMU has, then libpfm4 (last: it knows a lot). */
static int lookup_plain(const char *name, struct perf_event_attr *attr, char *canon, size_t size)
{
	int ret = lookup_basic(name, attr, canon, size);

	if (ret)
		return ret;
	ret = pmu__find_unique_alias(name, attr, canon, size);
	if (ret)
		return ret;
	memset(attr, 0, sizeof(*attr));
	if (!pfm__parse(name, attr)) {
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

/* "mem:ADDR[/LEN][:rwx][:mods]"; *mods points into buf at the modifiers, or NULL. */
static int parse_breakpoint(char *buf, const char *spec, struct perf_event_attr *attr,
			    char *canon, size_t size, char **mods)
{
	char *p = buf + 4, *end;
	uint64_t addr, len = 0;
	unsigned int type = 0;
	bool len_given = false;

	*mods = NULL;
	end = p + strcspn(p, "/:");
	if (end == p)
		return set_error(PERFEV_ERR_SYNTAX,
				 "'%s' has no address: expected mem:ADDR[/LEN][:rwx]", spec);
	if (!parse_u64(p, (size_t)(end - p), &addr))
		return set_error(PERFEV_ERR_SYNTAX,
				 "bad breakpoint address in '%s': expected a decimal or 0x hex number",
				 spec);
	p = end;
	if (*p == '/') {
		p++;
		end = p + strcspn(p, ":");
		if (!parse_u64(p, (size_t)(end - p), &len) ||
		    (len != 1 && len != 2 && len != 4 && len != 8))
			return set_error(PERFEV_ERR_SYNTAX,
					 "bad breakpoint length in '%s': it must be 1, 2, 4 or 8",
					 spec);
		len_given = true;
		p = end;
	}
	if (*p == ':') {
		size_t n;

		p++;
		n = strcspn(p, ":");
		/*
		 * ":w" is the access type, ":u" a modifier: a group of only
		 * r, w and x is the access, and modifiers may follow it.
		 */
		if (n && strspn(p, "rwx") == n) {
			for (size_t i = 0; i < n; i++) {
				unsigned int bit = p[i] == 'r' ? HW_BREAKPOINT_R :
						   p[i] == 'w' ? HW_BREAKPOINT_W : HW_BREAKPOINT_X;

				if (type & bit)
					return set_error(PERFEV_ERR_SYNTAX,
							 "access '%c' given twice in '%s'", p[i],
							 spec);
				type |= bit;
			}
			p += n;
			if (*p == ':')
				*mods = p + 1;
		} else {
			*mods = p;
		}
		if (*mods && !**mods)
			return set_error(PERFEV_ERR_SYNTAX, "empty modifier in '%s'", spec);
	} else if (*p) {
		return set_error(PERFEV_ERR_SYNTAX, "unexpected '%c' in '%s'", *p, spec);
	}
	if (!type)
		type = HW_BREAKPOINT_RW;
	if (!len_given)
		len = type == HW_BREAKPOINT_X ? sizeof(long) : HW_BREAKPOINT_LEN_4;
	attr->type = PERF_TYPE_BREAKPOINT;
	attr->bp_type = type;
	attr->bp_addr = addr;
	attr->bp_len = len;
	snprintf(canon, size, "mem:0x%llx", (unsigned long long)addr);
	if (len_given)
		snprintf(canon + strlen(canon), size - strlen(canon), "/%llu", (unsigned long long)len);
	snprintf(canon + strlen(canon), size - strlen(canon), ":%s%s%s",
		 type & HW_BREAKPOINT_R ? "r" : "", type & HW_BREAKPOINT_W ? "w" : "",
		 type & HW_BREAKPOINT_X ? "x" : "");
	return 0;
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

/*
 * "PMU/terms/[:]mods": cuts buf after the closing '/' and points *mods at
 * the modifiers (or NULL).
 */
static int split_pmu(char *buf, size_t plen, const char *spec, char **mods)
{
	char *close = strchr(buf + plen + 1, '/');

	*mods = NULL;
	if (!close)
		return set_error(PERFEV_ERR_SYNTAX,
				 "unterminated terms in '%s': expected PMU/terms/ with a closing '/'",
				 spec);
	if (close[1]) {
		char *m = close + 1;

		if (*m == ':')
			m++;
		if (!*m)
			return set_error(PERFEV_ERR_SYNTAX, "empty modifier in '%s'", spec);
		if (strchr(m, '/'))
			return set_error(PERFEV_ERR_SYNTAX,
					 "unexpected text after the terms of '%s'", spec);
		*mods = m;
		/* The modifiers may start right after '/', so copy them out of harm's way. */
		memmove(close + 2, m, strlen(m) + 1);
		*mods = close + 2;
	}
	close[1] = '\0';
	return 0;
}

int parse_event__one(const char *spec, const char *extra_mods, struct perf_event_attr *attr,
		     char *name, size_t name_size, bool *sample_read)
{
	char buf[EVENT_SPEC_MAX + 2], canon[EVENT_NAME_MAX], name_term[EVENT_NAME_MAX];
	char all_mods[EVENT_SPEC_MAX + 64];
	char *mods = NULL, *colon;
	size_t plen;
	int err;

	memset(attr, 0, sizeof(*attr));
	*sample_read = false;
	if (name && name_size)
		name[0] = '\0';
	canon[0] = name_term[0] = '\0';
	err = check_spec_text(spec);
	if (err)
		return err;
	/* One spare byte: split_pmu() may shift modifiers right by one. */
	snprintf(buf, sizeof(buf), "%s", spec);

	if (!strncmp(buf, "mem:", 4)) {
		err = parse_breakpoint(buf, spec, attr, canon, sizeof(canon), &mods);
	} else if ((plen = pmu_prefix(buf))) {
		err = split_pmu(buf, plen, spec, &mods);
		if (!err)
			err = pmu__parse(buf, spec, attr, name_term, sizeof(name_term));
		if (!err)
			snprintf(canon, sizeof(canon), "%s", buf);
	} else if (strpbrk(buf, ",{}")) {
		err = set_error(PERFEV_ERR_SYNTAX,
				"unexpected '%c' at offset %zu of '%s': this takes one event; lists "
				"and groups go to perfev_evlist__add_events()",
				*strpbrk(buf, ",{}"), (size_t)(strpbrk(buf, ",{}") - buf), spec);
	} else if (strchr(buf, '/')) {
		err = set_error(PERFEV_ERR_SYNTAX,
				"unexpected '/' at offset %zu of '%s' (a PMU event is PMU/terms/)",
				(size_t)(strchr(buf, '/') - buf), spec);
	} else if (!(colon = strchr(buf, ':'))) {
		err = lookup_plain(buf, attr, canon, sizeof(canon));
		if (!err)
			err = unknown_event(buf);
		else if (err > 0)
			err = 0;
	} else {
		char *rest = colon + 1;

		*colon = '\0';
		err = lookup_basic(buf, attr, canon, sizeof(canon));
		if (err > 0) {
			/* "cycles:u": what follows is modifiers and nothing else. */
			mods = rest;
			err = *mods ? 0 : set_error(PERFEV_ERR_SYNTAX, "empty modifier in '%s'", spec);
		} else if (!err && tracepoint__sys_exists(buf)) {
			char *c2 = strchr(rest, ':');

			if (c2) {
				*c2 = '\0';
				mods = c2 + 1;
			}
			err = tracepoint__parse(buf, rest, spec, attr);
			if (!err && mods && !*mods)
				err = set_error(PERFEV_ERR_SYNTAX, "empty modifier in '%s'", spec);
			if (!err)
				snprintf(canon, sizeof(canon), "%s:%s", buf, rest);
		} else if (!err && modifiers__look_valid(rest)) {
			/* "tsc:u", "RETIRED_UOPS:u"; else libpfm4's own "EVENT:u" syntax. */
			err = lookup_plain(buf, attr, canon, sizeof(canon));
			if (err > 0) {
				mods = rest;
				err = 0;
			} else if (!err) {
				*colon = ':';
				memset(attr, 0, sizeof(*attr));
				if (!pfm__parse(buf, attr)) {
					snprintf(canon, sizeof(canon), "%s", buf);
				} else {
					*colon = '\0';
					err = unknown_event(buf);
				}
			}
		} else if (!err) {
			/* A tracepoint of an unknown subsystem, or libpfm4's "PMU::EVENT:UMASK". */
			*colon = ':';
			if (!pfm__parse(buf, attr)) {
				snprintf(canon, sizeof(canon), "%s", buf);
			} else {
				char *last = strrchr(buf, ':');

				memset(attr, 0, sizeof(*attr));
				*last = '\0';
				if (last != colon && modifiers__look_valid(last + 1) &&
				    !pfm__parse(buf, attr)) {
					snprintf(canon, sizeof(canon), "%s", buf);
					mods = last + 1;
				} else {
					char *c2;

					*last = ':';
					memset(attr, 0, sizeof(*attr));
					*colon = '\0';
					c2 = strchr(rest, ':');
					if (c2)
						*c2 = '\0';
					if (!*rest)
						err = unknown_event(spec);
					else
						err = tracepoint__parse(buf, rest, spec, attr);
				}
			}
		}
	}
	if (err)
		goto fail;
	/* Own modifiers then the group's, in one go: see modifiers__apply(). */
	snprintf(all_mods, sizeof(all_mods), "%s%s", mods ? mods : "", extra_mods ? extra_mods : "");
	if (mods && !*mods) {
		err = set_error(PERFEV_ERR_SYNTAX, "empty modifier in '%s'", spec);
		goto fail;
	}
	if (all_mods[0]) {
		err = modifiers__apply(all_mods, spec, attr, sample_read);
		if (err)
			goto fail;
	}
	if (name && name_size) {
		size_t clen = strlen(canon);
		/* perf writes PMU modifiers straight after the closing '/': "msr/tsc/u". */
		bool sep = all_mods[0] && !(clen && canon[clen - 1] == '/');

		if (name_term[0])
			snprintf(name, name_size, "%s", name_term);
		else
			snprintf(name, name_size, "%s%s%s", canon, sep ? ":" : "", all_mods);
	}
	return 0;
fail:
	memset(attr, 0, sizeof(*attr));
	return err;
}

int perfev_parse_event(const char *spec, struct perf_event_attr *attr, char *name,
		       size_t name_size)
{
	bool sample_read;
	int err;

	if (!spec || !attr)
		return set_error(EINVAL, "no event spec or attribute given");
	err = parse_event__one(spec, NULL, attr, name, name_size, &sample_read);
	if (!err && sample_read)
		attr->sample_type |= PERF_SAMPLE_READ;
	return err;
}
