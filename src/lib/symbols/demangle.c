/* SPDX-License-Identifier: MIT */
/*
 * C++ and Rust names through libiberty's demangler, the one binutils (nm
 * -C, addr2line -C, c++filt) and perf use.  Flags as perf report's: no
 * parameter lists unless asked, and never DMGL_VERBOSE, so Rust names lose
 * their hash suffix (legacy "::h0123...") and crate disambiguators (v0
 * "[abc]"), which c++filt, verbose by default, keeps.
 */
#include <stdlib.h>
#include <string.h>

#include "util/internal.h"
#include "symbols/symbols_int.h"

/* After ours: libiberty's headers define an ARRAY_SIZE of their own. */
#undef ARRAY_SIZE
#include <libiberty/demangle.h>

/* Cheap test first: most symbols of a C program are not mangled at all. */
static bool looks_mangled(const char *name)
{
	return name[0] == '_' && (name[1] == 'Z' || name[1] == 'R');
}

static char *demangle(const char *name, bool params)
{
	if (!looks_mangled(name))
		return NULL;
	return cplus_demangle(name, params ? DMGL_PARAMS | DMGL_ANSI : DMGL_NO_OPTS);
}

int perfev_demangle(const char *name, bool params, char *buf, size_t size)
{
	char *dm;
	size_t len;

	if (!name || (!buf && size))
		return -EINVAL;
	dm = demangle(name, params);
	if (!dm)
		return -EINVAL;
	len = strlen(dm);
	if (len >= size || len > INT32_MAX) {
		free(dm);
		return -ENOSPC;
	}
	memcpy(buf, dm, len + 1);
	free(dm);
	return (int)len;
}

const char *sym__demangle(struct perfev_dso *d, const char *name)
{
	char *dm, *copy;

	/* Before measuring it: most names of a program are not mangled, and a PLT entry's starts so too. */
	if (d->sy->no_demangle || !looks_mangled(name))
		return NULL;
	size_t len = strlen(name), plt = sizeof("@plt") - 1;
	bool is_plt = len > plt && !strcmp(name + len - plt, "@plt");

	/* A PLT entry's name is its symbol's and "@plt" ("operator new@plt", as perf). */
	if (is_plt) {
		char *sym = strndup(name, len - plt);

		dm = sym ? demangle(sym, d->sy->demangle_params) : NULL;
		free(sym);
	} else {
		dm = demangle(name, d->sy->demangle_params);
	}
	if (!dm)
		return NULL;
	size_t dl = strlen(dm);

	copy = arena_alloc(&d->names, dl + (is_plt ? plt : 0) + 1);
	if (copy) {
		memcpy(copy, dm, dl);
		strcpy(copy + dl, is_plt ? "@plt" : "");
	}
	free(dm);
	return copy;
}
