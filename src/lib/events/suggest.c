/* SPDX-License-Identifier: MIT */
/* "Did you mean ...?": close names by edit distance. */
#include <ctype.h>
#include <limits.h>
#include <string.h>
#include <strings.h>

#include "events/events_int.h"

unsigned int edit_distance(const char *a, size_t alen, const char *b, size_t blen)
{
	/* Three rows of the optimal-string-alignment matrix; names are short. */
	unsigned int rows[3][SUGGEST_LEN];
	unsigned int *prev2 = rows[0], *prev = rows[1], *cur = rows[2];

	if (alen >= SUGGEST_LEN || blen >= SUGGEST_LEN)
		return UINT_MAX;
	for (size_t j = 0; j <= blen; j++)
		prev[j] = (unsigned int)j;
	for (size_t i = 1; i <= alen; i++) {
		int ca = tolower((unsigned char)a[i - 1]);

		cur[0] = (unsigned int)i;
		for (size_t j = 1; j <= blen; j++) {
			int cb = tolower((unsigned char)b[j - 1]);
			unsigned int d = prev[j - 1] + (ca != cb);

			if (prev[j] + 1 < d)
				d = prev[j] + 1;
			if (cur[j - 1] + 1 < d)
				d = cur[j - 1] + 1;
			if (i > 1 && j > 1 && ca == tolower((unsigned char)b[j - 2]) &&
			    tolower((unsigned char)a[i - 2]) == cb && prev2[j - 2] + 1 < d)
				d = prev2[j - 2] + 1;
			cur[j] = d;
		}
		unsigned int *t = prev2;

		prev2 = prev;
		prev = cur;
		cur = t;
	}
	return prev[blen];
}

void suggest__init(struct suggest *s, const char *query)
{
	memset(s, 0, sizeof(*s));
	s->qlen = strnlen(query, SUGGEST_LEN);
	if (s->qlen >= SUGGEST_LEN)
		s->qlen = SUGGEST_LEN - 1; /* too long to be a typo of anything: matches nothing */
	memcpy(s->query, query, s->qlen);
}

static bool contains_nocase(const char *hay, const char *needle, size_t nlen)
{
	size_t hlen = strlen(hay);

	for (size_t i = 0; nlen && i + nlen <= hlen; i++)
		if (!strncasecmp(hay + i, needle, nlen))
			return true;
	return false;
}

void suggest__add(struct suggest *s, const char *cand, const char *display)
{
	/* Allow more typos in longer names, but never so many that anything matches. */
	unsigned int limit = s->qlen <= 3 ? 1 : s->qlen <= 6 ? 2 : 3;
	size_t clen = strlen(cand);
	unsigned int d;
	int pos;

	if (!display)
		display = cand;
	if (!s->qlen || strlen(display) >= SUGGEST_LEN)
		return;
	d = edit_distance(s->query, s->qlen, cand, clen);
	/* A fragment of a longer name ("switch") is worth offering, last. */
	if (d > limit && s->qlen >= 4 && contains_nocase(cand, s->query, s->qlen))
		d = limit;
	if (d > limit)
		return;
	for (int i = 0; i < s->nr; i++)
		if (!strcmp(s->names[i], display))
			return;
	for (pos = s->nr; pos > 0 && s->dist[pos - 1] > d; pos--)
		;
	if (pos >= SUGGEST_MAX)
		return;
	int last = s->nr < SUGGEST_MAX ? s->nr : SUGGEST_MAX - 1;

	for (int i = last; i > pos; i--) {
		s->dist[i] = s->dist[i - 1];
		memcpy(s->names[i], s->names[i - 1], SUGGEST_LEN);
	}
	s->dist[pos] = d;
	str_copy(s->names[pos], SUGGEST_LEN, display);
	if (s->nr < SUGGEST_MAX)
		s->nr++;
}

void suggest__append(const struct suggest *s)
{
	if (!s->nr)
		return;
	append_error("; did you mean ");
	for (int i = 0; i < s->nr; i++)
		append_error("%s'%s'", i == 0 ? "" : i == s->nr - 1 ? " or " : ", ", s->names[i]);
	append_error("?");
}

void suggest__append_then(const struct suggest *s, const char *text)
{
	suggest__append(s);
	if (!*text)
		return;
	if (s->nr)
		append_error(" %c%s", toupper((unsigned char)text[0]), text + 1);
	else
		append_error("; %s", text);
}
