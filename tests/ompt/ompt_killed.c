/* ompt_killed.c: an OpenMP program killed by a signal after a parallel region
 * (check_papi_run_dir.py): the OMPT tool writes its table at the runtime's end, which a
 * killed process never reaches, so papi_run gets none and must say why (issue 69). */
#include <omp.h>
#include <signal.h>
#include <stdio.h>

int main(void)
{
    int threads = 0;
#pragma omp parallel num_threads(2)
    {
#pragma omp atomic
        threads++;
    }
    printf("%d threads\n", threads);
    fflush(stdout);
    raise(SIGTERM); /* the default action: no exit handler runs */
    return 1;
}
