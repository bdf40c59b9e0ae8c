/* SPDX-License-Identifier: MIT */
/* The generic hardware and software events every perf_event kernel knows by number. */
#include <string.h>

#include "events/events_int.h"

#define HW(n, a, c, d) { n, a, PERF_TYPE_HARDWARE, PERF_COUNT_HW_##c, d }
#define SW(n, a, c, d) { n, a, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_##c, d }

/* Names and aliases are perf's, so perf users' command lines carry over. */
const struct symbolic_event symbolic_events[] = {
	HW("cycles", "cpu-cycles", CPU_CYCLES, "CPU cycles"),
	HW("instructions", NULL, INSTRUCTIONS, "instructions retired"),
	HW("cache-references", NULL, CACHE_REFERENCES,
	   "cache accesses (usually last level cache references)"),
	HW("cache-misses", NULL, CACHE_MISSES, "cache misses (usually last level cache misses)"),
	HW("branches", "branch-instructions", BRANCH_INSTRUCTIONS, "branch instructions retired"),
	HW("branch-misses", NULL, BRANCH_MISSES, "mispredicted branch instructions"),
	HW("bus-cycles", NULL, BUS_CYCLES, "bus cycles (may differ from CPU cycles)"),
	HW("stalled-cycles-frontend", "idle-cycles-frontend", STALLED_CYCLES_FRONTEND,
	   "cycles stalled in the instruction fetch/decode front end"),
	HW("stalled-cycles-backend", "idle-cycles-backend", STALLED_CYCLES_BACKEND,
	   "cycles stalled in the execution back end"),
	HW("ref-cycles", NULL, REF_CPU_CYCLES, "reference cycles, unaffected by frequency scaling"),
	SW("cpu-clock", NULL, CPU_CLOCK, "CPU clock timer, a high-resolution per-CPU timer"),
	SW("task-clock", NULL, TASK_CLOCK, "task clock: time the monitored task ran"),
	SW("page-faults", "faults", PAGE_FAULTS, "page faults"),
	SW("context-switches", "cs", CONTEXT_SWITCHES, "context switches"),
	SW("cpu-migrations", "migrations", CPU_MIGRATIONS, "migrations of the task to another CPU"),
	SW("minor-faults", NULL, PAGE_FAULTS_MIN, "minor page faults (no I/O needed)"),
	SW("major-faults", NULL, PAGE_FAULTS_MAJ, "major page faults (I/O needed)"),
	SW("alignment-faults", NULL, ALIGNMENT_FAULTS, "alignment faults the kernel fixed up"),
	SW("emulation-faults", NULL, EMULATION_FAULTS, "instructions the kernel emulated"),
	SW("dummy", NULL, DUMMY, "placeholder that counts nothing (for side-band records)"),
	SW("bpf-output", NULL, BPF_OUTPUT, "output channel for BPF programs"),
	SW("cgroup-switches", NULL, CGROUP_SWITCHES, "context switches to a task in another cgroup"),
};
const size_t nr_symbolic_events = ARRAY_SIZE(symbolic_events);

const struct symbolic_event *symbolic_event__find(const char *name)
{
	for (size_t i = 0; i < nr_symbolic_events; i++) {
		const struct symbolic_event *e = &symbolic_events[i];

		if (!strcmp(name, e->name) || (e->alias && !strcmp(name, e->alias)))
			return e;
	}
	return NULL;
}
