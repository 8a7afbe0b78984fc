/* pmpi_identity.h: who this rank is and where its run writes, fixed at MPI_Init
 * (lifecycle.c fills it through pmpi_identity_init, once, before recording starts);
 * every other file reads it through pmpi_id(), const. Beside it the two things that
 * are not fixed then: the output directory's descriptor (a rank other than 0 opens it
 * at its first row, maybe from a signal handler) and the run's end (MPI_Finalize). */
#ifndef PAPI_MPI_PMPI_IDENTITY_H
#define PAPI_MPI_PMPI_IDENTITY_H

#include <limits.h>

#include "run_identity.h" /* RUN_ID_LEN: the run id shared with papi_run */

struct pmpi_identity {
    int rank, nranks;
    long long t_init;        /* CLOCK_MONOTONIC ns at MPI_Init */
    long long tick_init;     /* pmpi_ticks() at the same moment */
    char outdir[PATH_MAX];   /* the output directory as given (PAPI_MPI_OUTPUT_DIR) */
    char run_id[RUN_ID_LEN]; /* the same on every rank of a run: names it in every file */
    char start_utc[32];      /* rank 0's MPI_Init, ISO 8601 UTC (rank 0's: the same on all) */
    char host[256];          /* this rank's host name */
    char command[4096];      /* the program's arguments, each ending in '\0' (at most this much) */
    int command_len;         /* bytes of command used; 0: /proc/self/cmdline unreadable */
    int top;                 /* PAPI_MPI_TOP: calls and call sites the banner shows */
};

/* The rank's identity, read-only. */
const struct pmpi_identity *pmpi_id(void);
/* MPI_Init only (lifecycle.c): the identity to fill. */
struct pmpi_identity *pmpi_identity_init(void);

/* The output directory's descriptor, or -1 (rank 0: opened at MPI_Init; others: at
 * their first row). Read with acquire; set once: the first fd published wins and is
 * returned (the loser closes its own). Async-signal-safe. */
int pmpi_outdir_fd(void);
int pmpi_outdir_fd_publish(int fd);

/* The run's end, set once at MPI_Finalize by the row's final read (row.c). */
struct pmpi_run_end {
    long long t_final;    /* CLOCK_MONOTONIC ns */
    long long tick_final; /* pmpi_ticks() at the same moment */
};
const struct pmpi_run_end *pmpi_end(void);
void pmpi_end_set(long long t_final, long long tick_final);

#endif
