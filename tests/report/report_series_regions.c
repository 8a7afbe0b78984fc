/* report_series_regions: two regions in turn for papi_report's per-region time series
 * (check_report_series.py, PAPI_INTERVAL): "touch" faults 100 fresh pages every 10 ms
 * for about 0.3 s, then "sleep" sleeps 0.3 s; twice. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "papi.h"
#include "test_workload.h"

static void must(int rc, const char *what)
{
    if (rc != PAPI_OK) {
        fprintf(stderr, "report_series_regions: %s: %s\n", what, PAPI_strerror(rc));
        exit(1);
    }
}

int main(void)
{
    for (int round = 0; round < 2; round++) {
        must(PAPI_hl_region_begin("touch"), "begin touch");
        for (int k = 0; k < 30; k++) {
            touch_pages(100);
            usleep(10000);
        }
        must(PAPI_hl_region_end("touch"), "end touch");
        must(PAPI_hl_region_begin("sleep"), "begin sleep");
        usleep(300000);
        must(PAPI_hl_region_end("sleep"), "end sleep");
    }
    return 0;
}
