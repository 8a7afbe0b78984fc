/* validate_kernels_mem.c: papi_validate's memory kernels. Each is a pointer chase (one
 * dependent load per step, in inline assembly on x86-64 and arm64 so that its
 * instructions are exact too: 1 per load or store, 2 for the loop):
 *  - chase_l2, chase_l3: one cache line per step in a random cyclic order over 16 times
 *    the level-2 or level-3 cache (capped by the machine's memory: vk_mem_cap; huge
 *    pages so that page walks add no misses of their own), which no prefetcher can
 *    guess: every step misses L1D (and L2 for chase_l3); the cache sized misses between
 *    1 - size / set of the steps (random replacement) and all of them (LRU on a cycle
 *    longer than the cache): expected at the midpoint, 1 - size / (2 set), which is
 *    within 1/16 of both ends when the set is at least 8 times the cache;
 *  - tlb_pages: one line per 4 KiB page in a random order over VK_TLB_PAGES pages (no
 *    huge pages): a data TLB miss per step but for the entries the TLB holds;
 *  - stream_read, stream_rw: 16 consecutive lines per step of the level-3 set (read, or
 *    read and one store into each): known bytes through the memory controller.
 * Their cache and TLB rows are judged within VK_CACHE_TOL, bandwidth within VK_BW_TOL. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "validate_kernels.h"

#define LINE    64
#define PAGE    4096
#define SET_UNKNOWN (256L << 20) /* the cap when /proc/meminfo says nothing */
#define HUGE    (2L << 20)
#define STREAM  16 /* lines per step of the stream kernels */

/* One working set: its memory and the ring's cursor (the next run goes on from there). */
struct ring {
    char *buf;
    long bytes;
    void **cursor, **seq; /* the random ring (word 0), the sequential one (word 1) */
    int built, failed;
};

static struct vk_mem_sizes sizes;
static int l2_assumed, l3_assumed;
static char assumed[160];
static struct ring r2, r3, tlb;
static long max_set; /* the working sets' cap: vk_mem_cap */
static char cap_note[160];

/* Assumed when the library has no cache sizes (QEMU's guest): a common L2, a small L3. */
#define L2_ASSUMED (1L << 20)
#define L3_ASSUMED (8L << 20)

/* MemAvailable of /proc/meminfo in bytes, 0 when it cannot be read. */
static long mem_available(void)
{
    FILE *f = fopen("/proc/meminfo", "r");
    char line[128];
    long kb = 0;
    while (f && fgets(line, sizeof line, f))
        if (sscanf(line, "MemAvailable: %ld kB", &kb) == 1)
            break;
    if (f)
        fclose(f);
    return kb > 0 ? kb * 1024 : 0;
}

/* The cap: a quarter of the memory available now, at most ceiling, in huge pages. */
static void set_cap(long ceiling)
{
    long avail = mem_available();
    max_set = avail ? avail / 4 : SET_UNKNOWN;
    max_set = (max_set > ceiling ? ceiling : max_set) / HUGE * HUGE;
    if (avail)
        snprintf(cap_note, sizeof cap_note,
                 "up to %ld MiB (a quarter of MemAvailable, %ld MiB, at most %ld MiB)",
                 max_set >> 20, avail >> 20, ceiling >> 20);
    else
        snprintf(cap_note, sizeof cap_note, "up to %ld MiB (/proc/meminfo unreadable)",
                 max_set >> 20);
}

const char *vk_mem_cap(void)
{
    return cap_note;
}

void vk_mem_configure(const struct vk_mem_sizes *s)
{
    if (r2.built || r3.built || tlb.built)
        return;
    sizes = *s;
    l2_assumed = sizes.l2 <= 0, l3_assumed = sizes.l3 <= 0;
    sizes.l2 = l2_assumed ? L2_ASSUMED : sizes.l2;
    sizes.l3 = l3_assumed ? (sizes.l2 > L3_ASSUMED ? 4 * sizes.l2 : L3_ASSUMED) : sizes.l3;
    sizes.tlb_pages = sizes.tlb_pages > 0 ? sizes.tlb_pages : VK_TLB_PAGES;
    vk_itlb_configure(sizes.tlb_pages);
    set_cap(sizes.max_set > 0 ? sizes.max_set : VK_SET_CEILING);
    snprintf(assumed, sizeof assumed, "%s%s assumed: the library reports no such cache size here",
             l2_assumed ? "L2 1 MiB" : "",
             l3_assumed ? (l2_assumed ? ", L3 8 MiB" : "L3 8 MiB") : "");
}

const char *vk_mem_assumed(void)
{
    return l2_assumed || l3_assumed ? assumed : NULL;
}

static long set_of(long cache)
{
    long set = 16 * cache > max_set ? max_set : 16 * cache, align = set >= HUGE ? HUGE : PAGE;
    return (set + align - 1) / align * align; /* aligned_alloc wants a multiple */
}

static uint64_t next_random(uint64_t *x)
{
    *x ^= *x << 13, *x ^= *x >> 7, *x ^= *x << 17; /* xorshift64 */
    return *x;
}

/* Slot i of a ring of stride bytes: the start of a line; of a page, its line i % 64, so
 * that the pages' lines do not all fall in the same cache sets. */
static char *slot(char *buf, long i, long stride)
{
    return buf + i * stride + (stride > LINE ? (i % 64) * LINE : 0);
}

long *vk_random_order(long n)
{
    long *order = n > 0 ? malloc((size_t)n * sizeof *order) : NULL;
    if (!order)
        return NULL;
    uint64_t x = 0x9e3779b97f4a7c15u;
    for (long i = 0; i < n; i++)
        order[i] = i;
    for (long i = n - 1; i > 0; i--) { /* Sattolo's shuffle: one cycle through all */
        long j = (long)(next_random(&x) % (uint64_t)i), t = order[i];
        order[i] = order[j], order[j] = t;
    }
    return order;
}

/* Links n slots in a random cycle; returns the first, or NULL out of memory. */
static void **link_random(char *buf, long n, long stride)
{
    long *order = vk_random_order(n);
    if (!order)
        return NULL;
    void **first = (void **)slot(buf, order[0], stride); /* order[0] is set: n > 0 */
    for (long i = 0; i < n; i++)
        *(void **)slot(buf, order[i], stride) = slot(buf, order[(i + 1) % n], stride);
    free(order);
    return first;
}

/* Builds r over bytes (huge pages or not) on first use; 0, or -1 out of memory. */
static int build(struct ring *r, long bytes, int huge, long stride)
{
    if (r->built || r->failed)
        return r->built ? 0 : -1;
    r->buf = aligned_alloc(bytes % HUGE ? PAGE : HUGE, (size_t)bytes);
    if (r->buf)
        madvise(r->buf, (size_t)bytes, huge ? MADV_HUGEPAGE : MADV_NOHUGEPAGE);
    r->cursor = r->buf ? link_random(r->buf, bytes / stride, stride) : NULL;
    if (!r->cursor) {
        free(r->buf);
        r->failed = 1;
        return -1;
    }
    if (stride == LINE) { /* the sequential ring: word 1 of each line to the next's */
        long lines = bytes / LINE;
        for (long i = 0; i < lines; i++)
            *(void **)(r->buf + i * LINE + 8) = r->buf + ((i + 1) % lines) * LINE + 8;
        r->seq = (void **)(r->buf + 8);
    }
    r->bytes = bytes;
    r->built = 1;
    return 0;
}

/* Whether a set of 8 times the cache fits within the cap (below that, the replacement
 * policy decides the miss rate beyond the cache class's 10%). */
static const char *need_l2_set(void)
{
    return set_of(sizes.l2) < 8 * sizes.l2
               ? "a working set of 8 times the L2 cache within its cap"
               : NULL;
}
static const char *need_l3_set(void)
{
    static char why[160];
    if (set_of(sizes.l3) >= 8 * sizes.l3)
        return NULL;
    snprintf(why, sizeof why, "a working set of 8 times the L3 cache (%ld MiB) within %ld MiB",
             sizes.l3 >> 20, max_set >> 20);
    return why;
}

/* Miss rate of the sized cache: between 1 - cache / set (random replacement) and 1 (LRU
 * on a cycle longer than the cache); the midpoint (the set vk_mem_ready builds). */
static double rate(long cache)
{
    double r = 1.0 - (double)cache / (2.0 * (double)set_of(cache));
    return r > 0 ? r : 0;
}
static double l2_miss_rate(void)
{
    return rate(sizes.l2);
}
static double l3_miss_rate(void)
{
    return rate(sizes.l3);
}
static double tlb_miss_rate(void)
{
    double r = 1.0 - (double)VK_TLB_ASSUMED / (double)sizes.tlb_pages;
    return r > 0 ? r : 0; /* a test's few pages: none assumed to miss */
}

#define R16(x) x x x x x x x x x x x x x x x x
#if defined(__x86_64__)
#define VK_MEM_INS(loads_stores) (loads_stores + 2)
#define LOAD                     "mov (%1), %1\n\t"
#define STORE                    "mov %1, 8(%1)\n\t"
#define LOOP(body)               "1:\n\t" body "dec %0\n\tjnz 1b\n\t"
#elif defined(__aarch64__)
#define VK_MEM_INS(loads_stores) (loads_stores + 2)
#define LOAD                     "ldr %1, [%1]\n\t"
#define STORE                    "str %1, [%1, #8]\n\t"
#define LOOP(body)               "1:\n\t" body "subs %0, %0, #1\n\tb.ne 1b\n\t"
#endif

#ifdef LOOP
#define STEPS(fn, body)                                                     \
    static void **fn(void **p, long n)                                      \
    {                                                                       \
        __asm__ volatile(LOOP(body) : "+r"(n), "+r"(p) : : "cc", "memory"); \
        return p;                                                           \
    }
STEPS(steps_chase, LOAD)
STEPS(steps_read, R16(LOAD))
STEPS(steps_rw, R16(LOAD STORE))
#define VK_BR                                    \
    {"PAPI_BR_INS", 1, 0}, {"PAPI_BR_CN", 1, 0}, \
    {                                            \
        "PAPI_BR_TKN", 1, 0                      \
    }
#else /* another ISA: portable loops, whose instructions are the compiler's */
#define VK_MEM_INS(loads_stores) 0
#define VK_BR              \
    {                      \
        "PAPI_BR_CN", 0, 0 \
    }
static void **steps_chase(void **p, long n)
{
    for (long i = 0; i < n; i++)
        p = (void **)*p;
    return p;
}
static void **steps_read(void **p, long n)
{
    return steps_chase(p, n * STREAM);
}
static void **steps_rw(void **p, long n)
{
    for (long i = 0; i < n * STREAM; i++)
        p = (void **)*p, p[1] = p;
    return p;
}
#endif

/* A kernel: n steps from where its last run stopped. */
#define VK_RUN(fn, cursor, steps)      \
    static void fn(long n)             \
    {                                  \
        if (n > 0)                     \
            cursor = steps(cursor, n); \
    }
VK_RUN(chase_l2, r2.cursor, steps_chase)
VK_RUN(chase_l3, r3.cursor, steps_chase)
VK_RUN(tlb_pages, tlb.cursor, steps_chase)
VK_RUN(stream_read, r3.seq, steps_read)
VK_RUN(stream_rw, r3.seq, steps_rw)

#define C  VK_CACHE
#define CL (VK_CACHE | VK_PER_LANE)
#define BW VK_BW
/* The chase's own counts: its instructions, its branch, its load. */
#define VK_CHASE                               \
    {"PAPI_TOT_INS", VK_MEM_INS(1), 0}, VK_BR, \
    {                                          \
        "PAPI_LD_INS", 1, 0                    \
    }
/* L1D misses: 1 per step; the sized cache's misses: the random access's miss rate (the
 * kernel's lanes()); chase_l3's set is 16 x L3, so L2 hits are under 1/16 of a step. */
static const struct vk_kernel mem_kernels[] = {
    {"chase_l2",
     "pointer chase, 1 random line per step over 16 x L2 (cache class: 10%)",
     need_l2_set,
     chase_l2,
     l2_miss_rate,
     {VK_CHASE,
      {"PAPI_L1_DCM", 1, C},
      {"PAPI_L1_LDM", 1, C},
      {"PAPI_L1_TCM", 1, C},
      {"PAPI_L2_DCM", 1, CL},
      {"PAPI_L2_LDM", 1, CL},
      {"PAPI_L2_TCM", 1, CL}}},
    {"chase_l3",
     "pointer chase, 1 random line per step over 16 x L3 (cache class: 10%)",
     need_l3_set,
     chase_l3,
     l3_miss_rate,
     {VK_CHASE,
      {"PAPI_L1_DCM", 1, C},
      {"PAPI_L2_DCM", 1, C},
      {"PAPI_L2_TCM", 1, C},
      {"PAPI_L3_TCA", 1, C},
      {"PAPI_L3_DCA", 1, C},
      {"PAPI_L3_TCM", 1, CL},
      {"PAPI_L3_DCM", 1, CL},
      {"PAPI_L3_LDM", 1, CL}}},
    {"tlb_pages",
     "pointer chase, 1 random 4 KiB page per step over 32768 pages (cache class: 10%)",
     vk_need_none,
     tlb_pages,
     tlb_miss_rate,
     {VK_CHASE, {"PAPI_TLB_DM", 1, CL}}},
    {"stream_read",
     "16 consecutive lines read per step over 16 x L3: 1024 bytes (bandwidth: 15%)",
     need_l3_set,
     stream_read,
     NULL,
     {{"PAPI_TOT_INS", VK_MEM_INS(STREAM), 0},
      VK_BR,
      {"PAPI_LD_INS", STREAM, 0},
      {"MEM_READ_BW", STREAM *LINE, BW},
      {"MEM_BW", STREAM *LINE, BW}}},
    {"stream_rw",
     "16 consecutive lines read and stored to per step: 1024 bytes each way (bandwidth: 15%)",
     need_l3_set,
     stream_rw,
     NULL,
     {{"PAPI_TOT_INS", VK_MEM_INS(2 * STREAM), 0},
      VK_BR,
      {"PAPI_LD_INS", STREAM, 0},
      {"PAPI_SR_INS", STREAM, 0},
      {"PAPI_LST_INS", 2 * STREAM, 0},
      {"MEM_READ_BW", STREAM *LINE, BW},
      {"MEM_WRITE_BW", STREAM *LINE, BW},
      {"MEM_BW", 2 * STREAM *LINE, BW}}},
};

const char *vk_mem_ready(const struct vk_kernel *k)
{
    struct ring *r = k->run == chase_l2 ? &r2 : k->run == tlb_pages ? &tlb : &r3;
    if (k->run == tlb_pages)
        return build(r, sizes.tlb_pages * PAGE, 0, PAGE) ? "memory for its pages" : NULL;
    if (k->run != chase_l2 && k->run != chase_l3 && k->run != stream_read &&
        k->run != stream_rw)
        return NULL; /* not a memory kernel */
    long cache = r == &r2 ? sizes.l2 : sizes.l3;
    return build(r, set_of(cache), 1, LINE) ? "memory for its working set" : NULL;
}

const struct vk_kernel *vk_mem_kernels(int *n)
{
    *n = (int)(sizeof mem_kernels / sizeof mem_kernels[0]);
    return mem_kernels;
}
