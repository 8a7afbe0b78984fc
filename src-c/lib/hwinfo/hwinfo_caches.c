/* hwinfo_caches.c: the cache table of PAPI_mh_info_t, from whichever source describes
 * the caches (sysfs, hwloc, cpuid), placed per level in PAPI's order: data, instruction,
 * unified. Also the decoding of cpuid's deterministic cache leaf (Intel 4, AMD
 * 0x8000001D: the same layout) and of AMD's older cache leaves (0x80000005/6, which a
 * VM may fill while leaving 0x8000001D empty), kept apart from the cpuid call so it can
 * be tested on recorded register values on any architecture. */
#include "hwinfo_caches.h"

void hwinfo_place_caches(PAPI_mh_info_t *mh, const struct hwinfo_cache *c, int n)
{
    static const int order[] = {PAPI_MH_TYPE_DATA, PAPI_MH_TYPE_INST, PAPI_MH_TYPE_UNIFIED};
    for (int k = 0; k < 3; k++)
        for (int i = 0; i < n; i++) {
            if (c[i].type != order[k] || c[i].level < 1 ||
                c[i].level > PAPI_MAX_MEM_HIERARCHY_LEVELS)
                continue;
            PAPI_mh_level_t *L = &mh->level[c[i].level - 1];
            int j = 0;
            while (j < PAPI_MH_MAX_LEVELS && L->cache[j].type != PAPI_MH_TYPE_EMPTY)
                j++;
            if (j == PAPI_MH_MAX_LEVELS)
                continue;
            L->cache[j].type = c[i].type;
            L->cache[j].size = (int)c[i].size;
            L->cache[j].line_size = (int)c[i].line;
            L->cache[j].num_lines = c[i].line ? (int)(c[i].size / c[i].line) : 0;
            L->cache[j].associativity = c[i].ways < 0 ? HWINFO_FULLY_ASSOCIATIVE : (int)c[i].ways;
            if (c[i].level > mh->levels)
                mh->levels = c[i].level;
        }
}

/* One subleaf: type in EAX[4:0] (0 ends the list), level EAX[7:5], fully associative
 * EAX[9]; line size, partitions and ways minus one in EBX[11:0], [21:12], [31:22]; sets
 * minus one in ECX. Ways as hwloc's x86 backend gives them (-1: fully associative). */
int hwinfo_cpuid_cache_decode(uint32_t eax, uint32_t ebx, uint32_t ecx, struct hwinfo_cache *c)
{
    unsigned kind = eax & 0x1f;
    if (kind == 0)
        return 0;
    long long line = (ebx & 0xfff) + 1, parts = ((ebx >> 12) & 0x3ff) + 1,
              ways = ((ebx >> 22) & 0x3ff) + 1, sets = (long long)ecx + 1;
    c->level = (int)((eax >> 5) & 7);
    c->type = kind == 1 ? PAPI_MH_TYPE_DATA : kind == 2 ? PAPI_MH_TYPE_INST : PAPI_MH_TYPE_UNIFIED;
    c->line = line;
    c->size = line * parts * ways * sets;
    c->ways = (eax & (1u << 9)) ? -1 : ways;
    return kind <= 3 ? 1 : -1; /* 4..31 are reserved kinds: skipped, not an end */
}

int hwinfo_amd_assoc(unsigned code)
{
    /* 9 says "see leaf 0x8000001D": unknown here, as 7 and 0xb-less codes are. */
    static const int ways[16] = {0, 1, 2, 3, 4, 6, 8, 0, 16, 0, 32, 48, 64, 96, 128, -1};
    return ways[code & 0xf];
}

/* L1 data (ECX) and instruction (EDX) of leaf 0x80000005: size in KB in [31:24], ways in
 * [23:16] (0xff: fully associative), line in [7:0]. L2 (ECX of 0x80000006): KB in [31:16],
 * the ways' code in [15:12] (0: no cache); L3 (its EDX): 512 KB units in [31:18]. */
int hwinfo_amd_legacy_caches(uint32_t l1d, uint32_t l1i, uint32_t l2, uint32_t l3,
                             struct hwinfo_cache *c)
{
    int n = 0;
    const uint32_t l1[2] = {l1d, l1i};
    for (int i = 0; i < 2; i++)
        if (l1[i] >> 24) {
            unsigned w = (l1[i] >> 16) & 0xff;
            c[n++] = (struct hwinfo_cache){1, i ? PAPI_MH_TYPE_INST : PAPI_MH_TYPE_DATA,
                                           (long long)(l1[i] >> 24) << 10, l1[i] & 0xff,
                                           w == 0xff ? -1 : (long long)w};
        }
    if ((l2 >> 16) && ((l2 >> 12) & 0xf))
        c[n++] = (struct hwinfo_cache){2, PAPI_MH_TYPE_UNIFIED, (long long)(l2 >> 16) << 10,
                                       l2 & 0xff, hwinfo_amd_assoc(l2 >> 12)};
    if ((l3 >> 18) && ((l3 >> 12) & 0xf))
        c[n++] = (struct hwinfo_cache){3, PAPI_MH_TYPE_UNIFIED, (long long)(l3 >> 18) << 19,
                                       l3 & 0xff, hwinfo_amd_assoc(l3 >> 12)};
    return n;
}
