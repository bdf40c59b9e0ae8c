/*
 * Inlined functions with distinct names, nested three deep, so the inline
 * chain at an address has several frames; built with -O2 -g.
 */
volatile int inl_sink;

static inline __attribute__((always_inline)) int inl_innermost(int x)
{
	inl_sink += x * 3;
	return inl_sink ^ x;
}

static inline __attribute__((always_inline)) int inl_middle(int x)
{
	int r = inl_innermost(x + 1);

	inl_sink -= r;
	return r + 5;
}

static inline __attribute__((always_inline)) int inl_outer(int x)
{
	int r = inl_middle(x * 2);

	inl_sink += r;
	return r;
}

int __attribute__((noinline)) inl_host(int n)
{
	int s = 0;

	for (int i = 0; i < n; i++)
		s += inl_outer(i);
	return s;
}

int main(int argc, char **argv)
{
	(void)argv;
	return inl_host(argc * 100) == 7;
}
