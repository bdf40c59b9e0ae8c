/* SPDX-License-Identifier: MIT */
/* Event modifiers (":u", ":ppp", ...) with perf's semantics, from one table. */
#include <string.h>

#include "events/events_int.h"

enum mod_action {
	MOD_LEVEL,	 /* u, k, h: count only the privilege levels named */
	MOD_VIRT,	 /* G, H: count only the guest or host named */
	MOD_PRECISE,	 /* p, once per level */
	MOD_SAMPLE_READ, /* S: the leader reads the whole group on each sample */
	MOD_PINNED,
	MOD_NO_IDLE,
	MOD_EXCLUSIVE,
};

/*
 * Every modifier perfev knows, in the order the help text lists them.  Which
 * letters are modifiers, what they do and what the errors say all come from
 * here (perfev/events.h, libperfev.3 and README.md describe the same list).
 */
static const struct modifier {
	char c;
	unsigned int max; /* how many times it may stack ("ppp") */
	const char *what;
	enum mod_action action;
	unsigned int bit; /* MOD_LEVEL: user, kernel, hv; MOD_VIRT: guest, host */
} modifiers[] = {
	{ 'u', 1, "user", MOD_LEVEL, 0 },
	{ 'k', 1, "kernel", MOD_LEVEL, 1 },
	{ 'h', 1, "hypervisor", MOD_LEVEL, 2 },
	{ 'G', 1, "guest", MOD_VIRT, 0 },
	{ 'H', 1, "host", MOD_VIRT, 1 },
	{ 'p', 3, "precise", MOD_PRECISE, 0 },
	{ 'S', 1, "sample-read", MOD_SAMPLE_READ, 0 },
	{ 'D', 1, "pinned", MOD_PINNED, 0 },
	{ 'I', 1, "exclude idle", MOD_NO_IDLE, 0 },
	{ 'e', 1, "exclusive", MOD_EXCLUSIVE, 0 },
};

static const struct modifier *modifier__find(char c)
{
	for (size_t i = 0; i < ARRAY_SIZE(modifiers); i++)
		if (modifiers[i].c == c)
			return &modifiers[i];
	return NULL;
}

bool modifier__known(char c)
{
	return c && modifier__find(c);
}

bool modifiers__only(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!modifier__known(*s))
			return false;
	return true;
}

/* "p/pp/ppp" (sep '/') or "p pp ppp" (sep ' ') for m. */
static void append_spellings(const struct modifier *m, char sep)
{
	for (unsigned int n = 1; n <= m->max; n++) {
		if (n > 1)
			append_error("%c", sep);
		for (unsigned int i = 0; i < n; i++)
			append_error("%c", m->c);
	}
}

void modifiers__append_list(bool described)
{
	for (size_t i = 0; i < ARRAY_SIZE(modifiers); i++) {
		if (i)
			append_error(described ? ", " : " ");
		append_spellings(&modifiers[i], described ? '/' : ' ');
		if (described)
			append_error(" (%s)", modifiers[i].what);
	}
}

/*
 * Naming any of u/k/h means "only these": the first one excludes all three
 * and each then re-includes its own; G/H likewise.  The state starts fresh
 * and only the bits a modifier touched are written, so defaults an encoder
 * chose (libpfm4 excludes the hypervisor) survive when no modifier speaks
 * about them.
 */
struct mod_state {
	bool levels, virt, precise_given;
	unsigned char exclude_level[3], exclude_virt[2];
	unsigned int precise;
};

static void mod_state__take(struct mod_state *st, const struct modifier *m,
			    struct perf_event_attr *attr, bool *sample_read)
{
	switch (m->action) {
	case MOD_LEVEL:
		if (!st->levels)
			memset(st->exclude_level, 1, sizeof(st->exclude_level));
		st->levels = true;
		st->exclude_level[m->bit] = 0;
		break;
	case MOD_VIRT:
		if (!st->virt)
			memset(st->exclude_virt, 1, sizeof(st->exclude_virt));
		st->virt = true;
		st->exclude_virt[m->bit] = 0;
		break;
	case MOD_PRECISE:
		st->precise++;
		st->precise_given = true;
		break;
	case MOD_SAMPLE_READ:
		*sample_read = true;
		break;
	case MOD_PINNED:
		attr->pinned = 1;
		break;
	case MOD_NO_IDLE:
		attr->exclude_idle = 1;
		break;
	case MOD_EXCLUSIVE:
		attr->exclusive = 1;
		break;
	}
}

static int unknown_modifier(unsigned char c, const char *spec)
{
	if (spec_char_ok(c))
		set_error(PERFEV_ERR_SYNTAX, "unknown modifier '%c' in '%s'", c, spec);
	else
		set_error(PERFEV_ERR_SYNTAX, "unknown modifier byte 0x%02x in event spec", c);
	append_error("; modifiers are ");
	modifiers__append_list(true);
	return -PERFEV_ERR_SYNTAX;
}

static int too_precise(const char *spec)
{
	const struct modifier *p = modifier__find('p');

	set_error(PERFEV_ERR_SYNTAX,
		  "too many 'p' modifiers in '%s': the precise level is at most %u (", spec,
		  p->max);
	for (unsigned int i = 0; i < p->max; i++)
		append_error("p");
	append_error(")");
	return -PERFEV_ERR_SYNTAX;
}

int modifiers__apply(const char *mods, const char *spec, struct perf_event_attr *attr,
		     bool *sample_read)
{
	struct mod_state st = { .precise = attr->precise_ip };

	for (const char *c = mods; *c; c++) {
		const struct modifier *m = modifier__find(*c);

		if (!m)
			return unknown_modifier((unsigned char)*c, spec);
		mod_state__take(&st, m, attr, sample_read);
	}
	if (st.precise > modifier__find('p')->max)
		return too_precise(spec);
	if (st.levels) {
		attr->exclude_user = st.exclude_level[0];
		attr->exclude_kernel = st.exclude_level[1];
		attr->exclude_hv = st.exclude_level[2];
	}
	if (st.virt) {
		attr->exclude_guest = st.exclude_virt[0];
		attr->exclude_host = st.exclude_virt[1];
	} else if (st.precise_given) {
		/* Precise sampling (PEBS, IBS) cannot follow a guest: perf excludes it too. */
		attr->exclude_guest = 1;
	}
	attr->precise_ip = st.precise;
	return 0;
}
