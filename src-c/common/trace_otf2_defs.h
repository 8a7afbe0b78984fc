/* trace_otf2_defs.h: an OTF2 archive's global definitions from the job's tables
 * (trace_otf2_defs.c): the clock, the system tree (a node per host), a location group per
 * rank and a location per thread of it, the regions, the communicators over
 * MPI_COMM_WORLD's ranks and a metric per counter. Shared by the serial archive
 * (trace_otf2.c) and the MPI wrapper's (written by rank 0 of the job from the unified
 * tables). Only with libotf2's headers (PAPI_HAVE_OTF2). Not installed. */
#ifndef TRACE_OTF2_DEFS_H
#define TRACE_OTF2_DEFS_H

#ifdef PAPI_HAVE_OTF2
#include "otf2_lib.h"

/* One rank: its process and its threads' locations. */
struct trace_track;

struct otf2_rank_def {
    int rank;
    long pid;
    const char *host; /* NULL: unknown */
    int nt;
    const uint32_t *tid;             /* the threads' labels (OS ids) */
    const uint64_t *nevents;         /* the events written on each */
    const struct trace_track *track; /* other processes' GPU tracks (trace_records.h) */
    int ntracks;
};

struct otf2_defs {
    const char *const *region; /* region ref i: region[i] */
    int nregions;
    const char *const *counter; /* metric ref i: counter[i], a double member where dbl[i] */
    const unsigned char *dbl;
    int ncounters;
    const uint32_t *comm; /* comm ref c: communicator number comm[c] (0: MPI_COMM_WORLD) */
    int ncomms;
    const struct otf2_rank_def *ranks;
    int nranks;
    int maxrank;
    uint64_t first, last; /* the records' time span (ns) */
};

/* Writes d through a's global definition writer: 0, or -1 (no writer, no memory). */
TW_HIDDEN int otf2_write_global_defs(const struct otf2_lib *L, OTF2_Archive *a,
                                     const struct otf2_defs *d);
#endif

#endif
