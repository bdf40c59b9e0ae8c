// SPDX-License-Identifier: MIT
/*
 * The profile's background inserter: perfev_profile__add() interns the
 * stack's frames and copies their indices into a batch, and a thread of the
 * profile's own puts the batches into the tree, so that building the tree
 * overlaps with what the caller does between samples (reading, ordering and
 * symbolizing the next ones).  One producer,
 * one consumer, a ring of batches handed over under a mutex: a batch holds a
 * few hundred stacks, so the hand-over costs nothing next to the work.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/internal.h"
#include "profile/profile_int.h"

#define BG_BATCHES 4
#define BG_STACKS 4096

struct bg_stack {
	uint64_t weight, time;
	uint32_t th;
	uint32_t n;	 /* frames */
	size_t first; /* path[first .. first + n) of the batch */
};

struct bg_batch {
	struct bg_stack stacks[BG_STACKS];
	size_t nr;
	uint32_t *path; /* the stacks' frame indices */
	size_t nr_path, cap_path;
};

struct profile_bg {
	struct perfev_profile *p;
	pthread_t thread;
	pthread_mutex_t mu;
	pthread_cond_t work, done; /* a batch was handed over; one was finished */
	struct bg_batch batches[BG_BATCHES];
	/* Under mu: the handed-over batches are head, head + 1, ... (queued of them). */
	size_t head, queued;
	bool stop;
	int err; /* the first failure, -errno; then batches are dropped */
	char msg[256];
	/* The adding thread's own: the batch it fills, and whether anything waits. */
	size_t fill;
	bool pending;
};

static void *worker(void *arg)
{
	struct profile_bg *bg = arg;

	pthread_mutex_lock(&bg->mu);
	for (;;) {
		while (!bg->queued && !bg->stop)
			pthread_cond_wait(&bg->work, &bg->mu);
		if (bg->stop)
			break;
		struct bg_batch *b = &bg->batches[bg->head];
		int err = bg->err;

		pthread_mutex_unlock(&bg->mu);
		for (size_t i = 0; i < b->nr && !err; i++) {
			const struct bg_stack *s = &b->stacks[i];

			/* Batches of empty stacks only have no path at all. */
			err = profile_insert(bg->p, s->th, s->n ? b->path + s->first : NULL, s->n,
					     s->weight, s->time);
		}
		b->nr = 0;
		b->nr_path = 0;
		pthread_mutex_lock(&bg->mu);
		if (err && !bg->err) {
			bg->err = err;
			/* The error text is this thread's; keep it for the adding thread. */
			snprintf(bg->msg, sizeof(bg->msg), "%s", perfev_last_error());
		}
		bg->head = (bg->head + 1) % BG_BATCHES;
		bg->queued--;
		pthread_cond_signal(&bg->done);
	}
	pthread_mutex_unlock(&bg->mu);
	return NULL;
}

bool profile_bg_start(struct perfev_profile *p)
{
	struct profile_bg *bg = calloc(1, sizeof(*bg));
	sigset_t all, old;
	int err;

	if (!bg)
		return false;
	bg->p = p;
	if (pthread_mutex_init(&bg->mu, NULL)) {
		free(bg);
		return false;
	}
	pthread_cond_init(&bg->work, NULL);
	pthread_cond_init(&bg->done, NULL);
	/* Signals stay with the caller's threads: the worker starts with all blocked. */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	err = pthread_create(&bg->thread, NULL, worker, bg);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (err) {
		pr_debug("profile: no inserting thread (%s); stacks are inserted in place",
			 strerror(err));
		pthread_cond_destroy(&bg->work);
		pthread_cond_destroy(&bg->done);
		pthread_mutex_destroy(&bg->mu);
		free(bg);
		return false;
	}
	p->bg = bg;
	return true;
}

/* Hands the batch being filled to the worker and waits for a free one. */
static int submit(struct profile_bg *bg)
{
	int err;

	pthread_mutex_lock(&bg->mu);
	bg->queued++;
	pthread_cond_signal(&bg->work);
	bg->fill = (bg->fill + 1) % BG_BATCHES;
	while (bg->queued == BG_BATCHES)
		pthread_cond_wait(&bg->done, &bg->mu);
	err = bg->err;
	pthread_mutex_unlock(&bg->mu);
	return err;
}

static int bg_error(struct profile_bg *bg, int err)
{
	return set_error(-err, "%s", bg->msg);
}

int profile_bg_add(struct perfev_profile *p, uint32_t th, const uint32_t *path, size_t n,
		   uint64_t weight, uint64_t time)
{
	struct profile_bg *bg = p->bg;
	struct bg_batch *b = &bg->batches[bg->fill];
	int err;

	if (n > UINT32_MAX ||
	    !array_grow((void **)&b->path, &b->cap_path, b->nr_path + n, sizeof(*b->path)))
		return set_error(ENOMEM, "profile: out of memory");
	if (n)
		memcpy(b->path + b->nr_path, path, n * sizeof(*path));
	b->stacks[b->nr++] = (struct bg_stack){ weight, time, th, (uint32_t)n, b->nr_path };
	b->nr_path += n;
	bg->pending = true;
	if (b->nr < BG_STACKS)
		return 0;
	err = submit(bg);
	return err ? bg_error(bg, err) : 0;
}

int profile_bg_sync(struct profile_bg *bg)
{
	int err;

	if (bg->batches[bg->fill].nr)
		submit(bg);
	pthread_mutex_lock(&bg->mu);
	while (bg->queued)
		pthread_cond_wait(&bg->done, &bg->mu);
	err = bg->err;
	pthread_mutex_unlock(&bg->mu);
	bg->pending = false;
	return err ? bg_error(bg, err) : 0;
}

bool profile_bg_pending(const struct profile_bg *bg)
{
	return bg->pending;
}

void profile_bg_stop(struct profile_bg *bg)
{
	if (!bg)
		return;
	pthread_mutex_lock(&bg->mu);
	bg->stop = true;
	pthread_cond_signal(&bg->work);
	pthread_mutex_unlock(&bg->mu);
	pthread_join(bg->thread, NULL);
	for (size_t i = 0; i < BG_BATCHES; i++)
		free(bg->batches[i].path);
	pthread_cond_destroy(&bg->work);
	pthread_cond_destroy(&bg->done);
	pthread_mutex_destroy(&bg->mu);
	free(bg);
}
