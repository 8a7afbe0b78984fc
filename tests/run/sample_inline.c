/* sample_inline.c: a function inlined into main (check_sample.py inlined): built with
 * optimisation and debug information, its code is main's, and the profile must still
 * show it as a frame of its own under main, named from the DWARF inlined subroutine. */
#include <stdlib.h>

static volatile unsigned long sink;

static inline __attribute__((always_inline)) void inlined_work(long units)
{
    unsigned long x = sink;
    for (long i = 0; i < units * 1000000L; i++)
        x = x * 6364136223846793005UL + 1442695040888963407UL;
    sink = x;
}

int main(int argc, char **argv)
{
    inlined_work(argc > 1 ? atol(argv[1]) : 200);
    return 0;
}
