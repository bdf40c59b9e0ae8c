// SPDX-License-Identifier: MIT
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>

#include "util/internal.h"
#include "util/dynlib.h"

void (*dynlib_sym(void *handle, const char *name))(void)
{
	void (*fn)(void);

	/* dlsym() gives an object pointer; POSIX lets it be read as a function's. */
	*(void **)&fn = dlsym(handle, name);
	return fn;
}

bool dynlib_ready(struct dynlib *dl)
{
	bool ok;

	pthread_mutex_lock(&dl->lock);
	if (!dl->state) {
		void *h = dlopen(dl->soname, RTLD_NOW | RTLD_LOCAL);

		if (!h) {
			const char *e = dlerror();

			snprintf(dl->why, sizeof(dl->why), "%s needs %s, which cannot be loaded (%s); "
				 "install it (Debian's package %s)", dl->use, dl->soname,
				 e ? e : "not found", dl->package);
			dl->state = -1;
		} else if (!dl->bind(h)) {
			snprintf(dl->why, sizeof(dl->why), "%s needs %s, and the one found lacks a "
				 "function perfev calls; install Debian's package %s", dl->use,
				 dl->soname, dl->package);
			dlclose(h);
			dl->state = -1;
		} else {
			dl->state = 1; /* kept open for the process's life */
		}
	}
	ok = dl->state > 0;
	pthread_mutex_unlock(&dl->lock);
	if (!ok)
		set_error(ENOENT, "%s", dl->why);
	return ok;
}
