// SPDX-License-Identifier: MIT
/*
 * The flame tree: the profile's nodes merged by label, in one pass (a
 * node's parent comes before it), then each node's children sorted by
 * their labels' bytes so that every output made from it is the same from
 * run to run.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "util/internal.h"
#include "profile/profile_int.h"
#include "profile/flame.h"

#define NONE PERFEV_PROFILE_NONE

/*
 * stackcollapse-perf.pl's tidying: ";" would split the stack, so it becomes
 * ":"; what follows the first "(" is an argument list (unless the name is a
 * Go method "pkg.(*T).M", or the "(" opens "(anonymous namespace)"); quotes
 * go.
 */
static void tidy(const char *in, char *out, size_t size)
{
	size_t o = 0;
	const char *dot_paren = strstr(in, ".(");
	bool go_method = dot_paren && strstr(dot_paren, ").");

	for (const char *p = in; *p && o + 1 < size; p++) {
		if (*p == '(' && !go_method && !STARTS_WITH(p, "(anonymous namespace)"))
			break;
		if (*p == '"' || *p == '\'')
			continue;
		out[o++] = *p == ';' ? ':' : *p;
	}
	out[o] = '\0';
}

/* A frame's label into buf (of size bytes). */
static const char *frame_label(const struct perfev_profile_frame *f, bool folded, char *buf,
			       size_t size)
{
	char raw[4096];
	enum frame_kind k = write_kind(f);

	if (!f->sym && !f->inline_name) {
		/* An unresolved address: perf script's "[unknown]", which stackcollapse names by its file. */
		if (f->kernel || !f->dso)
			snprintf(raw, sizeof(raw), "%s%s", PERFEV_UNKNOWN_NAME,
				 folded && f->kernel ? "_[k]" : "");
		else
			snprintf(raw, sizeof(raw), "[%s]", perfev_dso__short_name(f->dso));
	} else {
		perfev_profile_frame__name(f, raw, sizeof(raw) - 8);
		if (folded && k == KIND_KERNEL)
			strcat(raw, "_[k]");
		else if (folded && k == KIND_JIT)
			strcat(raw, "_[j]");
	}
	if (!folded) {
		snprintf(buf, size, "%s", raw);
		return buf;
	}
	/* One line a stack: no control byte, and valid UTF-8 for whatever reads it next. */
	char clean[4096];

	tidy(write_clean(raw, clean, sizeof(clean)), buf, size - 4);
	if (k == KIND_INLINED)
		strcat(buf, "_[i]");
	return buf;
}

/* A thread's label as the prefix says: the command (blanks as "_"), with its pid and tid. */
static const char *thread_label(const struct perfev_profile_thread *t,
				enum perfev_write_prefix prefix, bool folded, char *buf, size_t size)
{
	if (prefix == PERFEV_WRITE_PREFIX_PID)
		snprintf(buf, size, "%s-%d", t->comm, t->pid);
	else if (prefix == PERFEV_WRITE_PREFIX_TID)
		snprintf(buf, size, "%s-%d/%d", t->comm, t->pid, t->tid);
	else
		snprintf(buf, size, "%s", t->comm);
	if (folded) {
		char clean[512];

		snprintf(buf, size, "%s", write_clean(buf, clean, sizeof(clean)));
	}
	for (char *c = buf; *c; c++)
		if (*c == ' ' || *c == '\t')
			*c = '_';
		else if (*c == ';' && folded)
			*c = ':';
	return buf;
}

struct child_key {
	const struct flame *fl;
	uint32_t parent, label;
	uint8_t kind;
};

static bool child_eq(const void *ctx, uint32_t idx)
{
	const struct child_key *k = ctx;
	const struct flame_node *n = &k->fl->n[idx];

	return n->parent == k->parent && n->label == k->label && n->kind == k->kind;
}

/* The child of parent with this label and kind, made when new; -1 when out of memory. */
static int64_t child(struct flame *fl, uint32_t parent, uint32_t label, uint32_t file, uint8_t kind)
{
	struct child_key k = { fl, parent, label, kind };
	uint64_t h = hash_mix(hash_mix(parent, label), kind);
	int64_t i = idxhash_find(&fl->h, h, child_eq, &k);

	if (i >= 0)
		return i;
	if (!array_grow((void **)&fl->n, &fl->cap, fl->nr + 1, sizeof(*fl->n)) ||
	    idxhash_insert(&fl->h, h, (uint32_t)fl->nr) < 0)
		return -1;
	fl->n[fl->nr] = (struct flame_node){ .parent = parent, .label = label, .file = file,
					     .kind = kind, .depth = fl->n[parent].depth + 1,
					     .first_child = NONE, .next_sibling = NONE };
	return (int64_t)fl->nr++;
}

static const struct flame *sort_fl;

static int by_parent_label(const void *a, const void *b)
{
	const struct flame_node *x = &sort_fl->n[*(const uint32_t *)a], *y = &sort_fl->n[*(const uint32_t *)b];
	int c;

	if (x->parent != y->parent)
		return x->parent < y->parent ? -1 : 1;
	c = strcmp(sort_fl->labels.s[x->label], sort_fl->labels.s[y->label]);
	return c ? c : x->kind - y->kind;
}

/* Links each node's children in label order. */
static int link_children(struct flame *fl)
{
	uint32_t *order = malloc(fl->nr * sizeof(*order));

	if (!order)
		return set_error(ENOMEM, "profile writer: out of memory");
	for (size_t i = 0; i < fl->nr; i++)
		order[i] = (uint32_t)i;
	/* qsort takes no context; the writers run one flame tree at a time per thread. */
	sort_fl = fl;
	sort_array(order + 1, fl->nr - 1, sizeof(*order), by_parent_label);
	for (size_t i = fl->nr; i-- > 1;) {
		struct flame_node *n = &fl->n[order[i]];

		n->next_sibling = fl->n[n->parent].first_child;
		fl->n[n->parent].first_child = order[i];
	}
	free(order);
	return 0;
}

/* The flame node of profile node pn, whose parent's is known; -1 when out of memory. */
static int64_t place(struct flame *fl, const struct perfev_profile *p, const uint32_t *of,
		     const struct perfev_profile_node *pn, enum perfev_write_prefix prefix, bool folded)
{
	char buf[4096];
	const char *label, *file = "";
	uint8_t kind = KIND_USER;
	int64_t l, fi;

	if (pn->depth == 1) { /* a thread */
		if (prefix == PERFEV_WRITE_PREFIX_NONE)
			return 0;
		label = thread_label(perfev_profile__thread(p, pn->thread), prefix, folded, buf,
				     sizeof(buf));
		kind = KIND_UNKNOWN;
	} else {
		const struct perfev_profile_frame *f = perfev_profile__frame(p, pn->frame);

		label = frame_label(f, folded, buf, sizeof(buf));
		kind = (uint8_t)write_kind(f);
		file = write_dso_path(f);
	}
	l = strtab_add(&fl->labels, label);
	fi = strtab_add(&fl->labels, file);
	if (l < 0 || fi < 0)
		return -1;
	return child(fl, of[pn->parent], (uint32_t)l, (uint32_t)fi, kind);
}

int flame_build(struct flame *fl, const struct perfev_profile *p, enum perfev_write_prefix prefix,
		bool folded)
{
	size_t nr = perfev_profile__nr_nodes(p);
	uint32_t *of = malloc(nr * sizeof(*of));
	int err = 0;

	memset(fl, 0, sizeof(*fl));
	if (!of || !array_grow((void **)&fl->n, &fl->cap, 1, sizeof(*fl->n))) {
		free(of);
		return set_error(ENOMEM, "profile writer: out of memory");
	}
	fl->n[0] = (struct flame_node){ .parent = NONE, .first_child = NONE, .next_sibling = NONE,
					.kind = KIND_UNKNOWN };
	fl->nr = 1;
	/* The root's label, index 0. */
	if (strtab_add(&fl->labels, "all") < 0) {
		free(of);
		flame_free(fl);
		return set_error(ENOMEM, "profile writer: out of memory");
	}
	of[0] = 0;
	for (size_t i = 1; i < nr && !err; i++) {
		const struct perfev_profile_node *pn = PNODE(p, i);
		int64_t at = place(fl, p, of, pn, prefix, folded);

		if (at < 0) {
			err = set_error(ENOMEM, "profile writer: out of memory");
			break;
		}
		of[i] = (uint32_t)at;
		fl->n[at].self += pn->self;
		fl->n[at].self_samples += pn->self_samples;
	}
	free(of);
	if (!err)
		err = link_children(fl);
	/* Totals from selves, children before parents (a child's index is above its parent's). */
	for (size_t i = fl->nr; !err && i-- > 0;) {
		fl->n[i].total += fl->n[i].self;
		fl->n[i].total_samples += fl->n[i].self_samples;
		if (i) {
			fl->n[fl->n[i].parent].total += fl->n[i].total;
			fl->n[fl->n[i].parent].total_samples += fl->n[i].total_samples;
		}
	}
	if (err)
		flame_free(fl);
	return err;
}

void flame_free(struct flame *fl)
{
	free(fl->n);
	idxhash_free(&fl->h);
	strtab_free(&fl->labels);
	memset(fl, 0, sizeof(*fl));
}

struct match_key {
	const struct flame *b;
	uint32_t parent;
	const char *label;
	uint8_t kind;
};

static bool match_eq(const void *ctx, uint32_t idx)
{
	const struct match_key *k = ctx;
	const struct flame_node *n = &k->b->n[idx];

	return n->parent == k->parent && n->kind == k->kind && !strcmp(k->b->labels.s[n->label], k->label);
}

static uint64_t match_hash(uint32_t parent, const char *label, uint8_t kind)
{
	return hash_mix(hash_mix(parent, hash_str(label)), kind);
}

int flame_match(const struct flame *a, const struct flame *b, uint32_t *b_of)
{
	struct idxhash h = { 0 };
	int err = 0;

	for (size_t i = 1; i < b->nr && !err; i++)
		if (idxhash_insert(&h, match_hash(b->n[i].parent, b->labels.s[b->n[i].label], b->n[i].kind),
				   (uint32_t)i) < 0)
			err = set_error(ENOMEM, "profile writer: out of memory");
	b_of[0] = 0;
	/* A node's parent comes before it, so its match is known when the node's is sought. */
	for (size_t i = 1; i < a->nr && !err; i++) {
		const struct flame_node *n = &a->n[i];
		struct match_key k = { b, b_of[n->parent], a->labels.s[n->label], n->kind };
		int64_t at = k.parent == NONE ? -1 : idxhash_find(&h, match_hash(k.parent, k.label, k.kind), match_eq, &k);

		b_of[i] = at < 0 ? NONE : (uint32_t)at;
	}
	idxhash_free(&h);
	return err;
}
