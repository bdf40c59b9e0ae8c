/* SPDX-License-Identifier: MIT */
/*
 * GNU build ids: the NT_GNU_BUILD_ID note of an ELF file, found through its
 * PT_NOTE program headers or, for files without them (relocatables,
 * separate debug files), its SHT_NOTE sections.
 *
 * Our own parser rather than libelf: we need a dozen fields of two tables,
 * libelf would map or read more of the file than that and keep state per
 * descriptor, and one small parser behind a "give me these bytes" source
 * serves memory images and files alike, so the fuzzer that feeds it memory
 * covers the same code that reads files.  Every offset and count of the
 * image is untrusted: each is checked against the image's size before use.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/internal.h"
#include "perfev/synth.h"
#include "buildid/buildid_int.h"

#define NT_GNU_BUILD_ID_TYPE 3
#define PT_NOTE_TYPE 4
#define SHT_NOTE_TYPE 7
#define PN_XNUM_VAL 0xffff
/* Bounds no sane file reaches; past them the header is lying, not the file big. */
#define MAX_TABLE (4u << 20)
#define MAX_NOTES (1u << 20)
/* Files are read through a window: the headers and notes usually share the first 4 KiB. */
#define WINDOW 4096
#define NOTES_MAX (1u << 16)

struct src {
	const char *name; /* for messages */
	uint64_t size;
	const unsigned char *mem; /* a memory image, or NULL for fd */
	int fd;
	unsigned char *win; /* file bytes [win_off, win_off + win_len) */
	size_t win_cap, win_len;
	uint64_t win_off;
	bool big, is64;
	int err; /* of the last src_get() that failed */
};

/*
 * len bytes at off, or NULL with the error set.  The pointer is valid until
 * the next call: callers decode what they need before asking again.
 */
static const unsigned char *src_get(struct src *s, uint64_t off, size_t len, const char *what)
{
	if (off > s->size || len > s->size - off) {
		s->err = set_error(PERFEV_ERR_FORMAT,
			  "%s: %s (%zu bytes at offset %llu) passes the end of the %llu-byte file",
			  s->name, what, len, (unsigned long long)off, (unsigned long long)s->size);
		return NULL;
	}
	if (s->mem)
		return s->mem + off;
	if (off >= s->win_off && off - s->win_off <= s->win_len &&
	    len <= s->win_len - (off - s->win_off))
		return s->win + (off - s->win_off);

	size_t want = len > WINDOW ? len : WINDOW, got = 0;

	if (want > s->size - off)
		want = (size_t)(s->size - off);
	if (want > s->win_cap) {
		unsigned char *w = realloc(s->win, want);

		if (!w) {
			s->err = set_error(ENOMEM, "%s: no memory for %zu bytes of %s", s->name, want, what);
			return NULL;
		}
		s->win = w;
		s->win_cap = want;
	}
	s->win_len = 0;
	while (got < want) {
		ssize_t n = pread(s->fd, s->win + got, want - got, (off_t)(off + got));

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			s->err = set_error(errno, "%s: cannot read %s: %s", s->name, what, strerror(errno));
			return NULL;
		}
		if (n == 0)
			break;
		got += (size_t)n;
	}
	if (got < len) {
		s->err = set_error(PERFEV_ERR_FORMAT, "%s: the file shrank while %s was read", s->name, what);
		return NULL;
	}
	s->win_off = off;
	s->win_len = got;
	return s->win;
}

static uint16_t get16(const struct src *s, const unsigned char *p)
{
	return s->big ? (uint16_t)(p[0] << 8 | p[1]) : (uint16_t)(p[1] << 8 | p[0]);
}

static uint32_t get32_endian(bool big, const unsigned char *p)
{
	if (big)
		return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
	return (uint32_t)p[3] << 24 | (uint32_t)p[2] << 16 | (uint32_t)p[1] << 8 | p[0];
}

static uint32_t get32(const struct src *s, const unsigned char *p)
{
	return get32_endian(s->big, p);
}

static uint64_t get64(const struct src *s, const unsigned char *p)
{
	uint64_t hi = get32(s, p + (s->big ? 0 : 4)), lo = get32(s, p + (s->big ? 4 : 0));

	return hi << 32 | lo;
}

/* An address-sized field: 4 bytes in ELF32, 8 in ELF64. */
static uint64_t getaddr(const struct src *s, const unsigned char *p)
{
	return s->is64 ? get64(s, p) : get32(s, p);
}

int build_id__parse_notes(const void *notes, size_t len, bool big, size_t align, const char *where,
			  uint8_t *id, size_t size)
{
	const unsigned char *p = notes;
	uint64_t off = 0, mask = align - 1;

	while (len - off >= 12) {
		uint32_t namesz = get32_endian(big, p + off), descsz = get32_endian(big, p + off + 4);
		uint32_t type = get32_endian(big, p + off + 8);
		uint64_t name_off = off + 12, desc_off, next;

		if (namesz > len - name_off)
			return set_error(PERFEV_ERR_FORMAT,
					 "%s: note at offset %llu: namesz %u passes the end of the %zu-byte notes",
					 where, (unsigned long long)off, namesz, len);
		desc_off = (name_off + namesz + mask) & ~mask;
		if (desc_off > len || descsz > len - desc_off)
			return set_error(PERFEV_ERR_FORMAT,
					 "%s: note at offset %llu: descsz %u passes the end of the %zu-byte notes",
					 where, (unsigned long long)off, descsz, len);
		if (type == NT_GNU_BUILD_ID_TYPE && namesz == 4 && !memcmp(p + name_off, "GNU", 4)) {
			if (!descsz)
				return set_error(PERFEV_ERR_FORMAT,
						 "%s: the NT_GNU_BUILD_ID note at offset %llu is empty",
						 where, (unsigned long long)off);
			if (descsz > size)
				return set_error(ENOSPC,
						 "%s: the build id has %u bytes, the buffer only %zu",
						 where, descsz, size);
			memcpy(id, p + desc_off, descsz);
			return (int)descsz;
		}
		next = (desc_off + descsz + mask) & ~mask;
		if (next >= len) /* the last note may go without its padding */
			break;
		off = next;
	}
	return -ENOENT;
}

static int notes_at(struct src *s, uint64_t off, uint64_t len, uint64_t align, const char *what,
		    uint8_t *id, size_t size)
{
	const unsigned char *p;
	char where[96];

	if (!len)
		return -ENOENT;
	snprintf(where, sizeof(where), "%s: %s", s->name, what);
	if (len > MAX_NOTES)
		return set_error(PERFEV_ERR_FORMAT, "%s: %llu bytes of notes is implausible", where,
				 (unsigned long long)len);
	p = src_get(s, off, (size_t)len, what);
	if (!p)
		return s->err;
	return build_id__parse_notes(p, (size_t)len, s->big, align == 8 ? 8 : 4, where, id, size);
}

/* Checks that count entries of entsize bytes at off fit the file. */
static int table_check(const struct src *s, const char *what, uint64_t off, uint64_t count,
		       uint64_t entsize, uint64_t minsize)
{
	uint64_t bytes = count * entsize; /* both below 2^32: no overflow */

	if (entsize < minsize)
		return set_error(PERFEV_ERR_FORMAT, "%s: %s entries of %llu bytes, expected at least %llu",
				 s->name, what, (unsigned long long)entsize, (unsigned long long)minsize);
	if (bytes > MAX_TABLE)
		return set_error(PERFEV_ERR_FORMAT, "%s: %s of %llu x %llu bytes is implausible",
				 s->name, what, (unsigned long long)count, (unsigned long long)entsize);
	if (off > s->size || bytes > s->size - off)
		return set_error(PERFEV_ERR_FORMAT,
				 "%s: %s (%llu x %llu bytes at offset %llu) passes the end of the %llu-byte file",
				 s->name, what, (unsigned long long)count, (unsigned long long)entsize,
				 (unsigned long long)off, (unsigned long long)s->size);
	return 0;
}

struct ehdr {
	uint64_t phoff, shoff;
	uint32_t phnum, shnum;
	uint16_t phentsize, shentsize;
};

static int from_src(struct src *s, uint8_t *id, size_t size)
{
	const unsigned char *p = src_get(s, 0, 16, "ELF identification");
	struct ehdr e;
	int ret = -ENOENT;

	if (!p)
		return s->err;
	if (memcmp(p, "\177ELF", 4))
		return set_error(PERFEV_ERR_FORMAT, "%s: not an ELF file (no \\177ELF magic)", s->name);
	if (p[4] != 1 && p[4] != 2)
		return set_error(PERFEV_ERR_FORMAT, "%s: ELF class %u is neither 32 nor 64-bit",
				 s->name, p[4]);
	if (p[5] != 1 && p[5] != 2)
		return set_error(PERFEV_ERR_FORMAT, "%s: ELF data encoding %u is neither LSB nor MSB",
				 s->name, p[5]);
	if (p[6] != 1)
		return set_error(PERFEV_ERR_FORMAT, "%s: ELF version %u is not 1", s->name, p[6]);
	s->is64 = p[4] == 2;
	s->big = p[5] == 2;
	p = src_get(s, 0, s->is64 ? 64 : 52, "ELF header");
	if (!p)
		return s->err;
	if (s->is64) {
		e.phoff = get64(s, p + 32);
		e.shoff = get64(s, p + 40);
		p += 54;
	} else {
		e.phoff = get32(s, p + 28);
		e.shoff = get32(s, p + 32);
		p += 42;
	}
	e.phentsize = get16(s, p);
	e.phnum = get16(s, p + 2);
	e.shentsize = get16(s, p + 4);
	e.shnum = get16(s, p + 6);

	/* Counts too large for the header live in section 0 (gABI extended numbering). */
	if ((e.phnum == PN_XNUM_VAL || (!e.shnum && e.shoff)) && e.shoff) {
		int err = table_check(s, "section header 0", e.shoff, 1, e.shentsize,
				      s->is64 ? 64 : 40);

		if (err)
			return err;
		p = src_get(s, e.shoff, e.shentsize, "section header 0");
		if (!p)
			return s->err;
		if (!e.shnum) {
			uint64_t n = getaddr(s, p + (s->is64 ? 32 : 20));

			e.shnum = n > UINT32_MAX ? UINT32_MAX : (uint32_t)n; /* table_check refuses it */
		}
		if (e.phnum == PN_XNUM_VAL)
			e.phnum = get32(s, p + (s->is64 ? 44 : 28));
	}

	if (e.phnum) {
		int err = table_check(s, "program header table", e.phoff, e.phnum, e.phentsize,
				      s->is64 ? 56 : 32);

		if (err)
			return err;
	}
	for (uint32_t i = 0; i < e.phnum; i++) {
		uint64_t off, len, align;
		char what[48];

		p = src_get(s, e.phoff + (uint64_t)i * e.phentsize, e.phentsize, "program header");
		if (!p)
			return s->err;
		if (get32(s, p) != PT_NOTE_TYPE)
			continue;
		off = s->is64 ? get64(s, p + 8) : get32(s, p + 4);
		len = s->is64 ? get64(s, p + 32) : get32(s, p + 16);
		align = s->is64 ? get64(s, p + 48) : get32(s, p + 28);
		snprintf(what, sizeof(what), "PT_NOTE of program header %u", i);
		ret = notes_at(s, off, len, align, what, id, size);
		if (ret != -ENOENT)
			return ret;
	}

	if (!e.shoff || !e.shnum)
		return set_error(ENOENT, "%s: no NT_GNU_BUILD_ID note", s->name);
	int err = table_check(s, "section header table", e.shoff, e.shnum, e.shentsize,
			      s->is64 ? 64 : 40);
	if (err)
		return err;
	for (uint32_t i = 0; i < e.shnum; i++) {
		uint64_t off, len, align;
		char what[48];

		p = src_get(s, e.shoff + (uint64_t)i * e.shentsize, e.shentsize, "section header");
		if (!p)
			return s->err;
		if (get32(s, p + 4) != SHT_NOTE_TYPE)
			continue;
		off = getaddr(s, p + (s->is64 ? 24 : 16));
		len = getaddr(s, p + (s->is64 ? 32 : 20));
		align = getaddr(s, p + (s->is64 ? 48 : 32));
		snprintf(what, sizeof(what), "SHT_NOTE section %u", i);
		ret = notes_at(s, off, len, align, what, id, size);
		if (ret != -ENOENT)
			return ret;
	}
	return set_error(ENOENT, "%s: no NT_GNU_BUILD_ID note", s->name);
}

int perfev_build_id__from_mem(const void *elf, size_t len, uint8_t *id, size_t size)
{
	struct src s = { .name = "ELF image", .size = len, .mem = elf, .fd = -1 };

	if (!elf || !id)
		return set_error(EINVAL, "build id: no image or no output given");
	return from_src(&s, id, size);
}

int build_id__read_fd(int fd, const char *name, uint8_t *id, size_t size)
{
	struct src s = { .name = name, .fd = fd };
	struct stat st;
	int ret;

	if (fstat(fd, &st))
		return set_error(errno, "%s: cannot stat: %s", name, strerror(errno));
	if (!S_ISREG(st.st_mode))
		return set_error(PERFEV_ERR_FORMAT, "%s: not a regular file, so not an ELF file", name);
	s.size = (uint64_t)st.st_size;
	ret = from_src(&s, id, size);
	free(s.win);
	return ret;
}

int perfev_build_id__read(const char *path, uint8_t *id, size_t size)
{
	int fd, ret;

	if (!path || !id)
		return set_error(EINVAL, "build id: no path or no output given");
	/* O_NONBLOCK: a FIFO where a file was expected must not hang us. */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0)
		return set_error(errno, "%s: cannot open: %s", path, strerror(errno));
	ret = build_id__read_fd(fd, path, id, size);
	close(fd);
	return ret;
}

int perfev_build_id__from_notes(const void *notes, size_t len, uint8_t *id, size_t size)
{
	int ret;

	if (!notes || !id)
		return set_error(EINVAL, "build id: no notes or no output given");
	/* The kernel exports its notes in its own byte order, 4-byte aligned. */
	ret = build_id__parse_notes(notes, len, __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__, 4,
				    "kernel notes", id, size);
	if (ret == -ENOENT)
		return set_error(ENOENT, "kernel notes: no NT_GNU_BUILD_ID note in %zu bytes", len);
	return ret;
}

int perfev_build_id__kernel(uint8_t *id, size_t size)
{
	char path[256], *buf;
	int n, ret;

	if (!id)
		return set_error(EINVAL, "build id: no output given");
	sys_root__path(path, sizeof(path), "/sys/kernel/notes");
	/* A few hundred bytes in practice; 64 KiB leaves room for any kernel's notes. */
	buf = malloc(NOTES_MAX);
	if (!buf)
		return set_error(ENOMEM, "no memory to read %s", path);
	n = read_text_file(path, buf, NOTES_MAX);
	if (n < 0)
		ret = set_error(-n, "%s: cannot read: %s; the kernel's build id is unknown", path,
				strerror(-n));
	else
		ret = perfev_build_id__from_notes(buf, (size_t)n, id, size);
	free(buf);
	return ret;
}

void build_id__hex(const uint8_t *id, size_t size, char *buf)
{
	static const char hex[] = "0123456789abcdef";

	for (size_t i = 0; i < size; i++) {
		buf[2 * i] = hex[id[i] >> 4];
		buf[2 * i + 1] = hex[id[i] & 15];
	}
	buf[2 * size] = 0;
}

/*
 * The id without perf's zero padding, as it names directories: only a
 * 16-byte (MD5) id padded to a 20-byte slot is cut.  A SHA-1 id may end in
 * zero bytes of its own (1 in 256 does), which stay.
 */
size_t build_id__trim(const uint8_t *id, size_t size)
{
	if (size == BUILD_ID_MAX && !id[16] && !id[17] && !id[18] && !id[19])
		return 16;
	return size;
}
