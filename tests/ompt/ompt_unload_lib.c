/* ompt_unload_lib.c: the library ompt_unload.c loads, forks from and unloads (issue 69
 * N9): its regions are named from this library's file at exit. lib_fork's region is
 * forked three times; scale's, inlined at two calls, twice, one region per call, told
 * apart by their sites (the inlined calls' lines). */
#include <omp.h>

int ompt_unload_run(void);
const int ompt_unload_line = 16, ompt_unload_scale_line = 24; /* the directives' lines */
const int ompt_unload_calls[2] = {34, 35};                    /* scale's calls' lines */
static double v[2] = {1, 1};

static int lib_fork(void)
{
    int sum = 0;
    /* the directive below is on ompt_unload_line */
#pragma omp parallel num_threads(2) reduction(+ : sum)
    sum += omp_get_thread_num() + 1;
    return sum;
}

static inline __attribute__((always_inline)) void scale(double f)
{
    /* the directive below is on ompt_unload_scale_line */
#pragma omp parallel num_threads(2)
    v[omp_get_thread_num()] *= f;
}

int ompt_unload_run(void)
{
    int sum = 0;
    for (int i = 0; i < 3; i++)
        sum += lib_fork();
    /* the calls below are on ompt_unload_calls' lines */
    scale(2.0);
    scale(3.0);
    return v[0] == 6.0 && v[1] == 6.0 ? sum : -1;
}
