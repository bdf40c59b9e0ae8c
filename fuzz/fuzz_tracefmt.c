/*
 * Tracepoint formats and records are untrusted: a perf.data file's tracing
 * data, a format file's text, and the raw bytes of samples.  The first byte
 * chooses which the input holds (even: perf's tracing data; odd: one format
 * file's text), the next two its length (little-endian); what follows is a
 * record's raw bytes, printed with every format loaded and read field by
 * field.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "perfev/perfev.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static volatile uint64_t sink;

static const char *ksym(void *ctx, uint64_t addr, uint64_t *start)
{
	(void)ctx;
	*start = addr & ~0xfffull;
	return (addr & 1) ? "a_function" : NULL;
}

static void use(const struct perfev_tp_format *f, const uint8_t *raw, size_t size)
{
	struct perfev_tp_print_opts o = { .sz = sizeof(o), .ksym = ksym };
	char buf[512], s[64];

	sink += (uint64_t)perfev_tp_format__print(f, raw, size, &o, buf, sizeof(buf));
	sink += (uint64_t)perfev_tp_format__print(f, raw, size, NULL, NULL, 0);
	for (size_t i = 0; i < perfev_tp_format__nr_fields(f); i++) {
		const struct perfev_tp_field *fl = perfev_tp_format__field(f, i);
		const void *p;
		size_t len;
		uint64_t v;

		if (perfev_tp_field__int(f, fl, raw, size, &v) == 0)
			sink += v;
		if (perfev_tp_field__bytes(f, fl, raw, size, &p, &len) == 0 && len)
			sink += ((const uint8_t *)p)[len - 1];
		sink += (uint64_t)perfev_tp_format__str(f, fl->name, raw, size, s, sizeof(s));
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct perfev_tracefmt *t;
	size_t len;
	char *text;

	if (size < 3)
		return 0;
	len = (size_t)data[1] | (size_t)data[2] << 8;
	if (len > size - 3)
		len = size - 3;
	t = perfev_tracefmt__new();
	if (!t)
		return 0;
	if (data[0] & 1) {
		/* A copy of exactly len bytes, so reading past them is caught. */
		text = malloc(len ? len : 1);
		if (text) {
			memcpy(text, data + 3, len);
			(void)perfev_tracefmt__add_format(t, "fuzz", text, len);
			free(text);
		}
	} else {
		(void)perfev_tracefmt__add_tracing_data(t, data + 3, len);
	}
	for (size_t i = 0; i < perfev_tracefmt__nr_formats(t); i++)
		use(perfev_tracefmt__format(t, i), data + 3 + len, size - 3 - len);
	perfev_tracefmt__delete(t);
	return 0;
}
