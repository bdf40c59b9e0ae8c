/* SPDX-License-Identifier: MIT */
/*
 * Source files, found as a user expects: at the path DWARF gives (after
 * the prefix, when one was given), then through debuginfod by the DSO's
 * build id when DEBUGINFOD_URLS is set.  Each file is read once and split
 * into lines; one that is found nowhere keeps the list of places tried,
 * which is what the user needs to fix it.
 */
#include <elfutils/debuginfod.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/internal.h"
#include "util/opts.h"
#include "util/dynlib.h"
#include "util/idxhash.h"
#include "symbols/symbols_int.h"
#include "annotate/annotate_int.h"

/* No source file is this big; a bound for what a path (or a server) may hand us. */
#define MAX_SOURCE ((size_t)64 << 20)

struct src_file {
	char *name;  /* as DWARF names it: the key */
	char *path;  /* the file read, NULL when none was found */
	char *error; /* why none was, every place tried */
	char *text;
	size_t len;
	uint32_t *lines; /* offset of each line's start */
	size_t nr_lines;
};

struct perfev_sources {
	char *prefix; /* NULL: none */
	unsigned prefix_strip;
	bool no_debuginfod;
	struct src_file *files;
	size_t nr_files, cap;
	struct idxhash index;
	debuginfod_client *dbgd;
	bool dbgd_tried;
};

/*
 * libdebuginfod, opened when a source is first asked of it (util/dynlib.h
 * says why; linked in, it and what it pulls in, libcurl, TLS, Kerberos,
 * LDAP, 30 libraries, would be loaded by every program using perfev).
 */
static struct {
	__typeof__(&debuginfod_begin) begin;
	__typeof__(&debuginfod_find_source) find_source;
	__typeof__(&debuginfod_end) end;
} dbgd_fn;

#define DBGD_BIND(h, f) \
	((dbgd_fn.f = (__typeof__(dbgd_fn.f))dynlib_sym((h), "debuginfod_" #f)) != NULL)

static bool dbgd_bind(void *h)
{
	return DBGD_BIND(h, begin) && DBGD_BIND(h, find_source) && DBGD_BIND(h, end);
}

static struct dynlib libdebuginfod = DYNLIB_INIT("libdebuginfod.so.1", "libdebuginfod1",
						 "fetching sources from debuginfod", dbgd_bind);

struct perfev_sources *perfev_sources__new(const struct perfev_sources_opts *opts)
{
	struct perfev_sources_opts o;
	struct perfev_sources *s;

	if (OPTS_COPY(&o, opts, perfev_sources_opts, no_debuginfod))
		return NULL;
	s = calloc(1, sizeof(*s));
	if (!s || (o.prefix && !(s->prefix = strdup(o.prefix)))) {
		free(s);
		return set_error_ptr(ENOMEM, "no memory for the source files");
	}
	s->prefix_strip = o.prefix_strip;
	s->no_debuginfod = o.no_debuginfod;
	return s;
}

static void file_free(struct src_file *f)
{
	free(f->name);
	free(f->path);
	free(f->error);
	free(f->text);
	free(f->lines);
}

void perfev_sources__delete(struct perfev_sources *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->nr_files; i++)
		file_free(&s->files[i]);
	free(s->files);
	idxhash_free(&s->index);
	if (s->dbgd)
		dbgd_fn.end(s->dbgd);
	free(s->prefix);
	free(s);
}

/* ---- reading one file ---- */

/* Reads fd (a regular file of at most MAX_SOURCE bytes) into f; 0 or -errno. */
static int read_text(int fd, struct src_file *f)
{
	struct stat st;
	size_t len = 0;
	char *buf;

	if (fstat(fd, &st) < 0)
		return -errno;
	if (!S_ISREG(st.st_mode))
		return -EINVAL;
	if ((uint64_t)st.st_size > MAX_SOURCE)
		return -EFBIG;
	buf = malloc((size_t)st.st_size + 1);
	if (!buf)
		return -ENOMEM;
	/*
	 * From the start whatever the offset (debuginfod hands over the fd it
	 * wrote); the file may shrink while read, not grow past what was allocated.
	 */
	while (len < (size_t)st.st_size) {
		ssize_t n = pread(fd, buf + len, (size_t)st.st_size - len, (off_t)len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			free(buf);
			return -errno;
		}
		if (!n)
			break;
		len += (size_t)n;
	}
	buf[len] = 0;
	f->text = buf;
	f->len = len;
	return 0;
}

/* The offsets of the lines' starts; a last line without its newline counts. */
static int split_lines(struct src_file *f)
{
	size_t n = 0, cap = 0;

	for (size_t at = 0; at < f->len;) {
		const char *nl = memchr(f->text + at, '\n', f->len - at);

		if (!array_grow((void **)&f->lines, &cap, n + 1, sizeof(*f->lines)))
			return -ENOMEM;
		f->lines[n++] = (uint32_t)at;
		at = nl ? (size_t)(nl - f->text) + 1 : f->len;
	}
	f->nr_lines = n;
	return 0;
}

static int open_source(const char *path, struct src_file *f)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK), err;

	if (fd < 0)
		return -errno;
	err = read_text(fd, f);
	close(fd);
	return err;
}

/* ---- where to look ---- */

/* name without its first strip components, after prefix (objdump's --prefix, --prefix-strip). */
static char *prefixed(const struct perfev_sources *s, const char *name)
{
	const char *rest = name;
	char *out;

	if (!s->prefix)
		return NULL;
	for (unsigned i = 0; i < s->prefix_strip && *rest; i++) {
		while (*rest == '/')
			rest++;
		while (*rest && *rest != '/')
			rest++;
	}
	while (*rest == '/')
		rest++;
	if (asprintf(&out, "%s/%s", s->prefix, rest) < 0)
		return NULL;
	return out;
}

/* Appends to *msg (a growing explanation); nothing when memory runs out. */
static void say(char **msg, const char *fmt, ...) PRINTF_LIKE(2, 3);
static void say(char **msg, const char *fmt, ...)
{
	char *add, *joined;
	va_list ap;

	va_start(ap, fmt);
	if (vasprintf(&add, fmt, ap) < 0)
		add = NULL;
	va_end(ap);
	if (!add)
		return;
	if (!*msg) {
		*msg = add;
		return;
	}
	if (asprintf(&joined, "%s%s", *msg, add) < 0)
		joined = NULL;
	free(add);
	if (joined) {
		free(*msg);
		*msg = joined;
	}
}

static int try_path(const char *path, struct src_file *f, char **msg)
{
	int err = open_source(path, f);

	if (!err)
		return (f->path = strdup(path)) ? 0 : -ENOMEM;
	say(msg, "%s%s (%s)", *msg ? ", " : "", path,
	    err == -EFBIG ? "bigger than any source file" : strerror(-err));
	return err;
}

static int try_debuginfod(struct perfev_sources *s, struct perfev_dso *d, struct src_file *f,
			  char **msg)
{
	const char *urls = getenv("DEBUGINFOD_URLS");
	uint8_t id[PERFEV_BUILD_ID_MAX];
	char *path = NULL;
	int n, fd, err;

	if (s->no_debuginfod)
		return -ENOENT;
	if (!urls || !*urls) {
		say(msg, "; debuginfod not asked (DEBUGINFOD_URLS is not set)");
		return -ENOENT;
	}
	n = d ? dso__build_id(d, id, sizeof(id)) : -ENOENT;
	if (n <= 0) {
		say(msg, "; debuginfod not asked (%s has no build id)", d ? perfev_dso__name(d) : "no DSO");
		return -ENOENT;
	}
	if (!dynlib_ready(&libdebuginfod)) {
		say(msg, "; debuginfod not asked (%s)", perfev_last_error());
		return -ENOENT;
	}
	if (!s->dbgd_tried) {
		s->dbgd_tried = true;
		s->dbgd = dbgd_fn.begin();
	}
	if (!s->dbgd) {
		say(msg, "; debuginfod could not start a client");
		return -ENOENT;
	}
	fd = dbgd_fn.find_source(s->dbgd, id, n, f->name, &path);
	if (fd < 0) {
		say(msg, "; debuginfod at %s: %s", urls, strerror(-fd));
		free(path);
		return fd;
	}
	err = read_text(fd, f);
	close(fd);
	if (!err) {
		f->path = path;
		return 0;
	}
	say(msg, "; debuginfod's copy %s (%s)", path ? path : "?", strerror(-err));
	free(path);
	return err;
}

static int locate(struct perfev_sources *s, struct perfev_dso *d, struct src_file *f)
{
	char *msg = NULL, *p = prefixed(s, f->name);
	int err = -ENOENT;

	if (p)
		err = try_path(p, f, &msg);
	free(p);
	if (err && err != -ENOMEM)
		err = try_path(f->name, f, &msg);
	if (err && err != -ENOMEM)
		err = try_debuginfod(s, d, f, &msg);
	if (!err)
		err = split_lines(f);
	if (err == -ENOMEM) {
		free(msg);
		return err;
	}
	if (err) {
		if (asprintf(&f->error, "source file %s not found: tried %s; give the prefix of where "
			     "the sources are now (--prefix, --prefix-strip), or set DEBUGINFOD_URLS "
			     "to a server that has them", f->name, msg ? msg : "nothing") < 0)
			f->error = NULL;
	}
	free(msg);
	return err;
}

struct file_key {
	const struct src_file *files;
	const char *name;
};

static bool file_eq(const void *ctx, uint32_t idx)
{
	const struct file_key *k = ctx;

	return !strcmp(k->files[idx].name, k->name);
}

/* The file DWARF names name, looked for the first time it is asked; NULL with errno ENOMEM. */
static struct src_file *file_get(struct perfev_sources *s, struct perfev_dso *d, const char *name)
{
	struct file_key k = { s->files, name };
	uint64_t hash = hash_str(name);
	int64_t i = idxhash_find(&s->index, hash, file_eq, &k);
	struct src_file *f;

	if (i >= 0)
		return &s->files[i];
	if (s->nr_files >= UINT32_MAX - 1 ||
	    !array_grow((void **)&s->files, &s->cap, s->nr_files + 1, sizeof(*s->files)))
		return set_error_ptr(ENOMEM, "no memory for source files");
	f = &s->files[s->nr_files];
	memset(f, 0, sizeof(*f));
	f->name = strdup(name);
	if (!f->name || idxhash_insert(&s->index, hash, (uint32_t)s->nr_files)) {
		free(f->name);
		return set_error_ptr(ENOMEM, "no memory for source files");
	}
	s->nr_files++;
	if (locate(s, d, f) == -ENOMEM) {
		/* Kept, so it is not looked for again; it says why. */
		free(f->text);
		f->text = NULL;
		free(f->path);
		f->path = NULL;
	}
	return f;
}

/* A file that was found, or NULL with errno and the error set. */
static struct src_file *found(struct perfev_sources *s, struct perfev_dso *d, const char *name)
{
	struct src_file *f;

	if (!s || !name || !*name)
		return set_error_ptr(EINVAL, "no source file named");
	f = file_get(s, d, name);
	if (!f)
		return NULL;
	if (!f->text)
		return set_error_ptr(ENOENT, "%s", f->error ? f->error : "source file not found "
				     "(and no memory to say why)");
	return f;
}

const char *perfev_sources__line(struct perfev_sources *s, struct perfev_dso *d, const char *file,
				 uint32_t line, size_t *len)
{
	struct src_file *f = found(s, d, file);
	size_t start, end;

	if (!f)
		return NULL;
	if (!line || line > f->nr_lines)
		return set_error_ptr(ERANGE, "%s has %zu lines, not a line %u: the source changed since "
				     "the build?", f->path, f->nr_lines, line);
	start = f->lines[line - 1];
	end = line < f->nr_lines ? f->lines[line] : f->len;
	while (end > start && (f->text[end - 1] == '\n' || f->text[end - 1] == '\r'))
		end--;
	if (len)
		*len = end - start;
	return f->text + start;
}

const char *perfev_sources__path(struct perfev_sources *s, struct perfev_dso *d, const char *file)
{
	struct src_file *f = found(s, d, file);

	return f ? f->path : NULL;
}

const char *perfev_sources__error(struct perfev_sources *s, struct perfev_dso *d, const char *file)
{
	struct src_file *f;

	if (!s || !file || !*file)
		return "no source file named";
	f = file_get(s, d, file);
	if (!f)
		return "no memory to look for the source file";
	return f->text ? NULL : f->error ? f->error : "source file not found (and no memory to say why)";
}

int perfev_sources__nr_lines(struct perfev_sources *s, struct perfev_dso *d, const char *file)
{
	struct src_file *f = found(s, d, file);

	if (!f)
		return -errno;
	return f->nr_lines > INT32_MAX ? INT32_MAX : (int)f->nr_lines;
}
