/* sysfs_inst_retired (PMU lane): the kernel's sysfs name of an event
 * (<core pmu>::inst_retired, <core pmu>::cpu_cycles) and its raw forms
 * (<pmu>::event=0x08, <pmu>::r8) count exactly what libpfm4's name counts over the same
 * loop, user-only, in the guest's emulated PMU. The core PMU's sysfs name is found in
 * /sys/bus/event_source/devices (armv8_pmuv3_0 or armv8_cortex_a57 by kernel). */
#include <dirent.h>

#include "pmu_hw.h"

#define N 100000L

/* The user-only count of one event over pmu_loop(n). */
static long long count_one(const char *name, long n)
{
    const char *names[] = {name};
    int es = pmu_set_of(names, 1);
    long long v = -1;
    if (PAPI_start(es) != PAPI_OK)
        exit(1);
    pmu_loop(n);
    if (PAPI_stop(es, &v) != PAPI_OK)
        exit(1);
    PAPI_cleanup_eventset(es);
    PAPI_destroy_eventset(&es);
    return v;
}

static int core_pmu(char *out, size_t len)
{
    DIR *d = opendir("/sys/bus/event_source/devices");
    struct dirent *de;
    int found = 0;
    while (d && !found && (de = readdir(d))) {
        char path[512];
        snprintf(path, sizeof path, "/sys/bus/event_source/devices/%s/events/inst_retired",
                 de->d_name);
        if (de->d_name[0] != '.' && access(path, R_OK) == 0) {
            snprintf(out, len, "%s", de->d_name);
            found = 1;
        }
    }
    if (d)
        closedir(d);
    return found;
}

/* Every spelling counts the same over the same loop, and 2n - n is exactly 2n insns. */
static void compare(const char *what, const char *const *names, int k, long long per_iter)
{
    long long first = 0;
    for (int i = 0; i < k; i++) {
        long long a = count_one(names[i], N), b = count_one(names[i], 2 * N);
        printf("%-14s %-36s %lld (n) %lld (2n)\n", what, names[i], a, b);
        CHECK(b - a == per_iter * N, "%s: 2n - n = %lld, want %lld", names[i], b - a, per_iter * N);
        if (i == 0)
            first = a;
        else
            CHECK(a == first, "%s counts %lld, %s counts %lld", names[i], a, names[0], first);
    }
}

int main(void)
{
    init_or_die();
    pmu_require_hw();
    const char *pfm = getenv("PMU_EXPECT_PMU");
    char pmu[256];
    if (!pfm || !core_pmu(pmu, sizeof pmu))
        test_skip("no libpfm4 PMU name in PMU_EXPECT_PMU or no sysfs core PMU with inst_retired");
    char lp[128], sy[320], raw[320], rx[320];
    snprintf(lp, sizeof lp, "%s::INST_RETIRED", pfm);
    snprintf(sy, sizeof sy, "%s::inst_retired", pmu);
    snprintf(raw, sizeof raw, "%s::event=0x08", pmu); /* architected INST_RETIRED */
    snprintf(rx, sizeof rx, "%s::r8", pmu);
    const char *ins[] = {lp, sy, raw, rx};
    /* The first count of a process also takes the dynamic linker's first resolution of
     * the calls between start and stop (user instructions): count once before comparing. */
    (void)count_one(lp, N);
    compare("instructions", ins, 4, PMU_LOOP_INSNS);

    /* Cycles: CPU_CYCLES = 2^shift instructions under icount. */
    char lc[128], sc[320], rc[320];
    snprintf(lc, sizeof lc, "%s::CPU_CYCLES", pfm);
    snprintf(sc, sizeof sc, "%s::cpu_cycles", pmu);
    snprintf(rc, sizeof rc, "%s::event=0x11", pmu);
    const char *cyc[] = {lc, sc, rc};
    compare("cycles", cyc, 3, (long long)PMU_LOOP_INSNS << pmu_icount_shift());
    PAPI_shutdown();
    return test_done("sysfs_inst_retired");
}
