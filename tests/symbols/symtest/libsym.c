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

/*
 * One function under several names, as glibc makes them (__cosf, cosf,
 * cosf32): a local name, and two weak exported ones; and two global names
 * of one length (clock_nanosleep@GLIBC_2.2.5, @@GLIBC_2.17).
 */
__attribute__((noinline, used)) static int __libsym_alias(int x)
{
	return x + libsym_sink;
}
extern int libsym_alias(int) __attribute__((weak, alias("__libsym_alias")));
extern int libsym_alias_f32(int) __attribute__((weak, alias("__libsym_alias")));

int __attribute__((noinline)) libsym_tie_b(int x)
{
	return x - libsym_sink;
}
extern int libsym_tie_a(int) __attribute__((alias("libsym_tie_b")));
