/* Example: the high-level calls: regions (PAPI 7), rates, and the 3.5 counter calls.
 * Shows: PAPI_hl_region_begin PAPI_hl_read PAPI_hl_region_end PAPI_hl_stop PAPI_flops_rate
 * PAPI_flips_rate PAPI_ipc PAPI_epc PAPI_rate_stop PAPI_flops PAPI_flips PAPI_num_counters
 * PAPI_start_counters PAPI_read_counters PAPI_accum_counters PAPI_stop_counters */
#include <papi.h>
#include <stdio.h>

static volatile double sink;

static void work(void)
{
    for (int i = 0; i < 1000000; i++)
        sink += i * 0.5;
}

int main(void)
{
    float rtime, ptime, mflops;
    long long flpops, counts[1];
    int events[1] = {PAPI_TOT_INS};
    PAPI_hl_region_begin("compute");    /* PAPI_EVENTS chooses the events; report at exit */
    work();
    PAPI_hl_read("compute");
    PAPI_hl_region_end("compute");
    PAPI_hl_stop();
    int ret = PAPI_flops_rate(PAPI_FP_OPS, &rtime, &ptime, &flpops, &mflops);
    if (ret == PAPI_OK) {
        work();
        PAPI_flops_rate(PAPI_FP_OPS, &rtime, &ptime, &flpops, &mflops);
        printf("%lld floating-point operations, %.1f Mflop/s\n", flpops, mflops);
        PAPI_rate_stop();
    } else {
        PAPI_perror("PAPI_flops_rate");  /* says why, e.g. no hardware counters */
    }
    printf("%d counters\n", PAPI_num_counters());
    if (PAPI_start_counters(events, 1) == PAPI_OK) {
        work();
        PAPI_read_counters(counts, 1);
        PAPI_stop_counters(counts, 1);
        printf("%lld instructions\n", counts[0]);
    } else {
        PAPI_perror("PAPI_start_counters");
    }
    return 0;
}
