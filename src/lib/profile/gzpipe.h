/* SPDX-License-Identifier: MIT */
/*
 * gzip output compressed on a thread of its own, so that producing the
 * bytes (packing pprof's messages) and deflating them share the machine's
 * CPUs; in place when no thread can be started.
 */
#ifndef PERFEV_PROFILE_GZPIPE_H
#define PERFEV_PROFILE_GZPIPE_H

#include <stddef.h>
#include <stdio.h>

struct gzpipe;

/* A gzip stream to f (not owned), deflate level 1; NULL (error set) when out of memory. */
struct gzpipe *gzpipe_new(FILE *f);
void gzpipe_write(struct gzpipe *g, const void *data, size_t len);
/* Ends the stream and frees g: 0, or -errno (error set) when compressing or writing failed. */
int gzpipe_close(struct gzpipe *g);

#endif
