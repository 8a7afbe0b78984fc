/* region_energy.h: each MPI_Pcontrol region's energy summed over the job, a socket (a
 * node's device) counted once (region_energy.c). */
#ifndef PMPI_REGION_ENERGY_H
#define PMPI_REGION_ENERGY_H

#include <stdio.h>

#include "row.h"

struct jw;

/* The rule the job's figure follows, as the report names it. */
#define PMPI_REGION_ENERGY_RULE                                                             \
    "each rank's value is its socket's energy (a GPU's or other node device's: its "        \
    "node's) while the rank was in the region, shared by the ranks on that socket (node); " \
    "the job's sums each rank's value over the k ranks of its socket (node) that entered "  \
    "the region, so each socket (device) is counted once"

/* 1 when an event of the job counts energy (the same on every rank): then the regions'
 * names are needed on every rank (pmpi_region_energy_reduce). */
int pmpi_region_energy_any(void);
/* Collective (every rank, at MPI_Finalize): per region of names (the union of the ranks'
 * region names, n of them), each energy event's joules summed over the job by the rule
 * above. Rank 0 keeps the result for pmpi_region_energy_head_json and prints it to fp. Nothing
 * (and no communication) when no event counts energy. */
void pmpi_region_energy_reduce(const struct pmpi_row *row, const char (*names)[PMPI_NAME_LEN],
                               int n, FILE *fp);
/* Rank 0: the report's "region_energy" member (",\n\"region_energy\": {...}"), or
 * nothing. */
void pmpi_region_energy_head_json(struct jw *w);

#endif
