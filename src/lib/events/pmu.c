/* SPDX-License-Identifier: MIT */
/*
 * Dynamic PMUs of /sys/bus/event_source/devices: "PMU/term=value,.../"
 * specs encoded through the PMU's format/ files (which bits of which config
 * word a term fills) and events/ aliases (files holding a term list).  The
 * files' contents are untrusted: every one is length-limited and parsed
 * strictly.
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "events/events_int.h"

#define SYSFS_DEFAULT "/sys"
#define PMU_SUBDIR "bus/event_source/devices"
#define PMU_PATH_MAX 4096
#define FORMAT_TEXT_MAX 256
#define ALIAS_TEXT_MAX 4096
#define TERM_NAME_MAX 64
#define PMU_NAME_MAX 256
/* How many names an error lists before "and N more". */
#define LIST_IN_ERROR 16

static const char *sysfs_root_override;

void pmu__set_sysfs_root(const char *root)
{
	sysfs_root_override = root;
}

/* devices[/pmu[/sub[/leaf]]] into buf. */
static bool pmu_path(char *buf, size_t size, const char *pmu, const char *sub, const char *leaf)
{
	const char *root = sysfs_root_override ? sysfs_root_override : SYSFS_DEFAULT;
	char dir[PMU_PATH_MAX];

	if (!path_join(dir, sizeof(dir), root, PMU_SUBDIR, NULL, NULL))
		return false;
	return path_join(buf, size, dir, pmu, sub, leaf);
}

static bool is_dir(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISDIR(st.st_mode);
}

static bool term_name_ok(const char *s)
{
	size_t n = 0;

	for (; s[n]; n++) {
		char c = s[n];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		      c == '_' || c == '-'))
			return false;
	}
	return n > 0 && n < TERM_NAME_MAX;
}

/* Reads a small sysfs file, refusing rather than truncating one that is too long. */
static int read_small(const char *path, char *buf, size_t size)
{
	int n = read_text_file(path, buf, size);

	if (n >= 0 && (size_t)n + 1 >= size)
		return -EFBIG;
	return n;
}

static void trim(char *s)
{
	size_t n = strlen(s);

	while (n && (s[n - 1] == '\n' || s[n - 1] == ' ' || s[n - 1] == '\t'))
		s[--n] = '\0';
}

/* Appends up to LIST_IN_ERROR names of l to the error text. */
static void append_names(const struct name_list *l)
{
	for (size_t i = 0; i < l->nr && i < LIST_IN_ERROR; i++)
		append_error("%s%s", i ? ", " : "", l->names[i]);
	if (l->nr > LIST_IN_ERROR)
		append_error(" and %zu more", l->nr - LIST_IN_ERROR);
	if (!l->nr)
		append_error("none");
}

/* An alias file name: no companions such as "NAME.scale" or "NAME.unit". */
static bool alias_file_name_ok(const char *name)
{
	return term_name_ok(name);
}

/* Reads events/ of pmu, keeping only alias files. */
static void read_aliases(const char *pmu, struct name_list *out)
{
	struct name_list all = { 0 };
	char path[PMU_PATH_MAX];

	if (!pmu_path(path, sizeof(path), pmu, "events", NULL) ||
	    name_list__read_dir(&all, path, false) < 0) {
		name_list__free(&all);
		return;
	}
	for (size_t i = 0; i < all.nr; i++)
		if (alias_file_name_ok(all.names[i]) && name_list__add(out, all.names[i]))
			break;
	name_list__free(&all);
}

/* Finds pmu's alias file for name, case-insensitively like perf; its real name into out. */
static bool alias_find(const char *pmu, const char *name, char *out, size_t size)
{
	struct name_list l = { 0 };
	char path[PMU_PATH_MAX];
	struct stat st;
	bool found = false;

	if (!term_name_ok(name))
		return false;
	if (pmu_path(path, sizeof(path), pmu, "events", name) && !stat(path, &st) &&
	    S_ISREG(st.st_mode))
		return str_copy(out, size, name);
	read_aliases(pmu, &l);
	for (size_t i = 0; i < l.nr; i++) {
		if (!strcasecmp(l.names[i], name)) {
			found = str_copy(out, size, l.names[i]);
			break;
		}
	}
	name_list__free(&l);
	return found;
}

/* One format/ file: which bits of which config word a term fills. */
struct pmu_format {
	int word; /* 0: config, 1: config1, 2: config2, 3: config3 */
	uint64_t bits;
};

static int format_error(const char *pmu, const char *term, const char *text, const char *why)
{
	char clean[80];

	str_sanitize(clean, sizeof(clean), text);
	return set_error(PERFEV_ERR_FORMAT,
			 "malformed format file of term '%s' of PMU '%s': '%s' (%s); expected "
			 "something like 'config:0-7,32-35'",
			 term, pmu, clean, why);
}

/* A bit number 0..63, at most two digits. */
static bool parse_bit(const char **p, unsigned int *bit)
{
	const char *s = *p;
	unsigned int v = 0;
	int n = 0;

	while (*s >= '0' && *s <= '9' && n < 3) {
		v = v * 10 + (unsigned int)(*s - '0');
		s++;
		n++;
	}
	if (!n || n > 2 || v > 63 || (*s >= '0' && *s <= '9'))
		return false;
	*p = s;
	*bit = v;
	return true;
}

static int format__parse(const char *pmu, const char *term, char *text, struct pmu_format *f)
{
	static const char *const words[] = { "config", "config1", "config2", "config3" };
	char *colon;
	const char *p;

	trim(text);
	colon = strchr(text, ':');
	if (!colon)
		return format_error(pmu, term, text, "no ':'");
	*colon = '\0';
	f->word = -1;
	for (size_t i = 0; i < ARRAY_SIZE(words); i++)
		if (!strcmp(text, words[i]))
			f->word = (int)i;
	if (f->word < 0) {
		*colon = ':';
		return format_error(pmu, term, text, "not config, config1, config2 or config3");
	}
	*colon = ':';
	f->bits = 0;
	p = colon + 1;
	for (;;) {
		unsigned int lo, hi;

		if (!parse_bit(&p, &lo))
			return format_error(pmu, term, text, "bit numbers are 0 to 63");
		hi = lo;
		if (*p == '-') {
			p++;
			if (!parse_bit(&p, &hi))
				return format_error(pmu, term, text, "bit numbers are 0 to 63");
			if (hi < lo)
				return format_error(pmu, term, text, "a range goes from low to high");
		}
		for (unsigned int b = lo; b <= hi; b++)
			f->bits |= 1ULL << b;
		if (*p == '\0')
			break;
		if (*p != ',')
			return format_error(pmu, term, text, "unexpected character");
		p++;
	}
	return 0;
}

/* Reads format/term of pmu: 1 and *f, 0 when the PMU has no such term, or an error. */
static int format__read(const char *pmu, const char *term, struct pmu_format *f)
{
	char path[PMU_PATH_MAX], text[FORMAT_TEXT_MAX];
	int n;

	if (!pmu_path(path, sizeof(path), pmu, "format", term))
		return 0;
	n = read_small(path, text, sizeof(text));
	if (n == -ENOENT || n == -ENOTDIR)
		return 0;
	if (n == -EFBIG)
		return set_error(PERFEV_ERR_FORMAT,
				 "format file of term '%s' of PMU '%s' is longer than %d bytes", term,
				 pmu, FORMAT_TEXT_MAX - 1);
	if (n < 0)
		return set_error(-n, "cannot read the format of term '%s' of PMU '%s' (%s): %s",
				 term, pmu, path, strerror(-n));
	if (memchr(text, '\0', (size_t)n))
		return format_error(pmu, term, "", "NUL byte");
	n = format__parse(pmu, term, text, f);
	return n < 0 ? n : 1;
}

static __u64 *config_word(struct perf_event_attr *attr, int word)
{
	switch (word) {
	case 0:
		return &attr->config;
	case 1:
		return &attr->config1;
	case 2:
		return &attr->config2;
#ifdef PERF_ATTR_SIZE_VER8
	case 3:
		return &attr->config3;
#endif
	default:
		return NULL;
	}
}

/* Scatters val over the format's bits, lowest value bit into the lowest format bit. */
static int format__write(struct perf_event_attr *attr, const struct pmu_format *f, uint64_t val,
			 const char *pmu, const char *term)
{
	unsigned int width = (unsigned int)__builtin_popcountll(f->bits), vbit = 0;
	__u64 *dst = config_word(attr, f->word);

	if (!dst)
		return set_error(EOPNOTSUPP,
				 "term '%s' of PMU '%s' sets config3, which this build of perfev "
				 "does not know (its <linux/perf_event.h> is too old)",
				 term, pmu);
	if (width < 64 && (val >> width))
		return set_error(ERANGE,
				 "value 0x%llx of term '%s' of PMU '%s' is too big: the field has %u "
				 "bits, so at most 0x%llx",
				 (unsigned long long)val, term, pmu, width,
				 (unsigned long long)((1ULL << width) - 1));
	for (unsigned int b = 0; b < 64; b++) {
		if (!(f->bits & (1ULL << b)))
			continue;
		if ((val >> vbit) & 1)
			*dst |= 1ULL << b;
		else
			*dst &= ~(1ULL << b);
		vbit++;
	}
	return 0;
}

struct pmu_ctx {
	const char *pmu;
	const char *spec;
	uint32_t type;
	struct perf_event_attr *attr;
	char *name_term;
	size_t name_size;
};

enum builtin_term {
	BT_CONFIG,
	BT_CONFIG1,
	BT_CONFIG2,
	BT_CONFIG3,
	BT_NAME,
	BT_PERIOD,
	BT_FREQ,
	BT_TIME,
	BT_UNSUPPORTED,
};

static const struct {
	const char *name;
	enum builtin_term what;
} builtin_terms[] = {
	{ "config", BT_CONFIG },
	{ "config1", BT_CONFIG1 },
	{ "config2", BT_CONFIG2 },
	{ "config3", BT_CONFIG3 },
	{ "name", BT_NAME },
	{ "period", BT_PERIOD },
	{ "freq", BT_FREQ },
	{ "time", BT_TIME },
	/* perf's other terms: recognised so the error says "unsupported", not "unknown". */
	{ "branch_type", BT_UNSUPPORTED },
	{ "call-graph", BT_UNSUPPORTED },
	{ "stack-size", BT_UNSUPPORTED },
	{ "max-stack", BT_UNSUPPORTED },
	{ "nr", BT_UNSUPPORTED },
	{ "inherit", BT_UNSUPPORTED },
	{ "no-inherit", BT_UNSUPPORTED },
	{ "overwrite", BT_UNSUPPORTED },
	{ "no-overwrite", BT_UNSUPPORTED },
	{ "percore", BT_UNSUPPORTED },
	{ "aux-output", BT_UNSUPPORTED },
	{ "aux-sample-size", BT_UNSUPPORTED },
	{ "metric-id", BT_UNSUPPORTED },
	{ "driver-config", BT_UNSUPPORTED },
};

static int apply_builtin(struct pmu_ctx *c, enum builtin_term what, const char *term,
			 const char *val)
{
	struct perf_event_attr *attr = c->attr;
	uint64_t v = 0;

	if (what == BT_UNSUPPORTED)
		return set_error(EOPNOTSUPP, "term '%s' in '%s' is not supported by perfev", term,
				 c->spec);
	if (what == BT_NAME) {
		if (!val || !*val)
			return set_error(PERFEV_ERR_SYNTAX, "term 'name' in '%s' needs a value",
					 c->spec);
		if (!str_copy(c->name_term, c->name_size, val))
			return set_error(PERFEV_ERR_SYNTAX, "name '%s' in '%s' is too long", val,
					 c->spec);
		return 0;
	}
	if (!val)
		return set_error(PERFEV_ERR_SYNTAX, "term '%s' in '%s' needs a value (%s=N)", term,
				 c->spec, term);
	if (!parse_u64(val, strlen(val), &v))
		return set_error(PERFEV_ERR_SYNTAX,
				 "value '%s' of term '%s' in '%s' is not a number (decimal or 0x hex)",
				 val, term, c->spec);
	switch (what) {
	case BT_CONFIG:
	case BT_CONFIG1:
	case BT_CONFIG2:
	case BT_CONFIG3: {
		__u64 *dst = config_word(attr, (int)(what - BT_CONFIG));

		if (!dst)
			return set_error(EOPNOTSUPP,
					 "term 'config3' in '%s' needs a newer <linux/perf_event.h> "
					 "than this build of perfev had",
					 c->spec);
		*dst = v;
		return 0;
	}
	case BT_PERIOD:
		attr->sample_period = v;
		attr->freq = 0;
		return 0;
	case BT_FREQ:
		attr->sample_freq = v;
		attr->freq = 1;
		return 0;
	case BT_TIME:
		if (v)
			attr->sample_type |= PERF_SAMPLE_TIME;
		else
			attr->sample_type &= ~(__u64)PERF_SAMPLE_TIME;
		return 0;
	default:
		return 0;
	}
}

/* The core PMU may be given perf's generic names: "cpu/cycles/", "cpu_core/LLC-loads/". */
static bool apply_generic(struct pmu_ctx *c, const char *term)
{
	const struct symbolic_event *e;
	uint64_t config, ext = 0;

	if (strcmp(c->pmu, "cpu") && strncmp(c->pmu, "cpu_", 4))
		return false;
	/* On hybrid machines the extended type picks the core PMU. */
	if (strcmp(c->pmu, "cpu"))
		ext = (uint64_t)c->type << PERF_PMU_TYPE_SHIFT;
	e = symbolic_event__find(term);
	if (e && e->type == PERF_TYPE_HARDWARE) {
		c->attr->type = PERF_TYPE_HARDWARE;
		c->attr->config = e->config | ext;
		return true;
	}
	if (cache_event__parse(term, &config, NULL, 0)) {
		c->attr->type = PERF_TYPE_HW_CACHE;
		c->attr->config = config | ext;
		return true;
	}
	return false;
}

static int unknown_term(struct pmu_ctx *c, const char *term)
{
	struct name_list formats = { 0 }, aliases = { 0 };
	char path[PMU_PATH_MAX];
	struct suggest s;

	if (pmu_path(path, sizeof(path), c->pmu, "format", NULL))
		name_list__read_dir(&formats, path, false);
	read_aliases(c->pmu, &aliases);
	suggest__init(&s, term);
	for (size_t i = 0; i < formats.nr; i++)
		suggest__add(&s, formats.names[i], NULL);
	for (size_t i = 0; i < aliases.nr; i++)
		suggest__add(&s, aliases.names[i], NULL);
	for (size_t i = 0; i < ARRAY_SIZE(builtin_terms); i++)
		if (builtin_terms[i].what != BT_UNSUPPORTED)
			suggest__add(&s, builtin_terms[i].name, NULL);
	set_error(PERFEV_ERR_UNKNOWN_EVENT, "unknown term or event '%s' in '%s'", term, c->spec);
	suggest__append_then(&s, "the PMU has format terms: ");
	append_names(&formats);
	append_error("; events: ");
	append_names(&aliases);
	append_error("; built-in terms: config, config1, config2, config3, name, period, freq, "
		     "time");
	name_list__free(&formats);
	name_list__free(&aliases);
	return -PERFEV_ERR_UNKNOWN_EVENT;
}

static int apply_term(struct pmu_ctx *c, const char *term, const char *val, const char *alias);

/* Applies an alias file's term list ("event=0x3c,umask=0x01"). */
static int apply_alias(struct pmu_ctx *c, const char *alias)
{
	char path[PMU_PATH_MAX], text[ALIAS_TEXT_MAX], *save = NULL, *tok;
	char clean[80];
	int n;

	if (!pmu_path(path, sizeof(path), c->pmu, "events", alias))
		return set_error(ENAMETOOLONG, "path of event '%s' of PMU '%s' is too long", alias,
				 c->pmu);
	n = read_small(path, text, sizeof(text));
	if (n == -EFBIG)
		return set_error(PERFEV_ERR_FORMAT, "event file %s is longer than %d bytes", path,
				 ALIAS_TEXT_MAX - 1);
	if (n < 0)
		return set_error(-n, "cannot read event '%s' of PMU '%s' (%s): %s", alias, c->pmu,
				 path, strerror(-n));
	if (memchr(text, '\0', (size_t)n))
		return set_error(PERFEV_ERR_FORMAT, "event file %s holds a NUL byte", path);
	trim(text);
	if (!*text)
		return set_error(PERFEV_ERR_FORMAT, "event file %s is empty", path);
	for (tok = strtok_r(text, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(tok, '=');
		int err;

		while (*tok == ' ' || *tok == '\t' || *tok == '\n')
			tok++;
		if (eq) {
			*eq = '\0';
			/* "?" marks a value the user must give; a later term of theirs sets it. */
			if (!strcmp(eq + 1, "?"))
				continue;
		}
		if (!term_name_ok(tok)) {
			str_sanitize(clean, sizeof(clean), tok);
			return set_error(PERFEV_ERR_FORMAT, "event file %s has a malformed term '%s'",
					 path, clean);
		}
		err = apply_term(c, tok, eq ? eq + 1 : NULL, alias);
		if (err)
			return err;
	}
	return 0;
}

/*
 * One term: a built-in, a format term, or (not inside an alias, so aliases
 * cannot recurse) an alias.  alias names the alias being expanded, or NULL.
 */
static int apply_term(struct pmu_ctx *c, const char *term, const char *val, const char *alias)
{
	char real[TERM_NAME_MAX];
	struct pmu_format f;
	uint64_t v = 1;
	int err;

	if (!term_name_ok(term))
		return set_error(PERFEV_ERR_SYNTAX, "malformed term '%s' in '%s'", term, c->spec);
	for (size_t i = 0; i < ARRAY_SIZE(builtin_terms); i++)
		if (!strcmp(term, builtin_terms[i].name))
			return apply_builtin(c, builtin_terms[i].what, term, val);
	err = format__read(c->pmu, term, &f);
	if (err < 0)
		return err;
	if (err > 0) {
		if (val && !parse_u64(val, strlen(val), &v)) {
			char clean[80];

			str_sanitize(clean, sizeof(clean), val);
			if (alias)
				return set_error(PERFEV_ERR_FORMAT,
						 "event '%s' of PMU '%s' gives term '%s' the value "
						 "'%s', which is not a number",
						 alias, c->pmu, term, clean);
			return set_error(PERFEV_ERR_SYNTAX,
					 "value '%s' of term '%s' in '%s' is not a number (decimal "
					 "or 0x hex)",
					 clean, term, c->spec);
		}
		return format__write(c->attr, &f, v, c->pmu, term);
	}
	if (alias)
		return set_error(PERFEV_ERR_FORMAT,
				 "event '%s' of PMU '%s' uses term '%s', which the PMU's format/ "
				 "does not define",
				 alias, c->pmu, term);
	if (alias_find(c->pmu, term, real, sizeof(real))) {
		if (val)
			return set_error(PERFEV_ERR_SYNTAX,
					 "'%s' in '%s' is an event of PMU '%s' and takes no value",
					 term, c->spec, c->pmu);
		return apply_alias(c, real);
	}
	if (!val && apply_generic(c, term))
		return 0;
	return unknown_term(c, term);
}

static int unknown_pmu(const char *pmu, const char *spec)
{
	struct name_list l = { 0 };
	char path[PMU_PATH_MAX];
	struct suggest s;

	if (pmu_path(path, sizeof(path), NULL, NULL, NULL))
		name_list__read_dir(&l, path, true);
	suggest__init(&s, pmu);
	for (size_t i = 0; i < l.nr; i++)
		suggest__add(&s, l.names[i], NULL);
	set_error(PERFEV_ERR_UNKNOWN_PMU, "unknown PMU '%s' in '%s'", pmu, spec);
	suggest__append_then(&s, "PMUs here: ");
	append_names(&l);
	append_error(" (see %s)", path);
	name_list__free(&l);
	return -PERFEV_ERR_UNKNOWN_PMU;
}

static int pmu_type(const char *pmu, uint32_t *type)
{
	char path[PMU_PATH_MAX];
	uint64_t v;
	int err;

	if (!pmu_path(path, sizeof(path), pmu, "type", NULL))
		return set_error(ENAMETOOLONG, "PMU name '%s' is too long", pmu);
	err = read_u64_file(path, &v);
	if (err < 0 || v > UINT32_MAX)
		return set_error(PERFEV_ERR_FORMAT, "cannot read the type of PMU '%s' from %s%s%s",
				 pmu, path, err < 0 && err != -PERFEV_ERR_SYNTAX ? ": " : "",
				 err < 0 && err != -PERFEV_ERR_SYNTAX ? strerror(-err) : "");
	*type = (uint32_t)v;
	return 0;
}

int pmu__parse(const char *pmu, const char *terms, const char *spec, struct perf_event_attr *attr,
	       char *name_term, size_t name_size)
{
	char path[PMU_PATH_MAX], buf[EVENT_SPEC_MAX + 1];
	size_t tlen = strlen(terms);
	struct pmu_ctx c;
	char *save = NULL, *tok;
	int err;

	if (name_size)
		name_term[0] = '\0';
	if (strlen(pmu) >= PMU_NAME_MAX || !str_copy(buf, sizeof(buf), terms))
		return set_error(PERFEV_ERR_SYNTAX, "malformed PMU name in '%s'", spec);
	if (!name_is_path_safe(pmu))
		return set_error(PERFEV_ERR_SYNTAX, "malformed PMU name '%s' in '%s'", pmu, spec);
	if (!pmu_path(path, sizeof(path), pmu, NULL, NULL) || !is_dir(path))
		return unknown_pmu(pmu, spec);

	c = (struct pmu_ctx){ .pmu = pmu, .spec = spec, .attr = attr, .name_term = name_term,
			      .name_size = name_size };
	err = pmu_type(pmu, &c.type);
	if (err)
		return err;
	attr->type = c.type;
	if (!tlen)
		return 0; /* "intel_pt//": the PMU with everything default */
	/* strtok_r would skip empty terms, which are errors. */
	if (terms[0] == ',' || terms[tlen - 1] == ',' || strstr(terms, ",,"))
		return set_error(PERFEV_ERR_SYNTAX, "empty term in '%s'", spec);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(tok, '=');

		if (eq) {
			*eq = '\0';
			if (!eq[1])
				return set_error(PERFEV_ERR_SYNTAX, "term '%s' in '%s' has an empty value",
						 tok, spec);
		}
		err = apply_term(&c, tok, eq ? eq + 1 : NULL, NULL);
		if (err)
			return err;
	}
	return 0;
}

int pmu__find_unique_alias(const char *name, struct perf_event_attr *attr, char *canon,
			   size_t size)
{
	struct name_list pmus = { 0 }, found = { 0 };
	char path[PMU_PATH_MAX], real[TERM_NAME_MAX], text[PMU_NAME_MAX + TERM_NAME_MAX + 4];
	char name_term[8];
	int err = 0;

	if (!term_name_ok(name) || !pmu_path(path, sizeof(path), NULL, NULL, NULL))
		return 0;
	name_list__read_dir(&pmus, path, true);
	for (size_t i = 0; i < pmus.nr; i++) {
		if (!name_is_path_safe(pmus.names[i]) || strlen(pmus.names[i]) >= PMU_NAME_MAX)
			continue;
		if (alias_find(pmus.names[i], name, real, sizeof(real)) &&
		    name_list__add(&found, pmus.names[i])) {
			err = set_error(ENOMEM, "out of memory");
			goto out;
		}
	}
	if (found.nr > 1) {
		err = set_error(PERFEV_ERR_SYNTAX, "event '%s' exists in several PMUs (", name);
		append_names(&found);
		append_error("); name one, as in '%s/%s/'", found.names[0], name);
		goto out;
	}
	if (found.nr == 1) {
		snprintf(text, sizeof(text), "%s/%s/", found.names[0], name);
		/* A name= term makes no sense here: the alias's own terms can't carry one. */
		err = pmu__parse(found.names[0], name, text, attr, name_term, sizeof(name_term));
		if (!err) {
			err = 1;
			snprintf(canon, size, "%s", text);
		}
	}
out:
	name_list__free(&pmus);
	name_list__free(&found);
	return err;
}

int pmu__for_each_alias(pmu_alias_cb cb, void *ctx)
{
	struct name_list pmus = { 0 };
	char path[PMU_PATH_MAX];
	int ret = 0;

	if (!pmu_path(path, sizeof(path), NULL, NULL, NULL))
		return 0;
	name_list__read_dir(&pmus, path, true);
	for (size_t i = 0; i < pmus.nr && !ret; i++) {
		struct name_list aliases = { 0 };

		if (!name_is_path_safe(pmus.names[i]))
			continue;
		read_aliases(pmus.names[i], &aliases);
		for (size_t j = 0; j < aliases.nr && !ret; j++) {
			char desc_name[TERM_NAME_MAX + 8], desc[256];

			desc[0] = '\0';
			snprintf(desc_name, sizeof(desc_name), "%s.desc", aliases.names[j]);
			if (pmu_path(path, sizeof(path), pmus.names[i], "events", desc_name) &&
			    read_small(path, desc, sizeof(desc)) >= 0) {
				trim(desc);
				for (char *d = desc; *d; d++)
					if (!spec_char_ok((unsigned char)*d))
						*d = ' ';
			} else {
				desc[0] = '\0';
			}
			ret = cb(pmus.names[i], aliases.names[j], desc, ctx);
		}
		name_list__free(&aliases);
	}
	name_list__free(&pmus);
	return ret;
}

static int suggest_alias_cb(const char *pmu, const char *alias, const char *desc, void *ctx)
{
	char display[SUGGEST_LEN];

	(void)desc;
	if ((size_t)snprintf(display, sizeof(display), "%s/%s/", pmu, alias) < sizeof(display))
		suggest__add(ctx, alias, display);
	return 0;
}

void pmu__suggest_aliases(struct suggest *s)
{
	pmu__for_each_alias(suggest_alias_cb, s);
}
