/* hl_legacy.c: the PAPI 3.5 high-level calls: PAPI_num_counters,
 * PAPI_start/read/accum/stop_counters, PAPI_flops, PAPI_flips and PAPI_ipc.
 *
 * State is per thread (hl_session.c). PAPI_flops and PAPI_flips count only their
 * floating-point event: process time comes from the thread's CPU time, which the kernel
 * reports with every read of a per-thread counter, so no cycle counter is needed.
 *
 * PAPI_ipc is one symbol for both generations. The IPC value is "since the previous
 * call" in both; rtime, ptime and ins are totals since the first call (3.5 and 5.x
 * meaning) unless the environment sets PAPI_HL_SINCE_LAST=1, which selects the 7.x
 * meaning (everything since the previous call). Totals were chosen as the default
 * because they carry the deltas too (a 7.x caller can subtract) while the 3.5 codes
 * that print totals have no other way to get them. */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "env.h"
#include "hl_init.h"
#include "hl_session.h"

int PAPI_num_counters(void)
{
    int ret = hl_self_init();
    if (ret != PAPI_OK)
        return ret;
    return PAPI_num_hwctrs();
}

int PAPI_start_counters(int *events, int array_len)
{
    int ret = hl_self_init();
    if (ret != PAPI_OK)
        return ret;
    if (!events || array_len < 1)
        return papi_error(PAPI_EINVAL, "PAPI_start_counters: %s",
                          !events ? "events is NULL" : "array_len must be at least 1");
    if (array_len > HL_MAX_EVENTS)
        return papi_error(PAPI_EINVAL, "PAPI_start_counters: %d events, at most %d", array_len,
                          HL_MAX_EVENTS);
    struct hl_session *s = hl_session_get();
    if (s->mode != HL_IDLE)
        return papi_error(PAPI_EISRUN,
                          "PAPI_start_counters: counters already started by %s; "
                          "call PAPI_stop_counters first",
                          hl_mode_name(s->mode));
    return hl_session_start(s, HL_COUNTERS, 0, events, NULL, array_len, "PAPI_start_counters");
}

/* The checks shared by read, accum and stop: a PAPI_start_counters session exists and
 * the array can hold every event. */
static int counters_session(const char *caller, long long *values, int array_len,
                            struct hl_session **out)
{
    if (g_papi.init_state == PAPI_NOT_INITED)
        return papi_error(PAPI_ENOINIT, "%s: no counters were started", caller);
    struct hl_session *s = hl_session_get();
    if (s->mode == HL_IDLE)
        return papi_error(PAPI_ENOTRUN, "%s: no counters were started in this thread", caller);
    if (s->mode != HL_COUNTERS)
        return papi_error(PAPI_EINVAL,
                          "%s: the counters were started by %s, not by "
                          "PAPI_start_counters",
                          caller, hl_mode_name(s->mode));
    if (!values || array_len < s->nevents)
        return papi_error(PAPI_EINVAL, "%s: %s (%d events are counting)", caller,
                          !values ? "values is NULL"
                                  : "array_len is smaller than the number of events",
                          s->nevents);
    *out = s;
    return PAPI_OK;
}

int PAPI_read_counters(long long *values, int array_len)
{
    struct hl_session *s = NULL; /* set when PAPI_OK (gcc -O3 cannot see it) */
    int ret = counters_session("PAPI_read_counters", values, array_len, &s);
    if (ret != PAPI_OK)
        return ret;
    /* Copy and reset in one read: accumulate into zeros. */
    long long tmp[HL_MAX_EVENTS] = {0};
    ret = PAPI_accum(s->eventset, tmp);
    if (ret == PAPI_OK)
        memcpy(values, tmp, (size_t)s->nevents * sizeof *values);
    return ret;
}

int PAPI_accum_counters(long long *values, int array_len)
{
    struct hl_session *s = NULL; /* set when PAPI_OK (gcc -O3 cannot see it) */
    int ret = counters_session("PAPI_accum_counters", values, array_len, &s);
    if (ret != PAPI_OK)
        return ret;
    return PAPI_accum(s->eventset, values);
}

int PAPI_stop_counters(long long *values, int array_len)
{
    if (g_papi.init_state == PAPI_NOT_INITED)
        return papi_error(PAPI_ENOINIT, "PAPI_stop_counters: no counters were started");
    struct hl_session *s = hl_session_get();
    if (s->mode == HL_IDLE)
        return papi_error(PAPI_ENOTRUN, "PAPI_stop_counters: no counters were started in this "
                                        "thread");
    if (s->mode == HL_COUNTERS) {
        struct hl_session *chk;
        int ret = counters_session("PAPI_stop_counters", values, array_len, &chk);
        if (ret != PAPI_OK)
            return ret;
        return hl_session_stop(s, values);
    }
    /* A rate call's counters: stop them (the 3.5 way to end PAPI_flops) and hand back
     * as many counts as the array holds. */
    if (array_len < 0 || (array_len > 0 && !values))
        return papi_error(PAPI_EINVAL, "PAPI_stop_counters: %s",
                          array_len < 0 ? "array_len is negative" : "values is NULL");
    long long tmp[HL_MAX_EVENTS];
    int n = s->nevents;
    int ret = hl_session_stop(s, tmp);
    if (ret == PAPI_OK && values && array_len > 0)
        memcpy(values, tmp, (size_t)(array_len < n ? array_len : n) * sizeof *values);
    return ret;
}

/* 3.5 rate call: totals since the first call, rate since the previous call. */
static int legacy_rate(enum hl_mode mode, int event, const char *caller, float *rtime, float *ptime,
                       long long *count, float *mrate)
{
    if (!rtime || !ptime || !count || !mrate)
        return papi_error(PAPI_EINVAL, "%s: an argument is NULL", caller);
    struct hl_sample x;
    const int ev[1] = {event};
    int ret = hl_rate_sample(mode, 0, ev, NULL, 1, caller, &x);
    if (ret != PAPI_OK)
        return ret;
    *rtime = (float)((double)x.real_total_ns * 1e-9);
    *ptime = (float)((double)x.proc_total_ns * 1e-9);
    *count = x.total[0];
    /* Millions per second = count per microsecond. */
    *mrate =
        x.real_delta_ns > 0 ? (float)((double)x.delta[0] * 1e3 / (double)x.real_delta_ns) : 0.0f;
    return PAPI_OK;
}

int PAPI_flops(float *rtime, float *ptime, long long *flpops, float *mflops)
{
    return legacy_rate(HL_FLOPS, PAPI_FP_OPS, "PAPI_flops", rtime, ptime, flpops, mflops);
}

int PAPI_flips(float *rtime, float *ptime, long long *flpins, float *mflips)
{
    return legacy_rate(HL_FLIPS, PAPI_FP_INS, "PAPI_flips", rtime, ptime, flpins, mflips);
}

static int ipc_since_last(void)
{
    static atomic_int cached = -1; /* read once: getenv on every call would cost */
    int v = atomic_load_explicit(&cached, memory_order_relaxed);
    if (v < 0) {
        const char *e = env_get("PAPI_HL_SINCE_LAST");
        v = e && *e && strcmp(e, "0") != 0;
        atomic_store_explicit(&cached, v, memory_order_relaxed);
    }
    return v;
}

int PAPI_ipc(float *rtime, float *ptime, long long *ins, float *ipc)
{
    if (!rtime || !ptime || !ins || !ipc)
        return papi_error(PAPI_EINVAL, "PAPI_ipc: an argument is NULL");
    struct hl_sample x;
    static const int ev[2] = {PAPI_TOT_INS, PAPI_TOT_CYC};
    int ret = hl_rate_sample(HL_IPC, 0, ev, NULL, 2, "PAPI_ipc", &x);
    if (ret != PAPI_OK)
        return ret;
    int delta = ipc_since_last();
    *rtime = (float)((double)(delta ? x.real_delta_ns : x.real_total_ns) * 1e-9);
    *ptime = (float)((double)(delta ? x.proc_delta_ns : x.proc_total_ns) * 1e-9);
    *ins = delta ? x.delta[0] : x.total[0];
    *ipc = x.delta[1] > 0 ? (float)((double)x.delta[0] / (double)x.delta[1]) : 0.0f;
    return PAPI_OK;
}
