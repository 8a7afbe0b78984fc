/* mpi_ring.c: an ordinary MPI program (it knows nothing about PAPI) to run under the
 * PMPI wrapper library:
 *   mpirun.mpich -np 2 -genv LD_PRELOAD <build>/mpi-wrappers/libpapi_mpi.so ./mpi_ring
 * Each rank does (rank+1) units of work, then passes a token around the ring and joins
 * an allreduce: the report at MPI_Finalize shows the imbalance (rank 0 waits longest in
 * MPI) and, with MPI_Pcontrol(1/-1, "name"), a named region. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static double work(int units)
{
    double s = 0;
    for (long i = 0; i < units * 2000000L; i++)
        s += (double)(i % 7) * 0.5;
    return s;
}

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    double local = 0, total = 0;
    for (int step = 0; step < 5; step++) {
        MPI_Pcontrol(1, "compute");
        local += work(rank + 1);
        MPI_Pcontrol(-1, "compute");

        int token = step, next = (rank + 1) % size, prev = (rank + size - 1) % size;
        MPI_Sendrecv_replace(&token, 1, MPI_INT, next, 0, prev, 0, MPI_COMM_WORLD,
                             MPI_STATUS_IGNORE);
        MPI_Allreduce(&local, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    }
    if (rank == 0)
        printf("mpi_ring: %d ranks, checksum %.1f\n", size, total);
    MPI_Finalize();
    return 0;
}
