/* pmu_sample_kernels (arm64 PMU lane, issue 48): papi_run --sample PAPI_TOT_INS:u@PERIOD
 * (INST_RETIRED, user mode only: each sample stands for exactly PERIOD of the program's
 * own instructions) over three of papi_validate's kernels of known instruction counts
 * (int_adds, branches, loads_stores: validate_kernels_arm64.c, linked in), which this
 * program runs one after the other ("kernels"), sized to 2, 3 and 4 x UNIT instructions.
 * In profile.folded (--call-graph fp; a stack's last frame is the function the sample
 * is in; a sample whose interrupt came while the kernel ran, in a system call or a
 * timer's interrupt, is the user code's the kernel was entered from):
 *  - the samples in the three kernels number their known total / PERIOD +- 1;
 *  - each kernel's share of those samples is its share of the known total within 1
 *    point, and its samples x PERIOD its known count within 1% (+ one sample).
 * PERIOD is above what QEMU delays an event counter's overflow interrupt (to the next
 * timer tick: 250,000 instructions at icount shift 4, 1,000,000 at shift 2), so the
 * kernel carries each overshoot into the next period and loses no sample; the delay
 * moves at most one sample across each kernel's boundary. */
#include <stdio.h>
#include <string.h>

#include "lane_sample.h"
#include "validate_kernels.h"

#define PERIOD  2000003
#define UNIT    100000000.0 /* instructions */
#define OUTDIR  "/tmp/pmu_sample_kernels"
#define NKERNEL 3

static const char *const names[NKERNEL] = {"int_adds", "branches", "loads_stores"};
static const double units[NKERNEL] = {2, 3, 4};

static const struct vk_kernel *kernel(const char *name)
{
    int n;
    const struct vk_kernel *k = vk_isa_kernels(&n);
    for (int i = 0; i < n; i++)
        if (strcmp(k[i].name, name) == 0)
            return &k[i];
    return NULL;
}

/* Iterations of kernel i for its share, and the instructions they retire (known). */
static long iterations(int i, double *known)
{
    const struct vk_kernel *k = kernel(names[i]);
    double per = k ? vk_expected_per_iter(k, "PAPI_TOT_INS") : 0;
    long n = per > 0 ? (long)(units[i] * UNIT / per) : 0;
    *known = (double)n * per;
    return n;
}

static void user_note(const char *line, void *ctx)
{
    *(int *)ctx |= strstr(line, "user mode only (:u)") != NULL;
}

int main(int argc, char **argv)
{
    double known[NKERNEL], total = 0;
    long iters[NKERNEL];
    for (int i = 0; i < NKERNEL; i++) {
        iters[i] = iterations(i, &known[i]);
        total += known[i];
    }
    if (argc > 1 && strcmp(argv[1], "kernels") == 0) {
        for (int i = 0; i < NKERNEL; i++)
            kernel(names[i])->run(iters[i]);
        return 0;
    }
    for (int i = 0; i < NKERNEL; i++)
        CHECK(iters[i] > 0, "papi_validate has no kernel %s with a known PAPI_TOT_INS", names[i]);
    lane_need_instructions();
    char options[64], line[8192];
    snprintf(options, sizeof options, "--sample PAPI_TOT_INS:u@%d --call-graph fp", PERIOD);
    int said = 0;
    if (lane_sample(options, OUTDIR, argv[0], "kernels", user_note, &said) < 0)
        return test_done("pmu_sample_kernels");
    CHECK(said, "the banner does not say user mode only");
    FILE *f = fopen(OUTDIR "/papi_run_output/profile.folded", "r");
    CHECK(f != NULL, "no %s/papi_run_output/profile.folded", OUTDIR);
    if (!f)
        return test_done("pmu_sample_kernels");
    unsigned long long got[NKERNEL] = {0}, in = 0, all = 0;
    while (fgets(line, sizeof line, f)) {
        const char *leaf;
        unsigned long long w;
        if (!lane_folded_line(line, &leaf, &w))
            continue;
        all += w / PERIOD;
        for (int i = 0; i < NKERNEL; i++)
            if (lane_is_function(leaf, names[i])) {
                got[i] += w / PERIOD; /* the weight: PERIOD a sample */
                in += w / PERIOD;
            }
    }
    fclose(f);
    double want = total / PERIOD;
    printf("pmu_sample_kernels: %llu samples of %d instructions in the kernels (%llu in all), "
           "known total %.0f / %d = %.2f\n",
           in, PERIOD, all, total, PERIOD, want);
    CHECK(in > 0 && (double)in >= want - 1 && (double)in <= want + 1,
          "samples in the kernels %llu, want %.2f +- 1", in, want);
    for (int i = 0; i < NKERNEL; i++) {
        double share = in ? 100.0 * (double)got[i] / (double)in : 0;
        double kshare = 100.0 * known[i] / total;
        double counted = (double)got[i] * PERIOD;
        printf("  %-13s %4llu samples = %.0f instructions, known %.0f (%+.2f%%); share %.2f%%, "
               "known %.2f%%\n",
               names[i], got[i], counted, known[i], 100.0 * (counted - known[i]) / known[i], share,
               kshare);
        CHECK(share >= kshare - 1 && share <= kshare + 1, "%s: share %.2f%%, known %.2f%% +- 1",
              names[i], share, kshare);
        CHECK(counted >= known[i] * 0.99 - PERIOD && counted <= known[i] * 1.01 + PERIOD,
              "%s: %.0f instructions sampled, known %.0f +- 1%% (+ one sample)", names[i], counted,
              known[i]);
    }
    return test_done("pmu_sample_kernels");
}
