/* SPDX-License-Identifier: MIT */
/*
 * What the event parser's files (spec_split.c, parse_events.c, breakpoint.c,
 * parse_evlist.c, symbolic_events.c, cache_events.c, modifiers.c, pmu.c,
 * tracepoint.c, pfm.c, suggest.c, list_events.c) share; library-internal.
 */
#ifndef PERFEV_EVENTS_INT_H
#define PERFEV_EVENTS_INT_H

#include <linux/perf_event.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "perfev/events.h"
#include "util/internal.h"

/*
 * Longest single event spec and canonical name we handle.  Specs are user
 * text: a longer one is refused rather than truncated, so what is parsed is
 * always what was written.
 */
#define EVENT_SPEC_MAX 1024
#define EVENT_NAME_MAX (EVENT_SPEC_MAX + 64)

/* True for printable ASCII: specs with anything else are refused up front. */
static inline bool spec_char_ok(unsigned char c)
{
	return c >= 0x20 && c < 0x7f;
}

/* Generic hardware and software events (symbolic_events.c). */
struct symbolic_event {
	const char *name;  /* canonical, perf's */
	const char *alias; /* or NULL */
	uint32_t type;	   /* PERF_TYPE_HARDWARE or PERF_TYPE_SOFTWARE */
	uint64_t config;
	const char *desc;
};
extern const struct symbolic_event symbolic_events[];
extern const size_t nr_symbolic_events;
/* The entry for name or alias (case-sensitive like perf), or NULL. */
const struct symbolic_event *symbolic_event__find(const char *name);

/* Hardware cache events (cache_events.c). */
#define CACHE_MAX_ALIASES 5
/*
 * Parses "L1-dcache-load-misses" style names (case-insensitive, perf's
 * aliases, op and result in either order, each optional).  Returns true and
 * sets *config (cache | op << 8 | result << 16) and the canonical name.
 */
bool cache_event__parse(const char *name, uint64_t *config, char *canon, size_t size);
/* True when the (cache, op) pair is one perf lists (the others still parse). */
bool cache_event__listed(unsigned int cache, unsigned int op);
/* Canonical name and description of a combination. */
void cache_event__name(unsigned int cache, unsigned int op, unsigned int result, char *buf,
		       size_t size);
void cache_event__desc(unsigned int cache, unsigned int op, unsigned int result, char *buf,
		       size_t size);

/* Modifiers (modifiers.c), from one table. */
/* True for a modifier letter. */
bool modifier__known(char c);
/* True when s is non-empty and made only of modifier letters. */
bool modifiers__only(const char *s);
/*
 * Appends every modifier to the error text: "u (user), k (kernel), ...,
 * p/pp/ppp (precise), ..." when described, else "u k h G H p pp ppp ...".
 */
void modifiers__append_list(bool described);
/*
 * Applies the modifier string mods to attr with perf's semantics: u/k/h
 * given set all three exclude bits, G/H both guest/host bits, others stay.
 * An event's modifiers followed by its group's, in one string, stack the
 * way perf applies them in turn.  *sample_read is set when 'S' appears.
 * spec is quoted in errors.  Returns 0 or -PERFEV_ERR_SYNTAX.
 */
int modifiers__apply(const char *mods, const char *spec, struct perf_event_attr *attr,
		     bool *sample_read);

/* Spec text (spec_split.c). */
/*
 * The check every spec passes once, before anything reads it: at most max
 * bytes of printable ASCII.  Errors call it noun ("event list is longer ...")
 * and of_noun ("... at offset 3 of the event list").
 */
int spec_text__check(const char *s, size_t max, const char *noun, const char *of_noun);
/*
 * Where the event starting at s[pos] ends in a list: at the next ',', '{'
 * or '}' outside a PMU's /terms/, trailing spaces left out.  *len gets its
 * length (never 0: an empty event is an error).
 */
int event_spec__extent(const char *s, size_t pos, size_t *len);

enum spec_form {
	SPEC_NAME,	 /* a name, "sys:event", "pmu::EVENT:UMASK", each with modifiers */
	SPEC_PMU,	 /* "PMU/terms/mods" */
	SPEC_BREAKPOINT, /* "mem:ADDR/LEN:rwx:mods" */
};

/*
 * One event spec cut into its parts, once; the resolvers of parse_events.c
 * read them.  Pointers point into text; every string is NUL-terminated
 * unless it comes with a length.
 */
struct spec_split {
	const char *spec; /* as written: errors quote it */
	enum spec_form form;
	char text[EVENT_SPEC_MAX + 1];
	const char *mods; /* SPEC_PMU, SPEC_BREAKPOINT: the modifiers, or NULL */
	union {
		/* SPEC_NAME: "a:b:c" read every way a resolver may want it. */
		struct {
			char head[EVENT_SPEC_MAX + 1];	      /* before the first ':', or all */
			const char *rest;		      /* after the first ':', or NULL */
			char tp_event[EVENT_SPEC_MAX + 1];    /* from there to a second ':' */
			size_t tp_len;			      /* of "sys:event" at the start of text */
			const char *tp_mods;		      /* after the second ':', or NULL */
			char before_last[EVENT_SPEC_MAX + 1]; /* before the last ':', or all */
			const char *last;		      /* after the last ':', or NULL */
			bool mods_only; /* no ':', or only modifier letters after it */
		} name;
		struct {
			char pmu[EVENT_SPEC_MAX + 1], terms[EVENT_SPEC_MAX + 1];
			char event[EVENT_SPEC_MAX + 1]; /* "PMU/terms/" */
		} pmu;
		struct {
			const char *addr, *len, *access; /* len, access NULL when absent */
			size_t addr_len, len_len, access_len;
		} bp;
	};
};
/*
 * Cuts spec (at most EVENT_SPEC_MAX, checked) into s.  The errors are the
 * ones no lookup could change: a PMU event's broken frame, a list or a
 * stray '/' where one event belongs.
 */
int event_spec__split(const char *spec, struct spec_split *s);

/* Breakpoints (breakpoint.c). */
/* Fills attr and canon ("mem:0x1000/8:w") from a SPEC_BREAKPOINT split. */
int breakpoint__resolve(const struct spec_split *s, struct perf_event_attr *attr, char *canon,
			size_t size);

/* Sysfs PMUs (pmu.c). */
/*
 * Tests point the sysfs root (normally "/sys") at a fake tree; NULL
 * restores the default.  Not thread-safe: for tests only.
 */
void pmu__set_sysfs_root(const char *root);
/*
 * Encodes the terms of PMU pmu (the parts of "PMU/terms/") into attr; spec
 * is quoted in errors.  *name_term receives a name= term (or stays "").
 */
int pmu__parse(const char *pmu, const char *terms, const char *spec, struct perf_event_attr *attr,
	       char *name_term, size_t name_size);
/*
 * Looks name up as an alias of every PMU; when exactly one PMU has it, fills
 * attr and canon ("pmu/alias/") and returns 1; 0 when none has it; an error
 * when the alias is ambiguous or broken.
 */
int pmu__find_unique_alias(const char *name, struct perf_event_attr *attr, char *canon,
			   size_t size);

struct suggest;
/* Offers every "pmu/alias/" to s. */
void pmu__suggest_aliases(struct suggest *s);

typedef int (*pmu_alias_cb)(const char *pmu, const char *alias, const char *desc, void *ctx);
/* Calls cb for every alias of every PMU (unsorted); stops on non-zero. */
int pmu__for_each_alias(pmu_alias_cb cb, void *ctx);

/* Tracepoints (tracepoint.c). */
/* Tests override the tracefs directory; NULL restores discovery. */
void tracefs__set_root(const char *dir);
/* The tracefs directory into buf, or -PERFEV_ERR_NOTRACEFS with an explanation. */
int tracefs__find(char *buf, size_t size);
/* True when the tracefs events directory holds a subsystem sys. */
bool tracepoint__sys_exists(const char *sys);
/* Fills attr for sys:name; errors explain and suggest close names. */
int tracepoint__parse(const char *sys, const char *name, const char *spec,
		      struct perf_event_attr *attr);
typedef int (*tracepoint_cb)(const char *sys, const char *name, void *ctx);
/* Calls cb for every tracepoint with an id (unsorted); stops on non-zero. */
int tracepoint__for_each(tracepoint_cb cb, void *ctx);
/*
 * "sys:event[:mods]" whose sys or event holds a glob ('*', '?' or '[...]'),
 * as perf expands it: cb gets every tracepoint of tracefs that matches, in
 * name order, as "sys:event" plus the modifiers (":mods", or "").  0 when the
 * spec is no tracepoint glob (nothing called), the number of matches, the
 * first non-zero return of cb, or an error: -PERFEV_ERR_UNKNOWN_EVENT when
 * nothing matches, saying so.
 */
typedef int (*tracepoint_glob_cb)(const char *spec, void *ctx);
int tracepoint__glob(const char *spec, tracepoint_glob_cb cb, void *ctx);

/* libpfm4 (pfm.c). */
/* 0 and attr filled, -PERFEV_ERR_UNKNOWN_EVENT (no message set) when unknown. */
int pfm__parse(const char *name, struct perf_event_attr *attr);
typedef int (*pfm_event_cb)(const char *pmu, const char *event, const char *desc, void *ctx);
/*
 * Calls cb for every event of the PMUs libpfm4 detected on this CPU: the
 * event when it encodes alone, and "EVENT:UMASK" for each of its unit
 * masks.  cb runs under libpfm4's lock and must not call back into pfm__*.
 */
int pfm__for_each_event(pfm_event_cb cb, void *ctx);
/* Offers the detected PMUs' event names to s. */
void pfm__suggest(struct suggest *s);

/* Close-name suggestions (suggest.c). */
#define SUGGEST_MAX 3
#define SUGGEST_LEN 160
struct suggest {
	char query[SUGGEST_LEN];
	size_t qlen;
	int nr;
	unsigned int dist[SUGGEST_MAX];
	char names[SUGGEST_MAX][SUGGEST_LEN];
};
void suggest__init(struct suggest *s, const char *query);
/* Considers cand against the query; display is what to show for it (NULL: cand). */
void suggest__add(struct suggest *s, const char *cand, const char *display);
/* Appends "; did you mean 'a', 'b' or 'c'?" to the error when there are any. */
void suggest__append(const struct suggest *s);
/* suggest__append(), then more text as a sentence of its own ("...? Run ..." or "; run ..."). */
void suggest__append_then(const struct suggest *s, const char *text);
/* Optimal-string-alignment (Damerau-Levenshtein) distance, case-insensitive. */
unsigned int edit_distance(const char *a, size_t alen, const char *b, size_t blen);

/*
 * Parses one event into attr and its canonical name, applying extra_mods (a
 * group's modifiers, may be NULL) after the event's own.  'S' sets
 * *sample_read instead of touching attr.  spec has passed spec_text__check()
 * and is 1 to EVENT_SPEC_MAX long.
 */
int parse_event__one(const char *spec, const char *extra_mods, struct perf_event_attr *attr,
		     char *name, size_t name_size, bool *sample_read);

/* Bounded string helpers. */
/* Copies src into dst; false (dst empty) when it does not fit. */
bool str_copy(char *dst, size_t size, const char *src);
/* Parses a decimal or 0x-hex number filling exactly s[0..len); false on junk or overflow. */
bool parse_u64(const char *s, size_t len, uint64_t *val);
/* Joins a path of parts with '/' into buf; false when it does not fit. */
bool path_join(char *buf, size_t size, const char *a, const char *b, const char *c,
	       const char *d);
/* True for a name safe as one path component: [A-Za-z0-9_.-], not "." or "..". */
bool name_is_path_safe(const char *s);

/* Copies at most 64 bytes of untrusted file text for an error, '?' for unprintables. */
void str_sanitize(char *dst, size_t size, const char *src);

/* A directory's entries, sorted, without the dot-files. */
struct name_list {
	char **names;
	size_t nr, cap;
};
/* Reads path's entries (only directories, following links, when dirs_only). */
int name_list__read_dir(struct name_list *l, const char *path, bool dirs_only);
/* Appends a copy of name; 0 or -ENOMEM. */
int name_list__add(struct name_list *l, const char *name);
void name_list__sort(struct name_list *l);
void name_list__free(struct name_list *l);

#endif
