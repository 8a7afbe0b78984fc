/* aggregate.h: the report at MPI_Finalize (aggregate.c). */
#ifndef PAPI_MPI_AGGREGATE_H
#define PAPI_MPI_AGGREGATE_H

struct pmpi_row;
struct pmpi_wait_result;
struct pmpi_wait_parts;

/* Collective: min/mean/max across ranks, call sites (with their waits), banner, the
 * shared files; waits is pmpi_waits_compute's result, wparts pmpi_wait_report_gather's.
 * Nonzero: the report was not written. */
int pmpi_aggregate_and_report(const struct pmpi_row *row, const struct pmpi_wait_result *waits,
                              const struct pmpi_wait_parts *wparts);

#endif
