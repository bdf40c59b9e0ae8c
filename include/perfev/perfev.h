/* SPDX-License-Identifier: MIT */
/* perfev: the whole public API. */
#ifndef PERFEV_PERFEV_H
#define PERFEV_PERFEV_H

#include "perfev/common.h"
#include "perfev/annotate.h"
#include "perfev/cpumap.h"
#include "perfev/events.h"
#include "perfev/evlist.h"
#include "perfev/perfdata.h"
#include "perfev/perfdata_reader.h"
#include "perfev/record.h"
#include "perfev/json.h"
#include "perfev/ring.h"
#include "perfev/sample_filter.h"
#include "perfev/profile.h"
#include "perfev/profile_table.h"
#include "perfev/profile_diff.h"
#include "perfev/profile_write.h"
#include "perfev/selfmon.h"
#include "perfev/session.h"
#include "perfev/sched.h"
#include "perfev/symbols.h"
#include "perfev/syscalls.h"
#include "perfev/tracefmt.h"
#include "perfev/unwind.h"
#include "perfev/synth.h"
#include "perfev/buildid_cache.h"
#include "perfev/workload.h"

#endif
