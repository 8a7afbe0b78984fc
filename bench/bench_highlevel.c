/* bench_highlevel: ns per PAPI_flops / PAPI_flops_rate / PAPI_ipc call against one
 * PAPI_read of the same events (the goal: a rate call costs at most 1.2x the read).
 * Short rounds alternate the two so that machine drift hits both; the figure is the
 * median of the per-round ratios (robust to other processes sharing the cores).
 * Without hardware FP events it uses the test preset CSV (presets on page faults).
 *
 * bench_highlevel threads N|joined: the region cost with threads, for callgrind's
 * instruction counts (bench/README.md): PAPI_EVENTS' regions (perf::PAGE-FAULTS unless
 * set) begun and ended PAIRS times in region_pairs() on the main thread, with N threads
 * asleep from before the first region (0: none ever), or with one created and joined
 * before it ("joined"); prints the read() system calls per pair (syscr). Run as
 *   valgrind --tool=callgrind --toggle-collect=region_pairs bench_highlevel threads 1
 * and divide the collected Ir by PAIRS. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bench_timing.h"
#include "papi.h"
#include "test_workload.h"

#define ROUNDS 201
#define CALLS  500

/* ns per PAPI_read of a low-level set holding events. */
static double time_read(const int *events, int n)
{
    int es = PAPI_NULL;
    long long v[4];
    if (PAPI_create_eventset(&es) != PAPI_OK || PAPI_add_events(es, (int *)events, n) != PAPI_OK ||
        PAPI_start(es) != PAPI_OK) {
        fprintf(stderr, "cannot count the events with the low-level API\n");
        exit(1);
    }
    long long t0 = now_ns();
    for (int i = 0; i < CALLS; i++)
        PAPI_read(es, v);
    long long t1 = now_ns();
    PAPI_stop(es, v);
    PAPI_cleanup_eventset(es);
    PAPI_destroy_eventset(&es);
    return (double)(t1 - t0) / CALLS;
}

enum which { FLOPS, FLOPS_RATE, IPC };

static double time_rate(enum which w)
{
    float rt, pt, r;
    long long c;
    int ret = PAPI_OK;
    /* The first call starts the counters: not timed. */
    for (int i = 0; i < 2; i++)
        ret |= w == FLOPS ? PAPI_flops(&rt, &pt, &c, &r)
               : w == IPC ? PAPI_ipc(&rt, &pt, &c, &r)
                          : PAPI_flops_rate(PAPI_FP_OPS, &rt, &pt, &c, &r);
    if (ret != PAPI_OK) {
        fprintf(stderr, "the rate call failed: %s\n", PAPI_strerror(ret));
        exit(1);
    }
    long long t0 = now_ns();
    if (w == FLOPS)
        for (int i = 0; i < CALLS; i++)
            PAPI_flops(&rt, &pt, &c, &r);
    else if (w == IPC)
        for (int i = 0; i < CALLS; i++)
            PAPI_ipc(&rt, &pt, &c, &r);
    else
        for (int i = 0; i < CALLS; i++)
            PAPI_flops_rate(PAPI_FP_OPS, &rt, &pt, &c, &r);
    long long t1 = now_ns();
    PAPI_rate_stop();
    return (double)(t1 - t0) / CALLS;
}

static void compare(const char *name, enum which w, const int *events, int n)
{
    double rd[ROUNDS], hl[ROUNDS], ratio[ROUNDS];
    for (int i = 0; i < ROUNDS; i++) {
        rd[i] = time_read(events, n);
        hl[i] = time_rate(w);
        ratio[i] = hl[i] / rd[i];
    }
    double a = median(rd, ROUNDS), b = median(hl, ROUNDS), r = median(ratio, ROUNDS);
    printf("%-16s %6.0f ns   PAPI_read of the same %d event(s) %6.0f ns   median ratio %.3f %s\n",
           name, b, n, a, r, r <= 1.2 ? "(<= 1.2: ok)" : "(ABOVE 1.2)");
}

/* ns per PAPI_hl_region_begin + PAPI_hl_region_end pair (two reads of the set). */
static void time_regions(const int *events, int n)
{
    double rd[ROUNDS], pair[ROUNDS], ratio[ROUNDS];
    PAPI_hl_region_begin("bench"); /* first region: opens the thread's set */
    PAPI_hl_region_end("bench");
    for (int i = 0; i < ROUNDS; i++) {
        PAPI_hl_stop(); /* one running set per thread: the read set needs the slot */
        rd[i] = time_read(events, n);
        long long t0 = now_ns();
        for (int k = 0; k < CALLS; k++) {
            PAPI_hl_region_begin("bench");
            PAPI_hl_region_end("bench");
        }
        pair[i] = (double)(now_ns() - t0) / CALLS;
        ratio[i] = pair[i] / (2 * rd[i]);
    }
    printf("%-16s %6.0f ns   2 x PAPI_read of the same %d event(s) %6.0f ns   median ratio %.3f\n",
           "region begin+end", median(pair, ROUNDS), n, 2 * median(rd, ROUNDS),
           median(ratio, ROUNDS));
}

#define PAIRS 1000

static __attribute__((noinline)) void region_pairs(void)
{
    for (int k = 0; k < PAIRS; k++) {
        PAPI_hl_region_begin("bench");
        PAPI_hl_region_end("bench");
    }
}

static int sleepers[2] = {-1, -1};

static void *sleeper(void *arg)
{
    char c;
    (void)arg;
    if (read(sleepers[0], &c, 1) < 0) /* returns when the pipe is closed */
        perror("bench_highlevel: sleeper");
    return NULL;
}

static int threads_bench(const char *what)
{
    int joined = strcmp(what, "joined") == 0, n = joined ? 1 : atoi(what);
    pthread_t t[64];
    if (n < 0 || n > 64 || pipe(sleepers) != 0)
        return 2;
    for (int i = 0; i < n; i++)
        if (pthread_create(&t[i], NULL, sleeper, NULL) != 0)
            return 1;
    if (joined) {
        close(sleepers[1]);
        pthread_join(t[0], NULL);
    }
    setenv("PAPI_EVENTS", "perf::PAGE-FAULTS", 0);
    setenv("PAPI_OUTPUT_DIRECTORY", "/tmp", 0);
    PAPI_hl_region_begin("bench"); /* the set-up, not measured */
    PAPI_hl_region_end("bench");
    long a = read_syscalls("/proc/thread-self/io");
    region_pairs();
    long b = read_syscalls("/proc/thread-self/io");
    printf("threads %s: %d pairs, %.2f read() calls per pair\n", what, PAIRS,
           (double)(b - a) / PAIRS);
    if (!joined) {
        close(sleepers[1]);
        for (int i = 0; i < n; i++)
            pthread_join(t[i], NULL);
    }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], "threads") == 0)
        return threads_bench(argv[2]);
#ifdef HL_TEST_CSV
    if (!getenv("PAPI_CSV_EVENT_FILE"))
        setenv("PAPI_CSV_EVENT_FILE", HL_TEST_CSV, 0);
#endif
    if (PAPI_library_init(PAPI_VER_CURRENT) != PAPI_VER_CURRENT)
        return 1;
    printf("presets from %s\n",
           getenv("PAPI_CSV_EVENT_FILE") ? getenv("PAPI_CSV_EVENT_FILE") : "the built-in table");
    const int fp[1] = {PAPI_FP_OPS}, ipc[2] = {PAPI_TOT_INS, PAPI_TOT_CYC};
    compare("PAPI_flops", FLOPS, fp, 1);
    compare("PAPI_flops_rate", FLOPS_RATE, fp, 1);
    compare("PAPI_ipc", IPC, ipc, 2);
    setenv("PAPI_EVENTS", "PAPI_FP_OPS", 1);
    setenv("PAPI_OUTPUT_DIRECTORY", "/tmp", 0); /* the region report of the benchmark */
    time_regions(fp, 1);
    return 0;
}
