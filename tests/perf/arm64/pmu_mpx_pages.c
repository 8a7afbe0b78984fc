/* pmu_mpx_pages: no perf_event page is mapped for events that are never read from user
 * space (issue 34). With kernel.perf_user_access=1 a plain set's hardware events each
 * get their page (PAPI_read reads them with mrs), but a multiplexed set is read with
 * read() only: its 8 events must map none (each mapped page made the arm64 kernel clear
 * the unused counters at every enable and disable: multiplexed stop + start cost 1.13x
 * PAPI 7.0's). Counted as the process's "[perf_event]" mappings in /proc/self/maps.
 * Prints the guest instructions of a multiplexed stop + start (CNTVCT, kernel included). */
#include <stdint.h>

#include "pmu_hw.h"

#define MPX_EVENTS 8

static const char *const names[] = {
    "INST_RETIRED",     "CPU_CYCLES",       "BRANCH_PRED",      "BRANCH_MISPRED",
    "BR_PRED",          "BR_MIS_PRED",      "L1I_CACHE_REFILL", "L1I_TLB_REFILL",
    "L1D_CACHE_REFILL", "L1D_CACHE_ACCESS", "L1D_CACHE",        "L1D_TLB_REFILL",
};

static int perf_mappings(void)
{
    char line[512];
    int n = 0;
    FILE *f = fopen("/proc/self/maps", "r");
    CHECK(f != NULL, "cannot open /proc/self/maps");
    while (f && fgets(line, sizeof line, f))
        n += strstr(line, "[perf_event]") != NULL;
    if (f)
        fclose(f);
    return n;
}

/* A set of the first n events of names the library adds; multiplexed when mpx. */
static int set_of(int n, int mpx)
{
    int es = PAPI_NULL, added = 0;
    CHECK_RET(PAPI_create_eventset(&es), PAPI_OK);
    if (mpx) {
        CHECK_RET(PAPI_assign_eventset_component(es, 0), PAPI_OK);
        CHECK_RET(PAPI_set_multiplex(es), PAPI_OK);
    }
    for (size_t i = 0; i < sizeof names / sizeof names[0] && added < n; i++)
        added += PAPI_add_named_event(es, names[i]) == PAPI_OK;
    CHECK(added == n, "only %d of %d events were added", added, n);
    return es;
}

/* Guest instructions (kernel included) of the least of 9 stop + start pairs. */
static double stop_start_cost(int es)
{
    long long v[MPX_EVENTS];
    uint64_t best = UINT64_MAX;
    for (int k = 0; k < 9; k++) {
        uint64_t a = pmu_vcount();
        PAPI_stop(es, v);
        PAPI_start(es);
        uint64_t d = pmu_vcount() - a;
        if (d < best)
            best = d;
    }
    return (double)best * pmu_insns_per_tick();
}

int main(void)
{
    CHECK_RET(PAPI_library_init(PAPI_VER_CURRENT), PAPI_VER_CURRENT);
    pmu_require_hw();
    if (!PAPI_get_component_info(0)->fast_counter_read)
        test_skip("kernel.perf_user_access is 0: no event maps a page for user reads (the "
                  "lane's a57ua boot has it)");
    CHECK_RET(PAPI_multiplex_init(), PAPI_OK);
    int before = perf_mappings();

    int plain = set_of(2, 0);
    int with_plain = perf_mappings() - before;
    CHECK(with_plain == 2, "a plain set of 2 hardware events maps %d pages, want 2", with_plain);
    pmu_free_set(&plain);

    int mpx = set_of(MPX_EVENTS, 1);
    int with_mpx = perf_mappings() - before;
    CHECK(with_mpx == 0,
          "a multiplexed set of %d events maps %d pages, want 0 (none is read "
          "from user space)",
          MPX_EVENTS, with_mpx);
    CHECK_RET(PAPI_start(mpx), PAPI_OK);
    double cost = stop_start_cost(mpx);
    CHECK_RET(PAPI_stop(mpx, NULL), PAPI_OK);
    pmu_free_set(&mpx);
    printf("perf_event pages mapped: plain set of 2 events %d, multiplexed set of %d events %d; "
           "multiplexed stop + start %.0f guest instructions\n",
           with_plain, MPX_EVENTS, with_mpx, cost);
    PAPI_shutdown();
    return test_done("pmu_mpx_pages");
}
