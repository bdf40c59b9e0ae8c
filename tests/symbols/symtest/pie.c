/* A PIE with global and static functions: its symbols come from .symtab. */
#include <stdlib.h>

#include "common.h"

volatile int sink;

static void __attribute__((noinline)) pie_static_helper(int n)
{
	for (int i = 0; i < n; i++)
		sink += i;
}

void __attribute__((noinline)) pie_global_work(int n)
{
	pie_static_helper(n);
	sink *= 3;
}

int __attribute__((noinline)) pie_second_function(int a, int b)
{
	return a * b + sink;
}

int main(int argc, char **argv)
{
	(void)argv;
	pie_global_work(argc);
	sink = pie_second_function(argc, 2);
	if (argc > 1) {
		SHOW(pie_global_work);
		SHOW(pie_second_function);
		SHOW(pie_static_helper);
		wait_for_eof();
	}
	return 0;
}
