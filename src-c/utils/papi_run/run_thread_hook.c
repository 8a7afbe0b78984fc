/* run_thread_hook.c: a preloaded library's start run in each new thread of the program. */
#define _GNU_SOURCE
#include "run_thread_hook.h"

#include <dlfcn.h>
#include <stdlib.h>

struct start {
    void *(*fn)(void *);
    void *arg;
    void (*on_start)(void);
};

static void *trampoline(void *p)
{
    struct start st = *(struct start *)p;
    free(p);
    st.on_start();
    return st.fn(st.arg);
}

run_create_fn run_next_create(void)
{
    return (run_create_fn)dlsym(RTLD_NEXT, "pthread_create");
}

int run_thread_create(run_create_fn real, pthread_t *t, const pthread_attr_t *attr,
                      void *(*fn)(void *), void *arg, void (*on_start)(void))
{
    struct start *st = on_start ? malloc(sizeof *st) : NULL;
    if (!st)
        return real(t, attr, fn, arg);
    *st = (struct start){fn, arg, on_start};
    int ret = real(t, attr, trampoline, st);
    if (ret != 0)
        free(st);
    return ret;
}
