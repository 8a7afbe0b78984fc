/* hwinfo_tlb.c: how a TLB enters the memory hierarchy, for both cpuid decoders
 * (hwinfo_x86.c's AMD leaves, hwinfo_x86_leaf2.c's Intel descriptors); its own file so
 * that the two depend on it and not on each other. */
#include "hwinfo_internal.h"
#include "hwinfo_tlb.h"

void hwinfo_add_tlb(PAPI_mh_info_t *mh, int level, int type, int entries, int page_kb, int assoc)
{
    if (level < 0 || level >= PAPI_MAX_MEM_HIERARCHY_LEVELS || entries <= 0)
        return;
    PAPI_mh_level_t *L = &mh->level[level];
    for (int j = 0; j < PAPI_MH_MAX_LEVELS; j++) {
        if (L->tlb[j].type != PAPI_MH_TYPE_EMPTY)
            continue;
        L->tlb[j].type = type;
        L->tlb[j].num_entries = entries;
        L->tlb[j].page_size = page_kb;
        L->tlb[j].associativity = assoc;
        if (level + 1 > mh->levels)
            mh->levels = level + 1;
        return;
    }
}
