/* gomp_worksharing.c: worksharing constructs under the interposer (README.md): a loop's
 * SCHED_start gives work begin (its schedule's work type, its trip count, the program's
 * return address) and each chunk libgomp hands out a dispatch (OpenMP 5.2's loop chunk:
 * its first iteration and count), GOMP_loop_end the work's end and the implicit barrier
 * after it (barrier_implicit_workshare); sections likewise (a dispatch per section);
 * single: work begin and end at once (the executor's block ends in the program's code,
 * which calls nothing: its time is not seen); ordered: a mutex of kind ordered.
 * Static loops that gcc inlines (schedule(static) without a chunk) call nothing. */
#include "gomp_abi.h"
#include "gomp_runtime.h"
#include "gomp_worksharing.h"

#define ORDERED_WAIT_ID 1

uint64_t gomp_trip_count(long start, long end, long incr)
{
    if (incr > 0 && end > start)
        return (uint64_t)((end - start + incr - 1) / incr);
    if (incr < 0 && end < start)
        return (uint64_t)((start - end - incr - 1) / -incr);
    return 0;
}

static void work(struct gomp_thread *t, ompt_work_t type, ompt_scope_endpoint_t ep, uint64_t count,
                 const void *codeptr)
{
    GOMP_CALL(ompt_callback_work, ompt_callback_work_t, type, ep, NULL, t->current, count, codeptr);
}

/* A chunk of iterations [istart, iend) the thread got (got: libgomp's answer). */
static void dispatch_chunk(struct gomp_thread *t, bool got, long istart, long iend)
{
    if (!got)
        return;
    ompt_dispatch_chunk_t chunk = {(uint64_t)istart, gomp_trip_count(istart, iend, t->loop_incr)};
    GOMP_CALL(ompt_callback_dispatch, ompt_callback_dispatch_t, NULL, t->current,
              ompt_dispatch_ws_loop_chunk, (ompt_data_t){.ptr = &chunk});
}

static bool loop_began(ompt_work_t type, long start, long end, long incr, bool got, long *istart,
                       long *iend, const void *codeptr)
{
    struct gomp_thread *t = gomp_self();
    t->loop_incr = incr;
    work(t, type, ompt_scope_begin, gomp_trip_count(start, end, incr), codeptr);
    dispatch_chunk(t, got, *istart, *iend);
    return got;
}

static bool loop_next(bool got, long *istart, long *iend)
{
    dispatch_chunk(gomp_self(), got, *istart, *iend);
    return got;
}

#define GOMP_LOOP(s, type)                                                                       \
    bool GOMP_loop_##s##_start(long start, long end, long incr, long chunk_size, long *istart,   \
                               long *iend)                                                       \
    {                                                                                            \
        const void *ra = __builtin_return_address(0);                                            \
        bool got = GOMP_REAL(GOMP_loop_##s##_start)(start, end, incr, chunk_size, istart, iend); \
        return gomp_tool_on() ? loop_began(type, start, end, incr, got, istart, iend, ra) : got; \
    }                                                                                            \
    bool GOMP_loop_##s##_next(long *istart, long *iend)                                          \
    {                                                                                            \
        bool got = GOMP_REAL(GOMP_loop_##s##_next)(istart, iend);                                \
        return gomp_tool_on() ? loop_next(got, istart, iend) : got;                              \
    }
#define GOMP_RUNTIME_LOOP(s)                                                                   \
    bool GOMP_loop_##s##_start(long start, long end, long incr, long *istart, long *iend)      \
    {                                                                                          \
        const void *ra = __builtin_return_address(0);                                          \
        bool got = GOMP_REAL(GOMP_loop_##s##_start)(start, end, incr, istart, iend);           \
        return gomp_tool_on()                                                                  \
                   ? loop_began(ompt_work_loop_other, start, end, incr, got, istart, iend, ra) \
                   : got;                                                                      \
    }                                                                                          \
    bool GOMP_loop_##s##_next(long *istart, long *iend)                                        \
    {                                                                                          \
        bool got = GOMP_REAL(GOMP_loop_##s##_next)(istart, iend);                              \
        return gomp_tool_on() ? loop_next(got, istart, iend) : got;                            \
    }

GOMP_LOOP(static, ompt_work_loop_static)
GOMP_LOOP(dynamic, ompt_work_loop_dynamic)
GOMP_LOOP(guided, ompt_work_loop_guided)
GOMP_LOOP(nonmonotonic_dynamic, ompt_work_loop_dynamic)
GOMP_LOOP(nonmonotonic_guided, ompt_work_loop_guided)
GOMP_LOOP(ordered_static, ompt_work_loop_static)
GOMP_LOOP(ordered_dynamic, ompt_work_loop_dynamic)
GOMP_LOOP(ordered_guided, ompt_work_loop_guided)
GOMP_LOOP_RUNTIME_SCHEDULES(GOMP_RUNTIME_LOOP)

/* The end of a loop or sections: the work's end, then the barrier after it (wait: with
 * one). */
static void work_end(ompt_work_t type, void (*real_end)(void), int wait, const void *codeptr)
{
    if (!gomp_tool_on()) {
        real_end();
        return;
    }
    struct gomp_thread *t = gomp_self();
    work(t, type, ompt_scope_end, 0, codeptr);
    if (wait)
        gomp_sync_begin(t, ompt_sync_region_barrier_implicit_workshare, codeptr);
    real_end();
    if (wait)
        gomp_sync_end(t, ompt_sync_region_barrier_implicit_workshare, codeptr);
}

void GOMP_loop_end(void)
{
    work_end(ompt_work_loop, GOMP_REAL(GOMP_loop_end), 1, __builtin_return_address(0));
}

void GOMP_loop_end_nowait(void)
{
    work_end(ompt_work_loop, GOMP_REAL(GOMP_loop_end_nowait), 0, __builtin_return_address(0));
}

static void section(unsigned got)
{
    if (got) /* 0: no section left for this thread */
        GOMP_CALL(ompt_callback_dispatch, ompt_callback_dispatch_t, NULL, gomp_self()->current,
                  ompt_dispatch_section, (ompt_data_t){.value = got});
}

unsigned GOMP_sections_start(unsigned count)
{
    const void *ra = __builtin_return_address(0);
    unsigned got = GOMP_REAL(GOMP_sections_start)(count);
    if (gomp_tool_on()) {
        work(gomp_self(), ompt_work_sections, ompt_scope_begin, count, ra);
        section(got);
    }
    return got;
}

unsigned GOMP_sections_next(void)
{
    unsigned got = GOMP_REAL(GOMP_sections_next)();
    if (gomp_tool_on())
        section(got);
    return got;
}

void GOMP_sections_end(void)
{
    work_end(ompt_work_sections, GOMP_REAL(GOMP_sections_end), 1, __builtin_return_address(0));
}

void GOMP_sections_end_nowait(void)
{
    work_end(ompt_work_sections, GOMP_REAL(GOMP_sections_end_nowait), 0,
             __builtin_return_address(0));
}

bool GOMP_single_start(void)
{
    const void *ra = __builtin_return_address(0);
    bool executor = GOMP_REAL(GOMP_single_start)();
    if (gomp_tool_on()) {
        struct gomp_thread *t = gomp_self();
        ompt_work_t type = executor ? ompt_work_single_executor : ompt_work_single_other;
        work(t, type, ompt_scope_begin, 1, ra);
        work(t, type, ompt_scope_end, 1, ra);
    }
    return executor;
}

void GOMP_ordered_start(void)
{
    const void *ra = __builtin_return_address(0);
    if (!gomp_tool_on()) {
        GOMP_REAL(GOMP_ordered_start)();
        return;
    }
    GOMP_CALL(ompt_callback_mutex_acquire, ompt_callback_mutex_acquire_t, ompt_mutex_ordered, 0, 0,
              ORDERED_WAIT_ID, ra);
    GOMP_REAL(GOMP_ordered_start)();
    GOMP_CALL(ompt_callback_mutex_acquired, ompt_callback_mutex_t, ompt_mutex_ordered,
              ORDERED_WAIT_ID, ra);
}

void GOMP_ordered_end(void)
{
    const void *ra = __builtin_return_address(0);
    GOMP_REAL(GOMP_ordered_end)();
    if (gomp_tool_on())
        GOMP_CALL(ompt_callback_mutex_released, ompt_callback_mutex_t, ompt_mutex_ordered,
                  ORDERED_WAIT_ID, ra);
}
