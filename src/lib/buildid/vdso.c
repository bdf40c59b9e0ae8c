/* SPDX-License-Identifier: MIT */
/*
 * The vDSO: code the kernel maps into every process ("[vdso]"), with no
 * file behind it.  A recording names it by build id only, so, as perf
 * does, the recorder keeps the image it has itself (every process of one
 * ABI on one kernel maps the same one) in the build-id cache, as
 * DIR/[vdso]/<build id>/vdso, and a report finds it there, or in its own
 * memory when it runs on a kernel with the same vDSO.
 */
#include <elf.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/internal.h"
#include "perfev/buildid_cache.h"
#include "perfev/synth.h"
#include "buildid/buildid_int.h"

/* A vDSO is a few pages; anything bigger means the headers are not what we think. */
#define VDSO_MAX (1u << 20)

int build_id__vdso_image(const void **img, size_t *len)
{
	const unsigned char *p = (const unsigned char *)(uintptr_t)getauxval(AT_SYSINFO_EHDR);
	Elf64_Ehdr eh;
	uint64_t end;

	if (!p)
		return set_error(ENOENT, "this process has no vDSO (the kernel gave no "
				 "AT_SYSINFO_EHDR)");
	memcpy(&eh, p, sizeof(eh));
	/* Only the ABI perfev runs in: a 64-bit image of the machine's byte order. */
	if (memcmp(eh.e_ident, ELFMAG, SELFMAG) || eh.e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh.e_ehsize < sizeof(eh) || eh.e_shentsize != sizeof(Elf64_Shdr) ||
	    eh.e_phentsize != sizeof(Elf64_Phdr))
		return set_error(PERFEV_ERR_FORMAT, "the vDSO's ELF header is not a 64-bit one");
	/* The image ends with whichever of its tables and segments ends last. */
	end = eh.e_shoff + (uint64_t)eh.e_shnum * eh.e_shentsize;
	if (eh.e_phoff + (uint64_t)eh.e_phnum * eh.e_phentsize > end)
		end = eh.e_phoff + (uint64_t)eh.e_phnum * eh.e_phentsize;
	if (end > VDSO_MAX)
		return set_error(PERFEV_ERR_FORMAT, "the vDSO's headers give it %llu bytes, more "
				 "than a vDSO has", (unsigned long long)end);
	for (unsigned i = 0; i < eh.e_phnum; i++) {
		Elf64_Phdr ph;

		memcpy(&ph, p + eh.e_phoff + (uint64_t)i * sizeof(ph), sizeof(ph));
		if (ph.p_type == PT_LOAD && ph.p_offset + ph.p_filesz > end)
			end = ph.p_offset + ph.p_filesz;
	}
	if (end > VDSO_MAX)
		return set_error(PERFEV_ERR_FORMAT, "the vDSO's segments give it %llu bytes, more "
				 "than a vDSO has", (unsigned long long)end);
	*img = p;
	*len = (size_t)end;
	return 0;
}

int perfev_build_id__vdso(uint8_t *id, size_t size)
{
	const void *img;
	size_t len;
	int err;

	if (!id)
		return set_error(EINVAL, "build id: no output given");
	err = build_id__vdso_image(&img, &len);
	return err ? err : perfev_build_id__from_mem(img, len, id, size);
}

bool build_id__vdso_matches(const uint8_t *id, size_t id_size)
{
	uint8_t have[BUILD_ID_MAX];
	int n = perfev_build_id__vdso(have, sizeof(have));

	return n > 0 && build_id__trim(have, (size_t)n) == build_id__trim(id, id_size) &&
	       !memcmp(have, id, build_id__trim(id, id_size));
}

/* DIR/[vdso]/HEX/vdso from len bytes at img: written to a temporary name, renamed into place. */
static int put_image(const char *entry, const void *img, size_t len)
{
	char file[PATH_MAX], tmp[PATH_MAX];
	int fd, err = 0;
	int n = snprintf(tmp, sizeof(tmp), "%s/.vdso.%d", entry, (int)getpid());

	if (n < 0 || (size_t)n >= sizeof(tmp) ||
	    (size_t)snprintf(file, sizeof(file), "%s/vdso", entry) >= sizeof(file))
		return -ENAMETOOLONG;
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return -errno;
	for (size_t done = 0; done < len;) {
		ssize_t k = write(fd, (const char *)img + done, len - done);

		if (k < 0) {
			if (errno == EINTR)
				continue;
			err = -errno;
			break;
		}
		done += (size_t)k;
	}
	if (close(fd) < 0 && !err)
		err = -errno;
	if (!err && rename(tmp, file) < 0)
		err = -errno;
	if (err)
		unlink(tmp);
	return err;
}

int perfev_buildid_cache__add_vdso(const char *dir, const uint8_t *id, size_t id_size)
{
	char hex[2 * BUILD_ID_MAX + 1], entry[PATH_MAX], file[PATH_MAX];
	uint8_t have[BUILD_ID_MAX];
	const void *img;
	size_t len;
	int n, err;

	if (!dir || !*dir || !id || !id_size || id_size > BUILD_ID_MAX)
		return set_error(EINVAL, "build-id cache: no directory or build id given");
	id_size = build_id__trim(id, id_size);
	build_id__hex(id, id_size, hex);
	err = build_id__vdso_image(&img, &len);
	if (err)
		return err;
	n = perfev_build_id__from_mem(img, len, have, sizeof(have));
	if (n < 0)
		return n;
	if (build_id__trim(have, (size_t)n) != id_size || memcmp(have, id, id_size)) {
		char mine[2 * BUILD_ID_MAX + 1];

		build_id__hex(have, build_id__trim(have, (size_t)n), mine);
		return set_error(ESTALE, "build-id cache: the vDSO with build id %s is not this "
				 "process's (%s: another kernel or ABI), so it cannot be kept",
				 hex, mine);
	}
	n = snprintf(entry, sizeof(entry), "%s/" BUILD_ID_VDSO_NAME "/%s", dir, hex);
	if (n < 0 || (size_t)n >= sizeof(entry) ||
	    (size_t)snprintf(file, sizeof(file), "%s/vdso", entry) >= sizeof(file))
		return set_error(ENAMETOOLONG, "build-id cache: %s: path too long", dir);
	n = perfev_build_id__read(file, have, sizeof(have));
	if (n > 0 && build_id__trim(have, (size_t)n) == id_size && !memcmp(have, id, id_size)) {
		/* There already: younger now, and its link made sure of. */
		utimensat(AT_FDCWD, entry, NULL, 0);
		err = build_id_cache__link(dir, "/" BUILD_ID_VDSO_NAME, hex);
		return err ? set_error(-err, "build-id cache: cannot link %s/.build-id/%.2s/%s: %s",
				       dir, hex, hex + 2, strerror(-err))
			   : 0;
	}
	err = build_id_cache__mkdirs(entry);
	if (!err)
		err = put_image(entry, img, len);
	if (err)
		return set_error(-err, "build-id cache: cannot keep the vDSO in %s: %s", entry,
				 strerror(-err));
	err = build_id_cache__link(dir, "/" BUILD_ID_VDSO_NAME, hex);
	if (err)
		return set_error(-err, "build-id cache: cannot link %s/.build-id/%.2s/%s: %s", dir,
				 hex, hex + 2, strerror(-err));
	return 1;
}
