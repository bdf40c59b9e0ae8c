// SPDX-License-Identifier: MIT
/*
 * perfev report --stats: how many records of each type the file holds, and
 * each event's samples, in perf report --stats's layout.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "perfev/perfev.h"
#include "report.h"

/* perf's names of the record types (perf_event__names), by type. */
static const char *const names[] = {
	[0] = "TOTAL",
	[1] = "MMAP",
	[2] = "LOST",
	[3] = "COMM",
	[4] = "EXIT",
	[5] = "THROTTLE",
	[6] = "UNTHROTTLE",
	[7] = "FORK",
	[8] = "READ",
	[9] = "SAMPLE",
	[10] = "MMAP2",
	[11] = "AUX",
	[12] = "ITRACE_START",
	[13] = "LOST_SAMPLES",
	[14] = "SWITCH",
	[15] = "SWITCH_CPU_WIDE",
	[16] = "NAMESPACES",
	[17] = "KSYMBOL",
	[18] = "BPF_EVENT",
	[19] = "CGROUP",
	[20] = "TEXT_POKE",
	[21] = "AUX_OUTPUT_HW_ID",
	[64] = "ATTR",
	[65] = "EVENT_TYPE",
	[66] = "TRACING_DATA",
	[67] = "BUILD_ID",
	[68] = "FINISHED_ROUND",
	[69] = "ID_INDEX",
	[70] = "AUXTRACE_INFO",
	[71] = "AUXTRACE",
	[72] = "AUXTRACE_ERROR",
	[73] = "THREAD_MAP",
	[74] = "CPU_MAP",
	[75] = "STAT_CONFIG",
	[76] = "STAT",
	[77] = "STAT_ROUND",
	[78] = "EVENT_UPDATE",
	[79] = "TIME_CONV",
	[80] = "FEATURE",
	[81] = "COMPRESSED",
	[82] = "FINISHED_INIT",
};

#define NR_TYPES (sizeof(names) / sizeof(names[0]))

int report_print_stats(FILE *f, struct perfev_data_reader *r, const char *input)
{
	struct perfev_data_event ev;
	uint64_t total = 0, *samples = NULL;
	size_t nr_samples = 0;
	int err;

	while ((err = perfev_data_reader__next(r, &ev)) > 0) {
		if (ev.rec.type != PERF_RECORD_SAMPLE || ev.evsel < 0)
			continue;
		if ((size_t)ev.evsel >= nr_samples) {
			size_t n = (size_t)ev.evsel + 1;
			uint64_t *s = realloc(samples, n * sizeof(*s));

			if (!s) {
				free(samples);
				cli_error("out of memory reading '%s'", input);
				return 1;
			}
			memset(s + nr_samples, 0, (n - nr_samples) * sizeof(*s));
			samples = s;
			nr_samples = n;
		}
		samples[ev.evsel]++;
	}
	if (err < 0)
		cli_error("'%s' is damaged: %s; the counts are of the records before that point", input,
			  perfev_last_error());
	for (size_t t = 1; t < NR_TYPES; t++)
		if (names[t])
			total += perfev_data_reader__nr_records(r, (uint32_t)t);
	fprintf(f, "\nAggregated stats:\n%16s events: %10" PRIu64 "\n", names[0], total);
	for (size_t t = 1; t < NR_TYPES; t++) {
		uint64_t n = names[t] ? perfev_data_reader__nr_records(r, (uint32_t)t) : 0;

		if (n)
			fprintf(f, "%16s events: %10" PRIu64 "  (%4.1f%%)\n", names[t], n,
				100.0 * (double)n / (double)total);
	}
	for (size_t i = 0; i < nr_samples; i++)
		if (samples[i])
			fprintf(f, "%s stats:\n%16s events: %10" PRIu64 "\n",
				perfev_data_reader__evsel_name(r, i), names[PERF_RECORD_SAMPLE],
				samples[i]);
	free(samples);
	return err < 0;
}

/* One thread's counts for -T: the last PERF_RECORD_READ value of each event. */
struct thread_counts {
	int pid, tid;
	uint64_t *val; /* per event */
};

int report_print_threads(FILE *f, const char *input)
{
	struct perfev_data_reader *r;
	struct perfev_data_event ev;
	struct thread_counts *t = NULL;
	size_t nt = 0, ne;
	int err;

	if (!strcmp(input, "-")) {
		cli_note("-T needs the file again after the report; a pipe cannot be read twice");
		return 0;
	}
	r = perfev_data_reader__open(input, NULL);
	if (!r) {
		cli_error("cannot read '%s' again for -T: %s", input, perfev_last_error());
		return 1;
	}
	ne = perfev_data_reader__nr_evsels(r);
	while ((err = perfev_data_reader__next(r, &ev)) > 0) {
		struct perfev_counts c[64];
		const struct perf_event_attr *a;
		size_t i;
		int n;

		if (ev.rec.type != PERF_RECORD_READ || ev.evsel < 0 || (size_t)ev.evsel >= ne)
			continue;
		a = perfev_data_reader__attr(r, (size_t)ev.evsel);
		n = perfev_read_format__parse(a->read_format, ev.rec.read.values, ev.rec.read.size, c,
					      64);
		for (i = 0; i < nt; i++)
			if (t[i].pid == (int)ev.rec.read.pid && t[i].tid == (int)ev.rec.read.tid)
				break;
		if (i == nt) {
			struct thread_counts *g = realloc(t, (nt + 1) * sizeof(*g));

			if (!g || !(g[nt].val = calloc(ne ? ne : 1, sizeof(uint64_t)))) {
				t = g ? g : t;
				err = -ENOMEM;
				break;
			}
			t = g;
			t[nt].pid = (int)ev.rec.read.pid;
			t[nt].tid = (int)ev.rec.read.tid;
			nt++;
		}
		/* A group's read gives every member; each value goes to its event by id. */
		for (int k = 0; k < n && k < 64; k++) {
			int e = (a->read_format & PERF_FORMAT_ID)
					? perfev_data_reader__evsel_of_id(r, c[k].id)
					: ev.evsel;

			if (e >= 0 && (size_t)e < ne)
				t[i].val[e] = c[k].val;
		}
	}
	/* As perf -T: a column per event, a row per thread that reported counts. */
	fputs("# PID  TID", f);
	for (size_t e = 0; e < ne && nt; e++)
		fprintf(f, "  %s", perfev_data_reader__evsel_name(r, e));
	fputc('\n', f);
	for (size_t i = 0; i < nt; i++) {
		fprintf(f, "  %5d  %5d", t[i].pid, t[i].tid);
		for (size_t e = 0; e < ne; e++)
			fprintf(f, "  %*" PRIu64, (int)strlen(perfev_data_reader__evsel_name(r, e)),
				t[i].val[e]);
		fputc('\n', f);
		free(t[i].val);
	}
	free(t);
	if (err < 0)
		cli_error("'%s': %s", input, err == -ENOMEM ? "out of memory" : perfev_last_error());
	perfev_data_reader__delete(r);
	return err < 0;
}
