/* hl_all_threads.h: the region API's all-thread totals. A region begun on one thread also
 * gets the sum over every thread of the process during it (hl_all_threads.c). Not
 * installed. */
#ifndef HL_ALL_THREADS_H
#define HL_ALL_THREADS_H

#include "hl_state.h"

/* The counts of the region events summed over every thread of the process (live or
 * ended) since the process counters were set up, into sum[g_hlr.nevents]. Sets the
 * counters up at the first call. PAPI_OK, or an error (PAPI_HL_ALL_THREADS=0, no
 * permission to attach): the region then has no all-thread values. */
PAPI_INTERNAL int hla_snapshot(long long *sum);
#define HLA_MAX_THREADS 1024
/* For the PAPI_INTERVAL sampler: each process counter's counts into
 * v[k * g_hlr.nevents + i], their number into *n and their threads into tid[k]; an error
 * once the counters of that library generation are gone. */
PAPI_INTERNAL int hla_read_each(unsigned generation, long long *v, int *n, long *tid);
/* Called once the process counters of a library generation are set up (nrows rows: the
 * PAPI_INTERVAL sampler starts then). Installed by hl_regions.c, the layer above, before
 * the first region; called with no lock of this file held. */
PAPI_INTERNAL void hla_on_ready(void (*hook)(unsigned generation, int nrows));

/* At a region's begin (before its own counters are read; hla_region_begun after them)
 * and end (after): the open instance's all-thread values and the region's all-thread
 * totals. */
PAPI_INTERNAL void hla_region_begin(struct hlr_thread *t, struct hlr_region *g);
PAPI_INTERNAL void hla_region_begun(struct hlr_thread *t, struct hlr_region *g);
/* A thread's region sets were closed (PAPI_hl_stop, its exit): the offset of a process
 * of one thread is taken again. */
PAPI_INTERNAL void hla_sets_closed(void);
PAPI_INTERNAL void hla_region_end(struct hlr_thread *t, struct hlr_region *g);
/* One thread's member of "all_threads": "instances" (id -> events) and "regions"
 * (name -> events), the instances and regions that have all-thread values. */
struct jw;
PAPI_INTERNAL void hla_write_thread(struct jw *w, struct hlr_thread *t);

#endif
