// SPDX-License-Identifier: MIT
/*
 * The sample filter's time ranges, in perf's --time forms: "START,STOP" in
 * seconds (several separated by spaces), or parts of the recording in
 * percent ("10%/2", "0%-10%,30%-40%", "50%") resolved once the recording's
 * first and last sample times are known.  Percent ranges resolve as perf's
 * do (the end of a range that is not the recording's end is one nanosecond
 * short, so that slices do not share a sample), so the same text picks the
 * same samples in both tools.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/internal.h"
#include "session/filter_int.h"

#define NSEC_PER_SEC 1000000000ull

static int bad_time(const char *text, const char *why)
{
	return set_error(EINVAL, "time range '%s': %s; ranges are START,STOP in seconds (either may be "
			 "empty), several separated by spaces, or percents of the recording: 10%%/2, "
			 "0%%-10%%,30%%-40%%, 50%%", text, why);
}

/* "SEC[.FRACTION]" (at most 9 digits of fraction) in [s, e) into ns; false when malformed. */
static bool parse_seconds(const char *s, const char *e, uint64_t *ns)
{
	uint64_t sec = 0, frac = 0;
	int digits = 0;
	const char *p = s;

	if (p == e)
		return false;
	for (; p < e && isdigit((unsigned char)*p); p++)
		if (__builtin_mul_overflow(sec, 10, &sec) || __builtin_add_overflow(sec, *p - '0', &sec))
			return false;
	if (p == s)
		return false;
	if (p < e && *p == '.') {
		for (p++; p < e && isdigit((unsigned char)*p); p++) {
			if (++digits > 9)
				return false;
			frac = frac * 10 + (uint64_t)(*p - '0');
		}
	}
	if (p != e)
		return false;
	for (; digits < 9; digits++)
		frac *= 10;
	return !__builtin_mul_overflow(sec, NSEC_PER_SEC, ns) && !__builtin_add_overflow(*ns, frac, ns);
}

static int add_range(struct perfev_sample_filter *f, struct filter_range r)
{
	struct filter_range *n = realloc(f->ranges, (f->nr_ranges + 1) * sizeof(*n));

	if (!n)
		return set_error(ENOMEM, "sample filter: out of memory");
	f->ranges = n;
	f->ranges[f->nr_ranges++] = r;
	return 0;
}

/* One "START,STOP" in [s, e). */
static int parse_abs_range(struct perfev_sample_filter *f, const char *text, const char *s,
			   const char *e)
{
	const char *comma = memchr(s, ',', (size_t)(e - s));
	struct filter_range r = { 0 };

	if (!comma || memchr(comma + 1, ',', (size_t)(e - comma - 1)))
		return bad_time(text, "each range is START,STOP with one comma");
	if ((comma > s && !parse_seconds(s, comma, &r.start)) ||
	    (e > comma + 1 && !parse_seconds(comma + 1, e, &r.end)))
		return bad_time(text, "a time is seconds with at most 9 decimals, like 1234.5");
	if (r.end && r.end < r.start)
		return bad_time(text, "a range ends before it starts");
	if (f->nr_ranges) {
		const struct filter_range *prev = &f->ranges[f->nr_ranges - 1];

		if (!prev->end || prev->end >= r.start)
			return bad_time(text, "ranges must be in order and must not overlap");
	}
	return add_range(f, r);
}

static int parse_abs(struct perfev_sample_filter *f, const char *text)
{
	const char *p = text;

	while (*p) {
		const char *e;
		int err;

		while (isspace((unsigned char)*p))
			p++;
		if (!*p)
			break;
		for (e = p; *e && !isspace((unsigned char)*e); e++)
			;
		err = parse_abs_range(f, text, p, e);
		if (err)
			return err;
		p = e;
	}
	return f->nr_ranges ? 0 : bad_time(text, "no range given");
}

/* "P%" in [s, e) into a fraction of 1; false when malformed. */
static bool parse_pct(const char *s, const char *e, double *v)
{
	char buf[64], *end;

	if (e - s < 2 || e[-1] != '%' || (size_t)(e - s) >= sizeof(buf))
		return false;
	memcpy(buf, s, (size_t)(e - s - 1));
	buf[e - s - 1] = '\0';
	*v = strtod(buf, &end);
	if (end == buf || *end || !isfinite(*v))
		return false;
	*v /= 100.0;
	return true;
}

/* One percent piece in [s, e): "P%/N" (slash), "A%-B%" (dash) or, alone, "P%". */
static int parse_pct_piece(struct perfev_sample_filter *f, const char *text, const char *s,
			   const char *e, char form)
{
	struct filter_range r = { 0 };
	const char *sep = form ? memchr(s, form, (size_t)(e - s)) : NULL;

	if (form == '/' || !form) {
		double pct;
		long n = 1;

		if (sep) {
			char buf[32], *end;

			if (e - sep - 1 <= 0 || (size_t)(e - sep - 1) >= sizeof(buf))
				return bad_time(text, "10%/2 is a share, a slash and which slice (from 1)");
			memcpy(buf, sep + 1, (size_t)(e - sep - 1));
			buf[e - sep - 1] = '\0';
			n = strtol(buf, &end, 10);
			if (*end || n < 1)
				return bad_time(text, "10%/2 is a share, a slash and which slice (from 1)");
		} else if (form) {
			return bad_time(text, "every piece must be P%/N when one is");
		}
		if (!parse_pct(s, sep ? sep : e, &pct) || pct <= 0)
			return bad_time(text, "a share is a positive percent like 10%");
		r.start_pct = pct * (double)(n - 1);
		r.end_pct = pct * (double)n;
	} else {
		if (!sep || !parse_pct(s, sep, &r.start_pct) || !parse_pct(sep + 1, e, &r.end_pct))
			return bad_time(text, "every piece must be A%-B% when one is");
	}
	if (r.start_pct < 0 || r.end_pct > 1 || r.start_pct > r.end_pct)
		return bad_time(text, "percents go from 0% to 100%, the start first");
	return add_range(f, r);
}

static int parse_percent(struct perfev_sample_filter *f, const char *text)
{
	/* As perf decides: any slash makes every piece a slice, else any dash a span. */
	char form = strchr(text, '/') ? '/' : strchr(text, '-') ? '-' : 0;

	f->percent = true;
	for (const char *p = text;;) {
		const char *e = strchr(p, ',');
		int err;

		if (!e)
			e = p + strlen(p);
		if (!form && *e)
			return bad_time(text, "several percent ranges are P%/N,... or A%-B%,...");
		err = parse_pct_piece(f, text, p, e, form);
		if (err)
			return err;
		if (!*e)
			return 0;
		p = e + 1;
	}
}

int filter_parse_time(struct perfev_sample_filter *f, const char *text)
{
	return strchr(text, '%') ? parse_percent(f, text) : parse_abs(f, text);
}

bool perfev_sample_filter__needs_span(const struct perfev_sample_filter *f)
{
	return f && f->percent && !f->resolved;
}

int perfev_sample_filter__set_span(struct perfev_sample_filter *f, uint64_t first, uint64_t last)
{
	double total = (double)(last - first);

	if (last < first)
		return set_error(EINVAL, "sample filter: the recording's span ends before it starts");
	if (!f->percent)
		return 0;
	for (size_t i = 0; i < f->nr_ranges; i++) {
		struct filter_range *r = &f->ranges[i];

		r->start = first + (uint64_t)llround(r->start_pct * total);
		r->end = first + (uint64_t)llround(r->end_pct * total);
		if (r->end > r->start && r->end != last)
			r->end--;
	}
	f->resolved = true;
	return 0;
}

int perfev_sample_filter__range(const struct perfev_sample_filter *f, size_t i, uint64_t *start,
				uint64_t *end)
{
	if (i >= f->nr_ranges)
		return -ENOENT;
	if (f->percent && !f->resolved)
		return -EAGAIN;
	if (start)
		*start = f->ranges[i].start;
	if (end)
		*end = f->ranges[i].end;
	return 0;
}

bool perfev_sample_filter__time_ok(const struct perfev_sample_filter *f, uint64_t t)
{
	if (!f || !f->nr_ranges || !t)
		return true;
	for (size_t i = 0; i < f->nr_ranges; i++) {
		const struct filter_range *r = &f->ranges[i];

		if ((!r->start || t >= r->start) && (!r->end || t <= r->end))
			return true;
	}
	return false;
}
