/* The hot helper of inl.cc, inlined from this header: its lines must be annotated as this file's. */
#ifndef MIX_H
#define MIX_H

static inline unsigned long mix(unsigned long x, unsigned long i)
{
	x ^= x >> 29;				/* HOT */
	x *= 2862933555777941757ul;		/* HOT */
	x ^= x >> 32;				/* HOT */
	return x + i;				/* HOT */
}

#endif
