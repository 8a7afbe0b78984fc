/* test_hl_ipc_since_last: PAPI_ipc with PAPI_HL_SINCE_LAST=1 has the 7.x meaning: real
 * time, process time and instructions since the previous call (the default is the 3.5
 * meaning, totals since the first call, checked by test_hl_rates). Presets from
 * test_events.csv: TOT_INS = page faults, TOT_CYC = 2x. */
#include <time.h>

#include "papi_test.h"

int main(void)
{
    float rt, pt, ipc;
    long long ins;
    if (!getenv("PAPI_CSV_EVENT_FILE") || !getenv("PAPI_HL_SINCE_LAST"))
        test_skip("needs PAPI_CSV_EVENT_FILE=test_events.csv and PAPI_HL_SINCE_LAST=1");
    warm_up();
    CHECK_RET(PAPI_ipc(&rt, &pt, &ins, &ipc), PAPI_OK);
    CHECK_RET(PAPI_ipc(&rt, &pt, &ins, &ipc), PAPI_OK);
    for (int round = 1; round <= 3; round++) {
        struct timespec d = {0, 3000000};
        nanosleep(&d, NULL); /* 3 ms of real time, almost no CPU time */
        touch_pages(50 * round);
        CHECK_RET(PAPI_ipc(&rt, &pt, &ins, &ipc), PAPI_OK);
        CHECK_EQ_LL(ins, 50 * round); /* this interval only */
        CHECK(ipc == 0.5f, "ipc %g, want 0.5", (double)ipc);
        CHECK(rt >= 0.003f && rt < 0.5f, "rtime %g is not the interval", (double)rt);
        CHECK(pt >= 0.0f && pt < rt, "ptime %g not within the interval %g", (double)pt,
              (double)rt);
    }
    CHECK_RET(PAPI_rate_stop(), PAPI_OK);
    return test_done("test_hl_ipc_since_last");
}
