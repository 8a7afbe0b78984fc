/* rank_series.h: PAPI_INTERVAL for the MPI wrapper, a time series of the rank's summed
 * counters (rank_series.c). */
#ifndef PAPI_MPI_RANK_SERIES_H
#define PAPI_MPI_RANK_SERIES_H

struct jw;
struct count_series;

/* After MPI_Init (counters chosen, t_init set): starts the sampling thread when
 * PAPI_INTERVAL asks for it; a bad value is said once (rank 0) and gives no series. */
void pmpi_series_start(void);
/* At MPI_Finalize, before the row is read: stops the thread (the lock not held). */
void pmpi_series_stop(void);
/* ", \"series\": {...}" of a row, nothing when there is no series: the samples taken
 * before tail_ns (ns since MPI_Init; pmpi_series_kept), then tail (the row's counts, read
 * at tail_ns) as the last sample, so the intervals sum to the row's counters exactly;
 * each sample with the named metrics of its interval. Takes the run's lock while the
 * sampler runs (a checkpoint or exit row): the caller must not hold it. */
void pmpi_series_json(struct jw *w, const long long *tail, long long tail_ns);

/* The samples taken so far (counts since MPI_Init at ns since MPI_Init), NULL without a
 * series: read after pmpi_series_stop by the trace (trace_export.c). */
const struct count_series *pmpi_series_samples(void);
/* How many of them the finished row carries before its own counts, read at end_ns (ns
 * since MPI_Init): a sample under a quarter step before them is folded into the last
 * interval. The trace's counter tracks take the same (trace_export.c). */
int pmpi_series_kept(long long end_ns);

#endif
