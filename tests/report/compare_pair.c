/* compare_pair STEADY WORK: the real pair of papi_report --compare's test
 * (check_compare_pair.py): region "steady" touches STEADY fresh pages and region "work"
 * WORK pages, each in 4 instances of a quarter, in the main thread. Every page is one
 * page fault, a count exact on a machine without a hardware PMU, and its time (the
 * kernel zeroing the page) grows with the pages: run with WORK = W on side A and 2 W on
 * side B, "work" does twice the work and "steady" the same. Each call path runs once
 * before (warm), so its code and stack pages are resident. */
#include <stdlib.h>

#include "papi.h"
#include "test_workload.h"

static void must(int rc, const char *what)
{
    if (rc != PAPI_OK) {
        fprintf(stderr, "compare_pair: %s: %s\n", what, PAPI_strerror(rc));
        exit(1);
    }
}

static void region(const char *name, long pages)
{
    must(PAPI_hl_region_begin(name), "region begin");
    touch_pages(pages);
    must(PAPI_hl_region_end(name), "region end");
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: compare_pair STEADY WORK (pages)\n");
        return 2;
    }
    long steady = atol(argv[1]), work = atol(argv[2]);
    warm_up();
    region("warm", 2);
    for (int i = 0; i < 4; i++) {
        region("steady", steady / 4);
        region("work", work / 4);
    }
    return 0;
}
