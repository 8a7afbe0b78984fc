/* hwinfo_tlb.h: one TLB into the memory hierarchy (hwinfo_tlb.c). */
#ifndef HWINFO_TLB_H
#define HWINFO_TLB_H

#include "papi_sdk.h"

/* Add one TLB description to a memory-hierarchy level (ignored when the level is full;
 * hwinfo_tlb.c, used by both cpuid decoders). */
PAPI_INTERNAL void hwinfo_add_tlb(PAPI_mh_info_t *mh, int level, int type, int entries, int page_kb,
                                  int assoc);

#endif
