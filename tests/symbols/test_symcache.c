/*
 * The symbol cache: a table read from its cache file answers exactly as
 * the one parsed from the ELF file (every symbol, the segments, the
 * files); damaged, truncated, foreign or stale cache files are not used
 * (the file is read again and the cache rewritten); a stripped file whose
 * table came from .dynsym is read again once its debug file appears.
 * Names demangled in one run are kept in the table's file when the
 * symbolizer goes, and the next run takes them from there, as long as it
 * demangles the same way.
 * DWARF with compressed sections is kept decompressed beside the tables:
 * the copy answers exactly as the file, and a damaged copy is not used.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "perfev/perfev.h"
#include "symbols/symbols_int.h"

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wformat-truncation"
#endif

static char symtest[1024], tmp[256];

static void sh(const char *fmt, ...)
{
	char cmd[8192];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	assert_int_equal(system(cmd), 0);
}

static struct perfev_symbolizer *new_sy(const char *cache, const char *debug_dir)
{
	struct perfev_symbolizer_opts o = { .sz = sizeof(o), .symcache_dir = cache,
					    .debug_dir = debug_dir, .buildid_dir = "" };
	struct perfev_symbolizer *sy = perfev_symbolizer__new(&o);

	assert_non_null(sy);
	return sy;
}

static struct perfev_dso *dso_of(struct perfev_symbolizer *sy, const char *path)
{
	uint8_t id[PERFEV_BUILD_ID_MAX];
	int n = perfev_build_id__read(path, id, sizeof(id));
	struct perfev_dso *d;

	assert_true(n > 0);
	d = perfev_symbolizer__dso(sy, path, id, (size_t)n);
	assert_non_null(d);
	perfev_dso__error(d); /* loads it */
	return d;
}

/* The two tables answer alike, symbol by symbol and through map_ip. */
static void same(struct perfev_dso *a, struct perfev_dso *b)
{
	assert_int_equal(a->nsyms, b->nsyms);
	assert_true(a->nsyms > 0);
	for (size_t i = 0; i < a->nsyms; i++) {
		const struct perfev_symbol *x = perfev_dso__find_symbol(a, dso__sym(a, i)->start);
		const struct perfev_symbol *y = perfev_dso__find_symbol(b, dso__sym(a, i)->start);

		assert_int_equal(dso__sym(a, i)->start, dso__sym(b, i)->start);
		assert_int_equal(dso__sym(a, i)->size, dso__sym(b, i)->size);
		assert_string_equal(dso__sym(a, i)->raw_name, dso__sym(b, i)->raw_name);
		assert_non_null(x);
		assert_non_null(y);
		assert_string_equal(x->name, y->name);
	}
	assert_int_equal(a->nsegs, b->nsegs);
	assert_int_equal(a->seg_offsets_known, b->seg_offsets_known);
	for (uint64_t off = 0; off < 0x4000; off += 0x321)
		assert_int_equal(perfev_dso__map_ip(a, 0x7f0000001000 + off, 0x7f0000000000, 0x1000),
				 perfev_dso__map_ip(b, 0x7f0000001000 + off, 0x7f0000000000, 0x1000));
	assert_string_equal(perfev_dso__symbol_file(a), perfev_dso__symbol_file(b));
}

/* The first line cmd prints, without its newline; false when it prints none. */
static bool first_line(char *out, size_t size, const char *cmd)
{
	FILE *f = popen(cmd, "r");

	assert_non_null(f);
	if (!fgets(out, (int)size, f))
		out[0] = 0;
	pclose(f);
	out[strcspn(out, "\n")] = 0;
	return out[0] != 0;
}

/* The cache file of elf's table: CACHE/symbols-v1/<this code's id>-elf-<elf's build id>. */
static void cache_file(char *out, size_t size, const char *cache, const char *elf)
{
	uint8_t id[PERFEV_BUILD_ID_MAX];
	char hex[2 * PERFEV_BUILD_ID_MAX + 1], cmd[1500];
	int n = perfev_build_id__read(elf, id, sizeof(id));

	assert_true(n > 0);
	build_id__hex(id, (size_t)n, hex);
	snprintf(cmd, sizeof(cmd), "ls -d '%s'/symbols-v1/*-elf-%s 2>/dev/null", cache, hex);
	assert_true(first_line(out, size, cmd));
}

static void test_round_trip(void **state)
{
	static const char *const bins[] = { "pie", "libsym.so", "cxx", "inline" };
	char cache[512], elf[1200], file[1200];
	(void)state;

	snprintf(cache, sizeof(cache), "%s/rt", tmp);
	for (size_t i = 0; i < sizeof(bins) / sizeof(bins[0]); i++) {
		struct perfev_symbolizer *plain = new_sy(NULL, "/nonexistent");
		struct perfev_symbolizer *first = new_sy(cache, "/nonexistent");
		struct perfev_symbolizer *second = new_sy(cache, "/nonexistent");
		struct perfev_dso *a, *b, *c;

		snprintf(elf, sizeof(elf), "%s/%s", symtest, bins[i]);
		a = dso_of(plain, elf);
		b = dso_of(first, elf); /* parsed, and written */
		cache_file(file, sizeof(file), cache, elf);
		assert_int_equal(access(file, R_OK), 0);
		assert_null(b->sc_map);
		c = dso_of(second, elf); /* from the cache */
		assert_non_null(c->sc_map);
		same(a, b);
		same(a, c);
		perfev_symbolizer__delete(plain);
		perfev_symbolizer__delete(first);
		perfev_symbolizer__delete(second);
	}
}

/* A cache file that fails its checks is ignored, then replaced by a good one. */
static void test_damaged(void **state)
{
	char cache[512], elf[1200], file[1200], saved[1300];
	struct stat st;
	(void)state;

	snprintf(cache, sizeof(cache), "%s/dmg", tmp);
	snprintf(elf, sizeof(elf), "%s/pie", symtest);
	struct perfev_symbolizer *plain = new_sy(NULL, "/nonexistent");
	struct perfev_dso *ref = dso_of(plain, elf);

	perfev_symbolizer__delete(new_sy(cache, "/nonexistent"));
	struct perfev_symbolizer *w = new_sy(cache, "/nonexistent");

	dso_of(w, elf);
	perfev_symbolizer__delete(w);
	cache_file(file, sizeof(file), cache, elf);
	snprintf(saved, sizeof(saved), "%s.good", file);
	sh("cp '%s' '%s'", file, saved);
	assert_int_equal(stat(file, &st), 0);
	/*
	 * Each damage: the magic, the version, the symbol count, the first name's
	 * offset (past the names), the second symbol before the first, the end.
	 */
	static const char *const damage[] = {
		"printf 'X' | dd of='%s' bs=1 seek=0 conv=notrunc 2>/dev/null",
		"printf '\\377' | dd of='%s' bs=1 seek=8 conv=notrunc 2>/dev/null",
		"printf '\\377\\377\\377\\177' | dd of='%s' bs=1 seek=28 conv=notrunc 2>/dev/null",
		"printf '\\377\\377\\377\\177' | dd of='%s' bs=1 seek=104 conv=notrunc 2>/dev/null",
		"head -c 8 /dev/zero | dd of='%s' bs=1 seek=112 conv=notrunc 2>/dev/null",
		"truncate -s -1 '%s'",
		"printf 'x' >> '%s'",
	};
	for (size_t i = 0; i < sizeof(damage) / sizeof(damage[0]); i++) {
		char cmd[4096];

		sh("cp '%s' '%s'", saved, file);
		snprintf(cmd, sizeof(cmd), damage[i], file);
		sh("%s", cmd);
		struct perfev_symbolizer *sy = new_sy(cache, "/nonexistent");
		struct perfev_dso *d = dso_of(sy, elf);

		assert_null(d->sc_map);
		same(ref, d);
		perfev_symbolizer__delete(sy);
		/* Rewritten: the next reading maps it. */
		sy = new_sy(cache, "/nonexistent");
		d = dso_of(sy, elf);
		assert_non_null(d->sc_map);
		perfev_symbolizer__delete(sy);
	}
	perfev_symbolizer__delete(plain);
}

/* The parser alone, over bytes in memory: every truncation is refused, never read past. */
static void test_parse_bounds(void **state)
{
	char cache[512], elf[1200], file[1200];
	unsigned char *img;
	struct symcache_info ci;
	struct stat st;
	int fd;
	(void)state;

	snprintf(cache, sizeof(cache), "%s/bounds", tmp);
	snprintf(elf, sizeof(elf), "%s/libsym.so", symtest);
	struct perfev_symbolizer *sy = new_sy(cache, "/nonexistent");

	dso_of(sy, elf);
	perfev_symbolizer__delete(sy);
	cache_file(file, sizeof(file), cache, elf);
	fd = open(file, O_RDONLY);
	assert_true(fd >= 0);
	assert_int_equal(fstat(fd, &st), 0);
	img = malloc((size_t)st.st_size);
	assert_int_equal(read(fd, img, (size_t)st.st_size), st.st_size);
	close(fd);
	sy = new_sy(NULL, "/nonexistent");
	struct perfev_dso *d = perfev_symbolizer__dso(sy, "/x", NULL, 0);

	for (size_t len = 0; len < (size_t)st.st_size; len++) {
		unsigned char *cut = malloc(len ? len : 1);

		memcpy(cut, img, len);
		assert_int_equal(symcache__parse(d, cut, len, &ci), -PERFEV_ERR_FORMAT);
		free(cut);
	}
	assert_int_equal(symcache__parse(d, img, (size_t)st.st_size, &ci), 0);
	assert_true(d->nsyms > 0);
	perfev_symbolizer__delete(sy); /* frees the table; img is ours */
	free(img);
}

/* A stripped file's table from .dynsym is read again once its debug file is there. */
static void test_debug_file_appears(void **state)
{
	char cache[512], dir[512], bin[1200], dbg[1200];
	(void)state;

	snprintf(cache, sizeof(cache), "%s/strip", tmp);
	snprintf(dir, sizeof(dir), "%s/stripdir", tmp);
	snprintf(bin, sizeof(bin), "%s/libsym.so", dir);
	snprintf(dbg, sizeof(dbg), "%s/.debug/libsym.so.debug", dir);
	/* A stripped library: its .dynsym has its exported functions, the debug file all. */
	sh("mkdir -p '%s/.debug' && objcopy --only-keep-debug '%s/libsym.so' '%s' && "
	   "objcopy --strip-all --add-gnu-debuglink='%s' '%s/libsym.so' '%s' && mv '%s' '%s/kept'",
	   dir, symtest, dbg, dbg, symtest, bin, dbg, dir);
	struct perfev_symbolizer *sy = new_sy(cache, "/nonexistent");
	struct perfev_dso *d = dso_of(sy, bin);
	size_t dynsym_only = d->nsyms;

	assert_string_equal(perfev_dso__symbol_file(d), bin);
	perfev_symbolizer__delete(sy);
	sy = new_sy(cache, "/nonexistent");
	d = dso_of(sy, bin);
	assert_non_null(d->sc_map);
	assert_int_equal(d->nsyms, dynsym_only);
	perfev_symbolizer__delete(sy);
	/* Its debug file installed (found by .gnu_debuglink): the cached table is stale. */
	sh("cp '%s/kept' '%s'", dir, dbg);
	sy = new_sy(cache, "/nonexistent");
	d = dso_of(sy, bin);
	assert_null(d->sc_map);
	assert_string_equal(perfev_dso__symbol_file(d), dbg);
	assert_true(d->nsyms > dynsym_only);
	perfev_symbolizer__delete(sy);
	/* Now cached from the debug file; removing that makes it stale again. */
	sy = new_sy(cache, "/nonexistent");
	d = dso_of(sy, bin);
	assert_non_null(d->sc_map);
	assert_string_equal(perfev_dso__symbol_file(d), dbg);
	perfev_symbolizer__delete(sy);
	sh("rm '%s'", dbg);
	sy = new_sy(cache, "/nonexistent");
	d = dso_of(sy, bin);
	assert_null(d->sc_map);
	assert_int_equal(d->nsyms, dynsym_only);
	perfev_symbolizer__delete(sy);
}

/* The kernel's table: cached for the running kernel, the same symbols. */
static struct perfev_symbolizer *new_sy_dm(const char *cache, bool no_demangle, bool params)
{
	struct perfev_symbolizer_opts o = { .sz = sizeof(o), .symcache_dir = cache,
					    .debug_dir = "/nonexistent", .buildid_dir = "",
					    .no_demangle = no_demangle, .demangle_params = params };
	struct perfev_symbolizer *sy = perfev_symbolizer__new(&o);

	assert_non_null(sy);
	return sy;
}

/* Every symbol's name asked once (so demangled); how many were mangled. */
static size_t ask_all(struct perfev_dso *d)
{
	size_t mangled = 0;

	for (size_t i = 0; i < d->nsyms; i++) {
		const struct perfev_symbol *s = perfev_dso__find_symbol(d, dso__sym(d, i)->start);

		assert_non_null(s);
		mangled += s->name != s->raw_name;
	}
	return mangled;
}

/* The names d holds from the file, unasked, are the ones want gives when asked. */
static size_t names_from_file(struct perfev_dso *d, struct perfev_dso *want)
{
	size_t held = 0;

	assert_non_null(d->sc_map);
	for (size_t i = 0; i < d->nsyms; i++) {
		const char *n = dso__sym(d, i)->name;

		if (!n)
			continue;
		held++;
		assert_true(n >= (const char *)d->sc_map && n < (const char *)d->sc_map + d->sc_len);
		assert_string_equal(n, perfev_dso__find_symbol(want, dso__sym(d, i)->start)->name);
	}
	return held;
}

static void test_names_kept(void **state)
{
	char cache[512], elf[1200];
	(void)state;

	snprintf(cache, sizeof(cache), "%s/names", tmp);
	snprintf(elf, sizeof(elf), "%s/cxx", symtest);
	struct perfev_symbolizer *plain = new_sy_dm(NULL, false, false);
	struct perfev_symbolizer *params = new_sy_dm(NULL, false, true);
	struct perfev_dso *want = dso_of(plain, elf), *want_params = dso_of(params, elf);
	size_t mangled = ask_all(want);

	assert_true(mangled >= 3); /* cxx.cc's functions: the program is C++ */
	ask_all(want_params);

	/* First: parsed from the ELF file, written, then asked: nothing held before. */
	struct perfev_symbolizer *sy = new_sy_dm(cache, false, false);
	struct perfev_dso *d = dso_of(sy, elf);

	assert_null(d->sc_map);
	for (size_t i = 0; i < d->nsyms; i++)
		assert_null(dso__sym(d, i)->name);
	assert_int_equal(ask_all(d), mangled);
	assert_true(d->names_new);
	perfev_symbolizer__delete(sy); /* the file gets the names */

	/* Second: every name from the file, as demangling gives it; nothing to write again. */
	sy = new_sy_dm(cache, false, false);
	d = dso_of(sy, elf);
	assert_int_equal(names_from_file(d, want), d->nsyms);
	assert_int_equal(ask_all(d), mangled);
	assert_false(d->names_new);
	perfev_symbolizer__delete(sy);

	/* Demangled with parameters: the file's names do not hold, and are made again so. */
	sy = new_sy_dm(cache, false, true);
	d = dso_of(sy, elf);
	assert_int_equal(names_from_file(d, want_params), 0);
	for (size_t i = 0; i < d->nsyms; i++)
		assert_string_equal(perfev_dso__find_symbol(d, dso__sym(d, i)->start)->name,
				    perfev_dso__find_symbol(want_params, dso__sym(d, i)->start)->name);
	assert_true(d->names_new);
	perfev_symbolizer__delete(sy); /* now the file holds those */
	sy = new_sy_dm(cache, false, true);
	d = dso_of(sy, elf);
	assert_int_equal(names_from_file(d, want_params), d->nsyms);
	perfev_symbolizer__delete(sy);

	/* Not demangling: no name from the file, the raw ones, and nothing written. */
	sy = new_sy_dm(cache, true, false);
	d = dso_of(sy, elf);
	assert_int_equal(names_from_file(d, want), 0);
	assert_int_equal(ask_all(d), 0);
	assert_false(d->names_new);
	perfev_symbolizer__delete(sy);

	perfev_symbolizer__delete(plain);
	perfev_symbolizer__delete(params);
}

/*
 * A table read from its cache file makes no symbol before one is found,
 * makes each once, and a rewrite keeps the stored names of the symbols
 * the run never made.
 */
static void test_made_when_found(void **state)
{
	char cache[512], elf[1200];
	size_t m, held = 0;
	(void)state;

	snprintf(cache, sizeof(cache), "%s/made", tmp);
	snprintf(elf, sizeof(elf), "%s/cxx", symtest);
	struct perfev_symbolizer *plain = new_sy_dm(NULL, false, false);
	struct perfev_dso *want = dso_of(plain, elf);
	struct perfev_symbolizer *sy = new_sy_dm(cache, false, false);
	struct perfev_dso *d = dso_of(sy, elf);

	perfev_symbolizer__delete(sy); /* written, no name asked */
	sy = new_sy_dm(cache, false, false);
	d = dso_of(sy, elf);
	assert_non_null(d->sc_syms);
	assert_null(d->syms);
	assert_int_equal(d->memo_n, 0);
	/* The first mangled symbol: asking it makes the run write its name. */
	for (m = 0; m < d->nsyms; m++) {
		const struct perfev_symbol *w = perfev_dso__find_symbol(want, symcache__start(d, m));

		if (w && w->name != w->raw_name)
			break;
	}
	assert_true(m < d->nsyms);
	const struct perfev_symbol *s = perfev_dso__find_symbol(d, symcache__start(d, m));

	assert_non_null(s);
	assert_int_equal(d->memo_n, 1);
	assert_ptr_equal(perfev_dso__find_symbol(d, symcache__start(d, m)), s);
	assert_int_equal(d->memo_n, 1);
	assert_string_equal(s->name, perfev_dso__find_symbol(want, s->start)->name);
	/* An address past every symbol's end makes none. */
	assert_null(perfev_dso__find_symbol(d, symcache__start(d, d->nsyms - 1) +
						   symcache__size(d, d->nsyms - 1) + 4096));
	assert_int_equal(d->memo_n, 1);
	assert_true(d->names_new);
	perfev_symbolizer__delete(sy); /* that one name */

	/* Every other symbol asked (another mangled one among them): written again. */
	sy = new_sy_dm(cache, false, false);
	d = dso_of(sy, elf);
	for (size_t i = 0; i < d->nsyms; i++)
		if (i != m)
			assert_non_null(perfev_dso__find_symbol(d, symcache__start(d, i)));
	assert_int_equal(d->memo_n, d->nsyms - 1);
	assert_true(d->names_new);
	perfev_symbolizer__delete(sy);

	/* Symbol m, never made in that run, kept its name from the file before. */
	sy = new_sy_dm(cache, false, false);
	d = dso_of(sy, elf);
	for (size_t i = 0; i < d->nsyms; i++)
		held += dso__sym(d, i)->name != NULL;
	assert_int_equal(held, d->nsyms);
	assert_int_equal(names_from_file(d, want), d->nsyms);
	perfev_symbolizer__delete(sy);
	perfev_symbolizer__delete(plain);
}

static void test_kernel(void **state)
{
	char cache[512];
	(void)state;

	snprintf(cache, sizeof(cache), "%s/kernel", tmp);
	struct perfev_symbolizer *plain = new_sy(NULL, NULL);
	struct perfev_dso *a = perfev_symbolizer__kernel(plain);

	if (perfev_dso__error(a)) {
		perfev_symbolizer__delete(plain);
		skip(); /* kernel addresses hidden here: nothing to cache */
		return;
	}
	struct perfev_symbolizer *w = new_sy(cache, NULL);
	struct perfev_dso *b = perfev_symbolizer__kernel(w);

	assert_null(perfev_dso__error(b));
	assert_null(b->sc_map);
	struct perfev_symbolizer *r = new_sy(cache, NULL);
	struct perfev_dso *c = perfev_symbolizer__kernel(r);

	assert_null(perfev_dso__error(c));
	assert_non_null(c->sc_map);
	assert_int_equal(a->nsyms, c->nsyms);
	for (size_t i = 0; i < a->nsyms; i++) {
		assert_int_equal(dso__sym(a, i)->start, dso__sym(c, i)->start);
		assert_int_equal(dso__sym(a, i)->size, dso__sym(c, i)->size);
		assert_string_equal(dso__sym(a, i)->raw_name, dso__sym(c, i)->raw_name);
		assert_true((dso__sym(a, i)->name == NULL) == (dso__sym(c, i)->name == NULL));
		if (dso__sym(a, i)->name)
			assert_string_equal(dso__sym(a, i)->name, dso__sym(c, i)->name);
	}
	perfev_symbolizer__delete(plain);
	perfev_symbolizer__delete(w);
	perfev_symbolizer__delete(r);
}

/* Every source line and inline chain of d's functions, one text (the lines of the inline binary). */
static char *dwarf_answers(struct perfev_dso *d)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	for (size_t i = 0; i < d->nsyms; i++)
		for (uint64_t a = dso__sym(d, i)->start; a < dso__sym(d, i)->start + dso__sym(d, i)->size; a++) {
			struct perfev_inline_frame fr[8];
			struct perfev_srcline sl;
			int n = perfev_dso__inline_frames(d, a, fr, 8);

			if (!perfev_dso__srcline(d, a, &sl))
				fprintf(f, "%llx %s:%u\n", (unsigned long long)a, sl.file, sl.line);
			for (int k = 0; k < n && k < 8; k++)
				fprintf(f, "  %s %s:%u\n", fr[k].name, fr[k].where.file ? fr[k].where.file : "",
					fr[k].where.line);
		}
	fclose(f);
	return buf;
}

/* The dwarf-* copy in cache (asserted there when want). */
static bool dwarf_copy(char *out, size_t size, const char *cache)
{
	char cmd[1200];

	snprintf(cmd, sizeof(cmd), "ls -d '%s'/symbols-v1/*-dwarf-* 2>/dev/null", cache);
	return first_line(out, size, cmd);
}

static void test_dwarf_decompressed(void **state)
{
	char cache[512], elf[1200], copy[1200];
	char *want, *got;
	struct perfev_symbolizer *sy;
	(void)state;

	snprintf(cache, sizeof(cache), "%s/dw", tmp);
	snprintf(elf, sizeof(elf), "%s/inline-z", tmp);
	sh("objcopy --compress-debug-sections=zlib-gabi '%s/inline' '%s'", symtest, elf);
	sh("readelf -S -W '%s' | grep -q 'debug_info.* C '", elf); /* compressed indeed */
	sy = new_sy(NULL, "/nonexistent");
	want = dwarf_answers(dso_of(sy, elf));
	perfev_symbolizer__delete(sy);
	assert_true(strstr(want, "inline.c") != NULL);
	assert_false(dwarf_copy(copy, sizeof(copy), cache));

	/* Made, then used: the same answers. */
	for (int round = 0; round < 2; round++) {
		sy = new_sy(cache, "/nonexistent");
		got = dwarf_answers(dso_of(sy, elf));
		perfev_symbolizer__delete(sy);
		assert_true(dwarf_copy(copy, sizeof(copy), cache));
		assert_string_equal(want, got);
		free(got);
	}
	sh("readelf -S -W '%s' | grep 'debug_info' | grep -vq ' C '", copy); /* decompressed */

	/* A damaged copy is not used: the file's own DWARF answers. */
	sh("head -c 200 /dev/urandom > '%s'", copy);
	sy = new_sy(cache, "/nonexistent");
	got = dwarf_answers(dso_of(sy, elf));
	perfev_symbolizer__delete(sy);
	assert_string_equal(want, got);
	free(got);

	/* An uncompressed file is read in place: no copy of it. */
	sh("rm -rf '%s'", cache);
	sy = new_sy(cache, "/nonexistent");
	snprintf(elf, sizeof(elf), "%s/inline", symtest);
	got = dwarf_answers(dso_of(sy, elf));
	perfev_symbolizer__delete(sy);
	assert_false(dwarf_copy(copy, sizeof(copy), cache));
	assert_string_equal(want, got);
	free(got);
	free(want);
}

static int setup(void **state)
{
	char exe[1000], *slash;
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	(void)state;

	if (n <= 0)
		return -1;
	exe[n] = 0;
	slash = strrchr(exe, '/');
	*slash = 0;
	snprintf(symtest, sizeof(symtest), "%s/symtest", exe);
	snprintf(tmp, sizeof(tmp), "/tmp/perfev-symcache-XXXXXX");
	if (!mkdtemp(tmp))
		return -1;
	if (access(symtest, R_OK)) {
		fprintf(stderr, "%s: missing; build it with 'make tests'\n", symtest);
		return -1;
	}
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	sh("rm -rf '%s'", tmp);
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_damaged),
		cmocka_unit_test(test_parse_bounds),
		cmocka_unit_test(test_debug_file_appears),
		cmocka_unit_test(test_kernel),
		cmocka_unit_test(test_names_kept),
		cmocka_unit_test(test_made_when_found),
		cmocka_unit_test(test_dwarf_decompressed),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
