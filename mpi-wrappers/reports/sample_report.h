/* sample_report.h: PAPI_SAMPLE's job-wide tables in the report (sample_report.c): the
 * ranks' sampled functions and MPI time per calling function, summed by name across
 * ranks in one reduction of a fixed-size table. */
#ifndef PAPI_MPI_SAMPLE_REPORT_H
#define PAPI_MPI_SAMPLE_REPORT_H

#include <stddef.h>
#include <stdio.h>

struct jw;

/* Collective, after pmpi_sample_finish: every rank's tables summed on rank 0. */
void pmpi_sample_report_reduce(void);
/* Rank 0: the report's "sampling" member, on a line of its own (nothing when
 * PAPI_SAMPLE is unset). */
void pmpi_sample_report_json(struct jw *w);
/* Rank 0: the banner's lines (top functions, MPI time by calling function). */
void pmpi_sample_report_print(FILE *out);

#endif
