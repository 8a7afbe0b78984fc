/* hwinfo.h: the hardware information the layers above use besides the public
 * PAPI_get_hardware_info (the SDK's "hardware" service, papi_sdk.h). */
#ifndef HWINFO_H
#define HWINFO_H

#include <stddef.h>

#include "hwinfo_freq.h"     /* hwinfo_mhz_meter */
#include "hwinfo_internal.h" /* struct hwinfo_numa */
#include "hwinfo_x86.h"      /* hwinfo_cpuid_hypervisor */
#include "papi_sdk.h"

/* The NUMA description of the loaded topology (loads it like PAPI_get_hardware_info);
 * NULL before PAPI_library_init. */
PAPI_INTERNAL const struct hwinfo_numa *hwinfo_numa_info(void);
/* The CPU's name as the processor gives it (x86: the cpuid brand string), else the
 * hardware information's model_string; NULL before PAPI_library_init. */
PAPI_INTERNAL const char *hwinfo_cpu_name(void);

/* Where PAPI_get_hardware_info's cpu_max_mhz came from (hwinfo_nominal_mhz's names). */
PAPI_INTERNAL const char *hwinfo_mhz_source(void);

#endif
