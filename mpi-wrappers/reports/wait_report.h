/* wait_report.h: the report's wait states and POP efficiencies (wait_report.c). */
#ifndef PAPI_MPI_WAIT_REPORT_H
#define PAPI_MPI_WAIT_REPORT_H

#include <stddef.h>
#include <stdio.h>

#include "row.h"

struct jw;
struct tbuf;
struct pmpi_wait_result;
struct pmpi_wait_fold; /* every rank's waits, folded on rank 0 */

/* After pmpi_waits_compute, on every rank: this rank's part of w (static: valid until
 * the next call), handed to rank 0 in the report files' pull (report_files.h), of
 * pmpi_wait_report_part_size() bytes; NULL when no rank has waits. */
const void *pmpi_wait_report_part(const struct pmpi_row *row, const struct pmpi_wait_result *w);
size_t pmpi_wait_report_part_size(void);
/* Rank 0 (NULL elsewhere, and where no rank has waits or there is no memory): the fold
 * the pull hands every rank's part to (pmpi_wait_report_take), in rank order. */
struct pmpi_wait_fold *pmpi_wait_report_fold(const struct pmpi_wait_result *w);
/* The pull's take (report_files.h): rank's part (NULL: it sent none) into the fold arg. */
void pmpi_wait_report_take(void *arg, int rank, const void *part);
/* Rank 0, after the pull: the fold when every rank's part came and says its waits were
 * computed, and its text had memory (keep it for pmpi_wait_report_free); otherwise the
 * fold freed, w->done 0 (no rank's waits are reported: the parts say it, no agreement of
 * its own) and NULL. */
struct pmpi_wait_fold *pmpi_wait_report_settle(struct pmpi_wait_fold *f,
                                               struct pmpi_wait_result *w);
/* Rank 0: the "wait_states" member (after the report's rows: the parts come with
 * them), written by w into t (the spools of the ranks' parts are copied into it); r: this
 * rank's result (the log's capacity, and why there are no waits). */
void pmpi_wait_report_json(struct jw *w, struct tbuf *t, const struct pmpi_wait_fold *f,
                           const struct pmpi_wait_result *r);
/* Rank 0: two banner lines (the waits summed, the run's POP efficiencies). */
void pmpi_wait_report_print(FILE *out, const struct pmpi_wait_fold *f);
void pmpi_wait_report_free(struct pmpi_wait_fold *f);

#endif
