/* ompt_regions.h: the process's parallel regions, one entry per code address (the
 * codeptr_ra the runtime gives parallel_begin) and context (the named and MPI_Pcontrol
 * regions it was forked in: ompt_contexts.h), in a fixed table that the first instance
 * of a region fills without a lock (ompt_regions.c). Bounded by OMPT_REGIONS_MAX distinct
 * regions: past that a region's instances are counted as dropped, never misfiled. */
#ifndef PAPI_OMPT_REGIONS_H
#define PAPI_OMPT_REGIONS_H

#include <stdint.h>

#define OMPT_HIDDEN      __attribute__((visibility("hidden")))
#define OMPT_REGIONS_MAX 1024 /* a power of two (open addressing) */
#define OMPT_OBJECTS_MAX 64   /* objects (program, libraries) regions' code is kept in */
#define OMPT_OBJECT_PATH 512
/* The key of a region whose runtime gave no code address (codeptr_ra NULL). */
#define OMPT_REGION_NO_ADDRESS ((uintptr_t)1)

/* The region's index (0 .. OMPT_REGIONS_MAX-1) for a code address in context ctx
 * (ompt_contexts.h), inserting it at its first instance; -1 when the table is full (the
 * caller counts the drop), and for a code address past 2^48 (none in Linux's user
 * space: the key holds the context above it). Lock-free. */
OMPT_HIDDEN int ompt_region_index(const void *codeptr_ra, unsigned ctx);
/* The code address of region i (OMPT_REGION_NO_ADDRESS for the runtime's NULL), 0 when
 * i is unused. */
OMPT_HIDDEN uintptr_t ompt_region_address(int i);
/* The context of region i (0: none). */
OMPT_HIDDEN unsigned ompt_region_context(int i);
/* The object a region at code address lay in at its first instance (its path, alive for
 * the run) and the address as a file address of that object (sym_open_object names it
 * after a dlclose): the object's slot (0 .. OMPT_OBJECTS_MAX-1), or -1 when none was
 * kept (no object held it, the slots were full). */
OMPT_HIDDEN int ompt_region_object(uintptr_t address, const char **path, uintptr_t *file_address);

#endif
