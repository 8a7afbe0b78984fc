/* cause_replay.h: the root causes of the wait states and the run's critical path,
 * computed by the ranks at MPI_Finalize in one backward replay over the job's own MPI
 * (cause_replay.c); what the report (reports/cause_report.c) writes of them. */
#ifndef PAPI_MPI_CAUSE_REPLAY_H
#define PAPI_MPI_CAUSE_REPLAY_H

#include <mpi.h>
#include <stdint.h>

#include "site_names.h"
#include "wait_rules.h"

/* The report's rows (rank 0): the largest of each kind. */
#define PMPI_CAUSE_ROWS 20
#define PMPI_PATH_ROWS  20
#define PMPI_ROW_TEXT   96

/* The waiting of one kind in one call on a set of ranks that one activity on one rank
 * caused: direct (its excess made them wait) and propagated (through waits it caused in
 * turn), ns; waited: the waiting time those waits had. */
struct pmpi_cause_row {
    double direct, prop, waited;
    int32_t cause_rank;
    uint16_t call; /* the waits' call */
    uint8_t kind, pad;
    char cause[PMPI_ROW_TEXT]; /* the activity: "extra", "compute before MPI_Send" */
    char site[PMPI_SITE_NAME]; /* where (file:line), "" unknown */
    char ranks[PMPI_ROW_TEXT]; /* the waiting ranks: "1-3,7" */
};

/* An activity on the critical path: its time there, per rank over every rank (mean,
 * max), the imbalance indicator (path - mean, at least 0) which bounds what removing it
 * saves. ns. */
struct pmpi_path_row {
    uint64_t key;
    double path, mean, max, longest;
    char activity[PMPI_ROW_TEXT];
    char site[PMPI_SITE_NAME];
    char ranks[PMPI_ROW_TEXT]; /* the ranks it ran on there */
};

struct pmpi_cause_result {
    int computed;                      /* on every rank, the costs conserved or not */
    const char *why;                   /* why not computed, or NULL */
    double seconds;                    /* the replay's time, the slowest rank's */
    double waits, explained, residual; /* ns, the job's thread-0 waits */
    double path_total, path_residual;  /* ns on the path, of clock overlap */
    double first, end, start;          /* the run's first record, last end, path's start */
    long long messages;                /* the replay's messages, the job's */
    int nrows, npath;                  /* rank 0 */
    struct pmpi_cause_row rows[PMPI_CAUSE_ROWS];
    struct pmpi_path_row path[PMPI_PATH_ROWS];
};

/* Before the finalize agreement, on every rank (w's log and clock set, its cause cells
 * made): the replay's memory taken, so that no rank stops in it for want of some; this
 * rank's first call's start and last call's end to agree on (*first: its minimum over the
 * ranks is the run's first record, agreed as a maximum of -first; *end: its maximum names
 * the rank that ended last, the critical path's end). Returns 1, or 0 without memory
 * (no rank replays then: the agreement's minimum). */
int pmpi_causes_prepare(const struct pmpi_wait_log *w, long long *first, long long *end);
/* Collective over comm (its error handler MPI_ERRORS_RETURN), every rank having agreed
 * (pmpi_causes_prepare's 1 on every rank; first and end the agreed maxima), after w's wait
 * rules ran (done: this rank's were whole; a rank that is not takes part and the result
 * is dropped). The result (static) on every rank, its rows on rank 0. */
struct pmpi_cause_result *pmpi_causes_replay(const struct pmpi_wait_log *w, MPI_Comm comm, int done,
                                             long long first, long long end);
/* The prepared memory freed where the replay did not run (after it: nothing). */
void pmpi_causes_drop(void);
/* Whether the costs add up to the waiting time (explained + residual), relative. */
int pmpi_causes_conserved(const struct pmpi_cause_result *r);

#endif
