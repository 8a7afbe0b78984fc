/* ompt_balance.c: known answers of the OMPT tool (check_ompt.py, case balance): thread t of
 * 4 works (t+1) units in a schedule(static) loop (load balance 2.5/4 = 0.625), then 300 ms
 * of serial time, then a balanced region. Prints its own clock's serialization (time in
 * the two regions over its wall time, from the runtime's start), the first region's wall
 * time and each thread's wait in it (the region's end less the end of the thread's work:
 * what a loaded machine's late wake-ups add is in both clocks), each thread's body in
 * both regions (from its own start and from the fork: the bounds of its work on any
 * machine) and the lines of the two directives, as JSON, for the checker to compare with
 * the tool's file. */
#include <omp.h>
#include <stdio.h>

#include "ompt_sleep.h"
#include "ompt_stamp.h"

int main(void)
{
    (void)omp_get_max_threads(); /* the runtime, and with it the tool, starts here */
    double start = omp_get_wtime();
    double t = start, began[4], done[4], b_began[4], b_done[4];
    const int imbalanced_line = __LINE__ + 1;
#pragma omp parallel for schedule(static) num_threads(4)
    for (int i = 0; i < 4; i++) {
        stamp(&began[i]);
        sleep_ms(UNIT_MS * (i + 1));
        stamp(&done[i]);
    }
    double end = omp_get_wtime(), in_parallel = end - t;
    sleep_ms(300);
    t = omp_get_wtime();
    const int balanced_line = __LINE__ + 1;
#pragma omp parallel num_threads(4)
    {
        stamp(&b_began[omp_get_thread_num()]);
        sleep_ms(UNIT_MS);
        stamp(&b_done[omp_get_thread_num()]);
    }
    double b_start = t;
    in_parallel += omp_get_wtime() - t;
    double wall = omp_get_wtime() - start;
    printf("{\"serialization\": %.4f, \"wall_s\": %.4f, \"unit_ms\": %d, \"file\": \"%s\", "
           "\"imbalanced_line\": %d, \"balanced_line\": %d, \"region_ms\": %.3f, \"waits_ms\": [",
           in_parallel / wall, wall, UNIT_MS, __FILE__, imbalanced_line, balanced_line,
           1e3 * (end - start));
    for (int i = 0; i < 4; i++)
        printf("%s%.3f", i ? ", " : "", 1e3 * (end - read_stamp(&done[i])));
    /* each thread's body: from its start (the least its work can be) and from the fork
     * (the most), in both regions */
    printf("], \"body_ms\": [");
    for (int i = 0; i < 4; i++)
        printf("%s[%.3f, %.3f]", i ? ", " : "",
               1e3 * (read_stamp(&done[i]) - read_stamp(&began[i])),
               1e3 * (read_stamp(&done[i]) - start));
    printf("], \"balanced_body_ms\": [");
    for (int i = 0; i < 4; i++)
        printf("%s[%.3f, %.3f]", i ? ", " : "",
               1e3 * (read_stamp(&b_done[i]) - read_stamp(&b_began[i])),
               1e3 * (read_stamp(&b_done[i]) - b_start));
    printf("]}\n");
    return 0;
}
