/* hl_state.h: what the 3.5 high-level calls (hl_legacy.c) and the 7.x rate
 * calls (hl_rates.c) share: one per-thread "session" (which call started the
 * counters, its event set, the totals at the previous call), self-initialisation of the
 * library and the one-line notice for a missing event. Not installed. */
#ifndef HIGHLEVEL_STATE_H
#define HIGHLEVEL_STATE_H

#include <time.h>

#include "eventset.h"
#include "threads.h"

static inline long long hl_real_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* Who started this thread's high-level counters. A session of one kind refuses calls
 * of another kind (PAPI_EINVAL) until PAPI_stop_counters or PAPI_rate_stop. */
enum hl_mode {
    HL_IDLE = 0,
    HL_COUNTERS,   /* PAPI_start_counters */
    HL_FLOPS,      /* PAPI_flops (3.5) */
    HL_FLIPS,      /* PAPI_flips (3.5) */
    HL_IPC,        /* PAPI_ipc (both generations) */
    HL_FLOPS_RATE, /* PAPI_flops_rate (7.x) */
    HL_FLIPS_RATE, /* PAPI_flips_rate (7.x) */
    HL_EPC         /* PAPI_epc (7.x) */
};

#define HL_MAX_EVENTS 16

struct hlr_thread;

struct hl_session {
    enum hl_mode mode;
    int event;    /* the event argument of a 7.x rate call, else 0 */
    int eventset; /* PAPI_NULL when idle */
    int nevents;
    long long start_real_ns;       /* CLOCK_MONOTONIC at the first call */
    long long last_real_ns;        /* ... at the previous call */
    long long last_proc_ns;        /* thread CPU time at the previous call */
    long long last[HL_MAX_EVENTS]; /* counts at the previous call */
};

/* This thread's session; reset to idle when the library was shut down since. */
PAPI_INTERNAL struct hl_session *hl_session_get(void);

/* Initialise the library if needed and mark it PAPI_HIGH_LEVEL_INITED. */
PAPI_INTERNAL int hl_self_init(void);

/* Create, fill and start the session's event set. required[i] == 0 marks an optional
 * event (left out if it does not count here). On failure nothing stays open, the
 * session is idle and the first failure of the process prints one line (unless the
 * environment sets PAPI_QUIET) naming the missing event and why. */
PAPI_INTERNAL int hl_session_start(struct hl_session *s, enum hl_mode mode, int event,
                                   const int *events, const int *required, int n,
                                   const char *caller);

/* Stop and destroy the session's event set; values (may be NULL) receive the counts. */
PAPI_INTERNAL int hl_session_stop(struct hl_session *s, long long *values);

/* Read the counts since the session started and the thread's CPU time in ns (taken
 * from the same read: the kernel's enabled time of a per-thread event is the thread's
 * CPU time, so no second system call is needed). */
PAPI_INTERNAL int hl_session_read(struct hl_session *s, long long *counts, long long *proc_ns);

/* One sample of a rate call: totals since the session started and deltas since the
 * previous call of the session. */
struct hl_sample {
    int first; /* this call started the session: all zero */
    long long real_total_ns, real_delta_ns;
    long long proc_total_ns, proc_delta_ns;
    long long total[HL_MAX_EVENTS], delta[HL_MAX_EVENTS];
};

/* The body of every rate call: with no session, start one (mode, event, events) and
 * return a zero sample; with a session of this mode and event, read it; with any other
 * session, PAPI_EINVAL naming the call that started it. */
PAPI_INTERNAL int hl_rate_sample(enum hl_mode mode, int event, const int *events,
                                 const int *required, int n, const char *caller,
                                 struct hl_sample *out);

PAPI_INTERNAL const char *hl_mode_name(enum hl_mode mode);

/* Print msg once per process on stderr unless PAPI_QUIET is set in the environment. */
PAPI_INTERNAL void hl_notice_once(const char *msg);
/* hl_switches.c: PAPI_HL_VERBOSE is set (every notice said, not only the first); a new
 * event set of the region API for component cidx, multiplexed when PAPI_MULTIPLEX is set
 * and cidx is the CPU component (0). */
PAPI_INTERNAL int hl_verbose(void);
PAPI_INTERNAL int hl_region_eventset(int *es, int cidx);
/* A PAPI_EVENTS entry's trailing "=instant" or "=delta" (PAPI 7) cut off in place: 1 for
 * instant, 0 for delta or none. Other '=' (raw fields "event=0x76,umask=0x1") stay. */
PAPI_INTERNAL int hl_event_suffix(char *entry);
/* PAPI_HL_THREAD_MULTIPLE=0 (PAPI 7.0): the region API keeps one record for the whole
 * process, not one per thread. slot is the calling thread's own; the process-wide one
 * is returned instead under that switch. */
PAPI_INTERNAL struct hlr_thread **hl_record_slot(struct hlr_thread **slot);
PAPI_INTERNAL int hl_thread_multiple(void);

/* Why the event cannot be used, whole: the preset's reason or the last error's detail,
 * and the component's disabled reason. Heap (the caller frees it); NULL out of memory. */
PAPI_INTERNAL char *hl_missing_reason(int code);

#endif
