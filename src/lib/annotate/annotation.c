/* SPDX-License-Identifier: MIT */
/*
 * One function annotated: its code read from the DSO's file, decoded
 * instruction by instruction, each given its samples, its source line and
 * inline chain; then the per-line totals (lines.c).  Strings and inline
 * chains are built in growing blocks and their pointers set once the
 * blocks stop moving.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "util/internal.h"
#include "util/opts.h"
#include "symbols/symbols_int.h"
#include "annotate/annotate_int.h"

/* Far beyond any real function (clang's biggest are about 1 MiB): a bound for lying symbol sizes. */
#define MAX_CODE ((size_t)64 << 20)

/* A growing block of text; strings are kept as offsets until it is final. */
struct text {
	char *buf;
	size_t len, cap;
};

/* Appends a printf-formatted string with its NUL; its offset, or SIZE_MAX on ENOMEM. */
static size_t text_add(struct text *t, const char *fmt, ...) PRINTF_LIKE(2, 3);
static size_t text_add(struct text *t, const char *fmt, ...)
{
	va_list ap;
	size_t at = t->len;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0 || !array_grow((void **)&t->buf, &t->cap, t->len + (size_t)n + 1, 1))
		return SIZE_MAX;
	va_start(ap, fmt);
	vsnprintf(t->buf + t->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	t->len += (size_t)n + 1;
	return at;
}

/*
 * The first n bytes of before, then addr as objdump names an address:
 * "12bb <hot+0x5b>", with the symbol and offset when a symbol holds it.
 */
static size_t text_addr(struct text *t, const char *before, int n, uint64_t addr,
			const struct perfev_symbol *s)
{
	if (!s)
		return text_add(t, "%.*s%" PRIx64, n, before, addr);
	if (addr == s->start)
		return text_add(t, "%.*s%" PRIx64 " <%s>", n, before, addr, s->name);
	return text_add(t, "%.*s%" PRIx64 " <%s+0x%" PRIx64 ">", n, before, addr, s->name,
			addr - s->start);
}

/* The operands as shown: a direct target named, a PC-relative reference commented. */
static size_t format_operands(struct text *t, struct perfev_dso *d, const struct disasm_insn *in,
			      struct perfev_annotate_insn *out)
{
	const struct perfev_symbol *s;
	const char *imm;
	size_t at;

	if (in->has_target) {
		s = perfev_dso__find_symbol(d, in->target);
		out->has_target = true;
		out->target = in->target;
		out->target_sym = s ? s->name : NULL;
		out->target_off = s ? in->target - s->start : 0;
		/* The target is the last operand ("0x12bb", AArch64 "x0, #0x12bb"): the rest stays. */
		imm = strrchr(in->operands, '#');
		if (!imm)
			imm = strrchr(in->operands, ' ') ? strrchr(in->operands, ' ') + 1 : in->operands;
		return text_addr(t, in->operands, (int)(imm - in->operands), in->target, s);
	}
	if (in->has_ref) {
		/* objdump's comment after the operands; the text is joined by dropping the NUL between. */
		at = text_add(t, "%s        # ", in->operands);
		if (at == SIZE_MAX)
			return at;
		t->len--;
		return text_addr(t, "", 0, in->ref, perfev_dso__find_symbol(d, in->ref)) == SIZE_MAX
			       ? SIZE_MAX : at;
	}
	return text_add(t, "%s", in->operands);
}

/* The offsets each instruction's strings have in the text block until it stops moving. */
struct insn_text {
	size_t mnemonic, operands;
};

struct build {
	struct perfev_annotation *a;
	struct perfev_dso *d;
	struct text text;
	struct insn_text *offs;
	size_t cap, offs_cap;
	size_t *frame_at; /* per insn: where its inline chain starts in a->frames */
	size_t nr_frames, frames_cap;
};

static int decode_all(struct build *b, struct disasm *dis, const struct dso_code *code)
{
	struct perfev_annotation *a = b->a;
	struct disasm_insn in;
	size_t off = 0;

	while (disasm__next(dis, code->bytes, code->len, code->addr, &off, &in)) {
		struct perfev_annotate_insn *o;

		if (!array_grow((void **)&a->insns, &b->cap, a->nr_insns + 1, sizeof(*a->insns)) ||
		    !array_grow((void **)&b->offs, &b->offs_cap, a->nr_insns + 1, sizeof(*b->offs)))
			return -ENOMEM;
		o = &a->insns[a->nr_insns];
		*o = (struct perfev_annotate_insn){ .addr = in.addr, .size = in.size, .jump = in.jump,
						    .call = in.call, .ret = in.ret,
						    .line_index = UINT32_MAX };
		b->offs[a->nr_insns].mnemonic = text_add(&b->text, "%s", in.mnemonic);
		b->offs[a->nr_insns].operands = format_operands(&b->text, b->d, &in, o);
		if (b->offs[a->nr_insns].mnemonic == SIZE_MAX || b->offs[a->nr_insns].operands == SIZE_MAX)
			return -ENOMEM;
		a->nr_insns++;
	}
	return 0;
}

int64_t perfev_annotation__insn_at(const struct perfev_annotation *a, uint64_t addr)
{
	size_t lo = 0, hi = a ? a->nr_insns : 0;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (a->insns[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo || addr - a->insns[lo - 1].addr >= a->insns[lo - 1].size)
		return -1;
	return (int64_t)(lo - 1);
}

static void add_samples(void *ctx, uint64_t addr, uint64_t nr_samples, uint64_t period)
{
	struct perfev_annotation *a = ctx;
	int64_t i = perfev_annotation__insn_at(a, addr);

	/* Between decoded instructions cannot happen; past the last (a short section), it can. */
	if (i < 0)
		return;
	a->insns[i].nr_samples += nr_samples;
	a->insns[i].period += period;
	a->info.nr_samples += nr_samples;
	a->info.period += period;
}

/* Each instruction's source line and inline chain, from the DSO's DWARF. */
static int add_lines(struct build *b)
{
	struct perfev_annotation *a = b->a;
	struct perfev_inline_frame fr[64];

	b->frame_at = calloc(a->nr_insns ? a->nr_insns : 1, sizeof(*b->frame_at));
	if (!b->frame_at)
		return -ENOMEM;
	for (size_t i = 0; i < a->nr_insns; i++) {
		struct perfev_annotate_insn *in = &a->insns[i];
		int n;

		if (!perfev_dso__srcline(b->d, in->addr, &in->line))
			a->info.has_lines = true;
		else
			in->line = (struct perfev_srcline){ 0 };
		n = perfev_dso__inline_frames(b->d, in->addr, fr, ARRAY_SIZE(fr));
		if (n == -ENOMEM)
			return -ENOMEM;
		if (n <= 0)
			continue;
		if ((size_t)n > ARRAY_SIZE(fr))
			n = (int)ARRAY_SIZE(fr); /* the innermost 64: deeper is no real program */
		if (!array_grow((void **)&a->frames, &b->frames_cap, b->nr_frames + (size_t)n,
				sizeof(*a->frames)))
			return -ENOMEM;
		memcpy(a->frames + b->nr_frames, fr, (size_t)n * sizeof(*fr));
		b->frame_at[i] = b->nr_frames;
		in->nr_inlines = (uint32_t)n;
		b->nr_frames += (size_t)n;
		/* The function's own file: where its outermost frame is (its line, or a call site in it). */
		if (!a->info.file && fr[n - 1].where.file)
			a->info.file = fr[n - 1].where.file;
	}
	return 0;
}

/* The blocks have stopped moving: pointers into them. */
static void finish(struct build *b)
{
	struct perfev_annotation *a = b->a;

	a->text = b->text.buf;
	for (size_t i = 0; i < a->nr_insns; i++) {
		struct perfev_annotate_insn *in = &a->insns[i];

		in->mnemonic = a->text + b->offs[i].mnemonic;
		in->operands = a->text + b->offs[i].operands;
		in->bytes = a->code + (in->addr - a->info.start);
		in->inlines = in->nr_inlines ? a->frames + b->frame_at[i] : NULL;
	}
}

static int annotate(struct build *b, struct perfev_annotate_hist *h, const struct dso_code *code,
		    const struct perfev_annotate_opts *o)
{
	struct perfev_annotation *a = b->a;
	struct disasm *dis = disasm__new(code->machine, code->elf_class, code->big_endian);
	const struct perfev_symbol *s;
	int err;

	if (!dis)
		return -errno;
	a->info.arch = disasm__arch(dis);
	err = decode_all(b, dis, code);
	disasm__delete(dis);
	if (err)
		return set_error(ENOMEM, "no memory for the instructions of %s at %#" PRIx64,
				 perfev_dso__name(b->d), code->addr);
	if (a->nr_insns)
		a->info.end = a->insns[a->nr_insns - 1].addr + a->insns[a->nr_insns - 1].size;
	if (hist__for_each_addr(h, a->info.evsel, b->d, a->info.start, a->info.end, add_samples, a))
		return -ENOMEM;
	perfev_annotate_hist__total(h, a->info.evsel, &a->info.total_samples, &a->info.total_period);
	s = perfev_dso__find_symbol(b->d, a->info.start);
	a->info.name = s && s->start == a->info.start ? s->name : NULL;
	if (!o->no_lines && add_lines(b))
		return set_error(ENOMEM, "no memory for the source lines of %s", perfev_dso__name(b->d));
	finish(b);
	if (lines__build(a))
		return set_error(ENOMEM, "no memory for the source lines of %s", perfev_dso__name(b->d));
	return 0;
}

struct perfev_annotation *perfev_annotation__new(struct perfev_annotate_hist *h, int evsel,
						 struct perfev_dso *d, uint64_t start, uint64_t end,
						 const struct perfev_annotate_opts *opts)
{
	struct perfev_annotate_opts o;
	struct build b = { .d = d };
	struct dso_code code;
	int err;

	if (OPTS_COPY(&o, opts, perfev_annotate_opts, no_lines))
		return NULL;
	if (!h || !d || evsel < 0 || end <= start)
		return set_error_ptr(EINVAL, "perfev_annotation__new: %s",
				     !h ? "no histogram" : !d ? "no DSO" : evsel < 0 ? "negative event"
				     : "an empty address range");
	err = dso__read_code(d, start, end, MAX_CODE, &code);
	if (err) {
		errno = -err; /* the error says why */
		return NULL;
	}
	b.a = calloc(1, sizeof(*b.a));
	if (!b.a) {
		free(code.bytes);
		return set_error_ptr(ENOMEM, "no memory for an annotation");
	}
	b.a->code = code.bytes;
	b.a->info = (struct perfev_annotation_info){ .dso = d, .start = start, .end = start,
						     .evsel = evsel };
	err = annotate(&b, h, &code, &o);
	free(b.offs);
	free(b.frame_at);
	if (err) {
		if (!b.a->text)
			free(b.text.buf);
		perfev_annotation__delete(b.a);
		errno = -err;
		return NULL;
	}
	return b.a;
}

void perfev_annotation__delete(struct perfev_annotation *a)
{
	if (!a)
		return;
	free(a->insns);
	free(a->code);
	free(a->text);
	free(a->lines);
	free(a->line_insns);
	free(a->frames);
	free(a);
}

const struct perfev_annotation_info *perfev_annotation__info(const struct perfev_annotation *a)
{
	return a ? &a->info : NULL;
}

double perfev_annotation__percent(const struct perfev_annotation *a, uint64_t nr_samples,
				  uint64_t period, enum perfev_annotate_percent type)
{
	uint64_t base, v;

	if (!a)
		return 0;
	switch (type) {
	case PERFEV_PERCENT_GLOBAL_PERIOD:
		base = a->info.total_period, v = period;
		break;
	case PERFEV_PERCENT_LOCAL_HITS:
		base = a->info.nr_samples, v = nr_samples;
		break;
	case PERFEV_PERCENT_GLOBAL_HITS:
		base = a->info.total_samples, v = nr_samples;
		break;
	default:
		base = a->info.period, v = period;
		break;
	}
	return base ? 100.0 * (double)v / (double)base : 0;
}

size_t perfev_annotation__nr_insns(const struct perfev_annotation *a)
{
	return a ? a->nr_insns : 0;
}

const struct perfev_annotate_insn *perfev_annotation__insn(const struct perfev_annotation *a,
							   size_t i)
{
	if (!a || i >= a->nr_insns) {
		errno = ENOENT;
		return NULL;
	}
	return &a->insns[i];
}

size_t perfev_annotation__nr_lines(const struct perfev_annotation *a)
{
	return a ? a->nr_lines : 0;
}

const struct perfev_annotate_line *perfev_annotation__line(const struct perfev_annotation *a,
							   size_t i)
{
	if (!a || i >= a->nr_lines) {
		errno = ENOENT;
		return NULL;
	}
	return &a->lines[i];
}
