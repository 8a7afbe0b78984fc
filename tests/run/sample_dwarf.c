/* sample_dwarf.c: main -> outer -> middle -> inner, built -O2 -fomit-frame-pointer
 * (check_sample_dwarf.py): no function keeps a frame pointer, so only DWARF unwinding
 * (papi_run --call-graph dwarf) finds inner's callers. Each caller does a little work
 * after its call, so that none is a tail call the compiler could turn into a jump.
 * "dlopen LIB": then dl_work of a library loaded since (sample_dwarf_lib.c).
 * check_sample_auto.py builds it -O2 -g and -O2 -g -fno-omit-frame-pointer too (the
 * default --call-graph auto takes dwarf, then fp): inner keeps its accumulator in memory
 * so that it has a stack frame, as gcc gives a leaf function without one no frame
 * pointer even with -fno-omit-frame-pointer, and the kernel's walk would miss middle. */
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

static volatile unsigned long sink;

__attribute__((noinline)) static unsigned long inner(long units)
{
    volatile unsigned long x[2] = {sink, 0};
    for (long i = 0; i < units * 1000000L; i++)
        x[0] = x[0] * 6364136223846793005UL + 1442695040888963407UL;
    return x[0];
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

#if defined(__x86_64__)
/* "nocfi": outer -> nocfi_call -> inner, nocfi_call without CFI and with a frame pointer
 * of 0, so that no unwinder passes it: the stack must end at nocfi_call, counted. */
#define HAVE_NOCFI 1
unsigned long nocfi_call(long units);
__asm__(".text\n.globl nocfi_call\n.type nocfi_call,@function\nnocfi_call:\n"
        "push %rbp\nxor %ebp,%ebp\ncall inner_work\npop %rbp\nret\n"
        ".size nocfi_call,.-nocfi_call\n");
__attribute__((noinline, used)) unsigned long inner_work(long units)
{
    return inner(units);
}
#endif

int main(int argc, char **argv)
{
    long units = argc > 1 ? atol(argv[1]) : 300;
#ifdef HAVE_NOCFI
    if (argc > 2 && strcmp(argv[2], "nocfi") == 0) {
        sink = nocfi_call(units);
        return 0;
    }
#endif
    sink = outer(units);
    if (argc > 3 && strcmp(argv[2], "dlopen") == 0) { /* then a library loaded since */
        void *lib = dlopen(argv[3], RTLD_NOW);
        void *sym = lib ? dlsym(lib, "dl_work") : NULL;
        if (!sym)
            return 1;
        unsigned long (*work)(long);
        memcpy(&work, &sym, sizeof work);
        sink = work(units);
    }
    return 0;
}
