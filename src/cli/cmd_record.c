/* SPDX-License-Identifier: MIT */
/* perfev record: sample a command, a process, or CPUs into perf.data. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "opt.h"
#include "record.h"

static bool parse_callgraph(struct record_opts *o, const char *s)
{
	if (!strcmp(s, "fp")) {
		o->callgraph = CG_FP;
		return true;
	}
	if (!strncmp(s, "dwarf", 5) && (s[5] == 0 || s[5] == ',')) {
		o->callgraph = CG_DWARF;
		if (s[5] == ',') {
			/* A sample is at most 64 KiB, headers and registers included. */
			if (!cli_parse_long("--call-graph dwarf,SIZE", s + 6, 8, 65000, &o->stack_size))
				return false;
			o->stack_size = (o->stack_size + 7) & ~7l;
		}
		return true;
	}
	cli_error("--call-graph expects fp or dwarf[,SIZE], not '%s'", s);
	return false;
}

/* PAGES, or a byte size with a K/M/G suffix; a power of two either way. */
static bool parse_mmap_pages(const char *s, long *pages)
{
	long page = sysconf(_SC_PAGESIZE);
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || end == s)
		goto bad;
	if (*end) {
		unsigned shift = 0;

		switch (*end) {
		case 'K': case 'k': shift = 10; break;
		case 'M': case 'm': shift = 20; break;
		case 'G': case 'g': shift = 30; break;
		default: goto bad;
		}
		if (end[1] && !((end[1] == 'B' || end[1] == 'b') && !end[2]))
			goto bad;
		if (v > (1ull << 40) >> shift)
			goto bad;
		v = (v << shift) / (unsigned long long)page;
	}
	if (!v || v > (1ull << 24) || (v & (v - 1)))
		goto bad;
	*pages = (long)v;
	return true;
bad:
	cli_error("-m expects a power of two of pages (e.g. 128) or a size such as 512K or 4M "
		  "that makes one, not '%s'",
		  s);
	return false;
}

enum { OPT_CALLGRAPH = 256, OPT_LEVEL, OPT_TIMEOUT, OPT_OFF_CPU, OPT_OFF_CPU_THRESH };

static const struct opt record_table[] = {
	OPT_GROUP(opt_events),
	OPT_HELP('e', "events to sample, comma-separated; {a,b}:S samples a group whose every sample "
		      "carries all its counts (default: cycles, or cpu-clock without a PMU)"),
	{ 'F', "freq", .arg = "HZ", .help = "samples per second per event (default 4000)" },
	{ 'c', "count", .arg = "PERIOD", .help = "a sample every PERIOD events instead" },
	{ 'g', .help = "record call graphs (frame pointers)" },
	{ OPT_CALLGRAPH, "call-graph", .arg = "MODE", .comp = COMP_WORD, .words = "fp,dwarf",
	  .help = "fp, or dwarf[,SIZE]: copy SIZE bytes of user stack (default 8192) for DWARF "
		  "unwinding" },
	OPT_GROUP_ONLY(opt_target, "ptaC"),
	{ OPT_TIMEOUT, "timeout", .arg = "MS",
	  .help = "stop sampling after MS milliseconds (a command is sent SIGTERM), as perf stat's" },
	{ OPT_OFF_CPU, "off-cpu",
	  .help = "also record where threads wait: every switch-out (sched:sched_switch) with its "
		  "stack and the state it left in, and when the thread runs again (implies -g)" },
	{ OPT_OFF_CPU_THRESH, "off-cpu-thresh", .arg = "TIME",
	  .help = "with --off-cpu, leave out waits shorter than TIME (500us, 2ms, 1s; a number "
		  "alone is ms), most of them before they are written" },
	{ 'm', "mmap-pages", .arg = "PAGES",
	  .help = "ring buffer size per CPU: pages (a power of two) or a size such as 512K or 4M "
		  "(default 128 pages)" },
	{ 'z', "compress", .help = "compress the data with zstd (as perf record -z)" },
	{ OPT_LEVEL, "compression-level", .arg = "N", .help = "zstd level 1-22" },
	OPT_GROUP(opt_output),
	OPT_HELP('o', "write to FILE (default perf.data, the old one kept as perf.data.old); '-' "
		      "writes a pipe-mode stream"),
	{ 'i', "no-inherit", .help = "do not sample the command's child processes" },
	{ 'N', "no-buildid-cache",
	  .help = "do not keep the files with samples in the build-id cache ($PERFEV_BUILDID_DIR, "
		  "perf's buildid.dir, or ~/.debug), where reports find them after a rebuild" },
	OPT_GROUP(opt_verbosity),
	OPT_HELP('q', "no summary line and no notes"),
	OPT_END,
};

static bool set_option(void *ctx, int key, const char *arg)
{
	struct record_opts *o = ctx;
	long level;

	switch (key) {
	case 'F':
		o->freq_given = true;
		return cli_parse_long("-F", arg, 1, 10000000, &o->freq);
	case 'c':
		return cli_parse_long("-c", arg, 1, LONG_MAX, &o->period);
	case 'g':
		o->callgraph = CG_FP;
		return true;
	case OPT_CALLGRAPH:
		return parse_callgraph(o, arg);
	case 'm':
		return parse_mmap_pages(arg, &o->mmap_pages);
	case 'z':
		if (!o->compress_level)
			o->compress_level = 1;
		return true;
	case OPT_LEVEL:
		if (!cli_parse_long("--compression-level", arg, 1, 22, &level))
			return false;
		o->compress_level = (int)level;
		return true;
	case 'i':
		o->no_inherit = true;
		return true;
	case 'N':
		o->no_buildid_cache = true;
		return true;
	case OPT_TIMEOUT:
		return cli_parse_long("--timeout", arg, 10, 86400000L * 365, &o->timeout_ms);
	case OPT_OFF_CPU:
		o->off_cpu = true;
		return true;
	case OPT_OFF_CPU_THRESH:
		return cli_parse_duration("--off-cpu-thresh", arg, &o->off_cpu_thresh_ns);
	}
	return false;
}

const struct opt_cmd record_cmd = {
	.name = "record",
	.summary = "sample a command, a process, or CPUs into perf.data",
	.verb = "sample",
	.synopsis = "[-e EVENTS] [-F HZ | -c PERIOD] [-g | --call-graph fp|dwarf[,SIZE]] "
		    "[-p PID | -t TID | -a | -C CPUS] [--timeout MS] [--off-cpu [--off-cpu-thresh TIME]] "
		    "[-m PAGES] [-z] [-o FILE | -o -] [-i] [-q] [-v] "
		    "[-- COMMAND [ARGS...]]",
	.opts = record_table,
	.set = set_option,
	.operands = OPERANDS_COMMAND,
	.operand_comp = COMP_COMMAND,
};

static bool parse_args(int argc, char **argv, struct record_opts *o, struct cli_args *a, int *ret)
{
	o->freq = 4000;
	o->mmap_pages = 128;
	o->stack_size = 8192;
	if (!opt_parse(&record_cmd, argc, argv, a, o, ret))
		return false;
	*ret = 1;
	if (o->period && o->freq_given) {
		cli_error("-F and -c are alternatives: sample by frequency or every PERIOD events");
		return false;
	}
	if (o->period)
		o->freq = 0;
	if (o->off_cpu_thresh_ns && !o->off_cpu) {
		cli_error("--off-cpu-thresh is a threshold of --off-cpu; give both");
		return false;
	}
	if (o->off_cpu && a->events && strstr(a->events, "sched_switch")) {
		cli_error("--off-cpu records sched:sched_switch itself; leave it out of -e");
		return false;
	}
	/* Off-CPU time is told by where the thread waited: its stack. */
	if (o->off_cpu && o->callgraph == CG_NONE)
		o->callgraph = CG_FP;
	long max = record_max_sample_rate();

	if (o->freq_given && max > 0 && o->freq > max) {
		if (!a->quiet)
			cli_note("-F %ld is above the kernel's limit of %ld samples/s "
				 "(kernel.perf_event_max_sample_rate); using %ld",
				 o->freq, max, max);
		o->freq = max;
	}
	if (!cli_target__check(&a->target, &record_cmd, a->operands, 0))
		return false;
	/* What the recording reads, by the names it reads them. */
	o->events = a->events;
	o->target = a->target;
	o->output = a->output;
	o->quiet = a->quiet;
	o->argv = a->operands;
	return true;
}

int cmd_record(int argc, char **argv)
{
	struct record_opts o = { 0 };
	struct cli_args a = { 0 };
	int ret;

	if (parse_args(argc, argv, &o, &a, &ret)) {
		/* main() passes argv from the subcommand on; the program name sits before it. */
		o.argc = argc + 1;
		o.full_argv = argv - 1;
		ret = record_run(&o);
	}
	cli_args__free(&a);
	return ret;
}
