/* cuda_kernels.c: the cuda component's per-kernel mode (papi_gpu_kernels.h, for papi_run
 * --gpu-counters): one session on device 0 in CUPTI's auto range mode, a range around each
 * kernel launch named by the kernel; at the stop each range's values are added to its
 * kernel's row (launches, one sum per metric). One per process. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "papi_gpu_kernels.h"

#include "cuda_kernels.h"
#include "cuda_libs.h"
#include "cuda_session.h"
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

int papi_gpu_kernels_start(const char *metrics, char *why, size_t len)
{
    pthread_mutex_lock(&kernels_lock);
    int ret = -1;
    const char *no = NULL, *chip = NULL;
    CUcontext ctx = NULL;
    int n = 0;
    if (kn.started)
        snprintf(why, len, "already started");
    else if ((n = split(metrics, why, len)) < 0)
        ;
    else if (!(chip = cuda_device_chip(0, &no)))
        snprintf(why, len, "component cuda is disabled: %s", no);
    else if (cuda_context_find("cuda", 0, &ctx, &kn.retained) != PAPI_OK)
        snprintf(why, len, "%s", papi_last_error_detail());
    else if (check(chip, ctx, n, why, len) == 0) {
        kn.s = (struct cuda_session){.device = 0,
                                     .ctx = ctx,
                                     .names = kn.names,
                                     .n = n,
                                     .per_kernel = 1,
                                     .per_range = add_range};
        if (cuda_session_begin(&kn.s, chip) == PAPI_OK)
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
    else if (cuda_session_collect(&kn.s, 0) != PAPI_OK)
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
