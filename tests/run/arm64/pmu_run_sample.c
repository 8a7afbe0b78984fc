/* pmu_run_sample (arm64 PMU lane; also built on the host, where it skips without a PMU):
 * papi_run --sample PAPI_TOT_INS@1000003 (INST_RETIRED on arm64, the hardware's instructions) of
 * this program again ("loop": a kernel of exactly 2 x LOOP user instructions in
 * hot_loop(), after a short cold_loop() of 3 x LOOP / 20). In profile.folded, weighted by
 * the sampled event (each sample stands for its period), the stacks ending in hot_loop
 * hold 2 x LOOP instructions within 5%, those ending in cold_loop 3 x LOOP / 20 within
 * 20%, and the heaviest stack ends in hot_loop; the banner's sample count x N equals the
 * file's total weight (every sample one period). papi_run and its sampling library
 * (libpapi_run_sample.so, which needs libdw) are staged beside the test programs by
 * scripts/pmu-lane.sh; PMU_PAPI_RUN names papi_run elsewhere (the host's ctest). */
#include <stdio.h>
#include <string.h>

#include "exact_loop.h"
#include "lane_sample.h"

#define LOOP 50000000L
/* A sample per million instructions: at 100003 the guest kept 448 samples of 1160 (QEMU
 * raises the overflow interrupt late, one sample per interrupt), at 1000003 109 of 116. */
#define PERIOD 1000003
#define OUTDIR "/tmp/pmu_run_sample"

/* Exactly 2 x n user instructions inside the asm (a subtract and a branch). */
static __attribute__((noinline)) void hot_loop(long n)
{
    EXACT_LOOP_2(n);
}

/* Exactly 3 x n (a nop more: the compiler cannot fold it into hot_loop). */
static __attribute__((noinline)) void cold_loop(long n)
{
    EXACT_LOOP_3(n);
}

/* The banner's sample count: "top functions, self share of ... (N samples, ...)". */
static void banner_samples(const char *line, void *ctx)
{
    const char *open = strrchr(line, '(');
    if (strstr(line, "top functions, self share of") && strstr(line, "samples, ") && open)
        sscanf(open, "(%llu samples", (unsigned long long *)ctx);
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "loop") == 0) {
        cold_loop(LOOP / 20);
        hot_loop(LOOP);
        return 0;
    }
    lane_need_instructions();
    char options[64], line[8192];
    snprintf(options, sizeof options, "--sample PAPI_TOT_INS@%d --call-graph fp", PERIOD);
    unsigned long long samples = 0;
    if (lane_sample(options, OUTDIR, argv[0], "loop", banner_samples, &samples) < 0)
        return test_done("pmu_run_sample");
    FILE *f = fopen(OUTDIR "/papi_run_output/profile.folded", "r");
    CHECK(f != NULL, "no %s/papi_run_output/profile.folded", OUTDIR);
    if (!f)
        return test_done("pmu_run_sample");
    unsigned long long hot = 0, cold = 0, total = 0, top = 0;
    char top_leaf[256] = "";
    while (fgets(line, sizeof line, f)) {
        const char *leaf;
        unsigned long long w;
        if (!lane_folded_line(line, &leaf, &w))
            continue;
        total += w;
        hot += lane_is_function(leaf, "hot_loop") ? w : 0;
        cold += lane_is_function(leaf, "cold_loop") ? w : 0;
        if (w > top) {
            top = w;
            snprintf(top_leaf, sizeof top_leaf, "%.255s", leaf);
        }
    }
    fclose(f);
    double want = 2.0 * LOOP, cwant = 3.0 * (LOOP / 20);
    printf("pmu_run_sample: %llu samples x %d = %llu; profile.folded: total %llu, hot_loop %llu "
           "(%.2f%% of %.0f), cold_loop %llu (%.2f%% of %.0f); heaviest stack ends in %s\n",
           samples, PERIOD, samples * PERIOD, total, hot, 100.0 * (double)hot / want, want, cold,
           100.0 * (double)cold / cwant, cwant, top_leaf);
    CHECK(samples > 0 && samples * PERIOD == total,
          "samples x period %llu != the folded total %llu", samples * PERIOD, total);
    CHECK(hot >= want * 0.95 && hot <= want * 1.05, "hot_loop %llu, want %.0f +- 5%%", hot, want);
    /* cold_loop holds about 7.5 samples: a function's share is whole periods, and the
     * interrupt lands past the sampled instruction (skid), across a loop's end now and
     * then: 20 % or 3 periods, whichever is more (CI's n1 boot once gave 5 samples) */
    double ctol = cwant * 0.2 > 3.0 * PERIOD ? cwant * 0.2 : 3.0 * PERIOD;
    CHECK(cold >= cwant - ctol && cold <= cwant + ctol, "cold_loop %llu, want %.0f +- %.0f", cold,
          cwant, ctol);
    CHECK(lane_is_function(top_leaf, "hot_loop"), "the heaviest stack ends in %s, not hot_loop",
          top_leaf);
    return test_done("pmu_run_sample");
}
