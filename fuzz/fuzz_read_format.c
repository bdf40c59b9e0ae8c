/*
 * read(2) values and PERF_SAMPLE_READ payloads are bytes from the kernel or
 * a file: the first 8 bytes choose a read_format, the rest is the value.
 * Also feeds the text to the CPU list parser (sysfs and user text).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "perfev/perfev.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct perfev_counts out[16];
	uint64_t rf = 0;
	char *text;
	int cpus[256];

	if (size >= 8) {
		memcpy(&rf, data, 8);
		rf &= PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING | PERF_FORMAT_ID |
		      PERF_FORMAT_GROUP | PERF_FORMAT_LOST;
		int n = perfev_read_format__parse(rf, data + 8, size - 8, out, 16);
		if (n > 0)
			for (int i = 0; i < n && i < 16; i++)
				(void)perfev_counts__scaled(&out[i]);
	}
	text = malloc(size + 1);
	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	perfev_cpu_list__parse(text, cpus, 256);
	free(text);
	return 0;
}
