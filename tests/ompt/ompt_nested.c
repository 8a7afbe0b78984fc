/* ompt_nested.c: nested parallelism for the OMPT tool (check_ompt.py, case nested). Two
 * levels active: an outer team of 2 whose threads each fork an inner team of 2, where
 * inner thread t works (t+1) units (inner load balance 1.5/2 = 0.75, 2 inner instances,
 * none outermost). Then nesting off (max active levels 1): the same construct's inner
 * regions run as teams of one thread, each working one unit. Prints the directives'
 * lines as JSON. */
#include <omp.h>
#include <stdio.h>

#include "ompt_sleep.h"

int main(void)
{
    omp_set_max_active_levels(2);
    const int outer_line = __LINE__ + 1;
#pragma omp parallel num_threads(2)
    {
        const int inner_line = __LINE__ + 1;
#pragma omp parallel num_threads(2)
        sleep_ms(UNIT_MS * (omp_get_thread_num() + 1));
        if (omp_get_thread_num() == 0)
            printf("{\"outer_line\": %d, \"inner_line\": %d, ", outer_line, inner_line);
    }
    omp_set_max_active_levels(1);
    const int off_outer_line = __LINE__ + 1;
#pragma omp parallel num_threads(2)
    {
        const int off_inner_line = __LINE__ + 1;
#pragma omp parallel num_threads(2)
        sleep_ms(UNIT_MS);
#pragma omp barrier
        if (omp_get_thread_num() == 0)
            printf("\"off_outer_line\": %d, \"off_inner_line\": %d, \"unit_ms\": %d}\n",
                   off_outer_line, off_inner_line, UNIT_MS);
    }
    return 0;
}
