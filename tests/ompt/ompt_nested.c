/* ompt_nested.c: nested parallelism for the OMPT tool (check_ompt.py, case nested). Two
 * levels active: an outer team of 2 whose threads each fork an inner team of 2, where
 * inner thread t works (t+1) units (inner load balance 1.5/2 = 0.75, 2 inner instances,
 * none outermost). Then nesting off (max active levels 1): the same construct's inner
 * regions run as teams of one thread, each working one unit. Prints the directives'
 * lines and each inner thread's work by the program's own clock (work_ms[outer][inner],
 * off_work_ms[outer], ms: a loaded machine wakes a sleeper late, and the tool is judged
 * against the work that ran) as JSON. */
#include <omp.h>
#include <stdio.h>

#include "ompt_sleep.h"
#include "ompt_stamp.h"

/* Each inner thread's work, stored by it and read by the master after the regions
 * (atomic: the runtime's joins order them, invisibly to TSan, ompt_stamp.h). */
static double work_ms[2][2], off_work_ms[2];

static void timed(double *at, long ms)
{
    double took = sleep_ms_timed(ms);
    __atomic_store(at, &took, __ATOMIC_RELAXED);
}

int main(void)
{
    omp_set_max_active_levels(2);
    const int outer_line = __LINE__ + 1;
#pragma omp parallel num_threads(2)
    {
        const int inner_line = __LINE__ + 1;
#pragma omp parallel num_threads(2)
        timed(&work_ms[omp_get_ancestor_thread_num(1)][omp_get_thread_num()],
              UNIT_MS * (omp_get_thread_num() + 1));
        if (omp_get_thread_num() == 0)
            printf("{\"outer_line\": %d, \"inner_line\": %d, ", outer_line, inner_line);
    }
    omp_set_max_active_levels(1);
    const int off_outer_line = __LINE__ + 1;
#pragma omp parallel num_threads(2)
    {
        const int off_inner_line = __LINE__ + 1;
#pragma omp parallel num_threads(2)
        timed(&off_work_ms[omp_get_ancestor_thread_num(1)], UNIT_MS);
#pragma omp barrier
        if (omp_get_thread_num() == 0)
            printf("\"off_outer_line\": %d, \"off_inner_line\": %d, \"unit_ms\": %d, ",
                   off_outer_line, off_inner_line, UNIT_MS);
    }
    printf("\"work_ms\": [[%.3f, %.3f], [%.3f, %.3f]], \"off_work_ms\": [%.3f, %.3f]}\n",
           read_stamp(&work_ms[0][0]), read_stamp(&work_ms[0][1]), read_stamp(&work_ms[1][0]),
           read_stamp(&work_ms[1][1]), read_stamp(&off_work_ms[0]), read_stamp(&off_work_ms[1]));
    return 0;
}
