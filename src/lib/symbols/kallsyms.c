/* SPDX-License-Identifier: MIT */
/*
 * Kernel symbols from /proc/kallsyms: "ADDR TYPE NAME[\t[MODULE]]" per
 * line.  Text symbols only (t T w W, as perf keeps); each extends to the
 * next one, since kallsyms gives no sizes.  A module's symbols are named
 * "name [module]", the kernel DSO standing for every module too.  When
 * kptr_restrict hides the addresses every one reads 0, which gets its own
 * error saying what to do.  The text is untrusted: a line that does not
 * parse is skipped.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/internal.h"
#include "perfev/synth.h"
#include "symbols/symbols_int.h"

/* KSYM_NAME_LEN is 512; module names 56: a longer name is not from a kernel. */
#define NAME_MAX_LEN 1024

static bool is_space(char c)
{
	return c == ' ' || c == '\t';
}

struct kline {
	uint64_t addr;
	char type;
	const char *name, *mod;
	size_t name_len, mod_len;
};

/* Parses [p, end) as one line; false when it is malformed. */
static bool parse_line(const char *p, const char *end, struct kline *k)
{
	size_t digits = 0;
	int v;

	k->addr = 0;
	while (p < end && (v = hex_digit(*p)) >= 0) {
		if (++digits > 16)
			return false;
		k->addr = k->addr << 4 | (uint64_t)v;
		p++;
	}
	if (!digits || p == end || *p != ' ')
		return false;
	p++;
	if (p == end || is_space(*p))
		return false;
	k->type = *p++;
	if (p == end || *p != ' ')
		return false;
	p++;
	k->name = p;
	while (p < end && !is_space(*p))
		p++;
	k->name_len = (size_t)(p - k->name);
	if (!k->name_len || k->name_len > NAME_MAX_LEN)
		return false;
	k->mod = NULL;
	k->mod_len = 0;
	while (p < end && is_space(*p))
		p++;
	if (p < end) {
		const char *close = memchr(p, ']', (size_t)(end - p));

		if (*p != '[' || !close || close == p + 1 || close - p > 64)
			return false;
		k->mod = p + 1;
		k->mod_len = (size_t)(close - p - 1);
	}
	return true;
}

static bool is_text(char t)
{
	return t == 't' || t == 'T' || t == 'w' || t == 'W';
}

/* The "[module]" of a symbol's name, or NULL for the kernel proper. */
static const char *module_of(const struct perfev_symbol *s)
{
	return s->name && s->name != s->raw_name ? strrchr(s->name, '[') : NULL;
}

/* Where the kernel proper's, or a module's, last symbol ends: kallsyms does not say. */
static uint64_t page_end(uint64_t start)
{
	uint64_t e = (start | 4095) + 1 + 4096;

	return e < start ? UINT64_MAX : e;
}

int kallsyms__parse(struct perfev_dso *d, const char *text, size_t len)
{
	struct sym_builder b = { .d = d, .last_wins = true };
	const char *p = text, *end = text + len;
	size_t lines = 0, bad = 0, nonzero = 0;
	uint64_t last = 0;
	int err;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end;
		struct kline k;

		if (le > p && le[-1] == '\r')
			le--;
		if (le == p) {
			p = nl ? nl + 1 : end;
			continue;
		}
		if (!parse_line(p, le, &k)) {
			bad++;
			p = nl ? nl + 1 : end;
			continue;
		}
		p = nl ? nl + 1 : end;
		lines++;
		if (k.addr)
			nonzero++;
		if (!is_text(k.type) || !k.addr)
			continue;
		err = sym_builder__add(&b, k.addr, 0, k.name, k.name_len,
				       k.type == 'T' ? 3 : k.type == 'W' ? 2 : 1);
		if (err)
			goto fail;
		if (k.mod) {
			char buf[NAME_MAX_LEN + 80];
			int n = snprintf(buf, sizeof(buf), "%.*s [%.*s]", (int)k.name_len, k.name,
					 (int)k.mod_len, k.mod);
			char *full = arena_strndup(&d->names, buf, (size_t)n);

			if (!full) {
				err = -ENOMEM;
				goto fail;
			}
			b.syms[b.n - 1].name = full;
		}
		if (k.addr > last)
			last = k.addr;
	}
	if (bad)
		pr_debug("symbols: %s: %zu malformed lines skipped\n", d->sym_file ? d->sym_file : d->name,
			 bad);
	if (lines && !nonzero) {
		sym_builder__abort(&b);
		char why[512] = "the kernel it was copied from hid its addresses "
				"(kernel.kptr_restrict): copy it where they show";
		const char *file = d->sym_file ? d->sym_file : d->name;

		if (!strcmp(file, "/proc/kallsyms"))
			explain_hidden_kptrs(why, sizeof(why));
		dso__set_error(d, EACCES, "%s: all %zu addresses read as 0: %s", file, lines, why);
		return -EACCES;
	}
	err = sym_builder__finish(&b, page_end(last));
	if (err)
		goto fail;
	/* The kernel proper and each module end somewhere before the next one starts. */
	for (size_t i = 0; i + 1 < d->nsyms; i++) {
		struct perfev_symbol *s = &d->syms[i];
		const char *m1 = module_of(s), *m2 = module_of(&d->syms[i + 1]);

		if ((m1 == NULL) != (m2 == NULL) || (m1 && strcmp(m1, m2))) {
			uint64_t e = page_end(s->start);

			if (e - s->start < s->size)
				s->size = e - s->start;
		}
	}
	return 0;
fail:
	sym_builder__abort(&b);
	return err;
}

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
	const unsigned char *c = p;

	while (n--)
		h = (h ^ *c++) * 1099511628211ull;
	return h;
}

/*
 * The running kernel's symbols change with its build, its boot (KASLR
 * moves them) and its modules: a cached table is known by all three, two
 * FNV-1a hashes of them (kallsyms-HASH1HASH2).  false when one cannot be
 * read: no cache then.
 */
static bool kernel_key(char *key, size_t size)
{
	uint64_t a = 1469598103934665603ull, b = 0x9e3779b97f4a7c15ull;
	uint8_t id[BUILD_ID_MAX];
	char boot[64], *mods = NULL;
	size_t cap = 0;
	ssize_t n;
	int fd, idn, bn;

	idn = perfev_build_id__kernel(id, sizeof(id));
	bn = read_text_file("/proc/sys/kernel/random/boot_id", boot, sizeof(boot));
	if (idn <= 0 || bn <= 0)
		return false;
	/* A kernel built without modules has no /proc/modules: nothing to add then. */
	fd = open("/proc/modules", O_RDONLY | O_CLOEXEC);
	if (fd < 0 && errno != ENOENT)
		return false;
	n = fd < 0 ? 0 : read_fd_all(fd, &mods, &cap);
	if (fd >= 0)
		close(fd);
	if (n < 0) {
		free(mods);
		return false;
	}
	a = fnv(fnv(fnv(a, id, (size_t)idn), boot, (size_t)bn), mods ? mods : "", (size_t)n);
	b = fnv(fnv(fnv(b, mods ? mods : "", (size_t)n), boot, (size_t)bn), id, (size_t)idn);
	free(mods);
	snprintf(key, size, "kallsyms-%016llx%016llx", (unsigned long long)a, (unsigned long long)b);
	return true;
}

int dso__load_kernel(struct perfev_dso *d)
{
	const char *path = d->sy->kallsyms;
	char *buf = NULL, key[64] = "";
	size_t cap = 0;
	ssize_t n;
	int fd, err;

	d->sym_file = strdup(path);
	if (!d->sym_file)
		return -ENOMEM;
	/* Only the running kernel's own file: a copy named by the caller is read as it is. */
	if (*d->sy->symcache_dir && !strcmp(path, "/proc/kallsyms") && kernel_key(key, sizeof(key))) {
		struct symcache_info ci;

		if (!symcache__load(d, key, &ci))
			return 0;
	}
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0) {
		err = errno;
		dso__set_error(d, err, "%s: cannot open: %s; kernel symbols need it (or the "
			       "symbolizer's kallsyms option naming a copy)", path, strerror(err));
		return -err;
	}
	n = read_fd_all(fd, &buf, &cap);
	close(fd);
	if (n < 0) {
		dso__set_error(d, (int)-n, "%s: cannot read: %s", path, strerror((int)-n));
		free(buf);
		return (int)n;
	}
	err = kallsyms__parse(d, buf, (size_t)n);
	free(buf);
	if (!err && *key) {
		struct symcache_info ci = { .sym_file = path };

		symcache__store(d, key, &ci);
	}
	return err;
}
