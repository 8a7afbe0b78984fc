/* metric_regions_workload: regions on two threads, one spinning 0.3 s ("spin"), one
 * sleeping 0.3 s ("sleep"), each twice, under PAPI_METRICS (check_metric_regions.py sets
 * it and reads the region report the library writes at exit). With the argument "read",
 * each sleeping instance is read (PAPI_hl_read) halfway (check_metric_mpx.py). The main
 * thread's region "team" spans both threads' lives: its own metric is the waiting main
 * thread's, its all-thread metric the team's. */
#include <papi.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "test_workload.h"

static double thread_cpu(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Each spinning instance prints its thread's CPU time over its wall time: on a loaded
 * machine the spinner gets less than a CPU, and the metric must follow what it got. */
static void *spin(void *arg)
{
    (void)arg;
    for (int k = 0; k < 2; k++) {
        PAPI_hl_region_begin("spin");
        volatile unsigned long x = 0;
        double t0 = test_now(), c0 = thread_cpu();
        while (test_now() - t0 < 0.3)
            x++;
        double c1 = thread_cpu(), t1 = test_now();
        PAPI_hl_region_end("spin");
        printf("spin %d cpu_over_wall %.4f\n", k, (c1 - c0) / (t1 - t0));
    }
    printf("spinner cpu %.6f\n", thread_cpu());
    return NULL;
}

static void *rest(void *arg)
{
    int read = arg != NULL;
    for (int k = 0; k < 2; k++) {
        PAPI_hl_region_begin("sleep");
        usleep(150000);
        if (read && PAPI_hl_read("sleep") != PAPI_OK)
            fprintf(stderr, "metric_regions_workload: PAPI_hl_read failed\n");
        usleep(150000);
        PAPI_hl_region_end("sleep");
    }
    return NULL;
}

int main(int argc, char **argv)
{
    pthread_t a, b;
    void *read = argc > 1 && strcmp(argv[1], "read") == 0 ? argv[1] : NULL;
    PAPI_hl_region_begin("team");
    double t0 = test_now();
    if (pthread_create(&a, NULL, spin, NULL) || pthread_create(&b, NULL, rest, read)) {
        fprintf(stderr, "metric_regions_workload: pthread_create failed\n");
        return 1;
    }
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    double wall = test_now() - t0;
    PAPI_hl_region_end("team");
    printf("team wall %.6f\n", wall);
    return 0;
}
