/* cuda_metrics.h: a chip's metrics as CUPTI's Profiler Host API lists them (cuda_metrics.c):
 * every base metric of the three types with each of its rollups and submetrics, the full
 * names CUPTI evaluates ("sm__cycles_active.sum", "dram__bytes.sum.per_second",
 * "smsp__average_inst_executed_per_warp.ratio"). Listing a chip takes thousands of calls,
 * so the list is kept in the user's cache directory ($XDG_CACHE_HOME, else ~/.cache:
 * papi-compat/cuda-<chip>-driver<version>-cupti<version>.tsv) and read from there while the
 * chip, the driver's version and CUPTI's (whose host library names the metrics) are the
 * same; another of any names another file, listed anew. */
#ifndef PAPI_CUDA_METRICS_H
#define PAPI_CUDA_METRICS_H

#include <stddef.h>

#include "component.h"

struct cuda_metric {
    char *name;  /* CUPTI's full name */
    char *units; /* its dimension ("cycles", "bytes/second", "" ...) */
    char *descr; /* its base metric's description */
};

struct cuda_metric_list {
    struct cuda_metric *m;
    int n, cap;
    int from_cache; /* read from the cache file (not listed through CUPTI) */
};

/* The metrics of chip (cuptiDeviceGetChipName's) under the driver of version driver:
 * PAPI_OK, or the error with one line in reason[len]. */
PAPI_INTERNAL int cuda_metrics_list(const char *chip, int driver, struct cuda_metric_list *out,
                                    char *reason, size_t len);
PAPI_INTERNAL void cuda_metrics_free(struct cuda_metric_list *l);

#endif
