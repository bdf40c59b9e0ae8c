// The C++ parity workload's shared library.
#ifndef PARITY_LIB_H
#define PARITY_LIB_H
unsigned long lib_hash(unsigned long n, unsigned long seed);
unsigned long lib_alloc(unsigned long n);
#endif
