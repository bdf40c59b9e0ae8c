/* SPDX-License-Identifier: MIT */
/*
 * The feature sections of perf.data (perf's HEADER_* bits) in the layouts
 * tools/perf/util/header.c reads: host facts from uname, /proc and /sys,
 * and what the caller declared (events, groups, build ids, command line).
 */
#include <ctype.h>
#include <dirent.h>
#include <stdlib.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "perfdata/writer_int.h"

#define PD_CPUINFO_MAX (64 * 1024) /* the first processor's block is well within this */

/* [v, end) without leading spaces and with runs of spaces as one, as perf squashes brand strings. */
static size_t copy_squashed(const char *v, const char *end, char *out, size_t size)
{
	bool space = false;
	size_t n = 0;

	while (v < end && isspace((unsigned char)*v))
		v++;
	for (; v < end && n + 1 < size; v++) {
		if (isspace((unsigned char)*v)) {
			space = true;
			continue;
		}
		if (space && n + 2 < size)
			out[n++] = ' ';
		space = false;
		out[n++] = *v;
	}
	out[n] = '\0';
	return n;
}

/*
 * The value of "key<spaces>: value" in the first block of /proc/cpuinfo
 * (up to the first blank line: the first processor).  false when the key
 * is not there or has no value.
 */
static bool cpuinfo_value(const char *info, const char *key, char *out, size_t size)
{
	size_t klen = strlen(key);
	const char *line = info;

	while (*line && *line != '\n') {
		const char *eol = strchr(line, '\n'), *colon, *k_end;

		if (!eol)
			eol = line + strlen(line);
		colon = memchr(line, ':', (size_t)(eol - line));
		if (colon) {
			for (k_end = colon; k_end > line && isspace((unsigned char)k_end[-1]); k_end--)
				;
			if ((size_t)(k_end - line) == klen && !memcmp(line, key, klen))
				return copy_squashed(colon + 1, eol, out, size) > 0;
		}
		line = *eol ? eol + 1 : eol;
	}
	return false;
}

static char *read_cpuinfo(void)
{
	char *buf = malloc(PD_CPUINFO_MAX);

	if (buf && read_text_file("/proc/cpuinfo", buf, PD_CPUINFO_MAX) < 0) {
		free(buf);
		return NULL;
	}
	return buf;
}

static int put_cpudesc(struct pd_buf *b)
{
	/* The key each architecture's /proc/cpuinfo names the processor with (perf's list). */
	static const char *const keys[] = { "model name", "Processor", "cpu model", "cpu type",
					    "cpu", "Model Name" };
	char *info = read_cpuinfo(), desc[256];
	int ret = 1;

	for (size_t i = 0; info && i < ARRAY_SIZE(keys); i++) {
		if (cpuinfo_value(info, keys[i], desc, sizeof(desc))) {
			pd_put_string(b, desc);
			ret = 0;
			break;
		}
	}
	free(info);
	return ret;
}

/* perf's x86 CPUID string, "vendor,family,model,stepping"; other architectures have none here. */
static int put_cpuid(struct pd_buf *b)
{
	char *info = read_cpuinfo(), vendor[64], family[16], model[16], stepping[16], id[128];
	int ret = 1;

	if (info && cpuinfo_value(info, "vendor_id", vendor, sizeof(vendor)) &&
	    cpuinfo_value(info, "cpu family", family, sizeof(family)) &&
	    cpuinfo_value(info, "model", model, sizeof(model)) &&
	    cpuinfo_value(info, "stepping", stepping, sizeof(stepping))) {
		snprintf(id, sizeof(id), "%s,%s,%s,%s", vendor, family, model, stepping);
		pd_put_string(b, id);
		ret = 0;
	}
	free(info);
	return ret;
}

/* The largest number in a sysfs CPU list ("0-3,8-11" gives 11); -1 when there is none. */
static long max_in_list(const char *s)
{
	long max = -1;

	while (*s) {
		if (isdigit((unsigned char)*s)) {
			char *end;
			long v = strtol(s, &end, 10);

			if (v > max)
				max = v;
			s = end;
		} else {
			s++;
		}
	}
	return max;
}

/* perf's NRCPUS: CPUs that could be present (highest present + 1), then those online. */
static int put_nrcpus(struct pd_buf *b)
{
	char list[4096];
	long avail = -1, online = sysconf(_SC_NPROCESSORS_ONLN);

	if (read_text_file("/sys/devices/system/cpu/present", list, sizeof(list)) > 0)
		avail = max_in_list(list) + 1;
	if (avail <= 0)
		avail = sysconf(_SC_NPROCESSORS_CONF);
	if (avail <= 0 || online <= 0)
		return 1;
	pd_put_u32(b, (uint32_t)avail);
	pd_put_u32(b, (uint32_t)online);
	return 0;
}

static int put_total_mem(struct pd_buf *b)
{
	char info[4096];
	const char *p;
	unsigned long long kb;

	if (read_text_file("/proc/meminfo", info, sizeof(info)) < 0)
		return 1;
	p = strstr(info, "MemTotal:");
	if (!p || sscanf(p + strlen("MemTotal:"), "%llu", &kb) != 1)
		return 1;
	pd_put_u64(b, kb);
	return 0;
}

static int put_uname(struct pd_buf *b, int feat)
{
	struct utsname u;

	if (uname(&u) < 0)
		return 1;
	if (feat == PERFEV_FEAT_HOSTNAME)
		pd_put_string(b, u.nodename);
	else if (feat == PERFEV_FEAT_OSRELEASE)
		pd_put_string(b, u.release);
	else
		pd_put_string(b, u.machine);
	return 0;
}

static void put_event_desc(const struct perfev_data_writer *w, struct pd_buf *b)
{
	pd_put_u32(b, (uint32_t)w->nr_attrs);
	pd_put_u32(b, w->attr_size);
	for (size_t i = 0; i < w->nr_attrs; i++) {
		const struct pd_attr *a = &w->attrs[i];

		pd_put(b, &a->attr, w->attr_size);
		pd_put_u32(b, (uint32_t)a->nr_ids);
		pd_put_string(b, a->name);
		pd_put(b, a->ids, a->nr_ids * sizeof(uint64_t));
	}
}

static void put_group_desc(const struct perfev_data_writer *w, struct pd_buf *b)
{
	pd_put_u32(b, (uint32_t)w->nr_groups);
	for (size_t i = 0; i < w->nr_groups; i++) {
		pd_put_string(b, w->groups[i].name);
		pd_put_u32(b, w->groups[i].leader);
		pd_put_u32(b, w->groups[i].nr);
	}
}

#define PD_PMU_DIR "/sys/bus/event_source/devices"

/*
 * The PMUs the kernel has, as perf lists them (in the directory's order):
 * their count, then each one's type and name.  Left out when the directory
 * cannot be read.
 */
static int put_pmu_mappings(struct pd_buf *b)
{
	struct pmu {
		uint32_t type;
		char name[256];
	} *pmus = NULL;
	size_t nr = 0, cap = 0;
	struct dirent *de;
	DIR *d = opendir(PD_PMU_DIR);

	if (!d)
		return 1;
	while ((de = readdir(d))) {
		char path[512], text[32];
		unsigned long type;
		char *end;

		if (de->d_name[0] == '.' || strlen(de->d_name) >= sizeof(pmus->name))
			continue;
		snprintf(path, sizeof(path), PD_PMU_DIR "/%s/type", de->d_name);
		if (read_text_file(path, text, sizeof(text)) < 0)
			continue;
		type = strtoul(text, &end, 10);
		if (end == text || type > UINT32_MAX)
			continue;
		if (nr == cap) {
			struct pmu *n = realloc(pmus, (cap ? cap * 2 : 16) * sizeof(*n));

			if (!n)
				break;
			pmus = n;
			cap = cap ? cap * 2 : 16;
		}
		pmus[nr].type = (uint32_t)type;
		snprintf(pmus[nr].name, sizeof(pmus[nr].name), "%s", de->d_name);
		nr++;
	}
	closedir(d);
	if (!nr) {
		free(pmus);
		return 1;
	}
	pd_put_u32(b, (uint32_t)nr);
	for (size_t i = 0; i < nr; i++) {
		pd_put_u32(b, pmus[i].type);
		pd_put_string(b, pmus[i].name);
	}
	free(pmus);
	return 0;
}

/* version 0, type 1 (zstd), level, ratio (rounded), mmap_len: what perf's reader takes. */
static void put_compressed(const struct perfev_data_writer *w, struct pd_buf *b)
{
	uint64_t ratio = w->comp_out ? (w->data_in + w->comp_out / 2) / w->comp_out : 0;

	pd_put_u32(b, 0);
	pd_put_u32(b, 1);
	pd_put_u32(b, (uint32_t)w->level);
	pd_put_u32(b, ratio > UINT32_MAX ? UINT32_MAX : (uint32_t)ratio);
	pd_put_u32(b, PD_ZSTD_SEGMENT);
}

void pd_put_build_id(struct pd_buf *b, const struct pd_build_id *bid)
{
	size_t name = strlen(bid->filename) + 1, padded = pd_align(name, PD_NAME_ALIGN);

	pd_put_header(b, PERFEV_RECORD_HEADER_BUILD_ID, bid->misc | PD_MISC_BUILD_ID_SIZE,
		      (uint16_t)(PD_BUILD_ID_REC_SIZE + padded));
	pd_put(b, &bid->pid, sizeof(bid->pid));
	pd_put(b, bid->id, sizeof(bid->id));
	pd_put(b, &bid->size, 1);
	pd_put_zero(b, 3);
	pd_put(b, bid->filename, name);
	pd_put_zero(b, padded - name);
}

int pd_feature_body(const struct perfev_data_writer *w, int feat, struct pd_buf *b)
{
	char version[64];

	switch (feat) {
	case PERFEV_FEAT_BUILD_ID:
		for (size_t i = 0; i < w->nr_bids; i++)
			pd_put_build_id(b, &w->bids[i]);
		return 0;
	case PERFEV_FEAT_HOSTNAME:
	case PERFEV_FEAT_OSRELEASE:
	case PERFEV_FEAT_ARCH:
		return put_uname(b, feat);
	case PERFEV_FEAT_VERSION:
		snprintf(version, sizeof(version), "perfev %s", perfev_version());
		pd_put_string(b, version);
		return 0;
	case PERFEV_FEAT_NRCPUS:
		return put_nrcpus(b);
	case PERFEV_FEAT_CPUDESC:
		return put_cpudesc(b);
	case PERFEV_FEAT_CPUID:
		return put_cpuid(b);
	case PERFEV_FEAT_TOTAL_MEM:
		return put_total_mem(b);
	case PERFEV_FEAT_CMDLINE:
		pd_put_u32(b, (uint32_t)w->argc);
		for (int i = 0; i < w->argc; i++)
			pd_put_string(b, w->argv[i]);
		return 0;
	case PERFEV_FEAT_EVENT_DESC:
		put_event_desc(w, b);
		return 0;
	case PERFEV_FEAT_GROUP_DESC:
		put_group_desc(w, b);
		return 0;
	case PERFEV_FEAT_PMU_MAPPINGS:
		return put_pmu_mappings(b);
	case PERFEV_FEAT_SAMPLE_TIME:
		pd_put_u64(b, w->first_sample);
		pd_put_u64(b, w->last_sample);
		return 0;
	case PERFEV_FEAT_COMPRESSED:
		put_compressed(w, b);
		return 0;
	default:
		return 1;
	}
}

size_t pd_features(const struct perfev_data_writer *w, int *feats, size_t max)
{
	size_t n = 0;

	for (int f = 1; f < PERFEV_FEAT_LAST && n < max; f++) {
		bool want;

		switch (f) {
		case PERFEV_FEAT_TRACING_DATA:
			/* A pipe carries them after a PERF_RECORD_HEADER_TRACING_DATA instead. */
			want = w->tracing.len && !w->pipe;
			break;
		case PERFEV_FEAT_BUILD_ID:
			/* A pipe carries them as records instead, as perf's pipe mode does. */
			want = w->nr_bids && !w->pipe;
			break;
		case PERFEV_FEAT_HOSTNAME:
		case PERFEV_FEAT_OSRELEASE:
		case PERFEV_FEAT_VERSION:
		case PERFEV_FEAT_ARCH:
		case PERFEV_FEAT_NRCPUS:
		case PERFEV_FEAT_CPUDESC:
		case PERFEV_FEAT_CPUID:
		case PERFEV_FEAT_TOTAL_MEM:
		case PERFEV_FEAT_EVENT_DESC:
		case PERFEV_FEAT_PMU_MAPPINGS:
			want = true;
			break;
		case PERFEV_FEAT_SAMPLE_TIME:
			/* Known only at the end; a pipe's features go first. */
			want = w->has_sample_time && !w->pipe;
			break;
		case PERFEV_FEAT_CMDLINE:
			want = w->argc > 0;
			break;
		case PERFEV_FEAT_GROUP_DESC:
			want = w->nr_groups > 0;
			break;
		case PERFEV_FEAT_COMPRESSED:
			want = w->level > 0;
			break;
		default:
			want = false;
		}
		if (want)
			feats[n++] = f;
	}
	return n;
}
