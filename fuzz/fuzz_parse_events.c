/*
 * Event specs are user text: feeds the bytes to the event list parser (on a
 * fresh evlist) and to the single-event parser.  Both read sysfs and tracefs
 * of the machine running the fuzzer, which is fine: they only read.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "perfev/perfev.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct perf_event_attr attr;
	struct perfev_evlist *el;
	char name[256], *text;

	text = malloc(size + 1);
	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';

	el = perfev_evlist__new();
	if (el) {
		struct perfev_evsel *ev;

		if (!perfev_evlist__add_events(el, text))
			perfev_evlist__for_each_evsel(el, ev)
				(void)strlen(perfev_evsel__name(ev));
		perfev_evlist__delete(el);
	}
	(void)perfev_parse_event(text, &attr, name, sizeof(name));
	(void)strlen(perfev_last_error());
	free(text);
	return 0;
}
