/* ompt_spans.c: the threads' logs of OpenMP slices (ompt_spans.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "env.h"
#include "mono_clock.h"
#include "ompt_spans.h"

int ompt_spans_on;
static uint64_t cap = OMPT_SPANS_DEFAULT, origin_tick, origin_mono;
/* The log of every thread that found no memory for its own: it holds no slice and
 * counts theirs as dropped. */
static struct ompt_span_log no_memory;
static struct ompt_span_log *_Atomic retired;

uint64_t ompt_spans_cap(void)
{
    return cap;
}

static int set(const char *name)
{
    const char *v = env_get(name);
    return v && *v;
}

void ompt_spans_start(void)
{
    origin_mono = mono_clock_ns();
    origin_tick = tick_clock();
    ompt_spans_on = set("PAPI_TRACE") || set("PAPI_MPI_TRACE") || set("PAPI_RUN_OMPT_TRACE_FILE");
    const char *v = env_get("PAPI_OMPT_TRACE_SPANS");
    if (!ompt_spans_on || !v || !*v)
        return;
    char *end;
    errno = 0;
    unsigned long long n = strtoull(v, &end, 10);
    if (errno || *end || n < 1 || n > (1ULL << 26) || v[0] == '-')
        fprintf(stderr,
                "papi_ompt: PAPI_OMPT_TRACE_SPANS=%.40s: not a number of slices from 1 to "
                "%llu: %d per thread\n",
                v, 1ULL << 26, OMPT_SPANS_DEFAULT);
    else
        cap = n;
}

void ompt_spans_origin(uint64_t *tick, uint64_t *mono)
{
    *tick = origin_tick;
    *mono = origin_mono;
}

int64_t ompt_span_begin(struct ompt_span_log **log, int kind, int region, uint64_t instance)
{
    struct ompt_span_log *l = *log;
    if (!l) { /* the thread's first slice: its log, whose untouched pages cost nothing */
        l = calloc(1, sizeof *l + cap * sizeof l->span[0]);
        if (l)
            l->tid = (uint32_t)syscall(SYS_gettid);
        else
            l = &no_memory; /* not tried again: its slices counted as dropped */
        __atomic_store_n(log, l, __ATOMIC_RELEASE);
    }
    uint64_t i = atomic_load_explicit(&l->n, memory_order_relaxed);
    if (l == &no_memory || i >= cap) {
        atomic_fetch_add_explicit(&l->dropped, 1, memory_order_relaxed);
        return -1;
    }
    struct ompt_span *s = &l->span[i];
    s->start = tick_clock();
    s->instance = instance;
    s->region = region;
    atomic_store_explicit(&s->kind, (int16_t)kind, memory_order_relaxed);
    atomic_store_explicit(&s->end, 0, memory_order_relaxed);
    atomic_store_explicit(&l->n, i + 1, memory_order_release);
    return (int64_t)i;
}

void ompt_spans_retire(struct ompt_span_log *log)
{
    if (!log || log == &no_memory)
        return;
    struct ompt_span_log *head = atomic_load_explicit(&retired, memory_order_relaxed);
    do
        log->retired_next = head;
    while (!atomic_compare_exchange_weak_explicit(&retired, &head, log, memory_order_release,
                                                  memory_order_relaxed));
}

const struct ompt_span_log *ompt_spans_retired(void)
{
    return atomic_load_explicit(&retired, memory_order_acquire);
}

const struct ompt_span_log *ompt_spans_log(const struct ompt_span_log *log)
{
    return log == &no_memory ? NULL : log;
}

uint64_t ompt_spans_unlogged(void)
{
    return atomic_load_explicit(&no_memory.dropped, memory_order_relaxed);
}
