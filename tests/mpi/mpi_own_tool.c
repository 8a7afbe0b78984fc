/* mpi_own_tool.c: a hybrid MPI x OpenMP program with an OMPT tool of its own
 * (tests/ompt/ompt_own_tool.h: its exported ompt_start_tool), for check_own_tool.py
 * (issue 58 item 7): under the MPI wrapper, which names the project's tool in
 * OMP_TOOL_LIBRARIES, the runtime starts the program's tool instead; that tool must still
 * see its 3 parallel regions in each of 2 ranks, and the report must name it. Prints each
 * rank's answer as JSON. */
#include <mpi.h>
#include <omp.h>
#include <stdio.h>

#include "ompt_own_tool.h"

int main(int argc, char **argv)
{
    int rank = -1;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int sum = 0; /* atomic: libomp's join is invisible to TSan (not instrumented) */
    for (int i = 0; i < 3; i++) {
#pragma omp parallel num_threads(2)
        __atomic_add_fetch(&sum, 1, __ATOMIC_RELAXED);
    }
    printf("{\"rank\": %d, \"threads_summed\": %d}\n", rank,
           __atomic_load_n(&sum, __ATOMIC_RELAXED));
    fflush(stdout);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
