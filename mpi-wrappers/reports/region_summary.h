/* region_summary.h: the MPI_Pcontrol regions of every rank in the banner
 * (region_summary.c). */
#ifndef PAPI_MPI_REGION_SUMMARY_H
#define PAPI_MPI_REGION_SUMMARY_H

#include <stdio.h>

#include "row.h"

/* At MPI_Finalize, before the finalize agreement round (finalize_agreement.h): whether
 * any rank has a region travels in it, so that a job without one reduces nothing.
 * Returns its handle, for pmpi_region_summary. */
int pmpi_region_summary_prepare(const struct pmpi_row *row);
/* Collective (every rank, at MPI_Finalize): the union of the ranks' region names (the
 * first PMPI_MAX_REGIONS, rank order) and per region the ranks that entered it, the
 * entries summed, and min/mean/max of the wall time with the ranks holding them, in one
 * reduction. Rank 0 prints it to fp; the other ranks print nothing. agreed:
 * pmpi_region_summary_prepare's handle, its round run: no communication when it says no
 * rank has a region (-1, unprepared: the reduction always). */
void pmpi_region_summary(const struct pmpi_row *row, int agreed, FILE *fp);

#endif
