/*
 * The shared-library half of the unwind workload: where it spends its time
 * in "lib" mode, so a stack walk has to cross from one file's CFI to
 * another's.  Built twice, by GNU ld and by lld (whose text segment's
 * address differs from its file offset), under the names UW_LIB_FN gives.
 */
#ifndef UW_LIB_FN
#define UW_LIB_FN uw_lib_spin
#endif

unsigned long UW_LIB_FN(unsigned long x);

/* Spins a while, with a frame of its own on the stack. */
unsigned long UW_LIB_FN(unsigned long x)
{
	volatile unsigned long mix[8];

	for (unsigned i = 0; i < 8; i++)
		mix[i] = x + i;
	for (unsigned long i = 0; i < 200000; i++)
		x = x * 6364136223846793005ul + mix[i & 7];
	return x;
}
