/* Two overflowing events in one set: PAGE-FAULTS every 100 (position 0) and
 * MINOR-FAULTS every 250 (position 1) over 1000 fresh pages give 10 calls with bit 0x1
 * and 4 with bit 0x2; turning one off leaves the other. */
#include "papi_test.h"
#include "touch_sections.h"

#include <sys/resource.h>

TOUCH_FN(touch_fresh, "ovf_touch_f")

static volatile int bit0, bit1, other;

static void handler(int EventSet, void *address, long long overflow_vector, void *context)
{
    (void)EventSet;
    (void)address;
    (void)context;
    if (overflow_vector & 0x1)
        bit0++;
    if (overflow_vector & 0x2)
        bit1++;
    if (overflow_vector & ~0x3LL)
        other++;
}

static long long major_faults(void)
{
    struct rusage ru;
    return getrusage(RUSAGE_SELF, &ru) == 0 ? ru.ru_majflt : 0;
}

/* PAGE-FAULTS counts major faults too: a page of code or library read back from disk
 * while the machine is short of memory. Those the process took during the run (rusage)
 * may add to the 1000 fresh pages, nothing else may. */
static long long majors;

static void run(int es, long long pages, long long *v)
{
    bit0 = bit1 = other = 0;
    long long before = major_faults();
    CHECK_RET(PAPI_start(es), PAPI_OK);
    touch_fresh(pages);
    CHECK_RET(PAPI_stop(es, v), PAPI_OK);
    majors = major_faults() - before;
}

#define CHECK_PAGE_FAULTS(got, want)                                                            \
    do {                                                                                        \
        CHECK((got) >= (want) && (got) <= (want) + majors, "got %lld, want %lld (+%lld major)", \
              (long long)(got), (long long)(want), majors);                                     \
        if (majors)                                                                             \
            printf("PAGE-FAULTS %lld with %lld major faults in the run\n", (got), majors);      \
    } while (0)

int main(void)
{
    init_or_die();
    int es = PAPI_NULL, pf, minor;
    page_fault_set(&es);
    minor = add_or_skip(es, "perf::MINOR-FAULTS");
    CHECK_RET(PAPI_event_name_to_code("perf::PAGE-FAULTS", &pf), PAPI_OK);
    CHECK_RET(PAPI_overflow(es, pf, 100, 0, handler), PAPI_OK);
    CHECK_RET(PAPI_overflow(es, minor, 250, 0, handler), PAPI_OK);
    warm_up();

    long long v[2];
    run(es, 1000, v);
    CHECK_PAGE_FAULTS(v[0], 1000);
    CHECK_EQ_LL(v[1], 1000);
    CHECK_EQ_LL(bit0, 10);
    CHECK_EQ_LL(bit1, 4);
    CHECK_EQ_LL(other, 0);
    printf("both: bit0 %d, bit1 %d\n", bit0, bit1);

    /* A new threshold on a running-later set takes effect. */
    CHECK_RET(PAPI_overflow(es, minor, 500, 0, handler), PAPI_OK);
    run(es, 1000, v);
    CHECK_EQ_LL(bit0, 10);
    CHECK_EQ_LL(bit1, 2);

    CHECK_RET(PAPI_overflow(es, pf, 0, 0, handler), PAPI_OK);
    run(es, 1000, v);
    CHECK_PAGE_FAULTS(v[0], 1000);
    CHECK_EQ_LL(bit0, 0);
    CHECK_EQ_LL(bit1, 2);
    printf("after turning PAGE-FAULTS off: bit0 %d, bit1 %d\n", bit0, bit1);

    CHECK_RET(PAPI_overflow(es, minor, 0, 0, handler), PAPI_OK);
    free_set(&es);
    PAPI_shutdown();
    return test_done("overflow_two_events");
}
