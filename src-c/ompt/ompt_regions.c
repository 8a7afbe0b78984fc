/* ompt_regions.c: the table of parallel regions by code address and context
 * (ompt_regions.h). Open addressing over a fixed array: a slot's key (the address in the
 * low 48 bits, the context above) is set once, by compare-and-swap, and never changes,
 * so a lookup needs no lock and a region keeps its index for the run. */
#include <stdatomic.h>

#include "ompt_regions.h"

#define CONTEXT_SHIFT 48
#define ADDRESS_MASK  ((1ULL << CONTEXT_SHIFT) - 1)

static _Atomic uint64_t region_keys[OMPT_REGIONS_MAX];

static unsigned hash_key(uint64_t a)
{
    a ^= a >> 33;
    a *= 0xff51afd7ed558ccdULL;
    a ^= a >> 33;
    return (unsigned)a & (OMPT_REGIONS_MAX - 1);
}

int ompt_region_index(const void *codeptr_ra, unsigned ctx)
{
    uint64_t key = codeptr_ra ? (uint64_t)(uintptr_t)codeptr_ra : OMPT_REGION_NO_ADDRESS;
    if (key & ~ADDRESS_MASK)
        return -1; /* no code in Linux's user space: counted as dropped, not misfiled */
    key |= (uint64_t)(ctx & 0xffffu) << CONTEXT_SHIFT;
    unsigned h = hash_key(key);
    for (unsigned probe = 0; probe < OMPT_REGIONS_MAX; probe++) {
        unsigned i = (h + probe) & (OMPT_REGIONS_MAX - 1);
        uint64_t k = atomic_load_explicit(&region_keys[i], memory_order_acquire);
        if (k == key)
            return (int)i;
        if (k == 0) {
            uint64_t expected = 0;
            if (atomic_compare_exchange_strong(&region_keys[i], &expected, key) || expected == key)
                return (int)i;
        }
    }
    return -1;
}

static uint64_t key_of(int i)
{
    if (i < 0 || i >= OMPT_REGIONS_MAX)
        return 0;
    return atomic_load_explicit(&region_keys[i], memory_order_acquire);
}

uintptr_t ompt_region_address(int i)
{
    return (uintptr_t)(key_of(i) & ADDRESS_MASK);
}

unsigned ompt_region_context(int i)
{
    return (unsigned)(key_of(i) >> CONTEXT_SHIFT);
}
