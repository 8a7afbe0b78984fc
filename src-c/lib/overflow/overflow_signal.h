/* overflow_signal.h: the overflow signal, its handler and the timers of software overflow
 * (overflow_signal.c). */
#ifndef OVERFLOW_SIGNAL_H
#define OVERFLOW_SIGNAL_H

#include "overflow_internal.h"

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

#endif
