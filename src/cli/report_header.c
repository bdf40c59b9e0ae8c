// SPDX-License-Identifier: MIT
/*
 * perfev report --header and --header-only: what the file says about the
 * recording (its feature sections), in perf report --header's layout.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "cli.h"
#include "perfev/perfev.h"
#include "report.h"

static void print_string(FILE *f, struct perfev_data_reader *r, enum perfev_feature feat,
			 const char *what)
{
	const char *s = perfev_data_reader__feat_string(r, feat);

	if (s)
		fprintf(f, "# %s : %s\n", what, s);
}

/* HEADER_PMU_MAPPINGS: a count, then each PMU's type and name (perf's strings). */
static void print_pmu_mappings(FILE *f, struct perfev_data_reader *r)
{
	const unsigned char *p;
	const void *data;
	size_t size, off = 4;
	uint32_t nr, type, len;

	if (perfev_data_reader__feature(r, PERFEV_FEAT_PMU_MAPPINGS, &data, &size) < 0 || size < 4 ||
	    perfev_data_reader__is_swapped(r))
		return;
	p = data;
	memcpy(&nr, p, 4);
	fputs("# pmu mappings:", f);
	for (uint32_t i = 0; i < nr && off + 8 <= size; i++) {
		memcpy(&type, p + off, 4);
		memcpy(&len, p + off + 4, 4);
		off += 8;
		if (len > size - off)
			break;
		fprintf(f, "%s %.*s = %" PRIu32, i ? "," : "", (int)strnlen((const char *)p + off, len),
			(const char *)p + off, type);
		off += len;
	}
	fputc('\n', f);
}

static void print_events(FILE *f, struct perfev_data_reader *r)
{
	for (size_t i = 0; i < perfev_data_reader__nr_evsels(r); i++) {
		const struct perf_event_attr *a = perfev_data_reader__attr(r, i);
		size_t nr = 0;
		const uint64_t *ids = perfev_data_reader__evsel_ids(r, i, &nr);

		fprintf(f, "# event : name = %s, , id = {", perfev_data_reader__evsel_name(r, i));
		for (size_t k = 0; k < nr; k++)
			fprintf(f, "%s %" PRIu64, k ? "," : "", ids[k]);
		fprintf(f, " }, type = %" PRIu32 ", size = %" PRIu32 ", config = %#" PRIx64
			   ", { sample_period, sample_freq } = %" PRIu64 "\n",
			a->type, a->size, (uint64_t)a->config, (uint64_t)a->sample_period);
	}
}

void report_print_header(FILE *f, struct perfev_data_reader *r, const char *input)
{
	struct stat st;
	int argc;
	const char *const *argv;
	uint32_t online, avail;
	uint64_t first, last, mem;
	char when[64];
	bool any_missing = false;

	fputs("# ========\n", f);
	if (strcmp(input, "-") && !stat(input, &st) && ctime_r(&st.st_mtime, when)) {
		when[strcspn(when, "\n")] = '\0';
		fprintf(f, "# captured on    : %s\n", when);
	}
	print_string(f, r, PERFEV_FEAT_HOSTNAME, "hostname");
	print_string(f, r, PERFEV_FEAT_OSRELEASE, "os release");
	print_string(f, r, PERFEV_FEAT_VERSION, "perf version");
	print_string(f, r, PERFEV_FEAT_ARCH, "arch");
	if (!perfev_data_reader__nrcpus(r, &online, &avail))
		fprintf(f, "# nrcpus online : %" PRIu32 "\n# nrcpus avail : %" PRIu32 "\n", online, avail);
	print_string(f, r, PERFEV_FEAT_CPUDESC, "cpudesc");
	print_string(f, r, PERFEV_FEAT_CPUID, "cpuid");
	if ((mem = perfev_data_reader__total_mem(r)))
		fprintf(f, "# total memory : %" PRIu64 " kB\n", mem);
	if (!perfev_data_reader__cmdline(r, &argc, &argv)) {
		fputs("# cmdline :", f);
		for (int i = 0; i < argc; i++)
			fprintf(f, " %s", argv[i]);
		fputc('\n', f);
	}
	print_events(f, r);
	print_pmu_mappings(f, r);
	if (!perfev_data_reader__sample_time(r, &first, &last) && last >= first) {
		fprintf(f, "# time of first sample : %" PRIu64 ".%06" PRIu64 "\n",
			first / 1000000000, first % 1000000000 / 1000);
		fprintf(f, "# time of last sample : %" PRIu64 ".%06" PRIu64 "\n", last / 1000000000,
			last % 1000000000 / 1000);
		fprintf(f, "# sample duration : %10.3f ms\n", (double)(last - first) / 1e6);
	}
	for (int feat = 1; feat < PERFEV_FEAT_LAST; feat++) {
		const char *name = perfev_data_feature__name(feat);

		if (!name || perfev_data_reader__has_feature(r, feat))
			continue;
		fprintf(f, "%s%s", any_missing ? " " : "# missing features: ", name);
		any_missing = true;
	}
	if (any_missing)
		fputc('\n', f);
	fputs("# ========\n#\n", f);
}
