/* run_program.h: what papi_run learns of the program before it runs (its file, whether
 * it can be entered by a preloaded library, which MPI it uses) and the environment it
 * gives it (the MPI wrapper library, the per-thread library). */
#ifndef PAPI_RUN_PROGRAM_H
#define PAPI_RUN_PROGRAM_H

#include "run.h"

/* Called before the fork: sets the environment the program inherits and fills s->mpi
 * and s->note. Returns 0, or 126/127 after saying why the program cannot be run. */
int run_program_prepare(struct run_state *s);

#endif
