// SPDX-License-Identifier: MIT
/*
 * What every writer of the profile needs: its options checked, the kind of
 * a frame and its file, strings and functions interned, and the check that
 * the bytes reached the file.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util/internal.h"
#include "util/opts.h"
#include "profile/html_assets.h"
#include "profile/write_int.h"
#include "perfev/symbols.h"

const char *const write_kind_names[NR_KINDS] = { "user",    "kernel",  "inlined",
						  "jit",     "unknown", "off-cpu" };

int write_opts(struct perfev_profile_write_opts *o, const struct perfev_profile_write_opts *in,
	       const char *format)
{
	if (OPTS_COPY(o, in, perfev_profile_write_opts, buckets) < 0)
		return -errno;
	if (!o->nr_series || !o->series)
		return set_error(EINVAL, "%s: no profile to write (perfev_profile_write_opts.series is "
				 "empty)", format);
	for (size_t i = 0; i < o->nr_series; i++) {
		if (!o->series[i].profile)
			return set_error(EINVAL, "%s: series %zu has no profile", format, i);
		/* Waits for a background inserter: the writers then read the tree directly (PNODE). */
		perfev_profile__nr_nodes(o->series[i].profile);
		if (o->base && !o->base[i].profile)
			return set_error(EINVAL, "%s: series %zu's baseline has no profile", format, i);
		if (o->base)
			perfev_profile__nr_nodes(o->base[i].profile);
	}
	if (o->prefix > PERFEV_WRITE_PREFIX_TID || o->colors > PERFEV_WRITE_COLOR_DSO)
		return set_error(EINVAL, "%s: unknown prefix or colour scheme", format);
	return 0;
}

/* JIT code is found through a perf map, /tmp/perf-PID.map. */
static bool is_perf_map(const char *name)
{
	size_t n = strlen(name);

	return STARTS_WITH(name, "perf-") && n > 9 && !strcmp(name + n - 4, ".map");
}

enum frame_kind write_kind(const struct perfev_profile_frame *f)
{
	if (f->kernel)
		return KIND_KERNEL;
	if (f->inline_name)
		return KIND_INLINED;
	if (f->dso && is_perf_map(perfev_dso__short_name(f->dso)))
		return KIND_JIT;
	/* The session's mark of a wait: a symbol of no file (perfev_session_opts.off_cpu). */
	if (!f->dso && f->sym && f->sym->name && STARTS_WITH(f->sym->name, "[off-cpu]"))
		return KIND_OFF_CPU;
	return f->sym ? KIND_USER : KIND_UNKNOWN;
}

const char *write_dso_path(const struct perfev_profile_frame *f)
{
	if (f->kernel)
		return PERFEV_KERNEL_DSO_NAME;
	return f->dso ? perfev_dso__name(f->dso) : PERFEV_UNKNOWN_NAME;
}

const char *write_dso_short(const struct perfev_profile_frame *f)
{
	if (f->kernel)
		return PERFEV_KERNEL_DSO_NAME;
	return f->dso ? perfev_dso__short_name(f->dso) : PERFEV_UNKNOWN_NAME;
}

const char *write_series_name(const struct perfev_profile_series *s)
{
	return s->name ? s->name : "samples";
}

const char *write_series_type(const struct perfev_profile_series *s)
{
	return s->type ? s->type : write_series_name(s);
}

const char *write_series_unit(const struct perfev_profile_series *s)
{
	return s->unit ? s->unit : "count";
}

void write_xml(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n = strlen(s);

	for (size_t i = 0; i < n;) {
		unsigned char c = p[i];
		uint32_t cp;
		size_t len;

		if (c >= 0x80) {
			len = utf8_len(p + i, n - i, &cp);
			if (len)
				fwrite(p + i, 1, len, f);
			else
				fputs("\xef\xbf\xbd", f);
			i += len ? len : 1;
			continue;
		}
		switch (c) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\'': fputs("&apos;", f); break;
		default:
			if (c < 0x20 || c == 0x7f)
				fprintf(f, "\\x%02x", c);
			else
				fputc(c, f);
		}
		i++;
	}
}

const char *write_clean(const char *in, char *out, size_t size)
{
	const unsigned char *p = (const unsigned char *)in;
	size_t n = strlen(in), o = 0;

	for (size_t i = 0; i < n;) {
		char piece[8];
		size_t len = 1, k;
		uint32_t cp;

		if (p[i] >= 0x80) {
			len = utf8_len(p + i, n - i, &cp);
			if (len)
				memcpy(piece, p + i, k = len);
			else
				memcpy(piece, "\xef\xbf\xbd", k = 3);
			len = len ? len : 1;
		} else if (p[i] < 0x20 || p[i] == 0x7f) {
			k = (size_t)snprintf(piece, sizeof(piece), "\\x%02x", p[i]);
		} else {
			piece[0] = (char)p[i];
			k = 1;
		}
		if (o + k >= size)
			break;
		memcpy(out + o, piece, k);
		o += k;
		i += len;
	}
	if (size)
		out[o] = '\0';
	return out;
}

const struct html_asset *html_asset(const char *name)
{
	for (size_t i = 0; i < html_nr_assets; i++)
		if (!strcmp(html_assets[i].name, name))
			return &html_assets[i];
	return NULL;
}

int write_finish(FILE *f, const char *format)
{
	if (fflush(f) || ferror(f)) {
		int err = errno ? errno : EIO;

		return set_error(err, "%s: writing the output failed: %s", format, strerror(err));
	}
	return 0;
}

struct str_key {
	const struct strtab *t;
	const char *s;
};

static bool str_eq(const void *ctx, uint32_t idx)
{
	const struct str_key *k = ctx;

	return !strcmp(k->t->s[idx], k->s);
}

int64_t strtab_add(struct strtab *t, const char *s)
{
	struct str_key k = { t, s };
	uint64_t h = hash_str(s);
	int64_t i = idxhash_find(&t->h, h, str_eq, &k);
	char *copy;

	if (i >= 0)
		return i;
	copy = strdup(s);
	if (!copy || !array_grow((void **)&t->s, &t->cap, t->nr + 1, sizeof(*t->s)) ||
	    idxhash_insert(&t->h, h, (uint32_t)t->nr) < 0) {
		free(copy);
		set_error(ENOMEM, "profile writer: out of memory");
		return -1;
	}
	t->s[t->nr] = copy;
	return (int64_t)t->nr++;
}

void strtab_free(struct strtab *t)
{
	for (size_t i = 0; i < t->nr; i++)
		free(t->s[i]);
	free(t->s);
	idxhash_free(&t->h);
	memset(t, 0, sizeof(*t));
}

struct fn_key {
	const struct fntab *t;
	struct write_fn fn;
};

static bool fn_eq(const void *ctx, uint32_t idx)
{
	const struct fn_key *k = ctx;
	const struct write_fn *a = &k->t->fns[idx];

	return a->name == k->fn.name && a->file == k->fn.file && a->kind == k->fn.kind;
}

/* The function of frame i of p: found or added; -1 when out of memory. */
static int64_t fn_of(struct fntab *t, const struct perfev_profile *p, uint32_t i)
{
	const struct perfev_profile_frame *f = perfev_profile__frame(p, i);
	char buf[4096];
	int64_t name = strtab_add(t->strings, perfev_profile_frame__name(f, buf, sizeof(buf)));
	int64_t file = strtab_add(t->strings, write_dso_path(f));
	struct fn_key k = { t, { (uint32_t)name, (uint32_t)file, i, (uint8_t)write_kind(f) } };
	uint64_t h;
	int64_t j;

	if (name < 0 || file < 0)
		return -1;
	h = hash_mix(hash_mix((uint64_t)name, (uint64_t)file), k.fn.kind);
	j = idxhash_find(&t->h, h, fn_eq, &k);
	if (j >= 0)
		return j;
	if (!array_grow((void **)&t->fns, &t->cap, t->nr + 1, sizeof(*t->fns)) ||
	    idxhash_insert(&t->h, h, (uint32_t)t->nr) < 0)
		return -1;
	t->fns[t->nr] = k.fn;
	return (int64_t)t->nr++;
}

int fntab_add_profile(struct fntab *t, const struct perfev_profile *p)
{
	size_t n = perfev_profile__nr_frames(p);

	free(t->of_frame);
	t->of_frame = calloc(n ? n : 1, sizeof(*t->of_frame));
	if (!t->of_frame)
		return set_error(ENOMEM, "profile writer: out of memory");
	for (size_t i = 0; i < n; i++) {
		int64_t fn = fn_of(t, p, (uint32_t)i);

		if (fn < 0)
			return set_error(ENOMEM, "profile writer: out of memory");
		t->of_frame[i] = (uint32_t)fn;
	}
	return 0;
}

void fntab_free(struct fntab *t)
{
	free(t->fns);
	free(t->of_frame);
	idxhash_free(&t->h);
}
