/* region_summary.h: the MPI_Pcontrol regions of every rank in the banner
 * (region_summary.c). */
#ifndef PAPI_MPI_REGION_SUMMARY_H
#define PAPI_MPI_REGION_SUMMARY_H

#include <stdio.h>

#include "row.h"

/* Collective (every rank, at MPI_Finalize): the union of the ranks' region names (the
 * first PMPI_MAX_REGIONS, rank order), then per region the ranks that entered it, the
 * entries summed, and min/mean/max of the wall time with the ranks holding them. Rank 0
 * prints it to fp; the other ranks print nothing. Nothing when no rank has a region. */
void pmpi_region_summary(const struct pmpi_row *row, FILE *fp);

#endif
