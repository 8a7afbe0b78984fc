/* run_openmp.h: an OpenMP program under papi_run (issue 58 item 3). papi_run names the
 * project's OMPT tool (libpapi_ompt.so, src-c/ompt/) through OMP_TOOL_LIBRARIES, after any
 * tool the user named there; a program built against libgomp (gcc, gfortran), which has
 * no OMPT interface, runs under LLVM's libomp.so.5 (LD_PRELOAD: it implements libgomp's
 * GOMP_* entry points) unless --no-libomp. The tool writes one ompt_PID.json per process
 * into a folder of papi_run's own; papi_run's file carries them whole under "openmp"
 * (schema/region.schema.json, each one schema/ompt.schema.json: one writer, the tool's)
 * and its banner their efficiencies, or one line saying why there is no table. */
#ifndef PAPI_RUN_OPENMP_H
#define PAPI_RUN_OPENMP_H

#include <stddef.h>

#define RUN_OMP_PROCESSES_MAX 64 /* processes whose tables the file carries */

/* The OpenMP runtime the program's file names (its DT_NEEDED). */
enum run_omp_runtime { RUN_OMP_NONE, RUN_OMP_GOMP, RUN_OMP_LLVM };

/* What became of the OpenMP tables: the schema's "status" words (run_openmp.c). */
enum run_omp_status {
    RUN_OMP_MEASURED,   /* the tool wrote a table */
    RUN_OMP_OFF,        /* --no-libomp, or OMP_TOOL=disabled */
    RUN_OMP_NO_RUNTIME, /* libgomp, and no libomp.so.5 installed */
    RUN_OMP_NO_TOOL,    /* libpapi_ompt.so is not installed */
    RUN_OMP_UNREPORTED  /* named, but no process wrote a table: reason says what may be */
};

struct run_openmp {
    int asked;             /* the tool was named through OMP_TOOL_LIBRARIES */
    int runtime;           /* enum run_omp_runtime */
    int status;            /* enum run_omp_status */
    char libomp[4096];     /* the libomp.so.5 preloaded in place of libgomp; "" when none */
    char user_tools[1024]; /* the tools the user named in OMP_TOOL_LIBRARIES; "" when none */
    char dir[4200];        /* the tool's output folder, papi_run's own */
    char reason[512];      /* why there is no table (status other than measured) */
    char *doc[RUN_OMP_PROCESSES_MAX]; /* the processes' ompt_PID.json, whole */
    int ndocs;
    int unread; /* files beyond the bound, or that could not be read whole */
};

struct run_state;
struct jw;

/* Before the fork (run_program.c, for a dynamic program): names the tool, preloads
 * libomp for a libgomp program, or notes why not. */
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
