/* Both API generations compile unchanged against papi.h and mean what they meant:
 * 3.x names (long_long, PAPI_ESBSTR, substrate info, mapname, 3-argument PAPI_perror,
 * PAPI_DEF_MPX_USEC) and 7.x names (component info, 1-argument PAPI_perror). */
#include "papi_test.h"

static int legacy_style(void)
{
    long_long counts[1];
    char msg[PAPI_MAX_STR_LEN];
    const PAPI_substrate_info_t *sub = PAPI_get_substrate_info();
    const PAPI_exe_info_t *exe = PAPI_get_executable_info();
    PAPI_option_t opt;
    CHECK(PAPI_ESBSTR == PAPI_ECMP, "PAPI_ESBSTR is PAPI_ECMP");
    CHECK(sub != NULL && sub->num_cntrs == PAPI_num_hwctrs(), "substrate counters");
    CHECK(exe != NULL && exe->address_info.mapname[0] != '\0', "3.x mapname");
    CHECK(PAPI_perror(PAPI_ENOEVNT, msg, sizeof msg) == PAPI_OK, "3-argument perror");
    CHECK(strcmp(msg, PAPI_strerror(PAPI_ENOEVNT)) == 0, "message '%s'", msg);
    CHECK(PAPI_perror(PAPI_ENOEVNT, msg, 5) == PAPI_OK && strlen(msg) == 4, "truncated");
    memset(&opt, 0, sizeof opt);
    CHECK(PAPI_get_opt(PAPI_DEF_MPX_USEC, &opt) > 0 && opt.multiplex.us > 0, "mpx us");
    memset(&opt, 0, sizeof opt);
    CHECK(PAPI_get_opt(PAPI_SUBSTRATEINFO, &opt) == PAPI_OK && opt.sub_info == sub, "sub_info");
    counts[0] = 0;
    return (int)counts[0];
}

static void modern_style(void)
{
    const PAPI_component_info_t *cmp = PAPI_get_component_info(0);
    int es = PAPI_NULL;
    CHECK(cmp != NULL && strcmp(cmp->name, "perf_event") == 0, "component name");
    CHECK(PAPI_get_executable_info()->address_info.name[0] != '\0', "7.x name");
    CHECK_RET(PAPI_create_eventset(&es), PAPI_OK);
    CHECK_RET(PAPI_add_named_event(es, "perf::NOT-AN-EVENT"), PAPI_ENOEVNT);
    PAPI_perror("expected failure"); /* 1-argument form: prints the recorded reason */
    CHECK_RET(PAPI_destroy_eventset(&es), PAPI_OK);
}

int main(void)
{
    init_or_die();
    legacy_style();
    modern_style();
    PAPI_shutdown();
    return test_done("test_two_apis");
}
