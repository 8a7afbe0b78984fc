/* hl_interval.c: PAPI_INTERVAL=SECONDS gives the region report a time series: a thread
 * of the library reads the process counters of the all-thread totals (hl_all_threads.c:
 * one per thread of the process, with the threads it creates) every SECONDS and keeps
 * the counts. No signal reaches the program: the thread sleeps on a condition variable
 * and blocks every signal. The series is bounded (count_series.c, shared with papi_run
 * and the MPI wrapper: a full table is merged pairwise, doubling the step); the
 * intervals' counts always sum to the totals. The last sample is taken when the report
 * is written. With PAPI_METRICS each thread's sample carries the metrics of its interval's
 * counts over the interval's time, and "process_metrics" those of the threads' counts
 * summed (the process's), evaluated as the region metrics are: never a ratio of averages. */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "count_series.h"
#include "env.h"
#include "hl_all_threads.h"
#include "hl_clock.h"
#include "hl_interval.h"
#include "hl_metric_value.h"
#include "hl_state.h"
#include "hl_trace.h"
#include "json_writer.h"
#include "sampler_thread.h"

#define HLI_MAX_SAMPLES 1024

static pthread_mutex_t hli_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t hli_wake;
static struct {
    int running, stop;
    pthread_t thread;
    unsigned generation;
    long long start_ns;
    int nsets;
    long tid[HLA_MAX_THREADS];
    struct count_series series; /* a sample: [nsets][nevents], counts so far */
    long long *latest;          /* [HLA_MAX_THREADS][nevents] */
} hli;

/* Under hli_lock. 0, or -1 once the counters are gone. */
static int take_sample(void)
{
    int n = 0;
    if (hla_read_each(hli.generation, hli.latest, &n, hli.tid) != PAPI_OK)
        return -1;
    if (n != hli.nsets)
        return -1;
    cs_add(&hli.series, hl_real_ns() - hli.start_ns, hli.latest);
    hl_trace_counters(n, hli.tid, hli.latest, g_hlr.nevents);
    return 0;
}

static void *sampler(void *arg)
{
    (void)arg;
    struct timespec next;
    clock_gettime(CLOCK_MONOTONIC, &next);
    pthread_mutex_lock(&hli_lock);
    while (!hli.stop) {
        st_advance(&next, hli.series.step_ns); /* the step doubles when the series merges */
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
    if (!s || !*s)
        return 0;
    double v = cs_parse_interval(s);
    if (v < 0) {
        papi_error(PAPI_EINVAL, "PAPI_INTERVAL=%s is not a number of seconds in 0.001..86400", s);
        fprintf(stderr,
                "PAPI: PAPI_INTERVAL=%.40s is not a number of seconds in 0.001..86400: "
                "no time series\n",
                s);
        return 0;
    }
    return v;
}

void hli_start(unsigned generation, int nsets)
{
    double s = interval();
    pthread_mutex_lock(&hli_lock);
    if (s <= 0 || hli.running)
        goto out;
    cs_free(&hli.series);
    free(hli.latest);
    hli.nsets = nsets;
    /* Touched now, in the set-up: the samples then fault no page in any region. */
    int bad = cs_init(&hli.series, HLI_MAX_SAMPLES, nsets * g_hlr.nevents, s);
    hli.latest = calloc((size_t)HLA_MAX_THREADS * (size_t)g_hlr.nevents, sizeof *hli.latest);
    hli.stop = 0;
    hli.generation = generation;
    hli.start_ns = hl_real_ns();
    if (bad || !hli.latest)
        fprintf(stderr, "PAPI: PAPI_INTERVAL: out of memory, no time series\n");
    else if (st_start(&hli.thread, &hli_wake, sampler) == 0)
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

/* "metrics": {name: value} of counts v over real_nsec, when PAPI_METRICS names any. */
static void write_metrics(struct jw *w, const long long *v, long long real_nsec)
{
    if (g_hlr.nmetrics < 1)
        return;
    jw_obj_begin(w, "metrics");
    for (int m = 0; m < g_hlr.nmetrics; m++)
        hl_write_metric_value(w, &g_hlr.metric[m], v, real_nsec);
    jw_obj_end(w);
}

static long long interval_ns(int j)
{
    return hli.series.t[j] - (j ? hli.series.t[j - 1] : 0);
}

static void write_thread(struct jw *w, int k)
{
    char key[32];
    long long d[HLR_MAX_EVENTS];
    const int ne = g_hlr.nevents;
    snprintf(key, sizeof key, "%ld", hli.tid[k]);
    jw_arr_begin(w, key);
    for (int j = 0; j < hli.series.n; j++) {
        jw_obj_begin(w, NULL);
        jw_int(w, "time_nsec", hli.series.t[j]);
        for (int i = 0; i < ne; i++) {
            d[i] = cs_delta(&hli.series, j, k * ne + i);
            jw_int(w, g_hlr.name[i], d[i]);
        }
        write_metrics(w, d, interval_ns(j));
        jw_obj_end(w);
    }
    jw_arr_end(w);
}

/* "process_metrics": per sample, the metrics of every thread's counts summed. */
static void write_process_metrics(struct jw *w)
{
    long long d[HLR_MAX_EVENTS];
    if (g_hlr.nmetrics < 1)
        return;
    jw_arr_begin(w, "process_metrics");
    for (int j = 0; j < hli.series.n; j++) {
        for (int i = 0; i < g_hlr.nevents; i++) {
            d[i] = 0;
            for (int k = 0; k < hli.nsets; k++)
                d[i] += cs_delta(&hli.series, j, k * g_hlr.nevents + i);
        }
        jw_obj_begin(w, NULL);
        jw_int(w, "time_nsec", hli.series.t[j]);
        write_metrics(w, d, interval_ns(j));
        jw_obj_end(w);
    }
    jw_arr_end(w);
}

/* "region_spans": per thread, each ended region instance's id, name and span in the
 * series' time (ns since its start), so that a reader can draw the series per region. */
static void write_spans(struct jw *w)
{
    char key[32];
    jw_obj_begin(w, "region_spans");
    for (struct hlr_thread *t = g_hlr_threads; t; t = t->next) {
        pthread_mutex_lock(&t->lock);
        snprintf(key, sizeof key, "%d", t->key); /* numbered as in "threads" */
        const int any = t->key >= 0 && t->ninst > 0;
        if (any)
            jw_arr_begin(w, key);
        for (int i = 0; any && i < t->ninst; i++) {
            const struct hlr_instance *in = &t->inst[i];
            if (!in->done)
                continue;
            jw_obj_begin(w, NULL);
            jw_int(w, "id", i);
            jw_str(w, "name", t->region[in->region].name);
            jw_int(w, "begin_nsec", in->begin_real - hli.start_ns);
            jw_int(w, "end_nsec", in->begin_real + in->value.real - hli.start_ns);
            jw_obj_end(w);
        }
        if (any)
            jw_arr_end(w);
        pthread_mutex_unlock(&t->lock);
    }
    jw_obj_end(w);
}

void hli_write(struct jw *w)
{
    pthread_mutex_lock(&hli_lock);
    if (hli.series.n > 0) {
        const long long *last =
            hli.series.v + (size_t)(hli.series.n - 1) * (size_t)hli.series.width;
        jw_obj_begin(w, "series");
        jw_double(w, "interval_s", (double)hli.series.step_ns * 1e-9);
        jw_obj_begin(w, "threads");
        for (int k = 0; k < hli.nsets; k++)
            write_thread(w, k);
        jw_obj_end(w);
        write_process_metrics(w);
        jw_obj_begin(w, "totals");
        for (int i = 0; i < g_hlr.nevents; i++) {
            long long sum = 0;
            for (int k = 0; k < hli.nsets; k++)
                sum += last[(size_t)k * (size_t)g_hlr.nevents + (size_t)i];
            jw_int(w, g_hlr.name[i], sum);
        }
        jw_obj_end(w);
    }
    int have = hli.series.n > 0;
    pthread_mutex_unlock(&hli_lock);
    if (have) { /* each thread's lock after hli_lock is let go: a begin takes them the
                   other way round (hli_start) */
        write_spans(w);
        jw_obj_end(w);
    }
}
