/* run_output.h: DIR/papi_run_output opened for this run (run_output.c). */
#ifndef RUN_OUTPUT_H
#define RUN_OUTPUT_H

#include "run.h"

/* run_output.c: opens DIR/papi_run_output for this run (an earlier run's set aside when
 * no run is using it, with its traces' DIR/papi_run_trace) and holds a shared lock on it
 * until papi_run ends; exits 2 with why when it cannot be written. */
void run_open_output(struct run_state *s);

#endif
