/* run.h: what the parts of papi_run share: the options, the counting of the program from
 * outside (one event set per component attached to the child, the CPU component's with
 * inherited counters), the time series and the program's fate (exit status or signal). */
#ifndef PAPI_RUN_H
#define PAPI_RUN_H

#include <sys/types.h>

#include "count_series.h"
#include "run_identity.h"
#include "run_openmp.h"
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
    int gpu;           /* --gpu: libpapi_run_gpu.so records the GPU activity in the program */
    const char *trace; /* --trace FORMAT, NULL: none (run_trace.c) */
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
    int no_libomp;             /* --no-libomp: a libgomp program keeps libgomp (no OMPT) */
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
    struct run_openmp omp;     /* the OMPT tool's tables (run_openmp.h) */
};

/* run_options.c: parse and check the command line; exits 2 on bad usage. */
void run_parse_options(int argc, char **argv, struct run_options *o);
/* --call-graph's word for a RUN_CG_ value: "fp", "dwarf", "none" or "auto". */
const char *run_call_graph_name(int call_graph);
/* The events to count: -e's, the metrics' and the defaults, each checked on this
 * process (exits 2 with why when one named cannot be counted). */
void run_choose_events(struct run_options *o);

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
struct run_threads;
void run_spread_rows(const struct run_state *s, struct run_threads *t);

/* run_output.c: opens DIR/papi_run_output for this run (an earlier run's set aside when
 * no run is using it, with its traces' DIR/papi_run_trace) and holds a shared lock on it
 * until papi_run ends; exits 2 with why when it cannot be written. */
void run_open_output(struct run_state *s);
/* --trace's directory beside papi_run_output: region readers take every file of
 * papi_run_output for a rank file. */
#define RUN_TRACE_DIR "papi_run_trace"

/* run_child.c */
/* Forks the program stopped before exec and sets up its environment (MPI wrapper,
 * per-thread library). Returns 0, or the exit status to leave with (126/127) after saying
 * why. run_child_go lets it exec once the counters run and returns 0 or 126/127. */
int run_child_fork(struct run_state *s);
int run_child_go(struct run_state *s);
/* Waits for the program's end, sampling every interval; forwards signals meanwhile. */
void run_child_wait(struct run_state *s);
/* The exit status papi_run leaves with: the program's, or 128 + signal. */
int run_exit_status(const struct run_state *s);

/* run_report.c: the banner on stderr and the region file under -o. 0, or 1 on a write
 * error (said on stderr). */
void run_banner(const struct run_state *s);
int run_write_file(const struct run_state *s, const struct run_threads *t);
/* --trace: run_trace_check before the program runs (a bad format or no libotf2: one
 * line, and no trace), run_trace_write after the report (run_trace.c). */
void run_trace_check(struct run_state *s);
void run_trace_write(const struct run_state *s);
/* run_stat_lines.c: -x SEP or --json, perf stat's machine-readable lines on stderr. */
void run_stat_lines(const struct run_state *s);
/* The value of metric m over the totals (seconds: wall time); 0, or -1 with why. */
int run_metric_value(const struct run_state *s, int m, const long long *value, double seconds,
                     double *out);

/* The least running fraction of metric m's events (1.0 when not multiplexed, NaN when
 * unknown). */
double run_metric_fraction(const struct run_state *s, int m);

long long run_now_ns(void);

#endif
