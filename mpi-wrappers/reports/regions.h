/* regions.h: MPI_Pcontrol(2, "name") / MPI_Pcontrol(-2, "name") regions (regions.c). */
#ifndef PAPI_MPI_REGIONS_H
#define PAPI_MPI_REGIONS_H

/* level 2 opens the region called name, -2 closes it (wall time and the calling
 * thread's counters); NULL name: "unnamed" (Fortran's MPI_Pcontrol has no name). */
void pmpi_region_mark(int level, const char *name);

#endif
