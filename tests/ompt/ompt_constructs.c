/* ompt_constructs.c: the constructs inside a parallel region of 4 threads, each with a
 * known wait or count, timed by the program's own clock (check_ompt.py, case
 * constructs): a static loop whose iteration 0 (thread 0's) sleeps LONG_MS while the
 * others wait at its barrier; an explicit barrier that threads 1-3 reach LONG_MS before
 * thread 0; a named critical section thread 0 takes first and holds HOLD_MS while the
 * others ask for it LATE_MS later; a lock (initialised at lock_line) that thread 1 holds
 * HOLD_MS likewise; a single whose executor creates TASKS tasks of TASK_MS each and waits
 * for them (taskwait); sections of 2; a dynamic loop of DYN iterations. Then a reduction
 * over a team of REDUCERS (libomp combines its partial results in a tree: REDUCERS - 1
 * combining steps, each a reduction event) and a target region (on the host). In the
 * first region too: an ordered loop of ORDERED iterations (each enters its ordered part
 * once), a nest lock each thread sets twice (one acquisition each), a taskloop of CHUNKS
 * iterations. */
#include <omp.h>
#include <stdio.h>

#include "ompt_sleep.h"
#include "ompt_stamp.h"

#define LONG_MS  80
#define HOLD_MS  100
#define LATE_MS  10
#define TASKS    8
#define TASK_MS  10
#define DYN      40
#define ORDERED  12
#define CHUNKS   8
#define REDUCERS 8

static double loop_wait[4], barrier_wait[4], critical_wait[4], lock_wait[4];
static double critical_held, lock_held, task_ms[TASKS];

static double since(double t)
{
    return 1e3 * (omp_get_wtime() - t);
}

int main(void)
{
    omp_lock_t lock;
    omp_nest_lock_t nest;
    long chunks_run = 0;
    const int lock_line = __LINE__ + 1;
    omp_init_lock(&lock);
    const int nest_line = __LINE__ + 1;
    omp_init_nest_lock(&nest);
    int ordered_line = 0, taskloop_line = 0;
    int loop_line = 0, barrier_line = 0, critical_line = 0, set_line = 0, single_line = 0;
    int task_line = 0, taskwait_line = 0, sections_line = 0, dynamic_line = 0;
    double sum = 0;
#pragma omp parallel num_threads(4) reduction(+ : sum)
    {
        int t = omp_get_thread_num();
        double at = 0;
        loop_line = __LINE__ + 1;
#pragma omp for schedule(static)
        for (int i = 0; i < 4; i++) {
            if (i == 0)
                sleep_ms(LONG_MS);
            at = omp_get_wtime(); /* this thread's iterations end: then its barrier */
        }
        loop_wait[t] = since(at);
        if (t == 0)
            sleep_ms(LONG_MS);
        at = omp_get_wtime();
        barrier_line = __LINE__ + 1;
#pragma omp barrier
        barrier_wait[t] = since(at);
        if (t != 0)
            sleep_ms(LATE_MS);
        at = omp_get_wtime();
        critical_line = __LINE__ + 1;
#pragma omp critical(ompt_constructs_named)
        {
            critical_wait[t] = since(at);
            if (t == 0) {
                double held = omp_get_wtime();
                sleep_ms(HOLD_MS);
                critical_held = since(held);
            }
        }
#pragma omp barrier
        if (t != 1)
            sleep_ms(LATE_MS);
        at = omp_get_wtime();
        set_line = __LINE__ + 1;
        omp_set_lock(&lock);
        lock_wait[t] = since(at);
        if (t == 1) {
            double held = omp_get_wtime();
            sleep_ms(HOLD_MS);
            lock_held = since(held);
        }
        omp_unset_lock(&lock);
        single_line = __LINE__ + 1;
#pragma omp single
        {
            for (int k = 0; k < TASKS; k++) {
                task_line = __LINE__ + 1;
#pragma omp task firstprivate(k)
                {
                    double began = omp_get_wtime();
                    sleep_ms(TASK_MS);
                    task_ms[k] = since(began);
                }
            }
            taskwait_line = __LINE__ + 1;
#pragma omp taskwait
        }
        sections_line = __LINE__ + 1;
#pragma omp sections
        {
#pragma omp section
            sum += 1;
#pragma omp section
            sum += 2;
        }
        dynamic_line = __LINE__ + 1;
#pragma omp for schedule(dynamic, 1)
        for (int i = 0; i < DYN; i++)
            sum += i;
        ordered_line = __LINE__ + 3; /* its ordered part's */
#pragma omp for ordered schedule(static, 1)
        for (int i = 0; i < ORDERED; i++) {
#pragma omp ordered
            sum += i;
        }
        omp_set_nest_lock(&nest);
        omp_set_nest_lock(&nest); /* its owner again: no second acquisition */
        sum += 1;
        omp_unset_nest_lock(&nest);
        omp_unset_nest_lock(&nest);
#pragma omp single
        {
            taskloop_line = __LINE__ + 1;
#pragma omp taskloop num_tasks(4)
            for (int i = 0; i < CHUNKS; i++)
                __atomic_fetch_add(&chunks_run, 1, __ATOMIC_RELAXED);
        }
    }
    omp_destroy_lock(&lock);
    omp_destroy_nest_lock(&nest);
    long reduced = 0;
    const int reduction_line = __LINE__ + 1;
#pragma omp parallel for reduction(+ : reduced) num_threads(REDUCERS)
    for (int i = 0; i < 10 * REDUCERS; i++)
        reduced += i;
    int on_target = 0;
    const int target_line = __LINE__ + 1;
#pragma omp target map(tofrom : on_target)
    on_target = 1;
    double tasks = 0;
    for (int k = 0; k < TASKS; k++)
        tasks += task_ms[k];
    printf("{\"file\": \"%s\", \"lock_line\": %d, \"loop_line\": %d, \"barrier_line\": %d, "
           "\"critical_line\": %d, "
           "\"set_line\": %d, \"single_line\": %d, \"task_line\": %d, \"taskwait_line\": %d, "
           "\"sections_line\": %d, \"dynamic_line\": %d, \"dyn\": %d, \"tasks\": %d, "
           "\"tasks_ms\": %.3f, \"critical_held_ms\": %.3f, \"lock_held_ms\": %.3f, "
           "\"sum\": %g, \"reduction_line\": %d, \"reducers\": %d, \"reduced\": %ld, "
           "\"target_line\": %d, \"on_target\": %d, \"nest_line\": %d, \"ordered_line\": %d, "
           "\"ordered\": %d, \"taskloop_line\": %d, \"chunks\": %d, \"chunks_run\": %ld",
           __FILE__, lock_line, loop_line, barrier_line, critical_line, set_line, single_line,
           task_line, taskwait_line, sections_line, dynamic_line, DYN, TASKS, tasks, critical_held,
           lock_held, sum, reduction_line, REDUCERS, reduced, target_line, on_target, nest_line,
           ordered_line, ORDERED, taskloop_line, CHUNKS, chunks_run);
    const char *names[] = {"loop_wait_ms", "barrier_wait_ms", "critical_wait_ms", "lock_wait_ms"};
    const double *values[] = {loop_wait, barrier_wait, critical_wait, lock_wait};
    for (int k = 0; k < 4; k++)
        printf(", \"%s\": [%.3f, %.3f, %.3f, %.3f]", names[k], values[k][0], values[k][1],
               values[k][2], values[k][3]);
    printf("}\n");
    return 0;
}
