/* SPDX-License-Identifier: MIT */
/*
 * The symbolizer: DSOs found again by (path, build id), loaded on their
 * first lookup, and the lookups themselves.  A report asks millions of
 * addresses, so a lookup is a binary search over a sorted array with no
 * allocation (a C++ name is demangled once, the first time its symbol is
 * returned, into the DSO's name arena).
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "symbols_int.h"

/* ---- string arena ---- */

struct arena_chunk {
	struct arena_chunk *next;
	size_t size;
	_Alignas(16) unsigned char data[];
};

#define ARENA_CHUNK (64u << 10)

void *arena_alloc(struct arena *a, size_t size)
{
	size_t need = (size + 15) & ~(size_t)15;

	if (need < size)
		return NULL;
	if (!a->head || a->cap - a->used < need) {
		size_t cap = need > ARENA_CHUNK ? need : ARENA_CHUNK, total;
		struct arena_chunk *c;

		if (!size_add_ok(cap, sizeof(*c), &total))
			return NULL;
		c = malloc(total);
		if (!c)
			return NULL;
		c->size = cap;
		if (a->head && need > ARENA_CHUNK && a->cap - a->used > 1024) {
			/* A big one-off: keep filling the current chunk afterwards. */
			c->next = a->head->next;
			a->head->next = c;
			return c->data;
		}
		c->next = a->head;
		a->head = c;
		a->used = 0;
		a->cap = cap;
	}
	void *p = a->head->data + a->used;

	a->used += need;
	return p;
}

char *arena_strndup(struct arena *a, const char *s, size_t len)
{
	char *p;

	if (len == SIZE_MAX)
		return NULL;
	p = arena_alloc(a, len + 1);
	if (!p)
		return NULL;
	memcpy(p, s, len);
	p[len] = 0;
	return p;
}

void arena_free(struct arena *a)
{
	struct arena_chunk *c = a->head;

	while (c) {
		struct arena_chunk *n = c->next;

		free(c);
		c = n;
	}
	a->head = NULL;
	a->used = a->cap = 0;
}

/* ---- symbol tables ---- */

int sym_builder__add(struct sym_builder *b, uint64_t start, uint64_t size, const char *name,
		     size_t name_len, unsigned prio)
{
	if (b->n == b->cap) {
		size_t cap = b->cap ? b->cap * 2 : 256, bytes;
		struct perfev_symbol *s;
		unsigned char *p;

		if (!size_mul_ok(cap, sizeof(*s), &bytes))
			return -ENOMEM;
		s = realloc(b->syms, bytes);
		if (!s)
			return -ENOMEM;
		b->syms = s;
		p = realloc(b->prio, cap);
		if (!p)
			return -ENOMEM;
		b->prio = p;
		b->cap = cap;
	}
	char *n = arena_strndup(&b->d->names, name, name_len);

	if (!n)
		return -ENOMEM;
	b->syms[b->n] = (struct perfev_symbol){ .start = start, .size = size, .raw_name = n };
	b->prio[b->n] = (unsigned char)(prio > 255 ? 255 : prio);
	b->n++;
	return 0;
}

/* Sorting carries the priority along: sort indexes, then permute. */
struct sym_sort {
	struct perfev_symbol s;
	unsigned char prio;
};

static size_t leading_underscores(const char *s)
{
	size_t n = 0;

	while (s[n] == '_')
		n++;
	return n;
}

/* Is a a better name than b for one address?  perf's order: prio (binding), underscores, length. */
static bool better(const struct sym_sort *a, const struct sym_sort *b)
{
	size_t ua, ub, la, lb;

	if ((a->s.size != 0) != (b->s.size != 0))
		return a->s.size != 0;
	if (a->prio != b->prio)
		return a->prio > b->prio;
	ua = leading_underscores(a->s.raw_name);
	ub = leading_underscores(b->s.raw_name);
	if (ua != ub)
		return ua < ub;
	la = strlen(a->s.raw_name);
	lb = strlen(b->s.raw_name);
	if (la != lb)
		return la > lb;
	return strcmp(a->s.raw_name, b->s.raw_name) < 0;
}

static int cmp_sort(const void *pa, const void *pb)
{
	const struct sym_sort *a = pa, *b = pb;

	if (a->s.start != b->s.start)
		return a->s.start < b->s.start ? -1 : 1;
	/* Best first, so dedup keeps the first of each run. */
	if (better(a, b))
		return -1;
	if (better(b, a))
		return 1;
	return 0;
}

int sym_builder__finish(struct sym_builder *b, uint64_t last_end)
{
	struct perfev_dso *d = b->d;
	struct sym_sort *t;
	size_t n = 0, bytes;

	if (!b->n) {
		sym_builder__abort(b);
		return 0;
	}
	if (!size_mul_ok(b->n, sizeof(*t), &bytes) || !(t = malloc(bytes))) {
		sym_builder__abort(b);
		return -ENOMEM;
	}
	for (size_t i = 0; i < b->n; i++)
		t[i] = (struct sym_sort){ b->syms[i], b->prio[i] };
	qsort(t, b->n, sizeof(*t), cmp_sort);
	uint64_t sized_end = 0;

	for (size_t i = 0; i < b->n; i++) {
		if (n && t[i].s.start == b->syms[n - 1].start)
			continue; /* an alias of the one kept */
		/* A code label (prio 0) inside a sized function is part of it, not a symbol of its own. */
		if (t[i].prio == 0 && t[i].s.start < sized_end)
			continue;
		b->syms[n++] = t[i].s;
		if (t[i].s.size && t[i].s.start + t[i].s.size > sized_end)
			sized_end = t[i].s.start + t[i].s.size;
	}
	free(t);
	for (size_t i = 0; i < n; i++) {
		struct perfev_symbol *s = &b->syms[i];

		if (s->size)
			continue;
		if (i + 1 < n)
			s->size = b->syms[i + 1].start - s->start;
		else if (last_end > s->start)
			s->size = last_end - s->start;
	}
	free(b->prio);
	d->syms = n < b->cap / 2 ? realloc(b->syms, n * sizeof(*b->syms)) : b->syms;
	if (!d->syms)
		d->syms = b->syms;
	d->nsyms = n;
	b->syms = NULL;
	b->prio = NULL;
	b->n = b->cap = 0;
	return 0;
}

void sym_builder__abort(struct sym_builder *b)
{
	free(b->syms);
	free(b->prio);
	b->syms = NULL;
	b->prio = NULL;
	b->n = b->cap = 0;
}

/* ---- the symbolizer ---- */

static char *dup_or(const char *s, const char *dflt)
{
	return strdup(s ? s : dflt);
}

struct perfev_symbolizer *perfev_symbolizer__new(const struct perfev_symbolizer_opts *opts)
{
	struct perfev_symbolizer_opts o = { 0 };
	struct perfev_symbolizer *sy;
	const char *home = getenv("HOME");
	char *cache = NULL;

	if (opts) {
		if (opts->sz < offsetof(struct perfev_symbolizer_opts, root) + sizeof(opts->root))
			return set_error_ptr(EINVAL, "perfev_symbolizer_opts.sz is %zu, too small; set it "
						     "to sizeof(struct perfev_symbolizer_opts)", opts->sz);
		/*
		 * A newer caller's fields past our struct must be zero: we cannot
		 * honour them.  (Not our own padding: initializers may leave it
		 * uninitialized.)
		 */
		for (size_t i = sizeof(o); i < opts->sz; i++)
			if (((const unsigned char *)opts)[i])
				return set_error_ptr(EINVAL, "perfev_symbolizer_opts: a field at byte %zu "
							     "is set that this (older) library does "
							     "not know", i);
		memcpy(&o, opts, opts->sz < sizeof(o) ? opts->sz : sizeof(o));
	}
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
	sy->no_demangle = o.no_demangle;
	sy->demangle_params = o.demangle_params;
	sy->nbuckets = 64;
	sy->buckets = calloc(sy->nbuckets, sizeof(*sy->buckets));
	if (!sy->root || !sy->debug_dir || !sy->buildid_dir || !sy->kallsyms || !sy->jit_dir ||
	    !sy->buckets) {
		perfev_symbolizer__delete(sy);
		return set_error_ptr(ENOMEM, "no memory for a symbolizer");
	}
	return sy;
}

static void dso__delete(struct perfev_dso *d)
{
	dso__dwarf_close(d);
	free(d->syms);
	free(d->segs);
	arena_free(&d->names);
	free(d->image);
	free(d->name);
	free(d->error);
	free(d->elf_file);
	free(d->sym_file);
	free(d->dwarf_file);
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
	if (!strncmp(path, "[kernel.kallsyms]", 17))
		return perfev_symbolizer__kernel(sy);
	if (path[0] == '[' || !strncmp(path, "//anon", 6) || !strncmp(path, "/dev/zero", 9) ||
	    !strncmp(path, "/SYSV", 5) || !strncmp(path, "/memfd:", 7))
		return find_or_add(sy, DSO_NONE, path, NULL, 0, 0);
	return find_or_add(sy, DSO_FILE, path, build_id, build_id_size, 0);
}

struct perfev_dso *perfev_symbolizer__kernel(struct perfev_symbolizer *sy)
{
	if (!sy)
		return set_error_ptr(EINVAL, "symbolizer: none given");
	if (!sy->kernel)
		sy->kernel = dso__new(sy, DSO_KERNEL, "[kernel.kallsyms]", NULL, 0, 0);
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

/* ---- loading ---- */

void dso__set_error(struct perfev_dso *d, int err, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	set_error(err, "%s", buf);
	pr_debug("symbols: %s\n", buf);
	if (!d->error)
		d->error = strdup(buf); /* NULL on ENOMEM: perfev_dso__error() says so then */
}

void dso__load(struct perfev_dso *d)
{
	int err = 0;

	if (d->loaded)
		return;
	d->loaded = true;
	switch (d->kind) {
	case DSO_FILE:
		err = dso__load_file(d);
		break;
	case DSO_MEMORY:
		err = dso__load_memory(d);
		break;
	case DSO_KERNEL:
		err = d->image ? kallsyms__parse(d, d->image, d->image_size) : dso__load_kernel(d);
		break;
	case DSO_JIT:
		err = d->image ? perf_map__parse(d, d->image, d->image_size) : dso__load_jit(d);
		break;
	case DSO_NONE:
		dso__set_error(d, ENOENT, "%s: not a file, so no symbols", d->name);
		return;
	}
	if (err == -ENOMEM)
		dso__set_error(d, ENOMEM, "%s: out of memory while loading its symbols", d->name);
	if (!err && !d->nsyms)
		dso__set_error(d, ENOENT, "%s: no function symbols in %s", d->name,
			       d->sym_file ? d->sym_file : d->elf_file ? d->elf_file : "it");
}

/* ---- accessors and lookups ---- */

const char *perfev_dso__name(const struct perfev_dso *d)
{
	return d ? d->name : NULL;
}

const char *perfev_dso__short_name(const struct perfev_dso *d)
{
	return d ? d->short_name : NULL;
}

const char *perfev_dso__symbol_file(struct perfev_dso *d)
{
	if (!d)
		return NULL;
	dso__load(d);
	if (!d->nsyms)
		return NULL;
	return d->sym_file;
}

const char *perfev_dso__error(struct perfev_dso *d)
{
	if (!d)
		return "no DSO";
	dso__load(d);
	if (d->nsyms)
		return NULL;
	return d->error ? d->error : "no symbols (and no memory to say why)";
}

bool perfev_dso__is_kernel(const struct perfev_dso *d)
{
	return d && d->kind == DSO_KERNEL;
}

uint64_t perfev_dso__map_ip(struct perfev_dso *d, uint64_t ip, uint64_t map_start,
			    uint64_t map_pgoff)
{
	uint64_t off = ip - map_start + map_pgoff;
	const struct dso_seg *best = NULL;

	if (!d)
		return off;
	if (d->kind == DSO_KERNEL || d->kind == DSO_JIT)
		return ip;
	dso__load(d);
	if (!d->seg_offsets_known) {
		/*
		 * Only a separate debug file's headers (their p_filesz is 0):
		 * assume the mapping starts at the executable segment's page, as
		 * the loader maps it.
		 */
		for (size_t i = 0; i < d->nsegs; i++)
			if (d->segs[i].exec) {
				uint64_t mask = d->segs[i].align > 1 ? d->segs[i].align - 1 : 0;

				if (!(d->segs[i].align & mask))
					return ip - map_start + (d->segs[i].vaddr & ~mask);
				return ip - map_start + d->segs[i].vaddr;
			}
		return off;
	}
	for (size_t i = 0; i < d->nsegs; i++) {
		const struct dso_seg *s = &d->segs[i];

		if (off >= s->offset && off - s->offset < s->filesz)
			return off - s->offset + s->vaddr;
		/* Past a segment's file bytes (its .bss): the nearest one below. */
		if (off >= s->offset && (!best || s->offset > best->offset))
			best = s;
	}
	return best ? off - best->offset + best->vaddr : off;
}

const struct perfev_symbol *perfev_dso__find_symbol(struct perfev_dso *d, uint64_t addr)
{
	struct perfev_symbol *s;
	size_t lo = 0, hi;

	if (!d) {
		errno = EINVAL;
		return NULL;
	}
	if (!d->loaded)
		dso__load(d);
	hi = d->nsyms;
	/* The last symbol starting at or below addr. */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (d->syms[mid].start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo) {
		errno = ENOENT;
		return NULL;
	}
	s = &d->syms[lo - 1];
	if (addr - s->start >= s->size && !(s->size == 0 && addr == s->start)) {
		errno = ENOENT;
		return NULL;
	}
	if (!s->name) {
		const char *dm = sym__demangle(d, s->raw_name);

		s->name = dm ? dm : s->raw_name;
	}
	return s;
}
