/* SPDX-License-Identifier: MIT */
/*
 * perf.data's feature sections (perf's HEADER_* bits), as
 * tools/perf/util/header.c writes them: the section table after the data
 * (one {u64 offset, u64 size} per set bit, in bit order), and the bodies
 * the accessors need parsed.  A pipe carries the same bodies in
 * PERF_RECORD_HEADER_FEATURE records.
 *
 * Every section is checked to lie within the file; those we parse are
 * walked with a cursor that checks each field against the section's end.
 * A perf string is a u32 length (NUL included, padded to 64) and that many
 * bytes, whose NUL must come within the length.
 */
#include <stdlib.h>

#include "perfdata/reader_int.h"

static const char *const feat_names[PERFEV_FEAT_LAST] = {
	[PERFEV_FEAT_TRACING_DATA] = "TRACING_DATA",
	[PERFEV_FEAT_BUILD_ID] = "BUILD_ID",
	[PERFEV_FEAT_HOSTNAME] = "HOSTNAME",
	[PERFEV_FEAT_OSRELEASE] = "OSRELEASE",
	[PERFEV_FEAT_VERSION] = "VERSION",
	[PERFEV_FEAT_ARCH] = "ARCH",
	[PERFEV_FEAT_NRCPUS] = "NRCPUS",
	[PERFEV_FEAT_CPUDESC] = "CPUDESC",
	[PERFEV_FEAT_CPUID] = "CPUID",
	[PERFEV_FEAT_TOTAL_MEM] = "TOTAL_MEM",
	[PERFEV_FEAT_CMDLINE] = "CMDLINE",
	[PERFEV_FEAT_EVENT_DESC] = "EVENT_DESC",
	[PERFEV_FEAT_CPU_TOPOLOGY] = "CPU_TOPOLOGY",
	[PERFEV_FEAT_NUMA_TOPOLOGY] = "NUMA_TOPOLOGY",
	[PERFEV_FEAT_BRANCH_STACK] = "BRANCH_STACK",
	[PERFEV_FEAT_PMU_MAPPINGS] = "PMU_MAPPINGS",
	[PERFEV_FEAT_GROUP_DESC] = "GROUP_DESC",
	[PERFEV_FEAT_AUXTRACE] = "AUXTRACE",
	[PERFEV_FEAT_STAT] = "STAT",
	[PERFEV_FEAT_CACHE] = "CACHE",
	[PERFEV_FEAT_SAMPLE_TIME] = "SAMPLE_TIME",
	[PERFEV_FEAT_MEM_TOPOLOGY] = "MEM_TOPOLOGY",
	[PERFEV_FEAT_CLOCKID] = "CLOCKID",
	[PERFEV_FEAT_DIR_FORMAT] = "DIR_FORMAT",
	[PERFEV_FEAT_BPF_PROG_INFO] = "BPF_PROG_INFO",
	[PERFEV_FEAT_BPF_BTF] = "BPF_BTF",
	[PERFEV_FEAT_COMPRESSED] = "COMPRESSED",
	[PERFEV_FEAT_CPU_PMU_CAPS] = "CPU_PMU_CAPS",
	[PERFEV_FEAT_CLOCK_DATA] = "CLOCK_DATA",
	[PERFEV_FEAT_HYBRID_TOPOLOGY] = "HYBRID_TOPOLOGY",
	[PERFEV_FEAT_PMU_CAPS] = "PMU_CAPS",
};

const char *perfev_data_feature__name(enum perfev_feature feat)
{
	return (int)feat > 0 && feat < PERFEV_FEAT_LAST ? feat_names[feat] : NULL;
}

static bool is_string_feat(int f)
{
	return f == PERFEV_FEAT_HOSTNAME || f == PERFEV_FEAT_OSRELEASE ||
	       f == PERFEV_FEAT_VERSION || f == PERFEV_FEAT_ARCH || f == PERFEV_FEAT_CPUDESC ||
	       f == PERFEV_FEAT_CPUID;
}

/* A cursor over one section; errors name the feature and the file offset. */
struct fc {
	struct perfev_data_reader *r;
	const unsigned char *p;
	size_t size, off;
	uint64_t base;
	const char *name;
};

static int fc_need(const struct fc *c, size_t n, const char *what)
{
	if (n > c->size - c->off)
		return set_error(PERFEV_ERR_FORMAT,
				 "perf.data: feature %s (offset 0x%llx, %zu bytes): %s needs %zu "
				 "bytes at offset 0x%llx, %zu remain",
				 c->name, (unsigned long long)c->base, c->size, what, n,
				 (unsigned long long)(c->base + c->off), c->size - c->off);
	return 0;
}

static int fc_u32(struct fc *c, uint32_t *v, const char *what)
{
	int ret = fc_need(c, 4, what);

	if (ret)
		return ret;
	*v = pdr_u32(c->r, c->p + c->off);
	c->off += 4;
	return 0;
}

static int fc_u64(struct fc *c, uint64_t *v, const char *what)
{
	int ret = fc_need(c, 8, what);

	if (ret)
		return ret;
	*v = pdr_u64(c->r, c->p + c->off);
	c->off += 8;
	return 0;
}

/* A perf string, copied (*s is malloc'ed). */
static int fc_string(struct fc *c, char **s, const char *what)
{
	uint64_t at = c->base + c->off;
	uint32_t len;
	int ret = fc_u32(c, &len, what);

	if (ret || (ret = fc_need(c, len, what)) < 0)
		return ret;
	if (!memchr(c->p + c->off, '\0', len))
		return set_error(PERFEV_ERR_FORMAT,
				 "perf.data: feature %s: %s at offset 0x%llx has no NUL within its "
				 "%u bytes", c->name, what, (unsigned long long)at, len);
	*s = strdup((const char *)c->p + c->off);
	if (!*s)
		return set_error(ENOMEM, "out of memory for perf.data feature %s", c->name);
	c->off += len;
	return 0;
}

/* A struct perf_record_header_build_id: header, pid, 20 id bytes, size, 3 pad, name. */
int pdr_build_id(struct perfev_data_reader *r, const unsigned char *p, size_t size, uint64_t off,
		 bool native)
{
	bool saved = r->swapped;
	struct perf_event_header h;
	struct perfev_data_build_id *b;
	int32_t pid;

	if (size < sizeof(h))
		return set_error(PERFEV_ERR_FORMAT,
				 "perf.data: build id at offset 0x%llx: %zu bytes remain, too few for "
				 "its header", (unsigned long long)off, size);
	r->swapped = saved && !native;
	pdr_header(r, p, &h);
	pid = h.size >= 12 && size >= 12 ? (int32_t)pdr_u32(r, p + 8) : 0;
	r->swapped = saved;
	if (h.size < PD_BUILD_ID_REC_SIZE + 1 || h.size > size)
		return set_error(PERFEV_ERR_FORMAT,
				 "perf.data: build id at offset 0x%llx has size %u; it needs %u to "
				 "%zu bytes",
				 (unsigned long long)off, h.size, PD_BUILD_ID_REC_SIZE + 1, size);
	if (!memchr(p + PD_BUILD_ID_REC_SIZE, '\0', h.size - PD_BUILD_ID_REC_SIZE))
		return set_error(PERFEV_ERR_FORMAT,
				 "perf.data: build id at offset 0x%llx: its file name has no NUL "
				 "within the record's %u bytes", (unsigned long long)off, h.size);
	if (r->nr_bids == r->cap_bids) {
		size_t cap = r->cap_bids ? r->cap_bids * 2 : 16;
		void *n = realloc(r->bids, cap * sizeof(*r->bids));

		if (!n)
			return set_error(ENOMEM, "out of memory for perf.data build ids");
		r->bids = n;
		r->cap_bids = cap;
	}
	b = &r->bids[r->nr_bids];
	memset(b, 0, sizeof(*b));
	b->pid = pid;
	b->misc = h.misc & (uint16_t)~PD_MISC_BUILD_ID_SIZE;
	memcpy(b->id, p + 12, PERFEV_BUILD_ID_MAX);
	/* Before perf 5.x the size was not stored: the id was always SHA-1. */
	b->size = (h.misc & PD_MISC_BUILD_ID_SIZE) ? p[32] : PERFEV_BUILD_ID_MAX;
	if (b->size > PERFEV_BUILD_ID_MAX)
		return set_error(PERFEV_ERR_FORMAT,
				 "perf.data: build id at offset 0x%llx says it is %u bytes; at most "
				 "%d", (unsigned long long)off, b->size, PERFEV_BUILD_ID_MAX);
	b->filename = strdup((const char *)p + PD_BUILD_ID_REC_SIZE);
	if (!b->filename)
		return set_error(ENOMEM, "out of memory for perf.data build ids");
	r->nr_bids++;
	return 0;
}

static int parse_build_ids(struct fc *c)
{
	while (c->off < c->size) {
		struct perf_event_header h;
		int ret = fc_need(c, 8, "a build id header");

		if (ret)
			return ret;
		pdr_header(c->r, c->p + c->off, &h);
		ret = pdr_build_id(c->r, c->p + c->off, c->size - c->off, c->base + c->off, false);
		if (ret)
			return ret;
		c->off += h.size;
	}
	return 0;
}

static int parse_cmdline(struct fc *c)
{
	struct perfev_data_reader *r = c->r;
	uint32_t n;
	int ret = fc_u32(c, &n, "the argument count");

	if (ret)
		return ret;
	/* Each argument takes 4 bytes at least: bound n before allocating. */
	if (n > (c->size - c->off) / 4)
		return set_error(PERFEV_ERR_FORMAT,
				 "perf.data: feature CMDLINE at offset 0x%llx: %u arguments cannot fit "
				 "its %zu bytes", (unsigned long long)c->base, n, c->size);
	r->argv = calloc((size_t)n + 1, sizeof(*r->argv));
	if (!r->argv)
		return set_error(ENOMEM, "out of memory for the perf.data command line");
	for (uint32_t i = 0; i < n; i++) {
		char what[32];

		snprintf(what, sizeof(what), "argument %u", i);
		if ((ret = fc_string(c, &r->argv[i], what)) < 0)
			return ret;
		r->argc = (int)i + 1;
	}
	return 0;
}

/*
 * Names from HEADER_EVENT_DESC go to the event with the entry's first id,
 * as perf matches them; entries without ids match by position when the
 * counts agree.  A name set already (by an EVENT_UPDATE) stays.  The
 * section is walked whole before any name is taken (apply false), so a
 * damaged one renames nothing.
 */
static int walk_event_desc(struct fc *c, bool apply)
{
	struct perfev_data_reader *r = c->r;
	uint32_t nre, sz;
	int ret;

	c->off = 0;
	if ((ret = fc_u32(c, &nre, "the event count")) || (ret = fc_u32(c, &sz, "the attr size")))
		return ret;
	if (sz < PERF_ATTR_SIZE_VER0 || sz > 4096)
		return set_error(PERFEV_ERR_FORMAT,
				 "perf.data: feature EVENT_DESC at offset 0x%llx: attr size %u is "
				 "implausible", (unsigned long long)c->base, sz);
	for (uint32_t i = 0; i < nre; i++) {
		uint32_t nr_ids;
		uint64_t id = 0;
		char *name = NULL;
		int idx = -1;

		if ((ret = fc_need(c, sz, "an attr")) < 0)
			return ret;
		c->off += sz;
		if ((ret = fc_u32(c, &nr_ids, "the id count")) < 0 ||
		    (ret = fc_string(c, &name, "the event name")) < 0)
			return ret;
		if ((ret = fc_need(c, (size_t)nr_ids * 8, "the ids")) < 0) {
			free(name);
			return ret;
		}
		if (nr_ids)
			id = pdr_u64(r, c->p + c->off);
		c->off += (size_t)nr_ids * 8;
		if (nr_ids)
			idx = pdr_evsel_of_id(r, id);
		else if (nre == r->nr_evsels)
			idx = (int)i;
		ret = apply && idx >= 0 && !r->evsels[idx].name ? pdr_set_name(r, (size_t)idx, name)
								  : 0;
		free(name);
		if (ret)
			return ret;
	}
	return 0;
}

static int parse_event_desc(struct fc *c)
{
	int ret = walk_event_desc(c, false);

	return ret ? ret : walk_event_desc(c, true);
}

static int parse_group_desc(struct fc *c)
{
	struct perfev_data_reader *r = c->r;
	uint32_t n;
	int ret = fc_u32(c, &n, "the group count");

	if (ret)
		return ret;
	if (n > (c->size - c->off) / 12)
		return set_error(PERFEV_ERR_FORMAT,
				 "perf.data: feature GROUP_DESC at offset 0x%llx: %u groups cannot "
				 "fit its %zu bytes", (unsigned long long)c->base, n, c->size);
	r->groups = calloc(n ? n : 1, sizeof(*r->groups));
	if (!r->groups)
		return set_error(ENOMEM, "out of memory for perf.data groups");
	for (uint32_t i = 0; i < n; i++) {
		char *name = NULL;

		if ((ret = fc_string(c, &name, "the group name")) < 0)
			return ret;
		r->groups[i].name = name;
		r->nr_groups = i + 1;
		if ((ret = fc_u32(c, &r->groups[i].leader, "the leader index")) < 0 ||
		    (ret = fc_u32(c, &r->groups[i].nr, "the member count")) < 0)
			return ret;
		/* perf writes this for a group without a name; the API says NULL. */
		if (!strcmp(name, PD_ANON_GROUP)) {
			free(name);
			r->groups[i].name = NULL;
		}
	}
	return 0;
}

/* Drops what an earlier copy of feature f (a repeated pipe record) left parsed. */
static void forget_feature(struct perfev_data_reader *r, int f)
{
	switch (f) {
	case PERFEV_FEAT_CMDLINE:
		for (int i = 0; i < r->argc; i++)
			free(r->argv[i]);
		free(r->argv);
		r->argv = NULL;
		r->argc = 0;
		break;
	case PERFEV_FEAT_GROUP_DESC:
		for (size_t i = 0; i < r->nr_groups; i++)
			free(r->groups[i].name);
		free(r->groups);
		r->groups = NULL;
		r->nr_groups = 0;
		break;
	default:
		if (is_string_feat(f)) {
			free(r->strings[f]);
			r->strings[f] = NULL;
		}
	}
	free(r->feat[f].own);
	memset(&r->feat[f], 0, sizeof(r->feat[f]));
}

static int parse_feature(struct fc *c, int f)
{
	struct perfev_data_reader *r = c->r;
	uint32_t v[5];
	int ret = 0;

	if (is_string_feat(f))
		return fc_string(c, &r->strings[f], "the string");
	switch (f) {
	case PERFEV_FEAT_NRCPUS:
		/* perf writes the CPUs that could be present, then those online. */
		if (!(ret = fc_u32(c, &r->nr_cpus_avail, "nr_cpus_avail")) &&
		    !(ret = fc_u32(c, &r->nr_cpus_online, "nr_cpus_online")))
			r->has_nrcpus = true;
		break;
	case PERFEV_FEAT_TOTAL_MEM:
		ret = fc_u64(c, &r->total_mem, "the memory size");
		break;
	case PERFEV_FEAT_SAMPLE_TIME:
		if (!(ret = fc_u64(c, &r->time_first, "the first time")) &&
		    !(ret = fc_u64(c, &r->time_last, "the last time")))
			r->has_sample_time = true;
		break;
	case PERFEV_FEAT_CMDLINE:
		ret = parse_cmdline(c);
		break;
	case PERFEV_FEAT_EVENT_DESC:
		ret = parse_event_desc(c);
		break;
	case PERFEV_FEAT_GROUP_DESC:
		ret = parse_group_desc(c);
		break;
	case PERFEV_FEAT_BUILD_ID:
		ret = parse_build_ids(c);
		break;
	case PERFEV_FEAT_COMPRESSED:
		/* version, type (1: zstd), level, ratio, mmap_len */
		for (int i = 0; i < 5 && !ret; i++)
			ret = fc_u32(c, &v[i], "the compression parameters");
		if (!ret) {
			r->comp_type = v[1];
			r->comp_level = v[2];
			r->comp_mmap_len = v[4];
		}
		break;
	}
	return ret;
}

/* Takes back the build ids a damaged BUILD_ID section added after the first nr. */
static void drop_build_ids(struct perfev_data_reader *r, size_t nr)
{
	while (r->nr_bids > nr)
		free((char *)r->bids[--r->nr_bids].filename);
}

int pdr_feature(struct perfev_data_reader *r, int f, const unsigned char *p, size_t size,
		uint64_t off, bool copy)
{
	struct fc c = { .r = r, .size = size, .base = off, .name = feat_names[f] };
	size_t nr_bids = r->nr_bids;
	int ret;

	forget_feature(r, f);
	if (copy) {
		r->feat[f].own = malloc(size ? size : 1);
		if (!r->feat[f].own)
			return set_error(ENOMEM, "out of memory for perf.data feature %s",
					 feat_names[f]);
		memcpy(r->feat[f].own, p, size);
		p = r->feat[f].own;
	}
	r->feat[f].has = true;
	r->feat[f].p = p;
	r->feat[f].size = size;
	r->feat[f].off = off;
	c.p = p;
	ret = parse_feature(&c, f);
	/*
	 * The features describe the recording; the data are in the records.
	 * As perf does, a damaged one is said and left out, and the file is
	 * read without it.
	 */
	if (ret == -PERFEV_ERR_FORMAT) {
		const char *why = perfev_last_error();
		char buf[512];

		if (!strncmp(why, "perf.data: ", 11))
			why += 11;
		snprintf(buf, sizeof(buf), "%s", why);
		forget_feature(r, f);
		if (f == PERFEV_FEAT_BUILD_ID)
			drop_build_ids(r, nr_bids);
		pdr_warn(r, "perf.data: the %s section is damaged (%s); it is left out", feat_names[f],
			 buf);
		return 0;
	}
	return ret;
}

int pdr_read_features(struct perfev_data_reader *r, const uint64_t *bits)
{
	uint64_t table = r->data_end;
	size_t n = 0, i = 0;
	int ret;

	for (int f = 0; f < PD_FEAT_BITS; f++)
		n += (bits[f / 64] >> (f % 64)) & 1;
	if (!n)
		return 0;
	if (table > r->mem_len || (r->mem_len - table) / 16 < n) {
		pdr_warn(r, "perf.data: the table of %zu feature sections at offset 0x%llx runs past "
			    "the end of the file (%zu bytes): the file is truncated after its data; "
			    "read without its features (host, command line, build ids, event names)",
			 n, (unsigned long long)table, r->mem_len);
		return 0;
	}
	for (int f = 0; f < PD_FEAT_BITS; f++) {
		const unsigned char *e = r->mem + table + 16 * i;
		uint64_t off, size;
		const char *name;

		if (!((bits[f / 64] >> (f % 64)) & 1))
			continue;
		i++;
		off = pdr_u64(r, e);
		size = pdr_u64(r, e + 8);
		name = f > 0 && f < PERFEV_FEAT_LAST ? feat_names[f] : "unknown";
		if (off > r->mem_len || size > r->mem_len - off) {
			pdr_warn(r, "perf.data: feature section %d (%s) at offset 0x%llx, %llu bytes, "
				    "runs past the end of the file (%zu bytes); the section is damaged "
				    "and left out",
				 f, name, (unsigned long long)off, (unsigned long long)size, r->mem_len);
			continue;
		}
		if (f == 0 || f >= PERFEV_FEAT_LAST) {
			pdr_warn(r, "perf.data: feature section %d (at offset 0x%llx, %llu bytes) is "
				    "unknown to perfev; skipped",
				 f, (unsigned long long)off, (unsigned long long)size);
			continue;
		}
		if ((ret = pdr_feature(r, f, r->mem + off, (size_t)size, off, false)) < 0)
			return ret;
	}
	return 0;
}

void pdr_free_features(struct perfev_data_reader *r)
{
	for (int f = 0; f < PERFEV_FEAT_LAST; f++)
		forget_feature(r, f);
	for (size_t i = 0; i < r->nr_bids; i++)
		free((char *)r->bids[i].filename);
	free(r->bids);
	free(r->tracing_own);
}

/* ---- accessors ---- */

static bool feat_ok(const struct perfev_data_reader *r, enum perfev_feature feat)
{
	return r && (int)feat > 0 && feat < PERFEV_FEAT_LAST && r->feat[feat].has;
}

bool perfev_data_reader__has_feature(const struct perfev_data_reader *r, enum perfev_feature feat)
{
	return feat_ok(r, feat);
}

int perfev_data_reader__feature(const struct perfev_data_reader *r, enum perfev_feature feat,
				const void **data, size_t *size)
{
	if (!feat_ok(r, feat))
		return -ENOENT;
	if (data)
		*data = r->feat[feat].p;
	if (size)
		*size = r->feat[feat].size;
	return 0;
}

const char *perfev_data_reader__feat_string(const struct perfev_data_reader *r,
					    enum perfev_feature feat)
{
	if (!feat_ok(r, feat) || !is_string_feat(feat))
		return NULL;
	return r->strings[feat];
}

int perfev_data_reader__cmdline(const struct perfev_data_reader *r, int *argc,
				const char *const **argv)
{
	if (!feat_ok(r, PERFEV_FEAT_CMDLINE))
		return -ENOENT;
	if (argc)
		*argc = r->argc;
	if (argv)
		*argv = (const char *const *)r->argv;
	return 0;
}

int perfev_data_reader__nrcpus(const struct perfev_data_reader *r, uint32_t *online,
			       uint32_t *available)
{
	if (!feat_ok(r, PERFEV_FEAT_NRCPUS) || !r->has_nrcpus)
		return -ENOENT;
	if (online)
		*online = r->nr_cpus_online;
	if (available)
		*available = r->nr_cpus_avail;
	return 0;
}

uint64_t perfev_data_reader__total_mem(const struct perfev_data_reader *r)
{
	return feat_ok(r, PERFEV_FEAT_TOTAL_MEM) ? r->total_mem : 0;
}

int perfev_data_reader__sample_time(const struct perfev_data_reader *r, uint64_t *first,
				    uint64_t *last)
{
	if (!feat_ok(r, PERFEV_FEAT_SAMPLE_TIME) || !r->has_sample_time)
		return -ENOENT;
	if (first)
		*first = r->time_first;
	if (last)
		*last = r->time_last;
	return 0;
}

size_t perfev_data_reader__nr_build_ids(const struct perfev_data_reader *r)
{
	return r ? r->nr_bids : 0;
}

const struct perfev_data_build_id *perfev_data_reader__build_id(const struct perfev_data_reader *r,
								 size_t i)
{
	return r && i < r->nr_bids ? &r->bids[i] : NULL;
}

size_t perfev_data_reader__nr_groups(const struct perfev_data_reader *r)
{
	return r ? r->nr_groups : 0;
}

int perfev_data_reader__group(const struct perfev_data_reader *r, size_t i, const char **name,
			      uint32_t *leader_idx, uint32_t *nr)
{
	if (!r || i >= r->nr_groups)
		return -ENOENT;
	if (name)
		*name = r->groups[i].name;
	if (leader_idx)
		*leader_idx = r->groups[i].leader;
	if (nr)
		*nr = r->groups[i].nr;
	return 0;
}
