// SPDX-License-Identifier: MIT
/*
 * The process's heap, set up for reading big recordings.  A report touches
 * tens of megabytes of fresh memory in hash tables probed at random; on a
 * virtual machine each first touch of a 4 KiB page is a page fault that
 * costs microseconds (measured here: 12 us a page), and each random probe
 * misses the TLB.  So the heap is reserved in one piece up front and the
 * kernel is asked to back it with transparent huge pages (where its policy
 * is "madvise", the usual default), and memory given back is kept for reuse
 * instead of being unmapped and faulted in again.  Reserved is not resident:
 * only the pages touched count.  The library leaves this to its caller.
 */
#include <malloc.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "cli.h"

#define HEAP_RESERVE ((size_t)256 << 20)
#define HUGE_PAGE ((uintptr_t)2 << 20)

void cli_heap_tune(void)
{
	char *start, *end;
	void *volatile p; /* volatile: the compiler must not drop an allocation nobody reads */

	/* Blocks up to 32 MiB (glibc's most) come from the heap, and what is freed stays there. */
	if (!mallopt(M_MMAP_THRESHOLD, 32 << 20) || !mallopt(M_TRIM_THRESHOLD, 1 << 30) ||
	    !mallopt(M_TOP_PAD, (int)HEAP_RESERVE))
		return;
	/*
	 * An allocation bigger than the heap's free top grows it by the pad too;
	 * the grown range is then advised.
	 */
	start = sbrk(0);
	p = malloc(1 << 20);
	end = sbrk(0);
	free(p);
	if (start == (void *)-1 || end == (void *)-1 || end <= start)
		return;
	uintptr_t lo = ((uintptr_t)start + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
	uintptr_t hi = (uintptr_t)end & ~(HUGE_PAGE - 1);

	if (hi > lo)
		madvise((void *)lo, hi - lo, MADV_HUGEPAGE);
}
