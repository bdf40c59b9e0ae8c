// SPDX-License-Identifier: MIT
#include <errno.h>
#include <stdlib.h>

#include "util/idxhash.h"
#include "util/internal.h"

static void place(struct idxhash_slot *slots, size_t cap, uint64_t hash, uint32_t idx1)
{
	size_t i = hash & (cap - 1);

	while (slots[i].idx1)
		i = (i + 1) & (cap - 1);
	slots[i].hash = hash;
	slots[i].idx1 = idx1;
}

int idxhash_insert(struct idxhash *h, uint64_t hash, uint32_t idx)
{
	/* Kept at most half full, so probes stay short and a free slot always exists. */
	if ((h->nr + 1) * 2 > h->cap) {
		size_t cap = h->cap ? h->cap * 2 : 64;
		struct idxhash_slot *slots = table_calloc(cap, sizeof(*slots));

		if (!slots)
			return -ENOMEM;
		for (size_t i = 0; i < h->cap; i++)
			if (h->slots[i].idx1)
				place(slots, cap, h->slots[i].hash, h->slots[i].idx1);
		table_free(h->slots, h->cap, sizeof(*h->slots));
		h->slots = slots;
		h->cap = cap;
	}
	place(h->slots, h->cap, hash, idx + 1);
	h->nr++;
	return 0;
}

void idxhash_free(struct idxhash *h)
{
	table_free(h->slots, h->cap, sizeof(*h->slots));
	h->slots = NULL;
	h->cap = h->nr = 0;
}
