/* ompt_contexts.h: the contexts a parallel region is filed under: the named region of the
 * region API and the MPI_Pcontrol region open on the encountering thread at the fork
 * (libpapi tells them: papi_region_context.h). A fixed table filled by compare-and-swap
 * (ompt_contexts.c), like the region table; context 0 is "none", never stored. */
#ifndef PAPI_OMPT_CONTEXTS_H
#define PAPI_OMPT_CONTEXTS_H

#include "ompt_regions.h"

#define OMPT_CONTEXTS_MAX 256 /* a power of two (open addressing) */
/* The context of forks whose (named, MPI) pair found no room: said, never misfiled. */
#define OMPT_CONTEXT_DROPPED 0xffffu

/* The context of (named region id, MPI_Pcontrol region) at a fork: 0 for (0, -1),
 * 1 .. OMPT_CONTEXTS_MAX for a pair, OMPT_CONTEXT_DROPPED past the table. Lock-free. */
OMPT_HIDDEN unsigned ompt_context_index(long named, int mpi);
/* Context c's pair; 0 when c is 0, dropped or unused. */
OMPT_HIDDEN int ompt_context_of(unsigned c, long *named, int *mpi);

#endif
