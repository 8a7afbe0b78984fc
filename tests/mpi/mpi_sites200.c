/* mpi_sites200: MPI_Comm_rank from 200 distinct call sites (each a call instruction of
 * its own; S10 puts ten on one source line), each called rank + 1 times. The report
 * must list all 200 with this file and a line (check_sites.py). */
#include <mpi.h>

static volatile int sink;

#define S1 { int r_; MPI_Comm_rank(MPI_COMM_WORLD, &r_); sink += r_; }
#define S10 S1 S1 S1 S1 S1 S1 S1 S1 S1 S1

static void sites(void)
{
    S10 S10 S10 S10 S10
    S10 S10 S10 S10 S10
    S10 S10 S10 S10 S10
    S10 S10 S10 S10 S10
}

#include "mpi_sites_main.h"
