/* rank_series.c: PAPI_INTERVAL=SECONDS gives each rank's row a time series: a thread of
 * the wrapper sums the rank's counters (every thread's set, as the row does) every
 * SECONDS and keeps the counts since MPI_Init. No signal reaches the program: the thread
 * sleeps on a condition variable with every signal blocked. The series is bounded
 * (count_series.c: a full table is merged pairwise); the last sample is the row's own
 * counts, read as MPI_Finalize begins (row.c: a sample the sampler takes later is left
 * out), so the intervals sum to the row's counters and the last covers only the time
 * since the sample before it (never the wrapper's own work in MPI_Finalize), at least a
 * quarter step (a sample closer to it is folded in). Each sample's time is its read's
 * (pmpi_counters_read_rank_at). The row writes it
 * as papi_run writes its series: interval_s and per sample time_nsec and each event's
 * count over that interval, and each named metric (PAPI_MPI_METRICS) of that interval's
 * counts over its time, evaluated as the row's metrics are (never a ratio of averages).
 * A checkpoint or exit row carries the series too: the samples taken before the row's
 * counts were read, then the row's counts as the last sample. */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "count_series.h"
#include "counters.h"
#include "env.h"
#include "event_log.h"
#include "own_threads.h"
#include "rank_series.h"
#include "run_events.h"
#include "pmpi_identity.h"
#include "sampler_thread.h"
#include "socket_layout.h"
#include "state.h"
#include "text_buffer.h"

#define SERIES_MAX_SAMPLES 512 /* per rank: a row stays well inside its buffer */

static struct count_series series; /* under pmpi_state_lock */
static pthread_mutex_t wake_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t wake;
static pthread_t sampler_thread;
static pid_t sampler_pid; /* the process that started it (not a fork's child) */
static int running, stop;

/* Returns the series' step after the sample (read under the lock the series is under). */
static long long take_sample(void)
{
    long long sum[PMPI_MAX_EVENTS] = {0}, t;
    pthread_mutex_lock(&pmpi_state_lock);
    pmpi_counters_read_rank_at(sum, &t); /* the counts' own time, not a later one */
    cs_add(&series, t - pmpi_id()->t_init, sum);
    /* into the event log too: a rank that dies leaves its samples in its log file, and
     * the log keeps every sample where the series merges them when full */
    pmpi_log_counters(pmpi_ticks(), sum, pmpi_ev()->nevents);
    long long step = series.step_ns;
    pthread_mutex_unlock(&pmpi_state_lock);
    return step;
}

static void *sampler(void *arg)
{
    (void)arg;
    struct timespec next;
    clock_gettime(CLOCK_MONOTONIC, &next);
    long long step = series.step_ns; /* set before the thread started; then take_sample's */
    pthread_mutex_lock(&wake_lock);
    while (!stop) {
        st_advance(&next, step); /* the step doubles when the series merges */
        while (!stop && pthread_cond_timedwait(&wake, &wake_lock, &next) != ETIMEDOUT)
            ;
        if (stop)
            break;
        pthread_mutex_unlock(&wake_lock); /* a sample takes the run's lock, never both */
        step = take_sample();
        pthread_mutex_lock(&wake_lock);
    }
    pthread_mutex_unlock(&wake_lock);
    return NULL;
}

/* PAPI_INTERVAL's seconds, 0 when unset or bad (said by rank 0). */
static double interval(void)
{
    const char *s = env_get("PAPI_INTERVAL");
    if (!s || !*s) /* empty: unset, as the region API reads it */
        return 0;
    double v = cs_parse_interval(s);
    if (v < 0 && pmpi_id()->rank == 0)
        fprintf(stderr,
                "papi_mpi: PAPI_INTERVAL=%.40s is not a number of seconds in 0.001..86400: "
                "no time series\n",
                s);
    return v < 0 ? 0 : v;
}

void pmpi_series_start(void)
{
    double s = interval();
    if (s <= 0 || running || pmpi_ev()->nevents < 1)
        return;
    if (cs_init(&series, SERIES_MAX_SAMPLES, pmpi_ev()->nevents, s) != 0) {
        fprintf(stderr, "papi_mpi: PAPI_INTERVAL: out of memory, no time series\n");
        return;
    }
    stop = 0;
    sampler_pid = getpid();
    if (st_start(&sampler_thread, &wake, sampler) == 0)
        running = 1;
    else
        cs_free(&series);
}

/* MPI_Finalize, or the library's unload (below): the sampler woken and joined; a
 * fork's child has no sampler (and wake_lock may be the parent thread's, left locked). */
const struct count_series *pmpi_series_samples(void)
{
    return series.n > 0 && series.t && series.v ? &series : NULL;
}

void pmpi_series_stop(void)
{
    if (!running)
        return;
    if (pmpi_own_thread_here(sampler_pid)) {
        pthread_mutex_lock(&wake_lock);
        stop = 1;
        pthread_cond_signal(&wake);
        pthread_mutex_unlock(&wake_lock);
        if (pmpi_own_thread_join(sampler_thread, sampler_pid, "PAPI_INTERVAL sampler") != 0)
            return; /* still running (said): the series is read under the lock */
    }
    running = 0;
}

/* Unloaded (dlclose) or exiting without MPI_Finalize: the sampler must not outlive the
 * library's code. */
__attribute__((destructor)) static void series_unload(void)
{
    pmpi_series_stop();
}

/* The sampler may be adding samples: a checkpoint or exit row takes the run's lock
 * (waiting 1 s at most, as the row's own read does). */
static int lock_series(void)
{
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += 1;
    return pthread_mutex_timedlock(&pmpi_state_lock, &until) == 0;
}

/* "metrics": {name: value or null} of one interval's counts over dt_ns. */
static void sample_metrics(struct jw *w, const long long *delta, long long dt_ns)
{
    double v[PMPI_MAX_METRICS];
    int ok[PMPI_MAX_METRICS];
    char why[PMPI_MAX_METRICS][160];
    if (pmpi_ev()->nmetrics < 1)
        return;
    pmpi_counters_metrics(delta, (double)dt_ns * 1e-9, v, ok, why, sizeof why[0]);
    jw_obj_begin(w, "metrics");
    for (int k = 0; k < pmpi_ev()->nmetrics; k++) {
        if (ok[k])
            jw_digits(w, pmpi_ev()->metric_names[k], v[k], 9); /* null when not finite */
        else
            jw_null(w, pmpi_ev()->metric_names[k]);
    }
    jw_obj_end(w);
}

/* One sample: its time, each event's count over the interval, the interval's metrics. */
static void sample_json(struct jw *w, long long t_ns, long long dt_ns, const long long *now,
                        const long long *prev)
{
    long long delta[PMPI_MAX_EVENTS];
    jw_obj_begin(w, NULL);
    jw_int(w, "time_nsec", t_ns);
    for (int e = 0; e < pmpi_ev()->nevents; e++) {
        delta[e] = now[e] - (prev ? prev[e] : 0);
        if (pmpi_socket_counted_here(pmpi_ev()->event_names[e], 1))
            jw_int(w, pmpi_ev()->event_names[e], delta[e]);
    }
    sample_metrics(w, delta, dt_ns);
    jw_obj_end(w);
}

static int samples_before(long long end_ns)
{
    int n = 0;
    while (n < series.n && series.t[n] < end_ns)
        n++;
    return n;
}

/* The samples taken before the row's counts were read at end_ns, less those taken under a
 * quarter step before it: they are folded into the last interval. Each read's time is the
 * middle of a read that may take READ_SKEW_NS (counters.c), an error a microseconds-long
 * last interval would turn into a rate over 100 % of a CPU. */
int pmpi_series_kept(long long end_ns)
{
    return samples_before(end_ns - series.step_ns / 4);
}

void pmpi_series_json(struct jw *w, const long long *tail, long long tail_ns)
{
    int locked = running; /* else the sampler is stopped: nothing changes the series */
    if (!series.t || (locked && !lock_series()))
        return;
    const long long *prev = NULL;
    long long prev_t = 0;
    int with_tail = tail != NULL; /* the row's counts: the last sample */
    int n = with_tail ? pmpi_series_kept(tail_ns) : samples_before(tail_ns);
    if (n + with_tail > 0) {
        jw_obj_begin(w, "series");
        jw_digits(w, "interval_s", (double)series.step_ns * 1e-9, 9);
        jw_str(w, "counts", "of each interval (the samples sum to the counters)");
        jw_arr_begin(w, "samples");
        for (int j = 0; j < n + with_tail; j++) {
            const long long *now = j < n ? series.v + (size_t)j * (size_t)series.width : tail;
            long long tj = j < n ? series.t[j] : tail_ns;
            sample_json(w, tj, tj - prev_t, now, prev);
            prev = now;
            prev_t = tj;
        }
        jw_arr_end(w);
        jw_obj_end(w);
    }
    if (locked)
        pthread_mutex_unlock(&pmpi_state_lock);
}
