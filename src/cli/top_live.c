/* SPDX-License-Identifier: MIT */
/*
 * perfev top's loop: the events opened and mapped as perfev record opens
 * them, what already runs described from /proc, the rings fed into a live
 * session whose samples go into one profile, and at each refresh the
 * profile shown (the browser, or a text snapshot) and then aged by 7/8 or
 * zeroed.  Keys are read between polls, so sampling never waits for them.
 */
#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "run.h"
#include "sigwait.h"
#include "top.h"
#include "tui.h"

struct top {
	struct top_opts *o;
	struct perfev_evlist *el;
	struct perfev_sample_fmt fmt0;
	struct perfev_symbolizer *sy;
	struct perfev_session *s;
	struct perfev_profile *p;
	struct cli_run run;
	struct tui_browser b;
	bool tui;
	bool ended;  /* the command or process is gone: nothing more comes */
	uint64_t samples, kernel; /* of the event shown, since the last refresh */
	uint64_t first_time, last_time; /* theirs: the rate is of the time they span */
	uint64_t last_ns;
	char target[128];
};

static bool unsupported(int err)
{
	return err == -ENOENT || err == -EOPNOTSUPP || err == -ENODEV;
}

/* The list opened and mapped; the default event falls back to cpu-clock, as perf's does. */
static int open_events(struct top *t)
{
	struct record_opts *r = &t->o->rec;
	bool system_wide = cli_target__system_wide(&r->target);
	struct perfev_cpu_map *online = system_wide ? NULL : perfev_cpu_map__new(NULL);
	struct perfev_open_opts oo = { .sz = sizeof(oo), .cpu_map = online };
	const char *spec = r->events ? r->events : "cycles";
	int err = -1;

	if (!system_wide && !online) {
		cli_error("%s", perfev_last_error());
		return -1;
	}
	if (t->o->tid) {
		oo.pid = (pid_t)t->o->tid;
		oo.fallback_user_only = true;
	} else {
		cli_target__open_opts(&r->target, t->run.child, true, &oo);
	}
	for (int attempt = 0; attempt < 2; attempt++) {
		t->el = perfev_evlist__new();
		if (!t->el || perfev_evlist__add_events(t->el, spec) < 0) {
			cli_error("%s", perfev_last_error());
			goto out;
		}
		if (record_config_evlist(t->el, r) < 0)
			goto out;
		err = perfev_evlist__open(t->el, &oo);
		if (!err)
			break;
		if (r->events || attempt || !unsupported(err)) {
			cli_error("%s", perfev_last_error());
			goto out;
		}
		if (!r->quiet && !t->tui)
			cli_note("no hardware 'cycles' event here; sampling cpu-clock instead");
		perfev_evlist__delete(t->el);
		t->el = NULL;
		spec = "cpu-clock";
	}
	if (!r->quiet)
		cli_target__note_user_only(t->el);
	struct perfev_mmap_opts mo = { .sz = sizeof(mo), .data_pages = (size_t)r->mmap_pages };

	err = perfev_evlist__mmap(t->el, &mo);
	if (!err)
		err = perfev_sample_fmt__from_attr(
			perfev_evsel__attr(perfev_evlist__next_evsel(t->el, NULL)), &t->fmt0);
	if (err)
		cli_error("%s", perfev_last_error());
out:
	perfev_cpu_map__delete(online);
	return err ? -1 : 0;
}

static int feed(const void *rec, size_t size, void *ctx)
{
	int err = perfev_session__feed(ctx, rec, size);

	/* A synthesized record the decoder refuses costs one process its names, not the view. */
	return err == -ENOMEM ? err : 0;
}

/* The live session, and what existed before it: the kernel's maps and the processes watched. */
static int start_session(struct top *t)
{
	struct perfev_symbolizer_opts so = { .sz = sizeof(so), .no_demangle = t->o->no_demangle };
	struct perfev_session_opts opts = { .sz = sizeof(opts) };
	struct record_opts *r = &t->o->rec;
	int err;

	t->sy = perfev_symbolizer__new(&so);
	if (!t->sy) {
		cli_error("%s", perfev_last_error());
		return -1;
	}
	opts.symbolizer = t->sy;
	t->s = perfev_session__new_live(t->el, &opts);
	if (!t->s) {
		cli_error("%s", perfev_last_error());
		return -1;
	}
	err = perfev_synth__kernel(&t->fmt0, feed, t->s);
	if (err == -EACCES && !r->quiet && !t->tui)
		cli_note("kernel addresses are hidden, so kernel samples will show no symbols: %s",
			 perfev_last_error());
	if (cli_target__system_wide(&r->target))
		err = perfev_synth__all(&t->fmt0, feed, t->s);
	else
		err = perfev_synth__process(&t->fmt0,
					    t->o->tid ? (pid_t)t->o->tid
					    : t->run.child > 0 ? t->run.child : (pid_t)r->target.pid,
					    feed, t->s);
	if (err == -ENOMEM) {
		cli_error("out of memory while describing running processes");
		return -1;
	}
	return 0;
}

static int on_sample(void *ctx, const struct perfev_session_sample *ss)
{
	struct top *t = ctx;
	size_t nr = ss->nr_frames;
	bool kernel = nr && ss->frames[0].kernel;

	/* The first event's samples are shown; other events' would mix their periods. */
	if (ss->evsel != 0)
		return 0;
	if ((kernel && t->o->hide_kernel) || (!kernel && t->o->hide_user))
		return 0;
	t->samples++;
	t->kernel += kernel;
	if (ss->ev->rec.sample.sample_type & PERF_SAMPLE_TIME) {
		uint64_t time = ss->ev->rec.sample.time;

		if (!t->first_time || time < t->first_time)
			t->first_time = time;
		if (time > t->last_time)
			t->last_time = time;
	}
	if (t->o->ro.max_stack && nr > t->o->ro.max_stack)
		nr = t->o->ro.max_stack;
	if (t->o->rec.callgraph == CG_NONE && nr > 1)
		nr = 1;
	return perfev_profile__add(t->p, ss->thread, ss->frames, nr, ss->period) ? -ENOMEM : 0;
}

/* What the rings hold, into the session and the profile; false after saying why it failed. */
static bool drain(struct top *t, bool all)
{
	int64_t n = perfev_session__read_rings(t->s);
	int err;

	if (n < 0) {
		cli_error("reading the ring buffers failed: %s", perfev_last_error());
		return false;
	}
	err = perfev_session__flush(t->s, all, on_sample, t);
	if (err) {
		cli_error("out of memory adding samples");
		return false;
	}
	return true;
}

static uint64_t lost(const struct top *t)
{
	uint64_t n = 0;

	for (int i = 0; i < perfev_evlist__nr_rings(t->el); i++) {
		struct perfev_ring_stats st;

		perfev_ring__stats(perfev_evlist__ring(t->el, i), &st);
		n += st.lost + st.lost_samples;
	}
	return n;
}

/* perf top's heading: the rate of samples since the last refresh, the kernel's share, losses. */
static void heading(struct top *t, char *buf, size_t size, bool stdio)
{
	uint64_t now = cli_now_ns();
	double secs = (double)(now - t->last_ns) / 1e9;

	/*
	 * The seconds the samples span, not those since the last refresh: the
	 * first refresh delivers what the rings gathered while every process was
	 * being described.
	 */
	if (t->last_time > t->first_time && (double)(t->last_time - t->first_time) / 1e9 > secs / 2)
		secs = (double)(t->last_time - t->first_time) / 1e9;
	const struct perfev_evsel *ev = perfev_evlist__next_evsel(t->el, NULL);
	const struct perf_event_attr *a = perfev_evsel__attr((struct perfev_evsel *)ev);
	char rate[32];

	if (a->freq)
		snprintf(rate, sizeof(rate), "%" PRIu64 " Hz", (uint64_t)a->sample_freq);
	else
		snprintf(rate, sizeof(rate), "period %" PRIu64, (uint64_t)a->sample_period);
	snprintf(buf, size, "%sPerfTop: %8.0f samples/s  kernel: %4.1f%%  lost: %" PRIu64 " [%s, %s], (%s)%s%s",
		 stdio ? "   " : "", secs > 0 ? (double)t->samples / secs : 0,
		 t->samples ? 100.0 * (double)t->kernel / (double)t->samples : 0, lost(t),
		 perfev_evsel__name(ev), rate, t->target, t->o->zero ? ", zeroed each refresh" : "",
		 t->ended ? "  -- ended, no more samples" : "");
	t->samples = t->kernel = 0;
	t->first_time = t->last_time = 0;
	t->last_ns = now;
}

/* top's heading is its own (heading()): the table's is left out. */
static void no_header(void *ctx, const struct report_totals *tot, size_t nr)
{
	(void)ctx;
	(void)tot;
	(void)nr;
}

static bool snapshot(struct top *t)
{
	const struct perfev_profile_node *root = perfev_profile__node(t->p, 0);
	struct report_totals file = { .samples = root->total_samples, .period = root->total };
	struct report_print_stats ps = { 0 };
	char head[512];

	heading(t, head, sizeof(head), true);
	printf("%s\n", head);
	printf("-------------------------------------------------------------------------------\n\n");
	if (!perfev_profile__node(t->p, 0)->total)
		printf("  (no samples)\n\n");
	else if (!report_table_print(stdout, &t->p, 1, &t->o->ro, &file, no_header, NULL, &ps)) {
		cli_error("out of memory building the table");
		return false;
	}
	return cli_stream_ok(stdout, "standard output");
}

/* Shows the profile, then ages it for the next refresh; false when it failed. */
static bool refresh(struct top *t)
{
	bool ok;

	if (t->tui) {
		heading(t, t->b.header, sizeof(t->b.header), false);
		if (!strncmp(t->b.note, "sampling:", 9))
			t->b.note[0] = 0;
		ok = tui_model_rebuild(&t->b.m, t->p);
		if (ok)
			tui_browser_draw(&t->b);
		else
			cli_error("out of memory building the table");
	} else {
		ok = snapshot(t);
	}
	if (ok && !t->ended && perfev_profile__decay(t->p, t->o->zero ? 0 : 7, 8) < 0)
		ok = false;
	return ok;
}

static void describe_target(struct top *t)
{
	const struct cli_target *tg = &t->o->rec.target;
	int nr = perfev_cpu_map__nr(perfev_evlist__cpus(t->el));

	if (t->o->tid)
		snprintf(t->target, sizeof(t->target), "thread %ld", t->o->tid);
	else if (t->run.child > 0)
		snprintf(t->target, sizeof(t->target), "command %s, pid %d", t->o->rec.argv[0],
			 (int)t->run.child);
	else if (tg->pid)
		snprintf(t->target, sizeof(t->target), "process %ld", tg->pid);
	else if (tg->cpus)
		snprintf(t->target, sizeof(t->target), "CPUs %s", tg->cpus);
	else
		snprintf(t->target, sizeof(t->target), "all, %d CPU%s", nr, nr == 1 ? "" : "s");
}

static bool stdin_readable(void)
{
	struct pollfd p = { .fd = STDIN_FILENO, .events = POLLIN };

	return poll(&p, 1, 0) > 0 && (p.revents & (POLLIN | POLLHUP | POLLERR));
}

/* Until q, a signal, a lost terminal, or (text) the end of what is watched; the signal or 0, -1 on failure. */
static int loop(struct top *t)
{
	uint64_t delay = (uint64_t)t->o->delay_ms * 1000000ull, next = cli_now_ns() + delay;

	for (;;) {
		uint64_t now = cli_now_ns();
		/* Rounds at least every 250 ms: a sample is delivered a round after it is read. */
		int timeout = now >= next ? 0 : (int)((next - now + 999999) / 1000000);

		if (timeout > 250)
			timeout = 250;
		int n = perfev_evlist__poll(t->el, timeout, NULL);

		if (n < 0 && n != -EINTR) {
			cli_error("waiting for samples failed: %s", strerror(-n));
			return -1;
		}
		if (!t->ended && !drain(t, false))
			return -1;
		sigwait_drain();
		if (sigwait_signal)
			return sigwait_signal;
		if (t->tui) {
			enum tui_act act = tui_browser_keys(&t->b, stdin_readable());

			if (act == TUI_QUIT)
				return 0;
			if (act == TUI_FAILED)
				return -1;
			tui_browser_draw(&t->b);
		}
		if (!t->ended && cli_run__ended(&t->run)) {
			t->ended = true;
			if (!drain(t, true) || !refresh(t))
				return -1;
			if (!t->tui)
				return 0;
			continue;
		}
		if (cli_now_ns() >= next && !t->ended) {
			/* A second round now delivers what the first one read. */
			if (!drain(t, false) || !refresh(t))
				return -1;
			next += delay;
			if (next < cli_now_ns())
				next = cli_now_ns() + delay;
		}
	}
}

int top_run(struct top_opts *o)
{
	struct top t = { .o = o, .run = { .pidfd = -1 }, .tui = o->ro.ui == REPORT_UI_TUI };
	struct perfev_profile_opts po = { .sz = sizeof(po) };
	bool need[NR_KEYS] = { false };
	int ret = 1, sig = 0;

	if (sigwait_install() < 0) {
		cli_error("cannot set up: %s", strerror(errno));
		return 1;
	}
	if (t.tui && (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO))) {
		cli_error("the browser needs a terminal on stdin and stdout; use --stdio");
		return 1;
	}
	if (!cli_run__prepare(&t.run, o->rec.argv, (pid_t)o->rec.target.pid))
		goto out;
	if (open_events(&t) < 0 || start_session(&t) < 0)
		goto out;
	for (int i = 0; i < o->ro.nr_keys; i++)
		need[o->ro.keys[i]] = true;
	po.srcline = need[KEY_SRCLINE];
	po.merge_pids = !need[KEY_PID] && !need[KEY_TID];
	po.merge_threads = po.merge_pids && !need[KEY_COMM];
	t.p = perfev_profile__new(&po);
	if (!t.p) {
		cli_error("%s", perfev_last_error());
		goto out;
	}
	if (perfev_evlist__add_pollfd(t.el, sigwait_fd) < 0 ||
	    (t.run.pidfd >= 0 && perfev_evlist__add_pollfd(t.el, t.run.pidfd) < 0) ||
	    (t.tui && perfev_evlist__add_pollfd(t.el, STDIN_FILENO) < 0)) {
		cli_error("%s", perfev_last_error());
		goto out;
	}
	describe_target(&t);
	if (t.tui) {
		if (!tui_browser_open(&t.b, t.p, &o->ro))
			goto out;
		heading(&t, t.b.header, sizeof(t.b.header), false);
		snprintf(t.b.note, sizeof(t.b.note), "sampling: the first refresh comes in %.1f s",
			 (double)o->delay_ms / 1000);
		tui_browser_draw(&t.b);
	}
	ret = cli_run__start(&t.run);
	if (ret)
		goto out;
	t.last_ns = cli_now_ns();
	sig = loop(&t);
	ret = sig < 0 ? 1 : 0;
	if (sig < 0)
		sig = 0;
	/* A command's own status when it ran to its end. */
	if (!ret && t.run.child > 0 && cli_run__reap(&t.run, false))
		ret = cli_run__exit_status(&t.run);
out:
	if (t.tui && t.b.scr)
		tui_browser_close(&t.b);
	cli_run__close(&t.run);
	perfev_evlist__disable(t.el);
	perfev_profile__delete(t.p);
	perfev_session__delete(t.s);
	perfev_evlist__delete(t.el);
	perfev_symbolizer__delete(t.sy);
	fflush(stdout);
	if (sig)
		sigwait_reraise(sig);
	return ret;
}
