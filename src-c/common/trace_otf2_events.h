/* trace_otf2_events.h: one rank's records as the OTF2 events of its locations
 * (trace_otf2_events.c), ids turned into the archive's by a map: what the serial archive
 * (trace_otf2.c) and the MPI wrapper's archive of a rank each (libpapi_mpi) share. Only
 * with libotf2's headers (PAPI_HAVE_OTF2). Not installed. */
#ifndef TRACE_OTF2_EVENTS_H
#define TRACE_OTF2_EVENTS_H

#ifdef PAPI_HAVE_OTF2
#include "otf2_lib.h"

/* One rank's ids in the archive. */
struct otf2_idmap {
    const uint32_t *region;   /* the rank's region i: region ref region[i] */
    const uint32_t *counter;  /* the rank's counter i: metric ref counter[i] */
    const unsigned char *dbl; /* metric ref m: 1 where its member is a double */
    const uint32_t *comm;     /* comm ref c: communicator number comm[c] */
    int ncomms;
};

/* Flush callbacks that always flush (a buffer full or a writer closed goes to its file). */
TW_HIDDEN const OTF2_FlushCallbacks *trace_otf2_flush_callbacks(void);

/* The archive's property PAPI_COMPAT::DROPPED_RECORDS: the records the recorders could
 * not keep (the JSON trace's otherData.dropped; OpenMP slices past a thread's
 * PAPI_OMPT_TRACE_SPANS among them), written by the archive's master. */
#define TRACE_OTF2_DROPPED_PROPERTY "PAPI_COMPAT::DROPPED_RECORDS"
TW_HIDDEN void trace_otf2_set_dropped(const struct otf2_lib *L, OTF2_Archive *a, uint64_t dropped);

/* The location of a rank's t-th thread (its t-th distinct label, trace_threads). */
TW_HIDDEN OTF2_LocationRef otf2_location(int rank, int thread);

/* Rank r's records in time order through an event writer per thread (tid: its nt thread
 * labels), each id mapped by m; nevents[t] += the events written on thread t (a record
 * naming an id or peer the rank does not have is left out). 0, or -1: an OTF2 call
 * failed or no memory. */
TW_HIDDEN int otf2_write_rank_events(const struct otf2_lib *L, OTF2_Archive *a,
                                     const struct trace_rank *r, const struct otf2_idmap *m,
                                     const uint32_t *tid, int nt, uint64_t *nevents);
#endif

#endif
