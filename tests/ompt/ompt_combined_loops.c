/* ompt_combined_loops.c: combined parallel loops whose schedule libgomp takes at run time
 * (check_ompt.py, case combined): gcc calls GOMP_parallel_loop_maybe_nonmonotonic_runtime
 * for `parallel for schedule(runtime)` and GOMP_parallel_loop_nonmonotonic_dynamic for
 * `schedule(dynamic, 4)` (not GOMP_parallel), the team's function calling the loop's
 * _next alone. Each is a parallel region of THREADS threads with one loop of ITERS
 * iterations; the facts line gives their lines and each thread's iterations as the
 * program counted them. OMP_SCHEDULE (the test's: dynamic,4) decides the first's. */
#include <omp.h>
#include <stdio.h>

#define THREADS 4
#define ITERS   64

int main(void)
{
    int runtime_iters[THREADS] = {0}, dynamic_iters[THREADS] = {0};
    int runtime_line = __LINE__ + 1;
#pragma omp parallel for schedule(runtime) num_threads(THREADS)
    for (int i = 0; i < ITERS; i++)
        runtime_iters[omp_get_thread_num()]++;
    int dynamic_line = __LINE__ + 1;
#pragma omp parallel for schedule(dynamic, 4) num_threads(THREADS)
    for (int i = 0; i < ITERS; i++)
        dynamic_iters[omp_get_thread_num()]++;
    printf("{\"file\": \"%s\", \"runtime_line\": %d, \"dynamic_line\": %d, \"iters\": %d, "
           "\"threads\": %d, \"runtime_iters\": [%d, %d, %d, %d], "
           "\"dynamic_iters\": [%d, %d, %d, %d]}\n",
           __FILE__, runtime_line, dynamic_line, ITERS, THREADS, runtime_iters[0], runtime_iters[1],
           runtime_iters[2], runtime_iters[3], dynamic_iters[0], dynamic_iters[1], dynamic_iters[2],
           dynamic_iters[3]);
    return 0;
}
