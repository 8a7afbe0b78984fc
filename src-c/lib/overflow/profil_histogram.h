/* profil_histogram.h: the state of PAPI_profil and PAPI_sprofil's histograms (es->profile:
 * one malloc block, the event set table frees it at shutdown) and the calls that fill them
 * (profil_histogram.c). */
#ifndef PROFIL_HISTOGRAM_H
#define PROFIL_HISTOGRAM_H

#include "overflow_internal.h"

#define PROF_FLAGS                                                                            \
    (PAPI_PROFIL_RANDOM | PAPI_PROFIL_WEIGHTED | PAPI_PROFIL_COMPRESS | PAPI_PROFIL_BUCKETS | \
     PAPI_PROFIL_FORCE_SW)
#define SCALE_ONE_BUCKET 2u
#define SCALE_MAX        0x20000u

struct prof_event {
    int pos;
    int flags;
    uint64_t lost, lost_told; /* samples the kernel dropped; how many PAPI_stop told */
    int nregions;
    const PAPI_sprofil_t *regions; /* the caller's array, or &own */
    PAPI_sprofil_t own;            /* PAPI_profil's single region */
};

struct prof_state {
    int n;
    uint64_t rng; /* xorshift64 state for RANDOM and COMPRESS */
    struct prof_event ev[OVF_MAX_EVENTS];
};

/* Accounts one overflow of position pos at pc (signal context). */
PAPI_INTERNAL void profil_sample(struct eventset *es, int pos, uintptr_t pc, long long weight);
/* The receiver of a ring's samples (cmp_sample_fn; arg is the event set): each address
 * goes to profil_sample as a signal's would, the lost ones are counted per event. */
PAPI_INTERNAL void profil_ring_samples(void *arg, int native, const uint64_t *ips, int n,
                                       uint64_t lost);
/* PAPI_stop: says how many samples the kernel dropped since PAPI_start, if any. */
PAPI_INTERNAL void profil_report_lost(struct eventset *es);

#endif
