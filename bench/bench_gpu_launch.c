/* bench_gpu_launch.c: what the GPU activity layer adds to each kernel launch on the
 * launching thread (issue 59 item 5), on the CUPTI double (tests/gpu_activity/
 * cupti_double.c, found as libcupti.so.13 on LD_LIBRARY_PATH): its
 * cupti_double_launch_kernel does on the launching thread what CUPTI does, the correlation
 * id taken and, while a tool records, the kernel record written into the tool's buffer
 * (a new one asked for from the layer's pool when it is full, the full one handed to the
 * drain thread). A real launch adds the driver's own microseconds, the same with and
 * without the layer. MODE:
 *   off     the layer never started: the launch without it
 *   on      the layer recording (PAPI_GPU_ACTIVITY=1)
 *   region  the same inside a region of the region API (its launches linked: CUPTI also
 *           writes an external-correlation record per launch)
 * Prints ns per launch (the median of ROUNDS rounds of N launches, CUPTI flushed between
 * rounds, untimed: N = 10000 records fit the layer's pool, 8 x 1 MiB of 216-byte kernel
 * records, so a round measures the launches while the drain thread keeps up; a larger N
 * outruns it and the rest are dropped and counted, cheaply), then the records the layer
 * filed and dropped and the process's peak resident memory, so its bound shows.
 *   bench_gpu_launch MODE [N [ROUNDS]] */
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "bench_timing.h"
#include "papi.h"
#include "papi_gpu_activity.h"

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static long maxrss_kib(void)
{
    struct rusage u;
    getrusage(RUSAGE_SELF, &u);
    return u.ru_maxrss;
}

/* The layer's "records" and "dropped" from its JSON (papi_gpu_activity.h). */
static void say_records(void)
{
    static char buf[1 << 16];
    if (papi_gpu_activity_json(buf, sizeof buf) <= 0) {
        printf("layer: not recording\n");
        return;
    }
    const char *r = strstr(buf, "\"records\":"), *d = strstr(buf, "\"dropped\":");
    printf("layer: records %lld, dropped %lld\n", r ? strtoll(r + 10, NULL, 10) : -1,
           d ? strtoll(d + 10, NULL, 10) : -1);
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "";
    long n = argc > 2 ? atol(argv[2]) : 10000;
    int rounds = argc > 3 ? atoi(argv[3]) : 21;
    int on = strcmp(mode, "on") == 0, region = strcmp(mode, "region") == 0;
    if ((!on && !region && strcmp(mode, "off") != 0) || n < 1000 || rounds < 1 || rounds > 99) {
        fprintf(stderr, "usage: bench_gpu_launch off|on|region [N >= 1000 [ROUNDS 1..99]]\n");
        return 2;
    }
    long rss0 = maxrss_kib();
    if (on || region) {
        setenv("PAPI_GPU_ACTIVITY", "1", 1);
        if (!getenv("PAPI_EVENTS"))
            setenv("PAPI_EVENTS", "perf::TASK-CLOCK", 1); /* the region's own counters */
        if (region ? PAPI_hl_region_begin("launch") != PAPI_OK
                   : !papi_gpu_activity_start("bench_gpu_launch")) {
            fprintf(stderr, "bench_gpu_launch: the GPU activity layer did not start\n");
            return 1;
        }
    }
    void *cupti = dlopen("libcupti.so.13", RTLD_NOW);
    void (*launch)(uint64_t) =
        cupti ? (void (*)(uint64_t))dlsym(cupti, "cupti_double_launch_kernel") : NULL;
    if (!launch) {
        fprintf(stderr, "bench_gpu_launch: no CUPTI double (LD_LIBRARY_PATH): %s\n", dlerror());
        return 1;
    }
    double ns[99];
    for (int r = 0; r < rounds; r++) {
        long long a = now_ns();
        for (long i = 0; i < n; i++)
            launch(500);
        ns[r] = (double)(now_ns() - a) / (double)n;
        papi_gpu_activity_flush(); /* untimed: every buffer back in the pool for the next */
    }
    if (region)
        PAPI_hl_region_end("launch");
    qsort(ns, (size_t)rounds, sizeof ns[0], cmp);
    printf("%s: %.1f ns per launch (median of %d x %ld; min %.1f, max %.1f)\n", mode,
           ns[rounds / 2], rounds, n, ns[0], ns[rounds - 1]);
    papi_gpu_activity_flush();
    say_records();
    printf("peak resident: %ld KiB, %+ld KiB since the start\n", maxrss_kib(), maxrss_kib() - rss0);
    return 0;
}
