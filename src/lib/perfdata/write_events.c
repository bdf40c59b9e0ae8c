/* SPDX-License-Identifier: MIT */
/*
 * What a perf.data writer is told before it writes: events (attr, ids,
 * name), groups and build ids, checked the way perf's reader will take
 * them, so that a file perf would refuse fails here, with a reason.
 */
#include <stdlib.h>

#include "perfdata/writer_int.h"

static int check_name(const char *name, const char *what)
{
	size_t n;

	if (!name || !*name)
		return set_error(EINVAL, "%s is %s; give a name", what, name ? "empty" : "NULL");
	n = strlen(name);
	if (n > PD_MAX_STRING)
		return set_error(ENAMETOOLONG, "%s is %zu bytes long; perf reads at most %d", what, n,
				 PD_MAX_STRING);
	return 0;
}

static int before_start(const struct perfev_data_writer *w, const char *fn)
{
	if (!w)
		return set_error(EINVAL, "%s: the writer is NULL", fn);
	if (w->state != PD_NEW)
		return set_error(EINVAL, "%s after start(): declare every event and group before "
					 "the header is written", fn);
	return 0;
}

int perfev_data_writer__add_attr(struct perfev_data_writer *w, const struct perf_event_attr *attr,
				 const uint64_t *ids, size_t nr_ids, const char *name)
{
	size_t max_ids = w && w->pipe ? (PD_MAX_RECORD - 8 - sizeof(*attr)) / 8 : PD_MAX_IDS;
	struct pd_attr *a, *attrs;
	int ret;

	if ((ret = before_start(w, "perfev_data_writer__add_attr")) < 0)
		return ret;
	if (!attr)
		return set_error(EINVAL, "perfev_data_writer__add_attr: attr is NULL");
	if ((ret = check_name(name, "the event name")) < 0)
		return ret;
	if (attr->size && attr->size < PERF_ATTR_SIZE_VER0)
		return set_error(EINVAL, "event %s: attr.size %u is below the first ABI's %d", name,
				 attr->size, PERF_ATTR_SIZE_VER0);
	if (nr_ids && !ids)
		return set_error(EINVAL, "event %s: %zu ids but ids is NULL", name, nr_ids);
	if (nr_ids > max_ids)
		return set_error(E2BIG, "event %s has %zu ids; %s at most %zu", name, nr_ids,
				 w->pipe ? "a pipe's HEADER_ATTR record (u16 size) holds" :
					   "perfev accepts", max_ids);
	if (w->nr_attrs >= PD_MAX_ATTRS)
		return set_error(E2BIG, "more than %u events", PD_MAX_ATTRS);

	attrs = realloc(w->attrs, (w->nr_attrs + 1) * sizeof(*attrs));
	if (!attrs)
		return set_error(ENOMEM, "out of memory for event %s", name);
	w->attrs = attrs;
	a = &attrs[w->nr_attrs];
	memset(a, 0, sizeof(*a));
	a->attr = *attr;
	/* Bytes past the size the caller declared are not theirs to set: write them as zero. */
	size_t declared = attr->size ? attr->size : PERF_ATTR_SIZE_VER0;
	if (declared < sizeof(a->attr))
		memset((char *)&a->attr + declared, 0, sizeof(a->attr) - declared);
	a->name = strdup(name);
	a->ids = nr_ids ? malloc(nr_ids * sizeof(*ids)) : NULL;
	if (!a->name || (nr_ids && !a->ids)) {
		free(a->name);
		free(a->ids);
		return set_error(ENOMEM, "out of memory for event %s", name);
	}
	if (nr_ids)
		memcpy(a->ids, ids, nr_ids * sizeof(*ids));
	a->nr_ids = nr_ids;
	w->nr_attrs++;
	return 0;
}

int perfev_data_writer__set_sample_time(struct perfev_data_writer *w, uint64_t first,
					uint64_t last)
{
	if (!w || last < first)
		return set_error(EINVAL, "perfev_data_writer__set_sample_time: the last sample (%llu) "
					 "before the first (%llu)", (unsigned long long)last,
				 (unsigned long long)first);
	w->first_sample = first;
	w->last_sample = last;
	w->has_sample_time = true;
	return 0;
}

int perfev_data_writer__add_group(struct perfev_data_writer *w, const char *name, int leader_idx,
				  int nr)
{
	uint32_t prev_end = 0;
	struct pd_group *g;
	int ret;

	if ((ret = before_start(w, "perfev_data_writer__add_group")) < 0)
		return ret;
	/* perf's name for a group without one. */
	if (!name)
		name = PD_ANON_GROUP;
	if ((ret = check_name(name, "the group name")) < 0)
		return ret;
	if (w->nr_groups)
		prev_end = w->groups[w->nr_groups - 1].leader + w->groups[w->nr_groups - 1].nr;
	if (leader_idx < 0 || nr < 1 || (size_t)leader_idx + (size_t)nr > w->nr_attrs)
		return set_error(EINVAL, "group %s: leader %d with %d members does not fit the %zu "
					 "events added; add the members first", name, leader_idx,
				 nr, w->nr_attrs);
	/* perf rebuilds groups walking the events in order: they must not overlap or go back. */
	if ((uint32_t)leader_idx < prev_end)
		return set_error(EINVAL, "group %s starts at event %d, inside or before the "
					 "previous group (which ends at %u); declare groups in order",
				 name, leader_idx, prev_end);
	g = realloc(w->groups, (w->nr_groups + 1) * sizeof(*g));
	if (!g)
		return set_error(ENOMEM, "out of memory for group %s", name);
	w->groups = g;
	g = &g[w->nr_groups];
	g->name = strdup(name);
	if (!g->name)
		return set_error(ENOMEM, "out of memory for group %s", name);
	g->leader = (uint32_t)leader_idx;
	g->nr = (uint32_t)nr;
	w->nr_groups++;
	return 0;
}

int perfev_data_writer__add_build_id(struct perfev_data_writer *w, int32_t pid, uint16_t misc,
				     const uint8_t *build_id, size_t build_id_size,
				     const char *filename)
{
	uint16_t mode = misc & PERF_RECORD_MISC_CPUMODE_MASK;
	struct pd_build_id *b;
	int ret;

	if (!w || w->state == PD_FINISHED)
		return set_error(EINVAL, "perfev_data_writer__add_build_id: %s",
				 w ? "the writer has finished" : "the writer is NULL");
	if ((ret = check_name(filename, "the build id's file name")) < 0)
		return ret;
	if (!build_id || !build_id_size || build_id_size > PERFEV_BUILD_ID_MAX)
		return set_error(EINVAL, "build id of %s: %zu bytes; give 1 to %d bytes", filename,
				 build_id ? build_id_size : 0, PERFEV_BUILD_ID_MAX);
	if (misc != mode || (mode != PERF_RECORD_MISC_KERNEL && mode != PERF_RECORD_MISC_USER &&
			     mode != PERF_RECORD_MISC_GUEST_KERNEL &&
			     mode != PERF_RECORD_MISC_GUEST_USER))
		return set_error(EINVAL, "build id of %s: misc 0x%x is not one cpumode of "
					 "PERF_RECORD_MISC_KERNEL, _USER, _GUEST_KERNEL, _GUEST_USER",
				 filename, misc);
	for (size_t i = 0; i < w->nr_bids; i++) {
		b = &w->bids[i];
		if (b->size == build_id_size && !memcmp(b->id, build_id, build_id_size) &&
		    !strcmp(b->filename, filename))
			return 0;
	}
	b = realloc(w->bids, (w->nr_bids + 1) * sizeof(*b));
	if (!b)
		return set_error(ENOMEM, "out of memory for the build id of %s", filename);
	w->bids = b;
	b = &b[w->nr_bids];
	memset(b, 0, sizeof(*b));
	b->filename = strdup(filename);
	if (!b->filename)
		return set_error(ENOMEM, "out of memory for the build id of %s", filename);
	b->pid = pid;
	b->misc = misc;
	b->size = (uint8_t)build_id_size;
	memcpy(b->id, build_id, build_id_size);
	w->nr_bids++;
	return 0;
}

/* Where perf looks for a sample's id (evsel's id_pos) and a trailer's (is_pos); -1: none. */
static int id_pos(uint64_t st)
{
	if (st & PERF_SAMPLE_IDENTIFIER)
		return 0;
	if (!(st & PERF_SAMPLE_ID))
		return -1;
	return !!(st & PERF_SAMPLE_IP) + !!(st & PERF_SAMPLE_TID) + !!(st & PERF_SAMPLE_TIME) +
	       !!(st & PERF_SAMPLE_ADDR);
}

static int is_pos(uint64_t st)
{
	if (st & PERF_SAMPLE_IDENTIFIER)
		return 1;
	if (!(st & PERF_SAMPLE_ID))
		return -1;
	return 1 + !!(st & PERF_SAMPLE_CPU) + !!(st & PERF_SAMPLE_STREAM_ID);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Several events in one stream must be told apart the way perf's reader does, or it refuses. */
int pd_check_events(const struct perfev_data_writer *w)
{
	const struct pd_attr *a0 = &w->attrs[0];
	size_t total = 0, n = 0;
	uint64_t *all;
	int ret = 0;

	for (size_t i = 1; i < w->nr_attrs; i++) {
		const struct pd_attr *a = &w->attrs[i];

		if (a->attr.sample_id_all != a0->attr.sample_id_all)
			return set_error(EINVAL, "events %s and %s differ in sample_id_all; perf reads "
						 "a stream only when every event has the same",
					 a0->name, a->name);
		if (id_pos(a->attr.sample_type) < 0 || id_pos(a0->attr.sample_type) < 0 ||
		    id_pos(a->attr.sample_type) != id_pos(a0->attr.sample_type) ||
		    is_pos(a->attr.sample_type) != is_pos(a0->attr.sample_type))
			return set_error(EINVAL, "events %s and %s carry their ids at different "
						 "places, so perf cannot tell their records apart; "
						 "give every event PERF_SAMPLE_IDENTIFIER",
					 a0->name, a->name);
	}
	for (size_t i = 0; i < w->nr_attrs; i++)
		total += w->attrs[i].nr_ids;
	if (total < 2)
		return 0;
	all = malloc(total * sizeof(*all));
	if (!all)
		return set_error(ENOMEM, "out of memory checking %zu event ids", total);
	for (size_t i = 0; i < w->nr_attrs; i++) {
		memcpy(all + n, w->attrs[i].ids, w->attrs[i].nr_ids * sizeof(*all));
		n += w->attrs[i].nr_ids;
	}
	sort_array(all, total, sizeof(*all), cmp_u64);
	for (size_t i = 1; i < total; i++) {
		if (all[i] == all[i - 1]) {
			ret = set_error(EINVAL, "event id %llu is given twice; each fd's "
						"PERF_EVENT_IOC_ID belongs to one event",
					(unsigned long long)all[i]);
			break;
		}
	}
	free(all);
	return ret;
}

/*
 * The attr size on file: what covers every set byte, but at least perf
 * 6.1's own (see PD_ATTR_SIZE_MIN), so older readers take the file when no
 * newer field is used.
 */
uint32_t pd_file_attr_size(const struct perfev_data_writer *w)
{
	size_t need = sizeof(struct perf_event_attr) < PD_ATTR_SIZE_MIN ?
			      sizeof(struct perf_event_attr) :
			      PD_ATTR_SIZE_MIN;

	for (size_t i = 0; i < w->nr_attrs; i++) {
		const unsigned char *p = (const unsigned char *)&w->attrs[i].attr;

		for (size_t j = sizeof(struct perf_event_attr); j > need; j--) {
			if (p[j - 1]) {
				need = pd_align(j, 8);
				break;
			}
		}
	}
	return (uint32_t)need;
}
