/* rank_series.h: PAPI_INTERVAL for the MPI wrapper, a time series of the rank's summed
 * counters (rank_series.c). */
#ifndef PAPI_MPI_RANK_SERIES_H
#define PAPI_MPI_RANK_SERIES_H

struct tbuf;

/* After MPI_Init (counters chosen, t_init set): starts the sampling thread when
 * PAPI_INTERVAL asks for it; a bad value is said once (rank 0) and gives no series. */
void pmpi_series_start(void);
/* At MPI_Finalize, before the row is read: stops the thread (the lock not held). */
void pmpi_series_stop(void);
/* The last sample: the row's own counts at its end (the caller holds pmpi_run.lock), so
 * the intervals sum to the row's counters exactly. */
void pmpi_series_last(const long long *counts, long long end_ns);
/* ", \"series\": {...}" of the row, nothing when there is no series. */
void pmpi_series_json(struct tbuf *t);

#endif
