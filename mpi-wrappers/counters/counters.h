/* counters.h: the rank's PAPI counters (one event set per thread, counters.c). The
 * event names and the note go to run_events.h, where the row and report read
 * them. */
#ifndef PAPI_MPI_COUNTERS_H
#define PAPI_MPI_COUNTERS_H

/* At MPI_Init: choose the events (PAPI_MPI_EVENTS or the defaults). */
void pmpi_counters_init(void);
/* A thread's slot (record.c's callbacks): its set starts / its counts are retired. */
void pmpi_counters_thread_start(int slot);
void pmpi_counters_thread_exit(int slot);
/* Sums all threads of this rank (the caller holds pmpi_state_lock); returns a note when
 * the counts are incomplete. */
const char *pmpi_counters_read_rank(long long *sum);
/* The same with the time the counts stand for (*t_ns, CLOCK_MONOTONIC: the middle of a
 * read that no preemption stretched, retried when one did), so that an interval's counts
 * and its time agree (the time series, the row's counts at MPI_Finalize). */
const char *pmpi_counters_read_rank_at(long long *sum, long long *t_ns);
/* The calling thread's own counts (the caller holds pmpi_state_lock); 0 or -1. */
int pmpi_counters_read_self(long long *out);
/* The rank's named metrics (PAPI_MPI_METRICS) from its summed counts over wall seconds:
 * value and ok per metric, why (cut to whylen) where one has none. */
void pmpi_counters_metrics(const long long *counts, double wall_s, double *value, int *ok,
                           char (*why)[160], size_t whylen);
/* At MPI_Finalize: the calling thread's set stops. */
void pmpi_counters_shutdown(void);

#endif
