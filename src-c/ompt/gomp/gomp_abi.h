/* gomp_abi.h: the libgomp entry points the interposer (README.md) defines in front of
 * libgomp's own, declared as libgomp's ABI has them (GCC's libgomp_g.h and omp.h: the
 * calls gcc -fopenmp emits and the omp_* lock routines). The interposer's definitions
 * must match these exactly; the real ones are found with dlsym(RTLD_NEXT, name). */
#ifndef PAPI_GOMP_ABI_H
#define PAPI_GOMP_ABI_H

#include <stdbool.h>

/* What the interposer defines is exported (the library is built -fvisibility=hidden). */
#pragma GCC visibility push(default)

typedef void (*gomp_outlined_fn)(void *);
typedef void (*gomp_copy_fn)(void *, void *);

/* Parallel regions (GOMP_parallel: gcc 4.9 and later). */
void GOMP_parallel(gomp_outlined_fn fn, void *data, unsigned num_threads, unsigned flags);
void GOMP_parallel_loop_dynamic(gomp_outlined_fn fn, void *data, unsigned num_threads, long start,
                                long end, long incr, long chunk_size, unsigned flags);
void GOMP_parallel_loop_guided(gomp_outlined_fn fn, void *data, unsigned num_threads, long start,
                               long end, long incr, long chunk_size, unsigned flags);
void GOMP_parallel_loop_nonmonotonic_dynamic(gomp_outlined_fn fn, void *data, unsigned num_threads,
                                             long start, long end, long incr, long chunk_size,
                                             unsigned flags);
void GOMP_parallel_loop_nonmonotonic_guided(gomp_outlined_fn fn, void *data, unsigned num_threads,
                                            long start, long end, long incr, long chunk_size,
                                            unsigned flags);
void GOMP_parallel_loop_static(gomp_outlined_fn fn, void *data, unsigned num_threads, long start,
                               long end, long incr, long chunk_size, unsigned flags);
/* schedule(runtime): no chunk size (OMP_SCHEDULE's); gcc 9 and later call the
 * maybe_nonmonotonic form. */
#define GOMP_PARALLEL_RUNTIME_SCHEDULES(X) \
    X(runtime) X(nonmonotonic_runtime) X(maybe_nonmonotonic_runtime)
#define GOMP_DECLARE_PARALLEL_RUNTIME_LOOP(s)                                                      \
    void GOMP_parallel_loop_##s(gomp_outlined_fn fn, void *data, unsigned num_threads, long start, \
                                long end, long incr, unsigned flags);
GOMP_PARALLEL_RUNTIME_SCHEDULES(GOMP_DECLARE_PARALLEL_RUNTIME_LOOP)
void GOMP_parallel_sections(gomp_outlined_fn fn, void *data, unsigned num_threads, unsigned count,
                            unsigned flags);

/* Barriers, critical sections, atomics, ordered. */
void GOMP_barrier(void);
void GOMP_critical_start(void);
void GOMP_critical_end(void);
void GOMP_critical_name_start(void **pptr);
void GOMP_critical_name_end(void **pptr);
void GOMP_atomic_start(void);
void GOMP_atomic_end(void);
void GOMP_ordered_start(void);
void GOMP_ordered_end(void);

/* Worksharing loops: SCHED_start hands the first chunk, SCHED_next the next ones. */
#define GOMP_LOOP_SCHEDULES(X) \
    X(static)                  \
    X(dynamic)                 \
    X(guided)                  \
    X(nonmonotonic_dynamic)    \
    X(nonmonotonic_guided) X(ordered_static) X(ordered_dynamic) X(ordered_guided)
#define GOMP_DECLARE_LOOP(s)                                                                   \
    bool GOMP_loop_##s##_start(long start, long end, long incr, long chunk_size, long *istart, \
                               long *iend);                                                    \
    bool GOMP_loop_##s##_next(long *istart, long *iend);
GOMP_LOOP_SCHEDULES(GOMP_DECLARE_LOOP)
#define GOMP_LOOP_RUNTIME_SCHEDULES(X) \
    X(runtime) X(nonmonotonic_runtime) X(maybe_nonmonotonic_runtime) X(ordered_runtime)
#define GOMP_DECLARE_RUNTIME_LOOP(s)                                                       \
    bool GOMP_loop_##s##_start(long start, long end, long incr, long *istart, long *iend); \
    bool GOMP_loop_##s##_next(long *istart, long *iend);
GOMP_LOOP_RUNTIME_SCHEDULES(GOMP_DECLARE_RUNTIME_LOOP)
void GOMP_loop_end(void);
void GOMP_loop_end_nowait(void);

/* Sections and single. */
unsigned GOMP_sections_start(unsigned count);
unsigned GOMP_sections_next(void);
void GOMP_sections_end(void);
void GOMP_sections_end_nowait(void);
bool GOMP_single_start(void);

/* Explicit tasks (gcc 11 and later: the detach argument). */
void GOMP_task(gomp_outlined_fn fn, void *data, gomp_copy_fn cpyfn, long arg_size, long arg_align,
               bool if_clause, unsigned flags, void **depend, int priority, void *detach);
void GOMP_taskwait(void);
void GOMP_taskgroup_start(void);
void GOMP_taskgroup_end(void);

/* The lock routines (a program's own calls). Only the locks' addresses are used. */
typedef struct gomp_lock gomp_lock;
#define GOMP_DECLARE_LOCKS(suffix)                     \
    void omp_init_lock##suffix(gomp_lock *lock);       \
    void omp_set_lock##suffix(gomp_lock *lock);        \
    void omp_unset_lock##suffix(gomp_lock *lock);      \
    int omp_test_lock##suffix(gomp_lock *lock);        \
    void omp_init_nest_lock##suffix(gomp_lock *lock);  \
    void omp_set_nest_lock##suffix(gomp_lock *lock);   \
    void omp_unset_nest_lock##suffix(gomp_lock *lock); \
    int omp_test_nest_lock##suffix(gomp_lock *lock);
GOMP_DECLARE_LOCKS()  /* C (omp.h) */
GOMP_DECLARE_LOCKS(_) /* gfortran (omp_lib: the lock variable's address) */

/* The routines a program calls before any construct (gomp_api.c: they start the tool), C's
 * and gfortran's. */
#define GOMP_DECLARE_START_ROUTINES(suffix) \
    int omp_get_max_threads##suffix(void);  \
    int omp_get_num_procs##suffix(void);    \
    double omp_get_wtime##suffix(void);
GOMP_DECLARE_START_ROUTINES()
GOMP_DECLARE_START_ROUTINES(_)
void omp_set_num_threads(int n);
void omp_set_num_threads_(const int *n);

/* libgomp's answers the interposer asks (not interposed). */
int omp_get_thread_num(void);
int omp_get_num_threads(void);

#pragma GCC visibility pop

#endif
