/* SPDX-License-Identifier: MIT */
/*
 * Debug files whose DWARF sections are compressed (Debian's libc6-dbg and
 * most of /usr/lib/debug) cost an inflate of every section each time libdw
 * opens them, often more than the annotation itself.  Beside the symbol
 * tables, the cache keeps a copy with those sections decompressed, made the
 * first time and named by what determines its content: the file's path,
 * device, inode, size and modification time.  libdw reads the copy as it
 * would the file (its bytes as untrusted: libdw checks them); a copy that
 * cannot be made or opened leaves the file read as it is.
 */
#include <fcntl.h>
#include <gelf.h>
#include <inttypes.h>
#include <libelf.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/internal.h"
#include "util/idxhash.h"
#include "symbols/symbols_int.h"

/* Whether elf has a section compressed the gABI way (SHF_COMPRESSED). */
static bool has_compressed(Elf *elf)
{
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;

		if (gelf_getshdr(scn, &sh) && (sh.sh_flags & SHF_COMPRESSED) && sh.sh_type != SHT_NOBITS)
			return true;
	}
	return false;
}

static bool copy_fd(int in, int out)
{
	char buf[1 << 16];
	ssize_t n;

	if (lseek(in, 0, SEEK_SET) < 0)
		return false;
	while ((n = read(in, buf, sizeof(buf))) > 0)
		for (ssize_t done = 0; done < n;) {
			ssize_t w = write(out, buf + done, (size_t)(n - done));

			if (w <= 0)
				return false;
			done += w;
		}
	return n == 0;
}

/* Writes the decompressed copy of in to tmp; false when it cannot (tmp then removed). */
static bool write_copy(int in, const char *tmp)
{
	int fd = open(tmp, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	Elf *elf = NULL;
	Elf_Scn *scn = NULL;
	bool ok;

	if (fd < 0)
		return false;
	ok = copy_fd(in, fd) && (elf = elf_begin(fd, ELF_C_RDWR, NULL)) != NULL;
	while (ok && (scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;

		if (!gelf_getshdr(scn, &sh))
			ok = false;
		else if ((sh.sh_flags & SHF_COMPRESSED) && sh.sh_type != SHT_NOBITS)
			ok = elf_compress(scn, 0, 0) >= 0;
	}
	if (ok)
		ok = elf_update(elf, ELF_C_WRITE) >= 0;
	if (elf)
		elf_end(elf);
	if (close(fd) < 0)
		ok = false;
	if (!ok)
		unlink(tmp);
	return ok;
}

int dwarfcache__open(const struct perfev_dso *d, const char *path)
{
	char key[64], cached[PATH_MAX], tmp[PATH_MAX + 32], *slash;
	struct stat st, cst;
	uint64_t h;
	int fd, cfd;
	Elf *elf;
	bool compressed;

	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0)
		return -1;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode))
		goto plain;
	h = hash_mix(hash_mix((uint64_t)st.st_dev, (uint64_t)st.st_ino),
		     hash_mix((uint64_t)st.st_size, (uint64_t)st.st_mtim.tv_sec * 1000000000u +
							  (uint64_t)st.st_mtim.tv_nsec));
	for (const char *p = path; *p; p++)
		h = hash_mix(h, (uint8_t)*p);
	snprintf(key, sizeof(key), "dwarf-%016" PRIx64, h);
	if (!symcache__path(d, key, cached, sizeof(cached)))
		goto plain;
	cfd = open(cached, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (cfd >= 0) {
		if (!fstat(cfd, &cst) && S_ISREG(cst.st_mode) && cst.st_uid == geteuid()) {
			close(fd);
			return cfd;
		}
		close(cfd);
		goto plain;
	}
	elf_version(EV_CURRENT);
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	compressed = elf && has_compressed(elf);
	if (elf)
		elf_end(elf);
	if (!compressed)
		goto plain;
	slash = strrchr(cached, '/');
	*slash = 0;
	if (symcache__mkdir(cached) < 0)
		goto plain;
	*slash = '/';
	snprintf(tmp, sizeof(tmp), "%s.%d.tmp", cached, (int)getpid());
	if (!write_copy(fd, tmp) || rename(tmp, cached) < 0) {
		unlink(tmp);
		goto plain;
	}
	*slash = 0;
	symcache__trim(cached);
	*slash = '/';
	cfd = open(cached, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (cfd < 0)
		goto plain;
	pr_debug("symbols: %s: DWARF kept decompressed in %s\n", path, cached);
	close(fd);
	return cfd;
plain:
	close(fd);
	return -1;
}
