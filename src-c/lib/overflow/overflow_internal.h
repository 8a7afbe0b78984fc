/* overflow_internal.h: what overflow.c, overflow_signal.c, profil.c and the counting
 * core share about overflow dispatch. Not installed.
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

/* The set of a user's PAPI_overflow or PAPI_overflow_frequency call into *es: PAPI_OK, or
 * the error of a bad set or of flags that carry OVF_FLAG_HZ (the library's own). */
PAPI_INTERNAL int ovf_user_set(int EventSet, int flags, struct eventset **es);
/* overflow.c: set or clear overflow of one event (threshold 0 clears). profiled marks
 * the event as owned by PAPI_profil/PAPI_sprofil instead of a user handler. */
PAPI_INTERNAL int ovf_configure(struct eventset *es, int EventCode, int threshold, int flags,
                                PAPI_overflow_handler_t handler, int profiled);
/* Index of EventCode's overflow record in es, or -1. */
PAPI_INTERNAL int ovf_find(const struct ovf_state *o, int pos);

/* overflow_signal.c */
PAPI_INTERNAL int ovf_signal_number(void);
PAPI_INTERNAL int ovf_install_handler(void);
/* Shutdown, before the sets are freed: the handler stops reading sets; waits for those
 * inside it. */
PAPI_INTERNAL void ovf_quiesce(int inherited);
/* Inside the user's overflow handler (called from it on its thread): the signal's context
 * and the thread's stack bounds (0 when unknown); 0 outside one. Async-signal-safe. */
PAPI_INTERNAL int ovf_dispatch_context(void **ctx, uintptr_t *stack_lo, uintptr_t *stack_hi);
/* Restore the signal actions ovf_install_handler replaced, discarding the signals still
 * queued (shutdown, unload: after every set is freed). */
PAPI_INTERNAL void ovf_restore_handlers(void);
/* The threshold (or frequency, *hz) the event at pos of es overflows at now (before its
 * first PAPI_start: the one it will start at, the signal cap applied), and the times the
 * handler slowed it since PAPI_start because it could not keep up (0: as configured);
 * PAPI_ENOEVNT when it does not overflow. */
PAPI_INTERNAL int ovf_rate_now(const struct eventset *es, int pos, long long *now, int *hz,
                               int *slowed);
/* Times since the library began that the kernel's queue of signals was full and a plain
 * SIGIO came instead of an overflow's signal (its notification lost). */
PAPI_INTERNAL unsigned long long ovf_queue_overflows(void);
/* Called by PAPI_start before enabling and by PAPI_stop after disabling. */
PAPI_INTERNAL int ovf_start(struct eventset *es);
PAPI_INTERNAL void ovf_stop(struct eventset *es);

/* profil.c: account one overflow of position pos at pc (signal context). */
PAPI_INTERNAL void profil_sample(struct eventset *es, int pos, uintptr_t pc, long long weight);
/* The receiver of a ring's samples (cmp_sample_fn; arg is the event set): each address
 * goes to profil_sample as a signal's would, the lost ones are counted per event. */
PAPI_INTERNAL void profil_ring_samples(void *arg, int native, const uint64_t *ips, int n,
                                       uint64_t lost);
/* PAPI_stop: say how many samples the kernel dropped since PAPI_start, if any. */
PAPI_INTERNAL void profil_report_lost(struct eventset *es);

#endif
