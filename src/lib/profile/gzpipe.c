// SPDX-License-Identifier: MIT
/*
 * gzip on its own thread: the writer fills one buffer while the thread
 * deflates the other and writes the result; they swap under a mutex when
 * the writer's is full.  One producer, one consumer, two buffers of 1 MiB:
 * the hand-over costs nothing next to deflating a megabyte.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "util/internal.h"
#include "profile/gzpipe.h"

#define GZ_BUF (1u << 20)

struct gzpipe {
	FILE *f;
	z_stream z;
	int err; /* the first failure, -errno; the error text is kept in msg */
	char msg[256];
	/* The writer's buffer, and the one handed to the thread (under mu). */
	unsigned char *fill, *full;
	size_t nfill, nfull;
	bool busy, finish, threaded;
	pthread_t th;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	unsigned char out[65536];
};

/* Deflates data (flush Z_NO_FLUSH or Z_FINISH) and writes what comes out. */
static void deflate_out(struct gzpipe *g, unsigned char *data, size_t len, int flush)
{
	g->z.next_in = data;
	g->z.avail_in = (uInt)len;
	do {
		size_t n;

		g->z.next_out = g->out;
		g->z.avail_out = sizeof(g->out);
		deflate(&g->z, flush);
		n = sizeof(g->out) - g->z.avail_out;
		if (n && fwrite(g->out, 1, n, g->f) != n && !g->err) {
			g->err = -(errno ? errno : EIO);
			snprintf(g->msg, sizeof(g->msg), "writing the output failed: %s", strerror(-g->err));
		}
	} while (g->z.avail_out == 0);
}

static void *worker(void *arg)
{
	struct gzpipe *g = arg;

	pthread_mutex_lock(&g->mu);
	for (;;) {
		while (!g->busy)
			pthread_cond_wait(&g->cv, &g->mu);
		bool finish = g->finish;

		pthread_mutex_unlock(&g->mu);
		deflate_out(g, g->full, g->nfull, finish ? Z_FINISH : Z_NO_FLUSH);
		pthread_mutex_lock(&g->mu);
		g->busy = false;
		pthread_cond_broadcast(&g->cv);
		if (finish)
			break;
	}
	pthread_mutex_unlock(&g->mu);
	return NULL;
}

struct gzpipe *gzpipe_new(FILE *f)
{
	struct gzpipe *g = calloc(1, sizeof(*g));
	sigset_t all, old;

	if (!g)
		return set_error_ptr(ENOMEM, "gzip: out of memory");
	g->f = f;
	g->fill = malloc(GZ_BUF);
	g->full = malloc(GZ_BUF);
	if (!g->fill || !g->full || deflateInit2(&g->z, 1, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
		free(g->fill);
		free(g->full);
		free(g);
		return set_error_ptr(ENOMEM, "gzip: out of memory");
	}
	pthread_mutex_init(&g->mu, NULL);
	pthread_cond_init(&g->cv, NULL);
	/* The caller's signals stay the caller's. */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	g->threaded = !pthread_create(&g->th, NULL, worker, g);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return g;
}

/* Hands the filled buffer over (waiting for the previous one to be done), or deflates it here. */
static void hand_over(struct gzpipe *g, bool finish)
{
	unsigned char *t;

	if (!g->threaded) {
		deflate_out(g, g->fill, g->nfill, finish ? Z_FINISH : Z_NO_FLUSH);
		g->nfill = 0;
		return;
	}
	pthread_mutex_lock(&g->mu);
	while (g->busy)
		pthread_cond_wait(&g->cv, &g->mu);
	t = g->full;
	g->full = g->fill;
	g->nfull = g->nfill;
	g->fill = t;
	g->nfill = 0;
	g->finish = finish;
	g->busy = true;
	pthread_cond_broadcast(&g->cv);
	pthread_mutex_unlock(&g->mu);
}

void gzpipe_write(struct gzpipe *g, const void *data, size_t len)
{
	const unsigned char *p = data;

	while (len) {
		size_t n = GZ_BUF - g->nfill < len ? GZ_BUF - g->nfill : len;

		memcpy(g->fill + g->nfill, p, n);
		g->nfill += n;
		p += n;
		len -= n;
		if (g->nfill == GZ_BUF)
			hand_over(g, false);
	}
}

int gzpipe_close(struct gzpipe *g)
{
	int err;

	hand_over(g, true);
	if (g->threaded)
		pthread_join(g->th, NULL);
	deflateEnd(&g->z);
	err = g->err;
	if (err)
		set_error(-err, "gzip: %s", g->msg);
	pthread_mutex_destroy(&g->mu);
	pthread_cond_destroy(&g->cv);
	free(g->fill);
	free(g->full);
	free(g);
	return err;
}
