/* Exact page-fault counts with 1, 2 and 4 events in one set (one perf group). */
#include "papi_test.h"

static const char *names[4] = {"perf::PAGE-FAULTS", "perf::MINOR-FAULTS", "perf::FAULTS",
                               "perf::PERF_COUNT_SW_PAGE_FAULTS"};

static void run(int nevents, long pages)
{
    int es = PAPI_NULL;
    long long v[4] = {0};
    CHECK_RET(PAPI_create_eventset(&es), PAPI_OK);
    for (int i = 0; i < nevents; i++)
        CHECK_RET(PAPI_add_named_event(es, names[i]), PAPI_OK);
    CHECK_EQ_LL(PAPI_num_events(es), nevents);
    warm_up();
    CHECK_RET(PAPI_start(es), PAPI_OK);
    touch_pages(pages);
    CHECK_RET(PAPI_stop(es, v), PAPI_OK);
    for (int i = 0; i < nevents; i++) {
        CHECK(v[i] == pages, "%d events, %s: %lld page faults, want %ld", nevents, names[i], v[i],
              pages);
    }
    printf("%d event(s), %ld pages:", nevents, pages);
    for (int i = 0; i < nevents; i++)
        printf(" %lld", v[i]);
    printf("\n");
    free_set(&es);
    CHECK_EQ_LL(es, PAPI_NULL);
}

int main(void)
{
    init_or_die();
    for (int n = 1; n <= 4; n *= 2) {
        run(n, 1000);
        run(n, 37);
    }
    PAPI_shutdown();
    return test_done("test_exact_counts");
}
