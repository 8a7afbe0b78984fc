/* run.h: what the parts of papi_run share: the options, the counting of the program from
 * outside (one event set per component attached to the child, the CPU component's with
 * inherited counters), the time series and the program's fate (exit status or signal). */
#ifndef PAPI_RUN_H
#define PAPI_RUN_H

#include <sys/types.h>

#include "count_series.h"
#include "run_identity.h"
#include "run_openmp_state.h"
#include "papi.h"

#define RUN_MAX_EVENTS  32
#define RUN_MAX_METRICS 16
#define RUN_MAX_SETS    8    /* components counted at once: one event set each */
#define RUN_MAX_SAMPLES 4096 /* the series is bounded: later samples are merged pairwise */
#define RUN_NAME_LEN    128

struct run_options {
    char events[RUN_MAX_EVENTS][RUN_NAME_LEN];
    int nevents;
    int cidx[RUN_MAX_EVENTS]; /* each event's component: 0 the CPU's (perf_event) */
    int events_given;         /* -e used: an event that cannot be counted is an error */
    /* The name each event is added to the set under: a software event with ":u=1:k=1"
     * (user and kernel mode, as perf stat counts it) when the kernel lets this process
     * count kernel mode; else its own name. */
    char counted[RUN_MAX_EVENTS][RUN_NAME_LEN];
    int kernel[RUN_MAX_EVENTS]; /* 1: counted in user and kernel mode, 2: a clock (any) */
    char domain_note[512];      /* software events not counted in kernel mode, and why */
    char metrics[RUN_MAX_METRICS][PAPI_MIN_STR_LEN];
    int nmetrics;
    const char *outdir; /* -o, else "." */
    double interval;    /* --interval seconds, 0: none */
    int per_thread;
    int gpu; /* --gpu: libpapi_run_gpu.so records the GPU activity in the program */
    const char *gpu_counters; /* --gpu-counters METRICS (CUPTI's names), NULL: none */
    const char *trace;        /* --trace FORMAT, NULL: none (run_trace.c) */
    int quiet;
    char csv_sep[16];          /* -x SEP: perf stat -x lines instead of the banner; "": none */
    int json;                  /* --json: perf stat -j lines instead of the banner */
    char **argv;               /* the program and its arguments */
    char sample[RUN_NAME_LEN]; /* --sample EVENT[@PERIOD|@FREQhz] ("default": the default) */
    int sampling;              /* --sample given */
    int call_graph;            /* RUN_CG_AUTO (default), RUN_CG_FP, RUN_CG_DWARF, RUN_CG_NONE */
    long sample_cap;           /* --sample-stacks: distinct stacks kept per process */
    const char *merge_dir;     /* --merge DIR: only the merge of DIR's profiles (no program) */
    const char *merge_run;     /* --run ID with --merge ("": the newest run) */
    int no_libomp;             /* --no-libomp: a libgomp program keeps libgomp untouched */
    int libomp;                /* --libomp: a libgomp program runs under LLVM's libomp */
};

/* auto: each process of the program decides fp or dwarf from its executable's DWARF */
enum { RUN_CG_NONE, RUN_CG_FP, RUN_CG_DWARF, RUN_CG_AUTO };

struct run_state {
    struct run_options opt;
    int set[RUN_MAX_SETS]; /* one event set per component, attached to the program */
    int set_cidx[RUN_MAX_SETS];
    int nsets;
    pid_t child;
    long long start_ns, end_ns;
    long long value[RUN_MAX_EVENTS];
    int multiplexed;                 /* 1: PAPI_MULTIPLEX, 2: the events did not fit */
    double fraction[RUN_MAX_EVENTS]; /* each event's running fraction when multiplexed */
    struct count_series series;      /* --interval: counts since the start, bounded */
    long long skipped;               /* --interval: ticks passed while papi_run could not run */
    int exited, status;              /* waitpid's status once the program ended */
    char mpi[16];                    /* "mpich", "openmpi" or "" */
    char note[512];                  /* what could not be measured, and why */
    int dirfd;                       /* DIR/papi_run_output, opened before the program runs */
    char dir[4096];
    char threads_file[4200];   /* --per-thread: where the preloaded library writes */
    char gpu_trace_file[4200]; /* --gpu --trace: where it writes the GPU operations */
    char omp_trace_file[4200]; /* --trace: where the OMPT tool writes the OpenMP slices */
    struct run_identity run;   /* the file's "run" header; the id is in its name */
    struct run_openmp omp;     /* the OMPT tool's tables (run_openmp_state.h) */
};

/* --trace's directory beside papi_run_output: region readers take every file of
 * papi_run_output for a rank file. */
#define RUN_TRACE_DIR "papi_run_trace"

struct run_threads; /* run_threads.h */

#endif
