/* mpi_sample_pcontrol.c: samples inside MPI_Pcontrol under PAPI_SAMPLE (check_mpi_sample.py
 * --part pcontrol). Each rank opens and closes region "loop" 50,000 times in marks(): the
 * wrapper's region marks read the counters, so most of the rank's CPU time is inside
 * MPI_Pcontrol, and its samples are to be filed under that call at these two lines. */
#include <mpi.h>
#include <stdlib.h>

__attribute__((noinline)) void marks(long n)
{
    for (long i = 0; i < n; i++) {
        MPI_Pcontrol(2, "loop");  /* PCONTROL_OPEN */
        MPI_Pcontrol(-2, "loop"); /* PCONTROL_CLOSE */
    }
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    marks(argc > 1 ? atol(argv[1]) : 50000);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
