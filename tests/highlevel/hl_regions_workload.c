/* hl_regions_workload: marks regions with known page-fault counts in the main thread
 * (nested, repeated, recursive, read midway) and in six threads at once; prints the thread ids.
 * check_hl_report.py runs it and checks the JSON report it leaves at exit. The
 * documented errors are checked here. "setrank" as argv[1] calls papi_hl_set_rank(5). */
#include <pthread.h>
#include <sys/syscall.h>

#include "papi_hl_rank.h"
#include "papi_test.h"

#define WORKERS 6 /* first regions of several threads at once: concurrent registration */

/* Run every call path once (begin, read, end, nesting) so that their code and stack
 * pages are resident before the measured regions. */
static void warm_regions(void)
{
    warm_up();
    CHECK_RET(PAPI_hl_region_begin("warm"), PAPI_OK);
    CHECK_RET(PAPI_hl_region_begin("warm_inner"), PAPI_OK);
    touch_pages(2);
    CHECK_RET(PAPI_hl_read("warm_inner"), PAPI_OK);
    CHECK_RET(PAPI_hl_region_end("warm_inner"), PAPI_OK);
    CHECK_RET(PAPI_hl_region_end("warm"), PAPI_OK);
}

static void *worker(void *arg)
{
    long extra = (long)arg;
    warm_regions();
    printf("TID t%ld %ld\n", extra, (long)syscall(SYS_gettid));
    for (int rep = 0; rep < 2; rep++) {
        CHECK_RET(PAPI_hl_region_begin("work"), PAPI_OK);
        touch_pages(100 + 50 * extra);
        CHECK_RET(PAPI_hl_region_end("work"), PAPI_OK);
    }
    return NULL;
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "setrank") == 0) {
        CHECK_RET(papi_hl_set_rank(-1), PAPI_EINVAL);
        CHECK_RET(papi_hl_set_rank(5), PAPI_OK);
    }
    /* Errors before anything runs. */
    CHECK_RET(PAPI_hl_region_end("never"), PAPI_EINVAL);
    CHECK_RET(PAPI_hl_read("never"), PAPI_EINVAL);
    CHECK_RET(PAPI_hl_stop(), PAPI_ENOTRUN);
    CHECK_RET(PAPI_hl_region_begin(NULL), PAPI_EINVAL);
    CHECK_RET(PAPI_hl_region_begin(""), PAPI_EINVAL);
    char longname[300];
    memset(longname, 'x', sizeof longname - 1);
    longname[sizeof longname - 1] = '\0';
    CHECK_RET(PAPI_hl_region_begin(longname), PAPI_EINVAL);

    warm_regions();
    CHECK(PAPI_is_initialized() & PAPI_HIGH_LEVEL_INITED, "not high-level initialised");
    printf("TID main %ld\n", (long)syscall(SYS_gettid));
    fflush(stdout);

    /* outer = 10 + 20 + 30 + 5 = 65 pages, inner = 20 + 5 in two passes. */
    CHECK_RET(PAPI_hl_region_begin("outer"), PAPI_OK);
    touch_pages(10);
    CHECK_RET(PAPI_hl_region_begin("inner"), PAPI_OK);
    touch_pages(20);
    CHECK_RET(PAPI_hl_region_end("inner"), PAPI_OK);
    CHECK_RET(PAPI_hl_read("outer"), PAPI_OK);
    touch_pages(30);
    CHECK_RET(PAPI_hl_stop(), PAPI_EINVAL); /* not inside a region */
    CHECK_RET(PAPI_hl_region_begin("inner"), PAPI_OK);
    touch_pages(5);
    CHECK_RET(PAPI_hl_region_end("inner"), PAPI_OK);
    CHECK_RET(PAPI_hl_region_end("outer"), PAPI_OK);
    CHECK_RET(PAPI_hl_region_end("outer"), PAPI_EINVAL); /* already ended */

    /* Recursion: only the outermost pair counts. */
    CHECK_RET(PAPI_hl_region_begin("recursive"), PAPI_OK);
    CHECK_RET(PAPI_hl_region_begin("recursive"), PAPI_OK);
    touch_pages(7);
    CHECK_RET(PAPI_hl_region_end("recursive"), PAPI_OK);
    CHECK_RET(PAPI_hl_region_end("recursive"), PAPI_OK);

    pthread_t t[WORKERS];
    for (long i = 0; i < WORKERS; i++)
        pthread_create(&t[i], NULL, worker, (void *)i);
    for (int i = 0; i < WORKERS; i++)
        pthread_join(t[i], NULL);

    /* A name that needs JSON escaping. */
    CHECK_RET(PAPI_hl_region_begin("odd \"name\"\\\ttab"), PAPI_OK);
    CHECK_RET(PAPI_hl_region_end("odd \"name\"\\\ttab"), PAPI_OK);

    /* PAPI_hl_stop outside regions, then regions start the counters again. */
    CHECK_RET(PAPI_hl_stop(), PAPI_OK);
    CHECK_RET(PAPI_hl_stop(), PAPI_ENOTRUN);
    CHECK_RET(PAPI_hl_region_begin("after_stop"), PAPI_OK);
    touch_pages(9);
    CHECK_RET(PAPI_hl_region_end("after_stop"), PAPI_OK);
    fflush(stdout);
    return test_done("hl_regions_workload");
}
