/* count_phdr.c: preloaded by gpu_switch_looks's test, counts the process's calls of
 * dl_iterate_phdr (the loader's walk, under its lock) and forwards each to the C library's. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <link.h>
#include <stdatomic.h>

typedef int (*phdr_cb)(struct dl_phdr_info *, size_t, void *);
static atomic_long calls;

__attribute__((visibility("default"))) long count_phdr_calls(void)
{
    return atomic_load(&calls);
}

__attribute__((visibility("default"))) int dl_iterate_phdr(phdr_cb cb, void *data)
{
    static int (*real)(phdr_cb, void *);
    if (!real)
        *(void **)&real = dlsym(RTLD_NEXT, "dl_iterate_phdr");
    atomic_fetch_add(&calls, 1);
    return real ? real(cb, data) : 0;
}
