/* Example: the high-level calls: regions (PAPI 7), rates, and the 3.5 counter calls.
 * work(n) touches n fresh pages (n page faults) around a little arithmetic; with the
 * preset table of tests/highlevel/test_events.csv (PAPI_CSV_EVENT_FILE), which maps the
 * presets onto page faults, every count below is exact on any machine; without it, a
 * machine without a hardware PMU has no PAPI_FP_OPS and the rate calls say so.
 * Shows: PAPI_hl_region_begin PAPI_hl_read PAPI_hl_region_end PAPI_hl_stop
 * PAPI_flops_rate PAPI_flips_rate PAPI_ipc PAPI_epc PAPI_rate_stop PAPI_flops
 * PAPI_flips PAPI_num_counters PAPI_start_counters PAPI_read_counters
 * PAPI_accum_counters PAPI_stop_counters */
#include <papi.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

static volatile double sink;

static void work(long n)
{
    long page = sysconf(_SC_PAGESIZE);
    char *p = mmap(NULL, n * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        exit(1);
    madvise(p, n * page, MADV_NOHUGEPAGE); /* 4 KiB pages even with THP "always" */
    for (long i = 0; i < n; i++) {
        p[i * page] = 1;
        sink += i * 0.5;
    }
    munmap(p, n * page);
}

/* A call that fails: PAPI_ENOEVNT (the event cannot be counted here) is told and skipped,
 * anything else ends the program. */
static int counted(int ret, const char *call)
{
    if (ret == PAPI_OK)
        return 1;
    PAPI_perror(call);
    if (ret != PAPI_ENOEVNT)
        exit(1);
    printf("%s: not counted here\n", call);
    return 0;
}

int main(void)
{
    float rtime, ptime, rate;
    long long ops, ref, core, evt, counts[2], more[2] = {0, 0}, last[2];
    int events[2] = {PAPI_TOT_INS, PAPI_TOT_CYC};

    /* Regions: the events of PAPI_EVENTS, a report per process at exit (or PAPI_hl_stop)
     * under PAPI_OUTPUT_DIRECTORY/papi_hl_output. */
    if (PAPI_hl_region_begin("compute") != PAPI_OK)
        return 1;
    work(100);
    if (PAPI_hl_read("compute") != PAPI_OK) /* a value midway, kept in the report */
        return 1;
    work(50);
    if (PAPI_hl_region_end("compute") != PAPI_OK || PAPI_hl_stop() != PAPI_OK)
        return 1;
    printf("region compute: measured\n");

    /* Rates: the first call starts counting, each later one returns the totals. */
    if (counted(PAPI_flops_rate(PAPI_FP_OPS, &rtime, &ptime, &ops, &rate), "PAPI_flops_rate")) {
        work(100);
        if (PAPI_flops_rate(PAPI_FP_OPS, &rtime, &ptime, &ops, &rate) != PAPI_OK)
            return 1;
        printf("PAPI_flops_rate: %lld operations\n", ops);
        PAPI_rate_stop();
    }
    if (counted(PAPI_flips_rate(PAPI_FP_INS, &rtime, &ptime, &ops, &rate), "PAPI_flips_rate")) {
        work(60);
        if (PAPI_flips_rate(PAPI_FP_INS, &rtime, &ptime, &ops, &rate) != PAPI_OK)
            return 1;
        printf("PAPI_flips_rate: %lld instructions\n", ops);
        PAPI_rate_stop();
    }
    if (counted(PAPI_ipc(&rtime, &ptime, &ops, &rate), "PAPI_ipc")) {
        work(80);
        if (PAPI_ipc(&rtime, &ptime, &ops, &rate) != PAPI_OK)
            return 1;
        printf("PAPI_ipc: %lld instructions, %.2f per cycle\n", ops, rate);
        PAPI_rate_stop();
    }
    if (counted(PAPI_epc(PAPI_FP_OPS, &rtime, &ptime, &ref, &core, &evt, &rate), "PAPI_epc")) {
        work(40);
        if (PAPI_epc(PAPI_FP_OPS, &rtime, &ptime, &ref, &core, &evt, &rate) != PAPI_OK ||
            PAPI_rate_stop() != PAPI_OK)
            return 1;
        printf("PAPI_epc: %lld events, %lld cycles, %lld reference cycles\n", evt, core, ref);
    }

    /* The 3.5 calls: PAPI_flops and PAPI_flips, ended by PAPI_stop_counters. */
    if (counted(PAPI_flops(&rtime, &ptime, &ops, &rate), "PAPI_flops")) {
        work(30);
        if (PAPI_flops(&rtime, &ptime, &ops, &rate) != PAPI_OK)
            return 1;
        printf("PAPI_flops: %lld operations\n", ops);
        PAPI_stop_counters(NULL, 0);
    }
    if (counted(PAPI_flips(&rtime, &ptime, &ops, &rate), "PAPI_flips")) {
        work(20);
        if (PAPI_flips(&rtime, &ptime, &ops, &rate) != PAPI_OK)
            return 1;
        printf("PAPI_flips: %lld instructions\n", ops);
        PAPI_stop_counters(NULL, 0);
    }
    printf("%d hardware counters\n", PAPI_num_counters());
    if (counted(PAPI_start_counters(events, 2), "PAPI_start_counters")) {
        work(10);
        if (PAPI_read_counters(counts, 2) != PAPI_OK) /* read, and restart from zero */
            return 1;
        work(10);
        if (PAPI_accum_counters(more, 2) != PAPI_OK) /* add to more, restart */
            return 1;
        work(10);
        if (PAPI_stop_counters(last, 2) != PAPI_OK)
            return 1;
        printf("PAPI_start_counters: %lld, %lld, %lld instructions\n", counts[0], more[0], last[0]);
    }
    return 0;
}
