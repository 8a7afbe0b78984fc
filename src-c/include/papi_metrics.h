/* papi_metrics.h: named metrics over PAPI events (IPC, DP_FLOPS, MEM_BW, TOPDOWN_*,
 * CPU_UTILIZATION), papi-compat's extension to PAPI; its calls start with PAPIM_ and
 * PAPI's own ABI is unchanged. A metric is a name, a unit, a formula over events
 * (presets, native and sysfs events) and the elapsed time, and a description, from the
 * table for this CPU (papi_metrics.csv, built in; PAPI_METRICS_FILE replaces it) over the
 * "generic" one. Metrics are computed from counts summed first (over threads, ranks or
 * region instances) and their summed or spanned time, never by averaging ratios.
 * papi_metrics(3) documents each call; papi_metric_avail(1) lists this machine's. */
#ifndef PAPI_METRICS_H
#define PAPI_METRICS_H

#include <papi.h>

#include "papi_api_begin.h"

/* Events one metric counts, a pattern's PMUs included (a two-socket Granite Rapids' MEM_BW
 * is 96: four terms over 24 memory controllers); a metric that would need more is not
 * resolved, and its reason says how many it needs. */
#define PAPIM_MAX_EVENTS 128

typedef struct {
    char name[PAPI_MIN_STR_LEN];     /* "IPC" */
    char unit[PAPI_MIN_STR_LEN];     /* "FLOP/s", "bytes/s", "fraction", "CPUs" */
    char formula[PAPI_HUGE_STR_LEN]; /* as written: PAPI_TOT_INS / PAPI_TOT_CYC */
    char description[PAPI_HUGE_STR_LEN];
    char table[PAPI_MIN_STR_LEN]; /* the CPU table it comes from, or "generic" */
    int uses_time;                /* 1: divides by (or uses) the elapsed seconds */
    int num_events;               /* events to count, in event_names */
    char event_names[PAPIM_MAX_EVENTS][PAPI_2MAX_STR_LEN];
    int resolved;                   /* 1: every event names an event of this machine */
    int countable;                  /* 1: every event can be counted here */
    char reason[PAPI_HUGE_STR_LEN]; /* why not resolved or not countable, else "" */
} PAPIM_metric_info_t;

/* The number of metrics this machine's table defines (PAPI_library_init first); a
 * negative PAPI error code when the table cannot be read (PAPI_strerror_detail says
 * which file and line). */
int PAPIM_num_metrics(void);
/* The metric at index (0 .. PAPIM_num_metrics() - 1), or the one named name. */
int PAPIM_get_metric_info(int index, PAPIM_metric_info_t *info);
int PAPIM_query_metric(const char *name, PAPIM_metric_info_t *info);
/* A group: metrics asked for together by its name (PAPIM_expand, papi_metric_avail -m). */
#define PAPIM_MAX_GROUP 16
typedef struct {
    char name[PAPI_MIN_STR_LEN]; /* "FLOPS_DP" */
    char description[PAPI_HUGE_STR_LEN];
    int num_metrics;
    char metrics[PAPIM_MAX_GROUP][PAPI_MIN_STR_LEN];
} PAPIM_group_info_t;
/* The number of groups this machine's table defines (negative: the table's error), and
 * the group at index (0 .. PAPIM_num_groups() - 1). */
int PAPIM_num_groups(void);
int PAPIM_get_group_info(int index, PAPIM_group_info_t *info);
/* Expand a list of metric and group names ("DP_FLOPS,MEM" or "FLOPS_DP") into metric
 * names, duplicates dropped: *count of them written, at most max. */
int PAPIM_expand(const char *list, char names[][PAPI_MIN_STR_LEN], int max, int *count);
/* The value of metric name from the counts of its events: n event names with their
 * values (summed over whatever the caller sums; extra events are ignored; a formula's
 * event found by its name, else by another name of the same event) and the
 * seconds they were counted over. PAPI_EINVAL with the reason in PAPI_strerror_detail
 * for a missing event, a zero denominator or time, PAPI_ENOEVNT for an unknown name. */
int PAPIM_evaluate(const char *name, int n, const char *const event_names[],
                   const long long values[], double seconds, double *result);
/* The same from an event set's values (PAPI_read, PAPI_stop, PAPI_accum), in the set's
 * order: each event of the metric is found in EventSet by its event code (PAPIMF_evaluate
 * in Fortran). PAPI_ENOEVST for an invalid EventSet, else as PAPIM_evaluate. */
int PAPIM_evaluate_eventset(const char *name, int EventSet, const long long values[],
                            double seconds, double *result);

#include "papi_api_end.h"
#endif
