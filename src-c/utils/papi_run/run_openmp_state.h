/* run_openmp_state.h: what papi_run keeps of an OpenMP program's tables in its run state
 * (run.h), a leaf: the calls on it are run_openmp.h's. */
#ifndef PAPI_RUN_OPENMP_STATE_H
#define PAPI_RUN_OPENMP_STATE_H

struct papi_ompt_live;
struct ompt_live_sums;

#define RUN_OMP_PROCESSES_MAX 64 /* processes whose tables the file carries */

/* The OpenMP runtime the program's file names (its DT_NEEDED). */
enum run_omp_runtime { RUN_OMP_NONE, RUN_OMP_GOMP, RUN_OMP_LLVM };

/* What became of the OpenMP tables: the schema's "status" words (run_openmp.c). */
enum run_omp_status {
    RUN_OMP_MEASURED,   /* the tool wrote a table */
    RUN_OMP_OFF,        /* --no-libomp, or OMP_TOOL=disabled */
    RUN_OMP_NO_RUNTIME, /* libgomp with --libomp, and no libomp.so.5 installed */
    RUN_OMP_NO_TOOL,    /* libpapi_ompt.so (or for libgomp libpapi_gomp.so) not installed */
    RUN_OMP_UNREPORTED  /* named, but no process wrote a table: reason says what may be */
};

struct run_openmp {
    int asked;             /* the tool was named through OMP_TOOL_LIBRARIES */
    int runtime;           /* enum run_omp_runtime */
    int status;            /* enum run_omp_status */
    char libomp[4096];     /* the libomp.so.5 preloaded in place of libgomp; "" when none */
    char interposer[4096]; /* the libpapi_gomp.so preloaded for libgomp; "" when none */
    const char *route;     /* the schema's route: which runtime ran, how the tool saw it */
    char user_tools[1024]; /* the tools the user named in OMP_TOOL_LIBRARIES; "" when none */
    char tables[4200];     /* the tool's hand-over file of the processes' tables */
    char reason[512];      /* why there is no table (status other than measured) */
    char *doc[RUN_OMP_PROCESSES_MAX]; /* the processes' tables (ompt_PID.json's text), whole */
    int ndocs;
    int unread;     /* tables beyond the bound, or that could not be read whole */
    int counts_off; /* papi_run's default events not counted per region: no user-space
                     * read of a thread's set here (run_openmp.c set_events) */
    /* --interval: the tool's running sums shared in memory (run_omp_live.c), the
     * reader's sums, the file that holds them; NULL and "" when not asked. */
    struct papi_ompt_live *live;
    struct ompt_live_sums *live_sums;
    char live_file[4200];
};

#endif
