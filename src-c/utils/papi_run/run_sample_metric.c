/* run_sample_metric.c: the -m metrics computed per function, as --sample's setup
 * (run_sample_opts.c) kept them and the merge (run_sample_merge.c) evaluates them: a leaf
 * between the two. */
#include "run_sample_metric.h"

struct run_sample_metric run_sample_metric_table[RUN_MAX_METRICS];
int run_sample_metric_count;

const struct run_sample_metric *run_sample_metrics(int *n)
{
    *n = run_sample_metric_count;
    return run_sample_metric_table;
}
