/* SPDX-License-Identifier: MIT */
/* Vendor event names ("RETIRED_INSTRUCTIONS", "skl::INST_RETIRED:ANY_P") through libpfm4. */
#include <linux/perf_event.h> /* before libpfm's header, which then skips its own copy */
#include <perfmon/pfmlib_perf_event.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "events/events_int.h"
#include "util/dynlib.h"

/* libpfm4, opened when a name is first looked up in it (util/dynlib.h says why). */
_Static_assert(LIBPFM_VERSION >> 16 == 4, "libpfm4's soname is libpfm.so.4");

static struct {
	__typeof__(&pfm_initialize) initialize;
	__typeof__(&pfm_get_os_event_encoding) get_os_event_encoding;
	__typeof__(&pfm_get_pmu_info) get_pmu_info;
	__typeof__(&pfm_get_event_info) get_event_info;
	__typeof__(&pfm_get_event_attr_info) get_event_attr_info;
	__typeof__(&pfm_get_event_next) get_event_next;
} pfm;

#define PFM_BIND(h, f) ((pfm.f = (__typeof__(pfm.f))dynlib_sym((h), "pfm_" #f)) != NULL)

static bool pfm_bind(void *h)
{
	return PFM_BIND(h, initialize) && PFM_BIND(h, get_os_event_encoding) &&
	       PFM_BIND(h, get_pmu_info) && PFM_BIND(h, get_event_info) &&
	       PFM_BIND(h, get_event_attr_info) && PFM_BIND(h, get_event_next);
}

static struct dynlib libpfm = DYNLIB_INIT("libpfm.so.4", "libpfm4", "naming events by libpfm4's tables",
					  pfm_bind);

static pthread_once_t pfm_once = PTHREAD_ONCE_INIT;
static bool pfm_ok;
/* libpfm4 does not promise thread safety beyond initialisation. */
static pthread_mutex_t pfm_lock = PTHREAD_MUTEX_INITIALIZER;

static void pfm_init_once(void)
{
	/* Without libpfm4 its names are unknown, as any other unknown name; -v says why. */
	if (!dynlib_ready(&libpfm)) {
		pr_debug("events: %s\n", perfev_last_error());
		return;
	}
	pfm_ok = pfm.initialize() == PFM_SUCCESS;
}

static bool pfm_ready(void)
{
	return !pthread_once(&pfm_once, pfm_init_once) && pfm_ok;
}

int pfm__parse(const char *name, struct perf_event_attr *attr)
{
	struct perf_event_attr a;
	pfm_perf_encode_arg_t arg;
	int ret;

	if (!pfm_ready())
		return -PERFEV_ERR_UNKNOWN_EVENT;
	memset(&a, 0, sizeof(a));
	memset(&arg, 0, sizeof(arg));
	arg.attr = &a;
	arg.size = sizeof(arg);
	pthread_mutex_lock(&pfm_lock);
	/* User and kernel by default, as perf asks; modifiers narrow it later. */
	ret = pfm.get_os_event_encoding(name, PFM_PLM0 | PFM_PLM3, PFM_OS_PERF_EVENT_EXT, &arg);
	pthread_mutex_unlock(&pfm_lock);
	if (ret != PFM_SUCCESS)
		return -PERFEV_ERR_UNKNOWN_EVENT;
	/* libpfm4 writes the size of the struct it was built with; let open set ours. */
	a.size = 0;
	*attr = a;
	return 0;
}

/* The PMUs libpfm4 found on this CPU, without its generic "perf" tables. */
static bool pmu_wanted(pfm_pmu_t pmu, pfm_pmu_info_t *info)
{
	memset(info, 0, sizeof(*info));
	info->size = sizeof(*info);
	if (pmu == PFM_PMU_PERF_EVENT || pmu == PFM_PMU_PERF_EVENT_RAW)
		return false;
	return pfm.get_pmu_info(pmu, info) == PFM_SUCCESS && info->is_present;
}

/* Whether "pmu::event" encodes as it is: some events need a unit mask. */
static bool encodes(const char *pmu, const char *event)
{
	struct perf_event_attr a;
	pfm_perf_encode_arg_t arg;
	char full[512];

	if ((size_t)snprintf(full, sizeof(full), "%s::%s", pmu, event) >= sizeof(full))
		return false;
	memset(&a, 0, sizeof(a));
	memset(&arg, 0, sizeof(arg));
	arg.attr = &a;
	arg.size = sizeof(arg);
	return pfm.get_os_event_encoding(full, PFM_PLM0 | PFM_PLM3, PFM_OS_PERF_EVENT_EXT, &arg) ==
	       PFM_SUCCESS;
}

/* The event alone when it encodes so, then "EVENT:UMASK" for each unit mask. */
static int walk_event(const char *pmu, int idx, pfm_event_cb cb, void *ctx)
{
	pfm_event_info_t info;
	char name[512];
	int ret = 0;

	memset(&info, 0, sizeof(info));
	info.size = sizeof(info);
	if (pfm.get_event_info(idx, PFM_OS_NONE, &info) != PFM_SUCCESS || !info.name)
		return 0;
	if (encodes(pmu, info.name))
		ret = cb(pmu, info.name, info.desc ? info.desc : "", ctx);
	for (int i = 0; i < info.nattrs && !ret; i++) {
		pfm_event_attr_info_t ai;

		memset(&ai, 0, sizeof(ai));
		ai.size = sizeof(ai);
		if (pfm.get_event_attr_info(idx, i, PFM_OS_NONE, &ai) != PFM_SUCCESS ||
		    ai.type != PFM_ATTR_UMASK || !ai.name)
			continue;
		if ((size_t)snprintf(name, sizeof(name), "%s:%s", info.name, ai.name) >= sizeof(name))
			continue;
		ret = cb(pmu, name, ai.desc ? ai.desc : "", ctx);
	}
	return ret;
}

int pfm__for_each_event(pfm_event_cb cb, void *ctx)
{
	pfm_pmu_t pmu;
	int ret = 0;

	if (!pfm_ready())
		return 0;
	pthread_mutex_lock(&pfm_lock);
	pfm_for_all_pmus(pmu)
	{
		pfm_pmu_info_t pinfo;

		if (!pmu_wanted(pmu, &pinfo))
			continue;
		for (int idx = pinfo.first_event; idx != -1 && !ret; idx = pfm.get_event_next(idx))
			ret = walk_event(pinfo.name, idx, cb, ctx);
		if (ret)
			break;
	}
	pthread_mutex_unlock(&pfm_lock);
	return ret;
}

void pfm__suggest(struct suggest *s)
{
	pfm_pmu_t pmu;

	if (!pfm_ready())
		return;
	pthread_mutex_lock(&pfm_lock);
	pfm_for_all_pmus(pmu)
	{
		pfm_pmu_info_t pinfo;

		if (!pmu_wanted(pmu, &pinfo))
			continue;
		for (int idx = pinfo.first_event; idx != -1; idx = pfm.get_event_next(idx)) {
			pfm_event_info_t info;

			memset(&info, 0, sizeof(info));
			info.size = sizeof(info);
			if (pfm.get_event_info(idx, PFM_OS_NONE, &info) == PFM_SUCCESS && info.name)
				suggest__add(s, info.name, NULL);
		}
	}
	pthread_mutex_unlock(&pfm_lock);
}
