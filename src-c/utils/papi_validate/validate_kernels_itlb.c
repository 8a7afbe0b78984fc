/* validate_kernels_itlb.c: papi_validate's instruction-TLB kernel, itlb_pages. Code is
 * generated at run time into an mmap'd region of the TLB kernel's pages (VK_TLB_PAGES,
 * 4 KiB each, no huge pages): each page holds one block, at line i % 64 of page i so
 * that the blocks spread over the instruction cache's sets, and the blocks are linked in
 * a random cycle (Sattolo's shuffle). One step, one page visit, is 3 instructions:
 *   x86-64: dec %rdi; jz 1f; jmp <next page>; 1: ret
 *   arm64:  subs x0, x0, #1; b.eq 1f; b <next page>; 1: ret
 * so 1 conditional branch not taken and 1 unconditional taken per step, exactly (the
 * last step's taken b.eq/jz and ret belong to the call, which the n and 2n difference
 * cancels). As the data TLB kernel assumes, no TLB holds VK_TLB_ASSUMED (2048) or more
 * entries: second-level TLBs, which also hold instruction pages, have 512 to 4096
 * entries, so an instruction TLB miss per step but for those it holds (1 - 2048/32768
 * per step, right within 10% for 0 to 4096 entries). Each step also fetches one line no
 * step before it fetched for 32768 - 1 steps: an L1 instruction-cache miss per step, but
 * for the 512 to 1024 lines an L1I holds (under 4% of them), unless a front end
 * prefetches jump targets it cannot know ahead (32768 random targets: more than any
 * branch target buffer holds). The region is written, then made read-and-execute
 * (never both writable and executable); a system that refuses executable memory
 * (SELinux's execmem, PaX) makes the kernel "not countable here" with the reason. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "validate_kernels.h"

#define PAGE 4096
#define LINE 64

#if defined(__x86_64__) || defined(__aarch64__)
static struct {
    long pages;
    char *code;
    void (*entry)(long n);
    int built;
    char why[160];
} itlb;

static long pages_of(void)
{
    return itlb.pages > 0 ? itlb.pages : VK_TLB_PAGES;
}

static char *block(long i)
{
    return itlb.code + i * PAGE + (i % 64) * LINE;
}

/* Writes page i's block, whose jump goes to page next's. */
static void emit(long i, long next)
{
    char *b = block(i);
    int32_t rel;
#if defined(__x86_64__)
    static const unsigned char head[] = {0x48, 0xff, 0xcf, 0x74, 0x05, 0xe9}; /* dec jz jmp */
    memcpy(b, head, sizeof head);
    rel = (int32_t)(block(next) - (b + 10)); /* from the end of the 5-byte jmp */
    memcpy(b + 6, &rel, sizeof rel);
    b[10] = (char)0xc3; /* ret */
#else
    rel = (int32_t)((block(next) - (b + 8)) / 4);                   /* b's imm26, in instructions */
    uint32_t ins[4] = {0xf1000400u,                                 /* subs x0, x0, #1 */
                       0x54000040u,                                 /* b.eq +8 */
                       0x14000000u | ((uint32_t)rel & 0x03ffffffu), /* b next */
                       0xd65f03c0u};                                /* ret */
    memcpy(b, ins, sizeof ins);
#endif
}

/* Links the pages' blocks in one random cycle; -1 out of memory. */
static int link_pages(long n)
{
    long *order = vk_random_order(n);
    if (!order)
        return -1;
    for (long i = 0; i < n; i++)
        emit(order[i], order[(i + 1) % n]);
    free(order);
    return 0;
}

static const char *build(void)
{
    long n = pages_of();
    size_t bytes = (size_t)n * PAGE;
    itlb.code = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (itlb.code == MAP_FAILED) {
        itlb.code = NULL;
        return "memory for its code pages";
    }
    madvise(itlb.code, bytes, MADV_NOHUGEPAGE); /* one TLB entry per 4 KiB page */
    if (link_pages(n) < 0) {
        munmap(itlb.code, bytes);
        itlb.code = NULL;
        return "memory for its code pages";
    }
    __builtin___clear_cache(itlb.code, itlb.code + bytes); /* arm64: I and D caches apart */
    if (mprotect(itlb.code, bytes, PROT_READ | PROT_EXEC) != 0) {
        snprintf(itlb.why, sizeof itlb.why,
                 "executable memory, which this system refuses (mprotect PROT_EXEC: %s; a "
                 "W^X policy such as SELinux's execmem)",
                 strerror(errno));
        munmap(itlb.code, bytes);
        itlb.code = NULL;
        return itlb.why;
    }
    itlb.entry = (void (*)(long))(void *)block(0);
    itlb.built = 1;
    return NULL;
}

/* Whether it can run: yes, unless building its code was refused before (vk_itlb_ready
 * builds it). */
static const char *code_refused(void)
{
    return itlb.why[0] ? itlb.why : NULL;
}

static void itlb_pages(long n)
{
    if (n > 0)
        itlb.entry(n);
}

static double itlb_miss_rate(void)
{
    double r = 1.0 - (double)VK_TLB_ASSUMED / (double)pages_of();
    return r > 0 ? r : 0; /* a test's few pages: none assumed to miss */
}

void vk_itlb_configure(long pages)
{
    if (!itlb.built && !itlb.why[0])
        itlb.pages = pages;
}

/* clang-format off */
static const struct vk_kernel itlb_kernels[] = {
    {"itlb_pages",
     "jumps through code on 32768 4 KiB pages in a random order, 3 instructions per page "
     "(cache class: 10%)",
     code_refused, itlb_pages, itlb_miss_rate,
     {{"PAPI_TOT_INS", 3, 0}, {"PAPI_BR_INS", 2, 0}, {"PAPI_BR_CN", 1, 0},
      {"PAPI_BR_NTK", 1, 0}, {"PAPI_BR_UCN", 1, 0},
      {"PAPI_TLB_IM", 1, VK_CACHE | VK_PER_LANE}, {"PAPI_L1_ICM", 1, VK_CACHE}}},
};
/* clang-format on */

const char *vk_itlb_ready(const struct vk_kernel *k)
{
    if (k->run != itlb_pages || itlb.built)
        return NULL;
    if (itlb.why[0]) /* refused once: the same reason */
        return itlb.why;
    const char *why = build();
    if (why && why != itlb.why)
        snprintf(itlb.why, sizeof itlb.why, "%s", why);
    return why ? itlb.why : NULL;
}

const struct vk_kernel *vk_itlb_kernels(int *n)
{
    *n = 1;
    return itlb_kernels;
}
#else /* another ISA: no code generator */
const char *vk_itlb_ready(const struct vk_kernel *k)
{
    (void)k;
    return NULL;
}

void vk_itlb_configure(long pages)
{
    (void)pages;
}

const struct vk_kernel *vk_itlb_kernels(int *n)
{
    *n = 0;
    return NULL;
}
#endif
