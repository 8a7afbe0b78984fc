/* validate_kernels_mem.c: papi_validate's cache kernel, portable C: a pointer chase
 * through one cache line per step, in a random cyclic order over a working set 16 times
 * the level-2 cache (capped at 256 MiB), so no prefetcher can guess the next line. Each
 * step is one dependent load that misses L1D, and misses L2 with the probability
 * 1 - L2/working set of a random access. Its checks are of the cache class: a stated
 * percentage (VK_CACHE_TOL), not the exact classes' loop overhead. */
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>

#include "validate_kernels.h"

#define LINE    64
#define MAX_SET (256L << 20)
#define HUGE    (2L << 20)

static void **ring;   /* the chase: each line holds the address of the next */
static void **cursor; /* where the last run stopped (the next run goes on from there) */
static long l2_bytes; /* from vk_mem_configure; 0 = unknown */
static long set_bytes;

static double l2_miss_rate(void)
{
    return set_bytes ? 1.0 - (double)l2_bytes / (double)set_bytes : 0;
}

/* A random cyclic order of the set's lines (Sattolo's shuffle: one cycle through all). */
static int build_ring(void)
{
    long lines = set_bytes / LINE;
    long *order = malloc((size_t)lines * sizeof *order);
    /* Huge pages where the kernel gives them: the steps then miss the caches, not the
     * TLB, whose page walks would add cache misses of their own. */
    char *buf = aligned_alloc(HUGE, (size_t)set_bytes);
    if (buf)
        madvise(buf, (size_t)set_bytes, MADV_HUGEPAGE);
    if (!order || !buf) {
        free(order);
        free(buf);
        return -1;
    }
    uint64_t x = 0x9e3779b97f4a7c15u;
    for (long i = 0; i < lines; i++)
        order[i] = i;
    for (long i = lines - 1; i > 0; i--) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17; /* xorshift64 */
        long j = (long)(x % (uint64_t)i), t = order[i];
        order[i] = order[j], order[j] = t;
    }
    for (long i = 0; i < lines; i++)
        *(void **)(buf + order[i] * LINE) = buf + order[(i + 1) % lines] * LINE;
    ring = cursor = (void **)(buf + order[0] * LINE);
    free(order);
    return 0;
}

void vk_mem_configure(long l2)
{
    if (ring || l2 <= 0)
        return;
    l2_bytes = l2;
    set_bytes = 16 * l2 > MAX_SET ? MAX_SET : 16 * l2;
    set_bytes = (set_bytes + HUGE - 1) / HUGE * HUGE; /* aligned_alloc wants a multiple */
    if (build_ring() < 0)
        l2_bytes = set_bytes = 0;
}

static const char *need_cache_sizes(void)
{
    return ring ? NULL : "the level-2 cache size, which the library does not know here";
}

static void chase(long n)
{
    void **p = cursor;
    for (long i = 0; i < n; i++) {
        p = (void **)*p;
        __asm__ volatile("" : "+r"(p)); /* one dependent load per step, kept */
    }
    cursor = p;
}

/* L1D misses: 1 per step; L2 misses: the random access's miss rate per step (the
 * kernel's scale). */
static const struct vk_kernel mem_kernels[] = {
    {"chase_l2",
     "pointer chase, 1 random line per step over 16 x L2 (cache class: 10%)",
     need_cache_sizes,
     chase,
     l2_miss_rate,
     {{"PAPI_L1_DCM", 1, 0},
      {"PAPI_L1_LDM", 1, 0},
      {"PAPI_L1_TCM", 1, 0},
      {"PAPI_L2_DCM", 1, 1},
      {"PAPI_L2_LDM", 1, 1},
      {"PAPI_L2_TCM", 1, 1}}},
};

const struct vk_kernel *vk_mem_kernels(int *n)
{
    *n = (int)(sizeof mem_kernels / sizeof mem_kernels[0]);
    return mem_kernels;
}
