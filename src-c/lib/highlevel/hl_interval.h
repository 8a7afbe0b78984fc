/* hl_interval.h: PAPI_INTERVAL, the region API's time series (hl_interval.c). Not
 * installed. */
#ifndef HL_INTERVAL_H
#define HL_INTERVAL_H

#include "hl_state.h"

/* Starts the sampling thread when PAPI_INTERVAL asks for it (once the nsets process
 * counters of library generation generation are set up). */
PAPI_INTERNAL void hli_start(unsigned generation, int nsets);
/* Takes the last sample and stops the thread (before the report is written). */
PAPI_INTERNAL void hli_stop(void);
/* "series": interval_s, then per thread of the process counters the samples (time since
 * the first, each event's count over the interval), and the totals they sum to. */
struct jw;
PAPI_INTERNAL void hli_write(struct jw *w);

#endif
