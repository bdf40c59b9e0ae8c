/* SPDX-License-Identifier: MIT */
/* The bump allocator a format's strings, symbols and tables live in, freed with the format. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tracefmt/tracefmt_int.h"

#define TF_CHUNK 4096

void *tf_alloc(struct tf_chunk **arena, size_t size)
{
	struct tf_chunk *c = *arena;
	size_t need = (size + 7) & ~(size_t)7;

	if (need < size)
		return NULL;
	if (!c || c->cap - c->used < need) {
		size_t cap = need > TF_CHUNK ? need : TF_CHUNK;

		c = malloc(sizeof(*c) + cap);
		if (!c)
			return NULL;
		c->next = *arena;
		c->used = 0;
		c->cap = cap;
		*arena = c;
	}
	c->used += need;
	return c->data + c->used - need;
}

char *tf_strndup(struct tf_chunk **arena, const char *s, size_t n)
{
	char *d = n < SIZE_MAX ? tf_alloc(arena, n + 1) : NULL;

	if (d) {
		memcpy(d, s, n);
		d[n] = '\0';
	}
	return d;
}

void tf_arena_free(struct tf_chunk *arena)
{
	while (arena) {
		struct tf_chunk *next = arena->next;

		free(arena);
		arena = next;
	}
}

