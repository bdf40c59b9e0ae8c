/* SPDX-License-Identifier: MIT */
/* Syscall names by number, from the table of the recording's architecture. */
#include <errno.h>
#include <string.h>
#include <sys/utsname.h>

#include "util/internal.h"
#include "syscalls/syscalls_int.h"

/* What uname -m and perf's HEADER_ARCH say, into the name of a table. */
static const char *table_arch(const char *arch)
{
	static const struct {
		const char *name, *table;
	} aliases[] = {
		{ "amd64", "x86_64" },	 { "x86", "i386" },	 { "i486", "i386" },
		{ "i586", "i386" },	 { "i686", "i386" },	 { "arm64", "aarch64" },
		/* The asm-generic architectures share arm64's numbers. */
		{ "riscv64", "aarch64" }, { "loongarch64", "aarch64" },
	};
	static struct utsname uts;

	if (!arch) {
		if (!uts.machine[0] && uname(&uts) < 0)
			return "";
		arch = uts.machine;
	}
	for (size_t i = 0; i < ARRAY_SIZE(aliases); i++)
		if (!strcmp(arch, aliases[i].name))
			return aliases[i].table;
	return arch;
}

static const struct syscall_table *find_table(const char *arch)
{
	const char *name = table_arch(arch);

	for (size_t i = 0; i < nr_syscall_tables; i++)
		if (!strcmp(syscall_tables[i].arch, name))
			return &syscall_tables[i];
	return NULL;
}

bool perfev_syscall__have_arch(const char *arch)
{
	return find_table(arch) != NULL;
}

const char *perfev_syscall__name(const char *arch, long nr)
{
	const struct syscall_table *t = find_table(arch);

	if (!t || nr < 0 || (size_t)nr >= t->nr)
		return NULL;
	return t->names[nr];
}

long perfev_syscall__nr(const char *arch, const char *name)
{
	const struct syscall_table *t = find_table(arch);

	if (!t)
		return set_error(EOPNOTSUPP, "no syscall table for architecture '%s'",
				 table_arch(arch));
	if (name)
		for (size_t i = 0; i < t->nr; i++)
			if (t->names[i] && !strcmp(t->names[i], name))
				return (long)i;
	return set_error(ENOENT, "no syscall '%s' on %s", name ? name : "", t->arch);
}
