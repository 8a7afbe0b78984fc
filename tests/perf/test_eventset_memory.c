/* test_eventset_memory: an event set's memory grows with its events (issue 28, 4). It was
 * one fixed block sized for 128 events (51 KB for a 2-event set: the core's entries,
 * natives and counts, and the perf_event component's 128 events and groups). Measured
 * by this program's own malloc family (interposed over libc's, as any program may: the
 * library's allocations come here too), bytes live after PAPI_create_eventset +
 * PAPI_add_named_event, after a first set of the same events has loaded the native
 * event table: a 2-event set must take well
 * under 4 KB, and each further event adds less than 1 KB (what it needs, not a fixed
 * block). Software events: counted on any Linux machine. */
#include <malloc.h>
#include <stdatomic.h>

#include "papi_test.h"

static const char *const names[] = {
    "perf::PAGE-FAULTS",    "perf::MINOR-FAULTS",     "perf::MAJOR-FAULTS",
    "perf::CONTEXT-SWITCHES", "perf::CPU-MIGRATIONS", "perf::TASK-CLOCK",
    "perf::CPU-CLOCK",
};
#define NNAMES ((int)(sizeof names / sizeof names[0]))

/* Bytes live through malloc, calloc and realloc (usable sizes: what the heap gives). */
extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t n, size_t size);
extern void *__libc_realloc(void *p, size_t size);
extern void __libc_free(void *p);
static _Atomic long live_bytes;

void *malloc(size_t size)
{
    void *p = __libc_malloc(size);
    if (p)
        live_bytes += (long)malloc_usable_size(p);
    return p;
}

void *calloc(size_t n, size_t size)
{
    void *p = __libc_calloc(n, size);
    if (p)
        live_bytes += (long)malloc_usable_size(p);
    return p;
}

void *realloc(void *old, size_t size)
{
    long before = old ? (long)malloc_usable_size(old) : 0;
    void *p = __libc_realloc(old, size);
    if (p)
        live_bytes += (long)malloc_usable_size(p) - before;
    else if (size == 0)
        live_bytes -= before;
    return p;
}

void free(void *p)
{
    if (p)
        live_bytes -= (long)malloc_usable_size(p);
    __libc_free(p);
}

static size_t heap_in_use(void)
{
    return (size_t)live_bytes;
}

/* Bytes a live set of the first n events holds (created, filled, measured, freed). */
static long set_bytes(int n)
{
    int es = PAPI_NULL;
    size_t before = heap_in_use();
    CHECK_RET(PAPI_create_eventset(&es), PAPI_OK);
    for (int i = 0; i < n; i++)
        if (PAPI_add_named_event(es, names[i]) != PAPI_OK)
            test_skip("a software event does not open here (no perf_event access)");
    long bytes = (long)(heap_in_use() - before);
    free_set(&es);
    return bytes;
}

int main(void)
{
    init_or_die();
    set_bytes(NNAMES); /* loads the native table and the error detail buffers once */
    long one = set_bytes(1), two = set_bytes(2), eight = set_bytes(NNAMES);
    printf("heap per event set: 1 event %ld bytes, 2 events %ld, %d events %ld\n", one, two,
           NNAMES, eight);
    CHECK(one > 0 && two >= one && eight > two, "sizes do not grow with events: %ld %ld %ld",
          one, two, eight);
    CHECK(two < 4096 / 2, "a 2-event set takes %ld bytes (want well under 4 KB)", two);
    CHECK((eight - one) / (NNAMES - 1) < 1024, "each event adds %ld bytes (want < 1 KB)",
          (eight - one) / (NNAMES - 1));
    /* The set keeps working after its arrays grew: exact page faults. */
    int es = PAPI_NULL;
    long long v[NNAMES];
    CHECK_RET(PAPI_create_eventset(&es), PAPI_OK);
    for (int i = NNAMES - 1; i >= 0; i--)
        CHECK_RET(PAPI_add_named_event(es, names[i]), PAPI_OK);
    warm_up();
    CHECK_RET(PAPI_start(es), PAPI_OK);
    touch_pages(300);
    CHECK_RET(PAPI_stop(es, v), PAPI_OK);
    CHECK_EQ_LL(v[NNAMES - 1], 300); /* PAGE-FAULTS, added last */
    free_set(&es);
    PAPI_shutdown();
    return test_done("test_eventset_memory");
}
