/* preset_derived_math: derived presets computed on exact counts. The table
 * (derived_software.csv, given through PAPI_CSV_EVENT_FILE or PAPI_PERFMON_EVENT_FILE)
 * maps presets onto page-fault events; touching N fresh pages gives N faults, so
 * ADD = 2N, SUB = 0, N0|2|*|N1|+| = 3N, CMPD = N (the first term) exactly, through
 * read, accum and stop. */
#include "papi_test.h"
#include "preset_test_pages.h"

#define NPAGES 1000

enum { ADD, SUB, POSTFIX, CMPD, PLAIN, DIVIDE, APPENDED, NEV };
static const int codes[NEV] = {PAPI_TOT_CYC, PAPI_TOT_INS, PAPI_FP_OPS, PAPI_L1_DCM,
                               PAPI_L2_DCM,  PAPI_L3_TCM,  PAPI_L1_ICM};

static void check_counts(const char *when, const long long *v, long long n)
{
    printf("%-6s ADD=%lld SUB=%lld POSTFIX=%lld CMPD=%lld PLAIN=%lld DIV=%lld APPENDED=%lld (N=%lld)\n",
           when, v[ADD], v[SUB], v[POSTFIX], v[CMPD], v[PLAIN], v[DIVIDE], v[APPENDED], n);
    CHECK_EQ_LL(v[PLAIN], n);
    CHECK_EQ_LL(v[ADD], 2 * n);
    CHECK_EQ_LL(v[SUB], 0);
    CHECK_EQ_LL(v[POSTFIX], 3 * n);
    CHECK_EQ_LL(v[CMPD], n);
    CHECK_EQ_LL(v[DIVIDE], n);
    CHECK_EQ_LL(v[APPENDED], n);
}

static void check_info(void)
{
    PAPI_event_info_t info;
    CHECK_RET(PAPI_get_event_info(PAPI_FP_OPS, &info), PAPI_OK);
    CHECK(strcmp(info.derived, "DERIVED_POSTFIX") == 0, "derived is '%s'", info.derived);
    CHECK(strcmp(info.postfix, "N0|2|*|N1|+|") == 0, "postfix is '%s'", info.postfix);
    CHECK(info.count == 2, "count %u", info.count);
    CHECK(strcmp(info.name[0], "perf::PAGE-FAULTS") == 0, "name[0] '%s'", info.name[0]);
    CHECK(strcmp(info.name[1], "perf::MINOR-FAULTS") == 0, "name[1] '%s'", info.name[1]);
    CHECK_RET(PAPI_get_event_info(PAPI_L1_DCM, &info), PAPI_OK);
    CHECK(strcmp(info.derived, "DERIVED_CMPD") == 0, "derived is '%s'", info.derived);
    CHECK_RET(PAPI_query_event(PAPI_TOT_CYC), PAPI_OK);

    /* Not in the table: unavailable, with a note naming the file. */
    CHECK_RET(PAPI_get_event_info(PAPI_L3_TCA, &info), PAPI_OK);
    CHECK(info.count == 0, "PAPI_L3_TCA count %u", info.count);
    CHECK(strstr(info.note, "derived_software.csv") != NULL, "note '%s'", info.note);
    CHECK(PAPI_query_event(PAPI_L3_TCA) == PAPI_ENOEVNT, "query of an undefined preset");

    /* A hardware event: available only where it opens; otherwise the note says why. */
    CHECK_RET(PAPI_get_event_info(PAPI_REF_CYC, &info), PAPI_OK);
    if (info.count == 0) {
        printf("PAPI_REF_CYC unavailable here: %s\n", info.note);
        CHECK(strstr(info.note, "perf::CYCLES") != NULL, "note '%s'", info.note);
        int es = PAPI_NULL;
        CHECK_RET(PAPI_create_eventset(&es), PAPI_OK);
        CHECK_RET(PAPI_add_event(es, PAPI_REF_CYC), PAPI_ENOEVNT);
        CHECK_RET(PAPI_destroy_eventset(&es), PAPI_OK);
    }
}

int main(void)
{
    const char *f = getenv("PAPI_CSV_EVENT_FILE");
    if (!f)
        f = getenv("PAPI_PERFMON_EVENT_FILE");
    if (!f)
        test_skip("run through ctest: PAPI_CSV_EVENT_FILE names the test table");
    init_or_die();
    check_info();

    int es = PAPI_NULL;
    long long rd[NEV], acc[NEV] = {0}, st[NEV];
    CHECK_RET(PAPI_create_eventset(&es), PAPI_OK);
    for (int i = 0; i < NEV; i++) {
        int r = PAPI_add_event(es, codes[i]);
        if (r == PAPI_EPERM || r == PAPI_ESYS || r == PAPI_ECMP) {
            char msg[200];
            snprintf(msg, sizeof msg, "software events do not open here (%s)", PAPI_strerror(r));
            test_skip(msg);
        }
        CHECK_RET(r, PAPI_OK);
    }
    warm_up();
    touch_small_pages(4);
    /* Nothing but the workload between start and stop: printing would fault too. */
    int r1 = PAPI_start(es);
    touch_small_pages(NPAGES);
    int r2 = PAPI_read(es, rd);
    int r3 = PAPI_accum(es, acc); /* adds and resets */
    touch_small_pages(NPAGES / 2);
    int r4 = PAPI_stop(es, st);
    CHECK_RET(r1, PAPI_OK);
    CHECK_RET(r2, PAPI_OK);
    CHECK_RET(r3, PAPI_OK);
    CHECK_RET(r4, PAPI_OK);
    check_counts("read", rd, NPAGES);
    check_counts("accum", acc, NPAGES);
    check_counts("stop", st, NPAGES / 2);
    free_set(&es);
    PAPI_shutdown();
    return test_done("preset_derived_math");
}
