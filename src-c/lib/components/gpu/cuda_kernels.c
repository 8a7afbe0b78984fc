/* cuda_kernels.c: the cuda component's per-kernel mode (papi_gpu_kernels.h, for papi_run
 * --gpu-counters): one session per device the program uses, in CUPTI's auto range mode, a
 * range around each kernel launch named by the kernel; at collection each range's values
 * are added to its (device, kernel) row (launches, one sum per metric). One per process.
 *
 * The start comes from papi_run's preloaded constructor, before the program has made a
 * CUDA context: a device without one waits for it (the GPU activity layer's subscription
 * tells of each context made, gpu_activity_watch_contexts) and its session begins in the
 * context-created callback, before the program's first launch there; it is collected when
 * that context is about to be destroyed (cudaDeviceReset, the program's end), or at the
 * stop. An MPI rank on device N (cudaSetDevice(local rank)) is counted on device N. */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "papi_gpu_kernels.h"

#include "cuda_kernels.h"
#include "cuda_libs.h"
#include "cuda_session.h"
#include "gpu_activity.h"
#include "papi_sdk.h"

#define KERNEL_METRICS 32
#define KERNEL_DEVICES 16

struct kernel_row {
    int device;
    char *name;
    unsigned long launches;
    double sums[KERNEL_METRICS];
};

/* A device's session: none (no context yet, or not counted), waiting for the program's
 * context, running, collected (its rows are in), or failed (why). */
enum dev_state { DEV_NONE, DEV_WAITING, DEV_RUNNING, DEV_COLLECTED, DEV_FAILED };

struct dev_session {
    enum dev_state state;
    int retained; /* the primary context retained at the start (cuda_context_find) */
    const char *chip;
    struct cuda_session s;
    char why[512];
};

static pthread_mutex_t kernels_lock = PTHREAD_MUTEX_INITIALIZER;
static struct {
    int started, stopped, n, ndev;
    char *text; /* the metric names, NUL-separated; names[] point into it */
    const char *names[KERNEL_METRICS];
    struct dev_session dev[KERNEL_DEVICES];
    struct kernel_row *rows;
    int nrows, cap;
    size_t dropped; /* launches without a row (no memory) */
    /* Each launch's values, kept where asked (papi_gpu_kernels_keep_launches: a trace's
     * counter tracks): its row, then kn.n values each, in collection order (a device's
     * in launch order); those past LAUNCHES_KEPT counted. */
    int keep;
    int *launch_row;
    double *launch_values;
    long nlaunch, launch_cap, launches_not_kept;
} kn;

#define LAUNCHES_KEPT (1L << 16)

/* A launch's values kept (row k's), or counted as not kept (past LAUNCHES_KEPT, no
 * memory). */
static void keep_launch(int k, const double *values)
{
    if (kn.nlaunch == kn.launch_cap) {
        long cap = kn.launch_cap ? kn.launch_cap * 2 : 1024;
        int *rows =
            cap <= LAUNCHES_KEPT ? realloc(kn.launch_row, (size_t)cap * sizeof *rows) : NULL;
        if (rows)
            kn.launch_row = rows;
        double *v = rows ? realloc(kn.launch_values, (size_t)cap * (size_t)kn.n * sizeof *v) : NULL;
        if (!v) {
            kn.launches_not_kept++;
            return;
        }
        kn.launch_values = v;
        kn.launch_cap = cap;
    }
    kn.launch_row[kn.nlaunch] = k;
    memcpy(kn.launch_values + (size_t)kn.nlaunch * (size_t)kn.n, values,
           (size_t)kn.n * sizeof *values);
    kn.nlaunch++;
}

/* One decoded range of device *arg: its values added to its (device, kernel) row (a row
 * that cannot be made for want of memory: the launch counted as dropped, never left out
 * unsaid). */
static void add_range(void *arg, const char *kernel, const double *values)
{
    int device = (int)(intptr_t)arg, k = 0;
    while (k < kn.nrows && (kn.rows[k].device != device || strcmp(kn.rows[k].name, kernel) != 0))
        k++;
    if (k == kn.nrows) {
        if (kn.nrows == kn.cap) {
            int cap = kn.cap ? kn.cap * 2 : 16;
            struct kernel_row *r = realloc(kn.rows, (size_t)cap * sizeof *r);
            if (!r) {
                kn.dropped++;
                return;
            }
            kn.rows = r;
            kn.cap = cap;
        }
        memset(&kn.rows[k], 0, sizeof kn.rows[k]);
        if (!(kn.rows[k].name = strdup(kernel))) {
            kn.dropped++;
            return;
        }
        kn.rows[k].device = device;
        kn.nrows++;
    }
    kn.rows[k].launches++;
    for (int i = 0; i < kn.n; i++)
        kn.rows[k].sums[i] += values[i];
    if (kn.keep)
        keep_launch(k, values);
}

/* The metric names of the comma-separated list: their count, or -1 with why. */
static int split(const char *metrics, char *why, size_t len)
{
    if (!(kn.text = strdup(metrics ? metrics : "")))
        return snprintf(why, len, "no memory"), -1;
    int n = 0;
    for (char *save, *m = strtok_r(kn.text, ",", &save); m; m = strtok_r(NULL, ",", &save)) {
        if (n == KERNEL_METRICS)
            return snprintf(why, len, "more than %d metrics", KERNEL_METRICS), -1;
        kn.names[n++] = m;
    }
    if (n == 0)
        snprintf(why, len,
                 "no metric named (CUPTI's names, comma-separated: "
                 "sm__cycles_active.sum,dram__bytes.sum)");
    return n ? n : -1;
}

/* The first metric CUPTI does not know on device's chip, said with the chip; else the
 * set's own refusal (more than one pass). */
static int check(int device, const char *chip, CUcontext ctx, char *why, size_t len)
{
    for (int i = 0; i < kn.n; i++)
        if (cuda_session_check(chip, device, ctx, &kn.names[i], 1) != PAPI_OK) {
            snprintf(why, len, "%s: not a metric of device %d (%s): %s", kn.names[i], device, chip,
                     papi_last_error_detail());
            return -1;
        }
    if (cuda_session_check(chip, device, ctx, kn.names, kn.n) != PAPI_OK) {
        snprintf(why, len, "%s", papi_last_error_detail());
        return -1;
    }
    return 0;
}

/* Device's session on ctx, its metrics checked on its chip first: running, or failed
 * with why. */
static void begin_on(int device, CUcontext ctx)
{
    struct dev_session *d = &kn.dev[device];
    if (check(device, d->chip, ctx, d->why, sizeof d->why) != 0) {
        d->state = DEV_FAILED;
        return;
    }
    d->s = (struct cuda_session){.device = device,
                                 .ctx = ctx,
                                 .names = kn.names,
                                 .n = kn.n,
                                 .per_kernel = 1,
                                 .per_range = add_range,
                                 .per_range_arg = (void *)(intptr_t)device};
    if (cuda_session_begin(&d->s, d->chip) == PAPI_OK)
        d->state = DEV_RUNNING;
    else
        d->state = DEV_FAILED, snprintf(d->why, sizeof d->why, "%s", papi_last_error_detail());
}

/* Device's session collected (its rows added): collected, or failed with why. */
static void collect(int device)
{
    struct dev_session *d = &kn.dev[device];
    if (cuda_session_collect(&d->s, 0) == PAPI_OK)
        d->state = DEV_COLLECTED;
    else
        d->state = DEV_FAILED, snprintf(d->why, sizeof d->why, "%s", papi_last_error_detail());
}

/* A context made (its device's waiting session begins) or about to be destroyed (the
 * session running in it collected while the context lives). */
static void context_event(CUcontext ctx, int device, int created)
{
    if (device < 0 || device >= KERNEL_DEVICES)
        return;
    pthread_mutex_lock(&kernels_lock);
    struct dev_session *d = &kn.dev[device];
    if (device < kn.ndev && !kn.stopped) {
        if (created && d->state == DEV_WAITING)
            begin_on(device, ctx);
        else if (!created && d->state == DEV_RUNNING && d->s.ctx == ctx)
            collect(device);
    }
    pthread_mutex_unlock(&kernels_lock);
}

int papi_gpu_kernels_start(const char *metrics, char *why, size_t len)
{
    pthread_mutex_lock(&kernels_lock);
    int ret = -1, waiting = 0, running = 0, failed = 0;
    const char *no = NULL;
    if (kn.started)
        snprintf(why, len, "already started");
    else if ((kn.n = split(metrics, why, len)) < 0)
        ;
    else if (!cuda_device_chip(0, &no))
        snprintf(why, len, "component cuda is disabled: %s", no);
    else {
        while (kn.ndev < KERNEL_DEVICES && (kn.dev[kn.ndev].chip = cuda_device_chip(kn.ndev, &no)))
            kn.ndev++;
        for (int device = 0; device < kn.ndev; device++) {
            struct dev_session *d = &kn.dev[device];
            CUcontext ctx = NULL;
            if (cuda_context_find("cuda", device, &ctx, &d->retained) != PAPI_OK) {
                d->state = DEV_WAITING, waiting++;
                continue;
            }
            begin_on(device, ctx);
            running += d->state == DEV_RUNNING;
            if (d->state == DEV_FAILED && !failed) /* a refusal said now, for every device */
                failed = 1, snprintf(why, len, "%s", d->why);
        }
        char watch[512] = "";
        if (!failed && waiting &&
            gpu_activity_watch_contexts(context_event, watch, sizeof watch) != 0)
            for (int device = 0; device < kn.ndev; device++)
                if (kn.dev[device].state == DEV_WAITING) {
                    kn.dev[device].state = DEV_NONE;
                    waiting--;
                }
        if (!failed && (running || waiting))
            ret = 0;
        else if (!failed)
            snprintf(why, len,
                     "no device has a CUDA context yet, and the counting cannot wait for the "
                     "program's: %s",
                     watch);
    }
    kn.started = ret == 0;
    if (ret != 0)
        for (int device = 0; device < kn.ndev; device++) {
            struct dev_session *d = &kn.dev[device];
            if (d->state == DEV_RUNNING)
                cuda_session_end(&d->s);
            d->state = DEV_NONE;
            if (d->retained)
                cuda_context_release(device), d->retained = 0;
        }
    pthread_mutex_unlock(&kernels_lock);
    return ret;
}

int papi_gpu_kernels_stop(char *why, size_t len)
{
    pthread_mutex_lock(&kernels_lock);
    int ret = -1, counted = 0;
    size_t used = 0;
    why[0] = 0;
    if (!kn.started || kn.stopped) {
        snprintf(why, len, "%s", kn.stopped ? "already stopped" : "never started");
        pthread_mutex_unlock(&kernels_lock);
        return -1;
    }
    for (int device = 0; device < kn.ndev; device++) {
        struct dev_session *d = &kn.dev[device];
        if (d->state == DEV_RUNNING)
            collect(device);
        counted += d->state == DEV_COLLECTED;
        if (d->state == DEV_FAILED && used < len) { /* every failed device, in one line */
            int w = snprintf(why + used, len - used, "%sdevice %d (%s): %s", used ? "; " : "",
                             device, d->chip, d->why);
            used += w > 0 ? (size_t)w : 0;
        }
        if (d->retained)
            cuda_context_release(device), d->retained = 0;
    }
    if (counted)
        ret = kn.nrows;
    else if (!used)
        snprintf(why, len,
                 "the program made no CUDA context on any device (no kernel ran, or they ran "
                 "before papi_run's library started)");
    kn.stopped = 1;
    pthread_mutex_unlock(&kernels_lock);
    return ret;
}

int papi_gpu_kernels_devices(int *devices, int max)
{
    int n = 0;
    for (int device = 0; kn.stopped && device < kn.ndev; device++)
        if (kn.dev[device].state == DEV_COLLECTED && n < max)
            devices[n++] = device;
    return n;
}

int papi_gpu_kernels_nmetrics(void)
{
    return kn.stopped ? kn.n : 0;
}

const char *papi_gpu_kernels_metric(int i)
{
    return kn.stopped && i >= 0 && i < kn.n ? kn.names[i] : NULL;
}

int papi_gpu_kernels_row(int k, int *device, const char **kernel, unsigned long *launches,
                         const double **sums)
{
    if (!kn.stopped || k < 0 || k >= kn.nrows)
        return -1;
    *device = kn.rows[k].device;
    *kernel = kn.rows[k].name;
    *launches = kn.rows[k].launches;
    *sums = kn.rows[k].sums;
    return 0;
}

unsigned long papi_gpu_kernels_dropped(void)
{
    size_t dropped = kn.dropped;
    for (int device = 0; device < kn.ndev; device++)
        if (kn.dev[device].state == DEV_COLLECTED)
            dropped += kn.dev[device].s.dropped;
    return kn.stopped ? (unsigned long)dropped : 0;
}

void papi_gpu_kernels_keep_launches(void)
{
    pthread_mutex_lock(&kernels_lock);
    if (!kn.started)
        kn.keep = 1;
    pthread_mutex_unlock(&kernels_lock);
}

long papi_gpu_kernels_launches(long *not_kept)
{
    *not_kept = kn.stopped ? kn.launches_not_kept : 0;
    return kn.stopped ? kn.nlaunch : 0;
}

int papi_gpu_kernels_launch(long i, int *device, const char **kernel, const double **values)
{
    if (!kn.stopped || i < 0 || i >= kn.nlaunch)
        return -1;
    const struct kernel_row *r = &kn.rows[kn.launch_row[i]];
    *device = r->device;
    *kernel = r->name;
    *values = kn.launch_values + (size_t)i * (size_t)kn.n;
    return 0;
}
