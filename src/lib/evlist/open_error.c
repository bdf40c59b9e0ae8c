/* SPDX-License-Identifier: MIT */
/* What a perf_event_open(2) failure means for the user, and what to do about it. */
#include <string.h>

#include "evlist/evlist_int.h"

static const char *paranoid_meaning(long level)
{
	switch (level) {
	case -1:
		return "no restrictions";
	case 0:
		return "users may count and sample any CPU-wide event, no raw tracepoint data";
	case 1:
		return "users may count and sample their own processes, kernel included, and CPU events";
	case 2:
		return "users may measure only user space of their own processes";
	default:
		return "users may not use perf events at all (Debian's level 3 and above)";
	}
}

static bool attr_needs_kernel(const struct perf_event_attr *a)
{
	return !a->exclude_kernel || a->type == PERF_TYPE_TRACEPOINT;
}

int perfev_explain_open_error(int err, const struct perf_event_attr *attr, const char *name,
			      char *buf, size_t size)
{
	uint64_t paranoid = 2;
	char es[128];
	int p;

	if (!buf || !size)
		return -EINVAL;
	if (!name)
		name = "?";
	if (err > 0)
		err = -err;
	perfev_strerror(err, es, sizeof(es));
	switch (-err) {
	case EACCES:
	case EPERM:
		if (read_u64_file("/proc/sys/kernel/perf_event_paranoid", &paranoid) < 0)
			paranoid = 2;
		p = (int)(int64_t)paranoid;
		snprintf(buf, size,
			 "cannot open event '%s': permission denied (%s). kernel.perf_event_paranoid is %d "
			 "(%s)%s. Run as root or with CAP_PERFMON (CAP_SYS_ADMIN before Linux 5.8), "
			 "lower the level with 'sysctl kernel.perf_event_paranoid=1', or add ':u' to "
			 "count user space only",
			 name, es, p, paranoid_meaning(p),
			 attr && attr_needs_kernel(attr) ? "; this event includes kernel space" : "");
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
		else if (attr && (attr->sample_freq && attr->freq))
			snprintf(buf, size,
				 "cannot open event '%s': invalid argument (%s); the sampling frequency %llu "
				 "may exceed kernel.perf_event_max_sample_rate",
				 name, es, (unsigned long long)attr->sample_freq);
		else
			snprintf(buf, size,
				 "cannot open event '%s': invalid argument (%s); the kernel rejected its "
				 "config (0x%llx) or a modifier for PMU type %u",
				 name, es, attr ? (unsigned long long)attr->config : 0ULL,
				 attr ? attr->type : 0U);
		break;
	case EMFILE:
		snprintf(buf, size,
			 "cannot open event '%s': too many open files (%s); each event takes one "
			 "file per CPU and thread: raise the limit with 'ulimit -n' or count fewer "
			 "events, CPUs or threads",
			 name, es);
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
	return 0;
}
