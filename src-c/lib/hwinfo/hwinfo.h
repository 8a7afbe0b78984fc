/* hwinfo.h: the hardware information the layers above use besides the public
 * PAPI_get_hardware_info (the SDK's "hardware" service, papi_sdk.h). */
#ifndef HWINFO_H
#define HWINFO_H

#include <stddef.h>

#include "papi_sdk.h"

/* x86 cpuid leaf 0x40000000: the hypervisor's vendor into name; 0 when there is none
 * (or not x86). */
PAPI_INTERNAL int hwinfo_cpuid_hypervisor(char *name, size_t len);

/* The frequency meter of last resort but one (set by PAPI_library_init; may stay NULL). */
extern int (*hwinfo_mhz_meter)(void) PAPI_INTERNAL;

#endif
