/* SPDX-License-Identifier: MIT */
/* Tracepoints "sys:name": their ids from tracefs's events/SYS/NAME/id. */
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "events/events_int.h"

#define TP_PATH_MAX 4096

static const char *tracefs_override;

void tracefs__set_root(const char *dir)
{
	tracefs_override = dir;
}

/* Whether dir/events exists but this process may not look into it. */
static bool events_dir_denied(const char *dir)
{
	char path[TP_PATH_MAX];
	struct stat st;

	return path_join(path, sizeof(path), dir, "events", NULL, NULL) && stat(path, &st) < 0 &&
	       errno == EACCES;
}

static bool has_events_dir(const char *dir)
{
	char path[TP_PATH_MAX];
	struct stat st;

	return path_join(path, sizeof(path), dir, "events", NULL, NULL) && !stat(path, &st) &&
	       S_ISDIR(st.st_mode);
}

/* Undoes the octal escapes (\040 for a space...) of a /proc/mounts field in place. */
static void unescape_mount_field(char *s)
{
	char *out = s;

	while (*s) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' && s[2] <= '7' &&
		    s[3] >= '0' && s[3] <= '7') {
			*out++ = (char)((s[1] - '0') << 6 | (s[2] - '0') << 3 | (s[3] - '0'));
			s += 4;
		} else {
			*out++ = *s++;
		}
	}
	*out = '\0';
}

/* The first tracefs mount whose events pass test, from /proc/mounts. */
static bool tracefs_mount_where(char *buf, size_t size, bool (*test)(const char *dir))
{
	char line[TP_PATH_MAX];
	bool found = false;
	FILE *f = fopen("/proc/mounts", "re");

	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f)) {
		char *save = NULL, *dir, *type;

		if (!strtok_r(line, " \t\n", &save))
			continue;
		dir = strtok_r(NULL, " \t\n", &save);
		type = strtok_r(NULL, " \t\n", &save);
		if (!dir || !type || strcmp(type, "tracefs"))
			continue;
		unescape_mount_field(dir);
		found = test(dir) && str_copy(buf, size, dir);
	}
	fclose(f);
	return found;
}

static bool tracefs_from_mounts(char *buf, size_t size)
{
	return tracefs_mount_where(buf, size, has_events_dir);
}

/* Finds tracefs without touching the error explanation. */
static bool tracefs_locate(char *buf, size_t size)
{
	static const char *const fallbacks[] = { "/sys/kernel/tracing",
						 "/sys/kernel/debug/tracing" };

	if (tracefs_override)
		return has_events_dir(tracefs_override) && str_copy(buf, size, tracefs_override);
	if (tracefs_from_mounts(buf, size))
		return true;
	for (size_t i = 0; i < ARRAY_SIZE(fallbacks); i++)
		if (has_events_dir(fallbacks[i]) && str_copy(buf, size, fallbacks[i]))
			return true;
	return false;
}

int tracefs__find(char *buf, size_t size)
{
	if (tracefs_locate(buf, size))
		return 0;
	/* Mounted but closed to this user (tracefs is 0700 root's by default): not "not mounted". */
	if (!tracefs_override && (tracefs_mount_where(buf, size, events_dir_denied) ||
				  (events_dir_denied("/sys/kernel/tracing") &&
				   str_copy(buf, size, "/sys/kernel/tracing"))))
		return set_error(EACCES,
				 "tracefs is mounted at %s, but this user may not read it, so "
				 "tracepoints are unavailable; run as root, or open it to a group of "
				 "this user (as root: 'mount -o remount,mode=750,gid=%d %s')",
				 buf, (int)getegid(), buf);
	return set_error(PERFEV_ERR_NOTRACEFS,
			 "tracefs is not mounted, so tracepoints are unavailable; mount it with "
			 "'mount -t tracefs nodev /sys/kernel/tracing' (as root)");
}

bool tracepoint__sys_exists(const char *sys)
{
	char dir[TP_PATH_MAX], path[TP_PATH_MAX];
	struct stat st;

	if (!name_is_path_safe(sys) || !tracefs_locate(dir, sizeof(dir)))
		return false;
	return path_join(path, sizeof(path), dir, "events", sys, NULL) && !stat(path, &st) &&
	       S_ISDIR(st.st_mode);
}

static bool tp_has_id(const char *dir, const char *sys, const char *name)
{
	char events[TP_PATH_MAX], path[TP_PATH_MAX];

	return path_join(events, sizeof(events), dir, "events", NULL, NULL) &&
	       path_join(path, sizeof(path), events, sys, name, "id") && !access(path, F_OK);
}

static int unknown_tracepoint(const char *dir, const char *sys, const char *name,
			      const char *spec)
{
	char path[TP_PATH_MAX], display[SUGGEST_LEN];
	struct name_list l = { 0 };
	struct suggest s;
	struct stat st;

	if (path_join(path, sizeof(path), dir, "events", sys, NULL) && !stat(path, &st) &&
	    S_ISDIR(st.st_mode)) {
		name_list__read_dir(&l, path, true);
		suggest__init(&s, name);
		for (size_t i = 0; i < l.nr; i++)
			if ((size_t)snprintf(display, sizeof(display), "%s:%s", sys, l.names[i]) <
			    sizeof(display))
				suggest__add(&s, l.names[i], display);
		set_error(PERFEV_ERR_UNKNOWN_EVENT, "unknown tracepoint '%s': subsystem '%s' has no "
			  "event '%s'", spec, sys, name);
	} else {
		/* A mistyped subsystem: offer close ones, with the event when they have it. */
		if (path_join(path, sizeof(path), dir, "events", NULL, NULL))
			name_list__read_dir(&l, path, true);
		suggest__init(&s, sys);
		for (size_t i = 0; i < l.nr; i++) {
			const char *cand = l.names[i];

			if (tp_has_id(dir, cand, name))
				snprintf(display, sizeof(display), "%s:%s", cand, name);
			else
				snprintf(display, sizeof(display), "%s", cand);
			suggest__add(&s, cand, display);
		}
		set_error(PERFEV_ERR_UNKNOWN_EVENT,
			  "unknown event '%s': no tracepoint subsystem '%s' in %s/events", spec, sys,
			  dir);
	}
	suggest__append_then(&s, "run 'perfev list' to see every event");
	name_list__free(&l);
	return -PERFEV_ERR_UNKNOWN_EVENT;
}

int tracepoint__parse(const char *sys, const char *name, const char *spec,
		      struct perf_event_attr *attr)
{
	char dir[TP_PATH_MAX], events[TP_PATH_MAX], path[TP_PATH_MAX];
	uint64_t id;
	int err;

	if (!name_is_path_safe(sys) || !name_is_path_safe(name))
		return set_error(PERFEV_ERR_SYNTAX,
				 "malformed tracepoint '%s': expected subsystem:event of letters, "
				 "digits, '_', '-' and '.'",
				 spec);
	err = tracefs__find(dir, sizeof(dir));
	if (err)
		return err;
	if (!path_join(events, sizeof(events), dir, "events", NULL, NULL) ||
	    !path_join(path, sizeof(path), events, sys, name, "id"))
		return set_error(ENAMETOOLONG, "tracepoint name '%s' is too long", spec);
	err = read_u64_file(path, &id);
	if (err == -ENOENT || err == -ENOTDIR)
		return unknown_tracepoint(dir, sys, name, spec);
	if (err == -PERFEV_ERR_SYNTAX)
		return set_error(PERFEV_ERR_FORMAT, "malformed tracepoint id in %s", path);
	if (err < 0)
		return set_error(-err, "cannot read the id of tracepoint '%s' from %s: %s", spec,
				 path, strerror(-err));
	attr->type = PERF_TYPE_TRACEPOINT;
	attr->config = id;
	return 0;
}

int tracepoint__for_each(tracepoint_cb cb, void *ctx)
{
	char dir[TP_PATH_MAX], events[TP_PATH_MAX], path[TP_PATH_MAX];
	struct name_list systems = { 0 };
	int ret = 0;

	ret = tracefs__find(dir, sizeof(dir));
	if (ret)
		return ret;
	if (!path_join(events, sizeof(events), dir, "events", NULL, NULL))
		return 0;
	name_list__read_dir(&systems, events, true);
	for (size_t i = 0; i < systems.nr && !ret; i++) {
		struct name_list names = { 0 };

		if (!path_join(path, sizeof(path), events, systems.names[i], NULL, NULL))
			continue;
		name_list__read_dir(&names, path, true);
		for (size_t j = 0; j < names.nr && !ret; j++)
			if (tp_has_id(dir, systems.names[i], names.names[j]))
				ret = cb(systems.names[i], names.names[j], ctx);
		name_list__free(&names);
	}
	name_list__free(&systems);
	return ret;
}

static bool has_glob(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (s[i] == '*' || s[i] == '?' || s[i] == '[')
			return true;
	return false;
}

/* Splits "sys:event[:mods]"; false when it is not of that form. */
static bool split_tp(const char *spec, char *sys, char *event, size_t size, const char **mods)
{
	const char *c1 = strchr(spec, ':'), *c2;
	size_t ls, le;

	if (!c1 || c1 == spec)
		return false;
	c2 = strchr(c1 + 1, ':');
	ls = (size_t)(c1 - spec);
	le = c2 ? (size_t)(c2 - c1 - 1) : strlen(c1 + 1);
	if (!le || ls >= size || le >= size)
		return false;
	memcpy(sys, spec, ls);
	sys[ls] = '\0';
	memcpy(event, c1 + 1, le);
	event[le] = '\0';
	*mods = c2;
	return true;
}

int tracepoint__glob(const char *spec, tracepoint_glob_cb cb, void *ctx)
{
	char sys[EVENT_SPEC_MAX + 1], event[EVENT_SPEC_MAX + 1], dir[TP_PATH_MAX],
		events[TP_PATH_MAX], path[TP_PATH_MAX], one[2 * EVENT_SPEC_MAX + 4];
	struct name_list systems = { 0 };
	const char *mods;
	int ret = 0, nr = 0;

	if (!split_tp(spec, sys, event, sizeof(sys), &mods) ||
	    (!has_glob(sys, strlen(sys)) && !has_glob(event, strlen(event))))
		return 0;
	/* "mem:0x10/8:*" or a PMU's terms are not tracepoints. */
	if (strchr(sys, '/') || strchr(event, '/') || !strcmp(sys, "mem"))
		return 0;
	ret = tracefs__find(dir, sizeof(dir));
	if (ret)
		return ret;
	if (!path_join(events, sizeof(events), dir, "events", NULL, NULL))
		return set_error(ENAMETOOLONG, "the tracefs path %s is too long", dir);
	name_list__read_dir(&systems, events, true);
	for (size_t i = 0; i < systems.nr && !ret; i++) {
		struct name_list names = { 0 };

		if (fnmatch(sys, systems.names[i], 0) ||
		    !path_join(path, sizeof(path), events, systems.names[i], NULL, NULL))
			continue;
		name_list__read_dir(&names, path, true);
		for (size_t j = 0; j < names.nr && !ret; j++) {
			if (fnmatch(event, names.names[j], 0) ||
			    !tp_has_id(dir, systems.names[i], names.names[j]))
				continue;
			snprintf(one, sizeof(one), "%s:%s%s", systems.names[i], names.names[j],
				 mods ? mods : "");
			ret = cb(one, ctx);
			nr++;
		}
		name_list__free(&names);
	}
	name_list__free(&systems);
	if (ret)
		return ret;
	if (!nr)
		return set_error(PERFEV_ERR_UNKNOWN_EVENT,
				 "no tracepoint matches '%s' in %s/events; run 'perfev list "
				 "tracepoint' to see them",
				 spec, dir);
	return nr;
}
