/* SPDX-License-Identifier: MIT */
/*
 * perfev record: open the events, map their rings, write perf.data and
 * drain the rings into it until the command ends or a signal says stop.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "record.h"
#include "run.h"
#include "sigwait.h"

struct session {
	struct record_opts *o;
	struct perfev_evlist *el;
	struct perfev_data_writer *w;
	struct perfev_sample_fmt fmt0; /* the first event's layout, for side-band records */
	struct record_output out;
	const char *path;
	struct cli_run run; /* the command, or -p's process */
	bool failed;	   /* a write or a ring failed: stop recording */
	bool timed_out;	   /* --timeout ended the recording */
	uint64_t samples;  /* PERF_RECORD_SAMPLE records of the rounds written */
	uint64_t round_samples; /* those of the round being written */
	uint64_t first_time, last_time; /* of the samples, for HEADER_SAMPLE_TIME */
	uint64_t rounds;
	unsigned char *synth;
	size_t synth_len, synth_cap;
	struct lost_sum *lost; /* per event, from the kernel's LOST records */
};

/* What the kernel's PERF_RECORD_LOST records said one event lost, and the last one's trailer. */
struct lost_sum {
	uint64_t lost;
	struct perfev_sample_id sid;
};

static void note_build_id(struct session *s, const void *rec, size_t size)
{
	struct perfev_record r;

	if (perfev_record__parse(&s->fmt0, rec, size, &r) < 0)
		return;
	if (r.type != PERF_RECORD_MMAP2 || !(r.misc & PERF_RECORD_MISC_MMAP_BUILD_ID) ||
	    !r.mmap2.build_id_size)
		return;
	perfev_data_writer__add_build_id(s->w, (int32_t)r.mmap2.pid,
					 r.misc & PERF_RECORD_MISC_CPUMODE_MASK, r.mmap2.build_id,
					 r.mmap2.build_id_size, r.mmap2.filename);
}

static void note_lost(struct session *s, const void *rec, size_t size)
{
	struct perfev_record r;
	struct perfev_evsel *ev;

	if (!s->lost || perfev_record__parse(&s->fmt0, rec, size, &r) < 0 ||
	    !(ev = perfev_evlist__evsel_by_id(s->el, r.lost.id)))
		return;
	s->lost[perfev_evsel__idx(ev)].lost += r.lost.lost;
	s->lost[perfev_evsel__idx(ev)].sid = r.sample_id;
}

/* A sample's time: after its header, IDENTIFIER, IP and TID. */
#define SAMPLE_TIME_AT (sizeof(struct perf_event_header) + 3 * sizeof(uint64_t))

/* The records the summary, the build-id table and the lost samples need, as the writer passes them. */
static int seen(const void *rec, size_t size, void *ctx)
{
	struct session *s = ctx;
	struct perf_event_header h;

	memcpy(&h, rec, sizeof(h));
	if (h.type == PERF_RECORD_SAMPLE) {
		uint64_t t;

		s->round_samples++;
		/* Every event samples IDENTIFIER, IP, TID and TIME first (record_attr.c). */
		if (size >= SAMPLE_TIME_AT + sizeof(t)) {
			memcpy(&t, (const char *)rec + SAMPLE_TIME_AT, sizeof(t));
			if (t && (!s->first_time || t < s->first_time))
				s->first_time = t;
			if (t > s->last_time)
				s->last_time = t;
		}
	}
	else if (h.type == PERF_RECORD_LOST)
		note_lost(s, rec, size);
	else if (h.misc & PERF_RECORD_MISC_MMAP_BUILD_ID)
		note_build_id(s, rec, size);
	return 0;
}

/*
 * As perf record does since perf 6.0: each event's lost samples in one
 * PERF_RECORD_LOST_SAMPLES at the end, which perf report and perfev report
 * show as the recording's "Lost Samples" (the LOST records, which say the
 * same, only as chunks to warn about).  Time 0: it belongs to no moment.
 */
static int write_lost_samples(struct session *s)
{
	struct perfev_evsel *ev;

	perfev_evlist__for_each_evsel(s->el, ev) {
		const struct lost_sum *l = &s->lost[perfev_evsel__idx(ev)];
		struct perfev_sample_fmt fmt;
		struct perfev_sample_id sid = l->sid;
		uint64_t buf[32] = { 0 };
		struct perf_event_header h = { .type = PERF_RECORD_LOST_SAMPLES };
		int n;

		if (!l->lost || perfev_sample_fmt__from_attr(perfev_evsel__attr(ev), &fmt) < 0)
			continue;
		sid.time = 0;
		n = perfev_sample_id__encode(&fmt, &sid, buf + 2, sizeof(buf) - 16);
		if (n < 0)
			continue;
		h.size = (uint16_t)(16 + n);
		memcpy(buf, &h, sizeof(h));
		buf[1] = l->lost;
		if (perfev_data_writer__write(s->w, buf, h.size) < 0) {
			cli_error("%s", perfev_last_error());
			return -1;
		}
	}
	return 0;
}

static int drain(struct session *s)
{
	struct perfev_write_ring_opts wo = {
		.sz = sizeof(wo),
		.types = 1ull << PERF_RECORD_SAMPLE | 1ull << PERF_RECORD_MMAP2 |
			 1ull << PERF_RECORD_LOST,
		.fn = seen,
		.ctx = s,
	};
	int n = perfev_evlist__nr_rings(s->el);
	bool any = false;

	s->round_samples = 0;
	for (int i = 0; i < n; i++) {
		int64_t ret = perfev_data_writer__write_ring(s->w, perfev_evlist__ring(s->el, i), &wo);

		if (ret == -PERFEV_ERR_FORMAT) {
			cli_error("%s; stopping (the file keeps what was written before)",
				  perfev_last_error());
			return -1;
		}
		if (ret < 0) {
			cli_error("%s", perfev_last_error());
			return -1;
		}
		any |= ret > 0;
	}
	if (any) {
		s->rounds++;
		if (perfev_data_writer__finished_round(s->w) < 0) {
			cli_error("%s", perfev_last_error());
			return -1;
		}
		/* The summary counts what the file holds: rounds that were completed. */
		s->samples += s->round_samples;
	}
	return 0;
}

static int synth_collect(const void *rec, size_t size, void *ctx)
{
	struct session *s = ctx;

	if (s->synth_len + size > s->synth_cap) {
		size_t cap = s->synth_cap ? s->synth_cap * 2 : 1 << 16;
		unsigned char *p;

		while (cap < s->synth_len + size)
			cap *= 2;
		p = realloc(s->synth, cap);
		if (!p)
			return -ENOMEM;
		s->synth = p;
		s->synth_cap = cap;
	}
	memcpy(s->synth + s->synth_len, rec, size);
	s->synth_len += size;
	note_build_id(s, rec, size);
	return 0;
}

/* Whether any event may sample the kernel (not when all are user space only, ":u"). */
static bool samples_kernel(struct perfev_evlist *el)
{
	struct perfev_evsel *ev;

	perfev_evlist__for_each_evsel(el, ev)
		if (!perfev_evsel__attr(ev)->exclude_kernel)
			return true;
	return false;
}

/* The kernel's map and build id, and the processes that run already. */
static int synthesize(struct session *s)
{
	uint8_t bid[PERFEV_BUILD_ID_MAX];
	int err, n;

	err = perfev_synth__kernel(&s->fmt0, synth_collect, s);
	if (err == -EACCES && !s->o->quiet && samples_kernel(s->el))
		cli_note("kernel addresses are hidden, so kernel samples will show no symbols: %s",
			 perfev_last_error());
	else if (err == -ENOMEM)
		goto nomem;
	n = perfev_build_id__kernel(bid, sizeof(bid));
	if (n > 0)
		perfev_data_writer__add_build_id(s->w, -1, PERF_RECORD_MISC_KERNEL, bid, (size_t)n,
						 PERFEV_KERNEL_DSO_NAME);
	/* As perf record: the vDSO has no file, so its build id names it (a report finds its image by it). */
	n = perfev_build_id__vdso(bid, sizeof(bid));
	if (n > 0)
		perfev_data_writer__add_build_id(s->w, -1, PERF_RECORD_MISC_USER, bid, (size_t)n,
						 "[vdso]");
	if (cli_target__system_wide(&s->o->target))
		err = perfev_synth__all(&s->fmt0, synth_collect, s);
	else if (s->run.child > 0 && s->o->target.pid <= 0)
		/*
		 * The command, not yet exec'd: its events start at the exec, where the
		 * kernel describes it (COMM, MMAP2 of the new image).  Its maps now are
		 * perfev's own, at other addresses; perf's DWARF unwinder, which keeps
		 * a thread's maps across its exec, ends stacks early on them.
		 */
		err = 0;
	else
		err = perfev_synth__process(&s->fmt0,
					    s->o->target.pid > 0   ? (pid_t)s->o->target.pid
					    : s->run.child > 0 ? s->run.child
							       : cli_target__process(&s->o->target),
					    synth_collect, s);
	if (err == -ENOMEM)
		goto nomem;
	if (err < 0 && err != -ESRCH && !s->o->quiet)
		cli_note("some running processes could not be described (%s); their samples may "
			 "lack names or symbols",
			 perfev_last_error());
	if (s->synth_len && perfev_data_writer__write(s->w, s->synth, s->synth_len) < 0) {
		cli_error("%s", perfev_last_error());
		return -1;
	}
	free(s->synth);
	s->synth = NULL;
	s->synth_len = s->synth_cap = 0;
	return 0;
nomem:
	cli_error("out of memory while describing running processes");
	return -1;
}

static bool unsupported(int err)
{
	return err == -ENOENT || err == -EOPNOTSUPP || err == -ENODEV;
}

/* Builds, configures and opens the list; the default event falls back to cpu-clock. */
static int open_events(struct session *s)
{
	struct record_opts *o = s->o;
	bool system_wide = cli_target__system_wide(&o->target);
	/* A task's events are inherited, which the kernel maps only per CPU: every online one. */
	struct perfev_cpu_map *online = system_wide ? NULL : perfev_cpu_map__new(NULL);
	const char *spec = o->events ? o->events : "cycles";
	struct perfev_open_opts oo = { .sz = sizeof(oo), .cpu_map = online };
	int err = -1;

	cli_target__open_opts(&o->target, s->run.child, !o->no_inherit, &oo);

	if (!system_wide && !online) {
		cli_error("%s", perfev_last_error());
		return -1;
	}
	for (int attempt = 0; attempt < 2; attempt++) {
		s->el = perfev_evlist__new();
		if (!s->el || perfev_evlist__add_events(s->el, spec) < 0) {
			cli_error("%s", perfev_last_error());
			goto out;
		}
		/* Threads see only their own switch-outs: their switch-ins come as switch events. */
		if (o->off_cpu && !perfev_evlist__add_off_cpu(s->el, !system_wide)) {
			cli_error("--off-cpu needs the sched:sched_switch tracepoint: %s",
				  perfev_last_error());
			goto out;
		}
		if (record_config_evlist(s->el, o) < 0)
			goto out;
		err = perfev_evlist__open(s->el, &oo);
		if (!err)
			break;
		if (o->events || attempt || !unsupported(err)) {
			cli_error("%s", perfev_last_error());
			goto out;
		}
		if (!o->quiet)
			cli_note("no hardware 'cycles' event here (no PMU the kernel can sample); "
				 "sampling cpu-clock instead");
		perfev_evlist__delete(s->el);
		s->el = NULL;
		spec = "cpu-clock";
	}
	if (!o->quiet)
		cli_target__note_user_only(s->el);
	struct perfev_mmap_opts mo = { .sz = sizeof(mo), .data_pages = (size_t)o->mmap_pages };

	err = perfev_evlist__mmap(s->el, &mo);
	if (err) {
		cli_error("%s", perfev_last_error());
		goto out;
	}
	err = perfev_sample_fmt__from_attr(perfev_evsel__attr(perfev_evlist__next_evsel(s->el, NULL)),
					   &s->fmt0);
	if (err)
		cli_error("%s", perfev_last_error());
out:
	perfev_cpu_map__delete(online);
	return err ? -1 : 0;
}

/* Declares every event, its ids and groups to the writer, then writes the header. */
static int start_writer(struct session *s)
{
	struct record_opts *o = s->o;
	const struct perfev_cpu_map *cm = perfev_evlist__cpus(s->el);
	const struct perfev_thread_map *tm = perfev_evlist__threads(s->el);
	int nr_cpus = perfev_cpu_map__nr(cm), nr_thr = perfev_thread_map__nr(tm);
	struct perfev_data_writer_opts wo = {
		.sz = sizeof(wo),
		.pipe = !strcmp(s->path, "-"),
		.compress_level = o->compress_level,
		.argc = o->argc,
		.argv = (const char *const *)o->full_argv,
		/* A killed perfev leaves a file readable to within 50 ms of its end. */
		.header_sync_ms = 50,
		.off_cpu_thresh_ns = o->off_cpu_thresh_ns,
	};
	uint64_t *ids = calloc((size_t)nr_cpus * (size_t)nr_thr, sizeof(*ids));
	struct perfev_evsel *ev;
	int idx = 0;

	s->lost = calloc((size_t)perfev_evlist__nr_evsels(s->el), sizeof(*s->lost));
	s->w = perfev_data_writer__new(s->out.fd, &wo);
	if (!s->w || !ids || !s->lost) {
		cli_error("%s", s->w ? "out of memory" : perfev_last_error());
		free(ids);
		return -1;
	}
	perfev_evlist__for_each_evsel(s->el, ev) {
		size_t n = 0;

		for (int c = 0; c < nr_cpus; c++)
			for (int t = 0; t < nr_thr; t++) {
				uint64_t id = perfev_evsel__id(ev, c, t);

				if (id)
					ids[n++] = id;
			}
		if (perfev_data_writer__add_attr(s->w, perfev_evsel__attr(ev), ids, n,
						 perfev_evsel__name(ev)) < 0)
			goto err;
	}
	/* Groups are declared once all their members are. */
	perfev_evlist__for_each_evsel(s->el, ev) {
		if (perfev_evsel__leader(ev) == ev && perfev_evsel__nr_members(ev) > 1 &&
		    perfev_data_writer__add_group(s->w, NULL, idx, perfev_evsel__nr_members(ev)) < 0)
			goto err;
		idx++;
	}
	free(ids);
	if (perfev_data_writer__start(s->w) < 0) {
		cli_error("%s", perfev_last_error());
		return -1;
	}
	return 0;
err:
	cli_error("%s", perfev_last_error());
	free(ids);
	return -1;
}

/*
 * Drains until the command or process ends, a signal ends the recording
 * (returned), or --timeout: then a command is sent SIGTERM and drained
 * until it ends, as perf stat's --timeout ends one.
 */
static int record_loop(struct session *s)
{
	uint64_t deadline = s->o->timeout_ms ? cli_now_ns() + (uint64_t)s->o->timeout_ms * 1000000ull : 0;

	for (;;) {
		uint64_t now = cli_now_ns();
		int wait = 1000;

		if (deadline && now >= deadline) {
			if (s->run.child <= 0)
				return 0;
			if (!s->run.child_done)
				kill(s->run.child, SIGTERM);
			s->timed_out = true;
			deadline = 0;
		} else if (deadline && deadline - now < 1000000000ull) {
			wait = (int)((deadline - now + 999999) / 1000000);
		}
		int n = perfev_evlist__poll(s->el, wait, NULL);

		if (n < 0 && n != -EINTR) {
			cli_error("waiting for samples failed: %s", strerror(-n));
			s->failed = true;
			return 0;
		}
		if (drain(s) < 0) {
			s->failed = true;
			return 0;
		}
		sigwait_drain();
		if (cli_run__ended(&s->run))
			return 0;
		int sig = cli_run__take_signal(&s->run);

		/* A command got the signal too, and recording goes on until it ends. */
		if (sig && s->run.child <= 0)
			return sig;
	}
}

static void summary(const struct session *s)
{
	double mb = (double)perfev_data_writer__bytes_written(s->w) / (1024.0 * 1024.0);
	uint64_t nr_lost = 0;
	char lost[128] = "";

	/* What the PERF_RECORD_LOST and LOST_SAMPLES records written say the kernel dropped. */
	for (int i = 0; i < perfev_evlist__nr_rings(s->el); i++) {
		struct perfev_ring_stats st;

		perfev_ring__stats(perfev_evlist__ring(s->el, i), &st);
		nr_lost += st.lost + st.lost_samples;
	}
	if (nr_lost)
		snprintf(lost, sizeof(lost), ", %llu lost (try -m with more pages or a lower -F)",
			 (unsigned long long)nr_lost);
	else
		snprintf(lost, sizeof(lost), ", 0 lost");
	uint64_t dropped = perfev_data_writer__off_cpu_dropped(s->w);
	char thresh[96] = "";

	if (dropped)
		snprintf(thresh, sizeof(thresh), " (%llu shorter waits left out by --off-cpu-thresh)",
			 (unsigned long long)dropped);
	fprintf(stderr, "%s: %llu samples%s%s, %.3f MB written to %s\n", cli_cmd_name,
		(unsigned long long)(s->samples - (dropped < s->samples ? dropped : s->samples)), lost,
		thresh, mb, strcmp(s->path, "-") ? s->path : "standard output");
}

int record_run(struct record_opts *o)
{
	struct session s = { .o = o, .out = { .fd = -1 }, .run = { .pidfd = -1 } };
	time_t started = time(NULL);
	int ret = 1, sig = 0;
	bool finished = false;

	s.path = s.out.path = o->output ? o->output : PERFEV_DATA_FILE_DEFAULT;
	if (sigwait_install()) {
		cli_error("cannot set up: %s", strerror(errno));
		goto out;
	}
	/* Everything that can fail is tried before the user's files are touched. */
	if (record_output__prepare(&s.out) < 0)
		goto out;
	if (!cli_run__prepare(&s.run, o->argv, cli_target__process(&o->target)))
		goto out;
	if (open_events(&s) < 0 || record_output__open(&s.out) < 0 || start_writer(&s) < 0 ||
	    synthesize(&s) < 0)
		goto out;
	if (perfev_evlist__add_pollfd(s.el, sigwait_fd) < 0 ||
	    (s.run.pidfd >= 0 && perfev_evlist__add_pollfd(s.el, s.run.pidfd) < 0)) {
		cli_error("%s", perfev_last_error());
		goto out;
	}
	ret = cli_run__start(&s.run);
	if (ret)
		goto out;
	if (record_output__commit(&s.out) < 0) {
		s.failed = true;
		ret = 1;
	} else {
		sig = record_loop(&s);
	}
	if (s.failed && s.run.child > 0 && !s.run.child_done) {
		cli_note("stopping the command (SIGTERM): nothing more can be recorded");
		kill(s.run.child, SIGTERM);
	}
	cli_run__reap(&s.run, true);
	/* A command that --timeout ended has done what was asked, as with perf stat --timeout. */
	ret = s.failed ? 1 : o->timeout_ms && s.timed_out ? 0 : cli_run__exit_status(&s.run);
	perfev_evlist__disable(s.el);
	if (!s.failed && (drain(&s) < 0 || write_lost_samples(&s) < 0)) {
		s.failed = true;
		ret = 1;
	}
	/* perf report --time 10%/2 takes the recording's span from it. */
	if (s.last_time)
		perfev_data_writer__set_sample_time(s.w, s.first_time, s.last_time);
	/* After a write failure finish() repeats that error, which was said already. */
	if (perfev_data_writer__finish(s.w) < 0) {
		if (!s.failed)
			cli_error("%s", perfev_last_error());
		ret = 1;
	} else {
		finished = !s.failed;
	}
	if (!o->quiet && !s.out.tmp)
		summary(&s);
out:
	cli_run__close(&s.run);
	perfev_data_writer__delete(s.w);
	perfev_evlist__delete(s.el);
	record_output__close(&s.out);
	if (s.out.fd >= 0 && close(s.out.fd) < 0) {
		if (ret == 0)
			cli_error("closing '%s' failed: %s", s.path, strerror(errno));
		ret = 1;
		finished = false;
	}
	/* A stream or a device cannot be read back; perf's cache step needs the file too. */
	if (finished && !o->no_buildid_cache && strcmp(s.path, "-") && !s.out.in_place)
		record_buildid_cache(s.path, started, o->quiet);
	free(s.synth);
	free(s.lost);
	if (sig)
		sigwait_reraise(sig);
	return ret;
}
