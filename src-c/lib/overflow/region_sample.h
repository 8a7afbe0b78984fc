/* region_sample.h: PAPI_SAMPLE for the region API (region_sample.c): each thread that marks
 * regions samples one event and files each sample under the function it hit and the region
 * open at the time; the region report writes the function x region table. The region API
 * (highlevel/) calls these; nothing here calls it back. */
#ifndef PAPI_REGION_SAMPLE_H
#define PAPI_REGION_SAMPLE_H

#include "papi_sdk.h"

struct jw;
struct rsample;

/* The calling thread's sampler, started (NULL when PAPI_SAMPLE is unset, or when it cannot
 * sample: the reason is said once on stderr). */
PAPI_INTERNAL struct rsample *rsample_thread_start(void);
/* The region now innermost on the sampler's thread (-1: none); lock-free, by that thread. */
PAPI_INTERNAL void rsample_set_region(struct rsample *s, int region);
/* Stop the sampling (on its thread, at its exit); the table stays for the report. */
PAPI_INTERNAL void rsample_thread_stop(struct rsample *s);
/* The report: "sampling" (the event, its period or frequency); 0 (nothing written) when
 * PAPI_SAMPLE is not in force. */
PAPI_INTERNAL int rsample_write_head(struct jw *w);
/* One thread's table under key: function x region (region_name(arg, index) names them). */
PAPI_INTERNAL void rsample_write_thread(struct jw *w, const char *key, struct rsample *s,
                                        const char *(*region_name)(void *, int), void *arg);

#endif
