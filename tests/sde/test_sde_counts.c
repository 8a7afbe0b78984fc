/* test_sde_counts.c [before|after|lazy]: every kind of software-defined event of the test
 * library (sde_testlib.c) counted through PAPI's C API, exact: DELTA counters from
 * PAPI_start, INSTANT ones as they are, groups, a recorder's count and statistics, a
 * counting set's elements; stop freezes, reset and accum restart; a counter whose
 * library shuts down while counted reads PAPI_ENOEVNT with its name. The library
 * registers its events before or after PAPI_library_init, or after the program added
 * them to its event set (lazy: PAPI 7's placeholders, reading 0 until then). Uses only
 * PAPI 7's API: also built against Debian's papi.h and sde_lib.h (test_sde_debian_headers). */
#include <stdio.h>
#include <string.h>

#include "papi.h"
#include "papi_test.h"
#include "sde_lib.h"
#include "sde_testlib.h"

static const char *const names[] = {
    "REG_LL",   "REG_INT", "REG_DBL", "CB",     "CREATED", "LEVEL",  "TOTAL",   "BIGGEST",
    "SMALLEST", "LAT:CNT", "LAT:MIN", "LAT:Q1", "LAT:MED", "LAT:Q3", "LAT:MAX", "KEYS"};
enum {
    REG_LL,
    REG_INT,
    REG_DBL,
    CB,
    CREATED,
    LEVEL,
    TOTAL,
    BIGGEST,
    SMALLEST,
    LAT_CNT,
    LAT_MIN,
    LAT_Q1,
    LAT_MED,
    LAT_Q3,
    LAT_MAX,
    KEYS,
    NEVENTS
};

static int make_set(void)
{
    int es = PAPI_NULL;
    char name[128];
    CHECK_RET(PAPI_create_eventset(&es), PAPI_OK);
    for (int e = 0; e < NEVENTS; e++) {
        snprintf(name, sizeof name, "sde:::sdetest::%s", names[e]);
        int r = PAPI_add_named_event(es, name);
        CHECK(r == PAPI_OK, "adding %s: %s", name, PAPI_strerror(r));
    }
    return es;
}

/* KEYS reads as a list: keys 0, 1, 2 of rounds 0 .. rounds-1 (key = round % 3). */
static void check_keys(long long value, int rounds)
{
    int seen[3] = {0, 0, 0}, n = 0;
    for (cset_list_object_t *o = GET_SDE_RECORDER_ADDRESS(value, cset_list_object_t); o;
         o = o->next, n++) {
        int key = *(int *)o->ptr;
        CHECK(o->type_id == 7 && o->type_size == sizeof(int) && key >= 0 && key < 3,
              "element type %u size %zu key %d", o->type_id, o->type_size, key);
        if (key >= 0 && key < 3)
            seen[key] = (int)o->count;
    }
    CHECK_EQ_LL(n, 3);
    for (int k = 0; k < 3; k++)
        CHECK_EQ_LL(seen[k], (rounds - k + 2) / 3);
}

/* 4 rounds before start, 10 counted: rounds 4 .. 13. */
static void check_first_period(const long long *v)
{
    CHECK_EQ_LL(v[REG_LL], 10);
    CHECK_EQ_LL(v[REG_INT], 14);
    CHECK(GET_DOUBLE_SDE(v[REG_DBL]) == 5.0, "REG_DBL %g", GET_DOUBLE_SDE(v[REG_DBL]));
    CHECK_EQ_LL(v[CB], 60);
    CHECK_EQ_LL(v[CREATED], 20);
    CHECK_EQ_LL(v[LEVEL], 14);
    CHECK_EQ_LL(v[TOTAL], 30);
    CHECK_EQ_LL(v[BIGGEST], 28 - 8);
    CHECK_EQ_LL(v[SMALLEST], 14 - 4);
    CHECK_EQ_LL(v[LAT_CNT], 14);
    CHECK_EQ_LL(*GET_SDE_RECORDER_ADDRESS(v[LAT_MIN], long long), 0);
    CHECK_EQ_LL(*GET_SDE_RECORDER_ADDRESS(v[LAT_Q1], long long), 3);
    CHECK_EQ_LL(*GET_SDE_RECORDER_ADDRESS(v[LAT_MED], long long), 7);
    CHECK_EQ_LL(*GET_SDE_RECORDER_ADDRESS(v[LAT_Q3], long long), 10);
    CHECK_EQ_LL(*GET_SDE_RECORDER_ADDRESS(v[LAT_MAX], long long), 13);
    check_keys(v[KEYS], 14);
}

static void counting(int es)
{
    long long v[NEVENTS], again[NEVENTS], acc[NEVENTS];
    sdetest_work(4);
    CHECK_RET(PAPI_start(es), PAPI_OK);
    sdetest_work(10);
    CHECK_RET(PAPI_read(es, v), PAPI_OK);
    check_first_period(v);
    CHECK_RET(PAPI_stop(es, v), PAPI_OK);
    check_first_period(v);
    sdetest_work(5); /* not counted: the values stay frozen */
    CHECK_RET(PAPI_read(es, again), PAPI_OK);
    CHECK_EQ_LL(again[REG_LL], 10);
    CHECK_EQ_LL(again[CREATED], 20);
    CHECK_RET(PAPI_start(es), PAPI_OK);
    sdetest_work(3);
    CHECK_RET(PAPI_reset(es), PAPI_OK);
    sdetest_work(2); /* rounds 22, 23 */
    CHECK_RET(PAPI_read(es, v), PAPI_OK);
    CHECK_EQ_LL(v[REG_LL], 2);
    CHECK_EQ_LL(v[CB], 12);
    CHECK_EQ_LL(v[TOTAL], 6);
    CHECK_EQ_LL(v[REG_INT], 24);
    CHECK_EQ_LL(v[LEVEL], 24);
    memset(acc, 0, sizeof acc);
    CHECK_RET(PAPI_accum(es, acc), PAPI_OK);
    sdetest_work(1);
    CHECK_RET(PAPI_accum(es, acc), PAPI_OK);
    CHECK_EQ_LL(acc[REG_LL], 3);
    CHECK_EQ_LL(acc[CREATED], 6);
    CHECK_RET(PAPI_stop(es, v), PAPI_OK);
    CHECK_EQ_LL(v[REG_LL], 0);
}

/* How many events of the sde component papi_native_avail lists. */
static int listed(void)
{
    int cidx = PAPI_get_component_index("sde"), code = PAPI_NATIVE_MASK, n = 0;
    CHECK(cidx >= 0, "no sde component");
    if (cidx >= 0 && PAPI_enum_cmp_event(&code, PAPI_ENUM_FIRST, cidx) == PAPI_OK)
        do
            n++;
        while (PAPI_enum_cmp_event(&code, PAPI_ENUM_EVENTS, cidx) == PAPI_OK);
    return n;
}

/* The library shuts down while its events are counted: read says which is gone. */
static void shutdown_while_counted(int es)
{
    long long v[NEVENTS];
    CHECK_RET(PAPI_start(es), PAPI_OK);
    CHECK_RET(sdetest_shutdown(), SDE_OK);
    CHECK_RET(PAPI_read(es, v), PAPI_ENOEVNT);
#ifndef SDE_TEST_SYSTEM_HEADERS /* Debian's papi.h has no PAPI_strerror_detail */
    const char *why = PAPI_strerror_detail();
    CHECK(why && strstr(why, "sde:::sdetest::"), "reason: %s", why ? why : "(none)");
#endif
    CHECK_RET(PAPI_stop(es, v), PAPI_OK);
    CHECK_EQ_LL(listed(), 0);
}

/* Names PAPI refuses; a well-formed unregistered name is a placeholder reading 0. */
static void name_checks(void)
{
    int code, es = PAPI_NULL;
    long long v = -1;
    CHECK_RET(PAPI_event_name_to_code("sde:::sdetest", &code), PAPI_ENOEVNT);
    CHECK_RET(PAPI_event_name_to_code("sde:::sdetest::A B", &code), PAPI_ENOEVNT);
    CHECK_RET(PAPI_event_name_to_code("sde:::sdetest:::X", &code), PAPI_ENOEVNT);
    CHECK_RET(PAPI_create_eventset(&es), PAPI_OK);
    CHECK_RET(PAPI_add_named_event(es, "sde:::sdetest::NEVER_REGISTERED"), PAPI_OK);
    CHECK_RET(PAPI_start(es), PAPI_OK);
    CHECK_RET(PAPI_stop(es, &v), PAPI_OK);
    CHECK_EQ_LL(v, 0);
    free_set(&es);
}

int main(int argc, char **argv)
{
    const char *when = argc > 1 ? argv[1] : "before";
    if (strcmp(when, "before") == 0)
        CHECK_RET(sdetest_setup(), SDE_OK);
    init_or_die();
    if (strcmp(when, "after") == 0)
        CHECK_RET(sdetest_setup(), SDE_OK);
    name_checks();
    int es = make_set();
    if (strcmp(when, "lazy") == 0)
        CHECK_RET(sdetest_setup(), SDE_OK);
    CHECK_EQ_LL(listed(), NEVENTS + 1); /* and LAT, the recorder's values */
    if (test_failures)
        return test_done("test_sde_counts");
    counting(es);
    shutdown_while_counted(es);
    PAPI_shutdown();
    return test_done("test_sde_counts");
}
