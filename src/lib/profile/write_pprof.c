// SPDX-License-Identifier: MIT
/*
 * pprof's profile.proto, gzipped.  Everything is encoded by protobuf-c from
 * pprof.proto; the file is a sequence of Profile messages, each holding
 * part of the fields (the header and the string table, then samples a few
 * thousand at a time, then mappings, locations, functions), which protobuf
 * reads as one message whose repeated fields are concatenated: so a
 * profile of any size is written without holding all its samples' location
 * lists in memory at once.
 *
 * A location is a frame as the machine ran it: a function and the ones
 * inlined into it there (the profile's inline frames follow their
 * function's frame on a path), found as "chains": a frame after the chain
 * of the frames inlined with it, interned, so that equal ones are one
 * location.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util/internal.h"
#include "profile/profile_int.h"
#include "profile/gzpipe.h"
#include "profile/write_int.h"
#include "profile/pprof.pb-c.h"
#include "perfev/session.h"
#include "perfev/symbols.h"

#define NONE PERFEV_PROFILE_NONE
#define SAMPLES_PER_CHUNK 4096

typedef Perfev__Pprof__Profile Profile;
typedef Perfev__Pprof__Sample Sample;
typedef Perfev__Pprof__Label Label;
typedef Perfev__Pprof__ValueType ValueType;
typedef Perfev__Pprof__Mapping Mapping;
typedef Perfev__Pprof__Location Location;
typedef Perfev__Pprof__Line Line;
typedef Perfev__Pprof__Function Function;

/* A chain: frame after the chain it is inlined in (NONE: a function's own frame). */
struct chain {
	uint32_t up, frame;
	uint32_t loc; /* location id, 0 until a sample uses it */
	uint32_t series;
};

struct pfunc {
	int64_t name, system_name, filename, start_line;
};

/*
 * A node's step up its stack: its location's chain, and the node above the
 * frames that chain holds (NONE past the outermost frame).  Samples walk
 * these 8 bytes a node, not the profile's nodes and frames: a stack's nodes
 * lie all over the tree, and a walk of the big structures missed the cache
 * at every step.
 */
struct step {
	uint32_t chain, next;
};

struct pmap {
	const struct perfev_dso *dso;
	const struct perfev_map *map;
	int64_t filename, build_id;
};

struct pp {
	const struct perfev_profile_write_opts *o;
	struct strtab strings;
	/*
	 * Per series: each frame's function and mapping ids, chain as a frame of
	 * its own (NONE until made), thread's name; each node's chain.
	 */
	uint32_t **fn_of_frame, **map_of_frame, **chain_of_frame, **comm_of_thread;
	struct step **step_of_node;
	uint32_t **sampled; /* per series: the nodes with samples of their own, in node order */
	size_t *nr_sampled;
	struct chain *chains;
	size_t nr_chains, cap_chains;
	struct idxhash chain_hash;
	uint32_t *locs; /* location id - 1 -> chain */
	size_t nr_locs, cap_locs;
	struct pfunc *fns;
	size_t nr_fns, cap_fns;
	struct idxhash fn_hash;
	struct pmap *maps;
	size_t nr_maps, cap_maps;
	uint32_t *map_id; /* mapping index + 1 -> the id written (the program's first); [0] 0 */
	int64_t k_pid, k_tid, k_thread;
	struct gzpipe *gz;
	int err;
};

/* A string's index; protobuf strings are UTF-8, so names are cleaned first. */
static int64_t str(struct pp *pp, const char *s)
{
	char clean[4096];
	int64_t i = strtab_add(&pp->strings, write_clean(s ? s : "", clean, sizeof(clean)));

	if (i < 0)
		pp->err = -ENOMEM;
	return i < 0 ? 0 : i;
}

/* ---- functions and mappings ---- */

struct fn_key {
	const struct pp *pp;
	const struct pfunc *fn;
};

static bool fn_eq(const void *ctx, uint32_t idx)
{
	const struct fn_key *k = ctx;

	return !memcmp(&k->pp->fns[idx], k->fn, sizeof(*k->fn));
}

/* The function id (from 1) of frame f, added when new. */
static uint32_t function_of(struct pp *pp, const struct perfev_profile_frame *f)
{
	char buf[4096];
	struct pfunc fn = { .name = str(pp, perfev_profile_frame__name(f, buf, sizeof(buf))) };
	struct fn_key k = { pp, &fn };
	struct perfev_srcline src = { 0 };
	uint64_t h;
	int64_t i;

	fn.system_name = f->sym && !f->inline_name ? str(pp, f->sym->raw_name) : fn.name;
	/* Where the function begins, when DWARF says: its file and first line. */
	if (f->sym && !f->inline_name && f->dso && !f->kernel &&
	    perfev_dso__srcline(f->dso, f->sym->start, &src) == 0) {
		fn.filename = str(pp, src.file);
		fn.start_line = src.line;
	} else if (f->inline_name && f->src.file) {
		fn.filename = str(pp, f->src.file);
	}
	h = hash_mix(hash_mix((uint64_t)fn.name, (uint64_t)fn.system_name),
		     hash_mix((uint64_t)fn.filename, (uint64_t)fn.start_line));
	i = idxhash_find(&pp->fn_hash, h, fn_eq, &k);
	if (i >= 0)
		return (uint32_t)i + 1;
	if (!array_grow((void **)&pp->fns, &pp->cap_fns, pp->nr_fns + 1, sizeof(*pp->fns)) ||
	    idxhash_insert(&pp->fn_hash, h, (uint32_t)pp->nr_fns) < 0) {
		pp->err = -ENOMEM;
		return 0;
	}
	pp->fns[pp->nr_fns++] = fn;
	return (uint32_t)pp->nr_fns;
}

/* The mapping id (from 1) of frame f's file (first seen in map), 0 for none; added when new. */
static uint32_t mapping_of(struct pp *pp, const struct perfev_profile_frame *f,
			   const struct perfev_map *map)
{
	uint8_t id[PERFEV_BUILD_ID_MAX];
	char hex[2 * PERFEV_BUILD_ID_MAX + 1];
	size_t n;

	if (!f->dso)
		return 0;
	/* A recording maps few files: a scan is enough. */
	for (size_t i = 0; i < pp->nr_maps; i++)
		if (pp->maps[i].dso == f->dso)
			return (uint32_t)i + 1;
	if (!array_grow((void **)&pp->maps, &pp->cap_maps, pp->nr_maps + 1, sizeof(*pp->maps))) {
		pp->err = -ENOMEM;
		return 0;
	}
	n = perfev_dso__build_id(f->dso, id, sizeof(id));
	if (n > sizeof(id))
		n = sizeof(id);
	for (size_t i = 0; i < n; i++)
		snprintf(hex + 2 * i, 3, "%02x", id[i]);
	hex[2 * n] = '\0';
	pp->maps[pp->nr_maps] = (struct pmap){ f->dso, map, str(pp, write_dso_path(f)), str(pp, hex) };
	return (uint32_t)++pp->nr_maps;
}

/* ---- chains: a node's location ---- */

struct chain_key {
	const struct pp *pp;
	uint32_t up, frame, series;
};

static bool chain_eq(const void *ctx, uint32_t idx)
{
	const struct chain_key *k = ctx;
	const struct chain *c = &k->pp->chains[idx];

	return c->up == k->up && c->frame == k->frame && c->series == k->series;
}

static uint32_t new_chain(struct pp *pp, uint32_t up, uint32_t frame, uint32_t series)
{
	if (!array_grow((void **)&pp->chains, &pp->cap_chains, pp->nr_chains + 1, sizeof(*pp->chains))) {
		pp->err = -ENOMEM;
		return 0;
	}
	pp->chains[pp->nr_chains] = (struct chain){ up, frame, 0, series };
	return (uint32_t)pp->nr_chains++;
}

/* The chain of frame after chain up (inlined in it), made when new. */
static uint32_t chain(struct pp *pp, uint32_t up, uint32_t frame, uint32_t series)
{
	struct chain_key k = { pp, up, frame, series };
	uint64_t h = hash_mix(hash_mix(up, frame), series);
	int64_t i = idxhash_find(&pp->chain_hash, h, chain_eq, &k);
	uint32_t c;

	if (i >= 0)
		return (uint32_t)i;
	c = new_chain(pp, up, frame, series);
	if (!pp->err && idxhash_insert(&pp->chain_hash, h, c) < 0)
		pp->err = -ENOMEM;
	return c;
}

/* Frames, functions, mappings and each node's step of series si. */
static void index_series(struct pp *pp, size_t si)
{
	const struct perfev_profile *p = pp->o->series[si].profile;
	size_t nf = perfev_profile__nr_frames(p), nn = perfev_profile__nr_nodes(p);
	size_t nt = perfev_profile__nr_threads(p);
	uint32_t *fn = calloc(nf + 1, sizeof(*fn)), *map = calloc(nf + 1, sizeof(*map));
	struct step *st = malloc((nn ? nn : 1) * sizeof(*st));
	uint32_t *own = malloc((nf + 1) * sizeof(*own));
	uint32_t *comm = calloc(nt + 1, sizeof(*comm));
	uint8_t *inl = calloc(nf + 1, 1);
	size_t cap = 0;

	pp->fn_of_frame[si] = fn;
	pp->map_of_frame[si] = map;
	pp->step_of_node[si] = st;
	pp->chain_of_frame[si] = own;
	pp->comm_of_thread[si] = comm;
	if (!fn || !map || !st || !own || !comm || !inl) {
		free(inl);
		pp->err = -ENOMEM;
		return;
	}
	memset(own, 0xff, (nf + 1) * sizeof(*own));
	for (size_t t = 0; t < nt; t++)
		comm[t] = (uint32_t)str(pp, perfev_profile__thread(p, t)->comm);
	for (size_t i = 0; i < nf && !pp->err; i++) {
		const struct perfev_profile_frame *f = perfev_profile__frame(p, i);

		fn[i] = function_of(pp, f);
		map[i] = mapping_of(pp, f, perfev_profile__frame_map(p, i));
		inl[i] = f->inline_name != NULL;
	}
	if (nn)
		st[0] = (struct step){ NONE, NONE };
	/*
	 * A node's parent comes before it: its step is known by then.  The one
	 * pass over the nodes also lists the samples' nodes, for emit_samples.
	 */
	for (size_t i = 1; i < nn && !pp->err; i++) {
		const struct perfev_profile_node *n = PNODE(p, i);
		const struct step *up = &st[n->parent];

		if (n->self_samples) {
			if (!array_grow((void **)&pp->sampled[si], &cap, pp->nr_sampled[si] + 1,
					sizeof(*pp->sampled[si]))) {
				pp->err = -ENOMEM;
				break;
			}
			pp->sampled[si][pp->nr_sampled[si]++] = (uint32_t)i;
		}

		if (n->frame == NONE) {
			st[i] = (struct step){ NONE, NONE };
			continue;
		}
		/* An inlined function's frame continues the chain of the frame it follows. */
		if (inl[n->frame] && up->chain != NONE) {
			st[i] = (struct step){ chain(pp, up->chain, n->frame, (uint32_t)si), up->next };
			continue;
		}
		/* A frame of its own is its own chain: no hashing for the common case. */
		if (own[n->frame] == NONE)
			own[n->frame] = new_chain(pp, NONE, n->frame, (uint32_t)si);
		st[i] = (struct step){ own[n->frame], up->chain == NONE ? NONE : n->parent };
	}
	free(inl);
}

/* The location id of chain c, given one on first use. */
static uint64_t location(struct pp *pp, uint32_t c)
{
	if (!pp->chains[c].loc) {
		if (!array_grow((void **)&pp->locs, &pp->cap_locs, pp->nr_locs + 1, sizeof(*pp->locs))) {
			pp->err = -ENOMEM;
			return 0;
		}
		pp->locs[pp->nr_locs++] = c;
		pp->chains[c].loc = (uint32_t)pp->nr_locs;
	}
	return pp->chains[c].loc;
}

/* ---- gzip and protobuf-c out ---- */

struct zbuffer {
	ProtobufCBuffer base;
	struct pp *pp;
};

static void zbuffer_append(ProtobufCBuffer *b, size_t len, const uint8_t *data)
{
	gzpipe_write(((struct zbuffer *)b)->pp->gz, data, len);
}

static void emit(struct pp *pp, const Profile *msg)
{
	struct zbuffer b = { { zbuffer_append }, pp };

	protobuf_c_message_pack_to_buffer(&msg->base, &b.base);
}

/* ---- the parts of the profile ---- */

static void emit_header(struct pp *pp, ValueType *types, size_t nr_types)
{
	const struct perfev_profile_series *s0 = &pp->o->series[0];
	Profile msg = PERFEV__PPROF__PROFILE__INIT;
	ValueType *tp[64], period_type = PERFEV__PPROF__VALUE_TYPE__INIT;

	for (size_t i = 0; i < nr_types; i++)
		tp[i] = &types[i];
	msg.n_sample_type = nr_types;
	msg.sample_type = tp;
	msg.n_string_table = pp->strings.nr;
	msg.string_table = pp->strings.s;
	msg.time_nanos = (int64_t)pp->o->start_time_ns;
	msg.duration_nanos = (int64_t)pp->o->duration_ns;
	period_type.type = types[1].type;
	period_type.unit = types[1].unit;
	msg.period_type = &period_type;
	msg.period = (int64_t)s0->period;
	msg.default_sample_type = types[1].type;
	emit(pp, &msg);
}

struct chunk {
	Sample s[SAMPLES_PER_CHUNK], *sp[SAMPLES_PER_CHUNK];
	Label l[SAMPLES_PER_CHUNK][3], *lp[SAMPLES_PER_CHUNK][3];
	int64_t *values;     /* nr_types per sample */
	uint64_t *locs;	     /* location ids of the chunk's samples */
	size_t nr, nr_locs, cap_locs;
};

static void flush_chunk(struct pp *pp, struct chunk *c)
{
	Profile msg = PERFEV__PPROF__PROFILE__INIT;
	size_t at = 0;

	if (!c->nr)
		return;
	/* Location lists were appended to one array, which may have moved: point into it now. */
	for (size_t i = 0; i < c->nr; i++) {
		c->s[i].location_id = c->locs + at;
		at += c->s[i].n_location_id;
		c->sp[i] = &c->s[i];
	}
	msg.n_sample = c->nr;
	msg.sample = c->sp;
	emit(pp, &msg);
	c->nr = 0;
	c->nr_locs = 0;
}

/* One sample: the stack that ended at node, leaf first, with its thread's labels. */
static void add_sample(struct pp *pp, struct chunk *c, size_t si, uint32_t node, size_t nr_types)
{
	const struct perfev_profile *p = pp->o->series[si].profile;
	const struct perfev_profile_node *n = PNODE(p, node);
	const struct perfev_profile_thread *t = perfev_profile__thread(p, n->thread);
	const struct step *st = pp->step_of_node[si];
	Sample *s = &c->s[c->nr];
	int64_t *v = c->values + c->nr * nr_types;
	size_t first = c->nr_locs;

	*s = (Sample)PERFEV__PPROF__SAMPLE__INIT;
	for (uint32_t a = node; a != NONE && st[a].chain != NONE; a = st[a].next) {
		if (!array_grow((void **)&c->locs, &c->cap_locs, c->nr_locs + 1, sizeof(*c->locs))) {
			pp->err = -ENOMEM;
			return;
		}
		c->locs[c->nr_locs++] = location(pp, st[a].chain);
	}
	s->n_location_id = c->nr_locs - first;
	memset(v, 0, nr_types * sizeof(*v));
	v[0] = (int64_t)n->self_samples;
	v[1 + si] = (int64_t)n->self;
	s->n_value = nr_types;
	s->value = v;
	for (int k = 0; k < 3; k++) {
		c->l[c->nr][k] = (Label)PERFEV__PPROF__LABEL__INIT;
		c->lp[c->nr][k] = &c->l[c->nr][k];
	}
	c->l[c->nr][0].key = pp->k_pid;
	c->l[c->nr][0].num = t->pid;
	c->l[c->nr][1].key = pp->k_tid;
	c->l[c->nr][1].num = t->tid;
	c->l[c->nr][2].key = pp->k_thread;
	c->l[c->nr][2].str = pp->comm_of_thread[si][n->thread];
	s->n_label = 3;
	s->label = c->lp[c->nr];
	if (++c->nr == SAMPLES_PER_CHUNK)
		flush_chunk(pp, c);
}

static void emit_samples(struct pp *pp, size_t nr_types)
{
	struct chunk *c = calloc(1, sizeof(*c));

	if (c)
		c->values = calloc(SAMPLES_PER_CHUNK * nr_types, sizeof(*c->values));
	if (!c || !c->values) {
		pp->err = -ENOMEM;
		free(c);
		return;
	}
	for (size_t si = 0; si < pp->o->nr_series && !pp->err; si++)
		for (size_t i = 0; i < pp->nr_sampled[si] && !pp->err; i++)
			add_sample(pp, c, si, pp->sampled[si][i], nr_types);
	flush_chunk(pp, c);
	free(c->values);
	free(c->locs);
	free(c);
}

/*
 * pprof takes the first mapping for the program: the file named like the
 * heaviest thread's command, else the first that is neither the kernel nor
 * a shared library.  Mapping ids follow the order written.
 */
static void order_mappings(struct pp *pp)
{
	const struct perfev_profile *p = pp->o->series[0].profile;
	const char *comm = NULL;
	uint64_t best = 0;
	size_t prog = SIZE_MAX;

	for (uint32_t t = PNODE(p, 0)->first_child; t != NONE;
	     t = PNODE(p, t)->next_sibling)
		if (PNODE(p, t)->total > best) {
			best = PNODE(p, t)->total;
			comm = perfev_profile__thread(p, PNODE(p, t)->thread)->comm;
		}
	for (size_t i = 0; i < pp->nr_maps && prog == SIZE_MAX; i++)
		if (comm && !strcmp(perfev_dso__short_name(pp->maps[i].dso), comm))
			prog = i;
	for (size_t i = 0; i < pp->nr_maps && prog == SIZE_MAX; i++)
		if (!perfev_dso__is_kernel(pp->maps[i].dso) &&
		    !strstr(perfev_dso__short_name(pp->maps[i].dso), ".so"))
			prog = i;
	pp->map_id = calloc(pp->nr_maps + 1, sizeof(*pp->map_id));
	if (!pp->map_id) {
		pp->err = -ENOMEM;
		return;
	}
	/* The main one takes id 1; those before it move up one. */
	for (size_t i = 0; i < pp->nr_maps; i++)
		pp->map_id[i + 1] = (uint32_t)(prog == SIZE_MAX || i > prog ? i + 1 : i == prog ? 1 : i + 2);
}

static void emit_mappings(struct pp *pp)
{
	for (size_t k = 0; k < pp->nr_maps; k++) {
		Profile msg = PERFEV__PPROF__PROFILE__INIT;
		Mapping m = PERFEV__PPROF__MAPPING__INIT, *mp = &m;
		size_t i = 0;

		while (pp->map_id[i + 1] != k + 1)
			i++;
		const struct pmap *pm = &pp->maps[i];

		m.id = k + 1;
		if (pm->map) {
			m.memory_start = pm->map->start;
			m.memory_limit = pm->map->end;
			m.file_offset = pm->map->pgoff;
		}
		m.filename = pm->filename;
		m.build_id = pm->build_id;
		/* Symbolized already: pprof must not look the addresses up again. */
		m.has_functions = true;
		m.has_filenames = true;
		m.has_inline_frames = true;
		msg.n_mapping = 1;
		msg.mapping = &mp;
		emit(pp, &msg);
	}
}

#define PER_MSG 1024

/* Location id's lines, innermost first (the chain's frames from its end up), into lines. */
static void location_lines(struct pp *pp, uint64_t id, Location *lc, Line *lines, Line **linep)
{
	const struct chain *c = &pp->chains[pp->locs[id - 1]];
	const struct perfev_profile *p = pp->o->series[c->series].profile;
	Location loc = PERFEV__PPROF__LOCATION__INIT;
	size_t n = 0;
	const struct perfev_profile_frame *outer = NULL;

	for (uint32_t k = pp->locs[id - 1]; k != NONE && n < 32; k = pp->chains[k].up) {
		const struct perfev_profile_frame *f = perfev_profile__frame(p, pp->chains[k].frame);

		lines[n] = (Line)PERFEV__PPROF__LINE__INIT;
		lines[n].function_id = pp->fn_of_frame[c->series][pp->chains[k].frame];
		lines[n].line = f->src.line;
		linep[n] = &lines[n];
		n++;
		outer = f;
	}
	loc.id = id;
	loc.mapping_id = outer ? pp->map_id[pp->map_of_frame[c->series][pp->chains[pp->locs[id - 1]].frame]]
			       : 0;
	if (outer && !outer->sym)
		loc.address = outer->addr;
	loc.n_line = n;
	loc.line = linep;
	*lc = loc;
}

/* Locations PER_MSG to a message: one pack and one hand-over to gzip each. */
struct loc_batch {
	Location locs[PER_MSG], *lp[PER_MSG];
	Line lines[PER_MSG][32], *linep[PER_MSG][32];
};

static void emit_locations(struct pp *pp)
{
	struct loc_batch *b = malloc(sizeof(*b));
	Location *locs = b ? b->locs : NULL, **lp = b ? b->lp : NULL;

	if (!b) {
		pp->err = -ENOMEM;
		return;
	}
	for (size_t first = 1; first <= pp->nr_locs; first += PER_MSG) {
		Profile msg = PERFEV__PPROF__PROFILE__INIT;
		size_t n = 0;

		for (size_t id = first; id <= pp->nr_locs && n < PER_MSG; id++, n++) {
			location_lines(pp, id, &locs[n], b->lines[n], b->linep[n]);
			lp[n] = &locs[n];
		}
		msg.n_location = n;
		msg.location = lp;
		emit(pp, &msg);
	}
	free(b);
}

static void emit_functions(struct pp *pp)
{
	Function fns[PER_MSG], *fp[PER_MSG];

	for (size_t first = 0; first < pp->nr_fns; first += PER_MSG) {
		Profile msg = PERFEV__PPROF__PROFILE__INIT;
		size_t n = 0;

		for (size_t i = first; i < pp->nr_fns && n < PER_MSG; i++, n++) {
			fns[n] = (Function)PERFEV__PPROF__FUNCTION__INIT;
			fns[n].id = i + 1;
			fns[n].name = pp->fns[i].name;
			fns[n].system_name = pp->fns[i].system_name;
			fns[n].filename = pp->fns[i].filename;
			fns[n].start_line = pp->fns[i].start_line;
			fp[n] = &fns[n];
		}
		msg.n_function = n;
		msg.function = fp;
		emit(pp, &msg);
	}
}

/* Sample types: samples/count, then each series' type and unit. */
static size_t sample_types(struct pp *pp, ValueType *t)
{
	size_t n = 0;

	t[n] = (ValueType)PERFEV__PPROF__VALUE_TYPE__INIT;
	t[n].type = str(pp, "samples");
	t[n++].unit = str(pp, "count");
	for (size_t i = 0; i < pp->o->nr_series; i++) {
		t[n] = (ValueType)PERFEV__PPROF__VALUE_TYPE__INIT;
		t[n].type = str(pp, write_series_type(&pp->o->series[i]));
		t[n++].unit = str(pp, write_series_unit(&pp->o->series[i]));
	}
	return n;
}

/* Every string a later part names, so that the table goes out whole, first. */
static void intern_labels(struct pp *pp)
{
	pp->k_pid = str(pp, "pid");
	pp->k_tid = str(pp, "tid");
	pp->k_thread = str(pp, "thread");
	for (size_t si = 0; si < pp->o->nr_series; si++) {
		const struct perfev_profile *p = pp->o->series[si].profile;

		for (size_t i = 0; i < perfev_profile__nr_threads(p); i++)
			str(pp, perfev_profile__thread(p, i)->comm);
	}
}

static void pp_free(struct pp *pp)
{
	for (size_t i = 0; i < pp->o->nr_series; i++) {
		if (pp->fn_of_frame)
			free(pp->fn_of_frame[i]);
		if (pp->map_of_frame)
			free(pp->map_of_frame[i]);
		if (pp->step_of_node)
			free(pp->step_of_node[i]);
		if (pp->sampled)
			free(pp->sampled[i]);
		if (pp->chain_of_frame)
			free(pp->chain_of_frame[i]);
		if (pp->comm_of_thread)
			free(pp->comm_of_thread[i]);
	}
	free(pp->fn_of_frame);
	free(pp->map_of_frame);
	free(pp->step_of_node);
	free(pp->sampled);
	free(pp->nr_sampled);
	free(pp->chain_of_frame);
	free(pp->comm_of_thread);
	free(pp->chains);
	idxhash_free(&pp->chain_hash);
	free(pp->locs);
	free(pp->fns);
	idxhash_free(&pp->fn_hash);
	free(pp->maps);
	free(pp->map_id);
	strtab_free(&pp->strings);
}

/* The parts in order, the header (with every string) first. */
static void write_parts(struct pp *pp)
{
	ValueType types[64];
	size_t nr_types;

	str(pp, "");
	nr_types = sample_types(pp, types);
	intern_labels(pp);
	for (size_t si = 0; si < pp->o->nr_series && !pp->err; si++)
		index_series(pp, si);
	if (!pp->err)
		order_mappings(pp);
	if (pp->err)
		return;
	emit_header(pp, types, nr_types);
	emit_samples(pp, nr_types);
	emit_mappings(pp);
	emit_locations(pp);
	emit_functions(pp);
}

int perfev_profile__write_pprof(FILE *f, const struct perfev_profile_write_opts *opts)
{
	struct perfev_profile_write_opts o;
	struct pp *pp;
	int err = write_opts(&o, opts, "pprof");

	if (err)
		return err;
	if (o.nr_series > 62)
		return set_error(EINVAL, "pprof: %zu series; at most 62 fit", o.nr_series);
	pp = calloc(1, sizeof(*pp));
	if (!pp)
		return set_error(ENOMEM, "pprof: out of memory");
	pp->o = &o;
	pp->fn_of_frame = calloc(o.nr_series, sizeof(*pp->fn_of_frame));
	pp->map_of_frame = calloc(o.nr_series, sizeof(*pp->map_of_frame));
	pp->step_of_node = calloc(o.nr_series, sizeof(*pp->step_of_node));
	pp->sampled = calloc(o.nr_series, sizeof(*pp->sampled));
	pp->nr_sampled = calloc(o.nr_series, sizeof(*pp->nr_sampled));
	pp->chain_of_frame = calloc(o.nr_series, sizeof(*pp->chain_of_frame));
	pp->comm_of_thread = calloc(o.nr_series, sizeof(*pp->comm_of_thread));
	/* Level 1, as Go's own profiles are written: large profiles stay quick to write. */
	if (!pp->fn_of_frame || !pp->map_of_frame || !pp->step_of_node || !pp->sampled || !pp->nr_sampled || !pp->chain_of_frame ||
	    !pp->comm_of_thread || !(pp->gz = gzpipe_new(f))) {
		pp_free(pp);
		free(pp);
		return set_error(ENOMEM, "pprof: out of memory");
	}
	write_parts(pp);
	err = gzpipe_close(pp->gz);
	if (pp->err == -ENOMEM)
		set_error(ENOMEM, "pprof: out of memory");
	err = pp->err ? pp->err : err;
	pp_free(pp);
	free(pp);
	return err ? err : write_finish(f, "pprof");
}
