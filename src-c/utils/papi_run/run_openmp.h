/* run_openmp.h: an OpenMP program under papi_run (issue 58 item 3). papi_run names the
 * project's OMPT tool (libpapi_ompt.so, src-c/ompt/) through OMP_TOOL_LIBRARIES, after any
 * tool the user named there; a program built against libgomp (gcc, gfortran), which has
 * no OMPT interface, keeps libgomp with its GOMP_* entry points interposed for the tool
 * (libpapi_gomp.so, LD_PRELOAD: src-c/ompt/gomp/), or with --libomp runs under LLVM's
 * libomp.so.5 (LD_PRELOAD: it implements libgomp's GOMP_* entry points); --no-libomp
 * leaves libgomp untouched. The tool writes one ompt_PID.json per process
 * into a folder of papi_run's own; papi_run's file carries them whole under "openmp"
 * (schema/region.schema.json, each one schema/ompt.schema.json: one writer, the tool's)
 * and its banner their efficiencies, or one line saying why there is no table. */
#ifndef PAPI_RUN_OPENMP_H
#define PAPI_RUN_OPENMP_H

#include <stddef.h>

#include "run_openmp_state.h"

struct run_state;
struct jw;

/* Before the fork (run_program.c, for a dynamic program): names the tool, preloads the
 * interposer or libomp for a libgomp program, or notes why not. */
void run_openmp_prepare(struct run_state *s, enum run_omp_runtime runtime);
/* After the program ended: the tables read and their folder removed. */
void run_openmp_collect(struct run_state *s);
/* The banner's OpenMP lines (none for a program that is not an OpenMP one). */
void run_openmp_banner(const struct run_state *s);
/* papi_run's file's "openmp" member (none for a program that is not an OpenMP one). */
void run_openmp_write(struct jw *w, const struct run_state *s);
/* The tables' memory. */
void run_openmp_free(struct run_state *s);

#endif
