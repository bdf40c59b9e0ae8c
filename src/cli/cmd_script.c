/* SPDX-License-Identifier: MIT */
/*
 * perfev script: every sample of a perf.data file as text, in the layout of
 * perf script, so that what reads perf script's output (FlameGraph's
 * stackcollapse-perf.pl, speedscope, Firefox Profiler) reads ours.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "opt.h"
#include "perfev/perfev.h"
#include "trace_text.h"

enum field {
	F_COMM = 1 << 0,
	F_PID = 1 << 1,
	F_TID = 1 << 2,
	F_CPU = 1 << 3,
	F_TIME = 1 << 4,
	F_PERIOD = 1 << 5,
	F_EVENT = 1 << 6,
	F_IP = 1 << 7,
	F_SYM = 1 << 8,
	F_SYMOFF = 1 << 9,
	F_DSO = 1 << 10,
	F_ADDR = 1 << 11,
	F_TRACE = 1 << 12,
};

static const struct {
	const char *name;
	unsigned bit;
} field_names[] = {
	{ "comm", F_COMM }, { "pid", F_PID },	  { "tid", F_TID },	{ "cpu", F_CPU },
	{ "time", F_TIME }, { "period", F_PERIOD }, { "event", F_EVENT }, { "ip", F_IP },
	{ "sym", F_SYM },   { "symoff", F_SYMOFF }, { "dso", F_DSO },	{ "addr", F_ADDR },
	{ "trace", F_TRACE },
};

#define DEFAULT_FIELDS \
	(F_COMM | F_TID | F_CPU | F_TIME | F_PERIOD | F_EVENT | F_IP | F_SYM | F_SYMOFF | F_DSO)
/* perf script's default for tracepoints: their fields instead of a period, the stack if any. */
#define TRACEPOINT_FIELDS (F_COMM | F_TID | F_CPU | F_TIME | F_EVENT | F_TRACE)
#define CALLCHAIN_FIELDS (F_IP | F_SYM | F_SYMOFF | F_DSO)

/*
 * -F: a plain list replaces both defaults (other events', tracepoints'); +FIELD and -FIELD change
 * each, as perf script does.
 */
static bool parse_fields(const char *arg, unsigned fields[2], bool *replaced)
{
	char *dup = strdup(arg), *save = NULL;
	bool ok = dup != NULL, first = true;

	for (char *t = dup ? strtok_r(dup, ",", &save) : NULL; t; t = strtok_r(NULL, ",", &save)) {
		char op = 0;
		unsigned bit = 0;

		if (*t == '+' || *t == '-')
			op = *t++;
		for (size_t i = 0; i < sizeof(field_names) / sizeof(field_names[0]); i++)
			if (!strcmp(t, field_names[i].name))
				bit = field_names[i].bit;
		if (!bit) {
			cli_error("unknown field '%s'; the fields are comm, pid, tid, cpu, time, period, "
				  "event, ip, sym, symoff, dso, addr, trace", t);
			ok = false;
			break;
		}
		if (first && !op) {
			fields[0] = fields[1] = 0; /* a plain list replaces the default */
			*replaced = true;
		}
		first = false;
		for (int k = 0; k < 2; k++) {
			if (op == '-')
				fields[k] &= ~bit;
			else
				fields[k] |= bit;
		}
	}
	free(dup);
	return ok;
}

/*
 * One sample's text is put together here and written with one fwrite():
 * printf's format parsing was two thirds of a script's time.  The
 * helpers write what "%s", "%*s", "%-*d", "%0*u" and "%*" PRIx64 would.
 */
struct obuf {
	char *p;
	size_t len, cap;
	bool nomem;
};

struct script_state {
	struct perfev_session *s;
	unsigned fields[2]; /* other events', tracepoints' */
	bool fields_replaced; /* -F with a plain list: the same fields for every event */
	unsigned max_stack;
	int name_width;
	FILE *out;
	struct trace_text *tt; /* tracepoints' fields */
	bool ns; /* --ns: times to the nanosecond */
	bool no_inline; /* --no-inline: DWARF frames without their inlined functions */
	struct obuf ob;
	/* Each frame id's symbol name length + 1 (0: not yet known). */
	uint32_t *sym_lens;
	size_t cap_lens;
};

static bool ob_room(struct obuf *b, size_t n)
{
	if (b->len + n <= b->cap)
		return true;
	size_t cap = b->cap ? b->cap : 4096;

	while (cap < b->len + n)
		cap *= 2;
	char *p = realloc(b->p, cap);

	if (!p) {
		b->nomem = true;
		return false;
	}
	b->p = p;
	b->cap = cap;
	return true;
}

static void ob_mem(struct obuf *b, const char *s, size_t n)
{
	if (ob_room(b, n)) {
		memcpy(b->p + b->len, s, n);
		b->len += n;
	}
}

static void ob_str(struct obuf *b, const char *s)
{
	ob_mem(b, s, strlen(s));
}

static void ob_chr(struct obuf *b, char c)
{
	if (ob_room(b, 1))
		b->p[b->len++] = c;
}

/* s right-aligned in width (left-aligned when width < 0), as "%*s". */
static void ob_pad(struct obuf *b, const char *s, size_t n, int width)
{
	size_t w = (size_t)(width < 0 ? -width : width), pad = w > n ? w - n : 0;

	if (!ob_room(b, n + pad))
		return;
	if (width > 0) {
		memset(b->p + b->len, ' ', pad);
		b->len += pad;
	}
	memcpy(b->p + b->len, s, n);
	b->len += n;
	if (width < 0) {
		memset(b->p + b->len, ' ', pad);
		b->len += pad;
	}
}

/* v in hex (or decimal, below), written backwards to end; where it starts. */
static char *hex_of(uint64_t v, char *end)
{
	static const char dig[] = "0123456789abcdef";

	do {
		*--end = dig[v & 15];
		v >>= 4;
	} while (v);
	return end;
}

static char *dec_of(uint64_t v, char *end)
{
	do {
		*--end = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	return end;
}

/* "%*" PRIx64 */
static void ob_hex(struct obuf *b, uint64_t v, int width)
{
	char tmp[24], *e = tmp + sizeof(tmp), *s = hex_of(v, e);

	ob_pad(b, s, (size_t)(e - s), width);
}

/* "%*" PRIu64, or zero-filled to width ("%0*" PRIu64) */
static void ob_udec(struct obuf *b, uint64_t v, int width, bool zero)
{
	char tmp[32], *e = tmp + sizeof(tmp), *s = dec_of(v, e);

	while (zero && e - s < width)
		*--s = '0';
	ob_pad(b, s, (size_t)(e - s), width);
}

/* "%*d" (width < 0: "%-*d") */
static void ob_int(struct obuf *b, int v, int width)
{
	char tmp[32], *e = tmp + sizeof(tmp), *s = dec_of(v < 0 ? 0 - (uint64_t)(int64_t)v : (uint64_t)v, e);

	if (v < 0)
		*--s = '-';
	ob_pad(b, s, (size_t)(e - s), width);
}

/* The frame's address within its symbol's DSO, for "+0x..." (the IP itself, not IP - 1). */
static uint64_t dso_ip(const struct perfev_frame *f)
{
	if (f->kernel || !f->dso || !f->map)
		return f->ip;
	return perfev_dso__map_ip(f->dso, f->ip, f->map->start, f->map->pgoff);
}

/*
 * A call chain's address as perf 6.1 prints it: for a frame in a file's
 * map, the address within the file (the map's offset added); else as sampled.
 */
static uint64_t chain_ip(const struct perfev_frame *f)
{
	if (f->kernel || !f->map)
		return f->ip;
	return f->ip - f->map->start + f->map->pgoff;
}

/* The length of the name of f's symbol, remembered by the frame's id: long C++ names recur. */
static size_t sym_len(struct script_state *st, const struct perfev_frame *f)
{
	size_t n;

	if (!f->id)
		return strlen(f->sym->name);
	if (f->id < st->cap_lens && st->sym_lens[f->id])
		return st->sym_lens[f->id] - 1;
	n = strlen(f->sym->name);
	if (f->id >= st->cap_lens && n < UINT32_MAX) {
		size_t cap = st->cap_lens ? st->cap_lens : 4096;
		uint32_t *l;

		while (cap <= f->id)
			cap *= 2;
		l = realloc(st->sym_lens, cap * sizeof(*l));
		if (!l)
			return n;
		memset(l + st->cap_lens, 0, (cap - st->cap_lens) * sizeof(*l));
		st->sym_lens = l;
		st->cap_lens = cap;
	}
	if (n < UINT32_MAX)
		st->sym_lens[f->id] = (uint32_t)n + 1;
	return n;
}

#define PUT_LIT(w, s) (memcpy((w), (s), sizeof(s) - 1), (w) += sizeof(s) - 1)

/* The hex digits of v. */
static unsigned hex_digits(uint64_t v)
{
	return v ? (unsigned)(64 - __builtin_clzll(v) + 3) / 4 : 1;
}

/* v in hex at w, two digits a step; past its end. */
static char *put_hex(char *w, uint64_t v)
{
	static const char pairs[513] =
		"000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"
		"202122232425262728292a2b2c2d2e2f303132333435363738393a3b3c3d3e3f"
		"404142434445464748494a4b4c4d4e4f505152535455565758595a5b5c5d5e5f"
		"606162636465666768696a6b6c6d6e6f707172737475767778797a7b7c7d7e7f"
		"808182838485868788898a8b8c8d8e8f909192939495969798999a9b9c9d9e9f"
		"a0a1a2a3a4a5a6a7a8a9aaabacadaeafb0b1b2b3b4b5b6b7b8b9babbbcbdbebf"
		"c0c1c2c3c4c5c6c7c8c9cacbcccdcecfd0d1d2d3d4d5d6d7d8d9dadbdcdddedf"
		"e0e1e2e3e4e5e6e7e8e9eaebecedeeeff0f1f2f3f4f5f6f7f8f9fafbfcfdfeff";
	char *e = w + hex_digits(v), *p = e;

	while (p - w >= 2) {
		p -= 2;
		memcpy(p, &pairs[(v & 0xff) * 2], 2);
		v >>= 8;
	}
	if (p > w)
		*--p = "0123456789abcdef"[v & 15];
	return e;
}

/* What a frame's location may take beyond its names' lengths: literals, "+0x", 16 digits, "\n". */
#define LOCATION_ROOM 64

/* The names f's location shows as fields ask (NULL, or with their lengths). */
static void location_names(struct script_state *st, unsigned fields, const struct perfev_frame *f,
			   size_t *nl, const char **dso, size_t *dl)
{
	*nl = (fields & F_SYM) && f->sym ? sym_len(st, f) : 0;
	*dso = (fields & F_DSO) && !f->kernel && f->map ? f->map->filename : NULL;
	*dl = *dso ? strlen(*dso) : 0;
}

/* A frame's " sym+0xOFF (dso)" as fields ask, at w (its room reserved); past its end. */
static char *put_location(unsigned fields, const struct perfev_frame *f, size_t nl,
			  const char *dso, size_t dl, char *w)
{
	if (fields & F_SYM) {
		if (f->sym) {
			*w++ = ' ';
			memcpy(w, f->sym->name, nl);
			w += nl;
			if (fields & F_SYMOFF) {
				PUT_LIT(w, "+0x");
				w = put_hex(w, dso_ip(f) - f->sym->start);
			}
		} else {
			PUT_LIT(w, " " PERFEV_UNKNOWN_NAME);
		}
	}
	if (fields & F_DSO) {
		if (f->kernel) {
			PUT_LIT(w, " (" PERFEV_KERNEL_DSO_NAME ")");
		} else if (dso) {
			PUT_LIT(w, " (");
			memcpy(w, dso, dl);
			w += dl;
			*w++ = ')';
		} else {
			PUT_LIT(w, " (" PERFEV_UNKNOWN_NAME ")");
		}
	}
	return w;
}

static void print_location(struct script_state *st, unsigned fields, const struct perfev_frame *f)
{
	struct obuf *o = &st->ob;
	const char *dso;
	size_t nl, dl;

	location_names(st, fields, f, &nl, &dso, &dl);
	if (ob_room(o, nl + dl + LOCATION_ROOM))
		o->len = (size_t)(put_location(fields, f, nl, dso, dl, o->p + o->len) - o->p);
}

/*
 * One frame of a call chain, "\t%16" PRIx64 ", its location, "\n": most of
 * script's output, so its room is reserved once and the text written in place.
 */
static void print_chain_frame(struct script_state *st, unsigned fields, const struct perfev_frame *f)
{
	struct obuf *o = &st->ob;
	const char *dso;
	size_t nl, dl;
	uint64_t ip = chain_ip(f);
	unsigned digits = hex_digits(ip);
	char *w;

	location_names(st, fields, f, &nl, &dso, &dl);
	if (!ob_room(o, 17 + nl + dl + LOCATION_ROOM))
		return;
	w = o->p + o->len;
	/* Right-aligned in 16 columns. */
	memcpy(w, "\t                ", 17);
	w = put_hex(w + 17 - digits, ip);
	w = put_location(fields, f, nl, dso, dl, w);
	*w++ = '\n';
	o->len = (size_t)(w - o->p);
}

/*
 * A frame of a DWARF-unwound stack as perf 6.1 prints it: each function
 * inlined at its address first, innermost first, as "NAME+OFF (inlined)"
 * (OFF from the symbol's start), then the symbol itself, unless DWARF names
 * the outermost function otherwise (a clone such as foo.constprop.0 shows
 * only as "foo+OFF (inlined)"); false when the frame has no such chain.
 */
static bool print_inlined(struct script_state *st, unsigned fields,
			  const struct perfev_frame *f)
{
	struct perfev_inline_frame in[32];
	int k;

	if (f->kernel || !f->dso || !f->sym || !(fields & F_SYM))
		return false;
	k = perfev_dso__inline_frames(f->dso, f->addr, in, 32);
	if (k <= 0)
		return false;
	if (k > 32)
		k = 32;
	for (int j = 0; j < k; j++) {
		if (j == k - 1 && !strcmp(in[j].name, f->sym->name)) {
			ob_chr(&st->ob, '\t');
			ob_hex(&st->ob, chain_ip(f), 16);
			print_location(st, fields, f);
			ob_chr(&st->ob, '\n');
			break;
		}
		ob_chr(&st->ob, '\t');
		ob_hex(&st->ob, chain_ip(f), 16);
		ob_chr(&st->ob, ' ');
		ob_str(&st->ob, in[j].name);
		if (fields & F_SYMOFF) {
			ob_str(&st->ob, "+0x");
			ob_hex(&st->ob, dso_ip(f) - f->sym->start, 0);
		}
		ob_str(&st->ob, " (inlined)\n");
	}
	return true;
}

static int name_width(struct perfev_data_reader *r)
{
	int w = 0;

	for (size_t i = 0; i < perfev_data_reader__nr_evsels(r); i++) {
		int n = (int)strlen(perfev_data_reader__evsel_name(r, i));

		if (n > w)
			w = n;
	}
	return w;
}

static bool has_callchain(const struct perfev_session_sample *ss)
{
	uint64_t t = ss->ev->rec.sample.sample_type;

	return (t & PERF_SAMPLE_CALLCHAIN) ||
	       ((t & PERF_SAMPLE_REGS_USER) && (t & PERF_SAMPLE_STACK_USER));
}

static int on_sample(void *ctx, const struct perfev_session_sample *ss)
{
	struct script_state *st = ctx;
	const struct perfev_sample *sm = &ss->ev->rec.sample;
	struct perfev_data_reader *r = perfev_session__reader(st->s);
	const struct perfev_tp_format *tf =
		(sm->sample_type & PERF_SAMPLE_RAW) ? trace_text_format(st->tt, ss->evsel) : NULL;
	unsigned f = st->fields[tf != NULL];
	bool chain;
	struct obuf *o = &st->ob;

	bool dwarf = (sm->sample_type & PERF_SAMPLE_REGS_USER) &&
		     (sm->sample_type & PERF_SAMPLE_STACK_USER);

	if (tf && !st->fields_replaced && has_callchain(ss))
		f |= CALLCHAIN_FIELDS;
	chain = (f & F_IP) && has_callchain(ss);

	if (!st->name_width)
		st->name_width = name_width(r);
	o->len = 0;
	if (f & F_COMM) {
		const char *comm = perfev_thread__comm(ss->thread);

		ob_pad(o, comm, strlen(comm), chain ? 0 : 16);
		ob_chr(o, ' ');
	}
	if ((f & F_PID) && (f & F_TID)) {
		ob_int(o, perfev_thread__pid(ss->thread), 7);
		ob_chr(o, '/');
		ob_int(o, perfev_thread__tid(ss->thread), -7);
		ob_chr(o, ' ');
	} else if (f & F_PID) {
		ob_int(o, perfev_thread__pid(ss->thread), 7);
		ob_chr(o, ' ');
	} else if (f & F_TID) {
		ob_int(o, perfev_thread__tid(ss->thread), 5);
		ob_chr(o, ' ');
	}
	if ((f & F_CPU) && (sm->sample_type & PERF_SAMPLE_CPU)) {
		ob_chr(o, '[');
		ob_udec(o, sm->cpu, 3, true);
		ob_str(o, "] ");
	}
	if ((f & F_TIME) && (sm->sample_type & PERF_SAMPLE_TIME)) {
		ob_udec(o, sm->time / 1000000000, 5, false);
		ob_chr(o, '.');
		if (st->ns)
			ob_udec(o, sm->time % 1000000000, 9, true);
		else
			ob_udec(o, sm->time % 1000000000 / 1000, 6, true);
		ob_str(o, ": ");
	}
	if (f & F_PERIOD) {
		ob_udec(o, ss->period, 10, false);
		ob_chr(o, ' ');
	}
	if (f & F_EVENT) {
		const char *name = ss->evsel >= 0 ? perfev_data_reader__evsel_name(r, ss->evsel)
						  : PERFEV_UNKNOWN_NAME;

		ob_pad(o, name, strlen(name), st->name_width);
		ob_str(o, ": ");
	}
	if (f & F_ADDR) {
		ob_hex(o, sm->addr, 16);
		ob_chr(o, ' ');
	}
	if ((f & F_TRACE) && tf) {
		const char *txt = trace_text_print(st->tt, tf, sm);

		if (txt)
			ob_str(o, txt);
	}
	if (chain) {
		size_t n = ss->nr_frames;

		if (st->max_stack && n > st->max_stack)
			n = st->max_stack;
		ob_chr(o, '\n');
		for (size_t i = 0; i < n; i++) {
			/* perf expands the frames it unwound itself (DWARF), not the kernel's chains. */
			if (dwarf && !st->no_inline && print_inlined(st, f, &ss->frames[i]))
				continue;
			print_chain_frame(st, f, &ss->frames[i]);
		}
		ob_chr(o, '\n');
	} else if ((f & (F_IP | F_SYM | F_DSO)) && ss->nr_frames) {
		if (f & F_IP) {
			ob_chr(o, ' ');
			ob_hex(o, ss->frames[0].ip, 16);
		}
		print_location(st, f, &ss->frames[0]);
		ob_chr(o, '\n');
	} else {
		ob_chr(o, '\n');
	}
	if (o->nomem)
		return -ENOMEM;
	if (fwrite(o->p, 1, o->len, st->out) != o->len || ferror(st->out))
		return -EIO;
	return 0;
}

enum { OPT_NS = 256, OPT_NO_INLINE };

static const struct opt script_table[] = {
	OPT_GROUP(opt_input),
	{ 'F', "fields", .arg = "FIELDS", .comp = COMP_WORDS,
	  .words = "comm,pid,tid,cpu,time,period,event,ip,sym,symoff,dso,addr,trace",
	  .help = "what to print of each sample, comma-separated: comm, pid, tid, cpu, time, period, "
		  "event, ip, sym, symoff, dso, addr, trace (a tracepoint's fields); +FIELD or -FIELD "
		  "adds to or takes from the default (comm,tid,cpu,time,period,event,ip,sym,symoff,dso; "
		  "for tracepoints comm,tid,cpu,time,event,trace and the stack)" },
	{ OPT_NS, "ns", .help = "sample times to the nanosecond (perf's 9 digits; default microseconds)" },
	{ OPT_NO_INLINE, "no-inline",
	  .help = "print DWARF-unwound frames without the functions inlined at them (as perf's "
		  "--no-inline)" },
	OPT_GROUP(opt_frames),
	OPT_HELP(OPT_KEY_MAX_STACK, "print at most N frames of each stack"),
	OPT_GROUP(opt_verbosity),
	OPT_HELP('q', "no warnings"),
	OPT_END,
};

static bool set_option(void *ctx, int key, const char *arg)
{
	struct script_state *st = ctx;

	if (key == OPT_NS) {
		st->ns = true;
		return true;
	}
	if (key == OPT_NO_INLINE) {
		st->no_inline = true;
		return true;
	}
	return parse_fields(arg, st->fields, &st->fields_replaced);
}

const struct opt_cmd script_cmd = {
	.name = "script",
	.summary = "print every sample of a perf.data file, as perf script does",
	.synopsis = "[-i FILE] [-F FIELDS] [--ns] [--no-inline] [--max-stack N]",
	.opts = script_table,
	.set = set_option,
	.operands = OPERANDS_NONE,
	.operand_hint = "the file is given with -i",
};

int cmd_script(int argc, char **argv)
{
	struct script_state st = { .fields = { DEFAULT_FIELDS, TRACEPOINT_FIELDS }, .out = stdout };
	struct perfev_symbolizer *sy = NULL;
	struct cli_args a = { 0 };
	const char *input;
	int ret, err;

	/*
	 * Into a file or pipe, a sample's text goes out in big blocks: with
	 * stdio's 4 KB buffer, every deep call chain cost a write(2) or two.
	 */
	cli_stdout_buffered();
	if (!opt_parse(&script_cmd, argc, argv, &a, &st, &ret))
		goto out;
	ret = 1;
	input = a.input ? a.input : PERFEV_DATA_FILE_DEFAULT;
	st.max_stack = (unsigned)a.max_stack;
	st.s = cli_session_open(input, a.no_demangle, &a.quiet, NULL, &sy);
	if (!st.s)
		goto out;
	st.tt = trace_text_new(st.s);
	if (!st.tt) {
		cli_error("out of memory reading '%s'", input);
		goto out;
	}
	err = perfev_session__process(st.s, on_sample, &st);
	if (fflush(stdout) || err == -EIO) {
		int e = errno ? errno : EIO;

		if (e != EPIPE)
			cli_error("cannot write to standard output: %s%s", strerror(e),
				  cli_write_hint(e));
		goto out;
	}
	if (err == -ENOMEM) {
		cli_error("out of memory reading '%s'", input);
		goto out;
	}
	if (err < 0) {
		cli_error("'%s' is damaged: %s; the samples before that point were printed", input,
			  perfev_last_error());
		goto out;
	}
	ret = 0;
out:
	perfev_session__delete(st.s);
	perfev_symbolizer__delete(sy);
	trace_text_delete(st.tt);
	free(st.ob.p);
	free(st.sym_lens);
	cli_args__free(&a);
	return ret;
}
