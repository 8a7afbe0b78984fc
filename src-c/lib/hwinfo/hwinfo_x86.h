/* hwinfo_x86.h: what x86's cpuid says of the CPU (hwinfo_x86.c; no-ops elsewhere). */
#ifndef HWINFO_X86_H
#define HWINFO_X86_H

#include "hwinfo_internal.h"

/* x86 cpuid: hypervisor vendor (leaf 0x40000000) and TLBs. No-ops elsewhere. */
PAPI_INTERNAL int hwinfo_cpuid_brand(char *name, size_t len);
PAPI_INTERNAL void hwinfo_cpuid_tlbs(PAPI_mh_info_t *mh);
/* CPU 0's caches from cpuid's deterministic cache leaf (Intel leaf 4, AMD 0x8000001D with
 * topology extensions, else AMD's 0x80000005/6), as hwloc's x86 backend reads them; the number found (0 on other
 * CPUs and architectures). Runs on the calling CPU: the caches of one core type. */
PAPI_INTERNAL int hwinfo_cpuid_caches(struct hwinfo_cache *c, int max);

/* x86 cpuid leaf 0x40000000: the hypervisor's vendor into name; 0 when there is none
 * (or not x86). */
PAPI_INTERNAL int hwinfo_cpuid_hypervisor(char *name, size_t len);

#endif
