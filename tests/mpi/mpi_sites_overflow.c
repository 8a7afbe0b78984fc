/* mpi_sites_overflow: MPI_Comm_rank from 1,500 distinct call sites, more than a thread's
 * call-site table holds (1,024 entries, 16 probes), each called rank + 1 times and no
 * other wrapped call: the report must account for every site, in its list or counted
 * as dropped, and for every call (check_sites.py overflow). */
#include <mpi.h>

static volatile int sink;

#define S1 { int r_; MPI_Comm_rank(MPI_COMM_WORLD, &r_); sink += r_; }
#define S10 S1 S1 S1 S1 S1 S1 S1 S1 S1 S1
#define S100 S10 S10 S10 S10 S10 S10 S10 S10 S10 S10

static void sites(void)
{
    S100 S100 S100 S100 S100
    S100 S100 S100 S100 S100
    S100 S100 S100 S100 S100
}

#include "mpi_sites_main.h"
