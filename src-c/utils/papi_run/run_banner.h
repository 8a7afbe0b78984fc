/* run_banner.h: papi_run's summary on stderr, in the manner of perf stat (run_banner.c). */
#ifndef RUN_BANNER_H
#define RUN_BANNER_H

#include "run.h"

/* The banner on stderr. */
void run_banner(const struct run_state *s);

#endif
