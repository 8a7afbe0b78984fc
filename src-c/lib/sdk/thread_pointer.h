/* thread_pointer.h: the calling thread, cheaply: its thread pointer, unique among live
 * threads. The hot paths (the call guard, PAPI_read, the perf_event component's user
 * read) compare it with the owner of a slot, a set or a context; the register costs one
 * instruction where pthread_self() costs a call. */
#ifndef PAPI_THREAD_POINTER_H
#define PAPI_THREAD_POINTER_H

#include <pthread.h>
#include <stdint.h>

static inline uintptr_t papi_thread_pointer(void)
{
    uintptr_t tp;
#if defined(__aarch64__)
    __asm__("mrs %0, tpidr_el0" : "=r"(tp));
#elif defined(__x86_64__)
    __asm__("mov %%fs:0, %0" : "=r"(tp));
#else
    tp = (uintptr_t)pthread_self();
#endif
    return tp;
}

#endif
