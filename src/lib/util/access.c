/* SPDX-License-Identifier: MIT */
/*
 * What the kernel lets this process see and measure: the sysctls and
 * capabilities behind a refusal, so that an explanation names the ones
 * that apply here and only ways out that would work here.
 */
#include <limits.h>
#include <stdio.h>
#include <unistd.h>

#include "util/internal.h"

static int sysctl_int(const char *path)
{
	char p[256];
	uint64_t v;

	sys_root__path(p, sizeof(p), path);
	if (read_u64_file(p, &v) < 0)
		return INT_MIN;
	return (int)(int64_t)v;
}

int sysctl_perf_paranoid(void)
{
	return sysctl_int("/proc/sys/kernel/perf_event_paranoid");
}

int sysctl_kptr_restrict(void)
{
	return sysctl_int("/proc/sys/kernel/kptr_restrict");
}

bool has_capability(int cap)
{
	char path[256], line[256];
	unsigned long long caps = 0;
	FILE *f;

	sys_root__path(path, sizeof(path), "/proc/self/status");
	f = fopen(path, "re");
	if (!f)
		return false;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "CapEff: %llx", &caps) == 1)
			break;
	fclose(f);
	return cap >= 0 && cap < 64 && (caps >> cap) & 1;
}

/*
 * /proc/kallsyms shows addresses (kallsyms_show_value() in the kernel) at
 * kptr_restrict 0 to everyone while perf_event_paranoid is 1 or below,
 * and otherwise, at kptr_restrict 0 or 1, to CAP_SYSLOG only; at 2 and
 * above to nobody.
 */
void explain_hidden_kptrs(char *buf, size_t size)
{
	int k = sysctl_kptr_restrict(), p = sysctl_perf_paranoid();
	const char *root = geteuid() ? "run as root" : "give this root process the CAP_SYSLOG it lacks";

	if (k == INT_MIN)
		snprintf(buf, size, "the kernel hides its addresses (kernel.kptr_restrict); %s", root);
	else if (k >= 2)
		snprintf(buf, size,
			 "kernel.kptr_restrict is %d, which hides kernel addresses from everyone, "
			 "root included; 'sysctl kernel.kptr_restrict=1' shows them to root", k);
	else if (has_capability(CAP_SYSLOG_BIT) || (k == 0 && p != INT_MIN && p <= 1))
		snprintf(buf, size,
			 "kernel.kptr_restrict is %d, which should show them to this process; a "
			 "security policy (the kernel's lockdown) hides them", k);
	else if (k == 1)
		snprintf(buf, size,
			 "kernel.kptr_restrict is 1, which shows kernel addresses only to processes "
			 "with CAP_SYSLOG; %s, or 'sysctl kernel.kptr_restrict=0' together with "
			 "kernel.perf_event_paranoid at 1 or below", root);
	else
		snprintf(buf, size,
			 "kernel.kptr_restrict is 0, which shows kernel addresses to users only while "
			 "kernel.perf_event_paranoid is 1 or below (it is %d); %s, or 'sysctl "
			 "kernel.perf_event_paranoid=1'", p, root);
}
