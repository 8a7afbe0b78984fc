/* ompt_trace.c: known answers of the OpenMP slices in the traces (check_ompt_trace.py).
 * Default: 3 instances of one parallel region of 4 threads (12 implicit tasks, 12 join
 * barriers), thread t sleeping (t+1) x 5 ms in each. "nested": an outer region of 2
 * threads, each forking an inner region of 2 (2 outer and 4 inner implicit tasks).
 * "tasks": one region of 2 threads: an explicit barrier, then one thread makes 4 explicit
 * tasks and waits for them (taskwait), then 1 in a taskgroup.
 * Built with OMPT_TRACE_REGIONS, the loop is inside the region API's region "iterations"
 * (PAPI_TRACE's own trace), whose report (and trace) is also written once after the first
 * instance, before the one at exit. Prints the directives' lines as JSON. */
#include <omp.h>
#include <stdio.h>
#include <string.h>

#include "ompt_sleep.h"
#ifdef OMPT_TRACE_REGIONS
#include <papi.h>
#include <papi_hl_rank.h>
#endif

static int nested(void)
{
    omp_set_max_active_levels(2);
    const int outer_line = __LINE__ + 1;
#pragma omp parallel num_threads(2)
    {
        const int inner_line = __LINE__ + 1;
#pragma omp parallel num_threads(2)
        sleep_ms(5 * (omp_get_thread_num() + 1));
        if (omp_get_thread_num() == 0)
            printf("{\"file\": \"%s\", \"outer_line\": %d, \"inner_line\": %d}\n", __FILE__,
                   outer_line, inner_line);
    }
    return 0;
}

static int tasks(void)
{
#pragma omp parallel num_threads(2)
    {
#pragma omp barrier
#pragma omp single
        {
            for (int i = 0; i < 4; i++) {
#pragma omp task
                sleep_ms(2);
            }
#pragma omp taskwait
#pragma omp taskgroup
            {
#pragma omp task
                sleep_ms(2);
            }
        }
    }
    printf("{\"file\": \"%s\", \"tasks\": 5}\n", __FILE__);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "tasks") == 0)
        return tasks();
    if (argc > 1 && strcmp(argv[1], "nested") == 0)
        return nested();
#ifdef OMPT_TRACE_REGIONS
    PAPI_hl_region_begin("iterations");
#endif
    const int line = __LINE__ + 2;
    for (int k = 0; k < 3; k++) {
#pragma omp parallel num_threads(4)
        sleep_ms(5 * (omp_get_thread_num() + 1));
#ifdef OMPT_TRACE_REGIONS
        if (k == 0)
            papi_hl_write_report(); /* a write between regions: the one at exit holds all */
#endif
    }
#ifdef OMPT_TRACE_REGIONS
    PAPI_hl_region_end("iterations");
#endif
    printf("{\"file\": \"%s\", \"line\": %d}\n", __FILE__, line);
    return 0;
}
