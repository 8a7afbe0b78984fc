/* papi_region_context.h: the regions open on a thread, for the project's OMPT tool
 * (src-c/ompt, libpapi_ompt.so), which asks at each parallel region's fork under which
 * named region (PAPI_hl_region_begin) and which MPI_Pcontrol region (the MPI wrapper)
 * the encountering thread forks. The tool links libpapi, so these are always there; they
 * answer "none" when neither the region API nor the wrapper ran. Not installed. */
#ifndef PAPI_REGION_CONTEXT_H
#define PAPI_REGION_CONTEXT_H

#include "papi_api_begin.h"

/* Kinds of region a context names. */
#define PAPI_CONTEXT_NAMED 0 /* a region of the region API, on one thread */
#define PAPI_CONTEXT_MPI   1 /* an MPI_Pcontrol region of the rank */

/* The calling thread's innermost open named region (its id, > 0, one per thread and
 * region name, the id the region file's region_totals entry has) or 0; and the rank's
 * innermost open MPI_Pcontrol region (its index in the MPI report) or -1. Lock-free
 * (O(1)) unless PAPI_HL_THREAD_MULTIPLE=0 shares one record among the threads. */
void papi_region_context(long *named, int *mpi);

/* The name of a context (kind, id) into buf (len > 0): 0, or -1 when unknown. Cold: for
 * reports. */
int papi_region_context_name(int kind, long id, char *buf, unsigned long len);

/* The MPI wrapper: the rank's innermost open MPI_Pcontrol region is now slot (-1: none),
 * named name (copied; NULL keeps the slot's earlier name). */
void papi_mpi_region_context(int slot, const char *name);

#include "papi_api_end.h"

#endif
