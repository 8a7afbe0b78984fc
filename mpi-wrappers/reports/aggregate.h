/* aggregate.h: the report at MPI_Finalize (aggregate.c). */
#ifndef PAPI_MPI_AGGREGATE_H
#define PAPI_MPI_AGGREGATE_H

struct pmpi_row;
struct pmpi_wait_result;

/* Collective: min/mean/max across ranks, call sites (with their waits), banner, the
 * shared files with every rank's wait report part; waits is pmpi_waits_compute's result
 * (on rank 0 its done becomes whether every rank's waits were computed). Nonzero: the
 * report was not written. */
int pmpi_aggregate_and_report(const struct pmpi_row *row, struct pmpi_wait_result *waits);

#endif
