/* ompt_regions.c: the table of parallel regions by code address (ompt_regions.h).
 * Open addressing over a fixed array: a slot's key is set once, by compare-and-swap, and
 * never changes, so a lookup needs no lock and a region keeps its index for the run. */
#include <stdatomic.h>

#include "ompt_regions.h"

static _Atomic uintptr_t region_keys[OMPT_REGIONS_MAX];

static unsigned hash_address(uintptr_t a)
{
    a ^= a >> 33;
    a *= 0xff51afd7ed558ccdULL;
    a ^= a >> 33;
    return (unsigned)a & (OMPT_REGIONS_MAX - 1);
}

int ompt_region_index(const void *codeptr_ra)
{
    uintptr_t key = codeptr_ra ? (uintptr_t)codeptr_ra : OMPT_REGION_NO_ADDRESS;
    unsigned h = hash_address(key);
    for (unsigned probe = 0; probe < OMPT_REGIONS_MAX; probe++) {
        unsigned i = (h + probe) & (OMPT_REGIONS_MAX - 1);
        uintptr_t k = atomic_load_explicit(&region_keys[i], memory_order_acquire);
        if (k == key)
            return (int)i;
        if (k == 0) {
            uintptr_t expected = 0;
            if (atomic_compare_exchange_strong(&region_keys[i], &expected, key) || expected == key)
                return (int)i;
        }
    }
    return -1;
}

uintptr_t ompt_region_address(int i)
{
    if (i < 0 || i >= OMPT_REGIONS_MAX)
        return 0;
    return atomic_load_explicit(&region_keys[i], memory_order_acquire);
}
