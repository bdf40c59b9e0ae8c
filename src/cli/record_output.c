/* SPDX-License-Identifier: MIT */
/*
 * perfev record's output file.  Nothing the user has is touched until the
 * recording really starts: the data go first to a new file beside the
 * output, and only once the events are open and the command runs is an
 * existing FILE kept as FILE.old and the new file renamed to FILE.  A
 * failure before then (a mistyped event, a missing command, a process that
 * does not exist) leaves FILE and FILE.old as they were.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "record.h"

static bool is_pipe(const struct record_output *out)
{
	return !strcmp(out->path, "-");
}

int record_output__prepare(struct record_output *out)
{
	struct stat st;

	if (is_pipe(out)) {
		if (isatty(STDOUT_FILENO)) {
			cli_error("refusing to write perf.data to a terminal; redirect the output "
				  "(-o - > FILE, or into 'perf report -i -')");
			return -1;
		}
		/*
		 * The data keep the original stdout; the command, forked next, writes
		 * its output to stderr instead, or it would land in the stream.
		 */
		out->fd = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3);
		if (out->fd < 0 || dup2(STDERR_FILENO, STDOUT_FILENO) < 0) {
			cli_error("cannot set up standard output for the data: %s", strerror(errno));
			return -1;
		}
		return 0;
	}
	if (stat(out->path, &st) < 0) {
		if (errno != ENOENT) {
			cli_error("cannot write '%s': %s; choose another file with -o", out->path,
				  strerror(errno));
			return -1;
		}
		return 0;
	}
	if (S_ISDIR(st.st_mode)) {
		cli_error("'%s' is a directory; give a file name with -o (such as %s/perf.data)",
			  out->path, out->path);
		return -1;
	}
	if (S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode)) {
		cli_error("'%s' is a %s, where perf.data cannot be written (its header is rewritten "
			  "as the recording goes); to stream the data, use '-o -' and redirect it: "
			  "-o - > %s",
			  out->path, S_ISFIFO(st.st_mode) ? "FIFO" : "socket", out->path);
		return -1;
	}
	/* A device such as /dev/null is written in place: there is nothing to keep. */
	out->in_place = !S_ISREG(st.st_mode);
	return 0;
}

static int create_beside(struct record_output *out)
{
	size_t n = strlen(out->path) + sizeof(".tmp.XXXXXX");

	out->tmp = malloc(n);
	if (!out->tmp) {
		cli_error("out of memory");
		return -1;
	}
	snprintf(out->tmp, n, "%s.tmp.XXXXXX", out->path);
	out->fd = mkostemp(out->tmp, O_CLOEXEC);
	if (out->fd < 0) {
		cli_error("cannot create '%s' (for the data until the recording starts): %s; "
			  "choose another file with -o",
			  out->tmp, strerror(errno));
		free(out->tmp);
		out->tmp = NULL;
		return -1;
	}
	return 0;
}

int record_output__open(struct record_output *out)
{
	if (is_pipe(out))
		return 0;
	if (!out->in_place)
		return create_beside(out);
	out->fd = open(out->path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (out->fd < 0) {
		cli_error("cannot write '%s': %s; choose another file with -o", out->path,
			  strerror(errno));
		return -1;
	}
	if (lseek(out->fd, 0, SEEK_CUR) < 0) {
		cli_error("'%s' cannot seek (%s), as perf.data needs (its header is rewritten as the "
			  "recording goes); to stream the data, use '-o -' and redirect it: -o - > %s",
			  out->path, strerror(errno), out->path);
		return -1;
	}
	return 0;
}

int record_output__commit(struct record_output *out)
{
	struct stat st;

	if (!out->tmp)
		return 0;
	/* As perf does, an existing file is kept as FILE.old rather than overwritten. */
	if (stat(out->path, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0) {
		size_t n = strlen(out->path) + sizeof(".old");
		char *old = malloc(n);

		if (!old) {
			cli_error("out of memory");
			return -1;
		}
		snprintf(old, n, "%s.old", out->path);
		if (rename(out->path, old) < 0) {
			cli_error("cannot rename '%s' to '%s': %s", out->path, old, strerror(errno));
			free(old);
			return -1;
		}
		free(old);
	}
	if (rename(out->tmp, out->path) < 0) {
		cli_error("cannot rename '%s' to '%s': %s", out->tmp, out->path, strerror(errno));
		return -1;
	}
	free(out->tmp);
	out->tmp = NULL;
	return 0;
}

void record_output__close(struct record_output *out)
{
	/* Still beside the output: the recording never started, and nothing is kept. */
	if (out->tmp) {
		unlink(out->tmp);
		free(out->tmp);
		out->tmp = NULL;
	}
}
