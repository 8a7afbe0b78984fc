/* test_hl_rates: PAPI_flops/flips/ipc (3.5: totals since the first call, rate since the
 * previous one) and PAPI_flops_rate/flips_rate/epc/rate_stop (7.x: everything since the
 * previous call) with exact counts. Needs tests/highlevel/test_events.csv as
 * PAPI_CSV_EVENT_FILE: FP_OPS = FP_INS = TOT_INS = page faults, TOT_CYC = 2x, REF_CYC = 4x. */
#include <float.h>
#include <math.h>
#include <pthread.h>
#include <time.h>

#include "papi_test.h"

#define N 200

/* mflops must equal count / (rtime delta in us); rtime is a float, so the delta is
 * known to two float ulps of the later time plus the clock's resolution. */
static void check_rate(float rate, long long count, float t0, float t1, const char *what)
{
    struct timespec res;
    clock_getres(CLOCK_MONOTONIC, &res);
    double dt = (double)t1 - (double)t0;
    double err = 2.0 * (double)FLT_EPSILON * (double)t1 + (double)res.tv_nsec * 1e-9;
    CHECK(dt > err, "%s: time delta %g is below its resolution %g", what, dt, err);
    double want = (double)count / (dt * 1e6);
    double tol = want * (err / dt) + want * 1e-6 + 1e-6;
    CHECK(fabs((double)rate - want) <= tol, "%s: rate %g, want %g +- %g", what, (double)rate,
          want, tol);
}

/* Burn a little real time so that rate deltas are well above the float resolution. */
static void spin_us(long us)
{
    struct timespec a, b;
    clock_gettime(CLOCK_MONOTONIC, &a);
    do
        clock_gettime(CLOCK_MONOTONIC, &b);
    while ((b.tv_sec - a.tv_sec) * 1000000L + (b.tv_nsec - a.tv_nsec) / 1000 < us);
}

static void legacy_rate(int (*fn)(float *, float *, long long *, float *), const char *name)
{
    float rt, pt, rate, rt0, pt0;
    long long c, c0;
    CHECK_RET(fn(&rt, &pt, &c, &rate), PAPI_OK); /* first call starts: zeros */
    CHECK(rt == 0.0f && pt == 0.0f && c == 0 && rate == 0.0f, "%s: first call not zero", name);
    CHECK_RET(fn(&rt0, &pt0, &c0, &rate), PAPI_OK); /* fault in the code path */
    for (int round = 1; round <= 2; round++) {
        spin_us(2000);
        touch_pages(N);
        CHECK_RET(fn(&rt, &pt, &c, &rate), PAPI_OK);
        CHECK_EQ_LL(c - c0, N); /* total since the first call rises by exactly N */
        check_rate(rate, N, rt0, rt, name);
        CHECK(rt > rt0 && pt >= pt0 && pt > 0.0f, "%s: times do not grow (%g %g)", name,
              (double)rt, (double)pt);
        CHECK(pt <= rt + 0.01f, "%s: process time %g above real time %g", name, (double)pt,
              (double)rt);
        rt0 = rt;
        pt0 = pt;
        c0 = c;
    }
}

static void *thread_flops(void *arg)
{
    float rt, pt, rate;
    long long c0, c;
    (void)arg;
    /* Independent of the main thread's session. */
    CHECK_RET(PAPI_flops(&rt, &pt, &c0, &rate), PAPI_OK);
    /* A first pass through the workload and the read path in this new thread: its first
     * use of the stack and of mmap here can itself fault. */
    touch_pages(4);
    CHECK_RET(PAPI_flops(&rt, &pt, &c0, &rate), PAPI_OK);
    touch_pages(4);
    CHECK_RET(PAPI_flops(&rt, &pt, &c0, &rate), PAPI_OK);
    touch_pages(40);
    CHECK_RET(PAPI_flops(&rt, &pt, &c, &rate), PAPI_OK);
    CHECK_EQ_LL(c - c0, 40);
    CHECK_RET(PAPI_stop_counters(NULL, 0), PAPI_OK);
    return NULL;
}

/* Run fn with stderr in a file and return what it printed. */
static void capture_stderr(int (*fn)(void), int *ret, char *out, size_t len)
{
    FILE *tmp = tmpfile();
    fflush(stderr);
    int saved = dup(2);
    dup2(fileno(tmp), 2);
    *ret = fn();
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    rewind(tmp);
    size_t n = fread(out, 1, len - 1, tmp);
    out[n] = '\0';
    fclose(tmp);
}

static int missing_event_call(void)
{
    float rt, pt, rate;
    long long c;
    return PAPI_flops_rate(PAPI_VEC_DP, &rt, &pt, &c, &rate);
}

int main(void)
{
    float rt, pt, rate, rt0 = 0;
    long long c, ref, core, evt;
    warm_up();
    if (!getenv("PAPI_CSV_EVENT_FILE"))
        test_skip("needs PAPI_CSV_EVENT_FILE=tests/highlevel/test_events.csv");
    CHECK(PAPI_is_initialized() == PAPI_NOT_INITED, "initialised before any call");

    /* ---- 3.5 ---- */
    CHECK_RET(PAPI_flops(NULL, &pt, &c, &rate), PAPI_EINVAL);
    legacy_rate(PAPI_flops, "PAPI_flops");
    CHECK(PAPI_is_initialized() == PAPI_HIGH_LEVEL_INITED, "PAPI_is_initialized is %d",
          PAPI_is_initialized());
    int evs[1] = {PAPI_FP_OPS};
    CHECK_RET(PAPI_start_counters(evs, 1), PAPI_EISRUN);
    CHECK_RET(PAPI_flips(&rt, &pt, &c, &rate), PAPI_EINVAL);
    CHECK_RET(PAPI_ipc(&rt, &pt, &c, &rate), PAPI_EINVAL);
    CHECK_RET(PAPI_flops_rate(PAPI_FP_OPS, &rt, &pt, &c, &rate), PAPI_EINVAL);
    long long v[1] = {-5};
    CHECK_RET(PAPI_read_counters(v, 1), PAPI_EINVAL);
    pthread_t t;
    pthread_create(&t, NULL, thread_flops, NULL);
    pthread_join(t, NULL);
    /* PAPI_stop_counters ends a PAPI_flops session and hands back its total count (the
     * other thread ran the stop path already, so its code takes no fault now). */
    long long before;
    CHECK_RET(PAPI_flops(&rt, &pt, &before, &rate), PAPI_OK);
    CHECK(before >= 2 * N, "PAPI_flops total %lld below %d", before, 2 * N);
    touch_pages(7);
    CHECK_RET(PAPI_stop_counters(v, 1), PAPI_OK);
    CHECK_EQ_LL(v[0], before + 7);
    CHECK_RET(PAPI_stop_counters(v, 1), PAPI_ENOTRUN);

    legacy_rate(PAPI_flips, "PAPI_flips");
    CHECK_RET(PAPI_rate_stop(), PAPI_OK); /* the 7.x way ends a 3.5 session too */

    /* PAPI_ipc: TOT_INS = N, TOT_CYC = 2N per round, so IPC is exactly 1/2. */
    long long i0;
    CHECK_RET(PAPI_ipc(&rt, &pt, &i0, &rate), PAPI_OK);
    CHECK_RET(PAPI_ipc(&rt, &pt, &i0, &rate), PAPI_OK);
    touch_pages(N);
    CHECK_RET(PAPI_ipc(&rt, &pt, &c, &rate), PAPI_OK);
    CHECK_EQ_LL(c - i0, N);
    CHECK(rate == 0.5f, "ipc %g, want 0.5", (double)rate);
    touch_pages(N);
    CHECK_RET(PAPI_ipc(&rt, &pt, &c, &rate), PAPI_OK);
    CHECK_EQ_LL(c - i0, 2 * N); /* totals since the first call (3.5 meaning) */
    CHECK(rate == 0.5f, "ipc %g, want 0.5", (double)rate);
    CHECK_RET(PAPI_rate_stop(), PAPI_OK);
    CHECK_RET(PAPI_rate_stop(), PAPI_ENOTRUN);

    /* ---- 7.x: since the previous call ---- */
    CHECK_RET(PAPI_flops_rate(PAPI_TOT_INS, &rt, &pt, &c, &rate), PAPI_EINVAL);
    CHECK_RET(PAPI_flops_rate(PAPI_FP_OPS, &rt, &pt, NULL, &rate), PAPI_EINVAL);
    CHECK_RET(PAPI_flops_rate(PAPI_FP_OPS, &rt, &pt, &c, &rate), PAPI_OK);
    CHECK(c == 0 && rate == 0.0f, "first PAPI_flops_rate not zero");
    CHECK_RET(PAPI_flops_rate(PAPI_FP_OPS, &rt, &pt, &c, &rate), PAPI_OK);
    for (int round = 0; round < 2; round++) {
        spin_us(2000);
        touch_pages(N);
        CHECK_RET(PAPI_flops_rate(PAPI_FP_OPS, &rt, &pt, &c, &rate), PAPI_OK);
        CHECK_EQ_LL(c, N);
        check_rate(rate, N, 0.0f, rt, "PAPI_flops_rate");
        CHECK(rt >= 0.002f && rt < 1.0f, "rtime %g is not the time since the previous call",
              (double)rt);
    }
    CHECK_RET(PAPI_flops_rate(PAPI_DP_OPS, &rt, &pt, &c, &rate), PAPI_EINVAL);
    CHECK_RET(PAPI_flips_rate(PAPI_FP_INS, &rt, &pt, &c, &rate), PAPI_EINVAL);
    CHECK_RET(PAPI_stop_counters(NULL, 0), PAPI_OK);

    CHECK_RET(PAPI_flips_rate(PAPI_FP_OPS, &rt, &pt, &c, &rate), PAPI_EINVAL);
    CHECK_RET(PAPI_flips_rate(PAPI_FP_INS, &rt, &pt, &c, &rate), PAPI_OK);
    CHECK_RET(PAPI_flips_rate(PAPI_FP_INS, &rt, &pt, &c, &rate), PAPI_OK);
    spin_us(2000);
    touch_pages(N);
    CHECK_RET(PAPI_flips_rate(PAPI_FP_INS, &rt, &pt, &c, &rate), PAPI_OK);
    CHECK_EQ_LL(c, N);
    check_rate(rate, N, 0.0f, rt, "PAPI_flips_rate");
    CHECK_RET(PAPI_rate_stop(), PAPI_OK);

    /* PAPI_epc(0): TOT_INS per TOT_CYC, with REF_CYC = 4N. */
    CHECK_RET(PAPI_epc(0, &rt, &pt, &ref, &core, NULL, &rate), PAPI_EINVAL);
    CHECK_RET(PAPI_epc(0, &rt, &pt, &ref, &core, &evt, &rate), PAPI_OK);
    CHECK_RET(PAPI_epc(0, &rt, &pt, &ref, &core, &evt, &rate), PAPI_OK);
    touch_pages(N);
    CHECK_RET(PAPI_epc(0, &rt, &pt, &ref, &core, &evt, &rate), PAPI_OK);
    CHECK_EQ_LL(evt, N);
    CHECK_EQ_LL(core, 2 * N);
    CHECK_EQ_LL(ref, 4 * N);
    CHECK(rate == 0.5f, "epc %g, want 0.5", (double)rate);
    CHECK_RET(PAPI_epc(PAPI_FP_OPS, &rt, &pt, &ref, &core, &evt, &rate), PAPI_EINVAL);
    CHECK_RET(PAPI_rate_stop(), PAPI_OK);

    /* A missing event: PAPI_ENOEVNT and one line on stderr naming it, once. */
    char out[2048];
    int r;
    unsetenv("PAPI_QUIET");
    capture_stderr(missing_event_call, &r, out, sizeof out);
    CHECK(r == PAPI_ENOEVNT, "flops_rate(PAPI_VEC_DP) returned %d", r);
    CHECK(strstr(out, "PAPI_VEC_DP") && strstr(out, "not available"),
          "no notice naming the missing event: '%s'", out);
    CHECK(strchr(out, '\n') == out + strlen(out) - 1, "notice is not one line: '%s'", out);
    capture_stderr(missing_event_call, &r, out, sizeof out);
    CHECK(r == PAPI_ENOEVNT && out[0] == '\0', "second failure printed '%s'", out);
    /* ... and the session stays usable. */
    CHECK_RET(PAPI_flops_rate(PAPI_SP_OPS, &rt0, &pt, &c, &rate), PAPI_OK);
    CHECK_RET(PAPI_rate_stop(), PAPI_OK);
    return test_done("test_hl_rates");
}
