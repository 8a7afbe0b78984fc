/* hwinfo_caches.h: caches into PAPI's table, cpuid's cache leaves decoded (hwinfo_caches.c). */
#ifndef HWINFO_CACHES_H
#define HWINFO_CACHES_H

#include "hwinfo_internal.h"

/* hwinfo_caches.c: put caches into PAPI's table (per level: data, instruction, unified);
 * decode one subleaf of cpuid's deterministic cache leaf (1 a cache, 0 the end of the
 * list, -1 a reserved kind to skip). */
PAPI_INTERNAL void hwinfo_place_caches(PAPI_mh_info_t *mh, const struct hwinfo_cache *c, int n);
PAPI_INTERNAL int hwinfo_cpuid_cache_decode(uint32_t eax, uint32_t ebx, uint32_t ecx,
                                            struct hwinfo_cache *c);
/* AMD's older leaves: L1 data and instruction (ECX, EDX of 0x80000005), L2 and L3 (ECX,
 * EDX of 0x80000006) into c (room for 4); the number of caches. The ways of an AMD
 * associativity code (-1: fully associative, 0: unknown or disabled). */
PAPI_INTERNAL int hwinfo_amd_legacy_caches(uint32_t l1d, uint32_t l1i, uint32_t l2, uint32_t l3,
                                           struct hwinfo_cache *c);
PAPI_INTERNAL int hwinfo_amd_assoc(unsigned code);

#endif
