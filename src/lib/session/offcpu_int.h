/* SPDX-License-Identifier: MIT */
/* The session's off-CPU intervals (offcpu.c), as session.c drives them. */
#ifndef PERFEV_SESSION_OFFCPU_INT_H
#define PERFEV_SESSION_OFFCPU_INT_H

#include <stdbool.h>
#include <stdint.h>

#include "perfev/session.h"

struct sess_offcpu;

/* count: how session.c counts a delivery of event evsel (offcpu.c does not call up into it). */
int offcpu_init(struct perfev_session *s,
		void (*count)(struct perfev_session *s, int evsel, uint64_t period));
void offcpu_free(struct perfev_session *s);
/* Whether event evsel is sched:sched_switch (by the file's tracing data). */
bool offcpu_is_switch(struct perfev_session *s, int evsel);
/* A sched_switch sample: the next thread's switch-in, then this one's switch-out held. */
int offcpu_switch_out(struct perfev_session *s, const struct perfev_data_event *ev,
		      perfev_session_sample_fn fn, void *ctx);
/* Thread tid runs again at t: its held switch-out, if any, is delivered. */
int offcpu_switch_in(struct perfev_session *s, int tid, uint64_t t, perfev_session_sample_fn fn,
		     void *ctx);
/* Thread tid exited: what it held is dropped. */
void offcpu_exit(struct perfev_session *s, int tid);
/* A record's time, for the end of the recording. */
void offcpu_note_time(struct perfev_session *s, uint64_t t);
/* At the end: the threads still blocked, blocked until the last record. */
int offcpu_finish(struct perfev_session *s, perfev_session_sample_fn fn, void *ctx);
/* The index into the states of a prev_state value: 0 R, 1 S, 2 D, 3 T, 4 t, 5 X, 6 Z, 7 P, 8 I. */
int offcpu_state_index(uint64_t prev_state);

#endif
