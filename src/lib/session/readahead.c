// SPDX-License-Identifier: MIT
/*
 * Reading ahead (the option read_ahead): a thread of the session's own
 * reads the mapped file, decodes each record's header and time, and puts
 * the records in time order, while the caller's thread delivers the
 * ordered records of the rounds before (resolving stacks, calling back).
 * On two CPUs the reading and ordering, a third of a flat report's time,
 * no longer wait for the symbols and the callback.
 *
 * The ordering queue is the reading thread's while it runs: at each
 * FINISHED_ROUND it moves the records that can be delivered into a batch
 * and hands the batch over.  The records stay in the mapped file, which
 * neither thread writes; the pages the delivered records leave behind are
 * given back by the delivering thread, after it delivered them.
 *
 * What the delivering thread reads of the reader (events, their names and
 * formats) changes only with records that declare or rename events or add
 * features: before reading one of those the reading thread waits until
 * every handed-over batch is delivered, so that no delivery runs while the
 * reader changes.  Anything else out of the ordinary (a COMPRESSED record,
 * a record the mapping does not hold, the end, an error) ends the reading
 * thread where it is: the caller's thread goes on from there with the same
 * reader and queue, as without the option, and meets the end or the error
 * itself.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "util/internal.h"
#include "perfdata/reader_int.h"
#include "session/session_int.h"

#define RA_BATCHES 4
/* Rounds are gathered into a batch until it holds this many records: hand-overs stay rare. */
#define RA_BATCH_MIN 4096

struct ra_batch {
	struct qent *q;
	size_t nr, cap;
	uint64_t release; /* the file's pages below this can go once the batch is delivered */
};

struct sess_ra {
	struct perfev_session *s;
	pthread_t thread;
	pthread_mutex_t mu;
	pthread_cond_t ready, room; /* a batch was handed over (or reading ended); one was delivered */
	struct ra_batch batches[RA_BATCHES];
	/* Under mu. */
	size_t head, queued; /* handed-over batches: head, head + 1, ... */
	bool delivering;     /* the caller's thread is delivering the batch at head */
	bool done;	     /* the reading thread has ended */
	bool stop;	     /* the caller's thread asks it to end (its callback stopped, or failed) */
	int err;	     /* the reading thread's own failure (out of memory), -errno */
	char msg[256];
	/* The reading thread's own: the batch it fills. */
	size_t fill;
};

enum ra_kind {
	RA_PLAIN, /* reading it changes nothing the delivering thread reads */
	RA_WAIT,  /* it may declare or rename events: read once every batch is delivered */
	RA_STOP,  /* the caller's thread reads it (and what follows), as without the option */
};

static enum ra_kind kind_of(int type)
{
	if ((type > 0 && type <= PERF_RECORD_AUX_OUTPUT_HW_ID) ||
	    type == PERFEV_RECORD_FINISHED_ROUND)
		return RA_PLAIN;
	/*
	 * Compressed bytes go to a buffer the reader reuses; feature records
	 * and unknown types may warn, and warnings come from the caller's thread.
	 */
	if (type < 64 || type > PERFEV_RECORD_FINISHED_INIT || type == PERFEV_RECORD_COMPRESSED ||
	    type == PERFEV_RECORD_HEADER_FEATURE)
		return RA_STOP;
	return RA_WAIT;
}

/* Hands the batch being filled over (if it holds anything); false when asked to stop. */
static bool hand_over(struct sess_ra *ra)
{
	bool stop;

	pthread_mutex_lock(&ra->mu);
	if (ra->batches[ra->fill].nr) {
		ra->queued++;
		ra->fill = (ra->fill + 1) % RA_BATCHES;
		pthread_cond_signal(&ra->ready);
		while (ra->queued == RA_BATCHES && !ra->stop)
			pthread_cond_wait(&ra->room, &ra->mu);
	}
	stop = ra->stop;
	pthread_mutex_unlock(&ra->mu);
	return !stop;
}

/* Hands over what is filled and waits until everything handed over is delivered. */
static bool quiesce(struct sess_ra *ra)
{
	bool stop;

	if (!hand_over(ra))
		return false;
	pthread_mutex_lock(&ra->mu);
	while ((ra->queued || ra->delivering) && !ra->stop)
		pthread_cond_wait(&ra->room, &ra->mu);
	stop = ra->stop;
	pthread_mutex_unlock(&ra->mu);
	return !stop;
}

/* Moves the queued records up to limit into the batch being filled. */
static int take(struct sess_ra *ra, uint64_t limit)
{
	struct perfev_session *s = ra->s;
	struct ra_batch *b = &ra->batches[ra->fill];
	uint64_t low = 0;
	size_t n;
	int ret;

	if (!s->nr_q)
		return 0;
	ret = sess_queue_ready(s, limit, &n);
	if (ret)
		return ret;
	if (n) {
		if (!array_grow((void **)&b->q, &b->cap, b->nr + n, sizeof(*b->q)))
			return set_error(ENOMEM, "session: out of memory ordering records");
		memcpy(b->q + b->nr, s->q, n * sizeof(*s->q));
		b->nr += n;
	}
	ret = sess_queue_drop(s, n, &low);
	if (ret)
		return ret;
	b->release = low;
	return 0;
}

static void fail(struct sess_ra *ra, int err)
{
	pthread_mutex_lock(&ra->mu);
	ra->err = err;
	/* The error text is this thread's; kept for the caller's. */
	snprintf(ra->msg, sizeof(ra->msg), "%s", perfev_last_error());
	pthread_mutex_unlock(&ra->mu);
}

static void *reading(void *arg)
{
	struct sess_ra *ra = arg;
	struct perfev_session *s = ra->s;
	struct perfev_data_reader *r = s->reader;
	struct perfev_data_event ev;
	int ret = 0;

	for (;;) {
		enum ra_kind k = kind_of(pdr_peek_type(r));

		if (k == RA_STOP || (k == RA_WAIT && !quiesce(ra)))
			break;
		if (perfev_data_reader__next(r, &ev) <= 0)
			break; /* the caller's thread reads the error (it sticks) or the end */
		if (ev.rec.type == PERFEV_RECORD_FINISHED_ROUND) {
			ret = take(ra, sess_round_end(s));
			if (ret)
				break;
			if (ra->batches[ra->fill].nr >= RA_BATCH_MIN && !hand_over(ra))
				break;
			continue;
		}
		s->read_offset = ev.offset;
		if (ev.rec.type >= PERF_RECORD_MAX)
			continue;
		ret = sess_queue(s, &ev);
		if (ret)
			break;
		/* Copied out of a buffer the reader reuses: the caller's thread takes it from here. */
		if (!s->q[s->nr_q - 1].mapped)
			break;
	}
	if (ret)
		fail(ra, ret);
	hand_over(ra);
	pthread_mutex_lock(&ra->mu);
	ra->done = true;
	pthread_cond_signal(&ra->ready);
	pthread_mutex_unlock(&ra->mu);
	return NULL;
}

/* The next handed-over batch, or NULL when reading ended and all were delivered. */
static struct ra_batch *next_batch(struct sess_ra *ra)
{
	struct ra_batch *b = NULL;

	pthread_mutex_lock(&ra->mu);
	while (!ra->queued && !ra->done)
		pthread_cond_wait(&ra->ready, &ra->mu);
	if (ra->queued) {
		b = &ra->batches[ra->head];
		ra->delivering = true;
	}
	pthread_mutex_unlock(&ra->mu);
	return b;
}

static void batch_done(struct sess_ra *ra, struct ra_batch *b, bool stop)
{
	b->nr = 0;
	pthread_mutex_lock(&ra->mu);
	ra->head = (ra->head + 1) % RA_BATCHES;
	ra->queued--;
	ra->delivering = false;
	if (stop)
		ra->stop = true;
	pthread_cond_signal(&ra->room);
	pthread_mutex_unlock(&ra->mu);
}

bool sess_can_read_ahead(const struct perfev_session *s)
{
	return s->opts.read_ahead && s->ordered && s->reader && pdr_peek_type(s->reader) >= 0;
}

int sess_read_ahead(struct perfev_session *s, perfev_session_sample_fn fn, void *ctx)
{
	struct sess_ra ra = { .s = s };
	struct ra_batch *b;
	sigset_t all, old;
	int ret = 0, err;

	if (pthread_mutex_init(&ra.mu, NULL))
		return 0; /* read in the caller's thread alone */
	pthread_cond_init(&ra.ready, NULL);
	pthread_cond_init(&ra.room, NULL);
	/* Signals stay with the caller's threads: the reading thread starts with all blocked. */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	err = pthread_create(&ra.thread, NULL, reading, &ra);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (err) {
		pr_debug("session: no reading thread (%s); the file is read in the caller's thread",
			 strerror(err));
		goto out;
	}
	while ((b = next_batch(&ra))) {
		if (!ret) {
			ret = sess_deliver_queued(s, b->q, b->nr, fn, ctx);
			if (!ret)
				pdr_release_before(s->reader, b->release);
		}
		batch_done(&ra, b, ret != 0);
	}
	pthread_join(ra.thread, NULL);
	if (ret)
		sess_queue_clear(s); /* as the caller's thread alone stops */
	else if (ra.err)
		ret = set_error(-ra.err, "%s", ra.msg);
out:
	for (size_t i = 0; i < RA_BATCHES; i++)
		free(ra.batches[i].q);
	pthread_cond_destroy(&ra.ready);
	pthread_cond_destroy(&ra.room);
	pthread_mutex_destroy(&ra.mu);
	return ret;
}
