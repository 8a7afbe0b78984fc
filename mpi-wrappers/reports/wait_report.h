/* wait_report.h: the report's wait states and POP efficiencies (wait_report.c). */
#ifndef PAPI_MPI_WAIT_REPORT_H
#define PAPI_MPI_WAIT_REPORT_H

#include <stddef.h>
#include <stdio.h>

#include "row.h"

struct tbuf;
struct pmpi_wait_result;
struct pmpi_wait_parts; /* every rank's waits, on rank 0 */

/* Before pmpi_waits_compute, on every rank: rank 0's table for the parts, whether it
 * has one agreed with the wait states' (finalize_agreement.h). */
void pmpi_wait_report_prepare(void);
/* Collective, after pmpi_waits_compute (and pmpi_wait_report_prepare): every rank's
 * part of w to rank 0, which gets them back (heap: pmpi_wait_report_free); NULL on the
 * other ranks, and on all when a rank has no waits. */
struct pmpi_wait_parts *pmpi_wait_report_gather(const struct pmpi_row *row,
                                                const struct pmpi_wait_result *w);
/* Rank 0: the "wait_states" member (with its trailing ",\n") and its size bound; w:
 * this rank's result (the log's capacity, and why there are no waits). */
void pmpi_wait_report_json(struct tbuf *t, const struct pmpi_wait_parts *parts,
                           const struct pmpi_wait_result *w);
size_t pmpi_wait_report_size(const struct pmpi_wait_parts *parts);
/* Rank 0: two banner lines (the waits summed, the run's POP efficiencies). */
void pmpi_wait_report_print(FILE *out, const struct pmpi_wait_parts *parts);
void pmpi_wait_report_free(struct pmpi_wait_parts *parts);

#endif
