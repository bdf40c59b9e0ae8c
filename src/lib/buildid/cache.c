/* SPDX-License-Identifier: MIT */
/*
 * The build-id cache in Linux perf's layout (see perfev/buildid_cache.h).
 * Files appear whole or not at all: each is linked or copied to a
 * temporary name in its entry and renamed into place, and so is the
 * .build-id link, so a reader (perf's or ours) running meanwhile sees the
 * old state or the new.  Trimming follows only links that stay inside the
 * cache: whatever a link says, nothing outside it is ever removed.
 */
#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/internal.h"
#include "perfev/buildid_cache.h"
#include "perfev/synth.h"
#include "buildid/buildid_int.h"

#define HEX_MAX (2 * BUILD_ID_MAX + 1)

/* An absolute path whose components are all real names (no "", ".", ".."). */
static bool path_ok(const char *p)
{
	if (p[0] != '/')
		return false;
	for (const char *c = p + 1;;) {
		size_t n = strcspn(c, "/");

		if (!n || (n == 1 && c[0] == '.') || (n == 2 && c[0] == '.' && c[1] == '.'))
			return false;
		if (!c[n])
			return true;
		c += n + 1;
	}
}

/* mkdir -p of the first len bytes of path. */
static int mkdirs(const char *path, size_t len)
{
	char buf[PATH_MAX];

	if (len >= sizeof(buf))
		return -ENAMETOOLONG;
	memcpy(buf, path, len);
	buf[len] = 0;
	for (size_t i = 1; i <= len; i++) {
		if (i < len && buf[i] != '/')
			continue;
		buf[i] = 0;
		if (mkdir(buf, 0755) < 0 && errno != EEXIST)
			return -errno;
		if (i < len)
			buf[i] = '/';
	}
	return 0;
}

static int copy_file(const char *from, const char *to)
{
	char buf[1 << 16];
	struct stat st;
	int in, out, err = 0;

	in = open(from, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (in < 0)
		return -errno;
	if (fstat(in, &st) < 0) {
		err = -errno;
		close(in);
		return err;
	}
	out = open(to, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, (st.st_mode & 0777) | 0400);
	if (out < 0) {
		err = -errno;
		close(in);
		return err;
	}
	for (;;) {
		ssize_t n = read(in, buf, sizeof(buf)), w = 0;

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (n < 0)
				err = -errno;
			break;
		}
		while (w < n) {
			ssize_t k = write(out, buf + w, (size_t)(n - w));

			if (k < 0 && errno == EINTR)
				continue;
			if (k < 0) {
				err = -errno;
				break;
			}
			w += k;
		}
		if (err)
			break;
	}
	if (close(out) < 0 && !err)
		err = -errno;
	close(in);
	if (err)
		unlink(to);
	return err;
}

/* The entry's file leaf: a hard link to path (as perf makes it), else a copy; renamed into place. */
static int put_file(const char *path, const char *entry, const char *leaf)
{
	char elf[PATH_MAX], tmp[PATH_MAX];
	int n, err;

	n = snprintf(tmp, sizeof(tmp), "%s/.%s.%d", entry, leaf, (int)getpid());
	if (n < 0 || (size_t)n >= sizeof(tmp) ||
	    (size_t)snprintf(elf, sizeof(elf), "%s/%s", entry, leaf) >= sizeof(elf))
		return -ENAMETOOLONG;
	unlink(tmp);
	if (link(path, tmp) < 0) {
		err = copy_file(path, tmp);
		if (err)
			return err;
	}
	if (rename(tmp, elf) < 0) {
		err = -errno;
		unlink(tmp);
		return err;
	}
	return 0;
}

/* DIR/.build-id/xx/rest -> ../../PATH/HEX, replacing whatever was there. */
static int put_link(const char *dir, const char *path, const char *hex)
{
	char lnk[PATH_MAX], target[PATH_MAX], tmp[PATH_MAX], cur[PATH_MAX];
	ssize_t len;
	int n, err;

	n = snprintf(lnk, sizeof(lnk), "%s/.build-id/%.2s/%s", dir, hex, hex + 2);
	if (n < 0 || (size_t)n >= sizeof(lnk) ||
	    (size_t)snprintf(target, sizeof(target), "../..%s/%s", path, hex) >= sizeof(target) ||
	    (size_t)snprintf(tmp, sizeof(tmp), "%s.%d", lnk, (int)getpid()) >= sizeof(tmp))
		return -ENAMETOOLONG;
	len = readlink(lnk, cur, sizeof(cur) - 1);
	if (len >= 0) {
		cur[len] = 0;
		if (!strcmp(cur, target))
			return 0;
	}
	err = mkdirs(lnk, strlen(lnk) - strlen(hex + 2) - 1);
	if (err)
		return err;
	unlink(tmp);
	if (symlink(target, tmp) < 0)
		return -errno;
	if (rename(tmp, lnk) < 0) {
		err = -errno;
		unlink(tmp);
		return err;
	}
	return 0;
}

int build_id_cache__mkdirs(const char *path)
{
	return mkdirs(path, strlen(path));
}

int build_id_cache__link(const char *dir, const char *path, const char *hex)
{
	return put_link(dir, path, hex);
}

static bool has_build_id(const char *path, const uint8_t *id, size_t id_size)
{
	uint8_t have[BUILD_ID_MAX];
	int n = perfev_build_id__read(path, have, sizeof(have));

	return n > 0 && build_id__trim(have, (size_t)n) == id_size && !memcmp(have, id, id_size);
}

int perfev_buildid_cache__add(const char *dir, const char *path, const uint8_t *id,
			      size_t id_size)
{
	char hex[HEX_MAX], entry[PATH_MAX], elf[PATH_MAX];
	uint8_t have[BUILD_ID_MAX];
	int n, err;

	if (!dir || !*dir || !path || !id || !id_size || id_size > BUILD_ID_MAX)
		return set_error(EINVAL, "build-id cache: no directory, file or build id given");
	if (!path_ok(path))
		return set_error(EINVAL, "build-id cache: '%s' is not an absolute path of plain "
				 "names, so it cannot name an entry", path);
	id_size = build_id__trim(id, id_size);
	build_id__hex(id, id_size, hex);
	n = snprintf(entry, sizeof(entry), "%s%s/%s", dir, path, hex);
	if (n < 0 || (size_t)n >= sizeof(entry) ||
	    (size_t)snprintf(elf, sizeof(elf), "%s/elf", entry) >= sizeof(elf))
		return set_error(ENAMETOOLONG, "build-id cache: %s%s: path too long", dir, path);

	if (has_build_id(elf, id, id_size)) {
		/* There already: younger now, and its link made sure of. */
		utimensat(AT_FDCWD, entry, NULL, 0);
		err = put_link(dir, path, hex);
		if (err)
			return set_error(-err, "build-id cache: cannot link %s/.build-id/%.2s/%s: %s",
					 dir, hex, hex + 2, strerror(-err));
		return 0;
	}
	n = perfev_build_id__read(path, have, sizeof(have));
	if (n < 0)
		return n; /* the error names the file */
	if (build_id__trim(have, (size_t)n) != id_size || memcmp(have, id, id_size)) {
		char now[HEX_MAX];

		build_id__hex(have, build_id__trim(have, (size_t)n), now);
		return set_error(ESTALE, "build-id cache: %s now has build id %s, not the %s it was "
				 "recorded with (rebuilt meanwhile), so it is not kept", path, now,
				 hex);
	}
	err = mkdirs(entry, strlen(entry));
	if (!err)
		err = put_file(path, entry, "elf");
	if (err)
		return set_error(-err, "build-id cache: cannot keep %s in %s: %s", path, entry,
				 strerror(-err));
	err = put_link(dir, path, hex);
	if (err)
		return set_error(-err, "build-id cache: cannot link %s/.build-id/%.2s/%s: %s", dir,
				 hex, hex + 2, strerror(-err));
	return 1;
}

int perfev_buildid_cache__add_debug(const char *dir, const char *path, const uint8_t *id,
				    size_t id_size, const char *debug_file)
{
	char hex[HEX_MAX], entry[PATH_MAX], dbg[PATH_MAX];
	uint8_t have[BUILD_ID_MAX];
	int n, err;

	if (!dir || !*dir || !path || !id || !id_size || id_size > BUILD_ID_MAX || !debug_file)
		return set_error(EINVAL, "build-id cache: no directory, file, build id or debug "
				 "file given");
	if (!path_ok(path))
		return set_error(EINVAL, "build-id cache: '%s' is not an absolute path of plain "
				 "names, so it cannot name an entry", path);
	id_size = build_id__trim(id, id_size);
	build_id__hex(id, id_size, hex);
	n = snprintf(entry, sizeof(entry), "%s%s/%s", dir, path, hex);
	if (n < 0 || (size_t)n >= sizeof(entry) ||
	    (size_t)snprintf(dbg, sizeof(dbg), "%s/debug", entry) >= sizeof(dbg))
		return set_error(ENAMETOOLONG, "build-id cache: %s%s: path too long", dir, path);
	if (access(entry, F_OK) < 0)
		return set_error(ENOENT, "build-id cache: no entry %s for the debug file %s", entry,
				 debug_file);
	if (has_build_id(dbg, id, id_size))
		return 0;
	/* A debug file found by .gnu_debuglink may carry no build id (its CRC matched): kept too. */
	n = perfev_build_id__read(debug_file, have, sizeof(have));
	if (n > 0 && (build_id__trim(have, (size_t)n) != id_size || memcmp(have, id, id_size)))
		return set_error(ESTALE, "build-id cache: %s has another build id than %s", debug_file,
				 path);
	err = put_file(debug_file, entry, "debug");
	if (err)
		return set_error(-err, "build-id cache: cannot keep %s in %s: %s", debug_file, entry,
				 strerror(-err));
	return 1;
}

/* ---- trimming ---- */

struct entry {
	char *lnk;  /* DIR/.build-id/xx/rest */
	char *path; /* the entry's directory */
	int64_t mtime;
	uint64_t bytes;
};

/*
 * The entry a link names, when its target is ../../NAME/.../HEX with plain
 * names only, so it stays inside the cache.
 */
static char *entry_of(const char *dir, const char *target)
{
	char *p;

	if (strncmp(target, "../../", 6) || !path_ok(target + 5))
		return NULL;
	if (asprintf(&p, "%s%s", dir, target + 5) < 0)
		return NULL;
	return p;
}

/* The bytes of the regular files directly in an entry's directory; false when it is none. */
static bool entry_size(const char *path, uint64_t *bytes, int64_t *mtime)
{
	struct stat st;
	struct dirent *de;
	DIR *d;

	if (lstat(path, &st) < 0 || !S_ISDIR(st.st_mode))
		return false;
	*mtime = (int64_t)st.st_mtime;
	*bytes = 0;
	d = opendir(path);
	if (!d)
		return false;
	while ((de = readdir(d))) {
		if (fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
		    S_ISREG(st.st_mode))
			*bytes += (uint64_t)st.st_size;
	}
	closedir(d);
	return true;
}

static void remove_entry(const char *dir, const struct entry *e)
{
	struct dirent *de;
	DIR *d = opendir(e->path);
	size_t top = strlen(dir);
	char *p, *slash;

	if (d) {
		while ((de = readdir(d))) {
			struct stat st;

			if (fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
			    !S_ISDIR(st.st_mode))
				unlinkat(dirfd(d), de->d_name, 0);
		}
		closedir(d);
	}
	unlink(e->lnk);
	/* The entry, then its parents while empty, up to the cache itself. */
	p = strdup(e->path);
	while (p && strlen(p) > top && !rmdir(p) && (slash = strrchr(p, '/')))
		*slash = 0;
	free(p);
	p = strdup(e->lnk);
	if (p && (slash = strrchr(p, '/'))) {
		*slash = 0;
		rmdir(p);
	}
	free(p);
}

static int cmp_age(const void *a, const void *b)
{
	const struct entry *x = a, *y = b;

	if (x->mtime != y->mtime)
		return x->mtime < y->mtime ? -1 : 1;
	return strcmp(x->path, y->path);
}

/* Every entry reached from DIR/.build-id into *out; 0 or -errno. */
static int list_entries(const char *dir, struct entry **out, size_t *nr)
{
	char top[PATH_MAX];
	struct dirent *de;
	struct entry *v = NULL;
	size_t n = 0, cap = 0;
	DIR *d;

	if ((size_t)snprintf(top, sizeof(top), "%s/.build-id", dir) >= sizeof(top))
		return -ENAMETOOLONG;
	d = opendir(top);
	if (!d)
		return errno == ENOENT ? 0 : -errno;
	while ((de = readdir(d))) {
		struct dirent *le;
		char sub[PATH_MAX];
		DIR *s;

		if (strlen(de->d_name) != 2 || de->d_name[0] == '.')
			continue;
		if ((size_t)snprintf(sub, sizeof(sub), "%s/%s", top, de->d_name) >= sizeof(sub) ||
		    !(s = opendir(sub)))
			continue;
		while ((le = readdir(s))) {
			char lnk[PATH_MAX], target[PATH_MAX];
			struct entry e = { 0 };
			ssize_t len;

			if (le->d_name[0] == '.' ||
			    (size_t)snprintf(lnk, sizeof(lnk), "%s/%s", sub, le->d_name) >= sizeof(lnk))
				continue;
			len = readlink(lnk, target, sizeof(target) - 1);
			if (len < 0)
				continue;
			target[len] = 0;
			e.path = entry_of(dir, target);
			if (!e.path || !entry_size(e.path, &e.bytes, &e.mtime) ||
			    !array_grow((void **)&v, &cap, n + 1, sizeof(*v)) ||
			    !(e.lnk = strdup(lnk))) {
				free(e.path);
				continue;
			}
			v[n++] = e;
		}
		closedir(s);
	}
	closedir(d);
	*out = v;
	*nr = n;
	return 0;
}

int perfev_buildid_cache__trim(const char *dir, uint64_t max_bytes, int64_t keep_since,
			       struct perfev_buildid_cache_usage *usage)
{
	struct perfev_buildid_cache_usage u = { 0 };
	struct entry *v = NULL;
	size_t n = 0;
	int err;

	if (!dir || !*dir)
		return set_error(EINVAL, "build-id cache: no directory given");
	err = list_entries(dir, &v, &n);
	if (err)
		return set_error(-err, "build-id cache: cannot read %s/.build-id: %s", dir,
				 strerror(-err));
	sort_array(v, n, sizeof(*v), cmp_age);
	for (size_t i = 0; i < n; i++)
		u.bytes += v[i].bytes;
	u.entries = n;
	/* Two links to one entry (perf's older layouts) would count it twice: sizes are estimates. */
	for (size_t i = 0; i < n && u.bytes > max_bytes; i++) {
		if (keep_since && v[i].mtime >= keep_since)
			break;
		remove_entry(dir, &v[i]);
		u.bytes -= v[i].bytes;
		u.freed += v[i].bytes;
		u.removed++;
		u.entries--;
	}
	for (size_t i = 0; i < n; i++) {
		free(v[i].lnk);
		free(v[i].path);
	}
	free(v);
	if (usage)
		*usage = u;
	return 0;
}
