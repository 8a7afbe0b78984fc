/* profil.c: PAPI_profil and PAPI_sprofil, PC histograms built on overflow (the entry
 * points here; the histograms and their filling in profil_histogram.c).
 *
 * Each profiled event is an overflow record marked "profiled" (overflow.c). On a hardware
 * event the kernel writes each sample's address into a ring the component shares with
 * the process (set_sampling: no signal per sample), and the component hands them to
 * profil_ring_samples in batches, when a quarter of the ring is written and at
 * PAPI_read and PAPI_stop; otherwise (PAPI_PROFIL_FORCE_SW, software events, derived
 * presets, PAPI_PROFIL_RING=0, a kernel without the ring) the signal handler calls
 * profil_sample with the interrupted PC. Both routes account a sample the same way, in
 * the order the samples were taken, so they build the same histogram. Samples the kernel
 * dropped (ring full) are counted and told at PAPI_stop (PAPI_strerror_detail). The bucket of an address in a
 * region is ((pc - pr_off) * pr_scale) >> 17, so scale 0x20000 gives one address per
 * bucket, 0x10000 two, 0x8000 four, 0x4000 eight. pr_scale 2 is the catch-all region:
 * one bucket (at pr_base) that takes every sample no other region took, which is also
 * what PAPI_profil with scale 2 means ("all addresses in one bucket"). Scales 0 and 1
 * are rejected with PAPI_EINVAL. es->profile is one malloc block (the event set table
 * frees it at shutdown); PAPI_profil's own region lives inside it. The regions of
 * PAPI_sprofil stay the caller's, as in PAPI: they must outlive the profiling. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "call_guard.h"
#include "overflow.h"
#include "profil_histogram.h"

static int check_regions(const PAPI_sprofil_t *prof, int profcnt)
{
    if (!prof || profcnt < 1)
        return papi_error(PAPI_EINVAL, "no profiling regions (prof %s, profcnt %d)",
                          prof ? "set" : "NULL", profcnt);
    for (int r = 0; r < profcnt; r++) {
        if (!prof[r].pr_base)
            return papi_error(PAPI_EINVAL, "region %d has no buffer", r);
        if (prof[r].pr_size == 0)
            return papi_error(PAPI_EINVAL, "region %d has a zero-size buffer", r);
        if (prof[r].pr_scale < SCALE_ONE_BUCKET || prof[r].pr_scale > SCALE_MAX)
            return papi_error(PAPI_EINVAL,
                              "region %d: scale 0x%x is outside 0x2..0x20000 (0 "
                              "and 1 are undefined)",
                              r, prof[r].pr_scale);
    }
    return PAPI_OK;
}

static int check_flags(int flags)
{
    if (flags & ~PROF_FLAGS)
        return papi_error(PAPI_EINVAL, "unsupported profiling flags 0x%x",
                          (unsigned)(flags & ~PROF_FLAGS));
    int b = flags & PAPI_PROFIL_BUCKETS;
    if (b & (b - 1))
        return papi_error(PAPI_EINVAL, "more than one bucket size in flags 0x%x", (unsigned)flags);
    return PAPI_OK;
}

static void drop_event(struct eventset *es, int i)
{
    struct prof_state *p = es->profile;
    for (int j = i; j < p->n - 1; j++) {
        p->ev[j] = p->ev[j + 1];
        if (p->ev[j].regions == &p->ev[j + 1].own)
            p->ev[j].regions = &p->ev[j].own;
    }
    p->n--;
    if (p->n == 0) {
        free(p);
        es->profile = NULL;
        es->state &= ~PAPI_PROFILING;
    }
}

/* own: PAPI_profil's single region, copied into the state; else the caller's array. */
/* Threshold 0: event's profiling (record i, -1 when there is none) off. */
static int profile_off(struct eventset *es, int EventCode, int i)
{
    if (i < 0)
        return papi_error(PAPI_EINVAL, "event 0x%x of EventSet %d is not profiled",
                          (unsigned)EventCode, es->handle);
    int ret = ovf_configure(es, EventCode, 0, 0, NULL, 1);
    if (ret != PAPI_OK)
        return ret;
    drop_event(es, i);
    return PAPI_OK;
}

/* The buffers of the event at pos: the user's regions, or a copy of the one PAPI_profil
 * describes (own). */
static void record_event(struct prof_event *pe, int pos, int flags, const PAPI_sprofil_t *prof,
                         int profcnt, int own)
{
    pe->pos = pos;
    pe->flags = flags;
    if (own) {
        pe->own = prof[0];
        pe->regions = &pe->own;
        pe->nregions = 1;
    } else {
        pe->regions = prof;
        pe->nregions = profcnt;
    }
}

static int profile_event(int EventSet, const PAPI_sprofil_t *prof, int profcnt, int EventCode,
                         int threshold, int flags, int own)
{
    struct eventset *es;
    int ret = es_get(EventSet, &es);
    if (ret != PAPI_OK)
        return ret;
    if (es->state & PAPI_RUNNING)
        return papi_error(PAPI_EISRUN, "EventSet %d is running: stop it before profiling",
                          EventSet);
    if (threshold < 0)
        return papi_error(PAPI_EINVAL, "threshold %d is negative", threshold);
    int pos = es_entry_index(es, EventCode);
    if (pos < 0)
        return papi_error(PAPI_ENOEVNT, "event 0x%x is not in EventSet %d", (unsigned)EventCode,
                          EventSet);
    struct prof_state *p = es->profile;
    int i = -1;
    for (int j = 0; p && j < p->n; j++)
        if (p->ev[j].pos == pos)
            i = j;
    if (threshold == 0)
        return profile_off(es, EventCode, i);
    if ((ret = check_flags(flags)) != PAPI_OK || (ret = check_regions(prof, profcnt)) != PAPI_OK)
        return ret;
    int fresh = 0;
    if (!p) {
        p = calloc(1, sizeof *p);
        if (!p)
            return papi_error(PAPI_ENOMEM, "no memory for the profiling state");
        p->rng = 0x9E3779B97F4A7C15ULL; /* fixed: the same samples make the same histogram */
        es->profile = p;
        fresh = 1;
    }
    if (i < 0 && p->n >= OVF_MAX_EVENTS) /* cannot happen: positions are < 64 */
        return papi_error(PAPI_ENOMEM, "too many profiled events");
    ret = ovf_configure(es, EventCode, threshold,
                        (flags & PAPI_PROFIL_FORCE_SW) ? PAPI_OVERFLOW_FORCE_SW : 0, NULL, 1);
    if (ret != PAPI_OK) {
        if (fresh) {
            free(p);
            es->profile = NULL;
        }
        return ret;
    }
    record_event(&p->ev[i < 0 ? p->n++ : i], pos, flags, prof, profcnt, own);
    es->state |= PAPI_PROFILING;
    return PAPI_OK;
}

int PAPI_sprofil(PAPI_sprofil_t *prof, int profcnt, int EventSet, int EventCode, int threshold,
                 int flags)
{
    PAPI_CALL_GUARD();
    return profile_event(EventSet, prof, profcnt, EventCode, threshold, flags, 0);
}

int PAPI_profil(void *buf, unsigned bufsiz, vptr_t offset, unsigned scale, int EventSet,
                int EventCode, int threshold, int flags)
{
    PAPI_CALL_GUARD();
    PAPI_sprofil_t region = {
        .pr_base = buf, .pr_size = bufsiz, .pr_off = offset, .pr_scale = scale};
    return profile_event(EventSet, &region, 1, EventCode, threshold, flags, 1);
}
