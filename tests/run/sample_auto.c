/* sample_auto.c: main -> a -> b -> c, c doing the work (check_sample_auto.py), built
 * twice: -O2 -g (gcc on x86_64 omits frame pointers: papi_run's default --call-graph auto
 * takes dwarf) and -O2 -g -fno-omit-frame-pointer (auto takes fp). c keeps its
 * accumulator in memory, so that it has a stack frame: gcc gives a leaf function without
 * one no frame pointer even with -fno-omit-frame-pointer, and the kernel's walk would
 * then miss its caller b. Each caller works after its call: no tail calls. */
#include <stdlib.h>

static volatile unsigned long sink;

__attribute__((noinline)) static unsigned long c(long units)
{
    volatile unsigned long acc[2] = {sink, 0};
    for (long i = 0; i < units * 1000000L; i++)
        acc[0] = acc[0] * 6364136223846793005UL + 1442695040888963407UL;
    return acc[0];
}

__attribute__((noinline)) static unsigned long b(long units)
{
    unsigned long x = c(units);
    sink = x;
    return x ^ 1;
}

__attribute__((noinline)) static unsigned long a(long units)
{
    unsigned long x = b(units);
    sink = x;
    return x ^ 2;
}

int main(int argc, char **argv)
{
    sink = a(argc > 1 ? atol(argv[1]) : 300);
    return 0;
}
