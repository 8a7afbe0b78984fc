/* aggregate.h: the report at MPI_Finalize (aggregate.c). */
#ifndef PAPI_MPI_AGGREGATE_H
#define PAPI_MPI_AGGREGATE_H

struct pmpi_row;
struct pmpi_wait_result;
struct pmpi_pull_agreed;

/* Collective: min/mean/max across ranks, call sites (with their waits), banner, the
 * shared files with every rank's wait report part; waits is pmpi_waits_compute's result
 * (on rank 0 its done becomes whether every rank's waits were computed). files_agreed and
 * regions_agreed: the handles pmpi_report_files_prepare and pmpi_region_summary_prepare
 * returned, their round run with the wait states'. Nonzero: the report was not written. */
int pmpi_aggregate_and_report(const struct pmpi_row *row, struct pmpi_wait_result *waits,
                              const struct pmpi_pull_agreed *files_agreed, int regions_agreed);

#endif
