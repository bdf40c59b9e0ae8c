/* SPDX-License-Identifier: MIT */
/* Reading a session's sched tracepoint samples into perf sched latency's and timehist's figures. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util/internal.h"
#include "util/opts.h"
#include "sched/sched_int.h"
#include "perfev/perfdata_reader.h"

#define DEFAULT_SORT "avg,max,switch,runtime"

struct perfev_sched *perfev_sched__new(const struct perfev_sched_opts *opts)
{
	struct perfev_sched *sc = calloc(1, sizeof(*sc));

	if (!sc)
		return set_error_ptr(ENOMEM, "out of memory");
	if (OPTS_COPY(&sc->opts, opts, perfev_sched_opts, perf61) < 0) {
		free(sc);
		return NULL;
	}
	sc->sort_keys = strdup(DEFAULT_SORT);
	if (!sc->sort_keys) {
		free(sc);
		return set_error_ptr(ENOMEM, "out of memory");
	}
	return sc;
}

void perfev_sched__delete(struct perfev_sched *sc)
{
	if (!sc)
		return;
	sched_tasks_free(sc);
	perfev_tracefmt__delete(sc->tf);
	free(sc->evs);
	free(sc->cpu_last_switched);
	free(sc->curr_pid);
	free(sc->last_switch);
	free(sc->lats);
	free(sc->sum);
	free(sc->idle_sum);
	free(sc->sort_keys);
	free(sc);
}

static int need_field(const struct perfev_tp_format *f, const char *name,
		      const struct perfev_tp_field **out)
{
	*out = perfev_tp_format__field_by_name(f, name);
	if (*out)
		return 0;
	return set_error(PERFEV_ERR_FORMAT, "the format of %s:%s has no field '%s', which perf "
			 "sched's figures need", perfev_tp_format__system(f),
			 perfev_tp_format__name(f), name);
}

/* What event evsel is and where its fields are; formats come from the file's tracing data. */
static int resolve_evsel(struct perfev_sched *sc, int evsel, struct ev_info **out)
{
	struct perfev_data_reader *r = perfev_session__reader(sc->s);
	const struct perf_event_attr *a;
	struct ev_info *e;
	const char *name;
	int err = 0;

	*out = NULL;
	if (evsel < 0)
		return 0;
	if ((size_t)evsel >= sc->nr_evs) {
		size_t n = (size_t)evsel + 1;
		struct ev_info *p = realloc(sc->evs, n * sizeof(*p));

		if (!p)
			return set_error(ENOMEM, "out of memory");
		for (size_t i = sc->nr_evs; i < n; i++) {
			memset(&p[i], 0, sizeof(p[i]));
			p[i].kind = (enum ev_kind)-1; /* not looked at yet */
		}
		sc->evs = p;
		sc->nr_evs = n;
	}
	e = &sc->evs[evsel];
	*out = e;
	if (e->kind != (enum ev_kind)-1)
		return 0;
	e->kind = EV_OTHER;
	a = perfev_data_reader__attr(r, (size_t)evsel);
	if (!a || a->type != PERF_TYPE_TRACEPOINT)
		return 0;
	if (!sc->tf) {
		const void *data;
		size_t size;

		sc->tf = perfev_tracefmt__new();
		if (!sc->tf)
			return -ENOMEM;
		if (perfev_data_reader__feature(r, PERFEV_FEAT_TRACING_DATA, &data, &size) < 0)
			return set_error(PERFEV_ERR_FORMAT, "the file has tracepoint samples but no "
					 "tracing data (the events' formats), so their fields "
					 "cannot be read");
		err = perfev_tracefmt__add_tracing_data(sc->tf, data, size);
		if (err < 0)
			return err;
	}
	e->f = perfev_tracefmt__find_id(sc->tf, a->config);
	if (!e->f || strcmp(perfev_tp_format__system(e->f), "sched"))
		return 0;
	name = perfev_tp_format__name(e->f);
	if (!strcmp(name, "sched_switch")) {
		e->kind = EV_SWITCH;
		err = need_field(e->f, "prev_pid", &e->prev_pid);
		if (!err)
			err = need_field(e->f, "next_pid", &e->next_pid);
		if (!err)
			err = need_field(e->f, "prev_state", &e->prev_state);
		e->next_comm = perfev_tp_format__field_by_name(e->f, "next_comm");
		if (!err)
			sched_states_from_fmt(perfev_tp_format__print_fmt(e->f), sc->states,
					      sizeof(sc->states));
	} else if (!strcmp(name, "sched_wakeup") || !strcmp(name, "sched_waking") ||
		   !strcmp(name, "sched_wakeup_new")) {
		e->kind = !strcmp(name, "sched_wakeup")	  ? EV_WAKEUP
			  : !strcmp(name, "sched_waking") ? EV_WAKING
							  : EV_WAKEUP_NEW;
		err = need_field(e->f, "pid", &e->pid);
	} else if (!strcmp(name, "sched_stat_runtime")) {
		e->kind = EV_RUNTIME;
		err = need_field(e->f, "pid", &e->pid);
		if (!err)
			err = need_field(e->f, "runtime", &e->runtime);
	} else if (!strcmp(name, "sched_migrate_task")) {
		e->kind = EV_MIGRATE;
		err = need_field(e->f, "pid", &e->pid);
		if (!err)
			err = need_field(e->f, "orig_cpu", &e->orig_cpu);
		if (!err)
			err = need_field(e->f, "dest_cpu", &e->dest_cpu);
	}
	if (err)
		e->kind = EV_OTHER;
	if (e->kind == EV_WAKING)
		sc->have_waking = true;
	return err;
}

/* A field's value; one outside a short record reads as 0, as libtraceevent reads it. */
static uint64_t intval(const struct ev_info *e, const struct perfev_tp_field *fl,
		       const struct perfev_sample *sm)
{
	uint64_t v = 0;

	if (perfev_tp_field__int(e->f, fl, sm->raw.data, sm->raw.size, &v) < 0)
		return 0;
	return v;
}

static void strval(const struct ev_info *e, const struct perfev_tp_field *fl,
		   const struct perfev_sample *sm, char *buf, size_t size)
{
	const void *p;
	size_t len;

	buf[0] = '\0';
	if (!fl || perfev_tp_field__bytes(e->f, fl, sm->raw.data, sm->raw.size, &p, &len) < 0)
		return;
	if (len >= size)
		len = size - 1;
	memcpy(buf, p, len);
	buf[len] = '\0';
	buf[strnlen(buf, len)] = '\0';
}

struct run {
	struct perfev_sched *sc;
	perfev_sched_row_fn fn;
	void *ctx;
	int err;
};

static int on_switch(struct perfev_sched *sc, const struct ev_info *e,
		     const struct perfev_session_sample *ss, struct run *run)
{
	const struct perfev_sample *sm = &ss->ev->rec.sample;
	int prev_pid = (int)intval(e, e->prev_pid, sm), next_pid = (int)intval(e, e->next_pid, sm);
	uint64_t v = intval(e, e->prev_state, sm);
	char state = sched_state_char(sc->states, v), lat_state = state, shown = state;
	char next_comm[64];
	int err;

	strval(e, e->next_comm, sm, next_comm, sizeof(next_comm));
	if (!sched_cpu_slots(sc, sm->cpu))
		return -(errno ? errno : ENOMEM);
	/* perf sched latency's check: a switch away from a thread the CPU was not running. */
	if (sc->curr_pid[sm->cpu] != -1 && sc->curr_pid[sm->cpu] != prev_pid)
		sc->stats.nr_switch_bugs++;
	if (sc->opts.perf61) {
		/* perf 6.1: runnable only for a prev_state of 0; its letters by the lowest bit set. */
		static const char letters[] = "RSDTtZXxKWP";
		unsigned bit = v ? (unsigned)__builtin_ctzll(v) + 1 : 0;

		lat_state = v ? 'S' : 'R';
		state = v == 0 ? 'R' : v == 2 ? 'D' : 'S';
		shown = bit < sizeof(letters) - 1 ? letters[bit] : '?';
	}
	err = lat_switch(sc, sm->cpu, sm->time, prev_pid, next_pid, lat_state);
	sc->curr_pid[sm->cpu] = next_pid;
	if (!err)
		err = th_switch(sc, ss, sm->time, sm->cpu, prev_pid, state, shown, next_comm,
				next_pid, run->fn, run->ctx);
	return err;
}

static int on_sample(void *ctx, const struct perfev_session_sample *ss)
{
	struct run *run = ctx;
	struct perfev_sched *sc = run->sc;
	const struct perfev_sample *sm = &ss->ev->rec.sample;
	struct ev_info *e;
	int err;

	if ((sm->sample_type & PERF_SAMPLE_CPU) && sm->cpu > sc->stats.max_cpu)
		sc->stats.max_cpu = sm->cpu;
	err = resolve_evsel(sc, ss->evsel, &e);
	if (err)
		return err;
	if (!e || e->kind == EV_OTHER || !(sm->sample_type & PERF_SAMPLE_RAW))
		return 0;
	if (!(sm->sample_type & PERF_SAMPLE_CPU) || !(sm->sample_type & PERF_SAMPLE_TIME))
		return set_error(PERFEV_ERR_FORMAT,
				 "the sched samples carry no %s, which a CPU's schedule needs; "
				 "record them with 'perfev sched record' (every CPU)",
				 sm->sample_type & PERF_SAMPLE_CPU ? "time" : "CPU");
	switch (e->kind) {
	case EV_SWITCH:
		return on_switch(sc, e, ss, run);
	case EV_WAKEUP:
		/* sched_waking, when recorded, says it first. */
		if (sc->have_waking)
			return 0;
		/* fallthrough */
	case EV_WAKING:
	case EV_WAKEUP_NEW: {
		int pid = (int)intval(e, e->pid, sm);

		/* perf 6.1's latency reads sched_wakeup (none here) and sched_wakeup_new only. */
		err = sc->opts.perf61 && e->kind == EV_WAKING ? 0 : lat_wakeup(sc, sm->time, pid);
		return err ? err : th_wakeup(sc, ss, sm->time, sm->cpu, pid, run->fn, run->ctx);
	}
	case EV_RUNTIME:
		return lat_runtime(sc, sm->time, (int)intval(e, e->pid, sm),
				   intval(e, e->runtime, sm));
	case EV_MIGRATE:
		if (!sc->opts.migrations)
			return 0;
		return th_migrate(sc, ss, sm->time, sm->cpu, (int)intval(e, e->pid, sm),
				  (int)intval(e, e->orig_cpu, sm), (int)intval(e, e->dest_cpu, sm),
				  run->fn, run->ctx);
	default:
		return 0;
	}
}

/* 1 when the file has a sched:sched_switch event (known before reading, but in a pipe), 0, or an error. */
static int has_switch(struct perfev_sched *sc)
{
	struct perfev_data_reader *r = perfev_session__reader(sc->s);

	for (size_t i = 0; i < perfev_data_reader__nr_evsels(r); i++) {
		struct ev_info *e;
		int err = resolve_evsel(sc, (int)i, &e);

		if (err)
			return err;
		if (e && e->kind == EV_SWITCH)
			return 1;
	}
	return 0;
}

static int no_switch(void)
{
	return set_error(ENOENT, "the recording has no sched:sched_switch events; record them "
			 "with 'perfev sched record' (or perf sched record)");
}

int perfev_sched__process(struct perfev_sched *sc, struct perfev_session *s,
			  perfev_sched_row_fn fn, void *ctx)
{
	struct run run = { sc, fn, ctx, 0 };
	struct perfev_data_reader *r;
	uint32_t online = 0, avail;
	int err;

	if (!sc || !s)
		return set_error(EINVAL, "no sched or session given");
	if (sc->processed)
		return set_error(EINVAL, "a perfev_sched reads one session, once");
	sc->processed = true;
	sc->s = s;
	r = perfev_session__reader(s);
	/* perf counts the CPUs online when recorded, and makes an idle task for each. */
	if (perfev_data_reader__nrcpus(r, &online, &avail) < 0 || !online)
		online = 4;
	sc->stats.max_cpu = online;
	for (uint32_t c = 0; c < online && c < 4096; c++)
		if (!sched_idle_task(sc, c))
			return -ENOMEM;
	if (sc->nr_idle > online) {
		for (size_t c = online; c < sc->nr_idle; c++)
			free(sc->idle[c]);
		sc->nr_idle = online;
	}
	if (!perfev_data_reader__is_pipe(r)) {
		err = has_switch(sc);
		if (err <= 0)
			return err < 0 ? err : no_switch();
	}
	err = perfev_session__process(s, on_sample, &run);
	if (err)
		return err;
	if (perfev_data_reader__is_pipe(r)) {
		err = has_switch(sc);
		if (err <= 0)
			return err < 0 ? err : no_switch();
	}
	for (uint32_t t = 0; t < 128; t++)
		sc->stats.nr_events += perfev_data_reader__nr_records(r, t);
	sc->stats.nr_lost_events = perfev_session__stats(s)->nr_lost;
	sc->stats.nr_lost_chunks = perfev_session__stats(s)->nr_lost_events;
	err = lat_make(sc);
	if (!err)
		err = th_make(sc);
	if (err)
		return err;
	sc->results_made = true;
	return perfev_sched__sort_latencies(sc, sc->sort_keys);
}

size_t perfev_sched__nr_latencies(struct perfev_sched *sc)
{
	return sc && sc->results_made ? sc->nr_lats : 0;
}

const struct perfev_sched_latency *perfev_sched__latency(struct perfev_sched *sc, size_t i)
{
	return sc && sc->results_made && i < sc->nr_lats ? &sc->lats[i] : NULL;
}

size_t perfev_sched__nr_tasks(struct perfev_sched *sc)
{
	return sc && sc->results_made ? sc->nr_sum : 0;
}

const struct perfev_sched_task *perfev_sched__task(struct perfev_sched *sc, size_t i)
{
	return sc && sc->results_made && i < sc->nr_sum ? &sc->sum[i] : NULL;
}

size_t perfev_sched__nr_cpus(const struct perfev_sched *sc)
{
	return sc && sc->results_made ? sc->nr_idle : 0;
}

const struct perfev_sched_task *perfev_sched__idle(struct perfev_sched *sc, size_t cpu)
{
	if (!sc || !sc->results_made || cpu >= sc->nr_idle || !sc->idle[cpu])
		return NULL;
	return &sc->idle_sum[cpu];
}

const struct perfev_sched_stats *perfev_sched__stats(const struct perfev_sched *sc)
{
	return &sc->stats;
}
