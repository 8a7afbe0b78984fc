/* run_child.h: the program forked, started, waited for, and its exit status (run_child.c). */
#ifndef RUN_CHILD_H
#define RUN_CHILD_H

#include "run.h"

/* Forks the program stopped before exec and sets up its environment (MPI wrapper,
 * per-thread library). Returns 0, or the exit status to leave with (126/127) after saying
 * why. run_child_go lets it exec once the counters run and returns 0 or 126/127. */
int run_child_fork(struct run_state *s);
int run_child_go(struct run_state *s);
/* Waits for the program's end, sampling every interval; forwards signals meanwhile. */
void run_child_wait(struct run_state *s);
/* The exit status papi_run leaves with: the program's, or 128 + signal. */
int run_exit_status(const struct run_state *s);
long long run_now_ns(void);

#endif
