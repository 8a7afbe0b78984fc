/* pmu_hw.h: what the arm64 hardware tests share. They run inside the pmu-vm guest
 * (QEMU, emulated Cortex-A57 / Neoverse-N1 PMUv3, -icount), where user-only counts of
 * INST_RETIRED and CPU_CYCLES are exact and CPU_CYCLES = 2^shift x INST_RETIRED. */
#ifndef PMU_HW_H
#define PMU_HW_H

#if !defined(__aarch64__)
#error "the PMU lane tests are aarch64 programs (cross-built by scripts/pmu-lane.sh)"
#endif

#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exact_loop.h"
#include "papi_test.h"

/* Instructions per iteration of pmu_loop: subs + b.ne. */
#define PMU_LOOP_INSNS 2

/* Exactly PMU_LOOP_INSNS * n user instructions inside the asm, plus the call. */
static __attribute__((noinline, unused)) void pmu_loop(long n)
{
    EXACT_LOOP_2(n);
}

/* The -icount shift the lane booted the guest with (run-arm64 --icount shift=N). */
static inline int pmu_icount_shift(void)
{
    const char *s = getenv("PMU_ICOUNT_SHIFT");
    return s ? atoi(s) : 4;
}

/* Skip (exit 77) when this machine has no usable hardware PMU: only the guest has one. */
static inline void pmu_require_hw(void)
{
    if (PAPI_num_hwctrs() <= 0) {
        const PAPI_component_info_t *ci = PAPI_get_component_info(0);
        char why[PAPI_HUGE_STR_LEN + 32];
        snprintf(why, sizeof why, "no hardware counters: %s",
                 ci && ci->disabled_reason[0] ? ci->disabled_reason : "PAPI_num_hwctrs() <= 0");
        test_skip(why);
    }
}

/* Every guest instruction (kernel included) as virtual-counter ticks: under -icount each
 * instruction advances virtual time by 2^shift ns (pmu_insns_per_tick converts). */
static inline __attribute__((unused)) uint64_t pmu_vcount(void)
{
    uint64_t v;
    __asm__ __volatile__("isb; mrs %0, cntvct_el0" : "=r"(v)::"memory");
    return v;
}

static inline __attribute__((unused)) double pmu_insns_per_tick(void)
{
    uint64_t freq;
    __asm__ __volatile__("mrs %0, cntfrq_el0" : "=r"(freq));
    return 1e9 / (double)freq / (double)(1 << pmu_icount_shift());
}

/* config1 bit of the "rdpmc" format (arm64 user access) of the first PMU under sysfs
 * that has one (the CPU PMU, whatever its name), or -1. */
static inline __attribute__((unused)) int pmu_rdpmc_bit(void)
{
    DIR *d = opendir("/sys/bus/event_source/devices");
    int bit = -1;
    for (struct dirent *e; d && bit < 0 && (e = readdir(d));) {
        char p[512];
        snprintf(p, sizeof p, "/sys/bus/event_source/devices/%s/format/rdpmc", e->d_name);
        FILE *f = fopen(p, "r");
        if (f) {
            if (fscanf(f, "config1:%d", &bit) != 1)
                bit = -1;
            fclose(f);
        }
    }
    if (d)
        closedir(d);
    return bit;
}

/* A new event set holding the named native events, in that order; exits on failure. */
static inline int pmu_set_of(const char *const *names, int n)
{
    int es = PAPI_NULL;
    if (PAPI_create_eventset(&es) != PAPI_OK) {
        fprintf(stderr, "PAPI_create_eventset failed\n");
        exit(1);
    }
    for (int i = 0; i < n; i++) {
        int r = PAPI_add_named_event(es, names[i]);
        if (r != PAPI_OK) {
            fprintf(stderr, "PAPI_add_named_event(%s): %s\n", names[i], PAPI_strerror(r));
            exit(1);
        }
    }
    return es;
}

/* INST_RETIRED first, then up to max - 1 other events of the core PMU that need an
 * event counter (QEMU counts only INST_RETIRED and CPU_CYCLES; the others open and read
 * 0). Returns how many. */
static inline int pmu_counter_events(char names[][PAPI_MAX_STR_LEN], int max)
{
    int n = 0, code = PAPI_NATIVE_MASK;
    snprintf(names[n++], PAPI_MAX_STR_LEN, "INST_RETIRED");
    if (PAPI_enum_event(&code, PAPI_ENUM_FIRST) != PAPI_OK)
        return n;
    do {
        char nm[PAPI_MAX_STR_LEN];
        if (PAPI_event_code_to_name(code, nm) != PAPI_OK || strncmp(nm, "arm_", 4) != 0)
            continue;
        if (strstr(nm, "CPU_CYCLES") || strstr(nm, "INST_RETIRED") || strstr(nm, "CHAIN"))
            continue;
        snprintf(names[n++], PAPI_MAX_STR_LEN, "%s", nm);
    } while (n < max && PAPI_enum_event(&code, PAPI_ENUM_EVENTS) == PAPI_OK);
    return n;
}

/* The OMPT tool an OpenMP hardware test runs its child under: PMU_PAPI_OMPT, else
 * lib/libpapi_ompt.so beside the lane's bin/ (the folder of self, this program's path;
 * staged by scripts/pmu-lane.sh). */
static inline __attribute__((unused)) void pmu_ompt_tool(const char *self, char *tool,
                                                         size_t len)
{
    const char *named = getenv("PMU_PAPI_OMPT");
    const char *slash = strrchr(self, '/');
    if (named && *named)
        snprintf(tool, len, "%s", named);
    else if (slash)
        snprintf(tool, len, "%.*s/../lib/libpapi_ompt.so", (int)(slash - self), self);
    else
        snprintf(tool, len, "./../lib/libpapi_ompt.so");
}

static inline void pmu_free_set(int *es)
{
    PAPI_cleanup_eventset(*es);
    PAPI_destroy_eventset(es);
}

#endif
