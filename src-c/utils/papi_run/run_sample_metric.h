/* run_sample_metric.h: the -m metrics computed per function (run_sample_metric.c). */
#ifndef RUN_SAMPLE_METRIC_H
#define RUN_SAMPLE_METRIC_H

#include "run.h"
#include "run_sample.h"

/* A -m metric evaluated per function: its events' places among the sampled event and
 * the events read with it (rs_config.name), in the order of PAPIM_metric_info_t's
 * event_names. */
struct run_sample_metric {
    char name[PAPI_MIN_STR_LEN], unit[PAPI_MIN_STR_LEN];
    int nev;
    char ev[1 + RS_MAX_READ][RS_NAME_LEN];
    int slot[1 + RS_MAX_READ];
};
/* The table --sample's setup fills (run_sample_opts.c). */
extern struct run_sample_metric run_sample_metric_table[RUN_MAX_METRICS];
extern int run_sample_metric_count;
/* The metrics computed per function (those of -m that fit), n of them. */
const struct run_sample_metric *run_sample_metrics(int *n);

#endif
