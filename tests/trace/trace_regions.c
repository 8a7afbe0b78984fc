/* trace_regions.c: nested regions in two threads, for PAPI_TRACE: the main thread runs
 * outer { inner inner } three times, a second thread worker { inner } twice: 13 begins
 * and 13 ends in all (9 on the main thread, 4 on the other). Each region spins about
 * 10 ms so that PAPI_INTERVAL=0.01 takes samples. Exits 1 when a region call fails. */
#include <pthread.h>
#include <stdio.h>
#include <time.h>

#include "papi.h"

static volatile double sink;

static void spin_ms(int ms)
{
    struct timespec a, b;
    clock_gettime(CLOCK_MONOTONIC, &a);
    do {
        for (int i = 0; i < 1000; i++)
            sink += i * 0.5;
        clock_gettime(CLOCK_MONOTONIC, &b);
    } while ((b.tv_sec - a.tv_sec) * 1000 + (b.tv_nsec - a.tv_nsec) / 1000000 < ms);
}

static int region(const char *name, int ms, const char *child, int nchild)
{
    int bad = PAPI_hl_region_begin(name) != PAPI_OK;
    spin_ms(ms);
    for (int i = 0; i < nchild; i++)
        bad |= region(child, ms, NULL, 0);
    bad |= PAPI_hl_region_end(name) != PAPI_OK;
    return bad;
}

static void *worker(void *arg)
{
    int *bad = arg;
    for (int i = 0; i < 2; i++)
        *bad |= region("worker", 10, "inner", 1);
    return NULL;
}

int main(void)
{
    int bad = 0, wbad = 0;
    pthread_t t;
    for (int i = 0; i < 3; i++)
        bad |= region("outer", 10, "inner", 2);
    if (pthread_create(&t, NULL, worker, &wbad) != 0)
        return 1;
    pthread_join(t, NULL);
    if (bad || wbad) {
        fprintf(stderr, "FAIL: a region call failed: %s\n", PAPI_strerror_detail());
        return 1;
    }
    return 0;
}
