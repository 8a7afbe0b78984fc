/* overflow.c: PAPI_overflow, PAPI_get_overflow_event_index and PAPI_get_overflow_rate.
 *
 * Hardware overflow: the component counts the native under the event with a period of
 * threshold (perf_event: sample_period, reopened); the kernel sends one signal per overflow to the counting thread and the
 * count itself keeps running as a 64-bit total, so PAPI_read stays exact and still
 * reads each perf group with one read(). Software overflow (PAPI_OVERFLOW_FORCE_SW, or
 * derived events that no single counter can sample): a timer on the thread's CPU clock
 * compares the counts with the thresholds on every tick. One mode per event set. The
 * overflow_vector has bit N set when the event at position N of the set overflowed. */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "env.h"
#include "overflow.h"
#include "overflow_signal.h"
#include "call_guard.h"
#include "warn_once.h"

static atomic_int said_limit;

/* How PAPI_start and PAPI_stop reach overflow without calling up into it. */
static const struct es_overflow_hooks hooks = {
    .start = ovf_start, .stop = ovf_stop, .quiesce = ovf_quiesce};

/* Shutdown (and unload: the library's destructor shuts down): after the sets, which
 * registered first in this stage, are stopped and freed, no timer or overflow source can
 * raise a signal any more: put back the actions overflow replaced. */
static void overflow_lifecycle(const struct papi_life *ev)
{
    if (ev->event == PAPI_LIFE_SHUTDOWN)
        ovf_restore_handlers();
}

/* A derived event has no single counter the kernel could arm. */
static int needs_software(const struct es_entry *ent)
{
    if (!ent->preset)
        return 0;
    return ent->nterms != 1 || (ent->preset->op != DERIVE_NONE && ent->preset->op != DERIVE_CMPD);
}

static void drop_record(struct eventset *es, int k)
{
    struct ovf_state *o = es->overflow;
    for (int j = k; j < o->nevents - 1; j++)
        o->ev[j] = o->ev[j + 1];
    o->nevents--;
    if (o->nevents == 0) {
        free(o);
        es->overflow = NULL;
        es->state &= ~PAPI_OVERFLOWING;
    }
}

/* Change the hardware threshold of one native (the set is stopped); its component keeps
 * the count (it may reopen the event: a counting event cannot become a sampling one).
 * ring: sample into the component's ring rather than by signal, when it can (*got says
 * which it does). */
static int set_period(struct eventset *es, int ni, uint64_t period, int ring, int *got)
{
    int ret = PAPI_ENOSUPP;
    *got = 0;
    if (ring && period && es->cmp->set_sampling) {
        ret = es->cmp->set_sampling(es->ctx, ni, period);
        *got = ret == PAPI_OK;
    }
    if (ret == PAPI_ENOSUPP)
        ret = es->cmp->set_overflow(es->ctx, ni, period);
    if (ret == PAPI_OK)
        es->nat[ni].period = period;
    return ret;
}

/* PAPI_profil on a hardware event samples into the component's ring unless
 * PAPI_PROFIL_RING=0 asks for a signal per sample (PAPI 7's way; read at every call). */
static int ring_allowed(void)
{
    const char *v = env_get("PAPI_PROFIL_RING");
    return !v || strcmp(v, "0") != 0;
}

/* The records of native ni, but k: any takes signals (*signal), any samples into the ring
 * (*ring). */
static void native_modes(const struct ovf_state *o, int ni, int k, int *signal, int *ring)
{
    *signal = *ring = 0;
    for (int j = 0; o && j < o->nevents; j++)
        if (j != k && o->ev[j].native == ni) {
            *ring |= o->ev[j].ring;
            *signal |= !o->ev[j].ring;
        }
}

static int turn_off(struct eventset *es, int pos, int profiled)
{
    struct ovf_state *o = es->overflow;
    int k = ovf_find(o, pos);
    if (k < 0)
        return papi_error(PAPI_EINVAL,
                          "the event at position %d of EventSet %d is not set to "
                          "overflow",
                          pos, es->handle);
    if (o->ev[k].profiled != profiled)
        return papi_error(PAPI_EINVAL,
                          profiled ? "the event at position %d is set by "
                                     "PAPI_overflow, not profiled"
                                   : "the event at position %d is profiled: turn it "
                                     "off with PAPI_profil threshold 0",
                          pos);
    int shared = 0; /* another event still overflows on the same counter */
    for (int j = 0; j < o->nevents; j++)
        shared |= j != k && o->ev[j].native == o->ev[k].native;
    if (o->ev[k].native >= 0 && !shared) {
        int got;
        int ret = set_period(es, o->ev[k].native, 0, 0, &got);
        if (ret != PAPI_OK)
            return ret;
    }
    drop_record(es, k);
    return PAPI_OK;
}

/* The checks that need neither the event nor the overflow state. */
static int check_request(const struct eventset *es, int threshold, int flags)
{
    if (es->state & PAPI_RUNNING)
        return papi_error(PAPI_EISRUN, "EventSet %d is running: stop it before changing overflow",
                          es->handle);
    if (threshold < 0)
        return papi_error(PAPI_EINVAL, "threshold %d is negative", threshold);
    if (flags & ~(PAPI_OVERFLOW_FORCE_SW | PAPI_OVERFLOW_HARDWARE | OVF_FLAG_HZ))
        return papi_error(PAPI_EINVAL, "unknown overflow flags 0x%x", (unsigned)flags);
    if ((flags & OVF_FLAG_HZ) && (flags & PAPI_OVERFLOW_FORCE_SW))
        return papi_error(PAPI_ENOSUPP, "frequency mode is the kernel's sampling: not with "
                                        "PAPI_OVERFLOW_FORCE_SW (the software timer)");
    if ((flags & PAPI_OVERFLOW_FORCE_SW) && (flags & PAPI_OVERFLOW_HARDWARE))
        return papi_error(PAPI_EINVAL, "PAPI_OVERFLOW_FORCE_SW and PAPI_OVERFLOW_HARDWARE exclude "
                                       "each other");
    return PAPI_OK;
}

/* How the event at pos overflows (*mode, *ni: the native carrying its period, -1 in
 * software), refused when that conflicts with the set's other records. */
static int plan_event(const struct eventset *es, int pos, int EventCode, int threshold, int flags,
                      int profiled, enum ovf_mode *mode, int *ni)
{
    const struct es_entry *ent = &es->ent[pos];
    int sw = (flags & PAPI_OVERFLOW_FORCE_SW) || needs_software(ent) || ent->nterms < 1 ||
             !es->cmp || !es->cmp->set_overflow; /* the component has no hardware overflow */
    if (sw && (flags & OVF_FLAG_HZ))
        return papi_error(PAPI_ENOSUPP, "event 0x%x cannot sample in frequency mode: %s",
                          (unsigned)EventCode,
                          es->cmp && es->cmp->set_overflow
                              ? "it is derived from several counters (only a single counter "
                                "can sample)"
                              : "its component has no hardware overflow");
    if (sw && (flags & PAPI_OVERFLOW_HARDWARE))
        return papi_error(PAPI_ECNFLCT,
                          "event 0x%x is derived from several counters and cannot "
                          "overflow in hardware",
                          (unsigned)EventCode);
    *mode = sw ? OVF_SW : OVF_HW;
    *ni = sw ? -1 : ent->term[0];
    const struct ovf_state *o = es->overflow;
    int k = ovf_find(o, pos);
    if (o && k >= 0 && o->ev[k].profiled != profiled)
        return papi_error(PAPI_ECNFLCT, "the event at position %d is already %s", pos,
                          o->ev[k].profiled ? "profiled" : "set by PAPI_overflow");
    /* Only one kind of overflow per set; changing the only event may change its kind. */
    if (o && o->mode != *mode && !(o->nevents == 1 && k == 0))
        return papi_error(PAPI_ECNFLCT,
                          "EventSet %d already overflows in %s; one set cannot mix "
                          "hardware and software overflow",
                          es->handle, o->mode == OVF_HW ? "hardware" : "software (timer)");
    for (int j = 0; *ni >= 0 && o && j < o->nevents; j++)
        if (j != k && o->ev[j].native == *ni &&
            (o->ev[j].threshold != threshold || o->ev[j].hz != !!(flags & OVF_FLAG_HZ)))
            return papi_error(PAPI_ECNFLCT,
                              "the event at position %d counts on the same "
                              "counter with another threshold or frequency",
                              o->ev[j].pos);
    return PAPI_OK;
}

/* Put record k's (k < 0: a new record's) period on native ni (-1: none) at threshold; the
 * native samples into the ring only when every record on it is profiled (a user handler
 * needs its signal per overflow): *ring says whether it does. */
static int route_native(struct eventset *es, int k, int ni, uint64_t period, int profiled,
                        int *ring)
{
    struct ovf_state *o = es->overflow;
    int old_native = k >= 0 ? o->ev[k].native : -1;
    *ring = 0;
    if (old_native >= 0 && old_native != ni) {
        int got;
        int ret = set_period(es, old_native, 0, 0, &got);
        if (ret != PAPI_OK)
            return ret;
        o->ev[k].native = -1;
    }
    if (ni < 0)
        return PAPI_OK;
    int others_signal, others_ring;
    native_modes(o, ni, k, &others_signal, &others_ring);
    int want = profiled && !others_signal && ring_allowed();
    int now = k >= 0 && o->ev[k].native == ni ? o->ev[k].ring || others_ring : others_ring;
    *ring = now;
    if (es->nat[ni].period == period && want == now)
        return PAPI_OK;
    int ret = set_period(es, ni, period, want, ring);
    if (ret != PAPI_OK)
        return ret;
    for (int j = 0; j < o->nevents; j++)
        if (o->ev[j].native == ni)
            o->ev[j].ring = *ring;
    return PAPI_OK;
}

/* The threshold (frequency) to give the component for native ni: threshold, or the
 * slowest that stays within OVF_MAX_SIGNAL_HZ where the rate is known before (one line
 * says so, the first time). */
static long long signal_limit(const struct eventset *es, int EventCode, int ni, long long threshold,
                              int hz)
{
    long long limit = threshold;
    if (hz && threshold > OVF_MAX_SIGNAL_HZ)
        limit = OVF_MAX_SIGNAL_HZ;
    else if (!hz && ni >= 0 && es->cmp->counts_ns && es->cmp->counts_ns(es->ctx, ni) &&
             threshold < 1000000000LL / OVF_MAX_SIGNAL_HZ)
        limit = 1000000000LL / OVF_MAX_SIGNAL_HZ;
    if (limit != threshold)
        warn_once(&said_limit,
                  "overflow of event 0x%x %s %lld%s asks for more than the %d signals a second "
                  "a thread is sent: %s %lld%s instead",
                  (unsigned)EventCode, hz ? "at" : "every", threshold, hz ? " Hz" : " ns",
                  OVF_MAX_SIGNAL_HZ, hz ? "at" : "every", limit, hz ? " Hz" : " ns");
    return limit;
}

int ovf_configure(struct eventset *es, int EventCode, int threshold, int flags,
                  PAPI_overflow_handler_t handler, int profiled)
{
    int ret = check_request(es, threshold, flags);
    if (ret != PAPI_OK)
        return ret;
    int pos = es_entry_index(es, EventCode);
    if (pos < 0)
        return papi_error(PAPI_ENOEVNT, "event 0x%x is not in EventSet %d", (unsigned)EventCode,
                          es->handle);
    if (threshold == 0)
        return turn_off(es, pos, profiled);
    if (pos >= OVF_MAX_EVENTS)
        return papi_error(PAPI_EINVAL,
                          "only the first %d events of a set can overflow (one bit "
                          "each in overflow_vector); this one is at position %d",
                          OVF_MAX_EVENTS, pos);
    if (!profiled && !handler)
        return papi_error(PAPI_EINVAL, "the overflow handler is NULL");
    enum ovf_mode mode = OVF_NONE;
    int ni = -1, ring = 0, fresh = !es->overflow;
    ret = plan_event(es, pos, EventCode, threshold, flags, profiled, &mode, &ni);
    if (ret != PAPI_OK)
        return ret;
    atomic_store_explicit(&es_overflow_hooks, &hooks, memory_order_release);
    papi_lifecycle_register(PAPI_LIFE_STAGE_SETS, overflow_lifecycle); /* after the sets' */
    if (fresh && !(es->overflow = calloc(1, sizeof(struct ovf_state))))
        return papi_error(PAPI_ENOMEM, "no memory for the overflow state");
    struct ovf_state *o = es->overflow;
    int k = ovf_find(o, pos);
    int hz = (flags & OVF_FLAG_HZ) != 0;
    long long limit = signal_limit(es, EventCode, ni, threshold, hz);
    ret = route_native(es, k, ni, (uint64_t)limit | (hz ? CMP_PERIOD_HZ : 0), profiled, &ring);
    if (ret != PAPI_OK) {
        if (fresh) {
            free(o);
            es->overflow = NULL;
        }
        return ret;
    }
    if (k < 0)
        k = o->nevents++;
    o->ev[k] = (struct ovf_event){.pos = pos,
                                  .code = EventCode,
                                  .native = ni,
                                  .source = -1,
                                  .profiled = profiled,
                                  .ring = ring,
                                  .hz = hz,
                                  .threshold = threshold,
                                  .limit = limit,
                                  .next = threshold,
                                  .last = 0};
    o->mode = mode;
    if (!profiled)
        o->handler = handler;
    es->state |= PAPI_OVERFLOWING;
    return PAPI_OK;
}

int ovf_user_set(int EventSet, int flags, struct eventset **es)
{
    int ret = es_get(EventSet, es);
    if (ret == PAPI_OK && (flags & OVF_FLAG_HZ))
        return papi_error(PAPI_EINVAL, "unknown overflow flags 0x%x", (unsigned)flags);
    return ret;
}

int PAPI_overflow(int EventSet, int EventCode, int threshold, int flags,
                  PAPI_overflow_handler_t handler)
{
    PAPI_CALL_GUARD();
    struct eventset *es;
    int ret = ovf_user_set(EventSet, flags, &es);
    if (ret != PAPI_OK)
        return ret;
    return ovf_configure(es, EventCode, threshold, flags, handler, 0);
}

int PAPI_get_overflow_event_index(int EventSet, long long overflow_vector, int *array, int *number)
{
    PAPI_CALL_GUARD();
    struct eventset *es;
    int ret = es_get(EventSet, &es);
    if (ret != PAPI_OK)
        return ret;
    if (!array || !number)
        return papi_error(PAPI_EINVAL, "array or number is NULL");
    if (*number < 1)
        return papi_error(PAPI_EINVAL, "*number (%d) must be at least 1", *number);
    if (overflow_vector == 0)
        return papi_error(PAPI_EINVAL, "overflow_vector is empty");
    if (es->nentries == 0)
        return papi_error(PAPI_EINVAL, "EventSet %d is empty", EventSet);
    unsigned long long v = (unsigned long long)overflow_vector;
    int limit = es->nentries < OVF_MAX_EVENTS ? es->nentries : OVF_MAX_EVENTS;
    if (limit < 64 && (v >> limit) != 0)
        return papi_error(PAPI_EINVAL,
                          "overflow_vector 0x%llx has bits beyond the %d events of "
                          "EventSet %d",
                          v, es->nentries, EventSet);
    int n = 0;
    for (int bit = 0; bit < limit && n < *number; bit++)
        if (v & (1ULL << bit))
            array[n++] = bit;
    *number = n;
    return PAPI_OK;
}

/* The rate in force is the handler's to change (overflow_signal.c, pacing); this call only
 * reads it, so a report can say what was used rather than what was asked. */
int PAPI_get_overflow_rate(int EventSet, int EventCode, long long *rate, int *hz, int *slowed,
                           long long *queue_overflows)
{
    PAPI_CALL_GUARD();
    struct eventset *es;
    int ret = es_get(EventSet, &es);
    if (ret != PAPI_OK)
        return ret;
    if (!rate || !hz || !slowed || !queue_overflows)
        return papi_error(PAPI_EINVAL, "rate, hz, slowed or queue_overflows is NULL");
    int pos = es_entry_index(es, EventCode);
    if (pos < 0)
        return papi_error(PAPI_ENOEVNT, "event 0x%x is not in EventSet %d", (unsigned)EventCode,
                          EventSet);
    long long now;
    if (ovf_rate_now(es, pos, &now, hz, slowed) != PAPI_OK)
        return papi_error(PAPI_EINVAL,
                          "event 0x%x of EventSet %d does not overflow (no PAPI_overflow, "
                          "PAPI_overflow_frequency or PAPI_profil set on it)",
                          (unsigned)EventCode, EventSet);
    *rate = now;
    *queue_overflows = (long long)ovf_queue_overflows();
    return PAPI_OK;
}
