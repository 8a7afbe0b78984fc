/* trace_names_tree.h: the trace's names made one table for the job without a gather
 * (trace_names_tree.c): every rank's region and counter names (a counter a double where
 * any rank gives it a double value), the communicator numbers its records use and its
 * records' time span, merged up a binomial tree to rank 0 (log2 P rounds, each message
 * the sorted union of a subtree's names: never a record) and broadcast back. What the
 * per-rank OTF2 archive (trace_otf2_job.c) needs to define the names once. */
#ifndef PAPI_MPI_TRACE_NAMES_TREE_H
#define PAPI_MPI_TRACE_NAMES_TREE_H

#include <mpi.h>
#include <stdint.h>

#include "trace_records.h"

#define TRACE_MAX_COMMS 32 /* communicator numbers 0..31 (the wrapper uses 0 and 1) */

struct pmpi_trace_names {
    char *buf;           /* the job's table, packed (owned) */
    const char **region; /* region ref i: region[i] */
    int nregions;
    const char **counter; /* metric ref i: counter[i], a double where dbl[i] */
    unsigned char *dbl;
    int ncounters;
    uint32_t comm[TRACE_MAX_COMMS]; /* comm ref c: communicator number comm[c] */
    int ncomms;
    uint64_t first, last;               /* the job's records' span (0, 0: none) */
    uint32_t *region_ref, *counter_ref; /* this rank's region / counter i: its ref */
    int failed; /* no table here: the job's failed, or this rank had no memory for it */
};

/* Collective over comm (its error handler MPI_ERRORS_RETURN): *out from every rank's
 * mine. failed: this rank cannot take part in the trace (the job's table then fails).
 * Returns -1 on every rank when the job's table failed (some rank's failed, or no
 * memory in the tree); 0 otherwise, out->failed set where this rank alone had no memory
 * to index it (the caller agrees with the others before using it). Free out with
 * pmpi_trace_names_free either way. */
int pmpi_trace_names_unify(MPI_Comm comm, const struct trace_rank *mine, int failed,
                           struct pmpi_trace_names *out);
void pmpi_trace_names_free(struct pmpi_trace_names *n);

#endif
