/* run_sets.h: the event sets attached to the program (run_sets.c). */
#ifndef RUN_SETS_H
#define RUN_SETS_H

#include "run.h"

/* run_sets.c: the event sets attached to the held child (the CPU component's inherited),
 * started; exits 2 with why. */
void run_add_events(struct run_state *s);
/* Every set read into value[] in the events' order; PAPI_OK or the first error. */
int run_read(const struct run_state *s, long long *value);
/* Each event's running fraction (1.0 for the events of a set not multiplexed). */
int run_fractions(const struct run_state *s, double *fraction);
/* Every set stopped. */
void run_stop(const struct run_state *s);
/* The per-thread rows (the CPU component's events, in their order) spread to every
 * event's place: another component's count (the node's, or the process's I/O) is the
 * program's, in its main thread's row, 0 in the others. */
void run_spread_rows(const struct run_state *s, struct run_threads *t);

#endif
