/* overflow.h: overflow of an event set's events set up or cleared (overflow.c), for the
 * entry points of PAPI_overflow, PAPI_overflow_frequency and PAPI_profil. */
#ifndef OVERFLOW_H
#define OVERFLOW_H

#include "overflow_internal.h"

/* The set of a user's PAPI_overflow or PAPI_overflow_frequency call into *es: PAPI_OK, or
 * the error of a bad set or of flags that carry OVF_FLAG_HZ (the library's own). */
PAPI_INTERNAL int ovf_user_set(int EventSet, int flags, struct eventset **es);
/* Sets or clears overflow of one event (threshold 0 clears). profiled marks
 * the event as owned by PAPI_profil/PAPI_sprofil instead of a user handler. */
PAPI_INTERNAL int ovf_configure(struct eventset *es, int EventCode, int threshold, int flags,
                                PAPI_overflow_handler_t handler, int profiled);

#endif
