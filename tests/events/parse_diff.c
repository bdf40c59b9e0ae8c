/*
 * The event parser's differential check (parse_diff.sh drives it): built
 * once against each of two libperfev builds, it prints what each makes of
 * the same specs, so a refactoring of the parser can be shown to change
 * nothing.
 *
 *   parse_diff gen SEEDS N  seeds (one escaped spec a line), every name
 *                           perfev_list_events() gives, modifier variants
 *                           and N seeded mutations, one escaped spec a line
 *   parse_diff run [MODE]   for each spec on stdin: perfev_parse_event()'s
 *                           result, attr bytes, name and perfev_last_error(),
 *                           and perfev_evlist__add_events()'s evsels; MODE is
 *                           "real" (this machine's sysfs and tracefs), "fake
 *                           DIR" (a fake PMU tree made in DIR) or "notracefs"
 *
 * Specs are escaped as \\, \n and \xHH for bytes outside printable ASCII.
 */
#include <ftw.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "perfev/perfev.h"

/* The library's test hooks (events_int.h); declared here to need no internal header. */
void pmu__set_sysfs_root(const char *root);
void tracefs__set_root(const char *dir);

#define SPEC_CAP 8192

/* Specs in memory, deduplicated loosely by the caller's care. */
struct specs {
	char **v;
	size_t *len;
	size_t nr, cap;
};

static void specs_add(struct specs *s, const char *p, size_t len)
{
	if (len >= SPEC_CAP)
		len = SPEC_CAP - 1;
	if (s->nr == s->cap) {
		s->cap = s->cap ? s->cap * 2 : 4096;
		s->v = realloc(s->v, s->cap * sizeof(*s->v));
		s->len = realloc(s->len, s->cap * sizeof(*s->len));
		if (!s->v || !s->len)
			exit(2);
	}
	s->v[s->nr] = malloc(len + 1);
	if (!s->v[s->nr])
		exit(2);
	memcpy(s->v[s->nr], p, len);
	s->v[s->nr][len] = '\0';
	s->len[s->nr++] = len;
}

static void specs_free(struct specs *s)
{
	for (size_t i = 0; i < s->nr; i++)
		free(s->v[i]);
	free(s->v);
	free(s->len);
}

static void specs_addz(struct specs *s, const char *p)
{
	specs_add(s, p, strlen(p));
}

static void put_escaped(FILE *f, const char *p, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)p[i];

		if (c == '\\')
			fputs("\\\\", f);
		else if (c >= 0x20 && c < 0x7f)
			fputc(c, f);
		else
			fprintf(f, "\\x%02x", c);
	}
}

/* Undoes put_escaped() in place; returns the length. */
static size_t unescape(char *s)
{
	char *out = s, *in = s;

	while (*in) {
		if (in[0] == '\\' && in[1] == '\\') {
			*out++ = '\\';
			in += 2;
		} else if (in[0] == '\\' && in[1] == 'x' && in[2] && in[3]) {
			char hex[3] = { in[2], in[3], 0 };

			*out++ = (char)strtoul(hex, NULL, 16);
			in += 4;
		} else {
			*out++ = *in++;
		}
	}
	*out = '\0';
	return (size_t)(out - s);
}

static void read_specs(FILE *f, struct specs *s)
{
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;

	while ((n = getline(&line, &cap, f)) >= 0) {
		if (n && line[n - 1] == '\n')
			line[--n] = '\0';
		specs_add(s, line, unescape(line));
	}
	free(line);
}

/* A fixed generator, so both builds see the same mutations. */
static uint64_t rng_state = 0x9e3779b97f4a7c15ULL;

static uint64_t rnd(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

static size_t rnd_below(size_t n)
{
	return n ? (size_t)(rnd() % n) : 0;
}

static const char *const mods[] = {
	"u", "k", "h", "G", "H", "p", "pp", "ppp", "pppp", "S", "D", "I", "e", "W", "P", "uk",
	"ukh", "GH", "Gp", "upp", "SDIe", "z", "uz", "", "u:k", "u/", "u,", "uS", "kS", "Hp",
};

static int list_cb(const struct perfev_event_info *info, void *ctx)
{
	specs_addz(ctx, info->name);
	return 0;
}

/* Every subset of the modifier letters, with 0-4 'p's, on a few events. */
static void add_mod_subsets(struct specs *out)
{
	static const char *const bases[] = {
		"cycles:",	   "cpu-clock:",  "msr/tsc/", "msr/tsc/:",	     "r1a:",
		"mem:0x1000:w:",   "mem:0x1000:", "tsc:",     "syscalls:sys_enter_getppid:",
		"{cpu-clock,faults}:", "fake/event=1/", "L1-dcache-loads:",
	};
	static const char letters[] = "ukhGHSDIe";
	char buf[128];

	for (size_t b = 0; b < sizeof(bases) / sizeof(bases[0]); b++)
		for (unsigned int m = 0; m < 1u << 9; m++)
			for (int p = 0; p < 5; p++) {
				size_t n = (size_t)snprintf(buf, sizeof(buf), "%s", bases[b]);

				for (int i = 0; i < 9; i++)
					if (m & 1u << i)
						buf[n++] = letters[i];
				/* The 'p's in the middle or at the end, by turns. */
				for (int i = 0; i < p; i++)
					buf[n++] = 'p';
				buf[n] = '\0';
				if (m % 7 == 0 || p == 0 || p == 4)
					specs_addz(out, buf);
			}
}

static const char alphabet[] = ":/,{}=-_. upkSGHrm0x19aAzZ?*\\";

/* Inserts len bytes of p at buf[at] when they fit; the new length. */
static size_t insert(char *buf, size_t n, size_t at, const char *p, size_t len)
{
	if (n + len >= SPEC_CAP)
		return n;
	memmove(buf + at + len, buf + at, n - at);
	memmove(buf + at, p, len); /* p may be buf + at itself */
	return n + len;
}

/* One random edit of buf[0..n) at at; the new length. */
static size_t mutate_once(const struct specs *seeds, char *buf, size_t n, size_t at)
{
	size_t j = rnd_below(seeds->nr), m = seeds->len[j], k = rnd_below(n - at + 1);
	const char *mod = mods[rnd_below(sizeof(mods) / sizeof(mods[0]))];
	char c = alphabet[rnd_below(sizeof(alphabet) - 1)], sep = rnd_below(3) ? ':' : '/';
	size_t from = rnd_below(m + 1);

	switch (rnd_below(9)) {
	case 0: /* a syntax character */
	case 1:
		return insert(buf, n, at, &c, 1);
	case 2: /* delete a run */
		memmove(buf + at, buf + at + k, n - at - k);
		return n - k;
	case 3: /* any byte */
		if (at < n)
			buf[at] = (char)rnd_below(256);
		return n;
	case 4: /* part of another seed */
		return insert(buf, n, at, seeds->v[j] + from, rnd_below(m - from + 1));
	case 5: /* a modifier */
		n = insert(buf, n, n, &sep, 1);
		return insert(buf, n, n, mod, strlen(mod));
	case 6: /* into a group with another seed */
		n = insert(buf, n, 0, "{", 1);
		n = insert(buf, n, n, ",", 1);
		n = insert(buf, n, n, seeds->v[j], m);
		return insert(buf, n, n, "}", 1);
	case 7: /* truncate */
		return at;
	default: /* duplicate a chunk */
		return insert(buf, n, at, buf + at, k);
	}
}

static void mutate(const struct specs *seeds, struct specs *out)
{
	char buf[SPEC_CAP];
	size_t i = rnd_below(seeds->nr), n = seeds->len[i], rounds = 1 + rnd_below(4);

	memcpy(buf, seeds->v[i], n);
	while (rounds--)
		n = mutate_once(seeds, buf, n, rnd_below(n + 1));
	specs_add(out, buf, n);
}

static int gen(const char *seed_file, long nr_mutations)
{
	struct specs seeds = { 0 }, out = { 0 };
	struct perfev_list_opts lo = { .sz = sizeof(lo) };
	FILE *f = fopen(seed_file, "r");
	size_t nr_seeds;
	char buf[SPEC_CAP + 64];

	if (!f)
		return perror(seed_file), 2;
	read_specs(f, &seeds);
	fclose(f);
	if (perfev_list_events(&lo, list_cb, &seeds) < 0)
		fprintf(stderr, "list: %s\n", perfev_last_error());
	nr_seeds = seeds.nr;
	for (size_t i = 0; i < nr_seeds; i++) {
		specs_add(&out, seeds.v[i], seeds.len[i]);
		if (seeds.len[i] > 200)
			continue;
		for (size_t m = 0; m < sizeof(mods) / sizeof(mods[0]); m++) {
			snprintf(buf, sizeof(buf), "%s:%s", seeds.v[i], mods[m]);
			specs_addz(&out, buf);
			if (seeds.len[i] && seeds.v[i][seeds.len[i] - 1] == '/') {
				snprintf(buf, sizeof(buf), "%s%s", seeds.v[i], mods[m]);
				specs_addz(&out, buf);
			}
			if (m % 6 == 0) {
				snprintf(buf, sizeof(buf), "{%s,cpu-clock}:%s", seeds.v[i], mods[m]);
				specs_addz(&out, buf);
			}
		}
		snprintf(buf, sizeof(buf), "task-clock,%s", seeds.v[i]);
		specs_addz(&out, buf);
		snprintf(buf, sizeof(buf), "{ %s , page-faults:S }:u", seeds.v[i]);
		specs_addz(&out, buf);
	}
	add_mod_subsets(&out);
	for (long i = 0; i < nr_mutations; i++)
		mutate(&seeds, &out);
	for (size_t i = 0; i < out.nr; i++) {
		put_escaped(stdout, out.v[i], out.len[i]);
		putchar('\n');
	}
	specs_free(&seeds);
	specs_free(&out);
	return 0;
}

/* The non-zero bytes of an attr as OFFSET:HH, so a difference shows the field. */
static void put_attr(const struct perf_event_attr *a)
{
	const unsigned char *b = (const unsigned char *)a;

	for (size_t i = 0; i < sizeof(*a); i++)
		if (b[i])
			printf(" %zu:%02x", i, b[i]);
}

static void put_error(void)
{
	const char *e = perfev_last_error();

	printf("  err ");
	put_escaped(stdout, e, strlen(e));
	putchar('\n');
}

/* A known error text before each call, so a stale one left over is seen as such. */
static void reset_error(void)
{
	perfev_parse_event(NULL, NULL, NULL, 0);
}

static void run_one(const char *spec, size_t len)
{
	struct perf_event_attr attr;
	struct perfev_evlist *el;
	struct perfev_evsel *ev;
	char name[512];
	int ret;

	put_escaped(stdout, spec, len);
	putchar('\n');
	reset_error();
	memset(&attr, 0xa5, sizeof(attr));
	memset(name, 'Z', sizeof(name));
	ret = perfev_parse_event(spec, &attr, name, sizeof(name));
	printf("  one %d name ", ret);
	put_escaped(stdout, name, strnlen(name, sizeof(name)));
	printf(" attr");
	put_attr(&attr);
	putchar('\n');
	put_error();

	reset_error();
	el = perfev_evlist__new();
	if (!el)
		exit(2);
	ret = perfev_evlist__add_events(el, spec);
	printf("  list %d n %d\n", ret, perfev_evlist__nr_evsels(el));
	perfev_evlist__for_each_evsel(el, ev)
	{
		const char *n = perfev_evsel__name(ev);

		printf("   ev %d leader %d members %d sr %d name ", perfev_evsel__idx(ev),
		       perfev_evsel__idx(perfev_evsel__leader(ev)), perfev_evsel__nr_members(ev),
		       perfev_evsel__sample_read(ev));
		put_escaped(stdout, n, strlen(n));
		printf(" attr");
		put_attr(perfev_evsel__attr(ev));
		putchar('\n');
	}
	put_error();
	perfev_evlist__delete(el);
}

/* The fake PMU tree of test_parse_events.c, and a few more broken files. */
static char fake_root[256];

static void put_file(const char *rel, const char *text)
{
	char path[512], *slash;
	FILE *f;

	snprintf(path, sizeof(path), "%s/bus/event_source/devices/%s", fake_root, rel);
	for (slash = strchr(path + 1, '/'); slash; slash = strchr(slash + 1, '/')) {
		*slash = '\0';
		mkdir(path, 0755);
		*slash = '/';
	}
	f = fopen(path, "w");
	if (!f)
		exit(2);
	fputs(text, f);
	fclose(f);
}

static void fake_tree(const char *dir)
{
	static const char *const files[][2] = {
		{ "fake/type", "42\n" },
		{ "fake/format/event", "config:0-7\n" },
		{ "fake/format/umask", "config:8-15\n" },
		{ "fake/format/split", "config1:0-3,8-11\n" },
		{ "fake/format/top", "config:63\n" },
		{ "fake/format/wide", "config2:0-63" },
		{ "fake/format/c3", "config3:0-3\n" },
		{ "fake/events/hits", "event=0x3c,umask=0x01\n" },
		{ "fake/events/hits.scale", "1e-9\n" },
		{ "fake/events/hits.desc", "Cache hits\n" },
		{ "fake/events/askme", "event=0x12,umask=?\n" },
		{ "fake/events/dup", "event=1\n" },
		{ "fake/events/badterm", "nosuch=1\n" },
		{ "fake/events/badval", "event=zz\n" },
		{ "fake/events/empty", "\n" },
		{ "fake/events/u", "event=7\n" },
		{ "fake/events/pp", "event=8\n" },
		{ "broken/type", "43\n" },
		{ "broken/format/backwards", "config:9-3\n" },
		{ "broken/format/toohigh", "config:0-64\n" },
		{ "broken/format/word", "foo:1\n" },
		{ "broken/format/empty", "" },
		{ "broken/format/nobits", "config:\n" },
		{ "broken/format/junk", "config:1-2x\n" },
		{ "broken/format/comma", "config:1,\n" },
		{ "badtype/type", "forty-two\n" },
		{ "bigtype/type", "0x100000000\n" },
		{ "cpu/type", "4\n" },
		{ "cpu/format/event", "config:0-7\n" },
		{ "cpu/events/dup", "event=2\n" },
		{ "cpu_core/type", "8\n" },
		{ "cpu_core/format/event", "config:0-7\n" },
		{ "sched/type", "44\n" },
		{ "sched/events/cycles", "event=9\n" },
	};

	/* A fixed place, so the paths errors quote are the same for both builds. */
	snprintf(fake_root, sizeof(fake_root), "%s", dir);
	if (mkdir(fake_root, 0700))
		exit(2);
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++)
		put_file(files[i][0], files[i][1]);
	pmu__set_sysfs_root(fake_root);
}

static int rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

static int run(const char *mode, const char *dir)
{
	struct specs s = { 0 };

	if (!strcmp(mode, "fake") && dir)
		fake_tree(dir);
	else if (!strcmp(mode, "notracefs"))
		tracefs__set_root("/nonexistent/tracefs");
	else if (strcmp(mode, "real"))
		return fprintf(stderr, "unknown mode '%s'\n", mode), 2;
	read_specs(stdin, &s);
	for (size_t i = 0; i < s.nr; i++)
		run_one(s.v[i], s.len[i]);
	specs_free(&s);
	if (fake_root[0])
		nftw(fake_root, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 4 && !strcmp(argv[1], "gen"))
		return gen(argv[2], strtol(argv[3], NULL, 10));
	if (argc >= 2 && !strcmp(argv[1], "run"))
		return run(argc > 2 ? argv[2] : "real", argc > 3 ? argv[3] : NULL);
	fprintf(stderr, "usage: parse_diff gen SEEDS N | parse_diff run [real|fake DIR|notracefs]\n");
	return 2;
}
