/* SPDX-License-Identifier: MIT */
/* perfev record: sample a command, a process, or CPUs into perf.data. */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "record.h"

static const char record_usage[] =
	"usage: perfev record [-e EVENTS] [-F HZ | -c PERIOD] [-g | --call-graph fp|dwarf[,SIZE]]\n"
	"                     [-p PID | -a | -C CPUS] [-m PAGES] [-z] [-o FILE | -o -]\n"
	"                     [-- COMMAND [ARGS...]]\n"
	"\n"
	"    -e, --event EVENTS        events to sample, comma-separated; {a,b}:S samples a\n"
	"                              group whose every sample carries all its counts\n"
	"                              (default: cycles, or cpu-clock without a PMU)\n"
	"    -F, --freq HZ             samples per second per event (default 4000)\n"
	"    -c, --count PERIOD        a sample every PERIOD events instead\n"
	"    -g                        record call graphs (frame pointers)\n"
	"        --call-graph MODE     fp, or dwarf[,SIZE]: copy SIZE bytes of user stack\n"
	"                              (default 8192) for DWARF unwinding\n"
	"    -p, --pid PID             sample an existing process (all its threads)\n"
	"    -a, --all-cpus            sample everything on every CPU\n"
	"    -C, --cpu CPUS            sample everything on these CPUs (e.g. 0-3,6)\n"
	"    -m, --mmap-pages PAGES    ring buffer size per CPU: pages (a power of two)\n"
	"                              or a size such as 512K or 4M (default 128 pages)\n"
	"    -z, --compress            compress the data with zstd (as perf record -z)\n"
	"        --compression-level N zstd level 1-22\n"
	"    -o, --output FILE         write to FILE (default perf.data, the old one kept\n"
	"                              as perf.data.old); '-' writes a pipe-mode stream\n"
	"    -i, --no-inherit          do not sample the command's child processes\n"
	"    -q, --quiet               no summary line and no notes\n"
	"    -v, --verbose             explain what is done\n"
	"    -h, --help                show this help\n";

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

static bool parse_args(int argc, char **argv, struct record_opts *o, int *ret)
{
	enum { OPT_CALLGRAPH = 256, OPT_LEVEL };
	static const struct option longopts[] = {
		{ "event", required_argument, NULL, 'e' },
		{ "freq", required_argument, NULL, 'F' },
		{ "count", required_argument, NULL, 'c' },
		{ "call-graph", required_argument, NULL, OPT_CALLGRAPH },
		{ "pid", required_argument, NULL, 'p' },
		{ "all-cpus", no_argument, NULL, 'a' },
		{ "cpu", required_argument, NULL, 'C' },
		{ "mmap-pages", required_argument, NULL, 'm' },
		{ "compress", no_argument, NULL, 'z' },
		{ "compression-level", required_argument, NULL, OPT_LEVEL },
		{ "output", required_argument, NULL, 'o' },
		{ "no-inherit", no_argument, NULL, 'i' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	long level;
	int c;

	o->freq = 4000;
	o->pid = -1;
	o->mmap_pages = 128;
	o->stack_size = 8192;
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "+e:F:c:gp:aC:m:zo:iqvh", longopts, NULL)) != -1) {
		switch (c) {
		case 'e':
			if (!cli_append_list(&o->events, optarg))
				goto bad;
			break;
		case 'F':
			if (!cli_parse_long("-F", optarg, 1, 10000000, &o->freq))
				goto bad;
			o->freq_given = true;
			break;
		case 'c':
			if (!cli_parse_long("-c", optarg, 1, LONG_MAX, &o->period))
				goto bad;
			break;
		case 'g':
			o->callgraph = CG_FP;
			break;
		case OPT_CALLGRAPH:
			if (!parse_callgraph(o, optarg))
				goto bad;
			break;
		case 'p':
			if (!cli_parse_long("-p", optarg, 1, INT32_MAX, &o->pid))
				goto bad;
			break;
		case 'a':
			o->all_cpus = true;
			break;
		case 'C':
			o->cpus = optarg;
			break;
		case 'm':
			if (!parse_mmap_pages(optarg, &o->mmap_pages))
				goto bad;
			break;
		case 'z':
			if (!o->compress_level)
				o->compress_level = 1;
			break;
		case OPT_LEVEL:
			if (!cli_parse_long("--compression-level", optarg, 1, 22, &level))
				goto bad;
			o->compress_level = (int)level;
			break;
		case 'o':
			o->output = optarg;
			break;
		case 'i':
			o->no_inherit = true;
			break;
		case 'q':
			o->quiet = true;
			break;
		case 'v':
			o->verbose = true;
			break;
		case 'h':
			fputs(record_usage, stdout);
			*ret = 0;
			return false;
		default:
			if (optopt && strchr("eFcpCmo", optopt))
				cli_error("option -%c needs a value; see 'perfev record --help'", optopt);
			else
				cli_error("unknown option '%s'; see 'perfev record --help'",
					  argv[optind - 1]);
			goto bad;
		}
	}
	o->argv = argv + optind;
	if (o->period && o->freq_given) {
		cli_error("-F and -c are alternatives: sample by frequency or every PERIOD events");
		goto bad;
	}
	if (o->period)
		o->freq = 0;
	if (o->pid > 0 && o->argv[0]) {
		cli_error("-p samples an existing process; it cannot be combined with a command");
		goto bad;
	}
	if (o->pid > 0 && (o->all_cpus || o->cpus)) {
		cli_error("-p samples one process; it cannot be combined with -a or -C");
		goto bad;
	}
	if (!o->argv[0] && o->pid <= 0 && !o->all_cpus && !o->cpus) {
		cli_error("nothing to sample: give a command, -p PID, -a or -C CPUS; "
			  "see 'perfev record --help'");
		goto bad;
	}
	return true;
bad:
	*ret = 1;
	return false;
}

int cmd_record(int argc, char **argv)
{
	struct record_opts o = { 0 };
	int ret = 0;

	if (parse_args(argc, argv, &o, &ret)) {
		if (o.verbose)
			perfev_set_print(cli_vprint);
		/* main() passes argv from the subcommand on; the program name sits before it. */
		o.argc = argc + 1;
		o.full_argv = argv - 1;
		ret = record_run(&o);
	}
	free(o.events);
	return ret;
}
