/* gomp_parallel.c: parallel regions and barriers under the interposer (README.md).
 * GOMP_parallel (and the combined parallel loops and sections) gives parallel_begin on
 * the master with the program's return address (the tool names the region by it), then
 * runs libgomp's own with a trampoline around the outlined function: on each team thread
 * implicit_task begin, the function, the join barrier's begin. The master, back from
 * libgomp's join, ends its barrier, its task and the region; a worker's barrier and
 * task end come at its next implicit task (as LLVM's libomp reports them at the next
 * fork), or never where the thread stays idle: the tool takes its wait from the
 * master's wall either way. */
#include "gomp_abi.h"
#include "gomp_runtime.h"
#include "gomp_worksharing.h"

/* A fork: the region's function, the data the tool gives its team, and for a combined
 * parallel loop or sections the worksharing construct each thread begins in it. */
struct gomp_fork {
    gomp_outlined_fn fn;
    void *data;
    ompt_data_t parallel_data;
    const void *codeptr;
    ompt_work_t work;
    uint64_t count;
    long incr;
};

/* Workers whose join barrier and implicit task are still due, and the largest team. */
static atomic_int late_workers;
static atomic_int team_max;

/* A worker's join barrier and implicit task, ended late. */
static void end_pending(struct gomp_thread *t)
{
    if (t->pending)
        atomic_fetch_sub_explicit(&late_workers, 1, memory_order_relaxed);
    t->pending = 0;
    gomp_sync_end(t, ompt_sync_region_barrier_implicit_parallel, NULL);
    GOMP_CALL(ompt_callback_implicit_task, ompt_callback_implicit_task_t, ompt_scope_end, NULL,
              t->current, 0, 0, ompt_task_implicit);
    t->depth--;
    t->current = &t->task[t->depth < GOMP_DEPTH_MAX ? t->depth : GOMP_DEPTH_MAX];
}

static void implicit_task(void *arg)
{
    struct gomp_fork *f = arg;
    struct gomp_thread *t = gomp_self();
    if (t->pending)
        end_pending(t);
    unsigned index = (unsigned)omp_get_thread_num(), team = (unsigned)omp_get_num_threads();
    t->depth++;
    t->current = &t->task[t->depth < GOMP_DEPTH_MAX ? t->depth : GOMP_DEPTH_MAX];
    t->current->value = 0;
    GOMP_CALL(ompt_callback_implicit_task, ompt_callback_implicit_task_t, ompt_scope_begin,
              &f->parallel_data, t->current, team, index, ompt_task_implicit);
    t->loop_incr = f->incr;
    if (f->work)
        GOMP_CALL(ompt_callback_work, ompt_callback_work_t, f->work, ompt_scope_begin,
                  &f->parallel_data, t->current, f->count, f->codeptr);
    f->fn(f->data);
    gomp_sync_begin(t, ompt_sync_region_barrier_implicit_parallel, f->codeptr);
    t->pending = index != 0; /* the master ends its own after libgomp's join */
    if (t->pending) {
        atomic_fetch_add_explicit(&late_workers, 1, memory_order_relaxed);
        for (int m = atomic_load_explicit(&team_max, memory_order_relaxed); (int)team > m;)
            if (atomic_compare_exchange_weak(&team_max, &m, (int)team))
                break;
    }
}

void gomp_parallel_end_late(struct gomp_thread *t)
{
    if (t->pending)
        end_pending(t);
}

static void end_late(void *arg)
{
    (void)arg;
    gomp_parallel_end_late(gomp_self());
}

/* libgomp's own fork of a team as large as the largest one, each thread ending what it
 * still owes (no region of the program: no parallel_begin). libgomp gives an outermost
 * team its pool's threads, those of every earlier outermost team; a nested team's
 * worker may stay unended (the tool then has it as parked at its join). */
void gomp_parallel_end_late_workers(void)
{
    int n = atomic_load(&team_max);
    if (atomic_load(&late_workers) > 0 && n > 1 && gomp_self()->depth == 0)
        GOMP_REAL(GOMP_parallel)(end_late, NULL, (unsigned)n, 0);
}

static void fork_begin(struct gomp_thread *t, struct gomp_fork *f, unsigned num_threads)
{
    unsigned requested = num_threads ? num_threads : (unsigned)omp_get_max_threads();
    GOMP_CALL(ompt_callback_parallel_begin, ompt_callback_parallel_begin_t, t->current, NULL,
              &f->parallel_data, requested, ompt_parallel_invoker_runtime, f->codeptr);
}

static void fork_end(struct gomp_thread *t, struct gomp_fork *f)
{
    end_pending(t);
    GOMP_CALL(ompt_callback_parallel_end, ompt_callback_parallel_end_t, &f->parallel_data,
              t->current, ompt_parallel_invoker_runtime, f->codeptr);
}

/* One of libgomp's forks, real (its arguments after the function, the data and the team's
 * size in __VA_ARGS__): as it is where no tool runs, else with the trampoline and f
 * between the tool's parallel_begin and parallel_end. */
#define GOMP_FORK(real, f, num_threads, ...)                             \
    do {                                                                 \
        if (!gomp_tool_on()) {                                           \
            GOMP_REAL(real)((f).fn, (f).data, num_threads, __VA_ARGS__); \
            break;                                                       \
        }                                                                \
        struct gomp_thread *t_ = gomp_self();                            \
        fork_begin(t_, &(f), num_threads);                               \
        GOMP_REAL(real)(implicit_task, &(f), num_threads, __VA_ARGS__);  \
        fork_end(t_, &(f));                                              \
    } while (0)

void GOMP_parallel(gomp_outlined_fn fn, void *data, unsigned num_threads, unsigned flags)
{
    struct gomp_fork f = {.fn = fn, .data = data, .codeptr = __builtin_return_address(0)};
    GOMP_FORK(GOMP_parallel, f, num_threads, flags);
}

/* A combined parallel loop's fork: each team thread begins the loop of work's type in its
 * implicit task. */
static struct gomp_fork loop_fork(gomp_outlined_fn fn, void *data, const void *codeptr,
                                  ompt_work_t work, long start, long end, long incr)
{
    return (struct gomp_fork){.fn = fn,
                              .data = data,
                              .codeptr = codeptr,
                              .work = work,
                              .count = gomp_trip_count(start, end, incr),
                              .incr = incr};
}

#define GOMP_PARALLEL_LOOP(sched, work_type)                                                \
    void GOMP_parallel_loop_##sched(gomp_outlined_fn fn, void *data, unsigned num_threads,  \
                                    long start, long end, long incr, long chunk_size,       \
                                    unsigned flags)                                         \
    {                                                                                       \
        struct gomp_fork f =                                                                \
            loop_fork(fn, data, __builtin_return_address(0), work_type, start, end, incr);  \
        GOMP_FORK(GOMP_parallel_loop_##sched, f, num_threads, start, end, incr, chunk_size, \
                  flags);                                                                   \
    }
GOMP_PARALLEL_LOOP(static, ompt_work_loop_static)
GOMP_PARALLEL_LOOP(dynamic, ompt_work_loop_dynamic)
GOMP_PARALLEL_LOOP(guided, ompt_work_loop_guided)
GOMP_PARALLEL_LOOP(nonmonotonic_dynamic, ompt_work_loop_dynamic)
GOMP_PARALLEL_LOOP(nonmonotonic_guided, ompt_work_loop_guided)

/* schedule(runtime): no chunk size, and the loop's type is OMP_SCHEDULE's, not said (as
 * the runtime loops' own _start: ompt_work_loop_other). */
#define GOMP_PARALLEL_RUNTIME_LOOP(sched)                                                  \
    void GOMP_parallel_loop_##sched(gomp_outlined_fn fn, void *data, unsigned num_threads, \
                                    long start, long end, long incr, unsigned flags)       \
    {                                                                                      \
        struct gomp_fork f = loop_fork(fn, data, __builtin_return_address(0),              \
                                       ompt_work_loop_other, start, end, incr);            \
        GOMP_FORK(GOMP_parallel_loop_##sched, f, num_threads, start, end, incr, flags);    \
    }
GOMP_PARALLEL_RUNTIME_SCHEDULES(GOMP_PARALLEL_RUNTIME_LOOP)

void GOMP_parallel_sections(gomp_outlined_fn fn, void *data, unsigned num_threads, unsigned count,
                            unsigned flags)
{
    struct gomp_fork f = {.fn = fn,
                          .data = data,
                          .codeptr = __builtin_return_address(0),
                          .work = ompt_work_sections,
                          .count = count};
    GOMP_FORK(GOMP_parallel_sections, f, num_threads, count, flags);
}

GOMP_WAIT_ENTRY(GOMP_barrier, ompt_sync_region_barrier_explicit)
