/* sample_dwarf.c: main -> outer -> middle -> inner, built -O2 -fomit-frame-pointer
 * (check_sample_dwarf.py): no function keeps a frame pointer, so only DWARF unwinding
 * (papi_run --call-graph dwarf) finds inner's callers. Each caller does a little work
 * after its call, so that none is a tail call the compiler could turn into a jump. */
#include <stdlib.h>

static volatile unsigned long sink;

__attribute__((noinline)) static unsigned long inner(long units)
{
    unsigned long x = sink;
    for (long i = 0; i < units * 1000000L; i++)
        x = x * 6364136223846793005UL + 1442695040888963407UL;
    return x;
}

__attribute__((noinline)) static unsigned long middle(long units)
{
    unsigned long x = inner(units);
    sink = x;
    return x ^ 1;
}

__attribute__((noinline)) static unsigned long outer(long units)
{
    unsigned long x = middle(units);
    sink = x;
    return x ^ 2;
}

int main(int argc, char **argv)
{
    sink = outer(argc > 1 ? atol(argv[1]) : 300);
    return 0;
}
