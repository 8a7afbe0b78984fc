/* hwinfo.h: what the library's shutdown asks of the hardware description. */
#ifndef HWINFO_H
#define HWINFO_H

#include "papi_globals.h"

PAPI_INTERNAL void hwinfo_shutdown(void);
PAPI_INTERNAL void sysinfo_shutdown(void);

/* The frequency meter of last resort but one (set by PAPI_library_init; may stay NULL). */
extern int (*hwinfo_mhz_meter)(void) PAPI_INTERNAL;

#endif
