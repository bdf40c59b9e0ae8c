/* SPDX-License-Identifier: MIT */
/*
 * The machine code of a DSO, for disassembly: the bytes of an address
 * range from the file whose build id the recording saw.  Never from a
 * separate debug file (its code sections are SHT_NOBITS), never from a
 * file rebuilt since (dso.c refused it, and its error says so).  The file
 * is untrusted: the section holding the range is found by its header, and
 * libelf's section data, which it has checked lies within the file, is
 * the only thing copied from.
 */
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/internal.h"
#include "perfev/synth.h"
#include "symbols/symbols_int.h"

/* Copies [start, start + want) from the allocated section of elf holding start. */
static int copy_range(Elf *elf, const char *name, uint64_t start, uint64_t want,
		      struct dso_code *out)
{
	Elf_Scn *scn = NULL;
	GElf_Ehdr eh;

	if (!gelf_getehdr(elf, &eh))
		return set_error(PERFEV_ERR_FORMAT, "%s: unreadable ELF header: %s", name,
				 elf_errmsg(-1));
	out->machine = eh.e_machine;
	out->big_endian = eh.e_ident[EI_DATA] == ELFDATA2MSB;
	out->elf_class = eh.e_ident[EI_CLASS];
	while ((scn = elf_nextscn(elf, scn))) {
		Elf_Data *data;
		GElf_Shdr sh;
		uint64_t skip, n;

		if (!gelf_getshdr(scn, &sh) || !(sh.sh_flags & SHF_ALLOC) || sh.sh_type == SHT_NOBITS)
			continue;
		if (start < sh.sh_addr || start - sh.sh_addr >= sh.sh_size)
			continue;
		data = elf_rawdata(scn, NULL);
		skip = start - sh.sh_addr;
		/* libelf bounds d_size by the file; sh_size alone could lie. */
		if (!data || !data->d_buf || skip >= data->d_size)
			return set_error(PERFEV_ERR_FORMAT, "%s: the section holding %#llx has no bytes "
					 "in the file (truncated?)", name, (unsigned long long)start);
		n = data->d_size - skip < want ? data->d_size - skip : want;
		out->bytes = malloc(n ? n : 1);
		if (!out->bytes)
			return set_error(ENOMEM, "no memory for %llu bytes of code",
					 (unsigned long long)n);
		memcpy(out->bytes, (const char *)data->d_buf + skip, n);
		out->len = n;
		out->addr = start;
		return 0;
	}
	return set_error(ENOENT, "%s: no section of the file holds address %#llx, so there is "
			 "no code to show there", name, (unsigned long long)start);
}

static int code_from_file(const char *path, uint64_t start, uint64_t want, struct dso_code *out)
{
	struct stat st;
	int fd, err;
	Elf *elf;

	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0)
		return set_error(errno, "%s: cannot open it to read its code: %s", path,
				 strerror(errno));
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return set_error(EINVAL, "%s: not a regular file", path);
	}
	elf_version(EV_CURRENT);
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!elf) {
		close(fd);
		return set_error(PERFEV_ERR_FORMAT, "%s: libelf cannot read it: %s", path,
				 elf_errmsg(-1));
	}
	err = elf_kind(elf) == ELF_K_ELF ? copy_range(elf, path, start, want, out)
					  : set_error(PERFEV_ERR_FORMAT, "%s: not an ELF file", path);
	elf_end(elf);
	close(fd);
	return err;
}

int dso__read_code(struct perfev_dso *d, uint64_t start, uint64_t end, size_t max,
		   struct dso_code *out)
{
	memset(out, 0, sizeof(*out));
	if (!d || end <= start)
		return set_error(EINVAL, "no code range to read (start %#llx, end %#llx)",
				 (unsigned long long)start, (unsigned long long)end);
	if (end - start > max)
		return set_error(E2BIG, "%s: %llu bytes from %#llx is more code than one annotation "
				 "shows (at most %zu); give a smaller range",
				 d->name, (unsigned long long)(end - start), (unsigned long long)start,
				 max);
	dso__load(d);
	switch (d->kind) {
	case DSO_KERNEL:
		return set_error(ENOENT, "%s: kernel code is not read (perfev reads neither vmlinux "
				 "nor /proc/kcore), so kernel functions are not annotated", d->name);
	case DSO_JIT:
		return set_error(ENOENT, "%s: JIT-compiled code lived only in its process's memory, "
				 "so it cannot be disassembled now", d->name);
	case DSO_NONE:
		return set_error(ENOENT, "%s: not a file, so there is no code to read", d->name);
	case DSO_MEMORY:
		if (!d->dwarf_elf)
			return set_error(PERFEV_ERR_FORMAT, "%s: %s", d->name,
					 d->error ? d->error : "unreadable image");
		return copy_range(d->dwarf_elf, d->name, start, end - start, out);
	case DSO_FILE:
		break;
	}
	if (!d->elf_file && d->image && d->dwarf_elf)
		return copy_range(d->dwarf_elf, d->name, start, end - start, out); /* own vDSO */
	if (!d->elf_file)
		/* The loader said why: not found, or rebuilt since the recording. */
		return set_error(ENOENT, "%s", d->error ? d->error : "no file to read the code from");
	return code_from_file(d->elf_file, start, end - start, out);
}

int dso__build_id(struct perfev_dso *d, uint8_t *id, size_t size)
{
	int n;

	if (d->build_id_size) {
		size_t len = d->build_id_size < size ? d->build_id_size : size;

		memcpy(id, d->build_id, len);
		/* perf pads a 16-byte (MD5) id to 20 bytes: debuginfod wants the id itself. */
		if (len == BUILD_ID_MAX && !id[16] && !id[17] && !id[18] && !id[19])
			len = 16;
		return (int)len;
	}
	dso__load(d);
	if (d->kind != DSO_FILE || !d->elf_file)
		return -ENOENT;
	n = perfev_build_id__read(d->elf_file, id, size);
	return n > 0 ? n : -ENOENT;
}
