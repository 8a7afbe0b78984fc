/* ompt_team_sizes.c: one parallel region run with teams of 2, 4 and 3 threads
 * (omp_set_num_threads between its instances), each thread working one unit, for the OMPT
 * tool (check_ompt.py, case team_sizes): 3 instances, thread numbers 0-3 with 3, 3, 2 and 1
 * implicit tasks, each thread number's wall time that of the instances it was in. Then an
 * explicit barrier after unequal work, and the master's taskwait for a task that takes
 * one unit (run by either thread): their waits are measured. */
#include <omp.h>
#include <stdio.h>

#include "ompt_sleep.h"
#include "ompt_stamp.h"

int main(void)
{
    const int sizes[] = {2, 4, 3};
    const int sizes_line = __LINE__ + 3;
    for (int i = 0; i < 3; i++) {
        omp_set_num_threads(sizes[i]);
#pragma omp parallel
        sleep_ms(UNIT_MS);
    }
    double done[2] = {0, 0};
    const int barrier_line = __LINE__ + 1;
#pragma omp parallel num_threads(2)
    {
        sleep_ms(UNIT_MS * (omp_get_thread_num() + 1)); /* thread 0 waits one unit */
        stamp(&done[omp_get_thread_num()]);
#pragma omp barrier
#pragma omp master
        {
#pragma omp task
            sleep_ms(UNIT_MS);
#pragma omp taskwait
        }
    }
    /* thread 0's wait at the barrier by the program's own clock */
    printf(
        "{\"sizes_line\": %d, \"barrier_line\": %d, \"unit_ms\": %d, \"barrier_wait_ms\": %.3f}\n",
        sizes_line, barrier_line, UNIT_MS, 1e3 * (read_stamp(&done[1]) - read_stamp(&done[0])));
    return 0;
}
