/* hl_state.h: the region API's state, data only: the per-thread records (regions,
 * instances, samples) and the process's configuration g_hlr (the events every thread
 * counts), with the list of thread records. Every file of highlevel/ that works on them
 * includes this leaf; it includes nothing of highlevel/ (hl_state.c defines the
 * globals). g_hlr is written by hl_regions.c alone, from what hl_regions_config.c
 * returns. Not installed. */
#ifndef HL_STATE_H
#define HL_STATE_H

#include "metric_table.h"
#include "papi_globals.h"

#define HLR_MAX_EVENTS  16
#define HLR_NAME_LEN    128
#define HLR_MAX_DEPTH   64
#define HLR_MAX_METRICS 8
#define HLR_MAX_SETS    8 /* components counted at once: one event set each (PAPI 7) */

/* One sample: real time, cycles (PAPI_get_real_cyc) and the events. */
struct hlr_sample {
    long long real, cyc;
    long long value[HLR_MAX_EVENTS];
};

/* A multiplexed set's enabled and running ns per event (hl_metrics_mpx.c), kept apart
 * from the samples: those live on the stack inside regions, where a bigger one could
 * touch a new stack page (a page fault counted in the region). All 0: not multiplexed. */
struct hlr_times {
    long long enabled[HLR_MAX_EVENTS], running[HLR_MAX_EVENTS];
};

/* One region name of a thread: its per-name totals (kept in the report beside PAPI 7's
 * per-instance entries, which PAPI 7's writer reads) and the state of its open instance. */
struct hlr_region {
    char name[HLR_NAME_LEN];
    int parent;              /* enclosing region at the first begin, -1 at top level */
    long context;            /* its id for the OMPT tool (papi_region_context.h), > 0 */
    long long count;         /* completed begin/end pairs */
    struct hlr_sample total; /* inclusive totals */
    struct hlr_sample begin; /* at the open instance's begin */
    struct hlr_sample mark;  /* at the begin or the last PAPI_hl_read (for the totals) */
    int depth;               /* > 0 while open; a recursive begin only counts depth */
    int instance;            /* the open instance (index in hlr_thread.inst) */
    struct hlr_times t_total, t_begin, t_mark; /* as total, begin and mark */
    /* All-thread totals (hl_all_threads.c): every thread of the process during it. */
    int all_ok;                          /* the open instance has all_begin (3: the share's) */
    unsigned long long omp_missed;       /* the OMPT share's missed spans at its begin */
    long long all_begin[HLR_MAX_EVENTS]; /* process counters at its begin */
    long long all_count;                 /* instances with all-thread values */
    long long all_total[HLR_MAX_EVENTS];
    struct hlr_gpu *gpu; /* its GPU activity (hl_gpu.c, heap), NULL while the layer is off */
};

/* One begin/end pair, as PAPI 7 writes it: its id is its index in the thread, its
 * parent the instance open around it at its begin. */
struct hlr_instance {
    int region;              /* index in hlr_thread.region */
    int parent;              /* enclosing instance, -1 at top level */
    int done;                /* ended */
    struct hlr_sample value; /* since the begin: at the end, or at the last read */
    int nreads, readcap;     /* values at each PAPI_hl_read (PAPI 7's read_1 ... read_N) */
    struct hlr_sample *reads;
    struct hlr_times t_value;     /* as value */
    struct hlr_times *read_times; /* t_value at each read (its metrics' running fraction) */
    int all_ok;                   /* all_value holds every thread's counts during it */
    long long all_value[HLR_MAX_EVENTS];
    long long begin_real; /* hl_real_ns() at its begin: its span in the time series */
};

struct hlr_thread {
    /* Taken by the owner thread around every change and by the report: the report may
     * run (at exit) while threads still mark regions. Uncontended otherwise. */
    pthread_mutex_t lock;
    unsigned long id; /* PAPI_thread_id() when thread support is on, else tid */
    long tid;         /* the OS thread id (the process id under PAPI_HL_THREAD_MULTIPLE=0) */
    int key;          /* its number in the report, as PAPI 7's: -1 when it has no region */
    int nopen;        /* event sets open (g_hlr.nsets, or 0 while stopped) */
    int eventset[HLR_MAX_SETS]; /* one per component, as g_hlr.set */
    /* One set's reading before it is spread over the sample's events: here, not on the
     * stack, where it could touch a new stack page inside a region (a page fault). */
    long long one[HLR_MAX_EVENTS];
    unsigned generation; /* library generation the event sets belong to */
    int nregions, cap;
    struct hlr_region *region;
    int ninst, instcap;
    struct hlr_instance *inst; /* every instance, in the order of their begins */
    int stack[HLR_MAX_DEPTH];  /* open regions, innermost last */
    int sp;
    struct hlr_times t_cur;  /* the last read's times (multiplexed sets only) */
    struct rsample *sampler; /* PAPI_SAMPLE's (overflow/region_sample.c), or NULL */
    /* Sets whose read failed (a GPU that fell off the bus, a node file gone): bit k is
     * eventset[k], read no more; its events keep their last values (held), so they count
     * 0 from then on while the other sets and every later region go on counting. */
    unsigned lost;
    long long held[HLR_MAX_EVENTS];
    int nlost;
    struct hlr_lost *lost_sets; /* each loss, for the report's lost_events */
    struct hlr_thread *next;
};

/* A set of a thread lost: the report says which events, where and why. */
struct hlr_lost {
    int set;      /* index in g_hlr.set */
    char *region; /* the innermost region open when it was lost (heap), or NULL */
    char *why;    /* the component's reason (heap) */
};

struct hlr_skipped {
    char *name, *why;
};

/* The events of one component: they count in one event set (PAPI 7 makes one per
 * component), whose entry j is region event idx[j]. */
struct hlr_set {
    int cidx, n;
    int idx[HLR_MAX_EVENTS];
};

/* Process-wide: the events every thread counts, chosen at the first region. Names are
 * kept; codes are resolved again after PAPI_shutdown + PAPI_library_init. */
struct hlr_config {
    int nevents;
    int code[HLR_MAX_EVENTS];
    unsigned generation; /* library generation the codes belong to */
    char name[HLR_MAX_EVENTS][PAPI_MAX_STR_LEN];
    char component[HLR_MAX_EVENTS][PAPI_MIN_STR_LEN];
    char units[HLR_MAX_EVENTS][PAPI_MIN_STR_LEN]; /* each event's, for the file */
    const char *scope[HLR_MAX_EVENTS];            /* "thread" or "device" (static) */
    int cidx[HLR_MAX_EVENTS];                     /* each event's component index */
    int nsets; /* the events by component, in order of first appearance */
    struct hlr_set set[HLR_MAX_SETS];
    bool direct; /* one set holding every event in order: read straight into a sample */
    /* PAPI_EVENTS' "=instant" (PAPI 7): the value at the end (or read), not the
     * difference since the begin (hl_switches.c parses the suffix). */
    bool instant[HLR_MAX_EVENTS];
    const char *source; /* "PAPI_EVENTS", "default" or "fallback" */
    char *note;         /* why software events were chosen (heap, whole), or NULL */
    int nskipped;
    struct hlr_skipped *skipped; /* every entry not counted, with why */
    /* PAPI_METRICS: each metric's formula over the events above, evaluated by the report
     * on each instance's and each region's summed counts and time. */
    int nmetrics;
    struct metric_plan metric[HLR_MAX_METRICS];
};

/* The configuration every thread counts with (hl_regions.c stores it under g_hlr_lock,
 * once chosen; a thread reads it after process_init). */
extern struct hlr_config g_hlr PAPI_INTERNAL;
/* Every thread's record (newest first); appended under g_hlr_lock, never removed. */
extern struct hlr_thread *g_hlr_threads PAPI_INTERNAL;
extern pthread_mutex_t g_hlr_lock PAPI_INTERNAL;

/* Under the JSON object key, one(w, t) for every thread that has a region (a thread whose
 * first begin failed has none), newest first, each under its own lock. */
struct jw;
PAPI_INTERNAL void hl_write_threads(struct jw *w, const char *key,
                                    void (*one)(struct jw *, struct hlr_thread *));

#endif
