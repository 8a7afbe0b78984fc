/* overflow_inst_retired (arm64 PMU lane): hardware overflow interrupts from the PMU.
 * PAPI_overflow on INST_RETIRED with threshold 1,000,000 over the known loop calls the
 * handler floor(total/threshold) times (+-1), with the event's bit, in this thread;
 * the total read from the overflowing set is exact (loop + a constant). */
#include <sys/syscall.h>

#include "pmu_hw.h"

static volatile long calls, bad;
static pid_t me;

static void handler(int EventSet, void *address, long long overflow_vector, void *context)
{
    (void)EventSet;
    (void)context;
    calls++;
    if (overflow_vector != 0x1 || !address || (pid_t)syscall(SYS_gettid) != me)
        bad++;
}

int main(void)
{
    init_or_die();
    pmu_require_hw();
    me = (pid_t)syscall(SYS_gettid);
    const char *names[] = {"INST_RETIRED", "CPU_CYCLES"};
    int es = pmu_set_of(names, 2), code;
    CHECK_RET(PAPI_event_name_to_code("INST_RETIRED", &code), PAPI_OK);
    const int threshold = 1000000;
    CHECK_RET(PAPI_overflow(es, code, threshold, 0, handler), PAPI_OK);
    long long v[2];
    const long sizes[] = {5000000, 12345678};
    for (int i = 0; i < 2; i++) {
        calls = 0;
        CHECK_RET(PAPI_start(es), PAPI_OK);
        pmu_loop(sizes[i]);
        CHECK_RET(PAPI_stop(es, v), PAPI_OK);
        long long expect = v[0] / threshold;
        printf("overflow_inst_retired: n=%ld inst=%lld cyc=%lld overflows=%ld expected %lld\n",
               sizes[i], v[0], v[1], calls, expect);
        CHECK(v[0] >= (long long)PMU_LOOP_INSNS * sizes[i] &&
                  v[0] < (long long)PMU_LOOP_INSNS * sizes[i] + 100000,
              "total %lld is not the loop's %lld plus a small constant", v[0],
              (long long)PMU_LOOP_INSNS * sizes[i]);
        CHECK(calls >= expect - 1 && calls <= expect + 1, "%ld overflows, expected %lld +-1",
              calls, expect);
    }
    CHECK_EQ_LL(bad, 0);
    CHECK_RET(PAPI_overflow(es, code, 0, 0, handler), PAPI_OK);
    pmu_free_set(&es);
    return test_done("overflow_inst_retired");
}
