/* report_series_regions: two regions in turn for papi_report's per-region time series
 * (check_report_series.py, PAPI_INTERVAL): "touch" faults 100 fresh pages every 10 ms
 * for about 0.3 s, then "sleep" sleeps 0.3 s; twice. */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS */
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "papi.h"

static void must(int rc, const char *what)
{
    if (rc != PAPI_OK) {
        fprintf(stderr, "report_series_regions: %s: %s\n", what, PAPI_strerror(rc));
        exit(1);
    }
}

static void touch(long pages)
{
    const long ps = sysconf(_SC_PAGESIZE);
    volatile char *p = mmap(NULL, (size_t)(pages * ps), PROT_READ | PROT_WRITE,
                            MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        abort();
    for (long i = 0; i < pages; i++)
        p[i * ps] = 1;
    munmap((void *)p, (size_t)(pages * ps));
}

int main(void)
{
    for (int round = 0; round < 2; round++) {
        must(PAPI_hl_region_begin("touch"), "begin touch");
        for (int k = 0; k < 30; k++) {
            touch(100);
            usleep(10000);
        }
        must(PAPI_hl_region_end("touch"), "end touch");
        must(PAPI_hl_region_begin("sleep"), "begin sleep");
        usleep(300000);
        must(PAPI_hl_region_end("sleep"), "end sleep");
    }
    return 0;
}
