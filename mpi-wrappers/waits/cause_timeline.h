/* cause_timeline.h: one rank's time as the delay analysis and the critical path walk it
 * (cause_timeline.c, no MPI): its thread 0's MPI calls in log order, each with the wait
 * the rules matched for it, what it waited for and the meeting it completed; and its time
 * as segments: compute between calls (in the innermost MPI_Pcontrol region), each call's
 * wait, then the rest of the call. papi_report's load/activities.py is the same timeline
 * for a dead job's logs. */
#ifndef PAPI_MPI_CAUSE_TIMELINE_H
#define PAPI_MPI_CAUSE_TIMELINE_H

#include <stdint.h>

#include "wait_rules.h"

/* An activity: what a segment of time was, the same key on every rank for the same
 * work: compute in a region, the non-waiting part of an MPI call in a region, waiting in
 * a call (the critical path's, no region), or a rank's start after the first rank's. The
 * region is its name's hash (0: outside any). */
enum { PMPI_ACT_COMPUTE, PMPI_ACT_MPI, PMPI_ACT_WAIT, PMPI_ACT_START };
#define PMPI_ACT_REGION_BITS 46
#define PMPI_ACT_KEY(type, call, region)                                     \
    (((uint64_t)(type) << 62) | ((uint64_t)(call) << PMPI_ACT_REGION_BITS) | \
     ((uint64_t)(region) & ((1ULL << PMPI_ACT_REGION_BITS) - 1)))
#define PMPI_ACT_TYPE(key)   ((int)((key) >> 62))
#define PMPI_ACT_CALL(key)   ((int)(((key) >> PMPI_ACT_REGION_BITS) & 0xffff))
#define PMPI_ACT_REGION(key) ((key) & ((1ULL << PMPI_ACT_REGION_BITS) - 1))

struct pmpi_tl_call {
    double t0, t1, wait; /* ns, rank 0's clock; wait from t0 */
    uint64_t site;
    struct pmpi_sync sync; /* the meeting it completed (type 0: none) */
    int64_t cause_rec;     /* what its wait waited for: the record on cause_rank */
    int32_t cause_rank;    /* -1: unknown */
    int64_t rec0, rec1;    /* its records (several: the requests a Waitall completed) */
    uint16_t call;         /* PMPI_ID_... */
    uint8_t kind;          /* its wait's kind */
};

struct pmpi_tl_seg {
    double t0, t1;
    uint64_t key; /* PMPI_ACT_KEY */
    int64_t call; /* its call, or the call that ends its compute */
};

struct pmpi_timeline {
    int rank;
    long long ncalls, nsegs, nrec;
    struct pmpi_tl_call *calls;
    struct pmpi_tl_seg *segs;
    int64_t *call_of_rec; /* nrec: a record's call, -1 (another thread's, a region's) */
    int64_t *seg_of_call; /* ncalls: a call's first segment, -1 (no time) */
    int64_t *coll_rec;    /* nseq: the world collective record of each sequence number */
    int nseq;
    struct pmpi_tl_sync *syncs; /* sorted, for pmpi_tl_met */
    long long nsyncs;
    /* the regions' names by their hash (this rank's), for the report's names */
    uint64_t region_hash[PMPI_MAX_REGIONS];
    int nregions;
};
struct pmpi_tl_sync {
    struct pmpi_sync s;
    int64_t call;
};

/* The timeline's memory for w's log: 0, or -1 without it (nothing to free then). */
int pmpi_tl_alloc(struct pmpi_timeline *tl, const struct pmpi_wait_log *w);
/* The timeline of w (its rules run, cause cells filled) in tl's memory, names[] its
 * regions (nregions of them: the log's region indices). */
void pmpi_tl_build(struct pmpi_timeline *tl, const struct pmpi_wait_log *w,
                   const char *const *names, int nregions);
/* Whether record e is one of thread 0's calls on the timeline. */
int pmpi_tl_is_call(const struct pmpi_event *e);
void pmpi_tl_free(struct pmpi_timeline *tl);
/* A region name's hash as the keys hold it (never 0). */
uint64_t pmpi_tl_region_hash(const char *name);
/* A message's other rank (meeting s of this rank's, of w's log), or -1. */
int pmpi_tl_partner(const struct pmpi_wait_log *w, const struct pmpi_sync *s);
/* The call that completed meeting s on this rank (its meeting: pmpi_tl_call.sync), or
 * -1. */
int64_t pmpi_tl_met(const struct pmpi_timeline *tl, const struct pmpi_sync *s);
/* The call of a cause record (a record index, or PMPI_CAUSE_SEQ), or -1. */
int64_t pmpi_tl_cause_call(const struct pmpi_timeline *tl, int64_t rec);
/* The index of the first segment that may overlap time s (segments' starts are in order
 * but for a few us of overlap between a rank's records). */
long long pmpi_tl_seg_at(const struct pmpi_timeline *tl, double s);
/* The last segment starting before t, t within call ci (the critical path's step onto a
 * rank): found from the call, by time where the call has no time. */
long long pmpi_tl_seg_before(const struct pmpi_timeline *tl, int64_t ci, double t);

#endif
