/* cuda_kernels.c: the cuda component's per-kernel mode (papi_gpu_kernels.h, for papi_run
 * --gpu-counters): one session on device 0 in CUPTI's auto range mode, a range around each
 * kernel launch named by the kernel; at the stop each range's values are added to its
 * kernel's row (launches, one sum per metric). One per process.
 *
 * The start comes from papi_run's preloaded constructor, before the program has made its
 * CUDA context: where device 0 has none yet, the session waits for it (the GPU activity
 * layer's subscription tells of each context made, gpu_activity_watch_contexts) and
 * begins in the context-created callback, before the program's first launch; it is
 * collected when that context is about to be destroyed (cudaDeviceReset, the program's
 * end), or at the stop. */
#include <pthread.h>
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

struct kernel_row {
    char *name;
    unsigned long launches;
    double sums[KERNEL_METRICS];
};

static pthread_mutex_t kernels_lock = PTHREAD_MUTEX_INITIALIZER;
static struct {
    int started, retained, stopped;
    int waiting;   /* started before device 0's context: begins when it is made */
    int collected; /* the context went away: the rows are in, the session ended */
    int failed;    /* the waiting session could not begin or collect: why[] */
    char why[1024];
    const char *chip;
    char *text; /* the metric names, NUL-separated; names[] point into it */
    const char *names[KERNEL_METRICS];
    struct cuda_session s;
    struct kernel_row *rows;
    int nrows, cap;
} kn;

/* One decoded range: its values added to its kernel's row (a row that cannot be made for
 * want of memory: the launch counted as dropped, never left out unsaid). */
static void add_range(void *arg, const char *kernel, const double *values)
{
    (void)arg;
    int k = 0;
    while (k < kn.nrows && strcmp(kn.rows[k].name, kernel) != 0)
        k++;
    if (k == kn.nrows) {
        if (kn.nrows == kn.cap) {
            int cap = kn.cap ? kn.cap * 2 : 16;
            struct kernel_row *r = realloc(kn.rows, (size_t)cap * sizeof *r);
            if (!r) {
                kn.s.dropped++;
                return;
            }
            kn.rows = r;
            kn.cap = cap;
        }
        memset(&kn.rows[k], 0, sizeof kn.rows[k]);
        if (!(kn.rows[k].name = strdup(kernel))) {
            kn.s.dropped++;
            return;
        }
        kn.nrows++;
    }
    kn.rows[k].launches++;
    for (int i = 0; i < kn.s.n; i++)
        kn.rows[k].sums[i] += values[i];
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

/* The first metric CUPTI does not know on the chip, said with the chip; else the set's
 * own refusal (more than one pass). */
static int check(const char *chip, CUcontext ctx, int n, char *why, size_t len)
{
    for (int i = 0; i < n; i++)
        if (cuda_session_check(chip, 0, ctx, &kn.names[i], 1) != PAPI_OK) {
            snprintf(why, len, "%s: not a metric of device 0 (%s): %s", kn.names[i], chip,
                     papi_last_error_detail());
            return -1;
        }
    if (cuda_session_check(chip, 0, ctx, kn.names, n) != PAPI_OK) {
        snprintf(why, len, "%s", papi_last_error_detail());
        return -1;
    }
    return 0;
}

/* The session on ctx (device 0's): PAPI_OK, or the error with its detail said. */
static int begin_session(CUcontext ctx)
{
    kn.s = (struct cuda_session){.device = 0,
                                 .ctx = ctx,
                                 .names = kn.names,
                                 .n = kn.s.n,
                                 .per_kernel = 1,
                                 .per_range = add_range};
    return cuda_session_begin(&kn.s, kn.chip);
}

/* Device 0's context made (the session waiting for it begins, its metrics checked on the
 * chip first) or about to be destroyed (the session collected while the context lives). */
static void context_event(CUcontext ctx, int device, int created)
{
    if (device != 0)
        return;
    pthread_mutex_lock(&kernels_lock);
    if (created && kn.waiting && !kn.stopped) {
        kn.waiting = 0;
        char why[sizeof kn.why];
        if (check(kn.chip, ctx, kn.s.n, why, sizeof why) != 0)
            kn.failed = 1, snprintf(kn.why, sizeof kn.why, "%s", why);
        else if (begin_session(ctx) != PAPI_OK)
            kn.failed = 1, snprintf(kn.why, sizeof kn.why, "%s", papi_last_error_detail());
    } else if (!created && !kn.waiting && !kn.failed && !kn.collected && !kn.stopped &&
               kn.s.ctx == ctx) {
        if (cuda_session_collect(&kn.s, 0) != PAPI_OK)
            kn.failed = 1, snprintf(kn.why, sizeof kn.why, "%s", papi_last_error_detail());
        kn.collected = 1;
    }
    pthread_mutex_unlock(&kernels_lock);
}

/* No context on device 0 yet: wait for the program's (0), or -1 with why. */
static int wait_for_context(char *why, size_t len)
{
    char detail[512];
    snprintf(detail, sizeof detail, "%s", papi_last_error_detail());
    kn.waiting = 1;
    if (gpu_activity_watch_contexts(context_event, why, len) == 0)
        return 0;
    kn.waiting = 0;
    size_t used = strlen(why);
    snprintf(why + used, len - used, ", so it cannot wait for one: %s", detail);
    return -1;
}

int papi_gpu_kernels_start(const char *metrics, char *why, size_t len)
{
    pthread_mutex_lock(&kernels_lock);
    int ret = -1;
    const char *no = NULL;
    CUcontext ctx = NULL;
    int n = 0;
    if (kn.started)
        snprintf(why, len, "already started");
    else if ((n = split(metrics, why, len)) < 0)
        ;
    else if (!(kn.chip = cuda_device_chip(0, &no)))
        snprintf(why, len, "component cuda is disabled: %s", no);
    else if (kn.s.n = n, cuda_context_find("cuda", 0, &ctx, &kn.retained) != PAPI_OK)
        ret = wait_for_context(why, len);
    else if (check(kn.chip, ctx, n, why, len) == 0) {
        if (begin_session(ctx) == PAPI_OK)
            ret = 0;
        else
            snprintf(why, len, "%s", papi_last_error_detail());
    }
    kn.started = ret == 0;
    if (ret != 0 && kn.retained)
        cuda_context_release(0);
    pthread_mutex_unlock(&kernels_lock);
    return ret;
}

int papi_gpu_kernels_stop(char *why, size_t len)
{
    pthread_mutex_lock(&kernels_lock);
    int ret = -1;
    if (!kn.started || kn.stopped)
        snprintf(why, len, "%s", kn.stopped ? "already stopped" : "never started");
    else if (kn.waiting)
        snprintf(why, len,
                 "the program made no CUDA context on device 0 (its kernels ran elsewhere, or "
                 "none ran)");
    else if (kn.failed)
        snprintf(why, len, "%s", kn.why);
    else if (!kn.collected && cuda_session_collect(&kn.s, 0) != PAPI_OK)
        snprintf(why, len, "%s", papi_last_error_detail());
    else
        ret = kn.nrows;
    if (kn.started && !kn.stopped && kn.retained)
        cuda_context_release(0);
    kn.stopped = kn.started;
    pthread_mutex_unlock(&kernels_lock);
    return ret;
}

int papi_gpu_kernels_nmetrics(void)
{
    return kn.stopped ? kn.s.n : 0;
}

const char *papi_gpu_kernels_metric(int i)
{
    return kn.stopped && i >= 0 && i < kn.s.n ? kn.names[i] : NULL;
}

int papi_gpu_kernels_row(int k, const char **kernel, unsigned long *launches, const double **sums)
{
    if (!kn.stopped || k < 0 || k >= kn.nrows)
        return -1;
    *kernel = kn.rows[k].name;
    *launches = kn.rows[k].launches;
    *sums = kn.rows[k].sums;
    return 0;
}

unsigned long papi_gpu_kernels_dropped(void)
{
    return kn.stopped ? (unsigned long)kn.s.dropped : 0;
}
