/* wait_report.h: the report's wait states and POP efficiencies (wait_report.c). */
#ifndef PAPI_MPI_WAIT_REPORT_H
#define PAPI_MPI_WAIT_REPORT_H

#include <stddef.h>
#include <stdio.h>

#include "row.h"

struct tbuf;

/* Collective, after pmpi_waits_compute: every rank's part to rank 0. */
void pmpi_wait_report_gather(const struct pmpi_row *row);
/* Rank 0: the "wait_states" member (with its trailing ",\n") and its size bound. */
void pmpi_wait_report_json(struct tbuf *t);
size_t pmpi_wait_report_size(void);
/* Rank 0: two banner lines (the waits summed, the run's POP efficiencies). */
void pmpi_wait_report_print(FILE *out);
void pmpi_wait_report_free(void);

#endif
