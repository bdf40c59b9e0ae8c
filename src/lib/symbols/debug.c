/* SPDX-License-Identifier: MIT */
/*
 * Finding the file with the symbols: build ids (the file at the recorded
 * path may have been rebuilt since), perf's build-id cache, and separate
 * debug files as gdb finds them: DEBUG_DIR/.build-id/xx/rest.debug (or the
 * build-id cache's BUILDID_DIR/.build-id/xx/rest/debug), then
 * the .gnu_debuglink name next to the file, in its .debug/ directory and
 * under DEBUG_DIR/<its directory>.  A debuglink candidate is accepted when
 * its build id equals the file's, or, when either has none, when its
 * CRC-32 is the one the link records.
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

bool build_id__matches(const uint8_t *file_id, size_t file_size, const uint8_t *want,
		       size_t want_size)
{
	if (!file_size || !want_size)
		return false;
	if (file_size == want_size)
		return !memcmp(file_id, want, want_size);
	/* perf.data stores ids in 20-byte slots: a shorter id (md5: 16) comes zero-padded. */
	if (want_size < file_size || memcmp(file_id, want, file_size))
		return false;
	for (size_t i = file_size; i < want_size; i++)
		if (want[i])
			return false;
	return true;
}

bool build_id__path(char *out, size_t size, const char *dir, const uint8_t *id, size_t id_size,
		    const char *suffix)
{
	char hex[2 * BUILD_ID_MAX + 1];
	int n;

	id_size = build_id__trim(id, id_size);
	if (id_size < 2)
		return false;
	build_id__hex(id, id_size, hex);
	n = snprintf(out, size, "%s/.build-id/%.2s/%s%s", dir, hex, hex + 2, suffix);
	return n > 0 && (size_t)n < size;
}

static bool is_regular(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISREG(st.st_mode);
}

bool file__has_build_id(const char *path, const uint8_t *id, size_t id_size)
{
	uint8_t have[BUILD_ID_MAX];
	int n;

	if (!is_regular(path))
		return false;
	n = perfev_build_id__read(path, have, sizeof(have));
	return n > 0 && build_id__matches(have, (size_t)n, id, id_size);
}

/* ---- .gnu_debuglink ---- */

int elf_debuglink(void *elf_, char *name, size_t size, uint32_t *crc)
{
	Elf *elf = elf_;
	Elf_Scn *scn = NULL;
	size_t shstrndx;
	GElf_Ehdr eh;

	if (!gelf_getehdr(elf, &eh) || elf_getshdrstrndx(elf, &shstrndx))
		return -ENOENT;
	while ((scn = elf_nextscn(elf, scn))) {
		const unsigned char *p;
		const char *sname;
		Elf_Data *data;
		GElf_Shdr sh;
		size_t len, crc_off;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_PROGBITS)
			continue;
		sname = elf_strptr(elf, shstrndx, sh.sh_name);
		if (!sname || strcmp(sname, ".gnu_debuglink"))
			continue;
		data = elf_rawdata(scn, NULL);
		if (!data || !data->d_buf)
			return -ENOENT;
		p = data->d_buf;
		/* "name\0", padding to 4 bytes, then the CRC in the file's byte order. */
		len = strnlen((const char *)p, data->d_size);
		crc_off = (len + 4) & ~(size_t)3;
		if (!len || len >= size || crc_off > data->d_size || data->d_size - crc_off < 4 ||
		    memchr(p, '/', len))
			return -ENOENT;
		memcpy(name, p, len);
		name[len] = 0;
		p += crc_off;
		if (eh.e_ident[EI_DATA] == ELFDATA2MSB)
			*crc = (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
		else
			*crc = (uint32_t)p[3] << 24 | (uint32_t)p[2] << 16 | (uint32_t)p[1] << 8 | p[0];
		return 0;
	}
	return -ENOENT;
}

/*
 * The CRC-32 of zlib and gdb's gnu_debuglink_crc32 (reflected 0xedb88320),
 * four bits at a time from a constant table: no shared state to set up.
 */
static uint32_t crc_update(uint32_t crc, const unsigned char *p, size_t len)
{
	static const uint32_t t[16] = {
		0x00000000, 0x1db71064, 0x3b6e20c8, 0x26d930ac, 0x76dc4190, 0x6b6b51f4,
		0x4db26158, 0x5005713c, 0xedb88320, 0xf00f9344, 0xd6d6a3e8, 0xcb61b38c,
		0x9b64c2b0, 0x86d3d2d4, 0xa00ae278, 0xbdbdf21c,
	};

	crc = ~crc;
	while (len--) {
		crc = t[(crc ^ *p) & 15] ^ (crc >> 4);
		crc = t[(crc ^ (*p++ >> 4)) & 15] ^ (crc >> 4);
	}
	return ~crc;
}

int debuglink_crc(int fd, uint32_t *crc)
{
	unsigned char buf[65536];
	uint32_t c = 0;
	off_t off = 0;

	for (;;) {
		ssize_t n = pread(fd, buf, sizeof(buf), off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (!n)
			break;
		c = crc_update(c, buf, (size_t)n);
		off += n;
	}
	*crc = c;
	return 0;
}

/* Is the file at cand the debug file the link (crc) or the build id names? */
static bool debuglink_ok(const char *cand, const char *self, uint32_t crc, const uint8_t *bid,
			 size_t bid_size)
{
	uint8_t have[BUILD_ID_MAX];
	struct stat a, b;
	uint32_t got;
	int fd, n;
	bool ok;

	if (!is_regular(cand))
		return false;
	/* A link naming the file itself (same name in the same directory) is no debug file. */
	if (!stat(cand, &a) && !stat(self, &b) && a.st_dev == b.st_dev && a.st_ino == b.st_ino)
		return false;
	if (bid_size) {
		n = perfev_build_id__read(cand, have, sizeof(have));
		if (n > 0)
			return build_id__matches(have, (size_t)n, bid, bid_size);
	}
	fd = open(cand, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0)
		return false;
	ok = !debuglink_crc(fd, &got) && got == crc;
	close(fd);
	if (!ok)
		pr_debug("symbols: %s: CRC %08x is not the %08x its .gnu_debuglink records\n", cand,
			 got, crc);
	return ok;
}

int debug_file__find(struct perfev_dso *d, const char *path, void *elf, const uint8_t *bid,
		     size_t bid_size, char *out, size_t size)
{
	struct perfev_symbolizer *sy = d->sy;
	char link[256], dir[4096];
	const char *slash, *orig_dir = d->name;
	size_t orig_len;
	uint32_t crc;
	int n;

	if (bid_size && *sy->debug_dir &&
	    build_id__path(out, size, sy->debug_dir, bid, bid_size, ".debug") &&
	    file__has_build_id(out, bid, bid_size))
		return 0;
	/* The build-id cache keeps a stripped file's debug file beside it, as perf does. */
	if (bid_size && *sy->buildid_dir &&
	    build_id__path(out, size, sy->buildid_dir, bid, bid_size, "/debug") &&
	    file__has_build_id(out, bid, bid_size))
		return 0;
	if (elf_debuglink(elf, link, sizeof(link), &crc))
		return -ENOENT;
	slash = strrchr(path, '/');
	n = slash ? snprintf(dir, sizeof(dir), "%.*s", (int)(slash - path), path)
		  : snprintf(dir, sizeof(dir), ".");
	if (n < 0 || (size_t)n >= sizeof(dir))
		return -ENOENT;
	/* DEBUG_DIR mirrors the installed tree: the directory as recorded, not root-prefixed. */
	slash = strrchr(d->name, '/');
	orig_len = slash ? (size_t)(slash - d->name) : 0;

	n = snprintf(out, size, "%s/%s", dir, link);
	if (n > 0 && (size_t)n < size && debuglink_ok(out, path, crc, bid, bid_size))
		return 0;
	n = snprintf(out, size, "%s/.debug/%s", dir, link);
	if (n > 0 && (size_t)n < size && debuglink_ok(out, path, crc, bid, bid_size))
		return 0;
	if (*sy->debug_dir && d->kind == DSO_FILE) {
		n = snprintf(out, size, "%s%s%.*s/%s", sy->debug_dir, orig_dir[0] == '/' ? "" : "/",
			     (int)orig_len, orig_dir, link);
		if (n > 0 && (size_t)n < size && debuglink_ok(out, path, crc, bid, bid_size))
			return 0;
	}
	return -ENOENT;
}
