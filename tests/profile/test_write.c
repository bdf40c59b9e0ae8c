// SPDX-License-Identifier: MIT
/*
 * The profile's writers on profiles made here (frames with symbols of
 * chosen names, kernel ones, no DSO): folded stacks line for line, pprof
 * read back with protobuf-c (the parts written one after another are one
 * message), the escaping of names in SVG, empty profiles in every format,
 * options refused with EINVAL, and a write that fails.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <zlib.h>

#include "perfev/perfev.h"
#include "perfev/profile_write.h"
#include "profile/html_assets.h"
#include "profile/pprof.pb-c.h"

static struct perfev_symbol syms[] = {
	{ .start = 0x1000, .size = 16, .name = "main", .raw_name = "main" },
	{ .start = 0x2000, .size = 16, .name = "work", .raw_name = "work" },
	{ .start = 0x3000, .size = 16, .name = "hot_a", .raw_name = "hot_a" },
	{ .start = 0x4000, .size = 16, .name = "ns::hot_b(int; char)", .raw_name = "_ZN2ns5hot_bEic" },
	{ .start = 0x5000, .size = 16, .name = "do_syscall_64", .raw_name = "do_syscall_64" },
	{ .start = 0x6000, .size = 16, .name = "<odd \"&' \x01name>", .raw_name = "odd" },
};
enum { MAIN, WORK, HOT_A, HOT_B, SYSCALL, ODD };

static struct perfev_frame fr(int s)
{
	return (struct perfev_frame){ .ip = syms[s].start, .addr = syms[s].start, .sym = &syms[s],
				      .kernel = s == SYSCALL };
}

/* Adds the stack of syms (outermost first), n times with weight w each. */
static void add(struct perfev_profile *p, const int *stack, size_t len, int n, uint64_t w)
{
	struct perfev_frame f[8];

	for (size_t i = 0; i < len; i++)
		f[len - 1 - i] = fr(stack[i]); /* the profile takes the innermost first */
	for (int k = 0; k < n; k++)
		assert_int_equal(perfev_profile__add(p, NULL, f, len, w), 0);
}

static struct perfev_profile *sample_profile(void)
{
	struct perfev_profile *p = perfev_profile__new(NULL);
	static const int a[] = { MAIN, WORK, HOT_A }, b[] = { MAIN, WORK, HOT_B }, k[] = { MAIN, SYSCALL },
			 o[] = { MAIN, ODD };

	assert_non_null(p);
	add(p, a, 3, 3, 10);
	add(p, b, 3, 1, 20);
	add(p, k, 2, 1, 5);
	add(p, o, 2, 2, 1);
	return p;
}

/* What fn wrote into memory, NUL-terminated; *len its length; *err its result. */
static char *written(int (*fn)(FILE *, const struct perfev_profile_write_opts *),
		     const struct perfev_profile_write_opts *o, size_t *len, int *err)
{
	char *text = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&text, &size);

	assert_non_null(f);
	*err = fn(f, o);
	fclose(f);
	if (len)
		*len = size;
	return text;
}

static void test_folded(void **state)
{
	struct perfev_profile *p = sample_profile();
	struct perfev_profile_series s = { .profile = p, .name = "cpu-clock" };
	struct perfev_profile_write_opts o = { .sz = sizeof(o), .series = &s, .nr_series = 1,
					       .prefix = PERFEV_WRITE_PREFIX_NONE };
	int err;
	char *t;

	(void)state;
	t = written(perfev_profile__write_folded, &o, NULL, &err);
	assert_int_equal(err, 0);
	/* Children in label order; the name tidied (";" would split it; arguments and quotes go). */
	assert_string_equal(t, "main;<odd & \\x01name> 2\n"
			       "main;do_syscall_64_[k] 1\n"
			       "main;work;hot_a 3\n"
			       "main;work;ns::hot_b 1\n");
	free(t);
	o.folded_weights = true;
	t = written(perfev_profile__write_folded, &o, NULL, &err);
	assert_non_null(strstr(t, "main;work;hot_a 30\n"));
	assert_non_null(strstr(t, "main;work;ns::hot_b 20\n"));
	free(t);
	perfev_profile__delete(p);
}

/* pprof: gunzipped and unpacked, the parts are one Profile with every value in place. */
static void test_pprof(void **state)
{
	struct perfev_profile *p = sample_profile();
	struct perfev_profile_series s = { .profile = p, .name = "cpu-clock", .type = "cpu",
					   .unit = "nanoseconds", .period = 250000 };
	struct perfev_profile_write_opts o = { .sz = sizeof(o), .series = &s, .nr_series = 1,
					       .start_time_ns = 1700000000000000000ull, .duration_ns = 42 };
	size_t len, cap = 1 << 20;
	unsigned char *raw = malloc(cap);
	z_stream z = { 0 };
	int err;
	char *gz = written(perfev_profile__write_pprof, &o, &len, &err);
	Perfev__Pprof__Profile *pr;
	int64_t samples = 0, weight = 0;

	(void)state;
	assert_int_equal(err, 0);
	assert_true(len > 2 && (unsigned char)gz[0] == 0x1f && (unsigned char)gz[1] == 0x8b);
	assert_int_equal(inflateInit2(&z, 15 + 16), Z_OK);
	z.next_in = (unsigned char *)gz;
	z.avail_in = (uInt)len;
	z.next_out = raw;
	z.avail_out = (uInt)cap;
	assert_int_equal(inflate(&z, Z_FINISH), Z_STREAM_END);
	pr = perfev__pprof__profile__unpack(NULL, z.total_out, raw);
	assert_non_null(pr);
	assert_true(pr->n_string_table > 0);
	assert_string_equal(pr->string_table[0], "");
	assert_int_equal(pr->n_sample_type, 2);
	assert_string_equal(pr->string_table[pr->sample_type[0]->type], "samples");
	assert_string_equal(pr->string_table[pr->sample_type[1]->type], "cpu");
	assert_string_equal(pr->string_table[pr->sample_type[1]->unit], "nanoseconds");
	assert_int_equal(pr->period, 250000);
	assert_int_equal(pr->time_nanos, 1700000000000000000ll);
	assert_int_equal(pr->duration_nanos, 42);
	for (size_t i = 0; i < pr->n_sample; i++) {
		assert_int_equal(pr->sample[i]->n_value, 2);
		samples += pr->sample[i]->value[0];
		weight += pr->sample[i]->value[1];
		assert_int_equal(pr->sample[i]->n_label, 3);
		/* Leaf first: the first location's function is where the sample was taken. */
		assert_true(pr->sample[i]->n_location_id >= 2);
	}
	assert_int_equal(samples, 7);
	assert_int_equal(weight, 3 * 10 + 20 + 5 + 2);
	assert_int_equal(pr->n_function, 6);
	assert_int_equal(pr->n_location, 6);
	for (size_t i = 0; i < pr->n_function; i++)
		if (!strcmp(pr->string_table[pr->function[i]->name], "ns::hot_b(int; char)"))
			assert_string_equal(pr->string_table[pr->function[i]->system_name], "_ZN2ns5hot_bEic");
	/* Control bytes are text in pprof's strings. */
	bool odd = false;

	for (size_t i = 0; i < pr->n_string_table; i++)
		odd |= !strcmp(pr->string_table[i], "<odd \"&' \\x01name>");
	assert_true(odd);
	perfev__pprof__profile__free_unpacked(pr, NULL);
	inflateEnd(&z);
	free(raw);
	free(gz);
	perfev_profile__delete(p);
}

static void test_svg_escapes(void **state)
{
	struct perfev_profile *p = sample_profile();
	struct perfev_profile_series s = { .profile = p, .name = "a<b" };
	struct perfev_profile_write_opts o = { .sz = sizeof(o), .series = &s, .nr_series = 1,
					       .title = "t&t" };
	int err;
	char *t = written(perfev_profile__write_svg, &o, NULL, &err);

	(void)state;
	assert_int_equal(err, 0);
	assert_non_null(strstr(t, "<title>&lt;odd &quot;&amp;&apos; \\x01name&gt; (2 samples,"));
	assert_non_null(strstr(t, "t&amp;t: a&lt;b</text>"));
	assert_non_null(strstr(t, "<title>all (7 samples, 100.00%)</title>"));
	/* In the embedded JSON the same name cannot end the CDATA or the script. */
	assert_non_null(strstr(t, "\\u003codd \\\"\\u0026' \\u0001name\\u003e"));
	assert_null(strstr(t, "\x01"));
	/* The data is inside its element, and the element is whole. */
	assert_true(strstr(t, "\"labels\":[") < strstr(t, "]]></script>"));
	assert_true(strstr(t, "<![CDATA[{") != NULL);
	free(t);
	perfev_profile__delete(p);
}

static void test_empty(void **state)
{
	int (*const fns[])(FILE *, const struct perfev_profile_write_opts *) = {
		perfev_profile__write_pprof, perfev_profile__write_speedscope, perfev_profile__write_folded,
		perfev_profile__write_json,  perfev_profile__write_svg,	      perfev_profile__write_html,
	};
	static const char *const must[] = { "\x1f\x8b", "\"profiles\":[]", "", "\"samples\":0",
					    "all (0 samples, 0.00%)", "\"samples\":0" };
	struct perfev_profile *p = perfev_profile__new(NULL);
	struct perfev_profile_series s = { .profile = p };
	struct perfev_profile_write_opts o = { .sz = sizeof(o), .series = &s, .nr_series = 1 };

	(void)state;
	for (size_t i = 0; i < sizeof(fns) / sizeof(fns[0]); i++) {
		int err;
		size_t len;
		char *t = written(fns[i], &o, &len, &err);

		assert_int_equal(err, 0);
		if (!memmem(t, len, must[i], strlen(must[i])))
			fail_msg("writer %zu: no '%s' in its empty output", i, must[i]);
		free(t);
	}
	perfev_profile__delete(p);
}

static void test_bad_options(void **state)
{
	struct perfev_profile *p = perfev_profile__new(NULL);
	struct perfev_profile_series s = { .profile = NULL };
	struct perfev_profile_write_opts o = { .sz = sizeof(o) };
	int err;

	(void)state;
	free(written(perfev_profile__write_json, NULL, NULL, &err));
	assert_int_equal(err, -EINVAL);
	free(written(perfev_profile__write_json, &o, NULL, &err));
	assert_int_equal(err, -EINVAL);
	assert_non_null(strstr(perfev_last_error(), "no profile to write"));
	o.series = &s;
	o.nr_series = 1;
	free(written(perfev_profile__write_pprof, &o, NULL, &err));
	assert_int_equal(err, -EINVAL);
	s.profile = p;
	o.prefix = (enum perfev_write_prefix)99;
	free(written(perfev_profile__write_folded, &o, NULL, &err));
	assert_int_equal(err, -EINVAL);
	perfev_profile__delete(p);
}

static void test_write_fails(void **state)
{
	int (*const fns[])(FILE *, const struct perfev_profile_write_opts *) = {
		perfev_profile__write_pprof, perfev_profile__write_speedscope, perfev_profile__write_folded,
		perfev_profile__write_json,  perfev_profile__write_svg,	      perfev_profile__write_html,
	};
	struct perfev_profile *p = sample_profile();
	struct perfev_profile_series s = { .profile = p };
	struct perfev_profile_write_opts o = { .sz = sizeof(o), .series = &s, .nr_series = 1 };

	(void)state;
	for (size_t i = 0; i < sizeof(fns) / sizeof(fns[0]); i++) {
		FILE *f = fopen("/dev/full", "w");

		if (!f) {
			skip();
			return;
		}
		assert_int_equal(fns[i](f, &o), -ENOSPC);
		assert_non_null(strstr(perfev_last_error(), "writing"));
		fclose(f);
	}
	perfev_profile__delete(p);
}

static void test_assets(void **state)
{
	(void)state;
	for (const char *const *n = (const char *const[]){ "flame_svg.js", "report.html", "report.css",
							  "report.js", NULL };
	     *n; n++) {
		const struct html_asset *a = html_asset(*n);

		assert_non_null(a);
		assert_true(a->len > 100);
		/* Inside <script> or CDATA, these would end it early. */
		assert_null(strstr(a->data, "</script"));
		assert_null(strstr(a->data, "]]>"));
	}
	assert_null(html_asset("nosuch.js"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_folded),	    cmocka_unit_test(test_pprof),
		cmocka_unit_test(test_svg_escapes), cmocka_unit_test(test_empty),
		cmocka_unit_test(test_bad_options), cmocka_unit_test(test_write_fails),
		cmocka_unit_test(test_assets),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
