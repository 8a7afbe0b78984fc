/* row.h: one rank's row (times, counters, per-call statistics, regions) and its JSON
 * and CSV text (row.c). */
#ifndef PAPI_MPI_ROW_H
#define PAPI_MPI_ROW_H

#include "region_state.h"
#include "pmpi_identity.h"
#include "state.h"

struct tbuf;

/* Everything one rank knows at the end: what its row in the report holds. */
struct pmpi_row {
    int rank, nranks, finished;
    const char *exit_reason;
    int counters_read;        /* 0: counts not read (the row was made in a signal handler) */
    const char *counter_note; /* what limits the counts, or NULL */
    double wall_s, mpi_s;     /* mpi_s: the union of the threads' time in MPI (<= wall_s) */
    double mpi_thread_sum_s;  /* the threads' times in MPI added up */
    double ns_per_tick;
    int traffic; /* the JSON carries sizes and partners (traffic.c) */
    int gpu;     /* the JSON carries the GPU activity (gpu_row.c): made with the lock */
    long long counts[PMPI_MAX_EVENTS];
    long long series_end_ns;         /* when counts were read, in the time series' clock */
    double metric[PMPI_MAX_METRICS]; /* named metrics of the counts over wall_s */
    int metric_ok[PMPI_MAX_METRICS]; /* 0: not computable (why: metric_why) */
    char metric_why[PMPI_MAX_METRICS][160];
    double metric_fraction[PMPI_MAX_METRICS]; /* least running fraction of its events */
    long long calls[PMPI_NCALLS], ns[PMPI_NCALLS], sent[PMPI_NCALLS], recvd[PMPI_NCALLS];
    int nthreads;
    int nregions;
    struct pmpi_region regions[PMPI_MAX_REGIONS]; /* a copy taken under the lock */
};

/* How a row is made: at MPI_Finalize and by the checkpoint thread (lock taken), on an
 * exit path (MPI_Abort, exit(): the lock is waited for at most 1 s, as exit() may run
 * in a program's signal handler that interrupted its holder), in a signal handler (no
 * lock, no counters). */
enum pmpi_row_mode { PMPI_ROW_NORMAL, PMPI_ROW_EXIT, PMPI_ROW_SIGNAL };
/* MPI_Finalize, first: the rank's counts read, and the time they stand for set as the
 * run's end (pmpi_end_set) and returned: the finished row's counts and wall time, and
 * its series' last sample, end there, before the wrapper's own work. */
struct pmpi_run_end pmpi_row_read_final(void);
/* end_ns/end_tick: the end of the row's time (0: now). */
void pmpi_collect_row(struct pmpi_row *row, int finished, const char *reason, int mode,
                      long long end_ns, long long end_tick);
void pmpi_row_json(const struct pmpi_row *row, struct tbuf *t);
/* papi_mpi_summary.csv (a line per rank) and papi_mpi_ranks.csv (a line per call a
 * rank made). */
void pmpi_summary_csv_header(struct tbuf *t);
void pmpi_row_summary_csv(const struct pmpi_row *row, struct tbuf *t);
void pmpi_calls_csv_header(struct tbuf *t);
void pmpi_row_calls_csv(const struct pmpi_row *row, struct tbuf *t);

#endif
