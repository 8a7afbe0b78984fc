/* aggregate.h: the report at MPI_Finalize (aggregate.c). */
#ifndef PAPI_MPI_AGGREGATE_H
#define PAPI_MPI_AGGREGATE_H

struct pmpi_row;

/* Collective: min/mean/max across ranks, call sites, banner, the shared files.
 * Nonzero: the report was not written. */
int pmpi_aggregate_and_report(const struct pmpi_row *row);

#endif
