// SPDX-License-Identifier: MIT
/* perfev report on a terminal: the table in the browser instead of text. */
#include <stdio.h>

#include "cli.h"
#include "sigwait.h"
#include "tui.h"

int report_tui(const struct perfev_profile *p, const struct report_opts *o, const char *header)
{
	struct tui_browser b;
	int ret;

	if (!tui_browser_open(&b, p, o))
		return 1;
	snprintf(b.header, sizeof(b.header), "%s", header);
	ret = tui_browse(&b);
	tui_browser_close(&b);
	if (ret < 0) {
		cli_error("out of memory: the view could not be rebuilt");
		return 1;
	}
	/* The terminal is back: an ending signal is honoured now. */
	if (ret > 0)
		sigwait_reraise(ret);
	return 0;
}
