/* region_state.h: the rank's MPI_Pcontrol regions, under pmpi_lock() (state.h): opened
 * and closed by regions.c, copied into the row (row.c), named by the event log, the
 * samples and the trace. */
#ifndef PAPI_MPI_REGION_STATE_H
#define PAPI_MPI_REGION_STATE_H

#include "state.h"

#define PMPI_REGION_CALLS 16 /* distinct MPI calls listed per region; the rest summed */

/* One MPI call made inside a region: its id, calls and time (pmpi_ticks() units). */
struct pmpi_region_call {
    int id;
    long long calls, ticks;
};

/* A MPI_Pcontrol region: wall time and the opening thread's counters while open, and
 * the MPI calls of every thread of the rank while open (MPI_Pcontrol not counted). */
struct pmpi_region {
    char name[PMPI_NAME_LEN];
    long long entries, wall_ns, open_t0;
    long long counts[PMPI_MAX_EVENTS], open_counts[PMPI_MAX_EVENTS];
    long long mpi_ticks, open_mpi_ticks; /* the rank's time in MPI (pmpi_busy_ticks) */
    long long mpi_calls;                 /* MPI calls, all of them */
    long long calls_unlisted;            /* of those, the calls past the listed ones */
    int ncalls;
    struct pmpi_region_call calls[PMPI_REGION_CALLS];
    int open;
    struct papi_gpu_span *gpu; /* its GPU activity (libpapi's, gpu_row.c), or NULL */
};

struct pmpi_regions {
    struct pmpi_region regions[PMPI_MAX_REGIONS];
    int nregions;
};

/* The rank's regions, read only; regions.c, their one writer (under the lock), edits
 * them through pmpi_regions_edit. */
const struct pmpi_regions *pmpi_regions(void);
struct pmpi_regions *pmpi_regions_edit(void);

#endif
