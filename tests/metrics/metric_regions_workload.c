/* metric_regions_workload: regions on two threads, one spinning 0.3 s ("spin"), one
 * sleeping 0.3 s ("sleep"), each twice, under PAPI_METRICS (check_metric_regions.py sets
 * it and reads the region report the library writes at exit). */
#include <papi.h>
#include <pthread.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void *spin(void *arg)
{
    (void)arg;
    for (int k = 0; k < 2; k++) {
        PAPI_hl_region_begin("spin");
        volatile unsigned long x = 0;
        double t0 = now();
        while (now() - t0 < 0.3)
            x++;
        PAPI_hl_region_end("spin");
    }
    return NULL;
}

static void *rest(void *arg)
{
    (void)arg;
    for (int k = 0; k < 2; k++) {
        PAPI_hl_region_begin("sleep");
        usleep(300000);
        PAPI_hl_region_end("sleep");
    }
    return NULL;
}

int main(void)
{
    pthread_t a, b;
    if (pthread_create(&a, NULL, spin, NULL) || pthread_create(&b, NULL, rest, NULL)) {
        fprintf(stderr, "metric_regions_workload: pthread_create failed\n");
        return 1;
    }
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    return 0;
}
