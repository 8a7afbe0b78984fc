/* hl_rates.c: the PAPI 6/7 rate calls PAPI_flops_rate, PAPI_flips_rate, PAPI_epc
 * and PAPI_rate_stop. Every value they return is "since the previous call" (the 7.x
 * meaning). They share the per-thread session of the 3.5 calls (hl_session.c):
 * while one rate call counts, a call of another kind or with another event returns
 * PAPI_EINVAL until PAPI_rate_stop (or PAPI_stop_counters) ends it. PAPI_ipc, the one
 * name both generations share, is in hl_legacy.c. */
#include "hl_session.h"

static int since_last(enum hl_mode mode, int event, const int *events, const int *required, int n,
                      const char *caller, float *rtime, float *ptime, struct hl_sample *x)
{
    int ret = hl_rate_sample(mode, event, events, required, n, caller, x);
    if (ret != PAPI_OK)
        return ret;
    *rtime = (float)((double)x->real_delta_ns * 1e-9);
    *ptime = (float)((double)x->proc_delta_ns * 1e-9);
    return PAPI_OK;
}

static float per_us(long long count, long long ns)
{
    return ns > 0 ? (float)((double)count * 1e3 / (double)ns) : 0.0f;
}

/* One event's count and rate (events per microsecond) since the previous call: PAPI_flops_rate
 * and PAPI_flips_rate, which differ only in the events they accept (allowed, named in the
 * message that refuses another). */
static int one_event_rate(enum hl_mode mode, const char *caller, int event, const int *allowed,
                          int nallowed, const char *allowed_names, float *rtime, float *ptime,
                          long long *count, float *rate)
{
    if (!rtime || !ptime || !count || !rate)
        return papi_error(PAPI_EINVAL, "%s: an argument is NULL", caller);
    int i = 0;
    while (i < nallowed && allowed[i] != event)
        i++;
    if (i == nallowed)
        return papi_error(PAPI_EINVAL, "%s: event 0x%x is not %s", caller, (unsigned)event,
                          allowed_names);
    struct hl_sample x;
    const int ev[1] = {event};
    int ret = since_last(mode, event, ev, NULL, 1, caller, rtime, ptime, &x);
    if (ret != PAPI_OK)
        return ret;
    *count = x.delta[0];
    *rate = per_us(x.delta[0], x.real_delta_ns);
    return PAPI_OK;
}

int PAPI_flops_rate(int event, float *rtime, float *ptime, long long *flpops, float *mflops)
{
    static const int ops[] = {PAPI_FP_OPS, PAPI_SP_OPS, PAPI_DP_OPS, PAPI_VEC_SP, PAPI_VEC_DP};
    return one_event_rate(HL_FLOPS_RATE, "PAPI_flops_rate", event, ops, 5,
                          "PAPI_FP_OPS, PAPI_SP_OPS, PAPI_DP_OPS, PAPI_VEC_SP or PAPI_VEC_DP",
                          rtime, ptime, flpops, mflops);
}

int PAPI_flips_rate(int event, float *rtime, float *ptime, long long *flpins, float *mflips)
{
    static const int ins[] = {PAPI_FP_INS, PAPI_VEC_INS, PAPI_TOT_INS};
    return one_event_rate(HL_FLIPS_RATE, "PAPI_flips_rate", event, ins, 3,
                          "PAPI_FP_INS, PAPI_VEC_INS or PAPI_TOT_INS", rtime, ptime, flpins,
                          mflips);
}

int PAPI_epc(int event, float *rtime, float *ptime, long long *ref, long long *core, long long *evt,
             float *epc)
{
    if (!rtime || !ptime || !ref || !core || !evt || !epc)
        return papi_error(PAPI_EINVAL, "PAPI_epc: an argument is NULL");
    if (event == 0)
        event = PAPI_TOT_INS;
    if (event == PAPI_TOT_CYC || event == PAPI_REF_CYC)
        return papi_error(PAPI_EINVAL, "PAPI_epc: the event must not be a cycle count");
    struct hl_sample x;
    /* Reference cycles are optional: counted where they exist, else reported as 0. */
    const int ev[3] = {event, PAPI_TOT_CYC, PAPI_REF_CYC};
    static const int required[3] = {1, 1, 0};
    int ret = since_last(HL_EPC, event, ev, required, 3, "PAPI_epc", rtime, ptime, &x);
    if (ret != PAPI_OK)
        return ret;
    *evt = x.delta[0];
    *core = x.delta[1];
    *ref = x.first ? 0 : x.delta[2]; /* delta[2] stays 0 when REF_CYC is absent */
    *epc = x.delta[1] > 0 ? (float)((double)x.delta[0] / (double)x.delta[1]) : 0.0f;
    return PAPI_OK;
}

int PAPI_rate_stop(void)
{
    if (g_papi.init_state == PAPI_NOT_INITED)
        return papi_error(PAPI_ENOINIT, "PAPI_rate_stop: no rate call was made");
    struct hl_session *s = hl_session_get();
    if (s->mode == HL_IDLE)
        return papi_error(PAPI_ENOTRUN, "PAPI_rate_stop: no rate call is counting in this thread");
    if (s->mode == HL_COUNTERS)
        return papi_error(PAPI_EINVAL, "PAPI_rate_stop: the counters were started by "
                                       "PAPI_start_counters; use PAPI_stop_counters");
    return hl_session_stop(s, NULL);
}
