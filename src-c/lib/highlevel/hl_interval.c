/* hl_interval.c: PAPI_INTERVAL=SECONDS gives the region report a time series: a thread
 * of the library reads the process counters of the all-thread totals (hl_all_threads.c:
 * one per thread of the process, with the threads it creates) every SECONDS and keeps
 * the counts. No signal reaches the program: the thread sleeps on a condition variable
 * and blocks every signal. The series is bounded: when its table is full every other
 * sample is dropped, which merges two intervals into one (the samples hold counts since
 * the start) and doubles the step; the intervals' counts always sum to the totals. The
 * last sample is taken when the report is written. */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "env.h"
#include "hl_all_threads.h"
#include "hl_interval.h"
#include "hl_state.h"
#include "json_writer.h"

#define HLI_MAX_SAMPLES 1024

static pthread_mutex_t hli_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t hli_wake;
static struct {
    int running, stop;
    pthread_t thread;
    unsigned generation;
    long long step_ns, start_ns;
    int nsamples, nsets;
    long tid[HLA_MAX_THREADS];
    long long *t;      /* [HLI_MAX_SAMPLES] */
    long long *v;      /* [HLI_MAX_SAMPLES][nsets][nevents], counts so far */
    long long *latest; /* [HLA_MAX_THREADS][nevents] */
} hli;

/* One sample's counts: nsets x nevents (the sets are fixed once set up). */
static size_t row(void)
{
    return (size_t)hli.nsets * (size_t)g_hlr.nevents;
}

static void halve(void)
{
    int kept = 0;
    for (int k = 1; k < hli.nsamples; k += 2, kept++) {
        hli.t[kept] = hli.t[k];
        memcpy(hli.v + (size_t)kept * row(), hli.v + (size_t)k * row(), row() * sizeof *hli.v);
    }
    hli.nsamples = kept;
    hli.step_ns *= 2;
}

/* Under hli_lock. 0, or -1 once the counters are gone. */
static int take_sample(void)
{
    int n = 0;
    if (hla_read_each(hli.generation, hli.latest, &n, hli.tid) != PAPI_OK)
        return -1;
    if (n != hli.nsets)
        return -1;
    if (hli.nsamples == HLI_MAX_SAMPLES)
        halve();
    hli.t[hli.nsamples] = hl_real_ns() - hli.start_ns;
    memcpy(hli.v + (size_t)hli.nsamples * row(), hli.latest, row() * sizeof *hli.v);
    hli.nsamples++;
    return 0;
}

static void *sampler(void *arg)
{
    (void)arg;
    struct timespec next;
    clock_gettime(CLOCK_MONOTONIC, &next);
    pthread_mutex_lock(&hli_lock);
    while (!hli.stop) {
        long long ns = next.tv_nsec + hli.step_ns % 1000000000LL;
        next.tv_sec += hli.step_ns / 1000000000LL + ns / 1000000000LL;
        next.tv_nsec = ns % 1000000000LL;
        while (!hli.stop && pthread_cond_timedwait(&hli_wake, &hli_lock, &next) != ETIMEDOUT)
            ;
        if (!hli.stop && take_sample() != 0)
            break;
    }
    pthread_mutex_unlock(&hli_lock);
    return NULL;
}

/* PAPI_INTERVAL in seconds, 0 when unset or not a positive number (said once). */
static double interval(void)
{
    const char *s = env_get("PAPI_INTERVAL");
    char *end;
    if (!s || !*s)
        return 0;
    double v = strtod(s, &end);
    if (end == s || *end || !isfinite(v) || v < 0.001 || v > 86400) {
        papi_error(PAPI_EINVAL, "PAPI_INTERVAL=%s is not a number of seconds in 0.001..86400", s);
        fprintf(stderr,
                "PAPI: PAPI_INTERVAL=%.40s is not a number of seconds in 0.001..86400: "
                "no time series\n",
                s);
        return 0;
    }
    return v;
}

static int start_thread(void)
{
    pthread_condattr_t ca;
    pthread_attr_t ta;
    sigset_t all, old;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_cond_init(&hli_wake, &ca);
    pthread_condattr_destroy(&ca);
    pthread_attr_init(&ta);
    pthread_attr_setstacksize(&ta, 64 * 1024);
    sigfillset(&all); /* the program's signals never land on the sampler */
    pthread_sigmask(SIG_SETMASK, &all, &old);
    int ret = pthread_create(&hli.thread, &ta, sampler, NULL);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    pthread_attr_destroy(&ta);
    return ret;
}

void hli_start(unsigned generation, int nsets)
{
    double s = interval();
    pthread_mutex_lock(&hli_lock);
    if (s <= 0 || hli.running)
        goto out;
    free(hli.t);
    free(hli.v);
    free(hli.latest);
    hli.nsets = nsets;
    hli.t = calloc(HLI_MAX_SAMPLES, sizeof *hli.t);
    hli.v = malloc((size_t)HLI_MAX_SAMPLES * row() * sizeof *hli.v);
    hli.latest = calloc((size_t)HLA_MAX_THREADS * (size_t)g_hlr.nevents, sizeof *hli.latest);
    /* Touched now, in the set-up: the samples then fault no page in any region. */
    if (hli.v)
        memset(hli.v, 0, (size_t)HLI_MAX_SAMPLES * row() * sizeof *hli.v);
    hli.nsamples = hli.stop = 0;
    hli.generation = generation;
    hli.step_ns = (long long)(s * 1e9);
    hli.start_ns = hl_real_ns();
    if (!hli.t || !hli.v || !hli.latest)
        fprintf(stderr, "PAPI: PAPI_INTERVAL: out of memory, no time series\n");
    else if (start_thread() == 0)
        hli.running = 1;
out:
    pthread_mutex_unlock(&hli_lock);
}

void hli_stop(void)
{
    pthread_mutex_lock(&hli_lock);
    int was = hli.running;
    hli.stop = 1;
    hli.running = 0;
    if (was) {
        pthread_cond_signal(&hli_wake);
        pthread_mutex_unlock(&hli_lock);
        pthread_join(hli.thread, NULL);
        pthread_mutex_lock(&hli_lock);
        take_sample();
    }
    pthread_mutex_unlock(&hli_lock);
}

static void write_thread(struct jw *w, int k)
{
    char key[32];
    const int ne = g_hlr.nevents;
    snprintf(key, sizeof key, "%ld", hli.tid[k]);
    jw_arr_begin(w, key);
    for (int j = 0; j < hli.nsamples; j++) {
        const long long *now = hli.v + (size_t)j * row() + (size_t)k * (size_t)ne;
        const long long *before = j ? now - row() : NULL;
        jw_obj_begin(w, NULL);
        jw_int(w, "time_nsec", hli.t[j]);
        for (int i = 0; i < ne; i++)
            jw_int(w, g_hlr.name[i], now[i] - (before ? before[i] : 0));
        jw_obj_end(w);
    }
    jw_arr_end(w);
}

void hli_write(struct jw *w)
{
    pthread_mutex_lock(&hli_lock);
    if (hli.nsamples > 0) {
        const long long *last = hli.v + (size_t)(hli.nsamples - 1) * row();
        jw_obj_begin(w, "series");
        jw_double(w, "interval_s", (double)hli.step_ns * 1e-9);
        jw_obj_begin(w, "threads");
        for (int k = 0; k < hli.nsets; k++)
            write_thread(w, k);
        jw_obj_end(w);
        jw_obj_begin(w, "totals");
        for (int i = 0; i < g_hlr.nevents; i++) {
            long long sum = 0;
            for (int k = 0; k < hli.nsets; k++)
                sum += last[(size_t)k * (size_t)g_hlr.nevents + (size_t)i];
            jw_int(w, g_hlr.name[i], sum);
        }
        jw_obj_end(w);
        jw_obj_end(w);
    }
    pthread_mutex_unlock(&hli_lock);
}
