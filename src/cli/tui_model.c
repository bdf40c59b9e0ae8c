// SPDX-License-Identifier: MIT
/*
 * What the browser shows, apart from the terminal: a profile's entries by
 * the sort keys as rows (sorted as perfev report sorts them), the call
 * graph lines unfolded below them, and the narrowing the keys ask for: a
 * thread or command and a function's callees (a view of the profile made
 * by the library), a DSO and a search (rows left out).  Unfolded lines and
 * the selection are remembered by what they show, so a rebuild after the
 * profile grew (perfev top's refresh) keeps them where they were.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui.h"

#define MAX_KEY_WIDTH 48

static const char *const key_names[NR_KEYS] = { "comm", "pid", "tid", "dso", "sym", "srcline" };
static const char *const key_titles[NR_KEYS] = { "Command", "Pid:Command", "Tid:Command",
						 "Shared Object", "Symbol", "Source:Line" };

void tui_model_init(struct tui_model *m, const struct report_opts *o)
{
	memset(m, 0, sizeof(*m));
	m->o = *o;
}

static void free_derived(struct tui_model *m)
{
	for (size_t i = 0; i < m->nr_graphs && m->graphs; i++)
		tui_graph_delete(m->graphs[i]);
	free(m->graphs);
	m->graphs = NULL;
	m->nr_graphs = 0;
	perfev_profile_table__delete(m->t);
	m->t = NULL;
	report_texts_delete(m->tx);
	m->tx = NULL;
	perfev_profile__delete(m->view);
	m->view = NULL;
	m->nr_rows = 0;
	m->nr_lines = 0;
}

void tui_model_free(struct tui_model *m)
{
	free_derived(m);
	free(m->rows);
	free(m->order);
	free(m->lines);
	for (size_t i = 0; i < m->nr_unfold; i++)
		free(m->unfold[i].path);
	free(m->unfold);
	memset(m, 0, sizeof(*m));
}

static const struct perfev_profile_entry *line_entry(const struct tui_model *m, size_t i)
{
	return m->rows[m->order[m->lines[i].row]].e;
}

static uint32_t line_entry_idx(const struct tui_model *m, size_t i)
{
	return m->rows[m->order[m->lines[i].row]].entry;
}

/* The frames from the row down to line i's graph node (outermost first) into path; how many. */
static size_t line_path(const struct tui_model *m, size_t i, uint32_t *path, size_t max)
{
	const struct tui_graph *g;
	size_t n = 0;

	if (m->lines[i].gnode == TUI_NONE)
		return 0;
	g = m->graphs[line_entry_idx(m, i)];
	for (uint32_t k = m->lines[i].gnode; k && k != TUI_NONE; k = g->n[k].parent)
		n++;
	if (n > max)
		return 0;
	size_t j = n;

	for (uint32_t k = m->lines[i].gnode; k && k != TUI_NONE; k = g->n[k].parent)
		path[--j] = g->n[k].frame;
	return n;
}

static bool same_unfold(const struct tui_unfold *u, uint32_t thread, uint32_t frame,
			const uint32_t *path, size_t len)
{
	return u->thread == thread && u->frame == frame && u->len == len &&
	       (!len || !memcmp(u->path, path, len * sizeof(*path)));
}

static int find_unfold(const struct tui_model *m, uint32_t thread, uint32_t frame,
		       const uint32_t *path, size_t len)
{
	for (size_t i = 0; i < m->nr_unfold; i++)
		if (same_unfold(&m->unfold[i], thread, frame, path, len))
			return (int)i;
	return -1;
}

static struct tui_graph *entry_graph(struct tui_model *m, uint32_t entry)
{
	if (!m->graphs[entry])
		m->graphs[entry] = tui_graph_new(m->p, m->t, entry, m->o.children);
	return m->graphs[entry];
}

static bool push_line(struct tui_model *m, struct tui_line l)
{
	if (m->nr_lines == m->cap_lines) {
		size_t cap = m->cap_lines ? m->cap_lines * 2 : 1024;
		struct tui_line *n = realloc(m->lines, cap * sizeof(*n));

		if (!n)
			return false;
		m->lines = n;
		m->cap_lines = cap;
	}
	m->lines[m->nr_lines++] = l;
	return true;
}

#define MAX_DEPTH 256

/* The unfolded graph below node n of row r, depth d, the frames down to it in path[0..len). */
static bool flatten_graph(struct tui_model *m, uint32_t r, const struct tui_graph *g, uint32_t n,
			  uint32_t d, uint32_t *path, size_t len)
{
	const struct perfev_profile_entry *e = m->rows[m->order[r]].e;
	size_t nk = g->n[n].nr_children;
	uint32_t *kids = malloc((nk ? nk : 1) * sizeof(*kids));
	bool ok = kids != NULL;

	if (ok)
		tui_graph_children(g, n, kids, nk);
	for (size_t i = 0; ok && i < nk; i++) {
		struct tui_line l = { .row = r, .gnode = kids[i], .depth = d,
				      .has_children = g->n[kids[i]].nr_children > 0 };

		path[len] = g->n[kids[i]].frame;
		l.expanded = l.has_children && len + 1 < MAX_DEPTH &&
			     find_unfold(m, e->thread, e->frame, path, len + 1) >= 0;
		ok = push_line(m, l);
		if (ok && l.expanded)
			ok = flatten_graph(m, r, g, kids[i], d + 1, path, len + 1);
	}
	free(kids);
	return ok;
}

static bool flatten(struct tui_model *m)
{
	uint32_t path[MAX_DEPTH];

	m->nr_lines = 0;
	for (uint32_t r = 0; r < m->nr_rows; r++) {
		const struct report_row *row = &m->rows[m->order[r]];
		struct tui_line l = { .row = r, .gnode = TUI_NONE, .has_children = true };
		struct tui_graph *g;

		l.expanded = find_unfold(m, row->e->thread, row->e->frame, NULL, 0) >= 0;
		if (l.expanded && !(g = entry_graph(m, row->entry)))
			return false;
		if (l.expanded)
			l.has_children = g->n[0].nr_children > 0;
		l.expanded = l.expanded && l.has_children;
		if (!push_line(m, l))
			return false;
		if (l.expanded && !flatten_graph(m, r, m->graphs[row->entry], 0, 1, path, 0))
			return false;
	}
	return true;
}

static bool dso_ok(const struct tui_model *m, const struct perfev_profile_frame *f)
{
	if (!m->by_dso)
		return true;
	return m->dso_kernel ? f->kernel : !f->kernel && f->dso == m->dso;
}

static bool make_rows(struct tui_model *m)
{
	size_t nr = perfev_profile_table__nr_entries(m->t);
	bool need[NR_KEYS] = { false };

	need[KEY_SYM] = m->search[0] != 0;
	for (int k = 0; k < m->o.nr_keys; k++)
		need[m->o.keys[k]] = true;
	if (nr > m->cap_rows) {
		struct report_row *r = realloc(m->rows, nr * sizeof(*r));
		uint32_t *o = r ? realloc(m->order, nr * sizeof(*o)) : NULL;

		if (r)
			m->rows = r;
		if (!o)
			return false;
		m->order = o;
		m->cap_rows = nr;
	}
	memset(m->width, 0, sizeof(m->width));
	for (size_t i = 0; i < nr; i++) {
		const struct perfev_profile_entry *e = perfev_profile_table__entry(m->t, i);
		struct report_row *r = &m->rows[m->nr_rows];
		uint64_t v = m->o.children ? e->children : e->self;

		if (!v || !dso_ok(m, perfev_profile__frame(m->p, e->frame)))
			continue;
		*r = (struct report_row){ .v = v, .self = e->self, .e = e, .entry = (uint32_t)i };
		for (int k = 0; k < NR_KEYS; k++) {
			if (need[k] && !(r->text[k] = report_texts_key(m->tx, m->p, e, k)))
				return false;
		}
		if (m->search[0] && !strstr(r->text[KEY_SYM], m->search))
			continue;
		for (int k = 0; k < NR_KEYS; k++) {
			size_t w = r->text[k] ? strlen(r->text[k]) : 0;

			if (w > m->width[k])
				m->width[k] = w < MAX_KEY_WIDTH ? w : MAX_KEY_WIDTH;
		}
		m->nr_rows++;
	}
	for (int k = 0; k < NR_KEYS; k++)
		if (m->width[k] < strlen(key_titles[k]))
			m->width[k] = strlen(key_titles[k]);
	if (!report_sort_rows(m->rows, m->nr_rows, m->o.keys, m->o.nr_keys, m->order))
		return false;
	if (m->o.max_rows > 0 && m->nr_rows > (size_t)m->o.max_rows)
		m->nr_rows = (size_t)m->o.max_rows;
	return true;
}

/* The selected line's identity, to find it again after a rebuild. */
struct ident {
	bool set;
	uint32_t thread, frame;
	uint32_t path[MAX_DEPTH];
	size_t len;
	size_t sel, top;
};

static void remember(const struct tui_model *m, struct ident *id)
{
	id->sel = m->sel;
	id->top = m->top;
	if (m->sel >= m->nr_lines) {
		id->set = false;
		return;
	}
	id->set = true;
	id->thread = line_entry(m, m->sel)->thread;
	id->frame = line_entry(m, m->sel)->frame;
	id->len = line_path(m, m->sel, id->path, MAX_DEPTH);
}

static void restore(struct tui_model *m, const struct ident *id)
{
	uint32_t path[MAX_DEPTH];

	m->sel = id->sel < m->nr_lines ? id->sel : m->nr_lines ? m->nr_lines - 1 : 0;
	m->top = id->top <= m->sel ? id->top : m->sel;
	if (!id->set)
		return;
	for (size_t i = 0; i < m->nr_lines; i++) {
		const struct perfev_profile_entry *e = line_entry(m, i);

		if (e->thread != id->thread || e->frame != id->frame)
			continue;
		if (line_path(m, i, path, MAX_DEPTH) != id->len ||
		    (id->len && memcmp(path, id->path, id->len * sizeof(*path))))
			continue;
		/* The line keeps its place on the screen where it can. */
		m->top = i >= id->sel - id->top ? i - (id->sel - id->top) : 0;
		m->sel = i;
		return;
	}
}

bool tui_model_rebuild(struct tui_model *m, const struct perfev_profile *p)
{
	enum perfev_profile_key keys[NR_KEYS];
	struct perfev_profile_table_opts to = { .sz = sizeof(to), .keys = keys,
						.nr_keys = (size_t)m->o.nr_keys, .children = true };
	struct ident *id = malloc(sizeof(*id));

	if (!id)
		return false;
	remember(m, id);
	free_derived(m);
	m->base = p;
	m->total = perfev_profile__node(p, 0)->total;
	m->kept_pids = perfev_profile__nr_threads(p) && perfev_profile__thread(p, 0)->tid != -1;
	m->p = p;
	if (m->by_thread || m->comm || m->zoom) {
		struct perfev_profile_zoom_opts zo = { .sz = sizeof(zo), .by_thread = m->by_thread,
						       .thread = m->thread, .comm = m->comm,
						       .by_frame = m->zoom, .frame = m->zoom_frame };

		m->view = perfev_profile__zoom(p, &zo);
		if (!m->view)
			goto fail;
		m->p = m->view;
	}
	for (int k = 0; k < m->o.nr_keys; k++)
		keys[k] = (enum perfev_profile_key)m->o.keys[k];
	m->t = perfev_profile_table__new(m->p, &to);
	m->tx = report_texts_new();
	if (!m->t || !m->tx || !make_rows(m))
		goto fail;
	m->nr_graphs = perfev_profile_table__nr_entries(m->t);
	m->graphs = calloc(m->nr_graphs ? m->nr_graphs : 1, sizeof(*m->graphs));
	if (!m->graphs || !flatten(m))
		goto fail;
	restore(m, id);
	free(id);
	return true;
fail:
	free(id);
	free_derived(m);
	return false;
}

static bool add_unfold(struct tui_model *m, const struct perfev_profile_entry *e,
		       const uint32_t *path, size_t len)
{
	struct tui_unfold u = { .thread = e->thread, .frame = e->frame, .len = len };

	if (find_unfold(m, e->thread, e->frame, path, len) >= 0)
		return true;
	if (m->nr_unfold == m->cap_unfold) {
		size_t cap = m->cap_unfold ? m->cap_unfold * 2 : 16;
		struct tui_unfold *n = realloc(m->unfold, cap * sizeof(*n));

		if (!n)
			return false;
		m->unfold = n;
		m->cap_unfold = cap;
	}
	if (len && !(u.path = malloc(len * sizeof(*path))))
		return false;
	if (len)
		memcpy(u.path, path, len * sizeof(*path));
	m->unfold[m->nr_unfold++] = u;
	return true;
}

/* Flattens again, the selection kept on what it shows. */
static bool reflatten(struct tui_model *m)
{
	struct ident *id = malloc(sizeof(*id));
	bool ok;

	if (!id)
		return false;
	remember(m, id);
	ok = flatten(m);
	restore(m, id);
	free(id);
	return ok;
}

bool tui_model_unfold(struct tui_model *m, size_t i, bool unfold)
{
	const struct perfev_profile_entry *e;
	const struct tui_graph *g;
	uint32_t path[MAX_DEPTH], n;
	size_t len;
	int at;

	if (i >= m->nr_lines || !m->lines[i].has_children || m->lines[i].expanded == unfold)
		return false;
	e = line_entry(m, i);
	len = line_path(m, i, path, MAX_DEPTH);
	if (!unfold) {
		at = find_unfold(m, e->thread, e->frame, path, len);
		if (at >= 0) {
			free(m->unfold[at].path);
			m->unfold[at] = m->unfold[--m->nr_unfold];
		}
		return reflatten(m);
	}
	g = entry_graph(m, line_entry_idx(m, i));
	if (!g)
		return false;
	n = m->lines[i].gnode == TUI_NONE ? 0 : m->lines[i].gnode;
	if (!g->n[n].nr_children) {
		m->lines[i].has_children = false;
		return false;
	}
	if (!add_unfold(m, e, path, len))
		return false;
	/* A straight chain (one callee or caller of the same weight) unfolds whole, as perf draws it. */
	while (len + 1 < MAX_DEPTH && g->n[n].nr_children == 1) {
		uint32_t c = g->n[n].first_child;

		if (g->n[c].weight != g->n[n].weight || !g->n[c].nr_children)
			break;
		path[len++] = g->n[c].frame;
		if (!add_unfold(m, e, path, len))
			return false;
		n = c;
	}
	return reflatten(m);
}

void tui_model_fold_all(struct tui_model *m)
{
	size_t row = m->sel < m->nr_lines ? tui_model_parent(m, m->sel) : 0;

	for (size_t i = 0; i < m->nr_unfold; i++)
		free(m->unfold[i].path);
	m->nr_unfold = 0;
	/* The selection moves to its row, which stays. */
	if (m->nr_lines)
		m->sel = row < m->nr_lines ? row : 0;
	reflatten(m);
}

size_t tui_model_parent(const struct tui_model *m, size_t i)
{
	uint32_t d = m->lines[i].depth;

	if (!d)
		return i;
	while (i > 0 && m->lines[i].depth >= d)
		i--;
	return i;
}

/* Line i's frame: its graph node's, or its entry's. */
static uint32_t line_frame(const struct tui_model *m, size_t i)
{
	if (m->lines[i].gnode != TUI_NONE)
		return m->graphs[line_entry_idx(m, i)]->n[m->lines[i].gnode].frame;
	return line_entry(m, i)->frame;
}

/* After the rows change by a key (filters, keys, search): from the top. */
static bool rebuild_from_top(struct tui_model *m)
{
	m->sel = m->top = 0;
	if (!tui_model_rebuild(m, m->base))
		return false;
	m->sel = m->top = 0;
	return true;
}

bool tui_model_toggle_thread(struct tui_model *m, size_t i)
{
	if (m->by_thread || m->comm) {
		m->by_thread = false;
		m->comm = NULL;
	} else if (i < m->nr_lines) {
		uint32_t t = line_entry(m, i)->thread;

		if (m->kept_pids) {
			m->by_thread = true;
			m->thread = t;
		} else {
			m->comm = perfev_profile__thread(m->p, t)->comm;
		}
	}
	return rebuild_from_top(m);
}

bool tui_model_toggle_dso(struct tui_model *m, size_t i)
{
	if (m->by_dso) {
		m->by_dso = false;
	} else if (i < m->nr_lines) {
		const struct perfev_profile_frame *f = perfev_profile__frame(m->p, line_frame(m, i));

		m->by_dso = true;
		m->dso = f->dso;
		m->dso_kernel = f->kernel;
	}
	return rebuild_from_top(m);
}

bool tui_model_toggle_zoom(struct tui_model *m, size_t i)
{
	if (m->zoom) {
		m->zoom = false;
	} else if (i < m->nr_lines) {
		m->zoom = true;
		m->zoom_frame = line_frame(m, i);
	}
	return rebuild_from_top(m);
}

bool tui_model_toggle_children(struct tui_model *m)
{
	m->o.children = !m->o.children;
	/* The unfolded graphs were of the other kind (callees or callers). */
	tui_model_fold_all(m);
	return rebuild_from_top(m);
}

static const enum report_key sort_sets[][3] = {
	{ KEY_COMM, KEY_DSO, KEY_SYM }, { KEY_SYM, NR_KEYS }, { KEY_DSO, KEY_SYM, NR_KEYS },
	{ KEY_COMM, KEY_SYM, NR_KEYS }, { KEY_DSO, NR_KEYS }, { KEY_COMM, NR_KEYS },
	{ KEY_PID, KEY_SYM, NR_KEYS },	{ KEY_TID, KEY_SYM, NR_KEYS },
};
#define NR_SORT_SETS (sizeof(sort_sets) / sizeof(sort_sets[0]))

static int set_len(size_t s)
{
	int n = 0;

	while (n < 3 && sort_sets[s][n] != NR_KEYS)
		n++;
	return n;
}

bool tui_model_next_sort(struct tui_model *m)
{
	size_t cur = NR_SORT_SETS - 1, next;

	for (size_t s = 0; s < NR_SORT_SETS; s++)
		if (set_len(s) == m->o.nr_keys &&
		    !memcmp(sort_sets[s], m->o.keys, (size_t)m->o.nr_keys * sizeof(m->o.keys[0])))
			cur = s;
	next = (cur + 1) % NR_SORT_SETS;
	/* Processes and threads only where the profile tells them apart. */
	while (!m->kept_pids && (sort_sets[next][0] == KEY_PID || sort_sets[next][0] == KEY_TID))
		next = (next + 1) % NR_SORT_SETS;
	m->o.nr_keys = set_len(next);
	memcpy(m->o.keys, sort_sets[next], (size_t)m->o.nr_keys * sizeof(m->o.keys[0]));
	tui_model_fold_all(m);
	return rebuild_from_top(m);
}

bool tui_model_search(struct tui_model *m, const char *text)
{
	snprintf(m->search, sizeof(m->search), "%s", text ? text : "");
	return rebuild_from_top(m);
}

static double pct(const struct tui_model *m, uint64_t v)
{
	return m->total ? 100.0 * (double)v / (double)m->total : 0;
}

/* Appends to buf at *len, cut at size. */
static void put(char *buf, size_t size, size_t *len, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static void put(char *buf, size_t size, size_t *len, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (*len + 1 >= size)
		return;
	va_start(ap, fmt);
	n = vsnprintf(buf + *len, size - *len, fmt, ap);
	va_end(ap);
	if (n > 0)
		*len = *len + (size_t)n < size ? *len + (size_t)n : size - 1;
}

const char *tui_model_line_text(struct tui_model *m, size_t i, char *buf, size_t size)
{
	const struct tui_line *l = &m->lines[i];
	const struct report_row *r = &m->rows[m->order[l->row]];
	char mark = l->expanded ? '-' : l->has_children ? '+' : ' ';
	size_t len = 0;

	buf[0] = 0;
	if (l->gnode == TUI_NONE) {
		put(buf, size, &len, "%c ", mark);
		if (m->o.children)
			put(buf, size, &len, "%8.2f%% ", pct(m, r->e->children));
		put(buf, size, &len, "%8.2f%% ", pct(m, r->e->self));
		for (int k = 0; k < m->o.nr_keys; k++) {
			const char *t = r->text[m->o.keys[k]];
			bool last = k == m->o.nr_keys - 1;

			int w = (int)m->width[m->o.keys[k]];

			if (last)
				put(buf, size, &len, " %s", t);
			else
				put(buf, size, &len, " %-*.*s", w, w, t);
		}
		return buf;
	}
	const struct tui_graph *g = m->graphs[r->entry];
	const struct tui_gnode *n = &g->n[l->gnode];
	char name[512];

	put(buf, size, &len, "%*s%c %.2f%% %s", (int)(l->depth * 3 + 8), "", mark, pct(m, n->weight),
	    perfev_profile_frame__name(perfev_profile__frame(m->p, n->frame), name, sizeof(name)));
	return buf;
}

const char *tui_model_titles(const struct tui_model *m, char *buf, size_t size)
{
	size_t len = 0;

	put(buf, size, &len, "  ");
	if (m->o.children)
		put(buf, size, &len, "%9s ", "Children");
	put(buf, size, &len, "%9s ", m->o.children ? "Self" : "Overhead");
	for (int k = 0; k < m->o.nr_keys; k++)
		put(buf, size, &len, " %-*s", (int)m->width[m->o.keys[k]], key_titles[m->o.keys[k]]);
	return buf;
}

const char *tui_model_filters(const struct tui_model *m, char *buf, size_t size)
{
	size_t len = 0;
	char name[512];

	buf[0] = 0;
	if (m->by_thread) {
		const struct perfev_profile_thread *t = perfev_profile__thread(m->base, m->thread);

		put(buf, size, &len, "thread %d:%s", t->tid, t->comm);
	} else if (m->comm) {
		put(buf, size, &len, "command %s", m->comm);
	}
	if (m->by_dso)
		put(buf, size, &len, "%sDSO %s", len ? ", " : "",
		    m->dso_kernel ? PERFEV_KERNEL_DSO_NAME
		    : m->dso	  ? perfev_dso__short_name(m->dso)
				  : PERFEV_UNKNOWN_NAME);
	if (m->zoom)
		put(buf, size, &len, "%szoom %s", len ? ", " : "",
		    perfev_profile_frame__name(perfev_profile__frame(m->base, m->zoom_frame), name,
					       sizeof(name)));
	if (m->search[0])
		put(buf, size, &len, "%ssearch '%s'", len ? ", " : "", m->search);
	return buf;
}

const char *tui_model_sort_name(const struct tui_model *m, char *buf, size_t size)
{
	size_t len = 0;

	buf[0] = 0;
	for (int k = 0; k < m->o.nr_keys; k++)
		put(buf, size, &len, "%s%s", k ? "," : "", key_names[m->o.keys[k]]);
	return buf;
}
