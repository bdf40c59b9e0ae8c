/* SPDX-License-Identifier: MIT */
/* perfev list: the events this machine can count, by kind. */
#include <getopt.h>
#include <string.h>

#include "cli.h"
#include "perfev/perfev.h"

static const char list_usage[] =
	"usage: perfev list [--json] [--all] [KIND...] [FILTER]\n"
	"\n"
	"Lists the events that can be opened here, by kind, with short descriptions.\n"
	"KIND is one of hw, sw, cache, tracepoint, pmu, vendor, breakpoint, raw;\n"
	"FILTER keeps names containing it (or matching it, with * and ?).\n"
	"\n"
	"        --json    one JSON object per event: kind, name, description, pmu\n"
	"        --all     also list hardware events this machine cannot count\n"
	"    -h, --help    show this help\n";

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
	struct json j;
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
		json_init(&c->j, stdout, false);
		json_obj_begin(&c->j, NULL);
		json_str(&c->j, "kind", kind_word(info->kind));
		json_str(&c->j, "name", info->name);
		json_str(&c->j, "description", info->desc ? info->desc : "");
		if (info->pmu)
			json_str(&c->j, "pmu", info->pmu);
		else
			json_null(&c->j, "pmu");
		json_obj_end(&c->j);
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

int cmd_list(int argc, char **argv)
{
	enum { OPT_JSON = 256, OPT_ALL };
	static const struct option longopts[] = {
		{ "json", no_argument, NULL, OPT_JSON },
		{ "all", no_argument, NULL, OPT_ALL },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	struct list_ctx c = { 0 };
	struct perfev_list_opts lo = { .sz = sizeof(lo), .only_openable = true };
	int opt, err;

	opterr = 0;
	optind = 1;
	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--json"))
			cli_json_errors = true;
	while ((opt = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (opt) {
		case OPT_JSON:
			c.json = true;
			break;
		case OPT_ALL:
			lo.only_openable = false;
			break;
		case 'h':
			fputs(list_usage, stdout);
			return 0;
		default:
			cli_error("unknown option '%s'; see 'perfev list --help'", argv[optind - 1]);
			return 1;
		}
	}
	for (int i = optind; i < argc; i++) {
		bool is_kind = false;

		for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
			if (!strcmp(argv[i], kinds[k].word)) {
				lo.kinds |= kinds[k].kind;
				is_kind = true;
			}
		}
		if (is_kind)
			continue;
		if (lo.filter) {
			cli_error("give at most one filter ('%s' and '%s')", lo.filter, argv[i]);
			return 1;
		}
		lo.filter = argv[i];
	}
	err = perfev_list_events(&lo, print_event, &c);
	if (err < 0) {
		cli_error("%s", perfev_last_error());
		return 1;
	}
	if (!c.count && !c.json)
		cli_note("no event matches%s%s", lo.filter ? " " : "", lo.filter ? lo.filter : "");
	return 0;
}
