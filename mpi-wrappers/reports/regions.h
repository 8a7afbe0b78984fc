/* regions.h: MPI_Pcontrol(1, "name") / MPI_Pcontrol(-1, "name") regions (regions.c). */
#ifndef PAPI_MPI_REGIONS_H
#define PAPI_MPI_REGIONS_H

/* level 2 opens the region called name, -2 closes it (wall time and the calling
 * thread's counters); a NULL name marks nothing (lifecycle.c passes a name it read). */
void pmpi_region_mark(int level, const char *name);

#endif
