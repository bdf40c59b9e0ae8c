/* SPDX-License-Identifier: MIT */
/*
 * Where the build-id cache is, as perf finds it, so both tools share one:
 * $PERFEV_BUILDID_DIR, else perf's configuration (buildid.dir in the file
 * $PERF_CONFIG names, else ~/.perfconfig, else /etc/perfconfig), else
 * $HOME/.debug.  And how big it may grow: $PERFEV_BUILDID_CACHE_SIZE.
 * perfev's own cache of parsed symbol tables: $PERFEV_CACHE_DIR, else
 * $XDG_CACHE_HOME/perfev, else $HOME/.cache/perfev.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static char *trim(char *s)
{
	char *e;

	while (isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = 0;
	return s;
}

/*
 * The value of buildid.dir in a git-style configuration file ("[buildid]"
 * then "dir = PATH"), the last one given; false when the file has none.
 */
static bool config_dir(const char *file, char *out, size_t size)
{
	char line[4096], section[64] = "";
	bool found = false;
	FILE *f = fopen(file, "re");

	if (!f)
		return false;
	while (fgets(line, sizeof(line), f)) {
		char *s = trim(line), *eq, *key, *val;
		size_t n;

		if (!*s || *s == '#' || *s == ';')
			continue;
		if (*s == '[') {
			n = strcspn(s + 1, "] \t\"");
			snprintf(section, sizeof(section), "%.*s", (int)n, s + 1);
			continue;
		}
		eq = strchr(s, '=');
		if (!eq || strcasecmp(section, "buildid"))
			continue;
		*eq = 0;
		key = trim(s);
		val = trim(eq + 1);
		n = strlen(val);
		if (n >= 2 && val[0] == '"' && val[n - 1] == '"') {
			val[n - 1] = 0;
			val++;
		}
		if (!strcasecmp(key, "dir") && *val && strlen(val) < size) {
			strcpy(out, val);
			found = true;
		}
	}
	fclose(f);
	return found;
}

const char *cli_buildid_dir(void)
{
	static char dir[4096];
	static bool done;
	const char *env = getenv("PERFEV_BUILDID_DIR"), *home = getenv("HOME");
	const char *cfg = getenv("PERF_CONFIG");
	char user[4096];

	if (done)
		return dir;
	done = true;
	if (env && *env) {
		snprintf(dir, sizeof(dir), "%s", env);
		return dir;
	}
	/* perf reads the user's file over /etc/perfconfig; PERF_CONFIG replaces both. */
	if (cfg) {
		if (*cfg && config_dir(cfg, dir, sizeof(dir)))
			return dir;
	} else if ((home && *home &&
		    (size_t)snprintf(user, sizeof(user), "%s/.perfconfig", home) < sizeof(user) &&
		    config_dir(user, dir, sizeof(dir))) ||
		   config_dir("/etc/perfconfig", dir, sizeof(dir))) {
		return dir;
	}
	if (home && *home)
		snprintf(dir, sizeof(dir), "%s/.debug", home);
	return dir;
}

uint64_t cli_buildid_cache_max(void)
{
	const char *env = getenv("PERFEV_BUILDID_CACHE_SIZE");
	unsigned long long v;
	char *end;

	if (!env || !*env)
		return CLI_BUILDID_CACHE_MAX;
	errno = 0;
	v = strtoull(env, &end, 10);
	if (errno || end == env || v > (1ull << 34))
		goto bad;
	switch (*end) {
	case 0: return v;
	case 'K': case 'k': v <<= 10; break;
	case 'M': case 'm': v <<= 20; break;
	case 'G': case 'g': v <<= 30; break;
	default: goto bad;
	}
	if (end[1] && strcmp(end + 1, "B") && strcmp(end + 1, "iB"))
		goto bad;
	return v;
bad:
	cli_note("PERFEV_BUILDID_CACHE_SIZE is '%s', not a size such as 500M or 2G; using the "
		 "default of %llu MiB",
		 env, (unsigned long long)(CLI_BUILDID_CACHE_MAX >> 20));
	return CLI_BUILDID_CACHE_MAX;
}

const char *cli_cache_dir(void)
{
	static char dir[4096];
	static bool done;
	const char *env = getenv("PERFEV_CACHE_DIR"), *xdg = getenv("XDG_CACHE_HOME");
	const char *home = getenv("HOME");

	if (done)
		return dir;
	done = true;
	/* Set but empty: no cache. */
	if (env)
		snprintf(dir, sizeof(dir), "%s", env);
	else if (xdg && *xdg == '/')
		snprintf(dir, sizeof(dir), "%s/perfev", xdg);
	else if (home && *home)
		snprintf(dir, sizeof(dir), "%s/.cache/perfev", home);
	return dir;
}
