/* ompt_keys.h: the open addressing every fixed table of the tool uses (its parallel
 * regions, its constructs, its locks' init sites): a slot's nonzero 64-bit key is set once,
 * by compare-and-swap, and never changes, so a lookup takes no lock. */
#ifndef PAPI_OMPT_KEYS_H
#define PAPI_OMPT_KEYS_H

#include <stdatomic.h>
#include <stdint.h>

/* key's first probe in a table of size slots (a power of two). */
static inline unsigned ompt_key_hash(uint64_t key, unsigned size)
{
    key ^= key >> 33;
    key *= 0xff51afd7ed558ccdULL;
    key ^= key >> 33;
    return (unsigned)key & (size - 1);
}

/* key's slot in keys[size]: found, or (add) claimed at its first use (*claimed then 1,
 * when claimed is not NULL); -1 when the table is full, or (not add) key absent. */
static inline int ompt_key_slot(_Atomic uint64_t *keys, unsigned size, uint64_t key, int add,
                                int *claimed)
{
    unsigned h = ompt_key_hash(key, size);
    for (unsigned probe = 0; probe < size; probe++) {
        unsigned i = (h + probe) & (size - 1);
        uint64_t k = atomic_load_explicit(&keys[i], memory_order_acquire);
        if (k == 0) {
            uint64_t expected = 0;
            if (!add)
                return -1;
            if (atomic_compare_exchange_strong(&keys[i], &expected, key)) {
                if (claimed)
                    *claimed = 1;
                return (int)i;
            }
            k = expected;
        }
        if (k == key)
            return (int)i;
    }
    return -1;
}

#endif
