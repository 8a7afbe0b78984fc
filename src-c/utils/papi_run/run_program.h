/* run_program.h: what papi_run learns of the program before it runs (its file, whether
 * it can be entered by a preloaded library, which MPI it uses) and the environment it
 * gives it (the MPI wrapper library, the per-thread library). */
#ifndef PAPI_RUN_PROGRAM_H
#define PAPI_RUN_PROGRAM_H

#include <stddef.h>

#include "run.h"

/* Called before the fork: sets the environment the program inherits and fills s->mpi
 * and s->note. Returns 0, or 126/127 after saying why the program cannot be run. */
int run_program_prepare(struct run_state *s);

/* The path of papi_run's module lib (PAPI_RUN_LIBDIR, papi_run's own directory, the lib
 * directory beside its bin, the configured one; each also with papi-compat/): 0, or -1
 * when it is not installed. */
int run_find_module(const char *lib, char *path, size_t len);

#endif
