/* sde_region.c: the test library's events counted by the region API (PAPI_EVENTS
 * names them): region "work" holds 10 rounds (REG_LL 10, CREATED 20, TOTAL 30), region
 * "idle" none. test_sde_region checks the JSON report it writes at exit. */
#include <stdio.h>

#include "papi.h"
#include "sde_testlib.h"

int main(void)
{
    if (sdetest_setup() != 0)
        return 1;
    sdetest_work(3);
    if (PAPI_hl_region_begin("work") != PAPI_OK)
        return 1;
    sdetest_work(10);
    if (PAPI_hl_region_end("work") != PAPI_OK)
        return 1;
    sdetest_work(5);
    if (PAPI_hl_region_begin("idle") != PAPI_OK || PAPI_hl_region_end("idle") != PAPI_OK)
        return 1;
    return 0;
}
