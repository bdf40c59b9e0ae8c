/* Uses libsym.so; prints where its functions were loaded. */
#include "common.h"

int libsym_compute(int x);
int libsym_other(int x);

int main(int argc, char **argv)
{
	(void)argv;
	libsym_compute(argc);
	if (argc > 1) {
		SHOW(libsym_compute);
		SHOW(libsym_other);
		wait_for_eof();
	}
	return libsym_other(argc) == 12345;
}
