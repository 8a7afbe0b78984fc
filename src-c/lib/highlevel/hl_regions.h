/* hl_regions.h: what the region API (hl_regions.c) and its report writer
 * (hl_regions_report.c) share. Not installed. */
#ifndef HL_REGIONS_H
#define HL_REGIONS_H

#include "papi_internal.h"

#define HLR_MAX_EVENTS 16
#define HLR_NAME_LEN   128
#define HLR_MAX_DEPTH  64

/* One sample: real time, cycles (PAPI_get_real_cyc) and the events. */
struct hlr_sample {
    long long real, cyc;
    long long value[HLR_MAX_EVENTS];
};

struct hlr_region {
    char name[HLR_NAME_LEN];
    int parent;                 /* enclosing region at the first begin, -1 at top level */
    long long count;            /* completed begin/end pairs */
    struct hlr_sample total;    /* inclusive totals */
    struct hlr_sample begin;    /* at the begin or the last PAPI_hl_read */
    int depth;                  /* > 0 while open; a recursive begin only counts depth */
    int nreads, readcap;        /* totals at each PAPI_hl_read (PAPI 7's read_1 ... read_N) */
    struct hlr_sample *reads;
};

struct hlr_thread {
    /* Taken by the owner thread around every change and by the report: the report may
     * run (at exit) while threads still mark regions. Uncontended otherwise. */
    pthread_mutex_t lock;
    unsigned long id;           /* PAPI_thread_id() when thread support is on, else tid */
    int eventset;               /* PAPI_NULL while stopped */
    unsigned generation;        /* library generation the event set belongs to */
    int nregions, cap;
    struct hlr_region *region;
    int stack[HLR_MAX_DEPTH];   /* open regions, innermost last */
    int sp;
    struct hlr_thread *next;
};

struct hlr_skipped {
    char *name, *why;
};

/* Process-wide: the events every thread counts, chosen at the first region. Names are
 * kept; codes are resolved again after PAPI_shutdown + PAPI_library_init. */
struct hlr_config {
    int nevents;
    int code[HLR_MAX_EVENTS];
    unsigned generation;        /* library generation the codes belong to */
    char name[HLR_MAX_EVENTS][PAPI_MAX_STR_LEN];
    char component[HLR_MAX_EVENTS][PAPI_MIN_STR_LEN];
    const char *source;         /* "PAPI_EVENTS", "default" or "fallback" */
    char note[PAPI_HUGE_STR_LEN];
    int nskipped;
    struct hlr_skipped *skipped; /* every entry not counted, with why */
    struct hlr_thread *threads;
};

extern struct hlr_config g_hlr PAPI_INTERNAL;
extern pthread_mutex_t g_hlr_lock PAPI_INTERNAL;

/* Write papi_hl_output/rank_XXXXXX.json (and the PAPI_REPORT=1 summary when asked). */
PAPI_INTERNAL int hlr_write_report(int summary);

#endif
