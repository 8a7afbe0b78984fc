/* overflow_internal.h: the overflow records overflow.c, overflow_signal.c and the
 * histograms of profil_histogram.c share, a leaf (each file declares its calls in its own
 * header: overflow.h, overflow_signal.h, profil_histogram.h). Not installed.
 *
 * es->overflow points to one struct ovf_state (a single malloc block, so the event
 * set table may free() it at shutdown). Hardware overflow sets a period on the native
 * through its component, which routes one signal per overflow to the counting thread
 * (arm_overflow: the signal's si_fd names the source), or, for a native whose overflows
 * only feed PAPI_profil, has the kernel write the samples into a ring the component
 * empties into profil.c (set_sampling, arm_sampling: no signal); software overflow arms a
 * timer on the thread's CPU clock and compares counts against thresholds on every tick. */
#ifndef OVERFLOW_INTERNAL_H
#define OVERFLOW_INTERNAL_H

#include <signal.h>
#include <stdatomic.h>
#include <time.h>

#include "eventset.h"
#include "threads.h"

#define OVF_MAX_EVENTS 64 /* one bit per position in a long long overflow_vector */
/* ovf_configure's flag for PAPI_overflow_frequency: threshold is a frequency in Hz. Not a
 * public flag: PAPI_overflow refuses it. */
#define OVF_FLAG_HZ 0x40000000
/* Signals a second of the thread's time one event may send where the rate is known before
 * the first (a frequency, a clock's period in ns): past it the kernel's own work for each
 * signal (the interrupt, queueing, delivery: 10 us and more in a virtual machine) leaves
 * the program little, and at one every 10 us of task clock nothing at all. */
#define OVF_MAX_SIGNAL_HZ 10000
/* Signals in a row at one context (the thread ran nothing between them) after which an
 * event is taken to cause its own signals and is slowed (overflow_signal.c: no_progress). */
#define OVF_STALLED_SIGNALS 4
/* Only an event with a period (not a frequency) of at most this many events is judged so:
 * a spinning thread (a wait loop) also shows one context signal after signal, at any rate a
 * clock or a coarser period samples it; the loops this catches run at a period of 1 (a
 * fault retried) or below a handler's own cost. */
#define OVF_STALLED_PERIOD 4096
/* Why an event was slowed (ovf_event.slowed_why, bits): signals lost to a full queue; signals
 * that came back at a thread that made no progress between them. */
#define OVF_SLOWED_LOST    1
#define OVF_SLOWED_STALLED 2

enum ovf_mode { OVF_NONE = 0, OVF_HW, OVF_SW };

struct ovf_event {
    int pos;            /* entry position in the set = bit in overflow_vector */
    int code;           /* event code as the user gave it */
    int native;         /* es->nat index carrying the period (hardware), else -1 */
    _Atomic int source; /* hardware: si_fd of its signals (arm_overflow), -1 before start;
                          * atomic: other threads look for stale signal slots */
    int profiled;       /* 1: samples go to the profile buffers (profil.c) */
    int ring;           /* 1: its native samples into the component's ring (set_sampling):
                          * no signal, the samples come to profil_ring_samples */
    int hz;             /* 1: threshold is a frequency (PAPI_overflow_frequency) */
    long long threshold;
    long long limit; /* the threshold (frequency) the component was given: threshold, or
                      * slower where its signals would pass OVF_MAX_SIGNAL_HZ */
    long long next;  /* software: value at which the next overflow fires */
    long long last;  /* software: value at the previous tick */
    /* Hardware signals, paced (overflow_signal.c): the threshold (or frequency) in force,
     * the count of signals lost to a full queue when the handler last looked, whether the
     * signals queued before a slow-down are still being taken, and the times it was slowed
     * since PAPI_start. Written by the receiving thread's handler while the set runs, read
     * by other threads: atomics. */
    _Atomic long long now;
    unsigned long long lost_seen;
    int draining;
    atomic_int slowed;
    atomic_int slowed_why; /* OVF_SLOWED_* bits */
    /* The context of the last signal (a word of its registers) and the signals in a row at
     * it with none queued behind: the handler's only (no_progress). */
    uint64_t context;
    int repeats;
};

struct ovf_state {
    enum ovf_mode mode;
    int nevents;
    struct ovf_event ev[OVF_MAX_EVENTS];
    PAPI_overflow_handler_t handler; /* the user's handler; NULL when only profiling */
    pid_t tid;                       /* thread that receives the signals */
    uintptr_t stack_lo, stack_hi;    /* that thread's stack (the call chain's walk) */
    timer_t timer;                   /* software mode, while running */
    int timer_armed;
    long long tick_ns; /* software timer interval */
    /* Software-mode scratch used only inside the signal handler. */
    struct cmp_count cnt[ES_MAX_NATIVES];
    long long raw[ES_MAX_NATIVES];
};

/* The index of the overflow record of the event at position pos in o, or -1. */
static inline int ovf_find(const struct ovf_state *o, int pos)
{
    if (!o)
        return -1;
    for (int k = 0; k < o->nevents; k++)
        if (o->ev[k].pos == pos)
            return k;
    return -1;
}

#endif
