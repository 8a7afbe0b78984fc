/* hl_region_context.h: the contexts the OMPT tool files parallel regions under
 * (papi_region_context.h): the MPI wrapper's innermost open MPI_Pcontrol region and the
 * names of contexts (hl_region_context.c); the named region part is hl_regions.c's. */
#ifndef HL_REGION_CONTEXT_H
#define HL_REGION_CONTEXT_H

#include "papi_globals.h"
#include "papi_region_context.h"

/* The rank's innermost open MPI_Pcontrol region (-1: none or no wrapper). */
PAPI_INTERNAL int hl_mpi_context(void);

#endif
