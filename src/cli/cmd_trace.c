/* SPDX-License-Identifier: MIT */
/*
 * perfev trace -s: each thread's syscalls (calls, errors, total, min, avg
 * and max latency), as perf trace -s shows them, from the
 * raw_syscalls:sys_enter and sys_exit tracepoints: live from the rings
 * while a command or a process runs, or from a recording (-i).  The
 * library pairs and counts (syscalls/); this drives the rings, puts their
 * records back in time order and prints.
 */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "opt.h"
#include "record.h"
#include "run.h"
#include "sigwait.h"

#define TRACE_EVENTS "raw_syscalls:sys_enter,raw_syscalls:sys_exit"
#define RAW_MAX 128

struct trace_opts {
	bool summary;
	long mmap_pages;
};

static const struct opt trace_table[] = {
	{ 's', "summary", .help = "each thread's syscalls: calls, errors, total/min/avg/max time "
				  "(what perfev trace prints; required)" },
	OPT_GROUP_ONLY(opt_target, "p"),
	OPT_GROUP(opt_input),
	OPT_HELP('i', "read a recording of raw_syscalls:sys_enter and sys_exit instead of tracing "
		      "('-' a pipe-mode stream)"),
	OPT_GROUP(opt_output),
	OPT_HELP('o', "write the summary to FILE (default: standard error, as perf trace)"),
	{ 'm', "mmap-pages", .arg = "PAGES", .help = "ring buffer pages per CPU, a power of two "
						      "(default 256)" },
	OPT_GROUP(opt_verbosity),
	OPT_END,
};

static bool set_option(void *ctx, int key, const char *arg)
{
	struct trace_opts *o = ctx;

	if (key == 's') {
		o->summary = true;
		return true;
	}
	if (!cli_parse_long("-m", arg, 1, 1 << 20, &o->mmap_pages))
		return false;
	if (o->mmap_pages & (o->mmap_pages - 1)) {
		cli_error("-m expects a power of two of pages, not %ld", o->mmap_pages);
		return false;
	}
	return true;
}

const struct opt_cmd trace_cmd = {
	.name = "trace",
	.summary = "each thread's syscalls of a command or a process: calls, errors and latency, as "
		   "perf trace -s",
	.verb = "trace",
	.synopsis = "-s [-p PID | -i FILE] [-o FILE] [-m PAGES] [-q] [-v] [-- COMMAND [ARGS...]]",
	.opts = trace_table,
	.set = set_option,
	.operands = OPERANDS_COMMAND,
	.operand_comp = COMP_COMMAND,
};

/* perf trace -s's layout. */
static void print_summary(struct perfev_syscall_stats *st, const char *arch, FILE *f)
{
	uint64_t total = perfev_syscall_stats__nr_events(st);

	fprintf(f, "\n Summary of events:\n\n");
	for (size_t i = 0; i < perfev_syscall_stats__nr_threads(st); i++) {
		const struct perfev_syscall_thread *t = perfev_syscall_stats__thread(st, i);
		char tid_name[24];

		snprintf(tid_name, sizeof(tid_name), ":%d", t->tid);
		fprintf(f, " %s (%d), %" PRIu64 " events, %.1f%%\n", t->comm ? t->comm : tid_name,
			t->tid, t->nr_events,
			total ? (double)t->nr_events / (double)total * 100.0 : 0.0);
		fprintf(f, "\n");
		fprintf(f, "   syscall            calls  errors  total       min       avg       max   "
			   "    stddev\n");
		fprintf(f, "                                     (msec)    (msec)    (msec)    (msec)  "
			   "      (%%)\n");
		fprintf(f, "   --------------- --------  ------ -------- --------- --------- ---------  "
			   "   ------\n");
		for (size_t k = 0; k < t->nr_syscalls; k++) {
			const struct perfev_syscall_stat *s = &t->syscalls[k];
			const char *name = perfev_syscall__name(arch, s->nr);
			char unknown[32];

			if (!name) {
				snprintf(unknown, sizeof(unknown), "syscall_%ld", s->nr);
				name = unknown;
			}
			fprintf(f, "   %-15s", name);
			fprintf(f, " %8" PRIu64 " %6" PRIu64 " %9.3f %9.3f %9.3f", s->calls, s->errors,
				(double)s->total_ns / 1e6, (double)s->min_ns / 1e6, s->mean_ns / 1e6);
			fprintf(f, " %9.3f %9.2f%%\n", (double)s->max_ns / 1e6,
				perfev_syscall_stat__stddev_pct(s));
		}
		fprintf(f, "\n\n");
	}
}

/* -i: a recording's raw_syscalls samples, in time order. */
struct from_file {
	struct perfev_session *s;
	struct perfev_syscall_stats *st;
	struct perfev_tracefmt *tf;
	bool loaded, any;
};

static int file_sample(void *ctx, const struct perfev_session_sample *ss)
{
	struct from_file *ff = ctx;
	const struct perfev_sample *sm = &ss->ev->rec.sample;
	struct perfev_data_reader *r = perfev_session__reader(ff->s);
	const struct perf_event_attr *a = ss->evsel >= 0 ? perfev_data_reader__attr(r, ss->evsel)
							 : NULL;
	const struct perfev_tp_format *f;
	int err;

	if (!a || a->type != PERF_TYPE_TRACEPOINT || !(sm->sample_type & PERF_SAMPLE_RAW))
		return 0;
	if (!ff->loaded) {
		const void *data;
		size_t size;

		ff->loaded = true;
		if (perfev_data_reader__feature(r, PERFEV_FEAT_TRACING_DATA, &data, &size) < 0)
			return -PERFEV_ERR_FORMAT;
		err = perfev_tracefmt__add_tracing_data(ff->tf, data, size);
		if (err < 0)
			return err;
	}
	f = perfev_tracefmt__find_id(ff->tf, a->config);
	if (!f)
		return 0;
	err = perfev_syscall_stats__sample(ff->st, f, perfev_thread__pid(ss->thread),
					   perfev_thread__tid(ss->thread), sm->time, sm->raw.data,
					   sm->raw.size);
	if (err > 0) {
		ff->any = true;
		err = perfev_syscall_stats__comm(ff->st, perfev_thread__pid(ss->thread),
						 perfev_thread__tid(ss->thread),
						 perfev_thread__comm(ss->thread));
	}
	return err < 0 ? err : 0;
}

/* The recording's architecture decides the syscall numbers: *st is made once it is known. */
static int trace_file(const char *input, bool quiet, struct perfev_syscall_stats **st,
		      const char **arch)
{
	struct from_file ff = { 0 };
	struct perfev_symbolizer *sy = NULL;
	static char arch_buf[64];
	const char *a;
	int err, ret = -1;

	ff.tf = perfev_tracefmt__new();
	ff.s = ff.tf ? cli_session_open_first_frame(input, false, &quiet, NULL, &sy) : NULL;
	if (!ff.s)
		goto out;
	a = perfev_data_reader__feat_string(perfev_session__reader(ff.s), PERFEV_FEAT_ARCH);
	if (a) {
		snprintf(arch_buf, sizeof(arch_buf), "%s", a);
		*arch = arch_buf;
	}
	ff.st = *st = perfev_syscall_stats__new(*arch);
	if (!ff.st) {
		cli_error("out of memory");
		goto out;
	}
	err = perfev_session__process(ff.s, file_sample, &ff);
	if (err == -PERFEV_ERR_FORMAT && !ff.any && ff.loaded && !perfev_last_error()[0])
		cli_error("'%s' has tracepoint samples but no tracing data to read them with", input);
	else if (err < 0)
		cli_error("'%s': %s", input, perfev_last_error());
	else if (!ff.any)
		cli_error("'%s' has no raw_syscalls:sys_enter or sys_exit samples; record them with "
			  "'perfev record -e %s'", input, TRACE_EVENTS);
	else
		ret = 0;
out:
	if (!ff.tf)
		cli_error("out of memory");
	if (ret < 0) {
		perfev_syscall_stats__delete(*st);
		*st = NULL;
	}
	perfev_session__delete(ff.s);
	perfev_symbolizer__delete(sy);
	perfev_tracefmt__delete(ff.tf);
	return ret;
}

/* Live: what the rings gave, queued until no ring can hold anything older. */
enum { Q_SAMPLE, Q_COMM, Q_FORK };

struct qent {
	uint64_t time, seq;
	int kind;
	int pid, tid, ptid;
	const struct perfev_tp_format *f;
	uint32_t raw_size;
	unsigned char raw[RAW_MAX];
	char comm[16];
};

struct live {
	struct perfev_evlist *el;
	struct perfev_evsel *enter, *exit;
	const struct perfev_tp_format *f_enter, *f_exit;
	struct perfev_sample_fmt fmt;
	struct perfev_syscall_stats *st;
	struct perfev_tracefmt *tf;
	struct cli_run run;
	struct qent *q;
	size_t nr_q, cap_q;
	uint64_t seq, prev_round_max, round_max;
	uint64_t bad_records;
};

static struct qent *queue_add(struct live *l, uint64_t time)
{
	struct qent *e;

	if (l->nr_q == l->cap_q) {
		size_t cap = l->cap_q ? l->cap_q * 2 : 4096;
		struct qent *n = realloc(l->q, cap * sizeof(*n));

		if (!n)
			return NULL;
		l->q = n;
		l->cap_q = cap;
	}
	e = &l->q[l->nr_q++];
	memset(e, 0, offsetof(struct qent, raw));
	e->time = time;
	e->seq = l->seq++;
	if (time > l->round_max)
		l->round_max = time;
	return e;
}

static int take_record(struct live *l, const void *rec, size_t size)
{
	struct perfev_record r;
	struct qent *e;

	if (perfev_record__parse(&l->fmt, rec, size, &r) < 0) {
		l->bad_records++;
		return 0;
	}
	switch (r.type) {
	case PERF_RECORD_SAMPLE: {
		struct perfev_evsel *ev = perfev_evlist__evsel_by_id(l->el, r.sample.identifier);

		if (ev != l->enter && ev != l->exit)
			return 0;
		if (!(e = queue_add(l, r.sample.time)))
			return -ENOMEM;
		e->kind = Q_SAMPLE;
		e->pid = (int)r.sample.pid;
		e->tid = (int)r.sample.tid;
		e->f = ev == l->enter ? l->f_enter : l->f_exit;
		e->raw_size = r.sample.raw.size < RAW_MAX ? r.sample.raw.size : RAW_MAX;
		memcpy(e->raw, r.sample.raw.data, e->raw_size);
		return 0;
	}
	case PERF_RECORD_COMM:
		if (!(e = queue_add(l, r.has_sample_id ? r.sample_id.time : l->round_max)))
			return -ENOMEM;
		e->kind = Q_COMM;
		e->pid = (int)r.comm.pid;
		e->tid = (int)r.comm.tid;
		snprintf(e->comm, sizeof(e->comm), "%s", r.comm.comm);
		return 0;
	case PERF_RECORD_FORK:
		if (!(e = queue_add(l, r.task.time)))
			return -ENOMEM;
		e->kind = Q_FORK;
		e->pid = (int)r.task.pid;
		e->tid = (int)r.task.tid;
		e->ptid = (int)r.task.ptid;
		return 0;
	default:
		return 0;
	}
}

static int by_time(const void *a, const void *b)
{
	const struct qent *x = a, *y = b;

	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* -p's threads, there before tracing began, are named by /proc (later ones by FORK and COMM). */
static void names_from_proc(struct live *l, int pid)
{
	char path[64];
	struct dirent *de;
	DIR *d;

	snprintf(path, sizeof(path), "/proc/%d/task", pid);
	d = opendir(path);
	if (!d)
		return;
	while ((de = readdir(d))) {
		char comm[32] = "", cpath[96];
		int tid = atoi(de->d_name);
		FILE *f;

		if (tid <= 0)
			continue;
		snprintf(cpath, sizeof(cpath), "/proc/%d/task/%d/comm", pid, tid);
		f = fopen(cpath, "re");
		if (!f)
			continue;
		if (fgets(comm, sizeof(comm), f)) {
			comm[strcspn(comm, "\n")] = '\0';
			perfev_syscall_stats__comm(l->st, pid, tid, comm);
		}
		fclose(f);
	}
	closedir(d);
}

/* Hands the queued records up to limit (all with UINT64_MAX) to the statistics, in time order. */
static int flush(struct live *l, uint64_t limit)
{
	size_t n = 0, k;
	int err = 0;

	qsort(l->q, l->nr_q, sizeof(*l->q), by_time);
	for (; n < l->nr_q && l->q[n].time <= limit && !err; n++) {
		const struct qent *e = &l->q[n];

		if (e->kind == Q_COMM)
			err = perfev_syscall_stats__comm(l->st, e->pid, e->tid, e->comm);
		else if (e->kind == Q_FORK)
			err = perfev_syscall_stats__fork(l->st, e->ptid, e->pid, e->tid);
		else
			err = perfev_syscall_stats__sample(l->st, e->f, e->pid, e->tid, e->time, e->raw,
							   e->raw_size);
		if (err == -PERFEV_ERR_FORMAT) {
			l->bad_records++;
			err = 0;
		}
		if (err > 0) /* counted */
			err = 0;
	}
	k = l->nr_q - n;
	memmove(l->q, l->q + n, k * sizeof(*l->q));
	l->nr_q = k;
	return err < 0 ? err : 0;
}

/* Reads every ring; a round's records are handed on once the next round has been read. */
static int drain(struct live *l)
{
	int err = 0;

	for (int i = 0; i < perfev_evlist__nr_rings(l->el) && !err; i++) {
		struct perfev_ring *r = perfev_evlist__ring(l->el, i);
		const void *rec;
		size_t size;

		while (!err && perfev_ring__read_start(r) > 0) {
			int got;

			while (!err && (got = perfev_ring__next(r, &rec, &size)) > 0)
				err = take_record(l, rec, size);
			perfev_ring__read_done(r);
		}
	}
	if (!err)
		err = flush(l, l->prev_round_max);
	l->prev_round_max = l->round_max;
	return err;
}

static int live_open(struct live *l, const struct cli_args *a, long pages)
{
	struct record_opts ro = { .period = 1, .mmap_pages = pages, .target = a->target,
				  .quiet = a->quiet };
	struct perfev_cpu_map *online = perfev_cpu_map__new(NULL);
	struct perfev_open_opts oo = { .sz = sizeof(oo), .cpu_map = online };
	struct perfev_mmap_opts mo = { .sz = sizeof(mo), .data_pages = (size_t)pages };
	int ret = -1;

	l->tf = perfev_tracefmt__new();
	l->el = perfev_evlist__new();
	if (!online || !l->tf || !l->el) {
		cli_error("%s", online ? "out of memory" : perfev_last_error());
		goto out;
	}
	if (perfev_evlist__add_events(l->el, TRACE_EVENTS) < 0 ||
	    perfev_tracefmt__add_tracefs(l->tf, "raw_syscalls", "sys_enter") < 0 ||
	    perfev_tracefmt__add_tracefs(l->tf, "raw_syscalls", "sys_exit") < 0) {
		cli_error("%s", perfev_last_error());
		goto out;
	}
	l->enter = perfev_evlist__next_evsel(l->el, NULL);
	l->exit = perfev_evlist__next_evsel(l->el, l->enter);
	l->f_enter = perfev_tracefmt__find_id(l->tf, perfev_evsel__attr(l->enter)->config);
	l->f_exit = perfev_tracefmt__find_id(l->tf, perfev_evsel__attr(l->exit)->config);
	if (!l->f_enter || !l->f_exit) {
		cli_error("the raw_syscalls tracepoints' formats changed while being read; try again");
		goto out;
	}
	if (record_config_evlist(l->el, &ro) < 0)
		goto out;
	cli_target__open_opts(&a->target, l->run.child, true, &oo);
	if (perfev_evlist__open(l->el, &oo) < 0 || perfev_evlist__mmap(l->el, &mo) < 0 ||
	    perfev_sample_fmt__from_attr(perfev_evsel__attr(l->enter), &l->fmt) < 0) {
		cli_error("%s", perfev_last_error());
		goto out;
	}
	if (perfev_evlist__add_pollfd(l->el, sigwait_fd) < 0 ||
	    (l->run.pidfd >= 0 && perfev_evlist__add_pollfd(l->el, l->run.pidfd) < 0)) {
		cli_error("%s", perfev_last_error());
		goto out;
	}
	ret = 0;
out:
	perfev_cpu_map__delete(online);
	return ret;
}

/* Traces until the command or process ends (or a signal ends tracing); the exit status. */
static int trace_live(const struct cli_args *a, const struct trace_opts *o,
		      struct perfev_syscall_stats *st, int *sig)
{
	struct live l = { .st = st, .run = { .pidfd = -1 } };
	int ret = 1, err = 0;

	if (sigwait_install()) {
		cli_error("cannot set up: %s", strerror(errno));
		return 1;
	}
	if (!cli_run__prepare(&l.run, a->operands, (pid_t)a->target.pid) ||
	    live_open(&l, a, o->mmap_pages) < 0)
		goto out;
	if (a->target.pid)
		names_from_proc(&l, (int)a->target.pid);
	ret = cli_run__start(&l.run);
	if (ret)
		goto out;
	for (;;) {
		int n = perfev_evlist__poll(l.el, 1000, NULL);

		if (n < 0 && n != -EINTR) {
			cli_error("waiting for the rings failed: %s", strerror(-n));
			err = -1;
			break;
		}
		err = drain(&l);
		sigwait_drain();
		if (err || cli_run__ended(&l.run))
			break;
		*sig = cli_run__take_signal(&l.run);
		if (*sig && l.run.child <= 0)
			break;
	}
	cli_run__reap(&l.run, true);
	perfev_evlist__disable(l.el);
	if (!err)
		err = drain(&l);
	if (!err)
		err = flush(&l, UINT64_MAX);
	if (err == -ENOMEM)
		cli_error("out of memory");
	for (int i = 0; i < perfev_evlist__nr_rings(l.el); i++) {
		struct perfev_ring_stats rs;

		perfev_ring__stats(perfev_evlist__ring(l.el, i), &rs);
		if ((rs.lost || rs.lost_samples) && !a->quiet)
			cli_note("the kernel dropped %" PRIu64 " records of CPU %d's ring: the "
				 "counts are short; try -m with more pages",
				 rs.lost + rs.lost_samples, perfev_evlist__ring_cpu(l.el, i));
	}
	if (l.bad_records && !a->quiet)
		cli_note("%" PRIu64 " records could not be read and were left out", l.bad_records);
	ret = err ? 1 : cli_run__exit_status(&l.run);
out:
	cli_run__close(&l.run);
	perfev_evlist__delete(l.el);
	perfev_tracefmt__delete(l.tf);
	free(l.q);
	return ret;
}

int cmd_trace(int argc, char **argv)
{
	struct trace_opts o = { .mmap_pages = 256 };
	struct cli_args a = { 0 };
	struct perfev_syscall_stats *st = NULL;
	const char *arch = NULL;
	FILE *out = stderr;
	int ret, sig = 0;

	if (!opt_parse(&trace_cmd, argc, argv, &a, &o, &ret))
		goto out;
	ret = 1;
	if (!o.summary) {
		cli_error("perfev trace prints the summary of each thread's syscalls only: give -s");
		goto out;
	}
	if (a.input && (a.nr_operands || a.target.pid)) {
		cli_error("-i reads a recording: no command or -p with it");
		goto out;
	}
	if (!a.input && !cli_target__check(&a.target, &trace_cmd, a.operands, 0))
		goto out;
	if (a.output && !(out = fopen(a.output, "we"))) {
		cli_error("cannot open '%s' for writing: %s", a.output, strerror(errno));
		goto out;
	}
	if (a.input)
		ret = trace_file(a.input, a.quiet, &st, &arch) < 0 ? 1 : 0;
	else if (!(st = perfev_syscall_stats__new(NULL)))
		cli_error("out of memory");
	else
		ret = trace_live(&a, &o, st, &sig);
	if (!st)
		goto out;
	if (!perfev_syscall__have_arch(arch) && !a.quiet)
		cli_note("no syscall table for %s here: syscalls are shown by number",
			 arch ? arch : "this machine");
	print_summary(st, arch, out);
	if (!cli_stream_ok(out, a.output ? a.output : "standard error"))
		ret = 1;
out:
	if (out && out != stderr && fclose(out) != 0 && ret == 0) {
		cli_error("cannot write '%s': %s", a.output, strerror(errno));
		ret = 1;
	}
	perfev_syscall_stats__delete(st);
	cli_args__free(&a);
	if (sig)
		sigwait_reraise(sig);
	return ret;
}
