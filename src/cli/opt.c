/* SPDX-License-Identifier: MIT */
/*
 * The option parser, --help and the usage errors, all from a command's
 * table.  It parses as getopt_long does (short options bundled, values
 * attached or in the next word, --name=value, unique prefixes of long
 * names, "--" ending the options) and says more when a word is wrong.
 */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "opt.h"
#include "perfev/perfev.h"

#define WIDTH 80 /* the longest help line */

static const struct opt help_opt = { 'h', "help", .help = "show this help" };

static bool same_name(const char *a, const char *b)
{
	return a && b && !strcmp(a, b);
}

static bool clash(const struct opt *a, const struct opt *b)
{
	return a->key == b->key || same_name(a->name, b->name) || same_name(a->name, b->alias) ||
	       same_name(a->alias, b->name) || same_name(a->alias, b->alias);
}

static bool add_item(struct opt_item *items, int *n, const struct opt *o, const struct opt_group *g)
{
	if (*n == OPT_MAX)
		return false;
	for (int i = 0; i < *n; i++)
		if (clash(items[i].o, o))
			return false;
	items[(*n)++] = (struct opt_item){ o, o->help, g };
	return true;
}

int opt_items(const struct opt_cmd *c, struct opt_item items[OPT_MAX])
{
	int n = 0;

	for (const struct opt *o = c->opts; o->key || o->group; o++) {
		if (o->help_for)
			continue;
		if (!o->group) {
			if (!add_item(items, &n, o, NULL))
				return -1;
			continue;
		}
		for (const struct opt *g = o->group->opts; g->key; g++)
			if ((!o->only || (g->key < 256 && strchr(o->only, g->key))) &&
			    !add_item(items, &n, g, o->group))
				return -1;
	}
	if (!add_item(items, &n, &help_opt, NULL))
		return -1;
	/* A command's own line for a group's option: there must be that option. */
	for (const struct opt *o = c->opts; o->key || o->group; o++) {
		int i = 0;

		if (!o->help_for)
			continue;
		while (i < n && items[i].o->key != o->key)
			i++;
		if (i == n || !items[i].group)
			return -1;
		items[i].help = o->help;
	}
	return n;
}

int opt_distance(const char *a, size_t la, const char *b)
{
	size_t lb = strlen(b);
	int d[40][40];

	if (la >= 40 || lb >= 40)
		return 99;
	for (size_t i = 0; i <= la; i++)
		d[i][0] = (int)i;
	for (size_t j = 0; j <= lb; j++)
		d[0][j] = (int)j;
	for (size_t i = 1; i <= la; i++) {
		for (size_t j = 1; j <= lb; j++) {
			int cost = a[i - 1] != b[j - 1], v = d[i - 1][j - 1] + cost;

			if (d[i - 1][j] + 1 < v)
				v = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < v)
				v = d[i][j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
			    d[i - 2][j - 2] + 1 < v)
				v = d[i - 2][j - 2] + 1;
			d[i][j] = v;
		}
	}
	return d[la][lb];
}

static bool prefix_of(const char *name, const char *s, size_t len)
{
	return name && !strncmp(name, s, len);
}

/*
 * The option long name s[0..len) stands for: its exact name, or the only
 * option it starts the name of.  NULL when none; *nr_match counts the
 * options it could be, to tell an ambiguous prefix from an unknown name.
 */
static const struct opt_item *find_long(const struct opt_item *items, int n, const char *s,
					size_t len, int *nr_match)
{
	const struct opt_item *m = NULL;

	*nr_match = 0;
	for (int i = 0; i < n; i++) {
		const struct opt *o = items[i].o;

		if ((o->name && strlen(o->name) == len && prefix_of(o->name, s, len)) ||
		    (o->alias && strlen(o->alias) == len && prefix_of(o->alias, s, len))) {
			*nr_match = 1;
			return &items[i];
		}
		if (prefix_of(o->name, s, len) || prefix_of(o->alias, s, len)) {
			(*nr_match)++;
			m = &items[i];
		}
	}
	return *nr_match == 1 ? m : NULL;
}

static const struct opt_item *find_short(const struct opt_item *items, int n, char c)
{
	for (int i = 0; i < n; i++)
		if (items[i].o->key == c && c != 0)
			return &items[i];
	return NULL;
}

/* Appends to buf the long names within reach of s[0..len): close in spelling, or starting with it. */
static void near_names(const struct opt_item *items, int n, const char *s, size_t len, bool prefixes,
		       char *buf, size_t size)
{
	int best = prefixes ? 0 : (len > 4 ? 2 : 1), found = 0;
	const char *names[OPT_MAX];

	for (int i = 0; i < n; i++) {
		const char *name = items[i].o->name;
		int d;

		if (!name)
			continue;
		d = prefixes ? (prefix_of(name, s, len) || prefix_of(items[i].o->alias, s, len) ? 0 : 99)
			     : opt_distance(s, len, name);
		if (d > best)
			continue;
		if (d < best)
			found = 0;
		best = d;
		names[found++] = name;
	}
	for (int i = 0; i < found; i++) {
		size_t l = strlen(buf);

		snprintf(buf + l, size - l, "%s'--%s'", i == 0 ? "" : i == found - 1 ? " or " : ", ",
			 names[i]);
	}
}

/* The option as an error names it: its short name, else the long name given (its alias maybe). */
static const char *display_name(const struct opt *o, const char *given, size_t len, char *buf,
				size_t size)
{
	if (o->key < 256)
		snprintf(buf, size, "-%c", o->key);
	else if (given && o->alias && prefix_of(o->alias, given, len) && !prefix_of(o->name, given, len))
		snprintf(buf, size, "--%s", o->alias);
	else
		snprintf(buf, size, "--%s", o->name);
	return buf;
}

static bool unknown_long(const struct opt_cmd *c, const struct opt_item *items, int n,
			 const char *word, size_t len, int nr_match)
{
	char near[512] = "";

	if (nr_match > 1) {
		near_names(items, n, word + 2, len, true, near, sizeof(near));
		cli_error("option '%.*s' is ambiguous: %s; see 'perfev %s --help'", (int)len + 2, word,
			  near, c->name);
		return false;
	}
	near_names(items, n, word + 2, len, false, near, sizeof(near));
	if (*near)
		cli_error("unknown option '%s'; did you mean %s?", word, near);
	else
		cli_error("unknown option '%s'; see 'perfev %s --help'", word, c->name);
	return false;
}

static bool unknown_short(const struct opt_cmd *c, const struct opt_item *items, int n,
			  const char *word, const char *at)
{
	int nr_match;
	const struct opt_item *m = at == word + 1 ? find_long(items, n, at, strlen(at), &nr_match) : NULL;

	/* "-json": a long name given one dash */
	if (m && m->o->name && !strcmp(m->o->name, at))
		cli_error("unknown option '-%c'; did you mean '--%s'?", *at, at);
	else
		cli_error("unknown option '-%c'; see 'perfev %s --help'", *at, c->name);
	return false;
}

static bool take(const struct opt_cmd *c, const struct opt_item *m, const char *val,
		 struct cli_args *a, void *ctx, int *status)
{
	if (m->o == &help_opt) {
		opt_help(c, stdout);
		*status = 0;
		return false;
	}
	return m->group ? m->group->set(a, m->o->key, val) : c->set(ctx, m->o->key, val);
}

static bool missing_value(const struct opt_cmd *c, const struct opt *o, const char *given,
			  size_t len)
{
	char name[64];

	cli_error("option %s needs a value; see 'perfev %s --help'",
		  display_name(o, given, len, name, sizeof(name)), c->name);
	return false;
}

/* Whether the word after argv[i] is the value of option o given in argv[i] without one. */
static bool next_is_value(const struct opt *o, int argc, char **argv, int i)
{
	if (i + 1 >= argc)
		return false;
	/* perf's optional values: the next word unless it is an option */
	return !o->defval || argv[i + 1][0] != '-';
}

/* Takes the options bundled in one word ("-ai", "-etask-clock"); i moves past a value in the next. */
static bool parse_short(const struct opt_cmd *c, const struct opt_item *items, int n, int argc,
			char **argv, int *i, struct cli_args *a, void *ctx, int *status)
{
	const char *word = argv[*i];

	for (const char *p = word + 1; *p; p++) {
		const struct opt_item *m = find_short(items, n, *p);
		const char *val = NULL;

		if (!m)
			return unknown_short(c, items, n, word, p);
		if (m->o->arg) {
			if (p[1])
				val = p + 1;
			else if (next_is_value(m->o, argc, argv, *i))
				val = argv[++*i];
			else if (m->o->defval)
				val = m->o->defval;
			else
				return missing_value(c, m->o, NULL, 0);
		}
		if (!take(c, m, val, a, ctx, status))
			return false;
		if (val && val != m->o->defval)
			break;
	}
	return true;
}

static bool parse_long(const struct opt_cmd *c, const struct opt_item *items, int n, int argc,
		       char **argv, int *i, struct cli_args *a, void *ctx, int *status)
{
	const char *word = argv[*i], *eq = strchr(word, '=');
	size_t len = eq ? (size_t)(eq - word - 2) : strlen(word + 2);
	int nr_match;
	const struct opt_item *m = find_long(items, n, word + 2, len, &nr_match);
	const char *val = NULL;

	if (!m)
		return unknown_long(c, items, n, word, len, nr_match);
	if (m->o->arg) {
		if (eq)
			val = eq + 1;
		else if (next_is_value(m->o, argc, argv, *i))
			val = argv[++*i];
		else if (m->o->defval)
			val = m->o->defval;
		else
			return missing_value(c, m->o, word + 2, len);
	} else if (eq) {
		cli_error("option --%s takes no value; see 'perfev %s --help'", m->o->name, c->name);
		return false;
	}
	return take(c, m, val, a, ctx, status);
}

/* Errors come out as JSON from the first one when an option asking for JSON is anywhere. */
static void prescan_json(const struct opt_item *items, int n, int argc, char **argv)
{
	for (int i = 1; i < argc && strcmp(argv[i], "--"); i++) {
		const char *w = argv[i], *eq = strchr(w, '=');
		int nr_match;
		const struct opt_item *m;

		/* "-j" alone, as perf stat's */
		if (w[0] == '-' && w[1] && w[1] != '-' && !w[2]) {
			m = find_short(items, n, w[1]);
			if (m && (m->o->flags & OPT_JSON_ERRORS))
				cli_json_errors = true;
			continue;
		}
		if (strncmp(w, "--", 2) || !w[2])
			continue;
		m = find_long(items, n, w + 2, eq ? (size_t)(eq - w - 2) : strlen(w + 2), &nr_match);
		if (m && (m->o->flags & OPT_JSON_ERRORS))
			cli_json_errors = true;
	}
}

bool opt_parse(const struct opt_cmd *c, int argc, char **argv, struct cli_args *a, void *ctx,
	       int *status)
{
	struct opt_item items[OPT_MAX];
	int n = opt_items(c, items), i;
	bool words_only = false;

	*status = 1;
	if (n < 0) {
		cli_error("internal error: two options of '%s' have the same name", c->name);
		return false;
	}
	a->operands = calloc((size_t)argc + 1, sizeof(*a->operands));
	if (!a->operands) {
		cli_error("out of memory");
		return false;
	}
	prescan_json(items, n, argc, argv);
	for (i = 1; i < argc; i++) {
		const char *w = argv[i];
		bool ok;

		if (words_only || w[0] != '-' || !w[1]) {
			if (c->operands == OPERANDS_COMMAND)
				break; /* the command starts here; its options are its own */
			a->operands[a->nr_operands++] = argv[i];
			continue;
		}
		if (!strcmp(w, "--")) {
			if (c->operands == OPERANDS_COMMAND) {
				i++;
				break;
			}
			words_only = true;
			continue;
		}
		if (w[1] == '-')
			ok = parse_long(c, items, n, argc, argv, &i, a, ctx, status);
		else
			ok = parse_short(c, items, n, argc, argv, &i, a, ctx, status);
		if (!ok)
			return false;
	}
	while (i < argc)
		a->operands[a->nr_operands++] = argv[i++];
	if (c->operands == OPERANDS_NONE && a->nr_operands) {
		cli_error("unexpected argument '%s'; %s", a->operands[0], c->operand_hint);
		return false;
	}
	if (a->verbose)
		perfev_set_print(cli_vprint);
	return true;
}

/* Writes text's words from column col on, wrapping to column indent; "@" is verb. */
static void wrap(FILE *f, const char *text, int col, int indent, const char *verb)
{
	bool first = true;

	while (*text) {
		size_t len = strcspn(text, " ");
		const char *word = text;

		if (len == 1 && *text == '@' && verb) {
			word = verb;
			len = strlen(verb);
		}
		if (!first && col + 1 + (int)len > WIDTH) {
			fprintf(f, "\n%*s", indent, "");
			col = indent;
		} else if (!first) {
			fputc(' ', f);
			col++;
		}
		fprintf(f, "%.*s", (int)len, word);
		col += (int)len;
		first = false;
		text += strcspn(text, " ");
		text += strspn(text, " ");
	}
	fputc('\n', f);
}

/* "-e, --event EVENTS", "    --json", "--comm(s) LIST": an option as --help names it. */
static int option_text(const struct opt *o, char *buf, size_t size)
{
	int len;

	if (o->key < 256)
		len = snprintf(buf, size, "-%c%s", o->key, o->name ? ", " : "");
	else
		len = snprintf(buf, size, "    ");
	if (o->name) {
		size_t l = strlen(o->name);

		len += snprintf(buf + len, size - (size_t)len, "--%s", o->name);
		/* perf's plural spellings read as one name */
		if (o->alias && !strncmp(o->alias, o->name, l) && !strcmp(o->alias + l, "s"))
			len += snprintf(buf + len, size - (size_t)len, "(s)");
		else if (o->alias)
			len += snprintf(buf + len, size - (size_t)len, ", --%s", o->alias);
	}
	if (o->arg)
		len += snprintf(buf + len, size - (size_t)len, o->defval ? " [%s]" : " %s", o->arg);
	return len;
}

/* The synopsis: its bracketed parts, wrapped below the first. */
static void synopsis(FILE *f, const struct opt_cmd *c)
{
	int col = fprintf(f, "usage: perfev %s", c->name), indent = col + 1;
	const char *s = c->synopsis;

	while (*s) {
		int depth = 0;
		size_t len = 0;

		while (s[len] && (depth || s[len] != ' ')) {
			depth += s[len] == '[' ? 1 : s[len] == ']' ? -1 : 0;
			len++;
		}
		if (col + 1 + (int)len > WIDTH && col > indent) {
			fprintf(f, "\n%*s", indent, "");
			col = indent;
		} else {
			fputc(' ', f);
			col++;
		}
		col += fprintf(f, "%.*s", (int)len, s);
		s += len;
		s += strspn(s, " ");
	}
	fputc('\n', f);
}

void opt_help(const struct opt_cmd *c, FILE *f)
{
	struct opt_item items[OPT_MAX];
	int n = opt_items(c, items), width = 0;
	char buf[128];

	synopsis(f, c);
	if (c->about) {
		fputc('\n', f);
		wrap(f, c->about, 0, 0, NULL);
	}
	fputc('\n', f);
	for (int i = 0; i < n; i++) {
		int w = option_text(items[i].o, buf, sizeof(buf));

		if (w > width)
			width = w;
	}
	for (int i = 0; i < n; i++) {
		int w = option_text(items[i].o, buf, sizeof(buf));

		fprintf(f, "    %s%*s", buf, width + 2 - w, "");
		wrap(f, items[i].help, 4 + width + 2, 4 + width + 2, c->verb);
	}
}
