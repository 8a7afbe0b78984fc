/* ompt_live.c: papi_run --interval's OpenMP figures per sample (issue 73 item 6,
 * check_ompt_live.py): 500 ms of serial time once the runtime (and with it the tool)
 * started, then 500 ms of 4-thread regions, one after another, in which thread t works
 * (t+1) units (load balance 2.5/4 = 0.625 in each instance, so in each interval), then
 * the exit. Prints, as JSON, the instances it ran. */
#include <omp.h>
#include <stdio.h>

#include "ompt_sleep.h"

#define LIVE_UNIT_MS 4

int main(void)
{
    (void)omp_get_max_threads(); /* the runtime, and with it the tool, starts here */
    sleep_ms(500);
    double start = omp_get_wtime();
    int instances = 0;
    while (omp_get_wtime() - start < 0.5) {
#pragma omp parallel num_threads(4)
        sleep_ms(LIVE_UNIT_MS * (omp_get_thread_num() + 1));
        instances++;
    }
    printf("{\"instances\": %d, \"unit_ms\": %d, \"parallel_s\": %.4f}\n", instances, LIVE_UNIT_MS,
           omp_get_wtime() - start);
    return 0;
}
