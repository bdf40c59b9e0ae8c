/* SPDX-License-Identifier: MIT */
/*
 * The symbolizer: the options every DSO is loaded with, and its DSOs, found
 * again by (path, build id) in a hash table, created on first request and
 * loaded only when first asked a question (dso.c).
 */
#include <stdlib.h>
#include <string.h>

#include "util/internal.h"
#include "symbols/symbols_int.h"
#include "util/opts.h"

/* ---- the symbolizer ---- */

static char *dup_or(const char *s, const char *dflt)
{
	return strdup(s ? s : dflt);
}

struct perfev_symbolizer *perfev_symbolizer__new(const struct perfev_symbolizer_opts *opts)
{
	struct perfev_symbolizer_opts o;
	struct perfev_symbolizer *sy;
	const char *home = getenv("HOME");
	char *cache = NULL;

	if (OPTS_COPY(&o, opts, perfev_symbolizer_opts, root) < 0)
		return NULL;
	sy = calloc(1, sizeof(*sy));
	if (!sy)
		return set_error_ptr(ENOMEM, "no memory for a symbolizer");
	sy->root = dup_or(o.root, "");
	if (sy->root && !strcmp(sy->root, "/"))
		sy->root[0] = 0;
	if (o.debug_dir) {
		sy->debug_dir = strdup(o.debug_dir);
	} else if (sy->root && asprintf(&sy->debug_dir, "%s/usr/lib/debug", sy->root) < 0) {
		sy->debug_dir = NULL;
	}
	if (!o.buildid_dir && home && *home && asprintf(&cache, "%s/.debug", home) < 0)
		cache = NULL;
	sy->buildid_dir = o.buildid_dir ? strdup(o.buildid_dir) : cache ? cache : strdup("");
	sy->kallsyms = dup_or(o.kallsyms, "/proc/kallsyms");
	sy->jit_dir = dup_or(o.jit_dir, "/tmp");
	sy->symcache_dir = dup_or(o.symcache_dir, "");
	sy->no_demangle = o.no_demangle;
	sy->demangle_params = o.demangle_params;
	sy->warn = o.warn;
	sy->warn_ctx = o.warn_ctx;
	sy->nbuckets = 64;
	sy->buckets = calloc(sy->nbuckets, sizeof(*sy->buckets));
	if (!sy->root || !sy->debug_dir || !sy->buildid_dir || !sy->kallsyms || !sy->jit_dir || !sy->symcache_dir ||
	    !sy->buckets) {
		perfev_symbolizer__delete(sy);
		return set_error_ptr(ENOMEM, "no memory for a symbolizer");
	}
	return sy;
}

static void dso__delete(struct perfev_dso *d)
{
	dso__dwarf_close(d);
	symcache__update(d);
	symcache__drop(d);
	arena_free(&d->names);
	free(d->image);
	free(d->name);
	free(d->error);
	free(d->elf_file);
	free(d->sym_file);
	free(d->dwarf_file);
	free(d->debug_file);
	free(d);
}

void perfev_symbolizer__delete(struct perfev_symbolizer *sy)
{
	if (!sy)
		return;
	for (size_t i = 0; sy->buckets && i < sy->nbuckets; i++) {
		struct perfev_dso *d = sy->buckets[i];

		while (d) {
			struct perfev_dso *n = d->next;

			dso__delete(d);
			d = n;
		}
	}
	if (sy->kernel)
		dso__delete(sy->kernel);
	free(sy->buckets);
	free(sy->root);
	free(sy->debug_dir);
	free(sy->buildid_dir);
	free(sy->kallsyms);
	free(sy->jit_dir);
	free(sy->symcache_dir);
	free(sy);
}

static uint64_t hash_key(const char *path, const uint8_t *bid, size_t bid_size, int pid)
{
	uint64_t h = 1469598103934665603ull; /* FNV-1a */

	for (const unsigned char *p = (const unsigned char *)path; *p; p++)
		h = (h ^ *p) * 1099511628211ull;
	for (size_t i = 0; i < bid_size; i++)
		h = (h ^ bid[i]) * 1099511628211ull;
	return (h ^ (uint64_t)(uint32_t)pid) * 1099511628211ull;
}

static void rehash(struct perfev_symbolizer *sy)
{
	size_t n = sy->nbuckets * 4;
	struct perfev_dso **b = calloc(n, sizeof(*b));

	if (!b)
		return; /* longer chains, still correct */
	for (size_t i = 0; i < sy->nbuckets; i++) {
		struct perfev_dso *d = sy->buckets[i];

		while (d) {
			struct perfev_dso *next = d->next;
			size_t h = hash_key(d->name, d->build_id, d->build_id_size, d->pid) & (n - 1);

			d->next = b[h];
			b[h] = d;
			d = next;
		}
	}
	free(sy->buckets);
	sy->buckets = b;
	sy->nbuckets = n;
}

static struct perfev_dso *dso__new(struct perfev_symbolizer *sy, enum dso_kind kind,
				   const char *name, const uint8_t *bid, size_t bid_size, int pid)
{
	struct perfev_dso *d = calloc(1, sizeof(*d));
	const char *slash;

	if (!d || !(d->name = strdup(name))) {
		free(d);
		return set_error_ptr(ENOMEM, "no memory for the DSO %s", name);
	}
	d->sy = sy;
	d->kind = kind;
	d->pid = pid;
	d->dwarf_fd = -1;
	slash = strrchr(d->name, '/');
	d->short_name = slash && slash[1] ? slash + 1 : d->name;
	if (bid_size)
		memcpy(d->build_id, bid, bid_size);
	d->build_id_size = bid_size;
	return d;
}

static void add_dso(struct perfev_symbolizer *sy, struct perfev_dso *d)
{
	size_t h;

	if (sy->ndsos >= sy->nbuckets)
		rehash(sy);
	h = hash_key(d->name, d->build_id, d->build_id_size, d->pid) & (sy->nbuckets - 1);
	d->next = sy->buckets[h];
	sy->buckets[h] = d;
	sy->ndsos++;
}

static struct perfev_dso *find_or_add(struct perfev_symbolizer *sy, enum dso_kind kind,
				      const char *name, const uint8_t *bid, size_t bid_size, int pid)
{
	size_t h = hash_key(name, bid, bid_size, pid) & (sy->nbuckets - 1);
	struct perfev_dso *d;

	for (d = sy->buckets[h]; d; d = d->next)
		if (d->kind == kind && d->pid == pid && d->build_id_size == bid_size &&
		    (!bid_size || !memcmp(d->build_id, bid, bid_size)) && !strcmp(d->name, name))
			return d;
	d = dso__new(sy, kind, name, bid, bid_size, pid);
	if (d)
		add_dso(sy, d);
	return d;
}

struct perfev_dso *perfev_symbolizer__dso(struct perfev_symbolizer *sy, const char *path,
					  const uint8_t *build_id, size_t build_id_size)
{
	if (!sy || !path || !*path)
		return set_error_ptr(EINVAL, "symbolizer: no DSO path given");
	if (build_id_size > BUILD_ID_MAX || (build_id_size && !build_id))
		return set_error_ptr(EINVAL, "%s: a build id of %zu bytes; expected 1 to %d", path,
				     build_id_size, BUILD_ID_MAX);
	if (!build_id)
		build_id_size = 0;
	if (STARTS_WITH(path, PERFEV_KERNEL_DSO_NAME))
		return perfev_symbolizer__kernel(sy);
	/* The vDSO has no file, but a copy of it may be in the build-id cache. */
	if (build_id_size && !strcmp(path, BUILD_ID_VDSO_NAME))
		return find_or_add(sy, DSO_FILE, path, build_id, build_id_size, 0);
	if (path[0] == '[' || STARTS_WITH(path, MAP_NAME_ANON) || STARTS_WITH(path, MAP_NAME_DEV_ZERO) ||
	    STARTS_WITH(path, "/SYSV") || STARTS_WITH(path, MAP_NAME_MEMFD))
		return find_or_add(sy, DSO_NONE, path, NULL, 0, 0);
	return find_or_add(sy, DSO_FILE, path, build_id, build_id_size, 0);
}

struct perfev_dso *perfev_symbolizer__kernel(struct perfev_symbolizer *sy)
{
	if (!sy)
		return set_error_ptr(EINVAL, "symbolizer: none given");
	if (!sy->kernel)
		sy->kernel = dso__new(sy, DSO_KERNEL, PERFEV_KERNEL_DSO_NAME, NULL, 0, 0);
	return sy->kernel;
}

struct perfev_dso *perfev_symbolizer__jit(struct perfev_symbolizer *sy, int pid)
{
	char name[4096];

	if (!sy)
		return set_error_ptr(EINVAL, "symbolizer: none given");
	if ((size_t)snprintf(name, sizeof(name), "%s/perf-%d.map", sy->jit_dir, pid) >= sizeof(name))
		return set_error_ptr(EINVAL, "symbolizer: the JIT directory %s is too long", sy->jit_dir);
	return find_or_add(sy, DSO_JIT, name, NULL, 0, pid);
}

static struct perfev_dso *memory_dso(struct perfev_symbolizer *sy, enum dso_kind kind,
				     const char *name, const void *data, size_t len)
{
	struct perfev_dso *d;

	if (!sy || (!data && len))
		return set_error_ptr(EINVAL, "symbolizer: no image given");
	d = dso__new(sy, kind, name, NULL, 0, -1);
	if (!d)
		return NULL;
	/* One spare NUL: text parsers may rely on it, libelf ignores it. */
	d->image = malloc(len + 1);
	if (!d->image) {
		dso__delete(d);
		return set_error_ptr(ENOMEM, "no memory for a %zu-byte image", len);
	}
	if (len)
		memcpy(d->image, data, len);
	((char *)d->image)[len] = 0;
	d->image_size = len;
	add_dso(sy, d);
	return d;
}

struct perfev_dso *symbolizer__dso_from_elf_image(struct perfev_symbolizer *sy, const void *img,
						  size_t len)
{
	return memory_dso(sy, DSO_MEMORY, "[elf image]", img, len);
}

struct perfev_dso *symbolizer__dso_from_text(struct perfev_symbolizer *sy, bool kallsyms,
					     const char *text, size_t len)
{
	return memory_dso(sy, kallsyms ? DSO_KERNEL : DSO_JIT, kallsyms ? "[kallsyms text]" : "[perf map text]",
			  text, len);
}
