/*
 * Symbols, checked against the binutils peers rather than hand-written
 * expectations: nm gives the addresses and names, addr2line -f -i the
 * source lines and inline chains, c++filt the demangled names.  The
 * programs resolved are built by the Makefile into BUILD/tests/symtest/
 * (next to this binary); the kernel is checked against /proc/kallsyms and
 * fake kallsyms files, JIT maps against temp files.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "perfev/perfev.h"
#include "symbols/symbols_int.h"

static char symtest[1024]; /* BUILD/tests/symtest */
static char tmpdir[256];

/* ---- helpers ---- */

static void path_of(char *buf, size_t size, const char *name)
{
	snprintf(buf, size, "%s/%s", symtest, name);
}

/* Runs a shell command; its stdout, NUL-terminated (caller frees). */
static char *run(const char *fmt, ...)
{
	char cmd[8192], *out = NULL;
	size_t len = 0, cap = 0;
	va_list ap;
	FILE *f;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	f = popen(cmd, "r");
	assert_non_null(f);
	for (;;) {
		if (cap - len < 4096) {
			cap = cap ? cap * 2 : 65536;
			out = realloc(out, cap);
			assert_non_null(out);
		}
		size_t n = fread(out + len, 1, cap - len - 1, f);

		if (!n)
			break;
		len += n;
	}
	out[len] = 0;
	pclose(f);
	return out;
}

struct nm_sym {
	uint64_t addr, size;
	char type;
	char name[256];
};

/* The function symbols nm lists (type FUNC or IFUNC in its System V format), with sizes. */
static size_t nm_funcs_opt(const char *file, bool dynamic, struct nm_sym *out, size_t max)
{
	char *text = run("nm %s -f sysv --defined-only '%s' 2>/dev/null", dynamic ? "-D" : "", file);
	char *save = NULL;
	size_t n = 0;

	for (char *line = strtok_r(text, "\n", &save); line && n < max;
	     line = strtok_r(NULL, "\n", &save)) {
		char *f[7], *p = line;
		struct nm_sym s = { 0 };
		int k = 0;

		/* name|value|class|type|size|line|section */
		for (; k < 7 && p; k++) {
			f[k] = p;
			p = strchr(p, '|');
			if (p)
				*p++ = 0;
		}
		if (k < 7 || (!strstr(f[3], "FUNC")))
			continue;
		s.addr = strtoull(f[1], NULL, 16);
		s.size = strtoull(f[4], NULL, 16);
		s.type = f[2][strspn(f[2], " ")];
		snprintf(s.name, sizeof(s.name), "%.*s", (int)strcspn(f[0], " "), f[0]);
		out[n++] = s;
	}
	free(text);
	return n;
}

static size_t nm_funcs(const char *file, struct nm_sym *out, size_t max)
{
	return nm_funcs_opt(file, false, out, max);
}

static uint64_t nm_addr(const char *file, const char *name)
{
	struct nm_sym syms[512];
	size_t n = nm_funcs(file, syms, 512);

	for (size_t i = 0; i < n; i++)
		if (!strcmp(syms[i].name, name))
			return syms[i].addr;
	fail_msg("nm: no %s in %s", name, file);
	return 0;
}

static struct perfev_symbolizer *new_sy(const char *debug_dir, bool params)
{
	struct perfev_symbolizer_opts o = {
		.sz = sizeof(o), .debug_dir = debug_dir, .buildid_dir = "", .demangle_params = params,
	};
	struct perfev_symbolizer *sy = perfev_symbolizer__new(&o);

	assert_non_null(sy);
	return sy;
}

static void expect_name(struct perfev_dso *d, uint64_t addr, const char *name)
{
	const struct perfev_symbol *s = perfev_dso__find_symbol(d, addr);

	if (!s)
		fail_msg("%s: nothing at %#llx, expected %s (%s)", perfev_dso__name(d),
			 (unsigned long long)addr, name, perfev_dso__error(d));
	if (strcmp(s->name, name))
		fail_msg("%s: %#llx is %s, expected %s", perfev_dso__name(d),
			 (unsigned long long)addr, s->name, name);
}

static void copy_file(const char *from, const char *to)
{
	char *out = run("cp '%s' '%s' && echo ok", from, to);

	assert_string_equal(out, "ok\n");
	free(out);
}

static void write_file(const char *path, const char *text, size_t len)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	assert_int_equal(fwrite(text, 1, len, f), len);
	fclose(f);
}

/* ---- ELF files: names against nm ---- */

static void check_against_nm(const char *file, bool dynamic)
{
	struct perfev_symbolizer *sy = new_sy("/nonexistent", false);
	struct perfev_dso *d = perfev_symbolizer__dso(sy, file, NULL, 0);
	static struct nm_sym syms[4096];
	size_t n = nm_funcs_opt(file, dynamic, syms, 4096), checked = 0;

	assert_non_null(d);
	assert_null(perfev_dso__error(d));
	assert_true(n > 3);
	for (size_t i = 0; i < n; i++) {
		const struct perfev_symbol *s = perfev_dso__find_symbol(d, syms[i].addr);

		if (!s)
			fail_msg("%s: nm's %s at %#llx not found", file, syms[i].name,
				 (unsigned long long)syms[i].addr);
		/* Aliases share an address: the one kept may be another name of it. */
		assert_int_equal(s->start, syms[i].addr);
		if (syms[i].size > 1) {
			const struct perfev_symbol *s2 = perfev_dso__find_symbol(d, syms[i].addr + 1);
			const struct perfev_symbol *s3 =
				perfev_dso__find_symbol(d, syms[i].addr + syms[i].size - 1);

			assert_ptr_equal(s, s2);
			assert_ptr_equal(s, s3);
		}
		checked++;
	}
	assert_int_equal(checked, n);
	perfev_symbolizer__delete(sy);
}

static void test_pie_nm(void **state)
{
	char pie[PATH_MAX];
	(void)state;

	path_of(pie, sizeof(pie), "pie");
	check_against_nm(pie, false);

	struct perfev_symbolizer *sy = new_sy(NULL, false);
	struct perfev_dso *d = perfev_symbolizer__dso(sy, pie, NULL, 0);

	expect_name(d, nm_addr(pie, "pie_global_work"), "pie_global_work");
	expect_name(d, nm_addr(pie, "pie_second_function") + 2, "pie_second_function");
	expect_name(d, nm_addr(pie, "pie_static_helper"), "pie_static_helper");
	expect_name(d, nm_addr(pie, "main"), "main");
	assert_string_equal(perfev_dso__symbol_file(d), pie);
	assert_string_equal(perfev_dso__short_name(d), "pie");
	assert_false(perfev_dso__is_kernel(d));
	/* Asked again: the same DSO. */
	assert_ptr_equal(perfev_symbolizer__dso(sy, pie, NULL, 0), d);
	perfev_symbolizer__delete(sy);
}

static void test_shared_lib_nm(void **state)
{
	char lib[PATH_MAX], cxx[PATH_MAX];
	(void)state;

	path_of(lib, sizeof(lib), "libsym.so");
	check_against_nm(lib, false);

	/*
	 * Of weak aliases the one a local alias spells (perf names such a
	 * function by the local alias); of equal global names the first of
	 * the table, as perf keeps it.
	 */
	struct perfev_symbolizer *sy = new_sy(NULL, false);
	struct perfev_dso *d = perfev_symbolizer__dso(sy, lib, NULL, 0);
	char *first = run("readelf -sW '%s' | awk '/\\.symtab/ { on = 1 } on && $8 ~ /^libsym_tie_/ { print $8; exit }'", lib);

	first[strcspn(first, "\n")] = '\0';
	expect_name(d, nm_addr(lib, "libsym_alias_f32"), "libsym_alias");
	expect_name(d, nm_addr(lib, "libsym_tie_a"), first);
	free(first);
	perfev_symbolizer__delete(sy);
	path_of(cxx, sizeof(cxx), "cxx");
	check_against_nm(cxx, false);
	/* Stripped system files: their .dynsym, with its many aliases and IFUNCs. */
	if (!access("/lib/x86_64-linux-gnu/libc.so.6", R_OK))
		check_against_nm("/lib/x86_64-linux-gnu/libc.so.6", true);
}

/*
 * Runs prog with an argument (it prints "name ADDR" per function, then
 * waits for stdin to close), reads its /proc/PID/maps, and resolves each
 * runtime address through the mapping of file that holds it.
 */
static void check_runtime(const char *prog, const char *file, const char *const *names, size_t n)
{
	int in[2], out[2];
	pid_t pid;
	char buf[4096], path[PATH_MAX], real[PATH_MAX];
	struct perfev_symbolizer *sy = new_sy(NULL, false);
	struct perfev_dso *d = perfev_symbolizer__dso(sy, file, NULL, 0);
	size_t len = 0, found = 0;

	assert_non_null(realpath(file, real));
	assert_int_equal(pipe(in), 0);
	assert_int_equal(pipe(out), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		dup2(in[0], 0);
		dup2(out[1], 1);
		close(in[1]);
		close(out[0]);
		execl(prog, prog, "show", (char *)NULL);
		_exit(127);
	}
	close(in[0]);
	close(out[1]);
	for (;;) {
		ssize_t r = read(out[0], buf + len, sizeof(buf) - 1 - len);

		if (r <= 0)
			break;
		len += (size_t)r;
		buf[len] = 0;
		if (strstr(buf, names[n - 1]) && buf[len - 1] == '\n')
			break;
	}
	buf[len] = 0;
	snprintf(path, sizeof(path), "/proc/%d/maps", (int)pid);
	char *maps = run("cat %s", path);

	for (size_t i = 0; i < n; i++) {
		char key[128], *p, *save = NULL;
		unsigned long long ip = 0;

		snprintf(key, sizeof(key), "%s 0x", names[i]);
		p = strstr(buf, key);
		assert_non_null(p);
		ip = strtoull(p + strlen(key), NULL, 16);
		char *copy = strdup(maps);

		for (char *line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
			struct perfev_proc_map m;

			if (perfev_proc_map__parse(line, strlen(line), &m) || strcmp(m.path, real) ||
			    ip < m.start || ip >= m.end)
				continue;
			uint64_t a = perfev_dso__map_ip(d, ip, m.start, m.pgoff);

			assert_int_equal(a, nm_addr(file, names[i]));
			expect_name(d, a, names[i]);
			found++;
		}
		free(copy);
	}
	free(maps);
	close(in[1]);
	close(out[0]);
	waitpid(pid, NULL, 0);
	assert_int_equal(found, n);
	perfev_symbolizer__delete(sy);
}

static void test_pie_runtime(void **state)
{
	static const char *const names[] = { "pie_global_work", "pie_second_function",
					     "pie_static_helper" };
	char pie[PATH_MAX];
	(void)state;

	path_of(pie, sizeof(pie), "pie");
	check_runtime(pie, pie, names, 3);
}

static void test_shared_lib_runtime(void **state)
{
	static const char *const names[] = { "libsym_compute", "libsym_other" };
	char prog[PATH_MAX], lib[PATH_MAX];
	(void)state;

	path_of(prog, sizeof(prog), "uselib");
	path_of(lib, sizeof(lib), "libsym.so");
	check_runtime(prog, lib, names, 2);
}

static void test_map_ip_segments(void **state)
{
	char pie[PATH_MAX];
	struct perfev_symbolizer *sy = new_sy(NULL, false);
	(void)state;

	path_of(pie, sizeof(pie), "pie");
	struct perfev_dso *d = perfev_symbolizer__dso(sy, pie, NULL, 0);
	/* The text segment from readelf: its file offset maps to its vaddr wherever it is loaded. */
	char *out = run("readelf -lW '%s' | awk '$1 == \"LOAD\" && / E / {print $2, $3}'", pie);
	unsigned long long off, vaddr;

	assert_int_equal(sscanf(out, "%llx %llx", &off, &vaddr), 2);
	free(out);
	uint64_t base = 0x7f0000000000ull, pgoff = off & ~0xfffull;

	assert_int_equal(perfev_dso__map_ip(d, base + (off - pgoff) + 0x10, base, pgoff),
			 vaddr + 0x10);
	perfev_symbolizer__delete(sy);
}

/* ---- separate debug files, build ids ---- */

static int read_id(const char *file, uint8_t *id)
{
	int n = perfev_build_id__read(file, id, BUILD_ID_MAX);

	assert_true(n > 0);
	return n;
}

static void expect_statics(struct perfev_dso *d, const char *debug)
{
	expect_name(d, nm_addr(debug, "stripped_static_one"), "stripped_static_one");
	expect_name(d, nm_addr(debug, "stripped_static_two") + 1, "stripped_static_two");
}

static void test_stripped_debuglink(void **state)
{
	char bin[PATH_MAX], dbg[PATH_MAX], copy[PATH_MAX], cdbg[PATH_MAX];
	struct perfev_symbolizer *sy = new_sy("/nonexistent", false);
	struct perfev_srcline l;
	(void)state;

	path_of(bin, sizeof(bin), "stripped");
	path_of(dbg, sizeof(dbg), ".debug/stripped.debug");
	/* The stripped file has no .symtab: nm sees nothing of the statics. */
	char *out = run("nm '%s' 2>&1", bin);
	assert_null(strstr(out, "stripped_static_one"));
	free(out);

	/* In .debug/ next to the file. */
	struct perfev_dso *d = perfev_symbolizer__dso(sy, bin, NULL, 0);
	expect_statics(d, dbg);
	assert_string_equal(perfev_dso__symbol_file(d), dbg);
	assert_int_equal(perfev_dso__srcline(d, nm_addr(dbg, "stripped_static_one"), &l), 0);
	out = run("addr2line -e '%s' %llx", dbg, (unsigned long long)nm_addr(dbg, "stripped_static_one"));
	char expect[PATH_MAX + 32];
	snprintf(expect, sizeof(expect), "%s:%u\n", l.file, l.line);
	assert_string_equal(out, expect);
	free(out);
	perfev_symbolizer__delete(sy);

	/* Right next to the file. */
	snprintf(copy, sizeof(copy), "%s/stripped", tmpdir);
	snprintf(cdbg, sizeof(cdbg), "%s/stripped.debug", tmpdir);
	copy_file(bin, copy);
	copy_file(dbg, cdbg);
	sy = new_sy("/nonexistent", false);
	d = perfev_symbolizer__dso(sy, copy, NULL, 0);
	expect_statics(d, dbg);
	assert_string_equal(perfev_dso__symbol_file(d), cdbg);
	perfev_symbolizer__delete(sy);

	/* A debug file without a build id is checked by CRC: a wrong one is refused... */
	out = run("objcopy --remove-section .note.gnu.build-id '%s' '%s' && echo ok", dbg, cdbg);
	assert_string_equal(out, "ok\n");
	free(out);
	sy = new_sy("/nonexistent", false);
	d = perfev_symbolizer__dso(sy, copy, NULL, 0);
	assert_null(perfev_dso__find_symbol(d, nm_addr(dbg, "stripped_static_one")));
	assert_null(perfev_dso__symbol_file(d)); /* .dynsym has imports only */
	assert_non_null(perfev_dso__error(d));
	perfev_symbolizer__delete(sy);
	/* ...and the right one (the link remade over it) accepted. */
	out = run("cd '%s' && objcopy --remove-section .gnu_debuglink stripped s2 && "
		  "objcopy --add-gnu-debuglink=stripped.debug s2 stripped && echo ok", tmpdir);
	assert_string_equal(out, "ok\n");
	free(out);
	sy = new_sy("/nonexistent", false);
	d = perfev_symbolizer__dso(sy, copy, NULL, 0);
	expect_statics(d, dbg);
	perfev_symbolizer__delete(sy);
}

static void test_stripped_build_id(void **state)
{
	char bin[PATH_MAX], dbg[PATH_MAX], copy[PATH_MAX], dir[PATH_MAX], expect[PATH_MAX + 64];
	char hex[41];
	uint8_t id[BUILD_ID_MAX];
	(void)state;

	path_of(bin, sizeof(bin), "stripped");
	path_of(dbg, sizeof(dbg), ".debug/stripped.debug");
	path_of(dir, sizeof(dir), "debug");
	int n = read_id(bin, id);
	build_id__hex(id, (size_t)n, hex);
	/* Alone in a directory: the link finds nothing, the build id does. */
	snprintf(copy, sizeof(copy), "%s/alone", tmpdir);
	mkdir(copy, 0755);
	snprintf(copy, sizeof(copy), "%s/alone/stripped", tmpdir);
	copy_file(bin, copy);
	for (int with_id = 0; with_id < 2; with_id++) {
		struct perfev_symbolizer *sy = new_sy(dir, false);
		struct perfev_dso *d = perfev_symbolizer__dso(sy, copy, with_id ? id : NULL,
							      with_id ? (size_t)n : 0);

		expect_statics(d, dbg);
		snprintf(expect, sizeof(expect), "%s/.build-id/%.2s/%s.debug", dir, hex, hex + 2);
		assert_string_equal(perfev_dso__symbol_file(d), expect);
		perfev_symbolizer__delete(sy);
	}
	/* The file gone, its build id still names the debug file: addresses still resolve. */
	struct perfev_symbolizer *sy = new_sy(dir, false);
	struct perfev_dso *d = perfev_symbolizer__dso(sy, "/gone/stripped", id, (size_t)n);
	expect_statics(d, dbg);
	perfev_symbolizer__delete(sy);
}

static void test_build_id_mismatch(void **state)
{
	char pie[PATH_MAX], cache[1024], elf[PATH_MAX], hex[41];
	uint8_t id[BUILD_ID_MAX], other[BUILD_ID_MAX];
	struct perfev_symbolizer *sy = new_sy("/nonexistent", false);
	(void)state;

	path_of(pie, sizeof(pie), "pie");
	int n = read_id(pie, id);
	memcpy(other, id, sizeof(other));
	other[3] ^= 0x5a;
	/* The right id: the file itself. */
	struct perfev_dso *d = perfev_symbolizer__dso(sy, pie, id, (size_t)n);
	expect_name(d, nm_addr(pie, "main"), "main");
	/* Padded to 20 bytes as perf.data stores it (sha1 ids are 20 already: pad a shorter one). */
	/* Another id (the file rebuilt since): refused, with an error saying so. */
	struct perfev_dso *d2 = perfev_symbolizer__dso(sy, pie, other, (size_t)n);
	assert_ptr_not_equal(d, d2);
	assert_null(perfev_dso__find_symbol(d2, nm_addr(pie, "main")));
	assert_int_equal(errno, ENOENT);
	assert_non_null(perfev_dso__error(d2));
	assert_non_null(strstr(perfev_dso__error(d2), "rebuilt"));
	assert_null(perfev_dso__symbol_file(d2));
	perfev_symbolizer__delete(sy);

	/* perf's build-id cache: ~/.debug/.build-id/xx/rest/elf. */
	build_id__hex(id, (size_t)n, hex);
	snprintf(cache, sizeof(cache), "%s/cache", tmpdir);
	free(run("mkdir -p '%s/.build-id/%.2s/%s'", cache, hex, hex + 2));
	snprintf(elf, sizeof(elf), "%s/.build-id/%.2s/%s/elf", cache, hex, hex + 2);
	copy_file(pie, elf);
	struct perfev_symbolizer_opts o = { .sz = sizeof(o), .buildid_dir = cache,
					    .debug_dir = "/nonexistent" };
	sy = perfev_symbolizer__new(&o);
	d = perfev_symbolizer__dso(sy, "/no/such/pie", id, (size_t)n);
	expect_name(d, nm_addr(pie, "pie_global_work"), "pie_global_work");
	assert_string_equal(perfev_dso__symbol_file(d), elf);
	/* map_ip through the cached file's segments. */
	assert_int_equal(perfev_dso__map_ip(d, 0x5010, 0x5000, 0x1000), 0x1010);
	/* Missing everywhere: a clear error. */
	d2 = perfev_symbolizer__dso(sy, "/no/such/pie", other, (size_t)n);
	assert_non_null(strstr(perfev_dso__error(d2), "no file with build id"));
	perfev_symbolizer__delete(sy);
}

/* ---- DWARF against addr2line ---- */

struct a2l_frame {
	char name[256], file[PATH_MAX];
	unsigned line;
};

/* addr2line -f -i -a output for one address, innermost first. */
static int addr2line_frames(const char *text, struct a2l_frame *f, int max)
{
	int n = 0;
	const char *p = text;

	while (*p && n < max) {
		const char *nl = strchr(p, '\n'), *nl2, *colon;

		if (!nl)
			break;
		nl2 = strchr(nl + 1, '\n');
		if (!nl2)
			break;
		snprintf(f[n].name, sizeof(f[n].name), "%.*s", (int)(nl - p), p);
		colon = memrchr(nl + 1, ':', (size_t)(nl2 - nl - 1));
		assert_non_null(colon);
		snprintf(f[n].file, sizeof(f[n].file), "%.*s", (int)(colon - nl - 1), nl + 1);
		f[n].line = (unsigned)strtoul(colon + 1, NULL, 10); /* "?": 0, as we give it */
		n++;
		p = nl2 + 1;
	}
	return n;
}

/* Compares inline frames and srclines with addr2line for every byte of [lo, hi). */
static int check_dwarf_range(struct perfev_dso *d, const char *file, uint64_t lo, uint64_t hi,
			     bool demangle)
{
	char *cmd = malloc(64 * 1024), *out;
	size_t len;
	int deepest = 0;

	assert_non_null(cmd);
	len = (size_t)snprintf(cmd, 1024, "addr2line %s -f -i -a -e '%s'", demangle ? "-C" : "", file);
	for (uint64_t a = lo; a < hi && len < 60000; a++)
		len += (size_t)snprintf(cmd + len, 64, " %llx", (unsigned long long)a);
	out = run("%s | sed 's/ (discriminator [0-9]*)//'", cmd);
	free(cmd);
	/* Groups start with "0x<addr>" lines. */
	char *p = out;
	for (uint64_t a = lo; a < hi; a++) {
		struct a2l_frame want[32];
		struct perfev_inline_frame got[32];
		struct perfev_srcline l;
		char *start = strstr(p, "0x"), *next;

		assert_non_null(start);
		assert_int_equal(strtoull(start, NULL, 16), a);
		start = strchr(start, '\n') + 1;
		next = strstr(start, "\n0x");
		if (next)
			next[1] = 0;
		int nw = addr2line_frames(start, want, 32);
		int ng = perfev_dso__inline_frames(d, a, got, 32);

		if (next)
			next[1] = '0';
		p = next ? next + 1 : start + strlen(start);
		if (!strcmp(want[0].name, "??")) { /* nothing known */
			assert_true(ng <= 1);
			continue;
		}
		if (ng != nw)
			fail_msg("%#llx: %d inline frames, addr2line gives %d (first %s)",
				 (unsigned long long)a, ng, nw, want[0].name);
		for (int i = 0; i < nw; i++) {
			assert_string_equal(got[i].name, want[i].name);
			assert_string_equal(got[i].where.file, want[i].file);
			assert_int_equal(got[i].where.line, want[i].line);
		}
		assert_int_equal(perfev_dso__srcline(d, a, &l), 0);
		assert_string_equal(l.file, want[0].file);
		assert_int_equal(l.line, want[0].line);
		if (nw > deepest)
			deepest = nw;
	}
	free(out);
	return deepest;
}

static void test_inline_frames(void **state)
{
	char bin[PATH_MAX];
	struct perfev_symbolizer *sy = new_sy(NULL, false);
	(void)state;

	path_of(bin, sizeof(bin), "inline");
	struct perfev_dso *d = perfev_symbolizer__dso(sy, bin, NULL, 0);
	uint64_t host = nm_addr(bin, "inl_host");
	const struct perfev_symbol *s = perfev_dso__find_symbol(d, host);

	assert_non_null(s);
	/* The three inlined functions nest inside inl_host: at least 4 frames somewhere. */
	assert_true(check_dwarf_range(d, bin, s->start, s->start + s->size, false) >= 4);
	/* Asked twice: the cached answer, the same. */
	assert_true(check_dwarf_range(d, bin, s->start, s->start + s->size, false) >= 4);
	perfev_symbolizer__delete(sy);
}

static void test_srcline(void **state)
{
	static const char *const files[] = { "pie", "libsym.so", "cxx", "uselib" };
	(void)state;

	for (size_t f = 0; f < 4; f++) {
		char bin[PATH_MAX];
		struct nm_sym syms[256];
		struct perfev_symbolizer *sy = new_sy(NULL, false);

		path_of(bin, sizeof(bin), files[f]);
		struct perfev_dso *d = perfev_symbolizer__dso(sy, bin, NULL, 0);
		size_t n = nm_funcs(bin, syms, 256);

		for (size_t i = 0; i < n; i++)
			if (syms[i].size && syms[i].size < 400 && strncmp(syms[i].name, "_", 1))
				check_dwarf_range(d, bin, syms[i].addr, syms[i].addr + syms[i].size,
						  true);
		perfev_symbolizer__delete(sy);
	}
}

/* ---- demangling against c++filt ---- */

static void chomp(char *s)
{
	size_t n = strlen(s);

	while (n && s[n - 1] == '\n')
		s[--n] = 0;
}

static void test_cxx_names(void **state)
{
	char bin[PATH_MAX];
	struct nm_sym syms[512];
	size_t checked = 0;
	(void)state;

	path_of(bin, sizeof(bin), "cxx");
	size_t n = nm_funcs(bin, syms, 512);
	for (int params = 0; params < 2; params++) {
		struct perfev_symbolizer *sy = new_sy(NULL, params);
		struct perfev_dso *d = perfev_symbolizer__dso(sy, bin, NULL, 0);

		for (size_t i = 0; i < n; i++) {
			const struct perfev_symbol *s = perfev_dso__find_symbol(d, syms[i].addr);
			char *want;

			if (strncmp(syms[i].name, "_Z", 2) || strcmp(s->raw_name, syms[i].name))
				continue;
			want = run("echo '%s' | c++filt %s", syms[i].name, params ? "" : "-p");
			chomp(want);
			assert_string_equal(s->name, want);
			free(want);
			checked++;
		}
		perfev_symbolizer__delete(sy);
	}
	assert_true(checked >= 8); /* scale<int>, scale<double>, frob x2, hidden_helper: twice */

	/* no_demangle keeps the names as in the file. */
	struct perfev_symbolizer_opts o = { .sz = sizeof(o), .no_demangle = true };
	struct perfev_symbolizer *sy = perfev_symbolizer__new(&o);
	struct perfev_dso *d = perfev_symbolizer__dso(sy, bin, NULL, 0);
	const struct perfev_symbol *s = perfev_dso__find_symbol(d, nm_addr(bin, "_ZN12_GLOBAL__N_113hidden_helperEi"));
	assert_string_equal(s->name, "_ZN12_GLOBAL__N_113hidden_helperEi");
	perfev_symbolizer__delete(sy);
}

/* c++filt is verbose: it keeps Rust's legacy hash ("::h<16 hex>") and v0 crate disambiguators ("[hex]"). */
static void strip_rust_verbose(char *s)
{
	char *h = strstr(s, "::h"), *b;

	if (h && strlen(h) == 19)
		*h = 0;
	while ((b = strchr(s, '['))) {
		char *e = strchr(b, ']');

		if (!e || strspn(b + 1, "0123456789abcdef") != (size_t)(e - b - 1))
			break;
		memmove(b, e + 1, strlen(e + 1) + 1);
	}
}

static void test_demangle(void **state)
{
	static const char *const names[] = {
		/* C++ */
		"_ZN9wikipedia7article6formatEv",
		"_ZNSt6vectorIiSaIiEE9push_backERKi",
		"_ZN5Outer5InnerC2Ev",
		"_ZNK3foo3barIiE3bazEPKc",
		/* Rust legacy */
		"_ZN4core3ptr13drop_in_place17h5a3b7c6f1e2d4a8bE",
		"_ZN3std2rt10lang_start28_$u7b$$u7b$closure$u7d$$u7d$17h9f3e2b1c4d5a6789E",
		"_ZN5alloc7raw_vec19RawVec$LT$T$C$A$GT$7reserve17h8d3c7a1e9b2f4c60E",
		/* Rust v0 */
		"_RNvCs15kBYyAo9fc_7mycrate7example",
		"_RNvNtCs1234_7mycrate3foo3bar",
		"_RINvNtC3std3mem8align_ofdE",
		"_RNvMsr_NtCs3ssYzQotkvD_3std4pathNtB5_7PathBuf3new",
	};
	char buf[512];
	(void)state;

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		for (int params = 0; params < 2; params++) {
			char *want = run("echo '%s' | c++filt %s", names[i], params ? "" : "-p");
			int n = perfev_demangle(names[i], params, buf, sizeof(buf));

			chomp(want);
			if (names[i][1] == 'R' || strstr(names[i], "17h"))
				strip_rust_verbose(want);
			if (n < 0)
				fail_msg("%s: not demangled (%d); c++filt: %s", names[i], n, want);
			assert_int_equal(n, (int)strlen(buf));
			assert_string_equal(buf, want);
			free(want);
		}
	}
	assert_int_equal(perfev_demangle("main", false, buf, sizeof(buf)), -EINVAL);
	assert_int_equal(perfev_demangle("_Znotmangled", false, buf, sizeof(buf)), -EINVAL);
	assert_int_equal(perfev_demangle(names[0], false, buf, 4), -ENOSPC);
	assert_int_equal(perfev_demangle(NULL, false, buf, 4), -EINVAL);
}

/* ---- the kernel ---- */

static void test_kernel_live(void **state)
{
	FILE *f = fopen("/proc/kallsyms", "r");
	char line[1024], prev_name[512] = "";
	unsigned long long prev = 0;
	int checked = 0;
	struct perfev_symbolizer *sy = new_sy(NULL, false);
	struct perfev_dso *k = perfev_symbolizer__kernel(sy);
	struct timespec t0, t1;
	(void)state;

	assert_non_null(f);
	assert_true(perfev_dso__is_kernel(k));
	assert_ptr_equal(perfev_symbolizer__dso(sy, "[kernel.kallsyms]_text", NULL, 0), k);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	const char *err = perfev_dso__error(k);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	if (err) {
		fclose(f);
		perfev_symbolizer__delete(sy);
		print_message("kernel symbols hidden here: %s\n", err);
		skip();
	}
	print_message("kallsyms loaded in %.1f ms\n",
		      (t1.tv_sec - t0.tv_sec) * 1e3 + (t1.tv_nsec - t0.tv_nsec) / 1e6);
	/* Kernel text symbols alone at their address, followed by another at least 2 bytes on. */
	while (fgets(line, sizeof(line), f) && checked < 200) {
		unsigned long long a;
		char t, name[512], mod[128] = "";

		if (sscanf(line, "%llx %c %511s %127s", &a, &t, name, mod) < 3)
			continue;
		if (prev && a > prev + 1 && prev_name[0]) {
			const struct perfev_symbol *s0 = perfev_dso__find_symbol(k, prev);
			const struct perfev_symbol *s1 = perfev_dso__find_symbol(k, prev + 1);

			assert_non_null(s0);
			assert_string_equal(s0->raw_name, prev_name);
			assert_ptr_equal(s0, s1);
			checked++;
		}
		prev_name[0] = 0;
		if ((t == 'T' || t == 't') && !mod[0] && a != prev) {
			prev = a;
			snprintf(prev_name, sizeof(prev_name), "%s", name);
		} else {
			prev = a;
		}
	}
	fclose(f);
	assert_true(checked > 50);
	assert_int_equal(perfev_dso__map_ip(k, 0xffffffff81000010ull, 1, 2), 0xffffffff81000010ull);
	perfev_symbolizer__delete(sy);
}

static struct perfev_dso *kernel_from(struct perfev_symbolizer **sy, const char *text)
{
	char path[PATH_MAX];
	struct perfev_symbolizer_opts o = { .sz = sizeof(o), .kallsyms = path };

	snprintf(path, sizeof(path), "%s/kallsyms", tmpdir);
	write_file(path, text, strlen(text));
	*sy = perfev_symbolizer__new(&o);
	assert_non_null(*sy);
	return perfev_symbolizer__kernel(*sy);
}

static void test_kernel_kptr_restrict(void **state)
{
	struct perfev_symbolizer *sy;
	struct perfev_dso *k = kernel_from(&sy,
		"0000000000000000 T _text\n0000000000000000 T schedule\n"
		"0000000000000000 t helper\t[kvm]\n");
	const char *err = perfev_dso__error(k);
	(void)state;

	assert_non_null(err);
	assert_non_null(strstr(err, "kptr_restrict"));
	/* A copy of kallsyms: this machine's settings are not what hid them. */
	assert_non_null(strstr(err, "copied from"));
	assert_null(perfev_dso__find_symbol(k, 0));
	perfev_symbolizer__delete(sy);
}

static void test_kernel_modules(void **state)
{
	struct perfev_symbolizer *sy;
	struct perfev_dso *k = kernel_from(&sy,
		"ffffffff81000000 T _text\n"
		"ffffffff81000100 T schedule\n"
		"ffffffff81000100 t __schedule_alias\n"
		"ffffffff81000180 d some_data\n"
		"ffffffff81000200 W weak_fn\n"
		"garbage line\n"
		"ffffffff8100020 X\n"
		"ffffffffc0000000 t vmx_vcpu_run\t[kvm_intel]\n"
		"ffffffffc0000400 T kvm_arch_thing\t[kvm]\n"
		"ffffffffc0000500 T last_one\t[kvm]\r\n");
	(void)state;

	assert_null(perfev_dso__error(k));
	expect_name(k, 0xffffffff81000000ull, "_text");
	/* Of aliases the last listed, as perf (its zero-length fix-up leaves only the last sized). */
	expect_name(k, 0xffffffff81000100ull, "__schedule_alias");
	expect_name(k, 0xffffffff810001ffull, "__schedule_alias"); /* data is no symbol: to the next text */
	expect_name(k, 0xffffffff81000200ull, "weak_fn");
	/* The kernel's last symbol does not run into the modules. */
	assert_null(perfev_dso__find_symbol(k, 0xffffffffbf000000ull));
	expect_name(k, 0xffffffffc0000010ull, "vmx_vcpu_run [kvm_intel]");
	const struct perfev_symbol *s = perfev_dso__find_symbol(k, 0xffffffffc0000400ull);
	assert_string_equal(s->name, "kvm_arch_thing [kvm]");
	assert_string_equal(s->raw_name, "kvm_arch_thing");
	expect_name(k, 0xffffffffc0000510ull, "last_one [kvm]");
	perfev_symbolizer__delete(sy);
}

/* ---- JIT maps ---- */

static void test_jit(void **state)
{
	static const char map[] =
		"7f0000001000 40 LazyCompile:~foo /app/x.js:1\n"
		"0x7f0000001040 0x20 Builtin:bar\n"
		"  7f0000002000 10   spaced name  \n"
		"not a line\n"
		"7f0000003000\n"
		"7f0000003000 zz name\n"
		"ffffffffffffff00 1000 wraps\n"
		"7f0000004000 0 zero_size\n"
		"7f0000004100 8 after_zero\n"
		"7f0000005000 8 torn";
	char path[PATH_MAX];
	struct perfev_symbolizer_opts o = { .sz = sizeof(o), .jit_dir = tmpdir };
	struct perfev_symbolizer *sy = perfev_symbolizer__new(&o);
	(void)state;

	snprintf(path, sizeof(path), "%s/perf-4242.map", tmpdir);
	write_file(path, map, strlen(map));
	struct perfev_dso *d = perfev_symbolizer__jit(sy, 4242);
	assert_null(perfev_dso__error(d));
	assert_string_equal(perfev_dso__symbol_file(d), path);
	expect_name(d, 0x7f0000001000ull, "LazyCompile:~foo /app/x.js:1");
	expect_name(d, 0x7f000000103full, "LazyCompile:~foo /app/x.js:1");
	expect_name(d, 0x7f0000001040ull, "Builtin:bar");
	assert_null(perfev_dso__find_symbol(d, 0x7f0000001060ull));
	expect_name(d, 0x7f0000002005ull, "spaced name");
	expect_name(d, 0x7f00000040ffull, "zero_size"); /* extends to the next */
	expect_name(d, 0x7f0000004100ull, "after_zero");
	expect_name(d, 0x7f0000005007ull, "torn");
	assert_null(perfev_dso__find_symbol(d, 0x7f0000003000ull));
	assert_int_equal(perfev_dso__map_ip(d, 1234, 1, 2), 1234);
	assert_ptr_equal(perfev_symbolizer__jit(sy, 4242), d);
	/* No map: a DSO without symbols, with the reason. */
	d = perfev_symbolizer__jit(sy, 4243);
	assert_non_null(d);
	assert_non_null(strstr(perfev_dso__error(d), "perf-4243.map"));
	perfev_symbolizer__delete(sy);

	/* From memory: every prefix of the text parses without harm. */
	sy = perfev_symbolizer__new(NULL);
	for (size_t len = 0; len <= strlen(map); len++) {
		d = symbolizer__dso_from_text(sy, false, map, len);
		assert_non_null(d);
		perfev_dso__find_symbol(d, 0x7f0000001000ull);
	}
	perfev_symbolizer__delete(sy);
}

/* ---- corrupt files ---- */

static void test_corrupt_elf(void **state)
{
	char pie[PATH_MAX], bad[PATH_MAX];
	struct stat st;
	(void)state;

	path_of(pie, sizeof(pie), "pie");
	assert_int_equal(stat(pie, &st), 0);
	snprintf(bad, sizeof(bad), "%s/bad.elf", tmpdir);
	/* Truncated at various points; garbage in the section headers; not ELF at all. */
	for (int variant = 0; variant < 6; variant++) {
		char *out;

		if (variant == 0)
			out = run("head -c 1000 '%s' > '%s' && echo ok", pie, bad);
		else if (variant == 1)
			out = run("head -c %lld '%s' > '%s' && echo ok", (long long)st.st_size / 2, pie, bad);
		else if (variant == 2) /* e_shoff to the middle of .text */
			out = run("cp '%s' '%s' && printf '\\x40\\x11' | dd of='%s' bs=1 seek=40 "
				  "conv=notrunc 2>/dev/null && echo ok", pie, bad, bad);
		else if (variant == 3) /* section headers overwritten with garbage */
			out = run("cp '%s' '%s' && sz=$(stat -c %%s '%s') && head -c 2000 /dev/urandom | "
				  "dd of='%s' bs=1 seek=$((sz - 2000)) conv=notrunc 2>/dev/null && echo ok",
				  pie, bad, bad, bad);
		else if (variant == 4)
			out = run("head -c 5000 /dev/urandom > '%s' && echo ok", bad);
		else
			out = run(": > '%s' && echo ok", bad);
		assert_string_equal(out, "ok\n");
		free(out);

		struct perfev_symbolizer *sy = new_sy(NULL, false);
		struct perfev_dso *d = perfev_symbolizer__dso(sy, bad, NULL, 0);
		struct perfev_inline_frame fr[4];
		struct perfev_srcline l;

		assert_non_null(d);
		for (uint64_t a = 0; a < 0x3000; a += 7) {
			perfev_dso__find_symbol(d, a);
			perfev_dso__srcline(d, a, &l);
			perfev_dso__inline_frames(d, a, fr, 4);
			perfev_dso__map_ip(d, a, 0, 0);
		}
		if (variant >= 4 || variant == 0)
			assert_non_null(perfev_dso__error(d));
		perfev_symbolizer__delete(sy);
	}
	/* A missing file: a DSO, no symbols, and why. */
	struct perfev_symbolizer *sy = new_sy(NULL, false);
	struct perfev_dso *d = perfev_symbolizer__dso(sy, "/no/such/file", NULL, 0);
	assert_non_null(d);
	assert_non_null(strstr(perfev_dso__error(d), "cannot open"));
	assert_int_equal(perfev_dso__map_ip(d, 0x5010, 0x5000, 0x1000), 0x1010);
	perfev_symbolizer__delete(sy);
}

static void test_api(void **state)
{
	struct perfev_symbolizer_opts o = { .sz = 2 };
	struct perfev_symbolizer *sy;
	uint8_t id[21] = { 1 };
	(void)state;

	assert_null(perfev_symbolizer__new(&o));
	assert_int_equal(errno, EINVAL);
	sy = perfev_symbolizer__new(NULL);
	assert_non_null(sy);
	assert_null(perfev_symbolizer__dso(sy, NULL, NULL, 0));
	assert_int_equal(errno, EINVAL);
	assert_null(perfev_symbolizer__dso(sy, "", NULL, 0));
	assert_null(perfev_symbolizer__dso(sy, "/bin/true", id, 21));
	assert_int_equal(errno, EINVAL);
	struct perfev_dso *v = perfev_symbolizer__dso(sy, "[vdso]", NULL, 0);
	assert_non_null(v);
	assert_non_null(perfev_dso__error(v));
	assert_null(perfev_dso__find_symbol(v, 0x1000));
	assert_int_equal(perfev_dso__srcline(v, 0x1000, &(struct perfev_srcline){ 0 }), -ENOENT);
	assert_int_equal(perfev_dso__inline_frames(v, 0x1000, NULL, 0), -ENOENT);
	assert_string_equal(perfev_dso__short_name(v), "[vdso]");
	/* Many DSOs: the table grows and finds each again. */
	struct perfev_dso *ds[300];
	for (int i = 0; i < 300; i++) {
		char name[64];

		snprintf(name, sizeof(name), "/nonexistent/lib%d.so", i);
		ds[i] = perfev_symbolizer__dso(sy, name, NULL, 0);
		assert_non_null(ds[i]);
	}
	for (int i = 0; i < 300; i++) {
		char name[64];

		snprintf(name, sizeof(name), "/nonexistent/lib%d.so", i);
		assert_ptr_equal(perfev_symbolizer__dso(sy, name, NULL, 0), ds[i]);
	}
	perfev_symbolizer__delete(sy);
	perfev_symbolizer__delete(NULL);

	/* opts.root prefixes the DSO paths: "/pie" under the test directory. */
	char pie[PATH_MAX];
	struct perfev_symbolizer_opts r = { .sz = sizeof(r), .root = symtest };

	path_of(pie, sizeof(pie), "pie");
	sy = perfev_symbolizer__new(&r);
	assert_non_null(sy);
	v = perfev_symbolizer__dso(sy, "/pie", NULL, 0);
	expect_name(v, nm_addr(pie, "pie_global_work"), "pie_global_work");
	assert_string_equal(perfev_dso__name(v), "/pie");
	assert_string_equal(perfev_dso__symbol_file(v), pie);
	perfev_symbolizer__delete(sy);
}

/* ---- speed, printed for the record ---- */

static void test_lookup_speed(void **state)
{
	const char *libc = "/lib/x86_64-linux-gnu/libc.so.6";
	struct perfev_symbolizer *sy = new_sy(NULL, false);
	struct timespec t0, t1;
	uint64_t x = 88172645463325252ull, hits = 0, end;
	const size_t n = 2000000;
	(void)state;

	if (access(libc, R_OK)) {
		perfev_symbolizer__delete(sy);
		skip();
	}
	struct perfev_dso *d = perfev_symbolizer__dso(sy, libc, NULL, 0);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	assert_null(perfev_dso__error(d));
	clock_gettime(CLOCK_MONOTONIC, &t1);
	print_message("libc: %zu symbols loaded in %.1f ms\n", d->nsyms,
		      (t1.tv_sec - t0.tv_sec) * 1e3 + (t1.tv_nsec - t0.tv_nsec) / 1e6);
	end = dso__sym(d, d->nsyms - 1)->start + dso__sym(d, d->nsyms - 1)->size;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (size_t i = 0; i < n; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		hits += perfev_dso__find_symbol(d, dso__sym(d, 0)->start + x % (end - dso__sym(d, 0)->start)) != NULL;
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	double s = (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;
	print_message("libc: %.1f M lookups/s (%llu of %zu hit)\n", n / s / 1e6,
		      (unsigned long long)hits, n);
	assert_true(hits > n / 2);
	perfev_symbolizer__delete(sy);
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
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/perfev-symtest-XXXXXX");
	if (!mkdtemp(tmpdir))
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
	free(run("rm -rf '%s'", tmpdir));
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pie_nm),
		cmocka_unit_test(test_shared_lib_nm),
		cmocka_unit_test(test_pie_runtime),
		cmocka_unit_test(test_shared_lib_runtime),
		cmocka_unit_test(test_map_ip_segments),
		cmocka_unit_test(test_stripped_debuglink),
		cmocka_unit_test(test_stripped_build_id),
		cmocka_unit_test(test_build_id_mismatch),
		cmocka_unit_test(test_inline_frames),
		cmocka_unit_test(test_srcline),
		cmocka_unit_test(test_cxx_names),
		cmocka_unit_test(test_demangle),
		cmocka_unit_test(test_kernel_live),
		cmocka_unit_test(test_kernel_kptr_restrict),
		cmocka_unit_test(test_kernel_modules),
		cmocka_unit_test(test_jit),
		cmocka_unit_test(test_corrupt_elf),
		cmocka_unit_test(test_api),
		cmocka_unit_test(test_lookup_speed),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
