/*
 * Tests of annotate/: the per-address histogram, disassembly checked
 * against objdump on the test workloads (every instruction boundary and
 * jump target), source lines and inline chains (an inlined helper's lines
 * under its own file and counted at its call site), the stripped binary
 * with a separate debug file, a binary rebuilt since the recording, ELF
 * images made here for x86-64, i386 and AArch64, malformed files, and
 * source files (prefix, line ends, missing ones).  The workloads are built
 * by the Makefile into BUILD/tests/annotate/work/.
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "perfev/perfev.h"
#include "symbols/symbols_int.h"
#include "annotate/annotate_int.h"

static char work[1024]; /* BUILD/tests/annotate/work */
static char tmpdir[256];

/* ---- helpers ---- */

static char *run(const char *fmt, ...)
{
	char cmd[8192], *out = NULL;
	size_t len = 0, cap = 0;
	va_list ap;
	FILE *f;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	f = popen(cmd, "r");
	assert_non_null(f);
	for (;;) {
		size_t n;

		if (cap - len < 4096) {
			cap = cap ? cap * 2 : 65536;
			out = realloc(out, cap);
			assert_non_null(out);
		}
		n = fread(out + len, 1, cap - len - 1, f);
		if (!n)
			break;
		len += n;
	}
	out[len] = 0;
	pclose(f);
	return out;
}

static void work_path(char *buf, size_t size, const char *name)
{
	snprintf(buf, size, "%s/%s", work, name);
}

static const struct perfev_symbol *symbol(struct perfev_dso *d, const char *path, const char *name)
{
	char *out = run("nm '%s' | awk '$3 == \"%s\" { print $1 }'", path, name);
	uint64_t addr = strtoull(out, NULL, 16);
	const struct perfev_symbol *s;

	free(out);
	assert_true(addr != 0);
	s = perfev_dso__find_symbol(d, addr);
	assert_non_null(s);
	assert_int_equal(s->start, addr);
	return s;
}

/* An annotation of sym with one sample of period 10 at every instruction's start. */
static struct perfev_annotation *annotate_evenly(struct perfev_annotate_hist *h, struct perfev_dso *d,
						 const struct perfev_symbol *s)
{
	struct perfev_annotation *a = perfev_annotation__new(h, 0, d, s->start, s->start + s->size, NULL);

	assert_non_null(a);
	for (size_t i = 0; i < perfev_annotation__nr_insns(a); i++)
		assert_int_equal(perfev_annotate_hist__add_addr(h, 0, d, s,
								perfev_annotation__insn(a, i)->addr, 10), 0);
	perfev_annotation__delete(a);
	a = perfev_annotation__new(h, 0, d, s->start, s->start + s->size, NULL);
	assert_non_null(a);
	return a;
}

/* ---- the histogram ---- */

static void test_hist(void **state)
{
	struct perfev_annotate_hist *h = perfev_annotate_hist__new();
	struct perfev_symbolizer *sy = perfev_symbolizer__new(NULL);
	struct perfev_dso *d1 = perfev_symbolizer__dso(sy, "/nonexistent/a", NULL, 0);
	struct perfev_dso *d2 = perfev_symbolizer__dso(sy, "/nonexistent/b", NULL, 0);
	struct perfev_symbol f = { .start = 0x1000, .size = 0x100, .name = "f", .raw_name = "f" };
	struct perfev_symbol g = { .start = 0x2000, .size = 0x100, .name = "g", .raw_name = "g" };
	const struct perfev_annotate_sym *e;
	uint64_t n, p;
	(void)state;

	assert_non_null(h);
	for (int i = 0; i < 3; i++)
		assert_int_equal(perfev_annotate_hist__add_addr(h, 0, d1, &f, 0x1010, 100), 0);
	assert_int_equal(perfev_annotate_hist__add_addr(h, 0, d1, &g, 0x2000, 500), 0);
	assert_int_equal(perfev_annotate_hist__add_addr(h, 1, d2, &f, 0x1020, 7), 0);
	assert_int_equal(perfev_annotate_hist__add_addr(h, 0, d1, NULL, 0x9000, 1), 0);
	assert_int_equal(perfev_annotate_hist__add_addr(h, 0, NULL, NULL, 0, 2), 0);
	assert_int_equal(perfev_annotate_hist__add_addr(h, -1, d1, &f, 0x1010, 1), -EINVAL);

	/* Hottest first: g (500), f (300), f of event 1 (7), d1's unresolved (1). */
	assert_int_equal(perfev_annotate_hist__nr_syms(h), 4);
	e = perfev_annotate_hist__sym(h, 0);
	assert_ptr_equal(e->sym, &g);
	assert_int_equal(e->period, 500);
	e = perfev_annotate_hist__sym(h, 1);
	assert_ptr_equal(e->sym, &f);
	assert_int_equal(e->nr_samples, 3);
	assert_int_equal(e->period, 300);
	assert_int_equal(e->evsel, 0);
	e = perfev_annotate_hist__sym(h, 2);
	assert_int_equal(e->evsel, 1);
	assert_ptr_equal(e->dso, d2);
	e = perfev_annotate_hist__sym(h, 3);
	assert_null(e->sym);
	assert_ptr_equal(e->dso, d1);
	assert_null(perfev_annotate_hist__sym(h, 4));

	/* Every sample counts for its event's total, those in no file too. */
	assert_int_equal(perfev_annotate_hist__total(h, 0, &n, &p), 0);
	assert_int_equal(n, 6);
	assert_int_equal(p, 803);
	assert_int_equal(perfev_annotate_hist__total(h, 1, &n, &p), 0);
	assert_int_equal(p, 7);
	assert_int_equal(perfev_annotate_hist__total(h, 2, &n, &p), -ENOENT);
	perfev_annotate_hist__delete(h);
	perfev_symbolizer__delete(sy);
}

struct seen {
	uint64_t addr[8], n[8], period[8];
	size_t nr;
};

/* Each address once, its counts added up (an address may come more than once). */
static void collect(void *ctx, uint64_t addr, uint64_t n, uint64_t period)
{
	struct seen *s = ctx;
	size_t i = 0;

	while (i < s->nr && s->addr[i] != addr)
		i++;
	assert_true(i < 8);
	if (i == s->nr)
		s->nr++;
	s->addr[i] = addr;
	s->n[i] += n;
	s->period[i] += period;
}

/* Samples through the session's frame numbers, and more than are kept before merging. */
static void test_hist_frames_and_merging(void **state)
{
	struct perfev_annotate_hist *h = perfev_annotate_hist__new();
	struct perfev_symbolizer *sy = perfev_symbolizer__new(NULL);
	struct perfev_dso *d = perfev_symbolizer__dso(sy, "/nonexistent/a", NULL, 0);
	struct perfev_symbol f = { .start = 0x1000, .size = 0x100, .name = "f", .raw_name = "f" };
	struct perfev_symbol g = { .start = 0x2000, .size = 0x100, .name = "g", .raw_name = "g" };
	struct perfev_frame fr[2] = {
		{ .id = 7, .dso = d, .sym = &f, .addr = 0x1010 },
		{ .id = 3, .dso = d, .sym = &g, .addr = 0x2020 },
	};
	struct perfev_session_sample ss = { .period = 2, .nr_frames = 1 };
	struct seen seen = { 0 };
	const size_t many = ((size_t)1 << 22) + 1000; /* past the bound at which records merge */
	(void)state;

	for (size_t i = 0; i < many; i++) {
		ss.frames = &fr[i % 2];
		ss.evsel = (int)(i % 4 == 1); /* g's samples alternate between two events */
		fr[0].addr = 0x1010 + (i % 3) * 4;
		assert_int_equal(perfev_annotate_hist__add(h, &ss), 0);
	}
	/* f: event 0, three addresses; g: half its samples each event. */
	assert_int_equal(perfev_annotate_hist__nr_syms(h), 3);
	assert_ptr_equal(perfev_annotate_hist__sym(h, 0)->sym, &f);
	assert_int_equal(perfev_annotate_hist__sym(h, 0)->nr_samples, many / 2);
	assert_int_equal(hist__for_each_addr(h, 0, d, 0x1000, 0x1100, collect, &seen), 0);
	assert_int_equal(seen.nr, 3);
	for (size_t k = 0; k < 3; k++) {
		size_t want = 0;

		for (size_t i = 0; i < many; i += 2)
			want += 0x1010 + (i % 3) * 4 == seen.addr[k];
		assert_int_equal(seen.n[k], want);
		assert_int_equal(seen.period[k], 2 * want);
	}
	memset(&seen, 0, sizeof(seen));
	assert_int_equal(hist__for_each_addr(h, 1, d, 0x2000, 0x2100, collect, &seen), 0);
	assert_int_equal(seen.nr, 1);
	assert_int_equal(seen.addr[0], 0x2020);
	assert_int_equal(seen.n[0], many / 4);
	/* A range inside one function, and one that holds nothing. */
	memset(&seen, 0, sizeof(seen));
	hist__for_each_addr(h, 0, d, 0x1014, 0x1015, collect, &seen);
	assert_int_equal(seen.nr, 1);
	memset(&seen, 0, sizeof(seen));
	hist__for_each_addr(h, 0, d, 0x3000, 0x4000, collect, &seen);
	assert_int_equal(seen.nr, 0);
	/* Added after merging: counted too. */
	ss.frames = &fr[1];
	ss.evsel = 1;
	perfev_annotate_hist__add(h, &ss);
	memset(&seen, 0, sizeof(seen));
	hist__for_each_addr(h, 1, d, 0x2000, 0x2100, collect, &seen);
	assert_int_equal(seen.n[0], many / 4 + 1);
	perfev_annotate_hist__delete(h);
	perfev_symbolizer__delete(sy);
}

/* Counted samples weigh their function and the event's total, and leave no address. */
static void test_hist_count(void **state)
{
	struct perfev_annotate_hist *h = perfev_annotate_hist__new();
	struct perfev_symbolizer *sy = perfev_symbolizer__new(NULL);
	struct perfev_dso *d = perfev_symbolizer__dso(sy, "/nonexistent/b", NULL, 0);
	struct perfev_symbol f = { .start = 0x1000, .size = 0x100, .name = "f", .raw_name = "f" };
	struct perfev_frame fr[3] = {
		{ .id = 1, .dso = d, .sym = &f, .addr = 0x1010 },
		{ .id = 2, .dso = d, .sym = NULL, .addr = 0x5000 }, /* in no function */
		{ .id = 0, .dso = NULL, .addr = 0x9000 },	  /* in no file */
	};
	struct perfev_session_sample ss = { .period = 5, .nr_frames = 1 };
	struct seen seen = { 0 };
	uint64_t n = 0, period = 0;
	(void)state;

	ss.frames = &fr[0];
	assert_int_equal(perfev_annotate_hist__add(h, &ss), 0);
	for (int i = 0; i < 3; i++) {
		ss.frames = &fr[i];
		assert_int_equal(perfev_annotate_hist__count(h, &ss), 0);
	}
	ss.frames = &fr[1];
	assert_int_equal(perfev_annotate_hist__count(h, &ss), 0);
	assert_int_equal(perfev_annotate_hist__total(h, 0, &n, &period), 0);
	assert_int_equal(n, 5);
	assert_int_equal(period, 25);
	/* f: one sample added, one counted; the file's unresolved entry: two counted. */
	assert_int_equal(perfev_annotate_hist__nr_syms(h), 2);
	assert_ptr_equal(perfev_annotate_hist__sym(h, 0)->sym, &f);
	assert_int_equal(perfev_annotate_hist__sym(h, 0)->nr_samples, 2);
	assert_null(perfev_annotate_hist__sym(h, 1)->sym);
	assert_int_equal(perfev_annotate_hist__sym(h, 1)->period, 10);
	/* Only the added sample has an address. */
	assert_int_equal(hist__for_each_addr(h, 0, d, 0, UINT64_MAX, collect, &seen), 0);
	assert_int_equal(seen.nr, 1);
	assert_int_equal(seen.addr[0], 0x1010);
	assert_int_equal(seen.n[0], 1);
	assert_int_equal(perfev_annotate_hist__count(NULL, &ss), -EINVAL);
	assert_int_equal(perfev_annotate_hist__count(h, NULL), -EINVAL);
	perfev_annotate_hist__delete(h);
	perfev_symbolizer__delete(sy);
}

/* ---- real code against objdump ---- */

struct objdump_insn {
	uint64_t addr, target;
};

/* Instruction starts (and direct jump/call targets) objdump decodes in [start, end). */
static size_t objdump(const char *path, uint64_t start, uint64_t end, struct objdump_insn *out,
		      size_t max)
{
	char *text = run("objdump -d --no-show-raw-insn --start-address=%#llx --stop-address=%#llx '%s'",
			 (unsigned long long)start, (unsigned long long)end, path);
	char *save = NULL;
	size_t n = 0;

	for (char *l = strtok_r(text, "\n", &save); l && n < max; l = strtok_r(NULL, "\n", &save)) {
		char *colon = strchr(l, ':'), *end_num;
		uint64_t a = strtoull(l, &end_num, 16);

		if (!colon || end_num != colon || l[0] != ' ')
			continue;
		out[n].addr = a;
		out[n].target = 0;
		if (strstr(colon, "\tj") || strstr(colon, "\tcall")) {
			char *sp = strrchr(colon, '\t');
			char *t = sp ? strchr(sp, ' ') : NULL;

			if (t && strchr(t, '<'))
				out[n].target = strtoull(t, NULL, 16);
		}
		n++;
	}
	free(text);
	return n;
}

static void check_against_objdump(const char *name, const char *fn)
{
	char path[PATH_MAX];
	struct perfev_symbolizer *sy = perfev_symbolizer__new(NULL);
	struct perfev_annotate_hist *h = perfev_annotate_hist__new();
	struct objdump_insn od[4096];
	const struct perfev_symbol *s;
	struct perfev_annotation *a;
	struct perfev_dso *d;
	size_t n, jumps = 0;

	work_path(path, sizeof(path), name);
	d = perfev_symbolizer__dso(sy, path, NULL, 0);
	s = symbol(d, path, fn);
	a = perfev_annotation__new(h, 0, d, s->start, s->start + s->size, NULL);
	assert_non_null(a);
	assert_string_equal(perfev_annotation__info(a)->arch, "x86-64");
	assert_string_equal(perfev_annotation__info(a)->name, s->name);
	assert_int_equal(perfev_annotation__info(a)->end, s->start + s->size);
	n = objdump(path, s->start, s->start + s->size, od, 4096);
	assert_true(n > 10);
	assert_int_equal(perfev_annotation__nr_insns(a), n);
	for (size_t i = 0; i < n; i++) {
		const struct perfev_annotate_insn *in = perfev_annotation__insn(a, i);

		assert_int_equal(in->addr, od[i].addr);
		assert_true(in->size >= 1);
		assert_memory_equal(in->bytes, (const uint8_t *)perfev_annotation__insn(a, 0)->bytes +
				    (in->addr - s->start), in->size);
		if (od[i].target) {
			jumps++;
			assert_true(in->has_target);
			assert_int_equal(in->target, od[i].target);
			/* Targets inside the function are named by it and an offset. */
			if (od[i].target >= s->start && od[i].target < s->start + s->size) {
				char want[256];

				assert_string_equal(in->target_sym, s->name);
				assert_int_equal(in->target_off, od[i].target - s->start);
				snprintf(want, sizeof(want), "%llx <%s+0x%llx>",
					 (unsigned long long)od[i].target, s->name,
					 (unsigned long long)(od[i].target - s->start));
				if (od[i].target != s->start)
					assert_string_equal(in->operands, want);
			}
		}
		assert_int_equal(perfev_annotation__insn_at(a, in->addr), (int64_t)i);
		assert_int_equal(perfev_annotation__insn_at(a, in->addr + in->size - 1), (int64_t)i);
	}
	assert_true(jumps > 0);
	assert_int_equal(perfev_annotation__insn_at(a, s->start - 1), -1);
	assert_int_equal(perfev_annotation__insn_at(a, s->start + s->size), -1);
	perfev_annotation__delete(a);
	perfev_annotate_hist__delete(h);
	perfev_symbolizer__delete(sy);
}

static void test_disasm_c(void **state)
{
	(void)state;
	check_against_objdump("hotloop", "hot_loop");
	check_against_objdump("hotloop", "main");
}

static void test_disasm_cxx(void **state)
{
	(void)state;
	check_against_objdump("inl", "_Z3hotRKSt6vectorImSaImEEi");
}

static void test_samples_and_percent(void **state)
{
	char path[PATH_MAX];
	struct perfev_symbolizer *sy = perfev_symbolizer__new(NULL);
	struct perfev_annotate_hist *h = perfev_annotate_hist__new();
	const struct perfev_symbol *s;
	const struct perfev_annotate_insn *i0, *i1;
	struct perfev_annotation *a;
	struct perfev_dso *d;
	(void)state;

	work_path(path, sizeof(path), "hotloop");
	d = perfev_symbolizer__dso(sy, path, NULL, 0);
	s = symbol(d, path, "hot_loop");
	a = perfev_annotation__new(h, 0, d, s->start, s->start + s->size, NULL);
	assert_non_null(a);
	i0 = perfev_annotation__insn(a, 0);
	i1 = perfev_annotation__insn(a, 1);
	/* Three samples (period 10, 10, 20) in the first instruction, one mid-way into the second. */
	perfev_annotate_hist__add_addr(h, 0, d, s, i0->addr, 10);
	perfev_annotate_hist__add_addr(h, 0, d, s, i0->addr, 10);
	perfev_annotate_hist__add_addr(h, 0, d, s, i0->addr, 20);
	perfev_annotate_hist__add_addr(h, 0, d, s, i1->addr + i1->size - 1, 60);
	/* Elsewhere: another event, and the same event outside the function (global base). */
	perfev_annotate_hist__add_addr(h, 1, d, s, i0->addr, 1000);
	perfev_annotate_hist__add_addr(h, 0, d, NULL, 0x1, 100);
	perfev_annotation__delete(a);

	a = perfev_annotation__new(h, 0, d, s->start, s->start + s->size, NULL);
	assert_non_null(a);
	i0 = perfev_annotation__insn(a, 0);
	i1 = perfev_annotation__insn(a, 1);
	assert_int_equal(i0->nr_samples, 3);
	assert_int_equal(i0->period, 40);
	assert_int_equal(i1->nr_samples, 1);
	assert_int_equal(i1->period, 60);
	assert_int_equal(perfev_annotation__info(a)->nr_samples, 4);
	assert_int_equal(perfev_annotation__info(a)->period, 100);
	assert_int_equal(perfev_annotation__info(a)->total_period, 200);
	assert_int_equal(perfev_annotation__info(a)->total_samples, 5);
	assert_float_equal(perfev_annotation__percent(a, i0->nr_samples, i0->period,
						      PERFEV_PERCENT_LOCAL_PERIOD), 40.0, 1e-9);
	assert_float_equal(perfev_annotation__percent(a, i0->nr_samples, i0->period,
						      PERFEV_PERCENT_GLOBAL_PERIOD), 20.0, 1e-9);
	assert_float_equal(perfev_annotation__percent(a, i0->nr_samples, i0->period,
						      PERFEV_PERCENT_LOCAL_HITS), 75.0, 1e-9);
	assert_float_equal(perfev_annotation__percent(a, i0->nr_samples, i0->period,
						      PERFEV_PERCENT_GLOBAL_HITS), 60.0, 1e-9);
	perfev_annotation__delete(a);

	/* Event 1 sees its own samples only. */
	a = perfev_annotation__new(h, 1, d, s->start, s->start + s->size, NULL);
	assert_int_equal(perfev_annotation__insn(a, 0)->period, 1000);
	assert_int_equal(perfev_annotation__info(a)->nr_samples, 1);
	perfev_annotation__delete(a);
	perfev_annotate_hist__delete(h);
	perfev_symbolizer__delete(sy);
}

/* ---- source lines and inlined code ---- */

static void test_lines_inlined(void **state)
{
	char path[PATH_MAX];
	struct perfev_symbolizer *sy = perfev_symbolizer__new(NULL);
	struct perfev_annotate_hist *h = perfev_annotate_hist__new();
	const struct perfev_annotate_line *site = NULL;
	uint64_t mix_self = 0, all_self = 0;
	const struct perfev_symbol *s;
	struct perfev_annotation *a;
	struct perfev_dso *d;
	size_t nl, mix_lines = 0;
	uint32_t call_line;
	char *out;
	(void)state;

	work_path(path, sizeof(path), "inl");
	d = perfev_symbolizer__dso(sy, path, NULL, 0);
	s = symbol(d, path, "_Z3hotRKSt6vectorImSaImEEi");
	a = annotate_evenly(h, d, s);
	assert_true(perfev_annotation__info(a)->has_lines);
	assert_non_null(strstr(perfev_annotation__info(a)->file, "/tests/annotate/work/inl.cc"));
	out = run("grep -n 'calls the hot helper' '%s' | cut -d: -f1", perfev_annotation__info(a)->file);
	call_line = (uint32_t)atoi(out);
	free(out);
	assert_true(call_line > 0);
	nl = perfev_annotation__nr_lines(a);
	assert_true(nl > 3);
	/* The function's own file first. */
	assert_string_equal(perfev_annotation__line(a, 0)->where.file, perfev_annotation__info(a)->file);
	for (size_t i = 0; i < nl; i++) {
		const struct perfev_annotate_line *l = perfev_annotation__line(a, i);

		all_self += l->self_period;
		assert_true(l->total_period >= l->self_period);
		if (strstr(l->where.file, "/mix.h")) {
			mix_lines++;
			mix_self += l->self_period;
			assert_true(l->inlined);
			assert_string_equal(l->function, "mix");
		}
		if (!strcmp(l->where.file, perfev_annotation__info(a)->file) && l->where.line == call_line)
			site = l;
		if (i)
			assert_true(strcmp(l->where.file, perfev_annotation__line(a, i - 1)->where.file) ||
				    l->where.line > perfev_annotation__line(a, i - 1)->where.line);
		/* The instructions under a line are those whose innermost line it is. */
		for (uint32_t k = 0; k < l->nr_insns; k++) {
			const struct perfev_annotate_insn *in = perfev_annotation__insn(a, l->insns[k]);

			assert_int_equal(in->line_index, i);
			assert_int_equal(in->line.line, l->where.line);
			assert_string_equal(in->line.file, l->where.file);
		}
	}
	/* Every instruction with a line is under it, so the lines' self periods add up to the function's. */
	assert_int_equal(all_self, perfev_annotation__info(a)->period);
	assert_true(mix_lines >= 3);
	assert_true(mix_self > 0);
	assert_non_null(site);
	assert_false(site->inlined);
	assert_true(site->total_period >= mix_self);
	assert_true(site->total_period > site->self_period);

	/* Each instruction of mix() knows it is inlined into hot() at that line. */
	for (size_t i = 0; i < perfev_annotation__nr_insns(a); i++) {
		const struct perfev_annotate_insn *in = perfev_annotation__insn(a, i);

		if (!in->line.file || !strstr(in->line.file, "/mix.h"))
			continue;
		assert_true(in->nr_inlines >= 2);
		assert_string_equal(in->inlines[0].name, "mix");
		assert_string_equal(in->inlines[in->nr_inlines - 1].name, "hot");
		assert_int_equal(in->inlines[1].where.line, call_line);
	}
	perfev_annotation__delete(a);

	/* no_lines: instructions only. */
	struct perfev_annotate_opts o = { .sz = sizeof(o), .no_lines = true };

	a = perfev_annotation__new(h, 0, d, s->start, s->start + s->size, &o);
	assert_non_null(a);
	assert_false(perfev_annotation__info(a)->has_lines);
	assert_int_equal(perfev_annotation__nr_lines(a), 0);
	assert_null(perfev_annotation__insn(a, 0)->line.file);
	perfev_annotation__delete(a);
	perfev_annotate_hist__delete(h);
	perfev_symbolizer__delete(sy);
}

static void test_stripped_debug_file(void **state)
{
	char path[PATH_MAX], full[PATH_MAX];
	struct perfev_symbolizer *sy = perfev_symbolizer__new(NULL);
	struct perfev_annotate_hist *h = perfev_annotate_hist__new();
	const struct perfev_symbol *s;
	struct perfev_annotation *a, *b;
	struct perfev_dso *d, *df;
	char *nm;
	uint64_t addr;
	(void)state;

	work_path(path, sizeof(path), "hotloop-stripped");
	work_path(full, sizeof(full), ".debug/hotloop-stripped.debug");
	d = perfev_symbolizer__dso(sy, path, NULL, 0);
	nm = run("nm '%s' | awk '$3 == \"hot_loop\" { print $1 }'", full);
	addr = strtoull(nm, NULL, 16);
	free(nm);
	s = perfev_dso__find_symbol(d, addr);
	assert_non_null(s);
	assert_string_equal(perfev_dso__symbol_file(d), full);
	a = annotate_evenly(h, d, s);
	/* The code from the stripped file, the lines from the debug file. */
	assert_true(perfev_annotation__nr_insns(a) > 10);
	assert_true(perfev_annotation__info(a)->has_lines);
	assert_non_null(strstr(perfev_annotation__info(a)->file, "hotloop.c"));
	/* The same instructions as the debug file names for the unstripped build's bytes. */
	df = perfev_symbolizer__dso(sy, full, NULL, 0);
	b = perfev_annotation__new(h, 0, df, s->start, s->start + s->size, NULL);
	assert_null(b); /* a debug file's code sections have no bytes */
	assert_int_equal(errno, ENOENT);
	perfev_annotation__delete(a);
	perfev_annotate_hist__delete(h);
	perfev_symbolizer__delete(sy);
}

static void test_rebuilt(void **state)
{
	char path[PATH_MAX], rebuilt[PATH_MAX];
	struct perfev_symbolizer_opts o = { .sz = sizeof(o), .buildid_dir = "", .debug_dir = "/nonexistent" };
	struct perfev_symbolizer *sy = perfev_symbolizer__new(&o);
	struct perfev_annotate_hist *h = perfev_annotate_hist__new();
	uint8_t id[PERFEV_BUILD_ID_MAX];
	struct perfev_dso *d;
	int n;
	(void)state;

	work_path(path, sizeof(path), "hotloop");
	work_path(rebuilt, sizeof(rebuilt), "hotloop-rebuilt");
	n = perfev_build_id__read(path, id, sizeof(id));
	assert_true(n > 0);
	/* The recording saw hotloop's id; at its path now is another build. */
	d = perfev_symbolizer__dso(sy, rebuilt, id, (size_t)n);
	assert_null(perfev_annotation__new(h, 0, d, 0x1000, 0x1100, NULL));
	assert_int_equal(errno, ENOENT);
	assert_non_null(strstr(perfev_last_error(), "rebuilt"));
	perfev_annotate_hist__delete(h);
	perfev_symbolizer__delete(sy);
}

/* ---- ELF images made here ---- */

struct def_sym {
	const char *name;
	uint64_t value, size;
};

/* Writes an ELF file of class cls for machine with code at addr and function symbols. */
static void write_elf(const char *path, unsigned machine, int cls, const uint8_t *code, size_t len,
		      uint64_t addr, const struct def_sym *syms, size_t nsyms)
{
	char shstr[] = "\0.text\0.symtab\0.strtab\0.shstrtab";
	char strtab[512] = { 0 };
	size_t strlen_ = 1, symsz;
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
	Elf *e;
	Elf_Scn *text, *symtab, *str, *shs;
	Elf_Data *dt;
	GElf_Ehdr eh;
	GElf_Shdr sh;
	void *symbuf;

	assert_true(fd >= 0);
	elf_version(EV_CURRENT);
	e = elf_begin(fd, ELF_C_WRITE, NULL);
	assert_non_null(e);
	assert_non_null(gelf_newehdr(e, cls));
	gelf_getehdr(e, &eh);
	eh.e_ident[EI_DATA] = ELFDATA2LSB;
	eh.e_type = ET_EXEC;
	eh.e_machine = (Elf64_Half)machine;
	eh.e_version = EV_CURRENT;

	text = elf_newscn(e);
	dt = elf_newdata(text);
	dt->d_buf = (void *)code;
	dt->d_size = len;
	dt->d_type = ELF_T_BYTE;
	dt->d_align = 16;
	gelf_getshdr(text, &sh);
	sh.sh_name = 1;
	sh.sh_type = SHT_PROGBITS;
	sh.sh_flags = SHF_ALLOC | SHF_EXECINSTR;
	sh.sh_addr = addr;
	gelf_update_shdr(text, &sh);

	symtab = elf_newscn(e);
	str = elf_newscn(e);
	symsz = gelf_fsize(e, ELF_T_SYM, 1, EV_CURRENT);
	symbuf = calloc(nsyms + 1, symsz);
	dt = elf_newdata(symtab);
	dt->d_buf = symbuf;
	dt->d_size = (nsyms + 1) * symsz;
	dt->d_type = ELF_T_SYM;
	for (size_t i = 0; i < nsyms; i++) {
		GElf_Sym s = { .st_name = (Elf64_Word)strlen_, .st_value = syms[i].value,
			       .st_size = syms[i].size, .st_info = GELF_ST_INFO(STB_GLOBAL, STT_FUNC),
			       .st_shndx = (Elf64_Section)elf_ndxscn(text) };

		strcpy(strtab + strlen_, syms[i].name);
		strlen_ += strlen(syms[i].name) + 1;
		gelf_update_sym(dt, (int)i + 1, &s);
	}
	gelf_getshdr(symtab, &sh);
	sh.sh_name = 7;
	sh.sh_type = SHT_SYMTAB;
	sh.sh_link = (Elf64_Word)elf_ndxscn(str);
	sh.sh_info = 1;
	sh.sh_entsize = symsz;
	gelf_update_shdr(symtab, &sh);

	dt = elf_newdata(str);
	dt->d_buf = strtab;
	dt->d_size = strlen_;
	dt->d_type = ELF_T_BYTE;
	gelf_getshdr(str, &sh);
	sh.sh_name = 15;
	sh.sh_type = SHT_STRTAB;
	gelf_update_shdr(str, &sh);

	shs = elf_newscn(e);
	dt = elf_newdata(shs);
	dt->d_buf = shstr;
	dt->d_size = sizeof(shstr);
	dt->d_type = ELF_T_BYTE;
	gelf_getshdr(shs, &sh);
	sh.sh_name = 23;
	sh.sh_type = SHT_STRTAB;
	gelf_update_shdr(shs, &sh);
	eh.e_shstrndx = (Elf64_Half)elf_ndxscn(shs);
	gelf_update_ehdr(e, &eh);
	assert_true(elf_update(e, ELF_C_WRITE) > 0);
	elf_end(e);
	close(fd);
	free(symbuf);
}

static struct perfev_annotation *annotate_file(struct perfev_symbolizer *sy,
					       struct perfev_annotate_hist *h, const char *path,
					       uint64_t start, uint64_t end)
{
	struct perfev_dso *d = perfev_symbolizer__dso(sy, path, NULL, 0);

	return perfev_annotation__new(h, 0, d, start, end, NULL);
}

static void test_x86_64_image(void **state)
{
	static const uint8_t code[] = {
		0x55,					  /* 401000 push %rbp */
		0x48, 0x89, 0xe5,			  /* 401001 mov %rsp,%rbp */
		0x74, 0x05,				  /* 401004 je 40100b */
		0xe8, 0x00, 0x00, 0x00, 0x00,		  /* 401006 call 40100b */
		0x48, 0x8b, 0x05, 0x10, 0x00, 0x00, 0x00, /* 40100b mov 0x10(%rip),%rax */
		0x5d,					  /* 401012 pop %rbp */
		0xc3,					  /* 401013 ret */
		0xe8, 0xe7, 0xff, 0xff, 0xff,		  /* 401014 call 401000 <f> */
		0xff, 0xff,				  /* 401019 no instruction */
	};
	static const struct def_sym syms[] = { { "f", 0x401000, 0x14 }, { "g", 0x401014, 7 } };
	static const uint64_t starts[] = { 0x401000, 0x401001, 0x401004, 0x401006, 0x40100b,
					   0x401012, 0x401013 };
	char path[PATH_MAX];
	struct perfev_symbolizer *sy = perfev_symbolizer__new(NULL);
	struct perfev_annotate_hist *h = perfev_annotate_hist__new();
	const struct perfev_annotate_insn *in;
	struct perfev_annotation *a;
	(void)state;

	snprintf(path, sizeof(path), "%s/x86.elf", tmpdir);
	write_elf(path, EM_X86_64, ELFCLASS64, code, sizeof(code), 0x401000, syms, 2);
	a = annotate_file(sy, h, path, 0x401000, 0x401014);
	assert_non_null(a);
	assert_string_equal(perfev_annotation__info(a)->arch, "x86-64");
	assert_string_equal(perfev_annotation__info(a)->name, "f");
	assert_int_equal(perfev_annotation__nr_insns(a), 7);
	for (size_t i = 0; i < 7; i++)
		assert_int_equal(perfev_annotation__insn(a, i)->addr, starts[i]);
	in = perfev_annotation__insn(a, 2);
	assert_true(in->jump && in->has_target);
	assert_int_equal(in->target, 0x40100b);
	assert_string_equal(in->operands, "40100b <f+0xb>");
	in = perfev_annotation__insn(a, 3);
	assert_true(in->call && in->has_target);
	assert_string_equal(in->target_sym, "f");
	assert_int_equal(in->target_off, 0xb);
	/* RIP-relative: objdump's comment with the address it reads. */
	in = perfev_annotation__insn(a, 4);
	assert_non_null(strstr(in->operands, "0x10(%rip),%rax"));
	assert_non_null(strstr(in->operands, "# 401022"));
	in = perfev_annotation__insn(a, 6);
	assert_true(in->ret);
	assert_int_equal(in->size, 1);
	assert_memory_equal(in->bytes, "\xc3", 1);
	perfev_annotation__delete(a);

	/* g: a call to f by name at its start, then bytes that are no instruction. */
	a = annotate_file(sy, h, path, 0x401014, 0x40101b);
	assert_non_null(a);
	in = perfev_annotation__insn(a, 0);
	assert_string_equal(in->operands, "401000 <f>");
	assert_int_equal(perfev_annotation__nr_insns(a), 3);
	in = perfev_annotation__insn(a, 1);
	assert_string_equal(in->mnemonic, ".byte");
	assert_string_equal(in->operands, "0xff");
	assert_int_equal(perfev_annotation__nr_lines(a), 0);
	perfev_annotation__delete(a);

	/* A range past the section's end stops with it. */
	a = annotate_file(sy, h, path, 0x401012, 0x402000);
	assert_non_null(a);
	assert_int_equal(perfev_annotation__info(a)->end, 0x40101b);
	perfev_annotation__delete(a);
	perfev_annotate_hist__delete(h);
	perfev_symbolizer__delete(sy);
}

static void test_i386_image(void **state)
{
	static const uint8_t code[] = { 0x55, 0x89, 0xe5, 0xeb, 0x00, 0x5d, 0xc3 };
	static const struct def_sym syms[] = { { "f32", 0x8048000, sizeof(code) } };
	char path[PATH_MAX];
	struct perfev_symbolizer *sy = perfev_symbolizer__new(NULL);
	struct perfev_annotate_hist *h = perfev_annotate_hist__new();
	struct perfev_annotation *a;
	(void)state;

	snprintf(path, sizeof(path), "%s/i386.elf", tmpdir);
	write_elf(path, EM_386, ELFCLASS32, code, sizeof(code), 0x8048000, syms, 1);
	a = annotate_file(sy, h, path, 0x8048000, 0x8048000 + sizeof(code));
	assert_non_null(a);
	assert_string_equal(perfev_annotation__info(a)->arch, "i386");
	assert_int_equal(perfev_annotation__nr_insns(a), 5);
	assert_string_equal(perfev_annotation__insn(a, 1)->operands, "%esp,%ebp");
	assert_string_equal(perfev_annotation__insn(a, 2)->operands, "8048005 <f32+0x5>");
	perfev_annotation__delete(a);
	perfev_annotate_hist__delete(h);
	perfev_symbolizer__delete(sy);
}

static void test_aarch64_image(void **state)
{
	static const uint8_t code[] = {
		0x1f, 0x20, 0x03, 0xd5, /* 1000 nop */
		0x02, 0x00, 0x00, 0x14, /* 1004 b 100c */
		0x40, 0x00, 0x00, 0xb4, /* 1008 cbz x0, 1010 */
		0xff, 0xff, 0xff, 0x97, /* 100c bl 1008 */
		0xc0, 0x03, 0x5f, 0xd6, /* 1010 ret */
	};
	static const struct def_sym syms[] = { { "arm", 0x1000, sizeof(code) } };
	char path[PATH_MAX];
	struct perfev_symbolizer *sy = perfev_symbolizer__new(NULL);
	struct perfev_annotate_hist *h = perfev_annotate_hist__new();
	const struct perfev_annotate_insn *in;
	struct perfev_annotation *a;
	(void)state;

	snprintf(path, sizeof(path), "%s/arm64.elf", tmpdir);
	write_elf(path, EM_AARCH64, ELFCLASS64, code, sizeof(code), 0x1000, syms, 1);
	a = annotate_file(sy, h, path, 0x1000, 0x1000 + sizeof(code));
	assert_non_null(a);
	assert_string_equal(perfev_annotation__info(a)->arch, "aarch64");
	assert_int_equal(perfev_annotation__nr_insns(a), 5);
	in = perfev_annotation__insn(a, 1);
	assert_true(in->jump && in->has_target);
	assert_int_equal(in->target, 0x100c);
	assert_string_equal(in->operands, "100c <arm+0xc>");
	in = perfev_annotation__insn(a, 2);
	assert_string_equal(in->mnemonic, "cbz");
	assert_int_equal(in->target, 0x1010);
	assert_string_equal(in->operands, "x0, 1010 <arm+0x10>");
	in = perfev_annotation__insn(a, 3);
	assert_true(in->call);
	assert_int_equal(in->target, 0x1008);
	assert_true(perfev_annotation__insn(a, 4)->ret);
	perfev_annotation__delete(a);
	perfev_annotate_hist__delete(h);
	perfev_symbolizer__delete(sy);
}

/* ---- what cannot be annotated, and malformed files ---- */

/* The file offset of section index ndx's header field at field_off. */
static long shdr_field(const char *path, size_t ndx, size_t field_off)
{
	int fd = open(path, O_RDONLY);
	Elf *e;
	GElf_Ehdr eh;
	long off;

	elf_version(EV_CURRENT);
	e = elf_begin(fd, ELF_C_READ, NULL);
	gelf_getehdr(e, &eh);
	off = (long)(eh.e_shoff + ndx * eh.e_shentsize + field_off);
	elf_end(e);
	close(fd);
	return off;
}

static void patch(const char *path, long off, const void *bytes, size_t len)
{
	int fd = open(path, O_WRONLY);

	assert_true(fd >= 0);
	assert_int_equal(pwrite(fd, bytes, len, off), (ssize_t)len);
	close(fd);
}

static void expect_fail(struct perfev_symbolizer *sy, struct perfev_annotate_hist *h, const char *path,
			uint64_t start, uint64_t end, int err, const char *words)
{
	struct perfev_annotation *a = annotate_file(sy, h, path, start, end);

	assert_null(a);
	assert_int_equal(errno, err);
	if (!strstr(perfev_last_error(), words))
		fail_msg("error '%s' lacks '%s'", perfev_last_error(), words);
}

static void test_malformed(void **state)
{
	static const uint8_t code[] = { 0x55, 0x48, 0x89, 0xe5, 0x5d, 0xc3 };
	static const struct def_sym syms[] = { { "f", 0x401000, sizeof(code) } };
	char path[PATH_MAX], other[PATH_MAX];
	struct perfev_symbolizer *sy = perfev_symbolizer__new(NULL);
	struct perfev_annotate_hist *h = perfev_annotate_hist__new();
	uint64_t huge = 0x7ffffff0;
	(void)state;

	snprintf(path, sizeof(path), "%s/ok.elf", tmpdir);
	write_elf(path, EM_X86_64, ELFCLASS64, code, sizeof(code), 0x401000, syms, 1);
	/* No section holds the address. */
	expect_fail(sy, h, path, 0x500000, 0x500010, ENOENT, "no section of the file holds");
	/* More code than a function has: a lying symbol size. */
	expect_fail(sy, h, path, 0x401000, 0x401000 + (1ull << 40), E2BIG, "more code than one");
	/* An empty range. */
	assert_null(annotate_file(sy, h, path, 0x401000, 0x401000));
	assert_int_equal(errno, EINVAL);

	/* A machine Capstone is not asked to decode. */
	snprintf(other, sizeof(other), "%s/ppc.elf", tmpdir);
	write_elf(other, EM_PPC64, ELFCLASS64, code, sizeof(code), 0x401000, syms, 1);
	expect_fail(sy, h, other, 0x401000, 0x401006, PERFEV_ERR_FORMAT,
		    "perfev annotates x86-64, i386 and aarch64");

	/* .text's bytes said to be far past the end of the file. */
	snprintf(other, sizeof(other), "%s/far.elf", tmpdir);
	write_elf(other, EM_X86_64, ELFCLASS64, code, sizeof(code), 0x401000, syms, 1);
	patch(other, shdr_field(other, 1, offsetof(Elf64_Shdr, sh_offset)), &huge, sizeof(huge));
	expect_fail(sy, h, other, 0x401000, 0x401006, PERFEV_ERR_FORMAT, "no bytes in the file");

	/* .text's size beyond the file. */
	snprintf(other, sizeof(other), "%s/big.elf", tmpdir);
	write_elf(other, EM_X86_64, ELFCLASS64, code, sizeof(code), 0x401000, syms, 1);
	patch(other, shdr_field(other, 1, offsetof(Elf64_Shdr, sh_size)), &huge, sizeof(huge));
	expect_fail(sy, h, other, 0x401000, 0x401006, PERFEV_ERR_FORMAT, "no bytes in the file");

	/* Cut short, and not ELF at all. */
	snprintf(other, sizeof(other), "%s/cut.elf", tmpdir);
	free(run("head -c 40 '%s' > '%s'", path, other));
	assert_null(annotate_file(sy, h, other, 0x401000, 0x401006));
	snprintf(other, sizeof(other), "%s/text.elf", tmpdir);
	free(run("echo 'not an ELF file' > '%s'", other));
	expect_fail(sy, h, other, 0x401000, 0x401006, PERFEV_ERR_FORMAT, "not an ELF file");

	/* Files that are not code: the kernel, JIT maps, [vdso], a missing file. */
	assert_null(perfev_annotation__new(h, 0, perfev_symbolizer__kernel(sy), 0x1000, 0x1010, NULL));
	assert_int_equal(errno, ENOENT);
	assert_non_null(strstr(perfev_last_error(), "kernel code is not read"));
	assert_null(perfev_annotation__new(h, 0, perfev_symbolizer__jit(sy, 1), 0x1000, 0x1010, NULL));
	assert_non_null(strstr(perfev_last_error(), "JIT"));
	assert_null(perfev_annotation__new(h, 0, perfev_symbolizer__dso(sy, "[vdso]", NULL, 0), 0x1000,
					   0x1010, NULL));
	assert_int_equal(errno, ENOENT);
	expect_fail(sy, h, "/nonexistent/file", 0x1000, 0x1010, ENOENT, "cannot open");
	perfev_annotate_hist__delete(h);
	perfev_symbolizer__delete(sy);
}

/* ---- source files ---- */

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void test_sources(void **state)
{
	char file[PATH_MAX], dir[PATH_MAX];
	struct perfev_sources_opts o = { .sz = sizeof(o) };
	struct perfev_sources *s;
	const char *t;
	size_t len;
	(void)state;

	unsetenv("DEBUGINFOD_URLS");
	snprintf(file, sizeof(file), "%s/src.c", tmpdir);
	write_file(file, "line one\r\nline two\n\nlast line, no newline");
	s = perfev_sources__new(&o);
	t = perfev_sources__line(s, NULL, file, 1, &len);
	assert_non_null(t);
	assert_int_equal(len, 8); /* the CR of CRLF is no part of the line */
	assert_memory_equal(t, "line one", 8);
	t = perfev_sources__line(s, NULL, file, 3, &len);
	assert_int_equal(len, 0);
	t = perfev_sources__line(s, NULL, file, 4, &len);
	assert_int_equal(len, strlen("last line, no newline"));
	assert_int_equal(perfev_sources__nr_lines(s, NULL, file), 4);
	assert_null(perfev_sources__line(s, NULL, file, 5, &len));
	assert_int_equal(errno, ERANGE);
	assert_non_null(strstr(perfev_last_error(), "has 4 lines"));
	assert_null(perfev_sources__line(s, NULL, file, 0, &len));
	assert_string_equal(perfev_sources__path(s, NULL, file), file);
	assert_null(perfev_sources__error(s, NULL, file));

	/* Not found: the error lists where it looked. */
	assert_null(perfev_sources__line(s, NULL, "/nonexistent/dir/gone.c", 1, &len));
	assert_int_equal(errno, ENOENT);
	t = perfev_sources__error(s, NULL, "/nonexistent/dir/gone.c");
	assert_non_null(strstr(t, "tried /nonexistent/dir/gone.c (No such file or directory)"));
	assert_non_null(strstr(t, "debuginfod not asked (DEBUGINFOD_URLS is not set)"));
	assert_null(perfev_sources__path(s, NULL, "/nonexistent/dir/gone.c"));
	assert_null(perfev_sources__line(s, NULL, "", 1, &len));
	assert_int_equal(errno, EINVAL);
	perfev_sources__delete(s);

	/* --prefix DIR --prefix-strip 2: /build/tree/src.c is DIR/src.c. */
	snprintf(dir, sizeof(dir), "%s", tmpdir);
	o.prefix = dir;
	o.prefix_strip = 2;
	s = perfev_sources__new(&o);
	t = perfev_sources__line(s, NULL, "/build/tree/src.c", 2, &len);
	assert_non_null(t);
	assert_memory_equal(t, "line two", 8);
	assert_string_equal(perfev_sources__path(s, NULL, "/build/tree/src.c"), file);
	/* Not under the prefix either: both places named. */
	assert_null(perfev_sources__line(s, NULL, "/a/b/none.c", 1, &len));
	t = perfev_sources__error(s, NULL, "/a/b/none.c");
	assert_non_null(strstr(t, "none.c (No such file"));
	assert_non_null(strstr(t, "/a/b/none.c (No such file"));
	perfev_sources__delete(s);

	/* A directory is no source file; no_debuginfod keeps a set DEBUGINFOD_URLS unasked. */
	setenv("DEBUGINFOD_URLS", "http://127.0.0.1:1", 1);
	o = (struct perfev_sources_opts){ .sz = sizeof(o), .no_debuginfod = true };
	s = perfev_sources__new(&o);
	assert_null(perfev_sources__line(s, NULL, tmpdir, 1, &len));
	assert_null(strstr(perfev_sources__error(s, NULL, tmpdir), "debuginfod"));
	perfev_sources__delete(s);
	unsetenv("DEBUGINFOD_URLS");
}

static void test_api(void **state)
{
	struct {
		struct perfev_annotate_opts o;
		char newer[8];
	} big = { .o = { .sz = sizeof(big) } };
	struct perfev_annotate_opts small = { .sz = 2 };
	struct perfev_sources_opts so = { .sz = 1 };
	struct perfev_symbolizer *sy = perfev_symbolizer__new(NULL);
	struct perfev_annotate_hist *h = perfev_annotate_hist__new();
	struct perfev_dso *d = perfev_symbolizer__dso(sy, "/nonexistent", NULL, 0);
	(void)state;

	assert_null(perfev_annotation__new(h, 0, d, 0, 16, &small));
	assert_int_equal(errno, EINVAL);
	assert_non_null(strstr(perfev_last_error(), "struct perfev_annotate_opts: .sz is 2"));
	big.newer[3] = 1;
	assert_null(perfev_annotation__new(h, 0, d, 0, 16, &big.o));
	assert_non_null(strstr(perfev_last_error(), "a field of a newer perfev"));
	assert_null(perfev_sources__new(&so));
	assert_null(perfev_annotation__new(NULL, 0, d, 0, 16, NULL));
	assert_null(perfev_annotation__new(h, -1, d, 0, 16, NULL));
	assert_null(perfev_annotation__new(h, 0, NULL, 0, 16, NULL));
	assert_int_equal(perfev_annotate_hist__add(NULL, NULL), -EINVAL);
	assert_int_equal(perfev_annotate_hist__nr_syms(NULL), 0);
	assert_null(perfev_annotation__info(NULL));
	assert_int_equal(perfev_annotation__nr_insns(NULL), 0);
	assert_null(perfev_annotation__insn(NULL, 0));
	assert_null(perfev_annotation__line(NULL, 0));
	assert_int_equal(perfev_annotation__insn_at(NULL, 0), -1);
	perfev_annotation__delete(NULL);
	perfev_annotate_hist__delete(NULL);
	perfev_sources__delete(NULL);
	perfev_annotate_hist__delete(h);
	perfev_symbolizer__delete(sy);
}

static int setup(void **state)
{
	char exe[1000], *slash;
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	(void)state;

	if (n <= 0)
		return -1;
	exe[n] = 0;
	slash = strrchr(exe, '/');
	*slash = 0;
	snprintf(work, sizeof(work), "%s/work", exe);
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/perfev-annotate-XXXXXX");
	if (!mkdtemp(tmpdir))
		return -1;
	if (access(work, R_OK)) {
		fprintf(stderr, "%s: missing; build it with 'make tests'\n", work);
		return -1;
	}
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	free(run("rm -rf '%s'", tmpdir));
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hist),
		cmocka_unit_test(test_hist_frames_and_merging),
		cmocka_unit_test(test_hist_count),
		cmocka_unit_test(test_disasm_c),
		cmocka_unit_test(test_disasm_cxx),
		cmocka_unit_test(test_samples_and_percent),
		cmocka_unit_test(test_lines_inlined),
		cmocka_unit_test(test_stripped_debug_file),
		cmocka_unit_test(test_rebuilt),
		cmocka_unit_test(test_x86_64_image),
		cmocka_unit_test(test_i386_image),
		cmocka_unit_test(test_aarch64_image),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_sources),
		cmocka_unit_test(test_api),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
