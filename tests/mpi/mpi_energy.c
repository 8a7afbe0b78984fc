/* mpi_energy: rank 0 adds known energy to a replayed powercap tree (PAPI_FSROOT) between
 * two barriers after MPI_Init, so every rank's MPI_Init..MPI_Finalize spans it
 * (check_mpi_energy.py). Usage: mpi_energy POWERCAP_DIR ZONE:UJ... */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_energy_uj.h"

int main(int argc, char **argv)
{
    int rank, bad = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Barrier(MPI_COMM_WORLD);
    for (int i = 2; rank == 0 && i < argc; i++) {
        char zone[256], *colon;
        snprintf(zone, sizeof zone, "%s", argv[i]);
        colon = strrchr(zone, ':');
        if (!colon)
            return 2;
        *colon = '\0';
        bad |= test_energy_uj_rewrite(argv[1], zone, strtoull(colon + 1, NULL, 10), 1);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return bad;
}
