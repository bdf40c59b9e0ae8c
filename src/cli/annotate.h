/* SPDX-License-Identifier: MIT */
/* Shared by perfev annotate's files: what is shown, and the writers of text and JSON. */
#ifndef PERFEV_CLI_ANNOTATE_H
#define PERFEV_CLI_ANNOTATE_H

#include <stdbool.h>
#include <stdio.h>

#include "cli.h"
#include "perfev/annotate.h"
#include "perfev/json.h"

enum annotate_view {
	VIEW_MIXED,  /* perf annotate's: instructions with their source lines between them */
	VIEW_SOURCE, /* source lines with their totals, inlined code under its own file */
	VIEW_ASM,    /* instructions only */
};

/* How an annotation is written, and the notes already given (each missing source once). */
struct annotate_out {
	FILE *f;
	enum annotate_view view;
	enum perfev_annotate_percent percent;
	struct perfev_sources *sources;
	const char *event; /* the event's name */
	bool quiet;
	char **noted; /* source files already said to be missing */
	size_t nr_noted;
};

/* perf's words for a percent type: "local period". */
const char *annotate_percent_words(enum perfev_annotate_percent p);
/* perf's option value for it: "local-period". */
const char *annotate_percent_name(enum perfev_annotate_percent p);

/* The text of source line (file, line) of the annotation's DSO, or NULL (a missing file noted once). */
const char *annotate_source_line(struct annotate_out *o, const struct perfev_annotation *a,
				 const char *file, unsigned line, size_t *len);
void annotate_out__free(struct annotate_out *o);

void annotate_print_text(struct annotate_out *o, const struct perfev_annotation *a);
void annotate_print_json(struct annotate_out *o, struct perfev_json *j, const struct perfev_annotation *a);

#endif
