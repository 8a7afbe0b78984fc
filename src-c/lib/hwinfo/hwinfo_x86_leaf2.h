/* hwinfo_x86_leaf2.h: Intel cpuid leaf 2's TLB descriptors (hwinfo_x86_leaf2.c). */
#ifndef HWINFO_X86_LEAF2_H
#define HWINFO_X86_LEAF2_H

#include "papi_sdk.h"

/* Intel cpuid leaf 2: add the TLBs its descriptor bytes name (hwinfo_x86_leaf2.c). Pure
 * decoding of the four registers, available on every architecture. */
PAPI_INTERNAL void hwinfo_cpuid_leaf2_tlbs(PAPI_mh_info_t *mh, uint32_t eax, uint32_t ebx,
                                           uint32_t ecx, uint32_t edx);

#endif
