/* hl_ipc_flops_loop (arm64 lane): the high-level calls on real counters. PAPI_ipc over
 * the known loop is exactly 1/2^shift (QEMU icount: every user instruction takes 2^shift
 * cycles), and PAPI_flops_rate with PAPI_FP_OPS mapped onto INST_RETIRED by a test CSV
 * counts the loop exactly: two loop lengths differ by exactly 2 x (n2 - n1). */
#include <math.h>

#include <stdlib.h>

#include "pmu_hw.h"

static void write_test_csv(const char *path)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        perror(path);
        exit(1);
    }
    fputs("# test table: FP operations counted as retired instructions\n"
          "CPU,arm_ac57\nCPU,arm_n1\n"
          "PRESET,PAPI_FP_OPS,NOT_DERIVED,INST_RETIRED\n"
          "PRESET,PAPI_TOT_INS,NOT_DERIVED,INST_RETIRED\n"
          "PRESET,PAPI_TOT_CYC,NOT_DERIVED,CPU_CYCLES\n",
          f);
    fclose(f);
}

static long long flops_over(long n)
{
    float rt, pt, mflops;
    long long ops0 = 0, ops1 = 0;
    CHECK_RET(PAPI_flops_rate(PAPI_FP_OPS, &rt, &pt, &ops0, &mflops), PAPI_OK);
    pmu_loop(n);
    CHECK_RET(PAPI_flops_rate(PAPI_FP_OPS, &rt, &pt, &ops1, &mflops), PAPI_OK);
    CHECK_RET(PAPI_rate_stop(), PAPI_OK);
    return ops1 - ops0;
}

int main(void)
{
    write_test_csv("/tmp/hl_arm64_events.csv");
    setenv("PAPI_CSV_EVENT_FILE", "/tmp/hl_arm64_events.csv", 1);
    init_or_die();
    pmu_require_hw();
    const int shift = pmu_icount_shift();

    float rt, pt, ipc;
    long long ins = 0;
    CHECK_RET(PAPI_ipc(&rt, &pt, &ins, &ipc), PAPI_OK); /* first call starts */
    pmu_loop(1000000);
    CHECK_RET(PAPI_ipc(&rt, &pt, &ins, &ipc), PAPI_OK);
    const float want = 1.0f / (float)(1 << shift);
    if (!PAPI_get_component_info(0)->fast_counter_read)
        CHECK(ipc == want, "PAPI_ipc %.9f, want exactly %.9f (1/2^%d)", ipc, want, shift);
    else /* user-space reads: cycles also count the few instructions between the two
            counter reads (fewer than 200 of the 2M) */
        CHECK(ipc <= want && ipc >= want * (1.0f - 1e-4f), "PAPI_ipc %.9f, want %.9f (1/2^%d) "
              "less at most 1e-4", ipc, want, shift);
    /* plus the instructions of the two calls themselves (about 3.5k measured) */
    CHECK(ins >= 2000000 && ins < 2000000 + 10000, "instructions %lld", ins);
    printf("hl_ipc_flops_loop: PAPI_ipc=%.9f (1/%d) over %lld instructions\n", ipc, 1 << shift, ins);
    long long dummy[2];
    CHECK_RET(PAPI_stop_counters(dummy, 2), PAPI_OK);

    flops_over(10); /* warm-up */
    long long a = flops_over(1000), b = flops_over(301000);
    if (!PAPI_get_component_info(0)->fast_counter_read)
        CHECK(b - a == 2LL * 300000, "FP_OPS(301000) - FP_OPS(1000) = %lld, want exactly %lld",
              b - a, 2LL * 300000);
    else /* user-space reads: a read retried because the kernel updated the counter's page
            meanwhile (a tick in the longer loop) adds its few instructions to one side */
        CHECK(llabs(b - a - 2LL * 300000) < 200, "FP_OPS(301000) - FP_OPS(1000) = %lld, want %lld "
              "within the instructions of a retried user read (< 200)", b - a, 2LL * 300000);
    /* plus the user instructions of one PAPI_flops_rate call (534 measured) */
    CHECK(a >= 2000 && a < 2000 + 2000, "FP_OPS over 1000 iterations: %lld (loop 2000 + the call)", a);
    printf("hl_ipc_flops_loop: PAPI_flops_rate FP_OPS n=1000 -> %lld, n=301000 -> %lld\n", a, b);
    return test_done("hl_ipc_flops_loop");
}
