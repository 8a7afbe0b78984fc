/* run_sample_attr.h: the perf_event attr of a sampled group's event (run_sample_attr.c). */
#ifndef RUN_SAMPLE_ATTR_H
#define RUN_SAMPLE_ATTR_H

#include "run_sample.h"

RS_HIDDEN void rs_sample_attr(const struct rs_config *c, int i, int callchain,
                              struct perf_event_attr *a);

#endif
