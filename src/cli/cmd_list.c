/* SPDX-License-Identifier: MIT */
/* perfev list: the events this machine can count, by kind. */
#include <errno.h>
#include <string.h>

#include "cli.h"
#include "opt.h"
#include "perfev/perfev.h"

static const struct {
	const char *word;
	enum perfev_event_kind kind;
	const char *title;
} kinds[] = {
	{ "hw", PERFEV_KIND_HARDWARE, "Hardware events" },
	{ "sw", PERFEV_KIND_SOFTWARE, "Software events" },
	{ "cache", PERFEV_KIND_CACHE, "Hardware cache events" },
	{ "pmu", PERFEV_KIND_PMU, "Kernel PMU events" },
	{ "vendor", PERFEV_KIND_VENDOR, "Vendor events (libpfm4)" },
	{ "tracepoint", PERFEV_KIND_TRACEPOINT, "Tracepoints" },
	{ "breakpoint", PERFEV_KIND_BREAKPOINT, "Hardware breakpoints" },
	{ "raw", PERFEV_KIND_RAW, "Raw PMU events" },
};

struct list_ctx {
	bool json;
	enum perfev_event_kind last;
	int count;
};

/* The command line: what to list, and how. */
struct list_args {
	struct perfev_list_opts lo;
	struct list_ctx c;
};

static const char *kind_word(enum perfev_event_kind k)
{
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (kinds[i].kind == k)
			return kinds[i].word;
	return "?";
}

static const char *kind_title(enum perfev_event_kind k)
{
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (kinds[i].kind == k)
			return kinds[i].title;
	return "Other events";
}

static void put_clean(const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++)
		putchar(*p < 0x20 || *p == 0x7f ? ' ' : *p);
}

static int print_event(const struct perfev_event_info *info, void *arg)
{
	struct list_ctx *c = arg;

	c->count++;
	if (c->json) {
		struct perfev_json *j = perfev_json__new(stdout, 0);

		if (!j)
			return -ENOMEM;
		perfev_json__obj_begin(j, NULL);
		perfev_json__str(j, "kind", kind_word(info->kind));
		perfev_json__str(j, "name", info->name);
		perfev_json__str(j, "description", info->desc ? info->desc : "");
		if (info->pmu)
			perfev_json__str(j, "pmu", info->pmu);
		else
			perfev_json__null(j, "pmu");
		perfev_json__obj_end(j);
		cli_json_done(j, stdout);
		return 0;
	}
	if (info->kind != c->last) {
		printf("%s%s:\n", c->last ? "\n" : "", kind_title(info->kind));
		c->last = info->kind;
	}
	printf("  ");
	put_clean(info->name);
	if (info->desc && *info->desc) {
		int pad = 44 - (int)strlen(info->name);

		printf("%*s ", pad > 0 ? pad : 1, "");
		put_clean(info->desc);
	}
	putchar('\n');
	return 0;
}

enum { OPT_JSON = 256, OPT_ALL };

static const struct opt list_table[] = {
	{ OPT_JSON, "json", .help = "one JSON object per event: kind, name, description, pmu",
	  .flags = OPT_JSON_ERRORS },
	{ OPT_ALL, "all", .help = "also list hardware events this machine cannot count" },
	OPT_END,
};

static bool set_option(void *ctx, int key, const char *arg)
{
	struct list_args *l = ctx;

	(void)arg;
	if (key == OPT_JSON)
		l->c.json = true;
	else
		l->lo.only_openable = false;
	return true;
}

const struct opt_cmd list_cmd = {
	.name = "list",
	.summary = "list the events this machine can count",
	.synopsis = "[--json] [--all] [KIND...] [FILTER]",
	.about = "Lists the events that can be opened here, by kind, with short descriptions. KIND is "
		 "one of hw, sw, cache, tracepoint, pmu, vendor, breakpoint, raw; FILTER keeps names "
		 "containing it (or matching it, with * and ?).",
	.opts = list_table,
	.set = set_option,
	.operands = OPERANDS_WORDS,
	.operand_comp = COMP_WORD,
	.operand_words = "hw,sw,cache,tracepoint,pmu,vendor,breakpoint,raw",
};

int cmd_list(int argc, char **argv)
{
	struct list_args l = { .lo = { .sz = sizeof(l.lo), .only_openable = true } };
	struct cli_args a = { 0 };
	int ret, err;

	if (!opt_parse(&list_cmd, argc, argv, &a, &l, &ret))
		goto out;
	ret = 1;
	for (int i = 0; i < a.nr_operands; i++) {
		const char *w = a.operands[i];
		bool is_kind = false;

		for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
			if (!strcmp(w, kinds[k].word)) {
				l.lo.kinds |= kinds[k].kind;
				is_kind = true;
			}
		}
		if (is_kind)
			continue;
		if (l.lo.filter) {
			cli_error("give at most one filter ('%s' and '%s')", l.lo.filter, w);
			goto out;
		}
		l.lo.filter = w;
	}
	err = perfev_list_events(&l.lo, print_event, &l.c);
	if (err < 0) {
		cli_error("%s", perfev_last_error());
		goto out;
	}
	if (!l.c.count && !l.c.json)
		cli_note("no event matches%s%s", l.lo.filter ? " " : "", l.lo.filter ? l.lo.filter : "");
	ret = 0;
out:
	cli_args__free(&a);
	return ret;
}
