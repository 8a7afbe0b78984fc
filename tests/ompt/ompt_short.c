/* ompt_short.c: parallel regions as short as the counting (check_papi_run_omp.py): 2000
 * empty regions of 2 threads, then one of 2 threads that works UNIT_MS / 5. The counts per
 * region and thread cost more than the empty regions' work: papi_run's banner must say so,
 * with how to do without them; with PAPI_OMPT_EVENTS= (empty) it says nothing. */
#include <omp.h>
#include <stdio.h>

#include "ompt_sleep.h"

#define SHORT_REGIONS 2000

int main(void)
{
    for (int i = 0; i < SHORT_REGIONS; i++) {
#pragma omp parallel num_threads(2)
        __asm__ __volatile__("" ::: "memory"); /* nothing the compiler may drop */
    }
#pragma omp parallel num_threads(2)
    sleep_ms(UNIT_MS / 5);
    printf("{\"short_regions\": %d}\n", SHORT_REGIONS);
    return 0;
}
