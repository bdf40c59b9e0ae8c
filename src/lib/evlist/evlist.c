/* SPDX-License-Identifier: MIT */
/* Event lists: building them, opening every event on its CPUs and threads, reading counts. */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "evlist/evlist_int.h"
#include "util/opts.h"

struct perfev_evlist *perfev_evlist__new(void)
{
	struct perfev_evlist *el = calloc(1, sizeof(*el));

	if (!el)
		return set_error_ptr(ENOMEM, "out of memory");
	el->cgroup_fd = -1;
	el->epoll_fd = -1;
	return el;
}

static void evsel__free_fds(struct perfev_evsel *ev)
{
	free(ev->fds);
	free(ev->ids);
	free(ev->counts);
	ev->fds = NULL;
	ev->ids = NULL;
	ev->counts = NULL;
}

static void evsel__delete(struct perfev_evsel *ev)
{
	if (!ev)
		return;
	evsel__free_fds(ev);
	free(ev->name);
	free(ev->open_errmsg);
	free(ev);
}

void perfev_evlist__delete(struct perfev_evlist *el)
{
	if (!el)
		return;
	perfev_evlist__close(el);
	for (int i = 0; i < el->nr; i++)
		evsel__delete(el->evsels[i]);
	free(el->evsels);
	free(el);
}

struct perfev_evsel *perfev_evlist__add_attr(struct perfev_evlist *el,
					     const struct perf_event_attr *attr, const char *name,
					     struct perfev_evsel *leader)
{
	struct perfev_evsel *ev;
	char buf[64];

	if (!el || !attr)
		return set_error_ptr(EINVAL, "no event list or attribute given");
	if (el->open)
		return set_error_ptr(EBUSY, "cannot add events to a list that is open");
	if (leader && (leader->evlist != el || leader->leader != leader))
		return set_error_ptr(EINVAL, "the group leader must be a leading event of this list");
	if (el->nr == el->cap) {
		int cap = el->cap ? el->cap * 2 : 8;
		struct perfev_evsel **n = realloc(el->evsels, (size_t)cap * sizeof(*n));

		if (!n)
			return set_error_ptr(ENOMEM, "out of memory");
		el->evsels = n;
		el->cap = cap;
	}
	ev = calloc(1, sizeof(*ev));
	if (!ev)
		return set_error_ptr(ENOMEM, "out of memory");
	ev->attr = *attr;
	ev->attr.size = sizeof(ev->attr);
	if (!name) {
		snprintf(buf, sizeof(buf), "raw 0x%x:0x%llx", attr->type,
			 (unsigned long long)attr->config);
		name = buf;
	}
	ev->name = strdup(name);
	if (!ev->name) {
		free(ev);
		return set_error_ptr(ENOMEM, "out of memory");
	}
	ev->evlist = el;
	ev->idx = el->nr;
	ev->leader = leader ? leader : ev;
	ev->nr_members = 1;
	if (leader) {
		ev->group_idx = leader->nr_members;
		leader->nr_members++;
	}
	el->evsels[el->nr++] = ev;
	return ev;
}

void evlist__truncate(struct perfev_evlist *el, int from)
{
	while (el->nr > from) {
		struct perfev_evsel *ev = el->evsels[--el->nr];

		if (ev->leader != ev)
			ev->leader->nr_members--;
		evsel__delete(ev);
	}
}

void evsel__set_sample_read(struct perfev_evsel *ev, bool on)
{
	ev->sample_read = on;
}

int perfev_evlist__nr_evsels(const struct perfev_evlist *el)
{
	return el ? el->nr : 0;
}

struct perfev_evsel *perfev_evlist__next_evsel(const struct perfev_evlist *el,
					       const struct perfev_evsel *prev)
{
	int i = prev ? prev->idx + 1 : 0;

	return el && i < el->nr ? el->evsels[i] : NULL;
}

const char *perfev_evsel__name(const struct perfev_evsel *ev)
{
	return ev->name;
}

struct perf_event_attr *perfev_evsel__attr(struct perfev_evsel *ev)
{
	return &ev->attr;
}

struct perfev_evsel *perfev_evsel__leader(const struct perfev_evsel *ev)
{
	return ev->leader;
}

int perfev_evsel__idx(const struct perfev_evsel *ev)
{
	return ev->idx;
}

int perfev_evsel__nr_members(const struct perfev_evsel *ev)
{
	return ev->leader == ev ? ev->nr_members : 1;
}

bool perfev_evsel__sample_read(const struct perfev_evsel *ev)
{
	return ev->sample_read;
}

static int nr_slots(const struct perfev_evlist *el)
{
	return el->cpus && el->threads ? el->cpus->nr * el->threads->nr : 0;
}

static int slot(const struct perfev_evsel *ev, int cpu_idx, int thread_idx)
{
	const struct perfev_evlist *el = ev->evlist;

	if (!ev->fds || cpu_idx < 0 || thread_idx < 0 || cpu_idx >= el->cpus->nr ||
	    thread_idx >= el->threads->nr)
		return -1;
	return cpu_idx * el->threads->nr + thread_idx;
}

int perfev_evsel__fd(const struct perfev_evsel *ev, int cpu_idx, int thread_idx)
{
	int s = slot(ev, cpu_idx, thread_idx);

	return s < 0 ? -1 : ev->fds[s];
}

uint64_t perfev_evsel__id(const struct perfev_evsel *ev, int cpu_idx, int thread_idx)
{
	int s = slot(ev, cpu_idx, thread_idx);

	return s < 0 ? 0 : ev->ids[s];
}

int perfev_evsel__open_status(const struct perfev_evsel *ev)
{
	return ev->open_err;
}

const char *perfev_evsel__open_error(const struct perfev_evsel *ev)
{
	return ev->open_errmsg ? ev->open_errmsg : "";
}

const struct perfev_cpu_map *perfev_evlist__cpus(const struct perfev_evlist *el)
{
	return el->cpus;
}

const struct perfev_thread_map *perfev_evlist__threads(const struct perfev_evlist *el)
{
	return el->threads;
}

static void evsel__close(struct perfev_evsel *ev, int n)
{
	if (!ev->fds)
		return;
	for (int i = 0; i < n; i++)
		if (ev->fds[i] >= 0)
			close(ev->fds[i]);
	evsel__free_fds(ev);
}

void perfev_evlist__close(struct perfev_evlist *el)
{
	if (!el)
		return;
	int n = nr_slots(el);

	/* Rings first: they name fds about to be closed, whose numbers may be reused. */
	if (el->unmap)
		el->unmap(el);
	/* Members before leaders: a leader's close would otherwise orphan its group first. */
	for (int i = el->nr - 1; i >= 0; i--)
		evsel__close(el->evsels[i], n);
	if (el->cgroup_fd >= 0)
		close(el->cgroup_fd);
	el->cgroup_fd = -1;
	perfev_cpu_map__delete(el->cpus);
	perfev_thread_map__delete(el->threads);
	el->cpus = NULL;
	el->threads = NULL;
	el->open = false;
}

/* Errors meaning "this machine can't count that event", as opposed to misuse. */
static bool unsupported_error(int err, const struct perf_event_attr *attr)
{
	switch (-err) {
	case ENOENT:
	case EOPNOTSUPP:
	case ENODEV:
	case ENXIO:
		return true;
	case EINVAL:
		/* A PMU rejecting a config it lacks says EINVAL; software events don't. */
		return attr->type != PERF_TYPE_SOFTWARE && attr->type != PERF_TYPE_TRACEPOINT;
	default:
		return false;
	}
}

/*
 * A cgroup is named relative to the cgroup2 mount (or the perf_event v1
 * one), like perf does; a path that already starts with the mount is taken
 * as it is.
 */
static int open_cgroup(const char *name)
{
	char path[4096], line[4096], mnt[2048] = "";
	FILE *f;
	int fd;
	size_t ml;

	f = fopen("/proc/mounts", "re");
	if (!f)
		return set_error(errno, "cannot read /proc/mounts to find the cgroup mount: %s",
				 strerror(errno));
	while (fgets(line, sizeof(line), f)) {
		char dev[256], dir[2048], type[64], opts[1024] = "";

		if (sscanf(line, "%255s %2047s %63s %1023s", dev, dir, type, opts) < 3)
			continue;
		if (!strcmp(type, "cgroup2")) {
			snprintf(mnt, sizeof(mnt), "%s", dir);
			break;
		}
		if (!strcmp(type, "cgroup") && strstr(opts, "perf_event"))
			snprintf(mnt, sizeof(mnt), "%s", dir);
	}
	fclose(f);
	if (!mnt[0])
		return set_error(ENOENT, "no cgroup2 (or perf_event cgroup) file system is mounted; "
					 "mount one with 'mount -t cgroup2 none /sys/fs/cgroup'");
	ml = strlen(mnt);
	if (!strncmp(name, mnt, ml) && (name[ml] == '/' || !name[ml]))
		snprintf(path, sizeof(path), "%s", name);
	else
		snprintf(path, sizeof(path), "%s/%s", mnt, name[0] == '/' ? name + 1 : name);
	fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return set_error(errno, "cannot open cgroup '%s' (%s): %s; cgroups are named relative "
					"to %s",
				 name, path, strerror(errno), mnt);
	return fd;
}

static int setup_maps(struct perfev_evlist *el, const struct perfev_open_opts *o)
{
	bool per_cpu = o->system_wide || o->cpus || o->cpu_map || o->cgroup;

	if (o->cpus && o->cpu_map)
		return set_error(EINVAL, "perfev_open_opts has both cpus (\"%.64s\") and cpu_map: "
					 "give the CPUs one way", o->cpus);
	if (o->cgroup) {
		el->cgroup_fd = open_cgroup(o->cgroup);
		if (el->cgroup_fd < 0)
			return el->cgroup_fd;
	}
	if (per_cpu) {
		el->cpus = o->cpu_map ? cpu_map__dup(o->cpu_map) : perfev_cpu_map__new(o->cpus);
		if (!el->cpus)
			return -errno;
		if (o->cgroup)
			el->threads = perfev_thread_map__new(el->cgroup_fd, 0);
		else
			el->threads = perfev_thread_map__new(o->system_wide ? -1 : o->pid,
							     o->attach_all_threads);
	} else {
		if (o->pid < 0)
			return set_error(EINVAL, "counting every task (pid -1) needs CPUs: "
						 "use system_wide or give a CPU list");
		el->cpus = perfev_cpu_map__new_any();
		el->threads = perfev_thread_map__new(o->pid, o->attach_all_threads);
	}
	if (!el->cpus || !el->threads)
		return errno ? -errno : -ENOMEM;
	return 0;
}

static void prepare_attr(struct perfev_evsel *ev, const struct perfev_open_opts *o)
{
	struct perf_event_attr *a = &ev->attr;
	bool leader = ev->leader == ev;

	a->size = sizeof(*a);
	a->read_format |= PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING |
			  PERF_FORMAT_ID;
	a->inherit = o->inherit;
	/*
	 * Inherited counts are read member by member (a group read of
	 * inherited events is not summed over children on older kernels), but
	 * a ":S" leader's samples must carry the whole group.
	 */
	if (leader && ev->nr_members > 1 && (!o->inherit || ev->sample_read))
		a->read_format |= PERF_FORMAT_GROUP;
	if (leader) {
		/*
		 * Leaders start disabled even when counting should start now: a
		 * member added to a group already counting on the calling task
		 * does not count until the task is next scheduled in.  The list
		 * is enabled once every member exists, as perf does.
		 */
		a->disabled = 1;
		a->enable_on_exec = o->enable_on_exec;
	} else {
		/* Members follow their leader's enable state. */
		a->disabled = 0;
		a->enable_on_exec = 0;
	}
}

static int evsel__alloc_slots(struct perfev_evsel *ev, int n)
{
	ev->fds = malloc((size_t)n * sizeof(int));
	ev->ids = calloc((size_t)n, sizeof(uint64_t));
	ev->counts = calloc((size_t)n, sizeof(struct perfev_counts));
	if (!ev->fds || !ev->ids || !ev->counts) {
		evsel__free_fds(ev);
		return -ENOMEM;
	}
	for (int i = 0; i < n; i++)
		ev->fds[i] = -1;
	return 0;
}

static void evsel__mark_unsupported(struct perfev_evsel *ev, int err, int n,
				    const struct open_target *t)
{
	char buf[512];

	explain_open_error(err, &ev->attr, ev->name, t, buf, sizeof(buf));
	evsel__close(ev, n);
	ev->open_err = err;
	free(ev->open_errmsg);
	ev->open_errmsg = strdup(buf);
}

bool perfev_evsel__user_only_fallback(const struct perfev_evsel *ev)
{
	return ev && ev->user_only;
}

/*
 * perf's fallback for users whom kernel.perf_event_paranoid lets measure
 * only user space (evsel__fallback() in tools/perf/util/evsel.c): an event
 * of a task, refused at its first CPU and thread, that counts user space
 * and the kernel becomes user space only.  Tracepoints are left alone:
 * they fire in the kernel, and would count nothing.
 */
static bool can_fall_back(const struct perfev_evsel *ev, int err, int slot,
			  const struct open_target *t)
{
	const struct perf_event_attr *a = &ev->attr;

	return (err == -EACCES || err == -EPERM) && slot == 0 && !t->cpu_wide &&
	       !a->exclude_kernel && !a->exclude_user && a->type != PERF_TYPE_TRACEPOINT &&
	       sysctl_perf_paranoid() >= 2 && !foreign_process(t->pid);
}

static int evsel__fall_back_user_only(struct perfev_evsel *ev)
{
	/* perf's naming: "cycles:u", "cycles:pu", "cpu/cycles/u". */
	const char *sep = strchr(ev->name, ':') || strchr(ev->name, '/') ? "" : ":";
	size_t n = strlen(ev->name) + 3;
	char *name = malloc(n);

	if (!name)
		return -ENOMEM;
	snprintf(name, n, "%s%su", ev->name, sep);
	free(ev->name);
	ev->name = name;
	ev->attr.exclude_kernel = 1;
	ev->attr.exclude_hv = 1;
	ev->user_only = true;
	return 0;
}

int perfev_evlist__open(struct perfev_evlist *el, const struct perfev_open_opts *opts)
{
	struct open_target target;
	struct perfev_open_opts o;
	int err, n;

	if (!el)
		return -EINVAL;
	if ((err = OPTS_COPY(&o, opts, perfev_open_opts, pid)) < 0)
		return err;
	if (el->open)
		return set_error(EBUSY, "the event list is already open");
	if (!el->nr)
		return set_error(EINVAL, "the event list is empty: add events before opening it");
	err = setup_maps(el, &o);
	if (err)
		goto err_out;
	target = (struct open_target){
		.cpu_wide = o.system_wide || o.cgroup || el->threads->tids[0] == -1,
		.pid = o.pid,
	};
	n = nr_slots(el);
	for (int i = 0; i < el->nr; i++) {
		struct perfev_evsel *ev = el->evsels[i];

		ev->open_err = 0;
		free(ev->open_errmsg);
		ev->open_errmsg = NULL;
		prepare_attr(ev, &o);
		err = evsel__alloc_slots(ev, n);
		if (err) {
			err = set_error(ENOMEM, "out of memory");
			goto err_out;
		}
	}
	el->open = true;
	for (int c = 0; c < el->cpus->nr; c++) {
		for (int t = 0; t < el->threads->nr; t++) {
			int s = c * el->threads->nr + t;

			for (int i = 0; i < el->nr; i++) {
				struct perfev_evsel *ev = el->evsels[i];
				int group_fd = -1, fd;
				unsigned long flags = o.cgroup ? PERF_FLAG_PID_CGROUP : 0;

				if (ev->open_err)
					continue;
				if (ev->leader != ev) {
					if (ev->leader->open_err) {
						evsel__mark_unsupported(ev, ev->leader->open_err, n,
									&target);
						continue;
					}
					group_fd = ev->leader->fds[s];
				}
				fd = perfev_event_open(&ev->attr, el->threads->tids[t],
						       el->cpus->cpus[c], group_fd, flags);
				if (fd < 0 && o.fallback_user_only && can_fall_back(ev, fd, s, &target)) {
					if (evsel__fall_back_user_only(ev) < 0) {
						err = set_error(ENOMEM, "out of memory");
						goto err_out;
					}
					fd = perfev_event_open(&ev->attr, el->threads->tids[t],
							       el->cpus->cpus[c], group_fd, flags);
				}
				if (fd < 0 && o.skip_unsupported && unsupported_error(fd, &ev->attr)) {
					evsel__mark_unsupported(ev, fd, n, &target);
					continue;
				}
				if (fd < 0) {
					char buf[768];

					explain_open_error(fd, &ev->attr, ev->name, &target, buf,
							   sizeof(buf));
					err = set_error(-fd, "%s", buf);
					goto err_out;
				}
				ev->fds[s] = fd;
				if (ioctl(fd, PERF_EVENT_IOC_ID, &ev->ids[s]) < 0)
					ev->ids[s] = 0;
			}
		}
	}
	if (!o.start_disabled && !o.enable_on_exec) {
		err = perfev_evlist__enable(el);
		if (err)
			goto err_out;
	}
	return 0;
err_out:
	perfev_evlist__close(el);
	return err;
}

static int evlist__ioctl(struct perfev_evlist *el, unsigned long req)
{
	int n;

	if (!el || !el->open)
		return set_error(EBADF, "the event list is not open");
	n = nr_slots(el);
	for (int i = 0; i < el->nr; i++) {
		struct perfev_evsel *ev = el->evsels[i];

		if (!ev->fds)
			continue;
		for (int s = 0; s < n; s++)
			if (ev->fds[s] >= 0 && ioctl(ev->fds[s], req, 0) < 0)
				return set_error(errno, "ioctl on event '%s' failed: %s", ev->name,
						 strerror(errno));
	}
	return 0;
}

int perfev_evlist__enable(struct perfev_evlist *el)
{
	return evlist__ioctl(el, PERF_EVENT_IOC_ENABLE);
}

int perfev_evlist__disable(struct perfev_evlist *el)
{
	return evlist__ioctl(el, PERF_EVENT_IOC_DISABLE);
}

int perfev_evlist__reset(struct perfev_evlist *el)
{
	return evlist__ioctl(el, PERF_EVENT_IOC_RESET);
}

static int read_fd(int fd, void *buf, size_t size)
{
	ssize_t n;

	do
		n = read(fd, buf, size);
	while (n < 0 && errno == EINTR);
	return n < 0 ? -errno : (int)n;
}

/* One read of a leader's fd fills the whole group's readings of slot s. */
static int evsel__read_group(struct perfev_evlist *el, struct perfev_evsel *leader, int s)
{
	struct perfev_counts vals[64], *v = vals;
	size_t size = perfev_read_format__size(leader->attr.read_format, (uint64_t)leader->nr_members);
	uint64_t buf[1 + 2 + 64 * 3], *b = buf;
	int n, err = 0;

	if (leader->nr_members > 64) {
		b = malloc(size);
		v = malloc((size_t)leader->nr_members * sizeof(*v));
		if (!b || !v) {
			err = -ENOMEM;
			goto out;
		}
	}
	n = read_fd(leader->fds[s], b, size);
	if (n < 0) {
		err = set_error(-n, "cannot read group of '%s': %s", leader->name, strerror(-n));
		goto out;
	}
	n = perfev_read_format__parse(leader->attr.read_format, b, (size_t)n, v,
				      (size_t)leader->nr_members);
	if (n < 0) {
		err = n;
		goto out;
	}
	if (n > leader->nr_members)
		n = leader->nr_members;
	for (int i = leader->idx; i < el->nr; i++) {
		struct perfev_evsel *ev = el->evsels[i];

		if (ev->leader != leader || !ev->fds || ev->fds[s] < 0)
			continue;
		for (int k = 0; k < n; k++) {
			if (v[k].id == ev->ids[s]) {
				ev->counts[s] = v[k];
				break;
			}
		}
	}
out:
	if (b != buf)
		free(b);
	if (v != vals)
		free(v);
	return err;
}

static int evsel__read_one(struct perfev_evsel *ev, int s)
{
	uint64_t buf[8];
	int n = read_fd(ev->fds[s], buf, sizeof(buf));

	if (n < 0)
		return set_error(-n, "cannot read event '%s': %s", ev->name, strerror(-n));
	n = perfev_read_format__parse(ev->attr.read_format, buf, (size_t)n, &ev->counts[s], 1);
	return n < 0 ? n : 0;
}

int perfev_evsel__read(const struct perfev_evsel *ev, int cpu_idx, int thread_idx,
		       struct perfev_counts *out)
{
	int s = slot(ev, cpu_idx, thread_idx), n;
	uint64_t buf[8], *b = buf;
	size_t size = sizeof(buf);

	if (s < 0 || ev->fds[s] < 0)
		return set_error(EBADF, "event '%s' is not open on that CPU and thread", ev->name);
	/* A group leader's fd gives the whole group; the leader's value comes first. */
	if (ev->attr.read_format & PERF_FORMAT_GROUP) {
		size = perfev_read_format__size(ev->attr.read_format, (uint64_t)ev->nr_members);
		if (size > sizeof(buf)) {
			b = malloc(size);
			if (!b)
				return set_error(ENOMEM, "out of memory");
		}
	}
	n = read_fd(ev->fds[s], b, size);
	if (n < 0)
		n = set_error(-n, "cannot read event '%s': %s", ev->name, strerror(-n));
	else
		n = perfev_read_format__parse(ev->attr.read_format, b, (size_t)n, out, 1);
	if (b != buf)
		free(b);
	return n < 0 ? n : 0;
}

int perfev_evlist__read(struct perfev_evlist *el)
{
	int n, err;

	if (!el || !el->open)
		return set_error(EBADF, "the event list is not open");
	n = nr_slots(el);
	for (int i = 0; i < el->nr; i++) {
		struct perfev_evsel *ev = el->evsels[i];

		if (!ev->fds)
			continue;
		for (int s = 0; s < n; s++) {
			if (ev->fds[s] < 0)
				continue;
			if (ev->attr.read_format & PERF_FORMAT_GROUP)
				err = evsel__read_group(el, ev, s);
			else if (ev->leader != ev && (ev->leader->attr.read_format & PERF_FORMAT_GROUP) &&
				 ev->leader->fds && ev->leader->fds[s] >= 0)
				continue; /* filled by its leader's group read */
			else
				err = evsel__read_one(ev, s);
			if (err)
				return err;
		}
	}
	return 0;
}

int perfev_evsel__counts(const struct perfev_evsel *ev, int cpu_idx, int thread_idx,
			 struct perfev_counts *out)
{
	int s = slot(ev, cpu_idx, thread_idx);

	if (s < 0)
		return -ENOENT;
	*out = ev->counts[s];
	return 0;
}

int perfev_evsel__counts_total(const struct perfev_evsel *ev, struct perfev_counts *out)
{
	int n = nr_slots(ev->evlist);

	memset(out, 0, sizeof(*out));
	if (!ev->fds)
		return ev->open_err ? ev->open_err : -EBADF;
	/* Summed as perf does: the total scales by the summed times. */
	for (int s = 0; s < n; s++) {
		const struct perfev_counts *c = &ev->counts[s];

		if (ev->fds[s] < 0)
			continue;
		out->val += c->val;
		out->ena += c->ena;
		out->run += c->run;
		out->lost += c->lost;
		if (!out->id)
			out->id = c->id;
	}
	return 0;
}

int perfev_process_events_enable(void)
{
	return prctl(PR_TASK_PERF_EVENTS_ENABLE, 0, 0, 0, 0) ? -errno : 0;
}

int perfev_process_events_disable(void)
{
	return prctl(PR_TASK_PERF_EVENTS_DISABLE, 0, 0, 0, 0) ? -errno : 0;
}
