/*
 * A live session over untrusted ring records (perfev_session__feed(), as
 * perfev top feeds it): the input is cut into records by their headers'
 * sizes and fed one by one; a record whose misc has bit 14 set ends a round
 * first (perfev_session__flush()).  Samples go into a profile, which is then
 * aged, zoomed into its threads and frames and grouped into entries, as
 * perfev top's browser reads it.  The event list is set up but never opened:
 * records carry id 0 (the first event) or an id no event has.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perfev/perfev.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static volatile uint64_t sink;
static struct perfev_evlist *el;
static struct perfev_symbolizer *sy;

static int on_sample(void *ctx, const struct perfev_session_sample *s)
{
	sink += strlen(perfev_thread__comm(s->thread)) + s->period;
	return perfev_profile__add(ctx, s->thread, s->frames, s->nr_frames, s->period) ? 1 : 0;
}

static void setup(void)
{
	/* Only regular files named by the records are read; the kernel's symbols are not. */
	struct perfev_symbolizer_opts so = { .sz = sizeof(so), .kallsyms = "/dev/null" };
	struct perf_event_attr *a;

	el = perfev_evlist__new();
	if (!el || perfev_evlist__add_events(el, "cpu-clock") < 0)
		abort();
	a = perfev_evsel__attr(perfev_evlist__next_evsel(el, NULL));
	a->sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
			 PERF_SAMPLE_PERIOD | PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_CPU;
	a->sample_id_all = 1;
	sy = perfev_symbolizer__new(&so);
	if (!sy)
		abort();
}

static void browse(const struct perfev_profile *p)
{
	struct perfev_profile_table *t = perfev_profile_table__new(p, NULL);

	if (t) {
		sink += perfev_profile_table__nr_entries(t);
		perfev_profile_table__delete(t);
	}
	for (size_t f = 0; f < perfev_profile__nr_frames(p) && f < 4; f++) {
		struct perfev_profile_zoom_opts zo = { .sz = sizeof(zo), .by_frame = true, .frame = (uint32_t)f,
						       .by_thread = perfev_profile__nr_threads(p) > 0 };
		struct perfev_profile *z = perfev_profile__zoom(p, &zo);

		if (z)
			sink += perfev_profile__node(z, 0)->total;
		perfev_profile__delete(z);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct perfev_session_opts o = { .sz = sizeof(o), .no_unwind = true };
	struct perfev_session *s;
	struct perfev_profile *p;
	size_t at = 0;

	if (!el)
		setup();
	o.symbolizer = sy;
	s = perfev_session__new_live(el, &o);
	p = perfev_profile__new(NULL);
	if (!s || !p)
		abort();
	while (size - at >= sizeof(struct perf_event_header)) {
		struct perf_event_header h;
		size_t n;

		memcpy(&h, data + at, sizeof(h));
		n = h.size >= sizeof(h) && h.size <= size - at ? h.size : size - at;
		if (h.misc & (1u << 14))
			perfev_session__flush(s, false, on_sample, p);
		sink += (uint64_t)perfev_session__feed(s, data + at, n);
		at += n;
	}
	perfev_session__flush(s, true, on_sample, p);
	perfev_profile__decay(p, 7, 8);
	browse(p);
	perfev_profile__delete(p);
	perfev_session__delete(s);
	return 0;
}
