/*
 * Tracepoint formats: format files into fields, records printed as perf
 * script prints them (libtraceevent's reading of the print fmt, quirks
 * included), perf's tracing data in either byte order, and malformed
 * formats and tracing data refused with a clear error, never a crash.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "perfev/perfev.h"

/* sched_switch as Linux 6.x's tracefs shows it. */
static const char sched_switch_fmt[] =
	"name: sched_switch\n"
	"ID: 372\n"
	"format:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
	"\n"
	"\tfield:char prev_comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
	"\tfield:pid_t prev_pid;\toffset:24;\tsize:4;\tsigned:1;\n"
	"\tfield:int prev_prio;\toffset:28;\tsize:4;\tsigned:1;\n"
	"\tfield:long prev_state;\toffset:32;\tsize:8;\tsigned:1;\n"
	"\tfield:char next_comm[16];\toffset:40;\tsize:16;\tsigned:0;\n"
	"\tfield:pid_t next_pid;\toffset:56;\tsize:4;\tsigned:1;\n"
	"\tfield:int next_prio;\toffset:60;\tsize:4;\tsigned:1;\n"
	"\n"
	"print fmt: \"prev_comm=%s prev_pid=%d prev_prio=%d prev_state=%s%s ==> next_comm=%s "
	"next_pid=%d next_prio=%d\", REC->prev_comm, REC->prev_pid, REC->prev_prio, "
	"(REC->prev_state & ((((0x00000000 | 0x00000001 | 0x00000002 | 0x00000004 | 0x00000008 | "
	"0x00000010 | 0x00000020 | 0x00000040) + 1) << 1) - 1)) ? __print_flags(REC->prev_state & "
	"((((0x00000000 | 0x00000001 | 0x00000002 | 0x00000004 | 0x00000008 | 0x00000010 | "
	"0x00000020 | 0x00000040) + 1) << 1) - 1), \"|\", { 0x00000001, \"S\" }, { 0x00000002, "
	"\"D\" }, { 0x00000004, \"T\" }, { 0x00000008, \"t\" }, { 0x00000010, \"X\" }, { "
	"0x00000020, \"Z\" }, { 0x00000040, \"P\" }, { 0x00000080, \"I\" }) : \"R\", "
	"REC->prev_state & (((0x00000000 | 0x00000001 | 0x00000002 | 0x00000004 | 0x00000008 | "
	"0x00000010 | 0x00000020 | 0x00000040) + 1) << 1) ? \"+\" : \"\", REC->next_comm, "
	"REC->next_pid, REC->next_prio\n";

/* A format of one system with the fields given and print fmt pf; the rest of the header fixed. */
static char *make_fmt(const char *name, int id, const char *fields, const char *pf)
{
	static char buf[8192];

	snprintf(buf, sizeof(buf),
		 "name: %s\nID: %d\nformat:\n"
		 "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
		 "\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
		 "\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
		 "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n%s\nprint fmt: %s\n",
		 name, id, fields, pf);
	return buf;
}

static const struct perfev_tp_format *add(struct perfev_tracefmt *t, const char *text)
{
	int ret = perfev_tracefmt__add_format(t, "test", text, strlen(text));

	if (ret)
		fail_msg("add_format: %d %s", ret, perfev_last_error());
	return perfev_tracefmt__format(t, perfev_tracefmt__nr_formats(t) - 1);
}

static void put(unsigned char *raw, size_t off, uint64_t v, size_t n)
{
	memcpy(raw + off, &v, n); /* little-endian hosts only: the tests build native records */
}

static const char *print(const struct perfev_tp_format *f, const void *raw, size_t size,
			 const struct perfev_tp_print_opts *o)
{
	static char buf[4096];
	int n = perfev_tp_format__print(f, raw, size, o, buf, sizeof(buf));

	assert_true(n >= 0);
	assert_int_equal((size_t)n, strlen(buf));
	return buf;
}

static size_t switch_record(unsigned char *raw, const char *prev, long state)
{
	memset(raw, 0, 64);
	put(raw, 0, 372, 2);
	strcpy((char *)raw + 8, prev);
	put(raw, 24, 123, 4);
	put(raw, 28, 120, 4);
	put(raw, 32, (uint64_t)state, 8);
	strcpy((char *)raw + 40, "swapper/1");
	put(raw, 56, 0, 4);
	put(raw, 60, 120, 4);
	return 64;
}

static void test_fields(void **state)
{
	struct perfev_tracefmt *t = perfev_tracefmt__new();
	const struct perfev_tp_format *f;
	const struct perfev_tp_field *fl;
	unsigned char raw[64];
	uint64_t v;
	char s[32];

	(void)state;
	f = add(t, sched_switch_fmt);
	assert_string_equal(perfev_tp_format__name(f), "sched_switch");
	assert_string_equal(perfev_tp_format__system(f), "test");
	assert_int_equal(perfev_tp_format__id(f), 372);
	assert_null(perfev_tp_format__print_error(f));
	assert_int_equal(perfev_tp_format__nr_fields(f), 11);
	assert_true(perfev_tp_format__field(f, 0)->flags & PERFEV_TP_FIELD_COMMON);
	assert_false(perfev_tp_format__field(f, 4)->flags & PERFEV_TP_FIELD_COMMON);
	fl = perfev_tp_format__field_by_name(f, "prev_comm");
	assert_non_null(fl);
	assert_string_equal(fl->type, "char");
	assert_int_equal(fl->offset, 8);
	assert_int_equal(fl->size, 16);
	assert_int_equal(fl->array_len, 16);
	assert_int_equal(fl->elem_size, 1);
	assert_int_equal(fl->flags, PERFEV_TP_FIELD_ARRAY | PERFEV_TP_FIELD_STRING);
	fl = perfev_tp_format__field_by_name(f, "prev_state");
	assert_int_equal(fl->flags, PERFEV_TP_FIELD_SIGNED | PERFEV_TP_FIELD_LONG);
	assert_null(perfev_tp_format__field_by_name(f, "nosuch"));
	assert_ptr_equal(perfev_tracefmt__find_id(t, 372), f);
	assert_ptr_equal(perfev_tracefmt__find(t, "test", "sched_switch"), f);
	assert_null(perfev_tracefmt__find_id(t, 373));

	switch_record(raw, "sleep", 2);
	put(raw, 24, (uint64_t)-5, 4);
	assert_int_equal(perfev_tp_format__int(f, "prev_pid", raw, 64, &v), 0);
	assert_int_equal((int64_t)v, -5); /* signed: sign-extended */
	assert_int_equal(perfev_tp_format__int(f, "common_type", raw, 64, &v), 0);
	assert_int_equal(v, 372);
	assert_int_equal(perfev_tp_format__int(f, "prev_state", raw, 30, &v), -ERANGE);
	assert_int_equal(perfev_tp_format__int(f, "nosuch", raw, 64, &v), -ENOENT);
	assert_int_equal(perfev_tp_format__str(f, "prev_comm", raw, 64, s, sizeof(s)), 5);
	assert_string_equal(s, "sleep");
	assert_int_equal(perfev_tp_format__str(f, "prev_comm", raw, 64, s, 3), 5);
	assert_string_equal(s, "sl");
	assert_int_equal(perfev_tp_format__str(f, "prev_pid", raw, 64, s, sizeof(s)), -EINVAL);
	perfev_tracefmt__delete(t);
}

static void test_sched_switch(void **state)
{
	struct perfev_tracefmt *t = perfev_tracefmt__new();
	const struct perfev_tp_format *f = add(t, sched_switch_fmt);
	unsigned char raw[64];
	char small[8];

	(void)state;
	switch_record(raw, "sleep", 1);
	assert_string_equal(print(f, raw, 64, NULL),
			    "prev_comm=sleep prev_pid=123 prev_prio=120 prev_state=S ==> "
			    "next_comm=swapper/1 next_pid=0 next_prio=120");
	switch_record(raw, "dd", 2);
	assert_non_null(strstr(print(f, raw, 64, NULL), "prev_state=D ==>"));
	switch_record(raw, "spin", 0);
	assert_non_null(strstr(print(f, raw, 64, NULL), "prev_state=R ==>"));
	/* Preempted: the bit above every state (TASK_REPORT_MAX) is perf's "+". */
	switch_record(raw, "spin", 0x100);
	assert_non_null(strstr(print(f, raw, 64, NULL), "prev_state=R+ ==>"));
	switch_record(raw, "x", 0x80);
	assert_non_null(strstr(print(f, raw, 64, NULL), "prev_state=I ==>"));
	switch_record(raw, "x", 0x108);
	assert_non_null(strstr(print(f, raw, 64, NULL), "prev_state=t+ ==>"));
	switch_record(raw, "x", 0x3);
	assert_non_null(strstr(print(f, raw, 64, NULL), "prev_state=S|D ==>"));
	/* Like snprintf: the whole length, and what fits. */
	switch_record(raw, "sleep", 1);
	assert_int_equal(perfev_tp_format__print(f, raw, 64, NULL, small, sizeof(small)),
			 (int)strlen("prev_comm=sleep prev_pid=123 prev_prio=120 prev_state=S ==> "
				     "next_comm=swapper/1 next_pid=0 next_prio=120"));
	assert_string_equal(small, "prev_co");
	/* A record cut short reads its missing fields as 0 and empty. */
	assert_string_equal(print(f, raw, 26, NULL),
			    "prev_comm=sleep prev_pid=0 prev_prio=0 prev_state=R ==> next_comm= "
			    "next_pid=0 next_prio=0");
	perfev_tracefmt__delete(t);
}

static const char *ksym(void *ctx, uint64_t addr, uint64_t *start)
{
	(void)ctx;
	if (addr >= 0xffffffff81000000ull && addr < 0xffffffff81000100ull) {
		*start = 0xffffffff81000000ull;
		return "do_work";
	}
	return NULL;
}

static void test_helpers(void **state)
{
	struct perfev_tracefmt *t = perfev_tracefmt__new();
	const struct perfev_tp_format *f;
	struct perfev_tp_print_opts o = { .sz = sizeof(o), .ksym = ksym };
	unsigned char raw[96] = { 0 };

	(void)state;
	f = add(t, make_fmt("h", 1,
			    "\tfield:__data_loc char[] name;\toffset:8;\tsize:4;\tsigned:0;\n"
			    "\tfield:unsigned int vec;\toffset:12;\tsize:4;\tsigned:0;\n"
			    "\tfield:unsigned long flags;\toffset:16;\tsize:8;\tsigned:0;\n"
			    "\tfield:void * fn;\toffset:24;\tsize:8;\tsigned:0;\n"
			    "\tfield:unsigned char mac[6];\toffset:32;\tsize:6;\tsigned:0;\n"
			    "\tfield:__u8 ip[4];\toffset:38;\tsize:4;\tsigned:0;\n"
			    "\tfield:int width;\toffset:44;\tsize:4;\tsigned:1;\n"
			    "\tfield:unsigned short arr[3];\toffset:48;\tsize:6;\tsigned:0;\n",
			    "\"%s vec=%u [%s] flags=%s fn=%pS/%ps mac=%pM ip=%pI4 [%*s] %c%% "
			    "u8=%x hex=%s arr=%s\\tend\", __get_str(name), REC->vec, "
			    "__print_symbolic(REC->vec, { 0, \"HI\" }, { 7, \"SCHED\" }), "
			    "__print_flags(REC->flags, \"|\", { 1, \"A\" }, { 4, \"C\" }), REC->fn, REC->fn, "
			    "REC->mac, REC->ip, REC->width, \"w\", REC->vec + 65, (u8)(REC->vec + 0x1f9), "
			    "__print_hex(REC->mac, 3), __print_array(REC->arr, 3, 2)"));
	assert_null(perfev_tp_format__print_error(f));
	put(raw, 8, (8u << 16) | 56, 4); /* 8 bytes at offset 56 */
	memcpy(raw + 56, "kworker\0", 8);
	put(raw, 12, 7, 4);
	put(raw, 16, 0x13, 8);
	put(raw, 24, 0xffffffff81000010ull, 8);
	memcpy(raw + 32, "\x00\x1b\x21\xab\xcd\xef", 6);
	memcpy(raw + 38, "\x0a\x00\x00\x01", 4);
	put(raw, 44, 4, 4);
	put(raw, 48, 0x000300020001ull, 6);
	assert_string_equal(print(f, raw, 64, &o),
			    "kworker vec=7 [SCHED] flags=A|0x12 fn=do_work+0x10/do_work "
			    "mac=00:1b:21:ab:cd:ef ip=10.0.0.1 [   w] H% u8=0 hex=00 1b 21 "
			    "arr={0x1,0x2,0x3}\tend");
	/* Without a resolver, %pS is the address; an unknown symbol is its value in hex. */
	put(raw, 12, 3, 4);
	assert_non_null(strstr(print(f, raw, 64, NULL), "[0x3] flags=A|0x12 fn=0xffffffff81000010/"
							"0xffffffff81000010"));
	/* A dynamic string whose place lies outside the record prints nothing. */
	put(raw, 8, (8u << 16) | 60, 4);
	assert_true(strncmp(print(f, raw, 64, NULL), " vec=3", 6) == 0);
	perfev_tracefmt__delete(t);
}

/*
 * perf's libtraceevent reads "a & (b | c)" as "(a & b) | c" (timer_start's
 * flags), and an operator after one as tight as itself on the right
 * ("a - b - c" as "a - (b - c)"); perf prints what that gives.
 */
static void test_libtraceevent_reading(void **state)
{
	struct perfev_tracefmt *t = perfev_tracefmt__new();
	const struct perfev_tp_format *f;
	unsigned char raw[16] = { 0 };

	(void)state;
	f = add(t, make_fmt("q", 2, "\tfield:unsigned int flags;\toffset:8;\tsize:4;\tsigned:0;\n",
			    "\"flags=%s sub=%d mul=%d\", __print_flags(REC->flags & (0x00040000 | "
			    "0x00080000 | 0x00100000 | 0x00200000), \"|\", { 0x00040000, \"M\" }, { "
			    "0x00080000, \"D\" }, { 0x00100000, \"P\" }, { 0x00200000, \"I\" }), "
			    "10 - 3 - 2, 2 * 3 + 4"));
	put(raw, 8, 0x0ec00000, 4);
	assert_string_equal(print(f, raw, 16, NULL), "flags=D|P|I sub=9 mul=10");
	perfev_tracefmt__delete(t);
}

static void test_failed_print(void **state)
{
	struct perfev_tracefmt *t = perfev_tracefmt__new();
	const struct perfev_tp_format *f;
	unsigned char raw[48] = { 0 };

	(void)state;
	f = add(t, make_fmt("stats", 3,
			    "\tfield:long delta;\toffset:8;\tsize:8;\tsigned:1;\n"
			    "\tfield:int neg;\toffset:16;\tsize:4;\tsigned:1;\n"
			    "\tfield:void * ptr;\toffset:24;\tsize:8;\tsigned:0;\n"
			    "\tfield:char name[8];\toffset:32;\tsize:8;\tsigned:0;\n"
			    "\tfield:u8 bytes[4];\toffset:40;\tsize:4;\tsigned:0;\n",
			    "\"t=%u\", jiffies_to_msecs(REC->delta)"));
	assert_non_null(perfev_tp_format__print_error(f));
	assert_non_null(strstr(perfev_tp_format__print_error(f), "jiffies_to_msecs"));
	put(raw, 8, 99, 8);
	put(raw, 16, (uint64_t)-7, 4);
	put(raw, 24, 0xdead, 8);
	memcpy(raw + 32, "abc", 4);
	memcpy(raw + 40, "\x01\x02\x00\x7f", 4);
	assert_string_equal(print(f, raw, 48, NULL), "[FAILED TO PARSE] delta=99 neg=-7 ptr=0xdead "
						     "name=abc bytes=ARRAY[01, 02, 00, 7f]");
	perfev_tracefmt__delete(t);
}

/* ---- perf's tracing data, built here in either byte order ---- */

struct blob {
	unsigned char *p;
	size_t len;
	bool big;
};

static void b_put(struct blob *b, const void *d, size_t n)
{
	b->p = realloc(b->p, b->len + n);
	assert_non_null(b->p);
	memcpy(b->p + b->len, d, n);
	b->len += n;
}

static void b_num(struct blob *b, uint64_t v, size_t n)
{
	unsigned char x[8];

	for (size_t i = 0; i < n; i++)
		x[b->big ? n - 1 - i : i] = (unsigned char)(v >> (8 * i));
	b_put(b, x, n);
}

static void b_sized(struct blob *b, const char *s, size_t size_bytes)
{
	b_num(b, strlen(s), size_bytes);
	b_put(b, s, strlen(s));
}

static struct blob make_blob(bool big, const char *version, const char *printk)
{
	struct blob b = { NULL, 0, big };
	unsigned char order[2] = { big, 8 };
	char *fmt;

	b_put(&b, "\x17\x08\x44tracing", 10);
	b_put(&b, version, strlen(version) + 1);
	b_put(&b, order, 2);
	b_num(&b, 4096, 4);
	b_put(&b, "header_page", 12);
	b_sized(&b, "\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n", 8);
	b_put(&b, "header_event", 13);
	b_sized(&b, "# compressed entry header\n", 8);
	b_num(&b, 0, 4); /* ftrace's own events */
	b_num(&b, 2, 4); /* systems */
	b_put(&b, "sched", 6);
	b_num(&b, 1, 4);
	b_sized(&b, sched_switch_fmt, 8);
	b_put(&b, "rcu", 4);
	b_num(&b, 1, 4);
	fmt = make_fmt("rcu_utilization", 80, "\tfield:const char * s;\toffset:8;\tsize:8;\tsigned:0;\n",
		       "\"%s\", REC->s");
	b_sized(&b, fmt, 8);
	b_num(&b, 0, 4); /* kallsyms */
	b_sized(&b, printk, 4);
	if (strcmp(version, "0.5"))
		b_sized(&b, "1 systemd\n", 8);
	return b;
}

static const char printk_text[] = "0xffffffff8281a5a4 : \"Start context switch\"\n"
				  "0xffffffff8281a591 : \"End context switch\\n\"\n";

static void test_tracing_data(void **state)
{
	(void)state;
	for (int big = 0; big < 2; big++) {
		struct blob b = make_blob(big, big ? "0.5" : "0.6", printk_text);
		struct perfev_tracefmt *t = perfev_tracefmt__new();
		const struct perfev_tp_format *f, *r;
		unsigned char raw[64];

		assert_int_equal(perfev_tracefmt__add_tracing_data(t, b.p, b.len), 2);
		f = perfev_tracefmt__find(t, "sched", "sched_switch");
		r = perfev_tracefmt__find(t, "rcu", "rcu_utilization");
		assert_non_null(f);
		assert_non_null(r);
		assert_ptr_equal(perfev_tracefmt__find_id(t, 80), r);
		/* Raw data of the recording machine's byte order. */
		switch_record(raw, "sleep", 1);
		if (big) {
			uint32_t pid = 0x7b000000; /* 123 big-endian, read on a little-endian host */

			memcpy(raw + 24, &pid, 4);
			memcpy(raw + 32, "\0\0\0\0\0\0\0\1", 8);
			memcpy(raw + 28, "\0\0\0\x78", 4);
			memcpy(raw + 60, "\0\0\0\x78", 4);
		}
		assert_string_equal(print(f, raw, 64, NULL),
				    "prev_comm=sleep prev_pid=123 prev_prio=120 prev_state=S ==> "
				    "next_comm=swapper/1 next_pid=0 next_prio=120");
		/* A pointer to a constant string: printk_formats names it, "\n" taken off. */
		memset(raw, 0, 16);
		for (int i = 0; i < 8; i++)
			raw[8 + (big ? 7 - i : i)] = (unsigned char)(0xffffffff8281a591ull >> (8 * i));
		assert_string_equal(print(r, raw, 16, NULL), "End context switch");
		raw[8 + (big ? 7 : 0)] = 0x90;
		assert_string_equal(print(r, raw, 16, NULL), "ffffffff8281a590");
		/* Adding it again adds nothing new. */
		assert_int_equal(perfev_tracefmt__add_tracing_data(t, b.p, b.len), 2);
		assert_int_equal(perfev_tracefmt__nr_formats(t), 2);
		perfev_tracefmt__delete(t);
		free(b.p);
	}
}

/* Every cut and every flipped byte of a valid tracing data: an error or a read, never a crash. */
static void test_tracing_data_malformed(void **state)
{
	struct blob b = make_blob(false, "0.6", printk_text);
	size_t systems_end = b.len - (4 + 4 + strlen(printk_text) + 8 + strlen("1 systemd\n"));

	(void)state;
	for (size_t len = 0; len < b.len; len++) {
		struct perfev_tracefmt *t = perfev_tracefmt__new();
		int ret = perfev_tracefmt__add_tracing_data(t, b.p, len);

		if (len < systems_end) {
			if (ret != -PERFEV_ERR_FORMAT)
				fail_msg("cut at %zu of %zu: %d, not -PERFEV_ERR_FORMAT", len, b.len, ret);
			assert_non_null(strstr(perfev_last_error(), "tracing data, byte") ?
						    perfev_last_error() :
						    strstr(perfev_last_error(), "tracepoint format"));
			assert_int_equal(perfev_tracefmt__nr_formats(t), 0);
		} else {
			assert_int_equal(ret, 2); /* cut in what only names addresses and tasks */
		}
		perfev_tracefmt__delete(t);
	}
	for (size_t i = 0; i < b.len; i++) {
		for (int bit = 0; bit < 8; bit += 3) {
			struct perfev_tracefmt *t = perfev_tracefmt__new();

			b.p[i] ^= (unsigned char)(1u << bit);
			(void)perfev_tracefmt__add_tracing_data(t, b.p, b.len);
			b.p[i] ^= (unsigned char)(1u << bit);
			perfev_tracefmt__delete(t);
		}
	}
	/* Counts far beyond the data. */
	struct perfev_tracefmt *t = perfev_tracefmt__new();

	memcpy(b.p + 10 + 4 + 2 + 4 + 12, "\xff\xff\xff\xff\xff\xff\xff\x7f", 8);
	assert_int_equal(perfev_tracefmt__add_tracing_data(t, b.p, b.len), -PERFEV_ERR_FORMAT);
	assert_non_null(strstr(perfev_last_error(), "longer than the data"));
	assert_int_equal(perfev_tracefmt__add_tracing_data(t, "\x17\x08\x44tracinX", 10),
			 -PERFEV_ERR_FORMAT);
	assert_non_null(strstr(perfev_last_error(), "magic"));
	assert_int_equal(perfev_tracefmt__add_tracing_data(t, NULL, 0), -PERFEV_ERR_FORMAT);
	perfev_tracefmt__delete(t);
	free(b.p);
}

static void expect_bad_format(const char *text, const char *why)
{
	struct perfev_tracefmt *t = perfev_tracefmt__new();
	int ret = perfev_tracefmt__add_format(t, "test", text, strlen(text));

	if (ret != -PERFEV_ERR_FORMAT || !strstr(perfev_last_error(), why))
		fail_msg("%d '%s' (wanted '%s') for:\n%s", ret, perfev_last_error(), why, text);
	assert_int_equal(perfev_tracefmt__nr_formats(t), 0);
	perfev_tracefmt__delete(t);
}

static void test_format_malformed(void **state)
{
	static const char nul[] = "name: x\nID: 1\0\n";
	struct perfev_tracefmt *t;
	char *big;

	(void)state;
	expect_bad_format("ID: 5\nformat:\n", "no name: line");
	expect_bad_format("name: x\nformat:\n", "no ID: line");
	expect_bad_format("name: a/b\nID: 1\n", "event name");
	expect_bad_format("name: x\nID: 12z\n", "ID that is not a number");
	expect_bad_format("name: x\nID: 1\nformat:\n\tfield:int a\toffset:0;\tsize:4;\n",
			  "without ';'");
	expect_bad_format("name: x\nID: 1\nformat:\n\tfield:int a;\tsize:4;\n", "without offset");
	expect_bad_format("name: x\nID: 1\nformat:\n\tfield:int a;\toffset:99999999;\tsize:4;\n",
			  "not a number below 2^20");
	expect_bad_format("name: x\nID: 1\nformat:\n\tfield:int;\toffset:0;\tsize:4;\n", "type");
	expect_bad_format("name: x\nID: 1\nformat:\n\tfield:int 9a;\toffset:0;\tsize:4;\n",
			  "without a name");
	expect_bad_format("name: x\nID: 1\nformat:\n\tfield:int a];\toffset:0;\tsize:4;\n", "'['");
	expect_bad_format("name: x\nID: 1\nformat:\n\tfield:int a;\toffset;\tsize:4;\n", "':'");
	t = perfev_tracefmt__new();
	assert_int_equal(perfev_tracefmt__add_format(t, "test", nul, sizeof(nul) - 1),
			 -PERFEV_ERR_FORMAT);
	assert_non_null(strstr(perfev_last_error(), "NUL"));
	/* Too many fields. */
	big = malloc(1 << 20);
	assert_non_null(big);
	strcpy(big, "name: x\nID: 1\nformat:\n");
	for (int i = 0; i < 1100; i++)
		sprintf(big + strlen(big), "\tfield:int f%d;\toffset:%d;\tsize:4;\tsigned:1;\n", i, 4 * i);
	assert_int_equal(perfev_tracefmt__add_format(t, "test", big, strlen(big)), -PERFEV_ERR_FORMAT);
	assert_non_null(strstr(perfev_last_error(), "more than 1024 fields"));
	/* A print fmt nested too deep, or with too many pieces, is refused as a print fmt only. */
	strcpy(big, "\"%d\", ");
	for (int i = 0; i < 5000; i++)
		strcat(big, "(");
	const struct perfev_tp_format *f = add(t, make_fmt("deep", 7, "", big));

	assert_non_null(strstr(perfev_tp_format__print_error(f), "nested deeper"));
	assert_string_equal(print(f, "", 0, NULL), "[FAILED TO PARSE]");
	f = add(t, make_fmt("noarg", 8, "", "\"%d %s\", 1"));
	assert_non_null(strstr(perfev_tp_format__print_error(f), "without an argument"));
	f = add(t, make_fmt("nostr", 9, "", "REC->x"));
	assert_non_null(strstr(perfev_tp_format__print_error(f), "does not start with a string"));
	f = add(t, make_fmt("open", 10, "", "\"%d\", (1"));
	assert_non_null(perfev_tp_format__print_error(f));
	f = add(t, make_fmt("quote", 11, "", "\"%d, 1"));
	assert_non_null(perfev_tp_format__print_error(f));
	/* A duplicate id. */
	assert_int_equal(perfev_tracefmt__add_format(t, "test", make_fmt("dup", 9, "", "\"\""),
						     strlen(make_fmt("dup", 9, "", "\"\""))),
			 -EEXIST);
	free(big);
	perfev_tracefmt__delete(t);
}

static void test_tracefs(void **state)
{
	struct perfev_tracefmt *t;
	const struct perfev_tp_format *f;

	(void)state;
	if (access("/sys/kernel/tracing/events/sched/sched_switch/format", R_OK)) {
		print_message("no readable tracefs here (not root, or not mounted)\n");
		skip();
	}
	t = perfev_tracefmt__new();
	assert_int_equal(perfev_tracefmt__add_tracefs(t, "sched", "sched_switch"), 0);
	assert_int_equal(perfev_tracefmt__add_tracefs(t, "sched", "sched_switch"), 0);
	assert_int_equal(perfev_tracefmt__nr_formats(t), 1);
	f = perfev_tracefmt__format(t, 0);
	assert_null(perfev_tp_format__print_error(f));
	assert_non_null(perfev_tp_format__field_by_name(f, "prev_state"));
	assert_int_equal(perfev_tracefmt__add_tracefs(t, "sched", "nosuch_event"), -ENOENT);
	assert_non_null(strstr(perfev_last_error(), "perfev list"));
	assert_int_equal(perfev_tracefmt__add_tracefs(t, "../etc", "passwd"), -EINVAL);
	perfev_tracefmt__delete(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fields),
		cmocka_unit_test(test_sched_switch),
		cmocka_unit_test(test_helpers),
		cmocka_unit_test(test_libtraceevent_reading),
		cmocka_unit_test(test_failed_print),
		cmocka_unit_test(test_tracing_data),
		cmocka_unit_test(test_tracing_data_malformed),
		cmocka_unit_test(test_format_malformed),
		cmocka_unit_test(test_tracefs),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
