/*
 * perf.data from memory is untrusted bytes: the header, attrs, feature
 * sections and every record.  The reader is opened over the input, every
 * accessor is called, every record is read to the end or the first error,
 * and every pointer a record or accessor gives is read through, so that
 * ASan sees any bound the reader or the decoder got wrong.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "perfev/perfev.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static volatile uint64_t sink;

static void touch(const void *p, size_t n)
{
	const uint8_t *b = p;
	uint64_t x = 0;

	for (size_t i = 0; i < n; i++)
		x += b[i];
	sink += x;
}

static void touch_str(const char *s)
{
	if (s)
		touch(s, strlen(s));
}

static void quiet(void *ctx, const char *msg)
{
	(void)ctx;
	touch_str(msg);
}

static void accessors(const struct perfev_data_reader *r)
{
	const char *const *argv;
	const void *p;
	size_t n, nr;
	int argc;
	uint32_t a, b;
	uint64_t x, y;

	for (size_t i = 0; i < perfev_data_reader__nr_evsels(r); i++) {
		const uint64_t *ids = perfev_data_reader__evsel_ids(r, i, &nr);

		touch(perfev_data_reader__attr(r, i), sizeof(struct perf_event_attr));
		touch(perfev_data_reader__sample_fmt(r, i), sizeof(struct perfev_sample_fmt));
		touch_str(perfev_data_reader__evsel_name(r, i));
		touch(ids, nr * 8);
		if (nr && perfev_data_reader__evsel_of_id(r, ids[0]) < 0)
			__builtin_trap();
	}
	for (int f = 0; f < PERFEV_FEAT_LAST + 2; f++) {
		if (perfev_data_reader__feature(r, f, &p, &n) == 0)
			touch(p, n);
		touch_str(perfev_data_reader__feat_string(r, f));
	}
	if (perfev_data_reader__cmdline(r, &argc, &argv) == 0)
		for (int i = 0; i < argc; i++)
			touch_str(argv[i]);
	perfev_data_reader__nrcpus(r, &a, &b);
	sink += perfev_data_reader__total_mem(r);
	perfev_data_reader__sample_time(r, &x, &y);
	for (size_t i = 0; i < perfev_data_reader__nr_build_ids(r); i++) {
		const struct perfev_data_build_id *bid = perfev_data_reader__build_id(r, i);

		touch(bid->id, bid->size);
		touch_str(bid->filename);
	}
	for (size_t i = 0; i < perfev_data_reader__nr_groups(r); i++) {
		const char *name;

		perfev_data_reader__group(r, i, &name, &a, &b);
		touch_str(name);
	}
}

static void touch_record(const struct perfev_record *rec)
{
	const struct perfev_sample *s = &rec->sample;

	touch(rec->data, rec->size);
	switch (rec->type) {
	case PERF_RECORD_SAMPLE:
		touch(s->read.data, s->read.size);
		touch(s->callchain.ips, s->callchain.nr * 8);
		touch(s->raw.data, s->raw.size);
		touch(s->branch.entries, s->branch.nr * sizeof(struct perf_branch_entry));
		touch(s->regs_user.regs, s->regs_user.nr * 8);
		touch(s->regs_intr.regs, s->regs_intr.nr * 8);
		touch(s->stack_user.data, s->stack_user.size);
		touch(s->aux.data, s->aux.size);
		break;
	case PERF_RECORD_MMAP:
		touch_str(rec->mmap.filename);
		break;
	case PERF_RECORD_MMAP2:
		touch_str(rec->mmap2.filename);
		break;
	case PERF_RECORD_COMM:
		touch_str(rec->comm.comm);
		break;
	default:
		if (rec->type >= 64)
			touch(rec->unknown.body, rec->unknown.size);
		break;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct perfev_data_reader_opts o = { .sz = sizeof(o), .warn = quiet };
	struct perfev_data_reader *r = perfev_data_reader__new_mem(data, size, &o);
	struct perfev_data_event ev;
	uint64_t done, total;
	int ret;

	if (!r)
		return 0;
	accessors(r);
	while ((ret = perfev_data_reader__next(r, &ev)) > 0) {
		if (ev.rec.size < 8 || ev.evsel >= (int)perfev_data_reader__nr_evsels(r))
			__builtin_trap();
		touch_record(&ev.rec);
	}
	accessors(r); /* a pipe's features and attrs came while reading */
	perfev_data_reader__progress(r, &done, &total);
	if (total && done > total)
		__builtin_trap();
	perfev_data_reader__delete(r);
	return 0;
}
