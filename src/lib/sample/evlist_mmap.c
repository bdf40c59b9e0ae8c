/* SPDX-License-Identifier: MIT */
/* Sampling an event list: a ring per CPU or per thread, the other events redirected into it, epoll. */
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <unistd.h>

#include "evlist/evlist_int.h"
#include "perfev/ring.h"
#include "util/opts.h"

/* epoll data of a caller's fd; ring fds carry their ring index, always below it. */
#define CALLER_FD_TAG (1ull << 32)

static bool per_thread(const struct perfev_evlist *el)
{
	return el->cpus->nr == 1 && el->cpus->cpus[0] == -1;
}

static int evlist__epoll(struct perfev_evlist *el)
{
	el->unmap = perfev_evlist__munmap;
	if (el->epoll_fd < 0) {
		el->epoll_fd = epoll_create1(EPOLL_CLOEXEC);
		if (el->epoll_fd < 0)
			return set_error(errno, "cannot create the epoll set to wait on: %s",
					 strerror(errno));
	}
	return 0;
}

/* What the kernel would refuse with a bare EINVAL, said up front with the way out. */
static int check_attrs(const struct perfev_evlist *el, bool overwrite)
{
	for (int i = 0; i < el->nr; i++) {
		const struct perfev_evsel *ev = el->evsels[i];

		if (!ev->fds)
			continue;
		if (ev->attr.inherit && per_thread(el))
			return set_error(EINVAL, "event '%s' is inherited by the tasks it follows but "
						 "was opened per thread (on any CPU), and the kernel "
						 "does not map such events: inherit needs a per-CPU "
						 "list (open it with cpus or system_wide)",
					 ev->name);
		if (!!ev->attr.write_backward != overwrite)
			return set_error(EINVAL,
					 overwrite ? "overwrite rings need every event opened with "
						     "attr.write_backward = 1; event '%s' writes forward"
						   : "event '%s' has attr.write_backward set, which "
						     "only overwrite rings read: set "
						     "perfev_mmap_opts.overwrite or clear it",
					 ev->name);
	}
	return 0;
}

/* Puts which event, CPU and thread failed in front of the ring's own explanation. */
static int ring_error(const struct perfev_evlist *el, const struct perfev_evsel *ev, int c,
		      int t, int err)
{
	char why[768], cpu[16] = "any";

	snprintf(why, sizeof(why), "%s", perfev_last_error());
	if (el->cpus->cpus[c] >= 0)
		snprintf(cpu, sizeof(cpu), "%d", el->cpus->cpus[c]);
	return set_error(-err, "sampling event '%s' (CPU %s, thread %d): %s", ev->name, cpu,
			 (int)el->threads->tids[t], why);
}

/*
 * Ring r is CPU index r of a per-CPU list, thread index r of a per-thread
 * one.  Its first open fd owns the mapping; every other open fd of that CPU
 * or thread is redirected into it.
 */
static int map_ring(struct perfev_evlist *el, int r, const struct perfev_ring_opts *ro)
{
	bool pt = per_thread(el);
	int nt = el->threads->nr, c = pt ? 0 : r, t0 = pt ? r : 0, t1 = pt ? r + 1 : nt;
	struct perfev_ring *ring = NULL;
	struct epoll_event ee = { .events = EPOLLIN };

	for (int i = 0; i < el->nr; i++) {
		struct perfev_evsel *ev = el->evsels[i];

		if (!ev->fds)
			continue;
		for (int t = t0; t < t1; t++) {
			int fd = ev->fds[c * nt + t], err;

			if (fd < 0)
				continue;
			if (!ring) {
				ring = perfev_ring__new(fd, ro);
				if (!ring)
					return ring_error(el, ev, c, t, -errno);
				el->rings[el->nr_rings] = ring;
				el->ring_cpu[el->nr_rings] = el->cpus->cpus[c];
				ee.data.u64 = (uint64_t)el->nr_rings++;
				if (epoll_ctl(el->epoll_fd, EPOLL_CTL_ADD, fd, &ee) < 0)
					return set_error(errno, "cannot add the ring of event '%s' to "
								"the epoll set: %s",
							 ev->name, strerror(errno));
				continue;
			}
			err = perfev_ring__set_output(ring, fd);
			if (err)
				return ring_error(el, ev, c, t, err);
		}
	}
	return 0;
}

static int cmp_id(const void *a, const void *b)
{
	uint64_t x = ((const struct evlist_id *)a)->id, y = ((const struct evlist_id *)b)->id;

	return x < y ? -1 : x > y;
}

/*
 * Sampling looks an id up for every record, over every (event, CPU,
 * thread) of the list: a sorted index keeps that a binary search.
 */
static int build_id_index(struct perfev_evlist *el)
{
	int slots = el->cpus->nr * el->threads->nr, n = 0;
	size_t total;

	if (!size_mul_ok((size_t)el->nr, (size_t)slots, &total))
		return set_error(ENOMEM, "out of memory");
	el->id_index = malloc((total ? total : 1) * sizeof(*el->id_index));
	if (!el->id_index)
		return set_error(ENOMEM, "out of memory");
	for (int i = 0; i < el->nr; i++) {
		struct perfev_evsel *ev = el->evsels[i];

		for (int s = 0; ev->fds && s < slots; s++)
			if (ev->fds[s] >= 0 && ev->ids[s])
				el->id_index[n++] = (struct evlist_id){ ev->ids[s], ev };
	}
	sort_array(el->id_index, (size_t)n, sizeof(*el->id_index), cmp_id);
	el->nr_ids = n;
	return 0;
}

/* Unmaps the rings and takes their fds out of the epoll set, which keeps the caller's fds. */
static void drop_rings(struct perfev_evlist *el)
{
	free(el->id_index);
	el->id_index = NULL;
	el->nr_ids = 0;
	for (int i = 0; i < el->nr_rings; i++) {
		/* Fails harmlessly for a ring that already hung up and left the set. */
		if (el->epoll_fd >= 0)
			epoll_ctl(el->epoll_fd, EPOLL_CTL_DEL, perfev_ring__fd(el->rings[i]), NULL);
		perfev_ring__delete(el->rings[i]);
	}
	free(el->rings);
	free(el->ring_cpu);
	el->rings = NULL;
	el->ring_cpu = NULL;
	el->nr_rings = 0;
}

int perfev_evlist__mmap(struct perfev_evlist *el, const struct perfev_mmap_opts *opts)
{
	struct perfev_mmap_opts o;
	struct perfev_ring_opts ro = { .sz = sizeof(ro) };
	int n, err;

	if (!el)
		return set_error(EINVAL, "no event list given");
	if ((err = OPTS_COPY(&o, opts, perfev_mmap_opts, data_pages)) < 0)
		return err;
	if (!el->open)
		return set_error(EBADF, "the event list is not open: open it, then map its rings");
	if (el->rings)
		return set_error(EBUSY, "the event list's rings are mapped already");
	err = check_attrs(el, o.overwrite);
	if (err)
		return err;
	n = per_thread(el) ? el->threads->nr : el->cpus->nr;
	el->unmap = perfev_evlist__munmap;
	el->rings = calloc((size_t)n, sizeof(*el->rings));
	el->ring_cpu = calloc((size_t)n, sizeof(*el->ring_cpu));
	if (!el->rings || !el->ring_cpu) {
		err = set_error(ENOMEM, "out of memory");
		goto fail;
	}
	err = evlist__epoll(el);
	if (err)
		goto fail;
	ro.data_pages = o.data_pages;
	ro.overwrite = o.overwrite;
	ro.aux_pages = o.aux_pages;
	for (int r = 0; r < n; r++) {
		err = map_ring(el, r, &ro);
		if (err)
			goto fail;
	}
	if (!el->nr_rings) {
		err = set_error(ENODEV, "no event of the list is open, so there is no ring to map");
		goto fail;
	}
	err = build_id_index(el);
	if (err)
		goto fail;
	return 0;
fail:
	drop_rings(el);
	return err;
}

void perfev_evlist__munmap(struct perfev_evlist *el)
{
	if (!el)
		return;
	drop_rings(el);
	if (el->epoll_fd >= 0)
		close(el->epoll_fd);
	el->epoll_fd = -1;
}

int perfev_evlist__nr_rings(const struct perfev_evlist *el)
{
	return el ? el->nr_rings : 0;
}

struct perfev_ring *perfev_evlist__ring(const struct perfev_evlist *el, int idx)
{
	return el && idx >= 0 && idx < el->nr_rings ? el->rings[idx] : NULL;
}

int perfev_evlist__ring_cpu(const struct perfev_evlist *el, int idx)
{
	return el && idx >= 0 && idx < el->nr_rings ? el->ring_cpu[idx] : -1;
}

int perfev_evlist__poll(struct perfev_evlist *el, int timeout_ms, int *hup)
{
	struct epoll_event ev[64];
	int n, h = 0;

	if (hup)
		*hup = 0;
	if (!el || el->epoll_fd < 0)
		return set_error(EBADF, "nothing to wait on: map the list's rings "
					"(perfev_evlist__mmap) or add an fd first");
	n = epoll_wait(el->epoll_fd, ev, (int)ARRAY_SIZE(ev), timeout_ms);
	if (n < 0)
		return set_error(errno, errno == EINTR ? "a signal arrived while waiting on the rings"
						       : "waiting on the rings failed: %s",
				 strerror(errno));
	for (int i = 0; i < n; i++) {
		uint64_t tag = ev[i].data.u64;

		if (tag & CALLER_FD_TAG || !(ev[i].events & (EPOLLHUP | EPOLLERR)))
			continue;
		h++;
		/*
		 * A ring whose task is gone reports HUP at every later wait:
		 * leave the set, so that poll() does not spin on it while the
		 * others are still live.  Its records stay readable.
		 */
		if (tag < (uint64_t)el->nr_rings)
			epoll_ctl(el->epoll_fd, EPOLL_CTL_DEL, perfev_ring__fd(el->rings[tag]), NULL);
	}
	if (hup)
		*hup = h;
	return n;
}

int perfev_evlist__add_pollfd(struct perfev_evlist *el, int fd)
{
	struct epoll_event ee = { .events = EPOLLIN };
	int err;

	if (!el || fd < 0)
		return set_error(EINVAL, "no event list or fd given");
	err = evlist__epoll(el);
	if (err)
		return err;
	ee.data.u64 = CALLER_FD_TAG | (uint32_t)fd;
	if (epoll_ctl(el->epoll_fd, EPOLL_CTL_ADD, fd, &ee) < 0)
		return set_error(errno, "cannot add fd %d to the list's epoll set: %s", fd,
				 strerror(errno));
	return 0;
}

struct perfev_evsel *perfev_evlist__evsel_by_id(const struct perfev_evlist *el, uint64_t id)
{
	const struct evlist_id key = { id, NULL }, *hit;
	int n;

	if (!el || !id || !el->cpus || !el->threads)
		return NULL;
	if (el->id_index) {
		hit = search_array(&key, el->id_index, (size_t)el->nr_ids, sizeof(key), cmp_id);
		return hit ? hit->evsel : NULL;
	}
	/* Not mapped: a list used for counting only, looked up rarely. */
	n = el->cpus->nr * el->threads->nr;
	for (int i = 0; i < el->nr; i++) {
		struct perfev_evsel *ev = el->evsels[i];

		for (int s = 0; ev->fds && s < n; s++)
			if (ev->ids[s] == id && ev->fds[s] >= 0)
				return ev;
	}
	return NULL;
}
