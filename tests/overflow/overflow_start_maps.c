/* Profiling starts read the stack bounds at most once per thread (issue 56, item 9): each
 * PAPI_overflow or PAPI_profil start used to call pthread_getattr_np, which reads
 * /proc/self/maps on the main thread (about 230,000 instructions a start). Ten starts of
 * PAPI_overflow with a handler that asks for the call chain, ten with one that does not,
 * and ten of PAPI_profil, each on a fresh overflow state (turned off between starts), on
 * perf::TASK-CLOCK: the program counts every way the library could reach the maps (its
 * calls of pthread_getattr_np, and opens of /proc/self/maps through open, openat and fopen,
 * interposed here) and allows one. The call chain still walks the stack (the bounds are
 * there when asked for): a chain of two frames or more in the handler. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <time.h>

#include "papi_test.h"

#define STARTS 10
#define MAPS   "/proc/self/maps"

static atomic_int maps_reads, getattr_calls;

static void count_path(const char *path)
{
    if (path && strcmp(path, MAPS) == 0)
        atomic_fetch_add(&maps_reads, 1);
}

/* Interposers: the library's calls reach these before libc's (the program exports them). */
int pthread_getattr_np(pthread_t th, pthread_attr_t *attr)
{
    static int (*real)(pthread_t, pthread_attr_t *);
    if (!real)
        real = (int (*)(pthread_t, pthread_attr_t *))dlsym(RTLD_NEXT, "pthread_getattr_np");
    atomic_fetch_add(&getattr_calls, 1);
    return real ? real(th, attr) : -1;
}

FILE *fopen(const char *path, const char *mode)
{
    static FILE *(*real)(const char *, const char *);
    if (!real)
        real = (FILE * (*)(const char *, const char *)) dlsym(RTLD_NEXT, "fopen");
    count_path(path);
    return real ? real(path, mode) : NULL;
}

int open(const char *path, int flags, ...)
{
    static int (*real)(const char *, int, ...);
    if (!real)
        real = (int (*)(const char *, int, ...))dlsym(RTLD_NEXT, "open");
    va_list ap;
    va_start(ap, flags);
    int mode = (flags & (O_CREAT | O_TMPFILE)) ? va_arg(ap, int) : 0;
    va_end(ap);
    count_path(path);
    return real ? real(path, flags, mode) : -1;
}

int openat(int dir, const char *path, int flags, ...)
{
    static int (*real)(int, const char *, int, ...);
    if (!real)
        real = (int (*)(int, const char *, int, ...))dlsym(RTLD_NEXT, "openat");
    va_list ap;
    va_start(ap, flags);
    int mode = (flags & (O_CREAT | O_TMPFILE)) ? va_arg(ap, int) : 0;
    va_end(ap);
    count_path(path);
    return real ? real(dir, path, flags, mode) : -1;
}

static volatile int calls, chain_depth_max;

static void chain_handler(int EventSet, void *address, long long vector, void *context)
{
    (void)EventSet, (void)address, (void)vector, (void)context;
    void *pcs[16];
    int n = PAPI_get_overflow_callchain(pcs, 16);
    calls++;
    if (n > chain_depth_max)
        chain_depth_max = n;
}

static void plain_handler(int EventSet, void *address, long long vector, void *context)
{
    (void)EventSet, (void)address, (void)vector, (void)context;
    calls++;
}

static volatile double sink;

__attribute__((noinline)) static void spin_ms(int ms)
{
    struct timespec t0, t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t0);
    double x = sink;
    do {
        for (int i = 0; i < 10000; i++)
            x = x * 1.0000001 + 1e-9;
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    } while ((t.tv_sec - t0.tv_sec) * 1000 + (t.tv_nsec - t0.tv_nsec) / 1000000 < ms);
    sink = x;
}

/* STARTS starts of PAPI_overflow with handler h, the overflow state freed between them. */
static void overflow_starts(int es, int code, PAPI_overflow_handler_t h)
{
    long long v;
    for (int i = 0; i < STARTS; i++) {
        CHECK_RET(PAPI_overflow(es, code, 1000000, 0, h), PAPI_OK);
        CHECK_RET(PAPI_start(es), PAPI_OK);
        spin_ms(5);
        CHECK_RET(PAPI_stop(es, &v), PAPI_OK);
        CHECK_RET(PAPI_overflow(es, code, 0, 0, h), PAPI_OK);
    }
}

static void profil_starts(int es, int code)
{
    static unsigned short buf[4096];
    long long v;
    for (int i = 0; i < STARTS; i++) {
        CHECK_RET(PAPI_profil(buf, sizeof buf, (caddr_t)spin_ms, 65536, es, code, 1000000,
                              PAPI_PROFIL_POSIX),
                  PAPI_OK);
        CHECK_RET(PAPI_start(es), PAPI_OK);
        spin_ms(5);
        CHECK_RET(PAPI_stop(es, &v), PAPI_OK);
        CHECK_RET(
            PAPI_profil(buf, sizeof buf, (caddr_t)spin_ms, 65536, es, code, 0, PAPI_PROFIL_POSIX),
            PAPI_OK);
    }
}

int main(void)
{
    init_or_die();
    int es = PAPI_NULL, code;
    if (PAPI_event_name_to_code("perf::TASK-CLOCK", &code) != PAPI_OK)
        test_skip("no perf::TASK-CLOCK on this machine");
    CHECK_RET(PAPI_create_eventset(&es), PAPI_OK);
    int ret = PAPI_add_event(es, code);
    if (ret != PAPI_OK)
        test_skip("perf::TASK-CLOCK cannot be counted here (perf_event_paranoid?)");
    int before = atomic_load(&maps_reads) + atomic_load(&getattr_calls);

    overflow_starts(es, code, chain_handler);
    int after_chain = atomic_load(&maps_reads) + atomic_load(&getattr_calls) - before;
    overflow_starts(es, code, plain_handler);
    profil_starts(es, code);
    int total = atomic_load(&maps_reads) + atomic_load(&getattr_calls) - before;

    printf("stack bounds read %d times in %d overflow starts with a call chain handler, %d in "
           "all %d starts (maps opened %d, pthread_getattr_np %d); %d handler calls, the "
           "longest call chain %d frames\n",
           after_chain, STARTS, total, 3 * STARTS, atomic_load(&maps_reads),
           atomic_load(&getattr_calls), calls, chain_depth_max);
    CHECK(total <= 1, "the stack bounds were read %d times in %d starts (once at most)", total,
          3 * STARTS);
    CHECK(calls > 0, "the handlers never ran (5 ms of CPU a start at a 1 ms period)");
    CHECK(chain_depth_max >= 2, "call chains of %d frames at most: the walk lost the stack bounds",
          chain_depth_max);
    PAPI_cleanup_eventset(es);
    PAPI_destroy_eventset(&es);
    return test_done("overflow_start_maps");
}
