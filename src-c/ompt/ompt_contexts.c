/* ompt_contexts.c: the table of (named region, MPI_Pcontrol region) pairs (ompt_contexts.h).
 * A slot's key is set once by compare-and-swap and never changes: the key is the named
 * region's id (< 2^54) shifted past the MPI region's index + 1 (8 bits), plus 1. */
#include <stdatomic.h>
#include <stdint.h>

#include "ompt_contexts.h"

static _Atomic uint64_t context_keys[OMPT_CONTEXTS_MAX];

static unsigned hash_key(uint64_t k)
{
    k ^= k >> 31;
    k *= 0x9e3779b97f4a7c15ULL;
    k ^= k >> 29;
    return (unsigned)k & (OMPT_CONTEXTS_MAX - 1);
}

unsigned ompt_context_index(long named, int mpi)
{
    if (named <= 0 && mpi < 0)
        return 0;
    if (named < 0 || named >= (1L << 54) || mpi > 254)
        return OMPT_CONTEXT_DROPPED;
    uint64_t key = ((uint64_t)named << 8 | (uint64_t)(mpi + 1)) + 1;
    unsigned h = hash_key(key);
    for (unsigned probe = 0; probe < OMPT_CONTEXTS_MAX; probe++) {
        unsigned i = (h + probe) & (OMPT_CONTEXTS_MAX - 1);
        uint64_t k = atomic_load_explicit(&context_keys[i], memory_order_acquire);
        if (k == key)
            return i + 1;
        if (k == 0) {
            uint64_t expected = 0;
            if (atomic_compare_exchange_strong(&context_keys[i], &expected, key) || expected == key)
                return i + 1;
        }
    }
    return OMPT_CONTEXT_DROPPED;
}

int ompt_context_of(unsigned c, long *named, int *mpi)
{
    *named = 0, *mpi = -1;
    if (c == 0 || c > OMPT_CONTEXTS_MAX)
        return 0;
    uint64_t k = atomic_load_explicit(&context_keys[c - 1], memory_order_acquire);
    if (k == 0)
        return 0;
    k -= 1;
    *named = (long)(k >> 8);
    *mpi = (int)(k & 0xff) - 1;
    return 1;
}
