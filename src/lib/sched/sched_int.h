/* SPDX-License-Identifier: MIT */
/* Shared by sched/'s files: the per-thread figures, the events' fields, the state. */
#ifndef PERFEV_SCHED_INT_H
#define PERFEV_SCHED_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/idxhash.h"
#include "perfev/sched.h"
#include "perfev/tracefmt.h"

/* What perf sched latency keeps of a thread: its last wait ("atom") and the sums. */
enum lat_state { LAT_SLEEPING, LAT_WAIT_CPU, LAT_SCHED_IN, LAT_IGNORE };

struct lat {
	bool seen;	/* has atoms: perf's work_atoms exist for it */
	enum lat_state state;
	uint64_t sched_out_time, wake_up_time;
	uint64_t total_runtime, nr_atoms, total_lat, max_lat, max_start, max_end;
};

/* A thread's running figures of timehist (perf's thread_runtime). */
struct th {
	uint64_t last_time, ready_to_run;
	char last_state;
	uint64_t dt_run, dt_sleep, dt_iowait, dt_preempt, dt_delay;
	uint64_t n, total_run, run_min, run_max;
	double mean, m2;
	uint64_t total_sleep, total_iowait, total_preempt, total_delay, migrations;
};

struct task {
	int pid, tid;
	struct perfev_thread *st; /* the session's thread of tid, once it has one */
	struct lat lat;
	struct th th;
	bool has_th;
	/*
	 * The process timehist shows it in: what was known when timehist first
	 * met it (perf keeps a thread's pid from then: 0 when a wakeup made it).
	 */
	int th_pid;
	bool th_pid_set;
	uint64_t th_first; /* when timehist first met it */
	/* The fork time of the session's thread it stands for; a later one is a new thread. */
	uint64_t fork_seen;
	const char *retired_comm; /* a thread replaced by a new one of its tid: its last name */
	char dflt[24]; /* ":TID", perf's name for a thread nothing named */
};

/* The fields of one event, looked up once. */
enum ev_kind { EV_OTHER, EV_SWITCH, EV_WAKEUP, EV_WAKING, EV_WAKEUP_NEW, EV_RUNTIME, EV_MIGRATE };

struct ev_info {
	enum ev_kind kind;
	const struct perfev_tp_format *f;
	const struct perfev_tp_field *prev_pid, *next_pid, *prev_state, *next_comm;
	const struct perfev_tp_field *pid, *runtime, *orig_cpu, *dest_cpu;
};

struct perfev_sched {
	struct perfev_sched_opts opts;
	struct perfev_session *s;
	struct perfev_tracefmt *tf;
	struct ev_info *evs;
	size_t nr_evs;
	bool have_waking;
	char states[16]; /* prev_state's letters by bit, from the print fmt */
	bool processed;

	struct task **tasks;
	size_t nr_tasks, cap_tasks;
	struct idxhash by_tid;
	/* Threads replaced by a new one of their tid (perf keeps their latency lines apart). */
	struct task **retired;
	size_t nr_retired, cap_retired;
	struct task **idle; /* by CPU */
	size_t nr_idle;

	/* perf sched latency's per-CPU state */
	uint64_t *cpu_last_switched;
	int64_t *curr_pid;
	size_t nr_cpu_slots;

	/* timehist: each CPU's last switch time, per event (perf keeps it per evsel) */
	uint64_t *last_switch;

	struct perfev_sched_stats stats;

	/* Results, made once processing is done. */
	struct perfev_sched_latency *lats;
	size_t nr_lats;
	struct perfev_sched_task *sum;
	size_t nr_sum;
	struct perfev_sched_task *idle_sum;
	bool results_made;
	char *sort_keys;
};

/* states.c */
/* The letters of prev_state's bits from sched_switch's print fmt, into out (size >= 16). */
void sched_states_from_fmt(const char *fmt, char *out, size_t size);
/* The state letter of prev_state value v, as perf's evsel__taskstate() gives it. */
char sched_state_char(const char *states, uint64_t v);

/* tasks.c */
struct task *sched_task(struct perfev_sched *sc, int pid, int tid);
struct task *sched_find_task(struct perfev_sched *sc, int tid);
struct task *sched_idle_task(struct perfev_sched *sc, uint32_t cpu);
/* Grows the per-CPU arrays to hold cpu; false on ENOMEM or an absurd cpu. */
bool sched_cpu_slots(struct perfev_sched *sc, uint32_t cpu);
/* The name perf gives the thread now: the session's (":TID" when none named it). */
const char *sched_task_comm(struct perfev_sched *sc, struct task *t);
void sched_tasks_free(struct perfev_sched *sc);

/* latency.c */
int lat_switch(struct perfev_sched *sc, uint32_t cpu, uint64_t time, int prev_pid, int next_pid,
	       char prev_state);
int lat_runtime(struct perfev_sched *sc, uint64_t time, int pid, uint64_t runtime);
int lat_wakeup(struct perfev_sched *sc, uint64_t time, int pid);
int lat_make(struct perfev_sched *sc);

/* timehist.c */
/* state: R, D or S, where the wait is counted; shown: the letter a row shows. */
int th_switch(struct perfev_sched *sc, const struct perfev_session_sample *ss, uint64_t time,
	      uint32_t cpu, int prev_pid, char state, char shown, const char *next_comm,
	      int next_pid, perfev_sched_row_fn fn, void *ctx);
int th_wakeup(struct perfev_sched *sc, const struct perfev_session_sample *ss, uint64_t time,
	      uint32_t cpu, int pid, perfev_sched_row_fn fn, void *ctx);
int th_migrate(struct perfev_sched *sc, const struct perfev_session_sample *ss, uint64_t time,
	       uint32_t cpu, int pid, int orig, int dest, perfev_sched_row_fn fn, void *ctx);
int th_make(struct perfev_sched *sc);

#endif
