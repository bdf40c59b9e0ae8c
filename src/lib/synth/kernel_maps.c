/* SPDX-License-Identifier: MIT */
/*
 * The kernel's maps: an MMAP of "[kernel.kallsyms]_text" and one per module.
 *
 * MMAP rather than MMAP2, as perf 6.1 writes them (its build-id MMAP2 for
 * the kernel came later); its reader takes the name after
 * "[kernel.kallsyms]" as the reference symbol and pgoff as that symbol's
 * address, which is how it relocates a KASLR'ed kernel's symbols.  pid is
 * perf's HOST_KERNEL_ID (-1), tid 0.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/internal.h"
#include "synth/synth_int.h"

#define HOST_KERNEL_PID 0xffffffffu
#define KALLSYMS_LINE_MAX 1024 /* KSYM_NAME_LEN (512) + address, type and [module] */
#define KALLSYMS_CHUNK (1 << 16)
/* The kernel map's reference symbol, as perf picks it: _text, else _stext. */
#define REF_SYM_TEXT "_text"
#define REF_SYM_STEXT "_stext"

struct mmap_body {
	uint32_t pid, tid;
	uint64_t addr, len, pgoff;
};

static int hide_error(const char *what, const char *file)
{
	char why[512];

	explain_hidden_kptrs(why, sizeof(why));
	return set_error(EACCES, "%s: %s reads as address 0: %s", file, what, why);
}

static int hex_u64(const char *s, size_t len, uint64_t *out)
{
	uint64_t v = 0;

	if (!len || len > 16)
		return -1;
	for (size_t i = 0; i < len; i++) {
		char c = s[i];
		int d = c >= '0' && c <= '9' ? c - '0'
			: c >= 'a' && c <= 'f' ? c - 'a' + 10
			: c >= 'A' && c <= 'F' ? c - 'A' + 10
					       : -1;

		if (d < 0)
			return -1;
		v = v << 4 | (unsigned)d;
	}
	*out = v;
	return 0;
}

struct ksym_search {
	uint64_t text, stext;
	bool have_text, have_stext;
};

/* "ffffffff81000000 T _text" or "... t name\t[module]"; false when malformed. */
static bool kallsyms_line(const char *s, size_t len, struct ksym_search *ks)
{
	const char *sp = memchr(s, ' ', len), *name;
	size_t name_len;
	uint64_t addr;

	if (!sp || hex_u64(s, (size_t)(sp - s), &addr) || len - (size_t)(sp - s) < 4 || sp[2] != ' ')
		return false;
	name = sp + 3;
	name_len = len - (size_t)(name - s);
	if (memchr(name, '\t', name_len)) /* a module's symbol: never _text */
		return true;
	if (name_len == sizeof(REF_SYM_TEXT) - 1 && !memcmp(name, REF_SYM_TEXT, name_len)) {
		ks->text = addr;
		ks->have_text = true;
	} else if (name_len == sizeof(REF_SYM_STEXT) - 1 && !memcmp(name, REF_SYM_STEXT, name_len) &&
		   !ks->have_stext) {
		ks->stext = addr;
		ks->have_stext = true;
	}
	return true;
}

/*
 * _text's address, or _stext's when there is no _text (perf's reference
 * symbols, in its order).  Reads in chunks and stops at _text, which comes
 * within the first few lines: the whole file is megabytes the kernel
 * formats on demand.
 */
static int kallsyms_text(const char **sym, uint64_t *addr)
{
	struct ksym_search ks = { 0 };
	char path[256], *buf;
	size_t have = 0, lineno = 0;
	int fd, ret = 0;

	sys_root__path(path, sizeof(path), "/proc/kallsyms");
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return set_error(errno, "%s: cannot open: %s; the kernel needs CONFIG_KALLSYMS", path,
				 strerror(errno));
	buf = malloc(KALLSYMS_CHUNK);
	if (!buf) {
		close(fd);
		return set_error(ENOMEM, "no memory to read %s", path);
	}
	while (!ks.have_text) {
		ssize_t n = read(fd, buf + have, KALLSYMS_CHUNK - have);
		char *p = buf, *end, *nl;

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			ret = set_error(errno, "%s: cannot read: %s", path, strerror(errno));
			break;
		}
		if (n == 0 && have) /* a last line without its newline */
			buf[have++] = '\n';
		else if (n == 0)
			break;
		end = buf + have + (size_t)n;
		while (!ks.have_text && (nl = memchr(p, '\n', (size_t)(end - p)))) {
			lineno++;
			if (nl - p >= KALLSYMS_LINE_MAX) {
				ret = set_error(PERFEV_ERR_FORMAT, "%s: line %zu is longer than %d bytes",
						path, lineno, KALLSYMS_LINE_MAX);
				goto out;
			}
			if (!kallsyms_line(p, (size_t)(nl - p), &ks)) {
				ret = set_error(PERFEV_ERR_FORMAT, "%s: line %zu is not 'ADDRESS TYPE NAME': '%.*s'",
						path, lineno, (int)(nl - p < 80 ? nl - p : 80), p);
				goto out;
			}
			p = nl + 1;
		}
		if (ks.have_text)
			break;
		have = (size_t)(end - p);
		if (have >= KALLSYMS_LINE_MAX) {
			ret = set_error(PERFEV_ERR_FORMAT, "%s: line %zu is longer than %d bytes", path,
					lineno + 1, KALLSYMS_LINE_MAX);
			goto out;
		}
		memmove(buf, p, have);
		if (n == 0)
			break;
	}
	if (!ks.have_text && !ks.have_stext)
		ret = set_error(ENOENT, "%s: no _text or _stext symbol, so the kernel's map is unknown",
				path);
	else if (ks.have_text) {
		*sym = REF_SYM_TEXT;
		*addr = ks.text;
	} else {
		*sym = REF_SYM_STEXT;
		*addr = ks.stext;
	}
	if (!ret && !*addr)
		ret = hide_error(*sym, path);
out:
	free(buf);
	close(fd);
	return ret;
}

/* A whole small file into a malloc'ed NUL-terminated buffer; its length or -errno. */
static ssize_t slurp(const char *path, char **out)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	size_t cap = 0;
	ssize_t len;

	*out = NULL;
	if (fd < 0)
		return -errno;
	len = read_fd_all(fd, out, &cap);
	close(fd);
	if (len < 0) {
		free(*out);
		*out = NULL;
	}
	return len;
}

struct kmod {
	char name[64];
	uint64_t addr, size;
	char *path; /* from modules.dep, malloc'ed; NULL: "[name]" */
};

static int kmod_cmp(const void *a, const void *b)
{
	return strcmp(((const struct kmod *)a)->name, ((const struct kmod *)b)->name);
}

static int kmod_addr_cmp(const void *a, const void *b)
{
	uint64_t x = ((const struct kmod *)a)->addr, y = ((const struct kmod *)b)->addr;

	return (x > y) - (x < y);
}

/* Module names in /proc/modules use '_' where file names may use '-'. */
static void kmod_norm(char *s)
{
	for (; *s; s++)
		if (*s == '-')
			*s = '_';
}

/*
 * "ext4 1069056 1 - Live 0xffffffffc0a12000 (E)": name, size, address.  The
 * other columns are skipped without interpretation, so a kernel adding or
 * changing them does not break us; name, size and address are checked.
 */
static int parse_modules(const char *path, char *text, size_t len, struct kmod **out, size_t *nr)
{
	struct kmod *mods = NULL;
	size_t n = 0, cap = 0, lineno = 0;

	for (char *line = text, *next; line < text + len; line = next) {
		char *tok[6], *save = NULL, *nl = strchr(line, '\n'), *end;
		int ntok = 0;

		next = nl ? nl + 1 : line + strlen(line);
		if (nl)
			*nl = '\0';
		lineno++;
		for (char *t = strtok_r(line, " ", &save); t && ntok < 6; t = strtok_r(NULL, " ", &save))
			tok[ntok++] = t;
		if (!ntok)
			continue;
		if (n == cap) {
			struct kmod *m = realloc(mods, (cap = cap ? cap * 2 : 64) * sizeof(*m));

			if (!m) {
				free(mods);
				return set_error(ENOMEM, "no memory for %s", path);
			}
			mods = m;
		}
		struct kmod *k = &mods[n];

		*k = (struct kmod){ 0 };
		if (ntok < 6 || strlen(tok[0]) >= sizeof(k->name) || strncmp(tok[5], "0x", 2) ||
		    hex_u64(tok[5] + 2, strlen(tok[5] + 2), &k->addr)) {
			free(mods);
			return set_error(PERFEV_ERR_FORMAT,
					 "%s: line %zu is not 'NAME SIZE REFS DEPS STATE 0xADDRESS'",
					 path, lineno);
		}
		errno = 0;
		k->size = strtoull(tok[1], &end, 10);
		if (*end || errno || end == tok[1]) {
			free(mods);
			return set_error(PERFEV_ERR_FORMAT, "%s: line %zu: size '%.32s' is not a number",
					 path, lineno, tok[1]);
		}
		if (!k->addr) {
			free(mods);
			return hide_error("a module's address", path);
		}
		strcpy(k->name, tok[0]);
		kmod_norm(k->name);
		n++;
	}
	*out = mods;
	*nr = n;
	return 0;
}

/*
 * Names modules by their files, as perf does when it finds them under
 * /lib/modules/RELEASE: "kernel/fs/ext4/ext4.ko.zst: kernel/fs/jbd2/..."
 * in modules.dep.  Best effort: a module without a file keeps "[name]".
 */
static void find_module_paths(struct kmod *mods, size_t nr)
{
	char path[1024], full[512], rel[128] = "", dir[384], *text;
	ssize_t len;
	int n;

	sys_root__path(path, sizeof(path), "/proc/sys/kernel/osrelease");
	n = read_text_file(path, rel, sizeof(rel));
	if (n <= 0)
		return;
	rel[strcspn(rel, "\n")] = '\0';
	snprintf(dir, sizeof(dir), "/lib/modules/%s", rel);
	snprintf(full, sizeof(full), "%s/modules.dep", dir);
	sys_root__path(path, sizeof(path), full);
	len = slurp(path, &text);
	if (len < 0)
		return;
	sort_array(mods, nr, sizeof(*mods), kmod_cmp);
	for (char *line = text, *next; line < text + len; line = next) {
		char *colon, *base, *ko, key[64];
		struct kmod k, *hit;

		next = line + strcspn(line, "\n");
		if (*next)
			*next++ = '\0';
		colon = strchr(line, ':');
		if (!colon)
			continue;
		*colon = '\0';
		base = strrchr(line, '/');
		base = base ? base + 1 : line;
		ko = strstr(base, ".ko");
		if (!ko || (size_t)(ko - base) >= sizeof(key))
			continue;
		memcpy(key, base, (size_t)(ko - base));
		key[ko - base] = '\0';
		kmod_norm(key);
		memcpy(k.name, key, sizeof(key));
		hit = search_array(&k, mods, nr, sizeof(*mods), kmod_cmp);
		if (!hit || hit->path)
			continue;
		/* Relative to the release's directory; older depmods wrote absolute paths. */
		if (line[0] == '/')
			hit->path = strdup(line);
		else if (asprintf(&hit->path, "%s/%s", dir, line) < 0)
			hit->path = NULL;
	}
	free(text);
}

static int synth_modules(struct synth_out *o)
{
	char path[256], *text;
	struct kmod *mods = NULL;
	size_t nr = 0;
	ssize_t len;
	int ret;

	sys_root__path(path, sizeof(path), "/proc/modules");
	len = slurp(path, &text);
	if (len == -ENOENT) /* a kernel without module support */
		return 0;
	if (len < 0)
		return set_error((int)-len, "%s: cannot read: %s", path, strerror((int)-len));
	ret = parse_modules(path, text, (size_t)len, &mods, &nr);
	free(text);
	if (ret)
		return ret;
	find_module_paths(mods, nr);
	/* In address order, as perf's kernel maps list them. */
	sort_array(mods, nr, sizeof(*mods), kmod_addr_cmp);
	for (size_t i = 0; i < nr && !ret; i++) {
		struct mmap_body b = { HOST_KERNEL_PID, 0, mods[i].addr, mods[i].size, 0 };
		char name[80];
		const char *s = mods[i].path;

		if (!s || strlen(s) > SYNTH_NAME_MAX) {
			snprintf(name, sizeof(name), "[%s]", mods[i].name);
			s = name;
		}
		ret = synth__emit(o, PERF_RECORD_MMAP, PERF_RECORD_MISC_KERNEL, &b, sizeof(b), s,
				  strlen(s));
	}
	for (size_t i = 0; i < nr; i++)
		free(mods[i].path);
	free(mods);
	return ret;
}

int perfev_synth__kernel(const struct perfev_sample_fmt *fmt, perfev_synth_fn_t fn, void *ctx)
{
	struct synth_out *o = malloc(sizeof(*o));
	const char *sym = NULL;
	char name[64];
	uint64_t text = 0;
	int ret;

	if (!o)
		return set_error(ENOMEM, "synthesis: out of memory");
	ret = synth_out__init(o, fmt, fn, ctx);
	if (!ret)
		ret = kallsyms_text(&sym, &text);
	if (!ret) {
		/* From the reference symbol to the end of the address space, as perf maps it. */
		struct mmap_body b = { HOST_KERNEL_PID, 0, text, ~0ull - text, text };
		int len = snprintf(name, sizeof(name), PERFEV_KERNEL_DSO_NAME "%s", sym);

		ret = synth__emit(o, PERF_RECORD_MMAP, PERF_RECORD_MISC_KERNEL, &b, sizeof(b), name,
				  (size_t)len);
	}
	if (!ret)
		ret = synth_modules(o);
	free(o);
	return ret;
}
