/* gomp_api.c: the OpenMP routines a program calls before any construct, interposed so
 * that the runtime's start, and with it the tool's, is the program's first OpenMP
 * construct or call, as under LLVM's libomp (ompt.schema.json wall_ns: the run begins
 * there, not at the program's load: an MPI program's MPI_Init before its first region is
 * not OpenMP's run). Each starts the tool (one branch once started) and calls libgomp's;
 * C's and gfortran's names. The queries made inside a region (omp_get_thread_num ...)
 * are not interposed: a region has started the tool already. */
#include "gomp_abi.h"
#include "gomp_runtime.h"

#define GOMP_START_ROUTINES(suffix)                      \
    int omp_get_max_threads##suffix(void)                \
    {                                                    \
        gomp_tool_on();                                  \
        return GOMP_REAL(omp_get_max_threads##suffix)(); \
    }                                                    \
    int omp_get_num_procs##suffix(void)                  \
    {                                                    \
        gomp_tool_on();                                  \
        return GOMP_REAL(omp_get_num_procs##suffix)();   \
    }                                                    \
    double omp_get_wtime##suffix(void)                   \
    {                                                    \
        gomp_tool_on();                                  \
        return GOMP_REAL(omp_get_wtime##suffix)();       \
    }

GOMP_START_ROUTINES()
GOMP_START_ROUTINES(_)

void omp_set_num_threads(int n)
{
    gomp_tool_on();
    GOMP_REAL(omp_set_num_threads)(n);
}

void omp_set_num_threads_(const int *n)
{
    gomp_tool_on();
    GOMP_REAL(omp_set_num_threads_)(n);
}
