/* hl_session.h: what the 3.5 high-level calls (hl_legacy.c) and the 7.x rate
 * calls (hl_rates.c) share: one per-thread "session" (which call started the
 * counters, its event set, the totals at the previous call). Not installed. */
#ifndef HL_SESSION_H
#define HL_SESSION_H

#include "papi_globals.h"

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

#endif
