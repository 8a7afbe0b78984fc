/* ompt_construct_bodies.h: the OpenMP constructs whose cost the OMPT tool adds is measured
 * (issue 73 item 7), one body each that meets N instances on every thread of the team it
 * runs in: an empty critical, an omp_set_lock/omp_unset_lock pair, a static and a dynamic
 * (chunks of 16) loop of 64 iterations, a single nowait, an explicit barrier, an empty
 * task created and run (one thread creates them, in a single). The x86 bench
 * (bench_ompt_constructs.c, time and callgrind's instructions) and the arm64 guest's
 * (tests/ompt/arm64/pmu_ompt_construct_cost.c, exact instructions) time the same code.
 * ompt_construct_lock is initialised by the caller. */
#ifndef OMPT_CONSTRUCT_BODIES_H
#define OMPT_CONSTRUCT_BODIES_H

#include <omp.h>

#define OMPT_CONSTRUCTS 7
#define OMPT_EMPTY_BODY __asm__ __volatile__("" ::: "memory")

static omp_lock_t ompt_construct_lock;
static volatile long ompt_construct_sink;

static void ompt_critical(long n)
{
    for (long i = 0; i < n; i++) {
#pragma omp critical
        ompt_construct_sink++;
    }
}

static void ompt_locked(long n)
{
    for (long i = 0; i < n; i++) {
        omp_set_lock(&ompt_construct_lock);
        ompt_construct_sink++;
        omp_unset_lock(&ompt_construct_lock);
    }
}

static void ompt_static_loop(long n)
{
    for (long i = 0; i < n; i++) {
#pragma omp for schedule(static) nowait
        for (int k = 0; k < 64; k++)
            OMPT_EMPTY_BODY;
    }
}

static void ompt_dynamic_loop(long n)
{
    for (long i = 0; i < n; i++) {
#pragma omp for schedule(dynamic, 16) nowait
        for (int k = 0; k < 64; k++)
            OMPT_EMPTY_BODY;
    }
}

static void ompt_single(long n)
{
    for (long i = 0; i < n; i++) {
#pragma omp single nowait
        ompt_construct_sink++;
    }
}

static void ompt_barrier(long n)
{
    for (long i = 0; i < n; i++) {
#pragma omp barrier
    }
}

static void ompt_tasks(long n)
{
#pragma omp single
    for (long i = 0; i < n; i++) {
#pragma omp task
        OMPT_EMPTY_BODY;
    }
}

/* The constructs by name, in the order the figures list them. */
static const char *const ompt_construct_name[OMPT_CONSTRUCTS] = {
    "critical", "lock", "loop_static", "loop_dynamic", "single", "barrier", "task"};
static void (*const ompt_construct_body[OMPT_CONSTRUCTS])(long) = {
    ompt_critical, ompt_locked,  ompt_static_loop, ompt_dynamic_loop,
    ompt_single,   ompt_barrier, ompt_tasks};

#endif
