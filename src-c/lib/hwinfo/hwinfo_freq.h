/* hwinfo_freq.h: the nominal clock and its source (hwinfo_freq.c). */
#ifndef HWINFO_FREQ_H
#define HWINFO_FREQ_H

#include "papi_sdk.h"

/* hwinfo_freq.c: the nominal clock in MHz (max, min; 0 only when no source has it) and
 * the name of its source: cpufreq, acpi_cppc, cpuinfo, measured, bogomips or none. Paths
 * are taken under root ("" for this machine, else a recorded machine: fsroot.h). */
PAPI_INTERNAL const char *hwinfo_nominal_mhz(const char *root, int *max_mhz, int *min_mhz);
/* The same with /proc/cpuinfo's "cpu MHz" already read (> 0), so it is not read again. */
PAPI_INTERNAL const char *hwinfo_nominal_mhz_known(const char *root, double cpuinfo_mhz,
                                                   int *max_mhz, int *min_mhz);
/* The frequency meter of last resort but one (set by PAPI_library_init; may stay NULL). */
extern int (*hwinfo_mhz_meter)(void) PAPI_INTERNAL;

#endif
