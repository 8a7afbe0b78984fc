/* ompt_unload_lib.c: the library ompt_unload.c loads, forks from and unloads (issue 69
 * N9): its region, forked three times, is named from this library's file at exit. */
#include <omp.h>

int ompt_unload_run(void);
const int ompt_unload_line = 12; /* the directive's line below */

static int lib_fork(void)
{
    int sum = 0;
    /* the directive below is on ompt_unload_line */
#pragma omp parallel num_threads(2) reduction(+ : sum)
    sum += omp_get_thread_num() + 1;
    return sum;
}

int ompt_unload_run(void)
{
    int sum = 0;
    for (int i = 0; i < 3; i++)
        sum += lib_fork();
    return sum;
}
