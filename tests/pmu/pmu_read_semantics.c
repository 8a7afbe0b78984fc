/* pmu_read_semantics: PAPI_read, PAPI_accum, PAPI_reset, PAPI_write and PAPI_stop on
 * hardware counters, exact. Each operation is measured around two loop lengths: the
 * counts must differ by exactly the extra loop instructions, the rest (the library's
 * own user instructions) must be the same small constant, and cycles must stay exactly
 * 2^shift x instructions at every read. */
#include "pmu_hw.h"

#define N1 1000L
#define N2 300000L
#define MAX_OVERHEAD 1000 /* user instructions of a library call pair, generously */

static int es;
static int shift;

/* cycles = 2^shift x instructions, exactly, when the kernel reads both counters at once
 * (read()). A user-space read (kernel.perf_user_access=1) reads them one after the
 * other: cycles then also count the 2^shift cycles of each user instruction between the
 * two reads, a small whole number of them. */
static int fast_read;

static void check_ratio(const char *what, const long long *v)
{
    long long gap = v[1] - (v[0] << shift);
    if (!fast_read) {
        CHECK(gap == 0, "%s: cycles %lld != 2^%d x instructions %lld", what, v[1], shift, v[0]);
        return;
    }
    CHECK(gap >= 0 && gap % (1LL << shift) == 0 && (gap >> shift) < 200,
          "%s: cycles %lld - 2^%d x instructions %lld = %lld is not the cycles of the few "
          "instructions between two user-space counter reads", what, v[1], shift, v[0], gap);
}

/* read after start: value = loop + constant */
static long long op_read(long n)
{
    long long v[2];
    CHECK_RET(PAPI_start(es), PAPI_OK);
    pmu_loop(n);
    CHECK_RET(PAPI_read(es, v), PAPI_OK);
    check_ratio("read", v);
    CHECK_RET(PAPI_stop(es, NULL), PAPI_OK);
    return v[0];
}

/* read to read: the counter keeps running, the second read is the first plus the loop */
static long long op_read_delta(long n)
{
    long long a[2], b[2];
    CHECK_RET(PAPI_start(es), PAPI_OK);
    pmu_loop(5000);
    CHECK_RET(PAPI_read(es, a), PAPI_OK);
    pmu_loop(n);
    CHECK_RET(PAPI_read(es, b), PAPI_OK);
    CHECK_RET(PAPI_stop(es, NULL), PAPI_OK);
    check_ratio("read delta", b);
    CHECK(b[0] > a[0], "second read %lld not above first %lld", b[0], a[0]);
    return b[0] - a[0];
}

/* reset drops what was counted before it */
static long long op_reset(long n)
{
    long long v[2];
    CHECK_RET(PAPI_start(es), PAPI_OK);
    pmu_loop(2000000);
    CHECK_RET(PAPI_reset(es), PAPI_OK);
    pmu_loop(n);
    CHECK_RET(PAPI_read(es, v), PAPI_OK);
    CHECK_RET(PAPI_stop(es, NULL), PAPI_OK);
    check_ratio("reset", v);
    return v[0];
}

/* accum adds into the caller's array and restarts from zero */
static long long op_accum(long n)
{
    const long long base = 1000000000LL;
    long long acc[2] = {base, base << shift}, v[2];
    CHECK_RET(PAPI_start(es), PAPI_OK);
    pmu_loop(n);
    CHECK_RET(PAPI_accum(es, acc), PAPI_OK);
    pmu_loop(N2);
    CHECK_RET(PAPI_read(es, v), PAPI_OK);
    CHECK_RET(PAPI_stop(es, NULL), PAPI_OK);
    check_ratio("accum", acc);
    check_ratio("after accum", v);
    /* what followed the accum counts from zero: only the second loop and a constant */
    CHECK(v[0] >= PMU_LOOP_INSNS * N2 && v[0] < PMU_LOOP_INSNS * N2 + MAX_OVERHEAD,
          "after accum read %lld, loop was %ld", v[0], PMU_LOOP_INSNS * N2);
    return acc[0] - base;
}

/* write sets the value the counter continues from */
static long long op_write(long n)
{
    const long long w = 777777777LL;
    long long set[2] = {w, w << shift}, v[2];
    CHECK_RET(PAPI_start(es), PAPI_OK);
    pmu_loop(3000000);
    CHECK_RET(PAPI_write(es, set), PAPI_OK);
    pmu_loop(n);
    CHECK_RET(PAPI_read(es, v), PAPI_OK);
    CHECK_RET(PAPI_stop(es, NULL), PAPI_OK);
    check_ratio("write", v);
    return v[0] - w;
}

/* stop returns the final counts and freezes them: later reads return them unchanged */
static long long op_stop(long n)
{
    long long s[2], r1[2], r2[2];
    CHECK_RET(PAPI_start(es), PAPI_OK);
    pmu_loop(n);
    CHECK_RET(PAPI_stop(es, s), PAPI_OK);
    pmu_loop(N2);
    CHECK_RET(PAPI_read(es, r1), PAPI_OK);
    pmu_loop(N2);
    CHECK_RET(PAPI_read(es, r2), PAPI_OK);
    CHECK(r1[0] == s[0] && r2[0] == s[0] && r1[1] == s[1] && r2[1] == s[1],
          "stopped set moved: stop %lld/%lld, reads %lld/%lld and %lld/%lld", s[0], s[1], r1[0],
          r1[1], r2[0], r2[1]);
    check_ratio("stop", s);
    return s[0];
}

static void exact(const char *name, long long (*op)(long))
{
    long long c1 = op(N1) - PMU_LOOP_INSNS * N1;
    long long c2 = op(N2) - PMU_LOOP_INSNS * N2;
    long long c3 = op(N1) - PMU_LOOP_INSNS * N1;
    CHECK(c1 == c2 && c1 == c3, "%s: constants differ: %lld %lld %lld", name, c1, c2, c3);
    CHECK(c1 >= 0 && c1 < MAX_OVERHEAD, "%s: constant %lld out of range", name, c1);
    printf("pmu_read_semantics: %s n=%ld -> %lld, n=%ld -> %lld (loop + %lld)\n", name, N1,
           PMU_LOOP_INSNS * N1 + c1, N2, PMU_LOOP_INSNS * N2 + c2, c1);
}

int main(void)
{
    init_or_die();
    pmu_require_hw();
    shift = pmu_icount_shift();
    fast_read = PAPI_get_component_info(0)->fast_counter_read;
    const char *names[] = {"INST_RETIRED", "CPU_CYCLES"};
    es = pmu_set_of(names, 2);
    op_read(10); /* warm-up: lazy bindings, first-touch of the code */
    op_accum(10);
    op_write(10);
    exact("read", op_read);
    exact("read-delta", op_read_delta);
    exact("reset", op_reset);
    exact("accum", op_accum);
    exact("write", op_write);
    exact("stop", op_stop);
    pmu_free_set(&es);
    return test_done("pmu_read_semantics");
}
