/* SPDX-License-Identifier: MIT */
/*
 * A recording read into the profiles perfev export and perfev flamegraph
 * write: one per event, its weights named as the event's unit (a CPU clock
 * counts nanoseconds), through the same filters as perfev report.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "export.h"

struct read_state {
	const struct export_input *in;
	struct export_data *d;
};

static bool is_cpu_clock(const struct perf_event_attr *a);

static struct perfev_profile *new_profile(const struct export_input *in)
{
	struct perfev_profile_opts po = { .sz = sizeof(po), .inlines = in->inlines,
					  .background = true, .times = in->times };

	return perfev_profile__new(&po);
}

/* The first CPU clock event: its samples are the on-CPU time of the wall-clock series. */
static int find_clock(struct perfev_session *s)
{
	struct perfev_data_reader *r = perfev_session__reader(s);

	for (size_t i = 0; i < perfev_data_reader__nr_evsels(r); i++)
		if (is_cpu_clock(perfev_data_reader__attr(r, i)))
			return (int)i;
	return -1;
}

static int on_sample(void *ctx, const struct perfev_session_sample *ss)
{
	struct read_state *st = ctx;
	struct export_data *d = st->d;
	size_t nr = ss->nr_frames;
	uint64_t t = ss->ev->rec.sample.time;

	if (ss->evsel < 0)
		return 0;
	if ((size_t)ss->evsel >= d->nr_profiles) {
		size_t n = (size_t)ss->evsel + 1;
		struct perfev_profile **p = realloc(d->profiles, n * sizeof(*p));
		bool *w = realloc(d->waits, n * sizeof(*w));

		if (p)
			d->profiles = p;
		if (w)
			d->waits = w;
		if (!p || !w)
			return -ENOMEM;
		memset(p + d->nr_profiles, 0, (n - d->nr_profiles) * sizeof(*p));
		memset(w + d->nr_profiles, 0, (n - d->nr_profiles) * sizeof(*w));
		d->nr_profiles = n;
	}
	if (!d->profiles[ss->evsel] && !(d->profiles[ss->evsel] = new_profile(st->in)))
		return -ENOMEM;
	/* A wait has no instruction of its own to annotate. */
	if (d->hist && !ss->off_cpu_state && perfev_annotate_hist__add(d->hist, ss))
		return -ENOMEM;
	if (st->in->max_stack && nr > st->in->max_stack)
		nr = st->in->max_stack;
	if (d->off_cpu) {
		if (d->clock == -2)
			d->clock = find_clock(d->s);
		d->waits[ss->evsel] |= ss->off_cpu_state != 0;
		d->clock_seen |= ss->evsel == d->clock;
		if (ss->off_cpu_state || ss->evsel == d->clock) {
			if (!d->wall && !(d->wall = new_profile(st->in)))
				return -ENOMEM;
			if (perfev_profile__add_at(d->wall, ss->thread, ss->frames, nr, ss->period, t))
				return -ENOMEM;
		}
	}
	return perfev_profile__add_at(d->profiles[ss->evsel], ss->thread, ss->frames, nr, ss->period, t)
		       ? -ENOMEM
		       : 0;
}

static bool is_cpu_clock(const struct perf_event_attr *a)
{
	return a->type == PERF_TYPE_SOFTWARE &&
	       (a->config == PERF_COUNT_SW_CPU_CLOCK || a->config == PERF_COUNT_SW_TASK_CLOCK);
}

/* Each event's profile as a series: its name, and its weights' unit. */
static bool make_series(struct export_data *d)
{
	struct perfev_data_reader *r = perfev_session__reader(d->s);
	bool cpu_named = false;

	d->series = calloc(d->nr_profiles + 1, sizeof(*d->series));
	d->series_evsel = calloc(d->nr_profiles + 1, sizeof(*d->series_evsel));
	if (!d->series || !d->series_evsel)
		return false;
	/* Wall-clock time first: what the one-series formats and the flame graphs show. */
	if (d->wall && d->clock_seen && d->waits) {
		bool any = false;

		for (size_t i = 0; i < d->nr_profiles; i++)
			any |= d->waits[i];
		if (any) {
			d->series_evsel[d->nr_series] = SIZE_MAX;
			d->series[d->nr_series++] = (struct perfev_profile_series){
				.profile = d->wall, .name = "wall-clock", .type = "wall",
				.unit = "nanoseconds" };
		}
	}
	for (size_t i = 0; i < d->nr_profiles; i++) {
		const struct perf_event_attr *a = perfev_data_reader__attr(r, i);
		struct perfev_profile_series *s;

		if (!d->profiles[i])
			continue;
		d->series_evsel[d->nr_series] = i;
		s = &d->series[d->nr_series++];
		s->profile = d->profiles[i];
		s->name = perfev_data_reader__evsel_name(r, i);
		if (d->waits && d->waits[i]) {
			/* Each wait weighs its length: no period. */
			s->name = "off-cpu";
			s->type = "off-cpu";
			s->unit = "nanoseconds";
			continue;
		}
		if (a && !a->freq)
			s->period = a->sample_period;
		if (a && is_cpu_clock(a)) {
			/* At a frequency, a clock's period is a share of a second. */
			if (a->freq && a->sample_freq)
				s->period = 1000000000ull / a->sample_freq;
			/* pprof's name for CPU time; a second clock event keeps its own name. */
			s->type = cpu_named ? s->name : "cpu";
			s->unit = "nanoseconds";
			cpu_named = true;
		}
	}
	return true;
}

/*
 * pprof's time_nanos is wall-clock time; the samples' clock is the
 * machine's monotonic one.  A file is finished when its recording ends, so
 * its modification time less the span of its samples is when they began.
 */
static void start_time(struct export_data *d, const char *input)
{
	const struct perfev_session_stats *ss = perfev_session__stats(d->s);
	struct stat st;
	uint64_t span = ss->last_time > ss->first_time ? ss->last_time - ss->first_time : 0;
	uint64_t end;

	if (!strcmp(input, "-") || stat(input, &st))
		return;
	end = (uint64_t)st.st_mtim.tv_sec * 1000000000ull + (uint64_t)st.st_mtim.tv_nsec;
	d->start_time_ns = end > span ? end - span : 0;
}

/* The empty profile a file without samples gives: every format has a valid empty form. */
static bool empty_profile(struct export_data *d, const struct export_input *in)
{
	const struct perfev_session_stats *ss = perfev_session__stats(d->s);

	d->profiles = calloc(1, sizeof(*d->profiles));
	if (!d->profiles || !(d->profiles[0] = perfev_profile__new(NULL)))
		return false;
	d->nr_profiles = 1;
	if (!in->quiet)
		cli_note("%s: writing an empty profile", ss->nr_samples
				 ? "no sample passes the filters (--comm, --pid, --tid, --dso, --event, "
				   "--time)"
				 : "the recording holds no samples");
	return true;
}

bool export_read(const struct export_input *in, struct export_data *d)
{
	struct read_state st = { in, d };
	bool quiet = in->quiet;
	uint64_t t0 = cli_now_ns();
	int err;

	memset(d, 0, sizeof(*d));
	if (!cli_filter_new(&in->filter, &d->filter))
		return false;
	if (in->annotate && !(d->hist = perfev_annotate_hist__new())) {
		cli_error("%s", perfev_last_error());
		return false;
	}
	d->clock = -2; /* looked for at the first sample */
	d->s = cli_session_open_off_cpu(in->input, in->no_demangle, &quiet, d->filter, &in->off_cpu, false,
					&d->off_cpu, &d->sy);
	if (!d->s)
		return false;
	err = perfev_session__process(d->s, on_sample, &st);
	for (size_t i = 0; i < d->nr_profiles && err >= 0; i++)
		if (d->profiles[i])
			err = perfev_profile__sync(d->profiles[i]);
	if (err >= 0 && d->wall)
		err = perfev_profile__sync(d->wall);
	if (err == -ENOMEM) {
		cli_error("out of memory reading '%s'", in->input);
		return false;
	}
	if (err < 0)
		cli_error("'%s' is damaged: %s; the output covers the records before that point",
			  in->input, perfev_last_error());
	if (!d->nr_profiles && !empty_profile(d, in)) {
		cli_error("out of memory");
		return false;
	}
	if (!make_series(d)) {
		cli_error("out of memory");
		return false;
	}
	if (!d->nr_series) { /* events with no profile only: the empty one is series 0 */
		d->series[0].profile = d->profiles[0];
		d->nr_series = 1;
	}
	start_time(d, in->input);
	snprintf(d->title, sizeof(d->title), "%s", strcmp(in->input, "-") ? in->input : "standard input");
	if (in->verbose)
		cli_note("%" PRIu64 " samples read into %zu profiles in %.3f s",
			 perfev_session__stats(d->s)->nr_samples, d->nr_series, (cli_now_ns() - t0) / 1e9);
	return true;
}

void export_data_free(struct export_data *d)
{
	for (size_t i = 0; i < d->nr_profiles; i++)
		perfev_profile__delete(d->profiles[i]);
	free(d->profiles);
	free(d->waits);
	perfev_profile__delete(d->wall);
	free(d->series);
	free(d->series_evsel);
	perfev_annotate_hist__delete(d->hist);
	perfev_session__delete(d->s);
	perfev_symbolizer__delete(d->sy);
	perfev_sample_filter__delete(d->filter);
}

void export_first_series(struct export_data *d, const char *format, bool quiet)
{
	if (d->nr_series > 1 && !quiet)
		cli_note("%s holds one event: writing '%s' (%zu others; --event picks one)", format,
			 d->series[0].name, d->nr_series - 1);
	d->nr_series = 1;
}

/*
 * The output file's buffer (one file is open at a time): glibc ignores
 * setvbuf's size when it allocates the buffer itself, and its own 4 KiB
 * made a write(2) per 4 KiB of a report of many megabytes.
 */
static char out_buf[256 * 1024];
static FILE *out_buf_owner;

FILE *export_open_output(const char *path, bool binary)
{
	FILE *f;

	if (!path || !strcmp(path, "-")) {
		if (binary && isatty(STDOUT_FILENO)) {
			cli_error("the output is binary and standard output is a terminal; give a file "
				  "with -o FILE or redirect it");
			return NULL;
		}
		return stdout;
	}
	f = fopen(path, "w");
	if (!f)
		cli_error("cannot write '%s': %s", path, strerror(errno));
	else if (!out_buf_owner && !setvbuf(f, out_buf, _IOFBF, sizeof(out_buf)))
		out_buf_owner = f;
	return f;
}

bool export_close_output(FILE *f, const char *path, bool ok)
{
	bool to_file = f != stdout;
	struct stat st;

	if (fflush(f) && ok) {
		cli_error("cannot write '%s': %s", to_file ? path : "standard output", strerror(errno));
		ok = false;
	}
	if (to_file) {
		if (f == out_buf_owner)
			out_buf_owner = NULL; /* free again once f is closed, below */
		if (fclose(f) && ok) {
			cli_error("cannot write '%s': %s", path, strerror(errno));
			ok = false;
		}
		/* A half-written file is worse than none: it would be taken for a whole one. */
		if (!ok && !stat(path, &st) && S_ISREG(st.st_mode))
			unlink(path);
	}
	return ok;
}
