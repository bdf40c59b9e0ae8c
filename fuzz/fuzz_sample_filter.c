/*
 * The sample filter's time ranges come from a command line (or a program
 * embedding the library passing its user's text).  Whatever parses must
 * resolve against any span to ranges inside it, in order, each starting at
 * or before its end; whatever does not parse must say why.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "perfev/perfev.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);
	struct perfev_sample_filter_opts o = { .sz = sizeof(o) };
	struct perfev_sample_filter *f;
	uint64_t first = 1000000000, last = first + 7777777, a, b, prev_end = 0;

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	o.time = text;
	f = perfev_sample_filter__new(&o);
	if (!f) {
		if (!*perfev_last_error())
			__builtin_trap();
		free(text);
		return 0;
	}
	if (perfev_sample_filter__needs_span(f) && perfev_sample_filter__set_span(f, first, last))
		__builtin_trap();
	for (size_t i = 0; perfev_sample_filter__range(f, i, &a, &b) == 0; i++) {
		if ((b && b < a) || (strchr(text, '%') && (a < first || b > last)))
			__builtin_trap();
		if (i && (!prev_end || a <= prev_end) && !strchr(text, '%'))
			__builtin_trap();
		prev_end = b;
	}
	perfev_sample_filter__time_ok(f, first + 5);
	perfev_sample_filter__delete(f);
	free(text);
	return 0;
}
