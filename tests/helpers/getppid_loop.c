/* Calls getppid(2) N times (argv[1]): exactly N syscalls:sys_enter_getppid. */
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 1000;

	for (long i = 0; i < n; i++)
		syscall(SYS_getppid);
	return 0;
}
