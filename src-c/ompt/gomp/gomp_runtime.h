/* gomp_runtime.h: the interposer as an OpenMP runtime for the OMPT tool (README.md): it
 * starts the tool as a runtime with OMPT does (OMP_TOOL_LIBRARIES, ompt_start_tool,
 * initialize with a lookup that answers ompt_set_callback, finalize at exit), keeps the
 * callbacks the tool registers, and each thread's own state (thread-local: no lock, no
 * allocation on the hot path). The entry points (gomp_parallel.c, gomp_worksharing.c,
 * gomp_mutex.c, gomp_tasks.c) drive the callbacks as LLVM's libomp would. */
#ifndef PAPI_GOMP_RUNTIME_H
#define PAPI_GOMP_RUNTIME_H

#include <stdatomic.h>
#include <stddef.h>

#include "ompt_api.h"

/* The runtime's version string the tool records (ompt.schema.json runtime). */
#define GOMP_RUNTIME_NAME "libgomp (GOMP_* interposed)"

#define GOMP_DEPTH_MAX 8 /* implicit tasks open in one thread (nested regions) */
#define GOMP_NEST_MAX  8 /* nest locks one thread holds at once */

/* A thread's state: its implicit tasks (task[0] its initial task), the task it runs now,
 * a worker's implicit task whose join barrier and end are still due (libomp reports them
 * at the team's next fork, and so does the interposer, at the thread's next implicit
 * task), the loop it is in and the nest locks it holds. */
struct gomp_thread {
    int seen;
    int depth;
    int pending;
    ompt_data_t thread_data;
    ompt_data_t task[GOMP_DEPTH_MAX + 1];
    ompt_data_t *current;
    long loop_incr;
    struct {
        const void *lock;
        int count;
    } nest[GOMP_NEST_MAX];
};

/* The callbacks the tool registered (NULL: not registered), by OMPT number. */
#define GOMP_CALLBACKS 33
extern ompt_callback_t gomp_cb[GOMP_CALLBACKS];

/* Whether the tool runs: started at the program's first OpenMP construct or call (as
 * LLVM's libomp starts: gomp_api.c interposes the calls made before any construct); 0
 * where no tool started. */
extern atomic_int gomp_state;
int gomp_tool_start(void);
static inline int gomp_tool_on(void)
{
    int s = atomic_load_explicit(&gomp_state, memory_order_acquire);
    return s == 1 || (s == 0 && gomp_tool_start());
}

/* At exit, before the tool's finalize: the workers' join barriers and implicit tasks
 * still due (gomp_parallel.c), as libomp ends them at its shutdown. */
void gomp_parallel_end_late_workers(void);
/* The calling worker's join barrier and implicit task still due, ended now (before its
 * thread_end, when its thread ends: a pool's threads end with their team's master). */
void gomp_parallel_end_late(struct gomp_thread *t);

/* The calling thread's state, its thread_begin given at its first sight. */
struct gomp_thread *gomp_self(void);

/* libgomp's own definition of name (the next in the lookup order after this library). */
void *gomp_real(const char *name);
#define GOMP_REAL(fn)                                                   \
    __extension__({                                                     \
        static __typeof__(fn) *real_;                                   \
        __typeof__(fn) *r_ = __atomic_load_n(&real_, __ATOMIC_RELAXED); \
        if (!r_) {                                                      \
            r_ = (__typeof__(fn) *)gomp_real(#fn);                      \
            __atomic_store_n(&real_, r_, __ATOMIC_RELAXED);             \
        }                                                               \
        r_;                                                             \
    })

/* The callbacks, called where registered. */
#define GOMP_CALL(event, type, ...)              \
    do {                                         \
        if (gomp_cb[event])                      \
            ((type)gomp_cb[event])(__VA_ARGS__); \
    } while (0)

/* A sync region of kind at codeptr around the real wait (a barrier, taskwait, the end of
 * a worksharing construct): begin, wait begin; then gomp_sync_end. */
void gomp_sync_begin(struct gomp_thread *t, ompt_sync_region_t kind, const void *codeptr);
void gomp_sync_end(struct gomp_thread *t, ompt_sync_region_t kind, const void *codeptr);
/* An entry point of libgomp's that waits, void name(void) (GOMP_barrier, GOMP_taskwait,
 * GOMP_taskgroup_end): libgomp's own inside a sync region of kind at the caller's
 * address. */
#define GOMP_WAIT_ENTRY(name, kind)                   \
    void name(void)                                   \
    {                                                 \
        const void *ra = __builtin_return_address(0); \
        if (!gomp_tool_on()) {                        \
            GOMP_REAL(name)();                        \
            return;                                   \
        }                                             \
        struct gomp_thread *t = gomp_self();          \
        gomp_sync_begin(t, kind, ra);                 \
        GOMP_REAL(name)();                            \
        gomp_sync_end(t, kind, ra);                   \
    }

#endif
