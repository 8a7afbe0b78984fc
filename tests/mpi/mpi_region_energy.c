/* mpi_region_energy: known energy added to a replayed powercap tree (PAPI_FSROOT) inside
 * MPI_Pcontrol regions (check_mpi_region_energy.py). Usage: mpi_region_energy POWERCAP_DIR
 *   "work": every rank inside while rank 0 adds package 0 3.5 J, its DRAM 0.4 J and
 *           package 1 1.25 J (between two barriers, so every rank's region spans it);
 *   "solo": rank 0 alone inside while it adds package 0 1.0 J (the others wait outside);
 *   "idle": every rank inside, no energy added. */
#include <mpi.h>
#include <stdio.h>

#include "test_energy_uj.h"

int main(int argc, char **argv)
{
    int rank, bad = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (argc < 2)
        MPI_Abort(MPI_COMM_WORLD, 2);
    MPI_Pcontrol(1, "work");
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        bad |= test_energy_uj_rewrite(argv[1], "intel-rapl:0", 3500000, 1) |
               test_energy_uj_rewrite(argv[1], "intel-rapl:0:1", 400000, 1) |
               test_energy_uj_rewrite(argv[1], "intel-rapl:1", 1250000, 1);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Pcontrol(-1, "work");
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        MPI_Pcontrol(1, "solo");
        bad |= test_energy_uj_rewrite(argv[1], "intel-rapl:0", 1000000, 1);
        MPI_Pcontrol(-1, "solo");
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Pcontrol(1, "idle");
    MPI_Pcontrol(-1, "idle");
    MPI_Finalize();
    return bad;
}
