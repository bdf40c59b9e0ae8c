/* SPDX-License-Identifier: MIT */
/* What a perf_event_open(2) failure means for the user, and what to do about it. */
#include <limits.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "evlist/evlist_int.h"

static const char *paranoid_meaning(int level)
{
	switch (level) {
	case -1:
		return "no restrictions";
	case 0:
		return "users may measure CPUs and the kernel, but not read raw tracepoint data";
	case 1:
		return "users may measure their own processes, kernel included, but not CPUs";
	default:
		return "users may measure only the user space of their own processes";
	}
}

static bool attr_needs_kernel(const struct perf_event_attr *a)
{
	return !a->exclude_kernel || a->type == PERF_TYPE_TRACEPOINT;
}

bool foreign_process(pid_t pid)
{
	char path[32];
	struct stat st;

	snprintf(path, sizeof(path), "/proc/%d", (int)pid);
	return pid > 0 && stat(path, &st) == 0 && st.st_uid != geteuid();
}

/* Whether this user may open any event at all: a user-space-only event on itself. */
static bool user_space_allowed(void)
{
	struct perf_event_attr a = {
		.type = PERF_TYPE_SOFTWARE,
		.size = sizeof(a),
		.config = PERF_COUNT_SW_DUMMY,
		.disabled = 1,
		.exclude_kernel = 1,
		.exclude_hv = 1,
	};
	int fd = perfev_event_open(&a, 0, -1, -1, 0);

	if (fd < 0)
		return false;
	close(fd);
	return true;
}

/*
 * EACCES and EPERM: what kernel.perf_event_paranoid (and the process's
 * owner) allow this user, and only the ways out that would work here.
 */
static void explain_denied(const struct perf_event_attr *attr, const char *name,
			   const struct open_target *t, const char *es, char *buf, size_t size)
{
	int p = sysctl_perf_paranoid();
	bool kernel = attr && attr_needs_kernel(attr);
	/* Root without the capability (as in a container) is held to the same rules. */
	const char *run = geteuid() ? "Run as root or with CAP_PERFMON"
				    : "Give this root process the CAP_PERFMON it lacks";
	char level[160] = "";

	if (has_capability(CAP_PERFMON_BIT) || has_capability(CAP_SYS_ADMIN_BIT)) {
		snprintf(buf, size,
			 "cannot open event '%s': permission denied (%s) to a process with "
			 "CAP_PERFMON: a security policy (SELinux, AppArmor, the kernel's lockdown) "
			 "forbids it",
			 name, es);
		return;
	}
	if (p != INT_MIN)
		snprintf(level, sizeof(level), " kernel.perf_event_paranoid is %d (%s).", p,
			 paranoid_meaning(p));
	if (t->cpu_wide && p >= 1) {
		snprintf(buf, size,
			 "cannot open event '%s' on every task of a CPU: permission denied (%s).%s "
			 "%s, or 'sysctl kernel.perf_event_paranoid=0', to measure CPUs rather "
			 "than processes of your own; or measure a command of your own",
			 name, es, level, run);
	} else if (foreign_process(t->pid)) {
		snprintf(buf, size,
			 "cannot open event '%s': permission denied (%s); process %d belongs to "
			 "another user, and measuring it needs root or CAP_SYS_PTRACE",
			 name, es, (int)t->pid);
	} else if (p >= 3 && !user_space_allowed()) {
		snprintf(buf, size,
			 "cannot open event '%s': permission denied (%s). kernel.perf_event_paranoid "
			 "is %d, at which this kernel (as Debian's do) lets users measure nothing. %s, "
			 "or allow users with 'sysctl kernel.perf_event_paranoid=2' (their user "
			 "space) or 1 (the kernel too)",
			 name, es, p, run);
	} else if (kernel && p >= 2) {
		bool user_part = attr->type != PERF_TYPE_TRACEPOINT && !attr->exclude_user;
		const char *what = attr->type == PERF_TYPE_TRACEPOINT
					   ? "it is a tracepoint, which fires in the kernel"
				   : attr->exclude_user ? "it counts only the kernel"
							: "it counts the kernel too";

		snprintf(buf, size,
			 "cannot open event '%s': permission denied (%s); %s.%s %s, or 'sysctl "
			 "kernel.perf_event_paranoid=1'%s",
			 name, es, what, level, run,
			 user_part && !t->cpu_wide && user_space_allowed()
				 ? "; or add ':u' to measure user space only"
				 : "");
	} else {
		snprintf(buf, size, "cannot open event '%s': permission denied (%s).%s %s", name, es,
			 level, run);
	}
}

/* Too many open files: 'ulimit -n' helps only below the hard limit. */
static void explain_emfile(const char *name, const char *es, char *buf, size_t size)
{
	struct rlimit rl;
	char how[160] = "count fewer events, CPUs or threads";

	if (getrlimit(RLIMIT_NOFILE, &rl) == 0) {
		if (rl.rlim_cur < rl.rlim_max && rl.rlim_max != RLIM_INFINITY)
			snprintf(how, sizeof(how), "raise the limit (%llu) with 'ulimit -n %llu', or %s",
				 (unsigned long long)rl.rlim_cur, (unsigned long long)rl.rlim_max,
				 "count fewer events, CPUs or threads");
		else if (rl.rlim_cur < rl.rlim_max)
			snprintf(how, sizeof(how), "raise the limit (%llu) with 'ulimit -n', or %s",
				 (unsigned long long)rl.rlim_cur, "count fewer events, CPUs or threads");
		else
			snprintf(how, sizeof(how), "count fewer events, CPUs or threads, or raise the "
				 "hard limit (%llu; limits.conf, as root)", (unsigned long long)rl.rlim_max);
	}
	snprintf(buf, size,
		 "cannot open event '%s': too many open files (%s); each event takes one file per "
		 "CPU and thread: %s",
		 name, es, how);
}

int perfev_explain_open_error(int err, const struct perf_event_attr *attr, const char *name,
			      char *buf, size_t size)
{
	struct open_target t = { 0 };

	if (!buf || !size)
		return -EINVAL;
	explain_open_error(err, attr, name, &t, buf, size);
	return 0;
}

void explain_open_error(int err, const struct perf_event_attr *attr, const char *name,
			const struct open_target *t, char *buf, size_t size)
{
	uint64_t max_rate;
	char es[128];

	if (!name)
		name = "?";
	if (err > 0)
		err = -err;
	perfev_strerror(err, es, sizeof(es));
	switch (-err) {
	case EACCES:
	case EPERM:
		explain_denied(attr, name, t, es, buf, size);
		break;
	case ENOENT:
	case EOPNOTSUPP:
	case ENODEV:
	case ENXIO:
		if (attr && (attr->type == PERF_TYPE_HARDWARE || attr->type == PERF_TYPE_HW_CACHE ||
			     attr->type == PERF_TYPE_RAW))
			snprintf(buf, size,
				 "cannot open event '%s': not supported here (%s); this machine has no "
				 "hardware PMU that counts it (common in virtual machines); try a software "
				 "event such as cpu-clock or task-clock",
				 name, es);
		else if (attr && attr->sample_period && (-err) == EOPNOTSUPP)
			snprintf(buf, size,
				 "cannot open event '%s': its PMU cannot sample (%s); count it instead, or "
				 "sample with cpu-clock",
				 name, es);
		else
			snprintf(buf, size,
				 "cannot open event '%s': not supported by this kernel or PMU (%s); see "
				 "'perfev list' for the events that work here",
				 name, es);
		break;
	case EINVAL:
		if (attr && attr->precise_ip)
			snprintf(buf, size,
				 "cannot open event '%s': invalid argument (%s); the precise level :%.*s is "
				 "likely not supported, try fewer 'p' modifiers",
				 name, es, (int)attr->precise_ip, "ppp");
		else if (attr && attr->type == PERF_TYPE_BREAKPOINT)
			snprintf(buf, size,
				 "cannot open event '%s': invalid argument (%s); check the breakpoint "
				 "address, length (1, 2, 4 or 8, aligned) and access type",
				 name, es);
		else if (attr && attr->sample_freq && attr->freq &&
			 read_u64_file("/proc/sys/kernel/perf_event_max_sample_rate", &max_rate) == 0 &&
			 attr->sample_freq > max_rate)
			snprintf(buf, size,
				 "cannot open event '%s': invalid argument (%s); the sampling frequency %llu "
				 "exceeds kernel.perf_event_max_sample_rate (%llu): sample less often",
				 name, es, (unsigned long long)attr->sample_freq,
				 (unsigned long long)max_rate);
		else
			snprintf(buf, size,
				 "cannot open event '%s': invalid argument (%s); the kernel rejected its "
				 "config (0x%llx) or a modifier for PMU type %u",
				 name, es, attr ? (unsigned long long)attr->config : 0ULL,
				 attr ? attr->type : 0U);
		break;
	case EMFILE:
		explain_emfile(name, es, buf, size);
		break;
	case ESRCH:
		snprintf(buf, size,
			 "cannot open event '%s': the process to monitor does not exist (%s); it may "
			 "have exited",
			 name, es);
		break;
	case E2BIG:
		snprintf(buf, size,
			 "cannot open event '%s': the kernel does not know a field of perf_event_attr "
			 "(%s); it is older than this perfev",
			 name, es);
		break;
	case EBUSY:
		snprintf(buf, size,
			 "cannot open event '%s': the PMU is in exclusive use by another user (%s); try "
			 "again later",
			 name, es);
		break;
	case ENOSPC:
		snprintf(buf, size,
			 "cannot open event '%s': no free hardware slot (%s); breakpoints and some "
			 "PMUs have very few; use fewer at once",
			 name, es);
		break;
	default:
		snprintf(buf, size, "cannot open event '%s': %s", name, es);
		break;
	}
}
