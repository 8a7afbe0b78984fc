/* mpi_gpu_counters: the cuda component's counters (CUPTI's Range Profiler) per rank and per
 * MPI_Pcontrol region, on the CUPTI and CUDA driver doubles (tests/gpu_activity/
 * cupti_profiler_double.c, tests/components/cuda_driver_double.c) linked here, the ranges'
 * values staged in the file PAPI_TEST_CUPTI_PROFILER names (check_mpi_gpu_counters.py).
 * Each rank makes its device 0 context current before MPI_Init, as a program that picks its
 * GPU first does: the wrapper's set, made at MPI_Init, counts in it. */
#include <mpi.h>

void cuda_double_make_current(int device);

int main(int argc, char **argv)
{
    cuda_double_make_current(0);
    MPI_Init(&argc, &argv);
    MPI_Pcontrol(1, "gpu");
    MPI_Pcontrol(-1, "gpu");
    MPI_Finalize();
    return 0;
}
