/* SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "opt.h"
#include "perfev/perfev.h"
#include "target.h"

static bool has_option(const struct opt_cmd *c, int key)
{
	struct opt_item items[OPT_MAX];
	int n = opt_items(c, items);

	for (int i = 0; i < n; i++)
		if (items[i].o->key == key)
			return true;
	return false;
}

/* The process thread tid belongs to (/proc/TID/status's Tgid), or 0 when there is no such thread. */
static pid_t tgid_of(long tid)
{
	char path[64], line[256];
	long v = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%ld/status", tid);
	f = fopen(path, "re");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "Tgid: %ld", &v) == 1)
			break;
	fclose(f);
	return (pid_t)v;
}

pid_t cli_target__process(const struct cli_target *t)
{
	return t->tid > 0 ? t->tid_pid : (pid_t)t->pid;
}

bool cli_target__check(struct cli_target *t, const struct opt_cmd *c, char *const *argv,
		       unsigned flags)
{
	bool cpus_conflict = !(flags & TARGET_TASK_ON_CPUS);

	if (t->tid > 0) {
		if (argv[0] || t->pid > 0 || t->all_cpus || t->cgroup || t->cpus) {
			cli_error("-t %ss one existing thread; it cannot be combined with a command, "
				  "-p, -a or -C", c->verb);
			return false;
		}
		t->tid_pid = tgid_of(t->tid);
		if (t->tid_pid <= 0) {
			cli_error("-t %ld: no such thread (see ls /proc/PID/task for a process's "
				  "threads)", t->tid);
			return false;
		}
		return true;
	}

	if (t->pid > 0 && (t->all_cpus || t->cgroup || (cpus_conflict && t->cpus))) {
		/* Only the options the command has, as "-a", "-a or -C", "-a, -C or -G". */
		const char *others[3] = { "-a" };
		char list[32] = "";
		int n = 1;

		if (cpus_conflict)
			others[n++] = "-C";
		if (has_option(c, 'G'))
			others[n++] = "-G";
		for (int i = 0; i < n; i++)
			snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s",
				 i == 0 ? "" : i == n - 1 ? " or " : ", ", others[i]);
		cli_error("-p %ss one process; it cannot be combined with %s", c->verb, list);
		return false;
	}
	if (t->cgroup && !t->cpus)
		t->all_cpus = true;
	if (!argv[0] && t->pid <= 0 && !t->all_cpus && !t->cpus) {
		cli_error("nothing to %s: give a command, -p PID, -a or -C CPUS; see 'perfev %s --help'",
			  c->verb, c->name);
		return false;
	}
	return true;
}

bool cli_target__system_wide(const struct cli_target *t)
{
	return t->all_cpus || (t->cpus && t->pid <= 0);
}

void cli_target__open_opts(const struct cli_target *t, pid_t child, bool inherit,
			   struct perfev_open_opts *o)
{
	o->cpus = t->cpus;
	o->cgroup = t->cgroup;
	o->system_wide = cli_target__system_wide(t);
	if (o->system_wide) {
		/* CPU-wide counters have no task whose exec could enable them: they count from open. */
		o->pid = -1;
		return;
	}
	/* With -p, a command only bounds the measurement (perf's -p PID -- sleep N): it is not measured. */
	o->pid = t->pid > 0 ? (pid_t)t->pid : child > 0 ? child : (pid_t)t->tid;
	/* -t opens on the thread alone: a thread id as pid names only that thread. */
	o->attach_all_threads = t->pid > 0;
	o->inherit = inherit;
	o->enable_on_exec = child > 0 && t->pid <= 0;
	/* As perf: a user kept from the kernel measures user space rather than nothing. */
	o->fallback_user_only = true;
}

void cli_target__note_user_only(struct perfev_evlist *el)
{
	struct perfev_evsel *ev;
	char names[512] = "";
	size_t len = 0;

	perfev_evlist__for_each_evsel(el, ev)
		if (perfev_evsel__user_only_fallback(ev) && !perfev_evsel__open_status(ev) &&
		    len < sizeof(names))
			len += (size_t)snprintf(names + len, sizeof(names) - len, "%s%s",
						len ? ", " : "", perfev_evsel__name(ev));
	if (!len)
		return;
	cli_note("kernel.perf_event_paranoid lets this user measure only user space, so %s "
		 "%s only that (as perf does); to include the kernel, %s, or 'sysctl "
		 "kernel.perf_event_paranoid=1'",
		 names, strchr(names, ',') ? "measure" : "measures",
		 geteuid() ? "run as root or with CAP_PERFMON"
			   : "give this root process the CAP_PERFMON it lacks");
}
