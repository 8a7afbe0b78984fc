/* profil_histogram.c: the histograms of PAPI_profil and PAPI_sprofil (profil.c, the
 * entry points, builds them): each sample's bucket found and counted as the event's flags
 * say, from the signal handler (profil_sample) or from a component's ring
 * (profil_ring_samples), and the samples the kernel dropped told at PAPI_stop. A leaf of
 * overflow/: the handler (overflow_signal.c) reaches it without reaching the entry points,
 * which configure overflow (overflow.c) over that handler. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profil_histogram.h"
#include "str_append.h"

static uint64_t next_random(struct prof_state *p)
{
    uint64_t x = p->rng;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    p->rng = x;
    return x;
}

static unsigned bucket_bytes(int flags)
{
    if (flags & PAPI_PROFIL_BUCKET_64)
        return 8;
    if (flags & PAPI_PROFIL_BUCKET_32)
        return 4;
    return 2;
}

static uint64_t bucket_max(unsigned bytes)
{
    return bytes == 8 ? UINT64_MAX : bytes == 4 ? UINT32_MAX : UINT16_MAX;
}

static uint64_t bucket_get(const void *base, size_t idx, unsigned bytes)
{
    if (bytes == 8)
        return ((const uint64_t *)base)[idx];
    if (bytes == 4)
        return ((const uint32_t *)base)[idx];
    return ((const uint16_t *)base)[idx];
}

static void bucket_set(void *base, size_t idx, unsigned bytes, uint64_t v)
{
    if (bytes == 8)
        ((uint64_t *)base)[idx] = v;
    else if (bytes == 4)
        ((uint32_t *)base)[idx] = (uint32_t)v;
    else
        ((uint16_t *)base)[idx] = (uint16_t)v;
}

/* Find the region and bucket of pc; 0 when no region takes it. Signal context. */
static int locate(const struct prof_event *pe, uintptr_t pc, unsigned bytes, void **base,
                  size_t *idx)
{
    for (int r = 0; r < pe->nregions; r++) {
        const PAPI_sprofil_t *reg = &pe->regions[r];
        uintptr_t off = (uintptr_t)reg->pr_off;
        if (reg->pr_scale == SCALE_ONE_BUCKET || pc < off)
            continue;
        unsigned __int128 b = ((unsigned __int128)(pc - off) * reg->pr_scale) >> 17;
        if (b < reg->pr_size / bytes) {
            *base = reg->pr_base;
            *idx = (size_t)b;
            return 1;
        }
    }
    for (int r = 0; r < pe->nregions; r++)
        if (pe->regions[r].pr_scale == SCALE_ONE_BUCKET) {
            *base = pe->regions[r].pr_base;
            *idx = 0;
            return 1;
        }
    return 0;
}

static struct prof_event *find_event(struct prof_state *p, int pos)
{
    for (int i = 0; i < p->n; i++)
        if (p->ev[i].pos == pos)
            return &p->ev[i];
    return NULL;
}

static void account(struct prof_state *p, struct prof_event *pe, uintptr_t pc, long long weight)
{
    unsigned bytes = bucket_bytes(pe->flags);
    void *base;
    size_t idx;
    if (!locate(pe, pc, bytes, &base, &idx))
        return;
    /* weight = thresholds crossed since the last sample (software overflow can see
     * several per tick): WEIGHTED adds them as one weighted sample, the other modes
     * count one sample per crossing. */
    long long samples = weight < 1 ? 1 : weight > 64 ? 64 : weight;
    if (pe->flags & PAPI_PROFIL_WEIGHTED)
        samples = 1;
    uint64_t max = bucket_max(bytes);
    for (long long s = 0; s < samples; s++) {
        if ((pe->flags & PAPI_PROFIL_RANDOM) && (next_random(p) & 3) == 0)
            continue; /* drop one sample in four */
        uint64_t cur = bucket_get(base, idx, bytes);
        /* COMPRESS: keep a sample with probability falling as the bucket fills up. */
        if ((pe->flags & PAPI_PROFIL_COMPRESS) && (next_random(p) % (max / 2 + 1)) < cur / 2)
            continue;
        uint64_t inc = 1;
        if (pe->flags & PAPI_PROFIL_WEIGHTED)
            inc = weight < 1 ? 1 : weight > 255 ? 255 : (uint64_t)weight;
        bucket_set(base, idx, bytes, cur > max - inc ? max : cur + inc);
    }
}

void profil_sample(struct eventset *es, int pos, uintptr_t pc, long long weight)
{
    struct prof_state *p = es->profile;
    struct prof_event *pe = p ? find_event(p, pos) : NULL;
    if (pe)
        account(p, pe, pc, weight);
}

/* Sample by sample, each to the profiled records of the native in their order: what the
 * signal handler does per overflow (hardware_overflow), so RANDOM and COMPRESS draw the
 * same numbers in the same order. */
void profil_ring_samples(void *arg, int native, const uint64_t *ips, int n, uint64_t lost)
{
    struct eventset *es = arg;
    const struct ovf_state *o = es->overflow;
    struct prof_state *p = es->profile;
    if (!o || !p)
        return;
    struct prof_event *to[OVF_MAX_EVENTS];
    int nto = 0;
    for (int k = 0; k < o->nevents; k++)
        if (o->ev[k].native == native && o->ev[k].profiled &&
            (to[nto] = find_event(p, o->ev[k].pos)))
            to[nto++]->lost += lost;
    for (int i = 0; i < n; i++)
        for (int t = 0; t < nto; t++)
            account(p, to[t], (uintptr_t)ips[i], 1);
}

void profil_report_lost(struct eventset *es)
{
    struct prof_state *p = es->profile;
    char what[1024] = "";
    for (int i = 0; p && i < p->n; i++) {
        struct prof_event *pe = &p->ev[i];
        if (pe->lost == pe->lost_told)
            continue;
        str_appendf(what, sizeof what, "%s%llu of the event at position %d (%llu in all)",
                    what[0] ? ", " : "", (unsigned long long)(pe->lost - pe->lost_told), pe->pos,
                    (unsigned long long)pe->lost);
        pe->lost_told = pe->lost;
    }
    if (!what[0])
        return;
    /* A note, not an error: the call succeeded and the histogram holds every sample the
     * kernel took. */
    papi_error(PAPI_OK,
               "EventSet %d: profiling samples were lost since PAPI_start, the kernel's "
               "sample buffer being full before the library emptied it: %s",
               es->handle, what);
    if (g_papi.debug_level == PAPI_VERB_ECONT || g_papi.debug_level == PAPI_VERB_ESTOP)
        fprintf(stderr, "PAPI Warning: %s\n", papi_last_error_detail());
}
