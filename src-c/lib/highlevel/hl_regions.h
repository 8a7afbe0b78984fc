/* hl_regions.h: what the region API (hl_regions.c) and its report writer
 * (hl_regions_report.c) share. Not installed. */
#ifndef HL_REGIONS_H
#define HL_REGIONS_H

#include "papi_internal.h"

#define HLR_MAX_EVENTS 16
#define HLR_NAME_LEN   128
#define HLR_MAX_DEPTH  64

struct hlr_region {
    char name[HLR_NAME_LEN];
    int parent;                 /* enclosing region at the first begin, -1 at top level */
    long long count;            /* completed begin/end pairs */
    long long real_ns, proc_ns; /* inclusive totals */
    long long value[HLR_MAX_EVENTS];
    int depth;                  /* > 0 while open; a recursive begin only counts depth */
    long long begin_real, begin_proc, begin_value[HLR_MAX_EVENTS];
};

struct hlr_thread {
    unsigned long id;           /* PAPI_thread_id() when thread support is on, else tid */
    int eventset;               /* PAPI_NULL while stopped */
    int nregions, cap;
    struct hlr_region *region;
    int stack[HLR_MAX_DEPTH];   /* open regions, innermost last */
    int sp;
    struct hlr_thread *next;
};

/* Process-wide: the events every thread counts, chosen at the first region. */
struct hlr_config {
    int nevents;
    int code[HLR_MAX_EVENTS];
    char name[HLR_MAX_EVENTS][PAPI_MAX_STR_LEN];
    const char *source;         /* "PAPI_EVENTS", "default" or "fallback" */
    char note[PAPI_HUGE_STR_LEN];
    char skipped[PAPI_HUGE_STR_LEN * 2]; /* "name: reason" entries separated by '\n' */
    struct hlr_thread *threads;
};

extern struct hlr_config g_hlr PAPI_INTERNAL;
extern pthread_mutex_t g_hlr_lock PAPI_INTERNAL;

/* Write papi_hl_output/rank_XXXXXX.json (and the PAPI_REPORT=1 summary when asked). */
PAPI_INTERNAL int hlr_write_report(int summary);

#endif
