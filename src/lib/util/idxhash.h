/* SPDX-License-Identifier: MIT */
/*
 * An open-addressing hash of indices into a caller's array: the table holds
 * only (hash, index) pairs and the caller says whether the element at an
 * index is the one sought, so one small table serves every keyed lookup
 * (threads by tid, interned frames, call-tree children) without a generic
 * key type.
 */
#ifndef PERFEV_IDXHASH_H
#define PERFEV_IDXHASH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct idxhash_slot {
	uint64_t hash;
	uint32_t idx1; /* index + 1; 0: empty */
};

struct idxhash {
	struct idxhash_slot *slots;
	size_t cap; /* a power of two, or 0 */
	size_t nr;
};

typedef bool (*idxhash_eq_fn)(const void *ctx, uint32_t idx);

/* The index whose element eq() accepts among those stored with hash, or -1. */
static inline int64_t idxhash_find(const struct idxhash *h, uint64_t hash, idxhash_eq_fn eq,
				   const void *ctx)
{
	if (!h->cap)
		return -1;
	for (size_t i = hash & (h->cap - 1);; i = (i + 1) & (h->cap - 1)) {
		const struct idxhash_slot *s = &h->slots[i];

		if (!s->idx1)
			return -1;
		if (s->hash == hash && eq(ctx, s->idx1 - 1))
			return s->idx1 - 1;
	}
}

/* Stores idx under hash (no check for an equal element); -ENOMEM. */
int idxhash_insert(struct idxhash *h, uint64_t hash, uint32_t idx);
void idxhash_free(struct idxhash *h);

/* A 64-bit mix of two words (splitmix64's finaliser), for building hashes. */
static inline uint64_t hash_mix(uint64_t a, uint64_t b)
{
	uint64_t x = a * 0x9e3779b97f4a7c15ull ^ (b + 0x632be59bd9b4e019ull + (a << 6) + (a >> 2));

	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ull;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebull;
	return x ^ (x >> 31);
}

/* FNV-1a of a string, for interning names. */
static inline uint64_t hash_str(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ull;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 0x100000001b3ull;
	return h;
}

#endif
