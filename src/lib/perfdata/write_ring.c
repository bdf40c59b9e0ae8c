/* SPDX-License-Identifier: MIT */
/*
 * A ring's records straight into perf.data: the ring's unread bytes go out
 * as they lie, wrapped or not, in one writev(2); only the records the
 * caller asked to see are joined when they wrap.  Their accounting reaches
 * the ring's stats only once the bytes are written.
 */
#include "perfdata/writer_int.h"
#include "sample/ring_int.h"
#include "util/opts.h"

int64_t perfev_data_writer__write_ring(struct perfev_data_writer *w, struct perfev_ring *ring,
				       const struct perfev_write_ring_opts *opts)
{
	static const char fn[] = "perfev_data_writer__write_ring";
	struct perfev_write_ring_opts o;
	struct ring_batch b;
	struct iovec iov[2];
	int ret;

	if ((ret = OPTS_COPY(&o, opts, perfev_write_ring_opts, types)) < 0)
		return ret;
	if ((ret = pd_during(w, fn)) < 0)
		return ret;
	if ((ret = ring__batch(ring, fn, o.types, o.fn, o.ctx, &b)) != 0)
		return ret;
	if (!b.len)
		return 0;
	for (int i = 0; i < 2; i++)
		iov[i] = (struct iovec){ (void *)b.span[i].base, b.span[i].len };
	/* With an off-CPU threshold, the round's records are looked at together first. */
	ret = w->oc ? pd_offcpu_hold(w, iov, 2) : pd_append(w, iov, 2);
	if (ret < 0)
		return ret;
	ring__batch_done(ring, &b);
	return (int64_t)b.len;
}
