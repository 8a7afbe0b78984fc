/* overflow_hist: where do the events happen? PAPI_overflow calls a handler every
 * THRESHOLD events with the interrupted program counter; the handler only stores the
 * address (it runs in a signal handler: no printf, no malloc there). After the run the
 * addresses are turned into function names with dladdr (the example is linked with
 * -rdynamic so its own functions are named) and printed as a histogram.
 *
 *   overflow_hist [EVENT [THRESHOLD]]     default: perf::PAGE-FAULTS every 50
 * On a machine with a PMU try: overflow_hist PAPI_TOT_CYC 1000000 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "papi.h"

#define MAX_SAMPLES 100000
static void *samples[MAX_SAMPLES];
static volatile int nsamples;

static void on_overflow(int EventSet, void *address, long long overflow_vector, void *context)
{
    (void)EventSet;
    (void)overflow_vector;
    (void)context;
    if (nsamples < MAX_SAMPLES)
        samples[nsamples++] = address;
}

/* Two workloads of different weight, so the histogram has something to show. */
__attribute__((noinline)) void touch_big_array(long pages)
{
    long page = sysconf(_SC_PAGESIZE);
    volatile char *p = mmap(NULL, (size_t)(pages * page), PROT_READ | PROT_WRITE,
                            MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        return;
    madvise((void *)p, (size_t)(pages * page), MADV_NOHUGEPAGE); /* 4 KiB pages: a fault each */
    for (long i = 0; i < pages; i++)
        p[i * page] = (char)i;
    munmap((void *)p, (size_t)(pages * page));
}

__attribute__((noinline)) double sum_small_array(long n)
{
    double *a = malloc((size_t)n * sizeof *a), s = 0;
    if (!a)
        return 0;
    for (long i = 0; i < n; i++)
        a[i] = (double)i;
    for (int r = 0; r < 50; r++)
        for (long i = 0; i < n; i++)
            s += a[i] * 0.5;
    free(a);
    return s;
}

struct bin {
    const char *name;
    int count;
};

static int by_count(const void *a, const void *b)
{
    return ((const struct bin *)b)->count - ((const struct bin *)a)->count;
}

static void print_histogram(void)
{
    static struct bin bins[256];
    int nb = 0;
    for (int i = 0; i < nsamples; i++) {
        Dl_info info;
        const char *name = "(unknown)";
        if (dladdr(samples[i], &info) && info.dli_sname)
            name = info.dli_sname;
        int b = 0;
        while (b < nb && strcmp(bins[b].name, name) != 0)
            b++;
        if (b == nb && nb < 256)
            bins[nb++] = (struct bin){name, 0};
        if (b < nb)
            bins[b].count++;
    }
    qsort(bins, (size_t)nb, sizeof bins[0], by_count);
    printf("%-28s %7s\n", "function", "samples");
    for (int b = 0; b < nb && b < 15; b++) {
        int bar = nsamples ? bins[b].count * 40 / nsamples : 0;
        printf("%-28.28s %7d %.*s\n", bins[b].name, bins[b].count, bar,
               "****************************************");
    }
}

int main(int argc, char **argv)
{
    const char *event = argc > 1 ? argv[1] : "perf::PAGE-FAULTS";
    int threshold = argc > 2 ? atoi(argv[2]) : 50;
    int es = PAPI_NULL, code, ret;
    long long count;

    if (PAPI_library_init(PAPI_VER_CURRENT) != PAPI_VER_CURRENT) {
        fprintf(stderr, "PAPI_library_init failed\n");
        return 1;
    }
    if ((ret = PAPI_create_eventset(&es)) != PAPI_OK ||
        (ret = PAPI_event_name_to_code(event, &code)) != PAPI_OK ||
        (ret = PAPI_add_event(es, code)) != PAPI_OK) {
        fprintf(stderr, "cannot count %s: %s\n", event, PAPI_strerror(ret));
        return 1;
    }
    if ((ret = PAPI_overflow(es, code, threshold, 0, on_overflow)) != PAPI_OK) {
        fprintf(stderr, "PAPI_overflow: %s\n", PAPI_strerror(ret));
        return 1;
    }
    PAPI_start(es);
    touch_big_array(3000);
    sum_small_array(200000);
    touch_big_array(1000);
    PAPI_stop(es, &count);
    printf("%s: %lld events, an overflow every %d: %d samples (signal %d)\n", event, count,
           threshold, nsamples, PAPI_get_component_info(0)->hardware_intr_sig);
    print_histogram();
    PAPI_overflow(es, code, 0, 0, on_overflow);
    PAPI_cleanup_eventset(es);
    PAPI_destroy_eventset(&es);
    PAPI_shutdown();
    return nsamples > 0 ? 0 : 1;
}
