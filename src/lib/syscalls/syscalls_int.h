/* SPDX-License-Identifier: MIT */
/* The generated syscall tables (scripts/gen-syscalls.sh) and what names.c makes of them. */
#ifndef PERFEV_SYSCALLS_INT_H
#define PERFEV_SYSCALLS_INT_H

#include <stddef.h>

#include "perfev/syscalls.h"

struct syscall_table {
	const char *arch;
	const char *const *names; /* by number; NULL: no syscall of that number */
	size_t nr;
};

extern const struct syscall_table syscall_tables[];
extern const size_t nr_syscall_tables;

#endif
