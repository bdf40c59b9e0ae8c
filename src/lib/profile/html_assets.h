/* SPDX-License-Identifier: MIT */
/*
 * The parts of the pages the SVG and HTML writers make (scripts and styles,
 * kept as files in src/lib/profile/html/ and embedded at build time by
 * scripts/embed.sh): nothing is fetched when a page opens.
 */
#ifndef PERFEV_PROFILE_HTML_ASSETS_H
#define PERFEV_PROFILE_HTML_ASSETS_H

#include <stddef.h>

struct html_asset {
	const char *name; /* the file's name in src/lib/profile/html/ */
	const char *data; /* its bytes, NUL-terminated */
	size_t len;
};

extern const struct html_asset html_assets[];
extern const size_t html_nr_assets;

/* The asset of that name; NULL when the build has none (a mistake of the build). */
const struct html_asset *html_asset(const char *name);

#endif
