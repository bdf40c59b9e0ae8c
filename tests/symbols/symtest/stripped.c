/*
 * Built with -g, then its debug info moved to a separate file and the
 * binary stripped: the static functions are only in the debug file's
 * .symtab.
 */
volatile int stripped_sink;

static void __attribute__((noinline)) stripped_static_one(int n)
{
	for (int i = 0; i < n; i++)
		stripped_sink += i;
}

static int __attribute__((noinline)) stripped_static_two(int n)
{
	stripped_static_one(n);
	return stripped_sink * 2;
}

int main(int argc, char **argv)
{
	(void)argv;
	return stripped_static_two(argc) == 42;
}
