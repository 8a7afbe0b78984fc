/* report_regions A B C D N E: regions with page-fault counts given on the command line,
 * for the papi_report checks (check_papi_report.py passes the numbers and expects
 * exactly what they make): in the main thread, region "outer" touches A pages, its
 * nested "inner" B pages, then PAPI_hl_read("outer") (read_1 = A + B), then C more
 * pages (outer = A + B + C); region "fill" N times with D pages each (N instances);
 * a second thread's region "work" touches E pages. Every call path runs once before
 * (warm), so its code and stack pages are resident and each page is one fault. */
#include <pthread.h>
#include <stdlib.h>

#include "papi.h"
#include "test_workload.h"

static long arg[6];

static void must(int rc, const char *what)
{
    if (rc != PAPI_OK) {
        fprintf(stderr, "report_regions: %s: %s\n", what, PAPI_strerror(rc));
        exit(1);
    }
}

static void warm(void)
{
    warm_up();
    must(PAPI_hl_region_begin("warm"), "begin warm");
    must(PAPI_hl_region_begin("warm_inner"), "begin warm_inner");
    touch_pages(2);
    must(PAPI_hl_region_end("warm_inner"), "end warm_inner");
    must(PAPI_hl_read("warm"), "read warm");
    must(PAPI_hl_region_end("warm"), "end warm");
}

static void *worker(void *unused)
{
    (void)unused;
    warm();
    must(PAPI_hl_region_begin("work"), "begin work");
    touch_pages(arg[5]);
    must(PAPI_hl_region_end("work"), "end work");
    return NULL;
}

int main(int argc, char **argv)
{
    if (argc != 7) {
        fprintf(stderr, "usage: report_regions A B C D N E (pages, instances)\n");
        return 2;
    }
    for (int i = 0; i < 6; i++)
        arg[i] = atol(argv[i + 1]);
    warm();
    must(PAPI_hl_region_begin("outer"), "begin outer");
    touch_pages(arg[0]);
    must(PAPI_hl_region_begin("inner"), "begin inner");
    touch_pages(arg[1]);
    must(PAPI_hl_region_end("inner"), "end inner");
    must(PAPI_hl_read("outer"), "read outer");
    touch_pages(arg[2]);
    must(PAPI_hl_region_end("outer"), "end outer");
    for (long i = 0; i < arg[4]; i++) {
        must(PAPI_hl_region_begin("fill"), "begin fill");
        touch_pages(arg[3]);
        must(PAPI_hl_region_end("fill"), "end fill");
    }
    pthread_t t;
    pthread_create(&t, NULL, worker, NULL);
    pthread_join(t, NULL);
    return 0;
}
