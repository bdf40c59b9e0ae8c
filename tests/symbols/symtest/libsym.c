/* A shared library: symbols resolve through its own mapping wherever it loads. */
volatile int libsym_sink;

static int __attribute__((noinline)) libsym_private(int x)
{
	return x * 7 + libsym_sink;
}

int __attribute__((noinline)) libsym_compute(int x)
{
	for (int i = 0; i < x; i++)
		libsym_sink += libsym_private(i);
	return libsym_sink;
}

int __attribute__((noinline)) libsym_other(int x)
{
	return libsym_private(x) - 1;
}
