/* SPDX-License-Identifier: MIT */
/*
 * Libraries opened at their first use rather than when perfev starts:
 * Capstone's and libpfm4's tables take 118,000 relocations and 650 page
 * faults to load, 10 ms that every perfev command paid before it did
 * anything, though only annotate disassembles and only some event names
 * go to libpfm4.  A library that cannot be opened makes only its own
 * feature fail, with a message naming the package to install.
 */
#ifndef PERFEV_UTIL_DYNLIB_H
#define PERFEV_UTIL_DYNLIB_H

#include <pthread.h>
#include <stdbool.h>

struct dynlib {
	const char *soname;  /* as dlopen() takes it: "libcapstone.so.4" */
	const char *package; /* Debian's package that has it */
	const char *use;     /* what it is needed for: "disassembling code" */
	/* Looks up the library's functions in the handle; false when one is missing. */
	bool (*bind)(void *handle);
	pthread_mutex_t lock;
	int state; /* 0: not tried; 1: ready; -1: failed, why says why */
	char why[384];
};

#define DYNLIB_INIT(soname, package, use, bind) \
	{ (soname), (package), (use), (bind), PTHREAD_MUTEX_INITIALIZER, 0, "" }

/* Opens dl once; true when its functions are bound, else false with the reason set (set_error). */
bool dynlib_ready(struct dynlib *dl);
/* The function called name in a handle bind() was given, or NULL. */
void (*dynlib_sym(void *handle, const char *name))(void);

#endif
