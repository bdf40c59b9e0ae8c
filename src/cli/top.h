/* SPDX-License-Identifier: MIT */
/* perfev top: the options and the live loop (top_live.c). */
#ifndef PERFEV_CLI_TOP_H
#define PERFEV_CLI_TOP_H

#include <stdbool.h>

#include "record.h"
#include "report.h"

struct top_opts {
	struct record_opts rec; /* events, -F/-c, -g, the target, -m, the command */
	struct report_opts ro;	/* the table: sort keys, children, -E */
	long tid;		/* -t: one thread; 0 when not given */
	long delay_ms;		/* -d: between refreshes */
	bool zero;		/* -z: each refresh starts from nothing (else the 7/8 decay) */
	bool hide_kernel, hide_user; /* -K, -U */
	bool no_demangle;
	bool entries_set; /* -E given */
};

/* Samples until q, an ending signal, or (--stdio) the command or process ending; the exit status. */
int top_run(struct top_opts *o);

#endif
