/* validate_kernels.h: papi_validate's kernels, loops in inline assembly whose counts are
 * known by construction: instructions, conditional branches taken and not taken, loads
 * and stores, floating-point operations per precision and width. One table per ISA
 * (validate_kernels_x86.c, validate_kernels_arm64.c); a kernel the CPU cannot run says
 * which feature it lacks. */
#ifndef VALIDATE_KERNELS_H
#define VALIDATE_KERNELS_H

#define VK_MAX_EXPECT 16

/* What one iteration of a kernel adds to an event (a preset or a metric name). */
struct vk_expect {
    const char *event;
    double per_iter; /* per vector lane when VK_PER_LANE is set */
    int flags;       /* VK_PER_LANE, and the class: exact (0), VK_CACHE or VK_BW */
};
/* Scaled by the kernel's lanes() (SVE: the CPU's vector length; a cache kernel: its miss
 * rate from the cache sizes). */
#define VK_PER_LANE 1
#define VK_CACHE    2 /* judged within VK_CACHE_TOL */
#define VK_BW       4 /* judged within VK_BW_TOL */

struct vk_kernel {
    const char *name; /* "dp_256_fma" */
    const char *what; /* one line for --list */
    /* NULL when the CPU can run it, else the feature it lacks ("AVX-512F"). */
    const char *(*missing)(void);
    void (*run)(long n); /* n iterations of the loop */
    /* The factor of per_lane expectations when the CPU decides it (SVE: the vector's
     * lanes; a cache kernel: its miss rate from the cache sizes), else NULL. */
    double (*lanes)(void);
    struct vk_expect expect[VK_MAX_EXPECT];
};

/* The cache class's tolerance (caches, TLB): 10% of the expected count. */
#define VK_CACHE_TOL 0.10
/* The bandwidth class's: 15% (memory controllers count the whole socket's traffic). */
#define VK_BW_TOL 0.15

/* A kernel every CPU of the ISA can run. */
const char *vk_need_none(void);

/* clang-format off */
/* The loop's own branch: 1 conditional branch, taken, per iteration. */
#define VK_BRANCH_1 {"PAPI_BR_INS", 1, 0}, {"PAPI_BR_CN", 1, 0}, {"PAPI_BR_TKN", 1, 0}
/* The integer kernels of every ISA table (its static int_adds, branches, uncond_jumps,
 * loads_stores), with that ISA's instructions per iteration of each. */
#define VK_INTEGER_KERNELS(adds_ins, branches_ins, uncond_ins, ldst_ins)                      \
    {"int_adds", "6 integer adds per iteration (1 branch taken)", vk_need_none, int_adds,    \
     NULL, {{"PAPI_TOT_INS", adds_ins, 0}, VK_BRANCH_1}},                                     \
    {"branches", "3 conditional branches per iteration, 2 taken and 1 not", vk_need_none,    \
     branches, NULL, {{"PAPI_TOT_INS", branches_ins, 0}, {"PAPI_BR_INS", 3, 0},               \
     {"PAPI_BR_CN", 3, 0}, {"PAPI_BR_TKN", 2, 0}, {"PAPI_BR_NTK", 1, 0}}},                    \
    {"uncond_jumps", "1 unconditional and 1 conditional branch per iteration", vk_need_none, \
     uncond_jumps, NULL, {{"PAPI_TOT_INS", uncond_ins, 0}, {"PAPI_BR_INS", 2, 0},             \
     {"PAPI_BR_CN", 1, 0}, {"PAPI_BR_TKN", 1, 0}, {"PAPI_BR_UCN", 1, 0}}},                    \
    {"loads_stores", "2 loads and 1 store per iteration", vk_need_none, loads_stores, NULL,  \
     {{"PAPI_TOT_INS", ldst_ins, 0}, VK_BRANCH_1, {"PAPI_LD_INS", 2, 0}, {"PAPI_SR_INS", 1, 0}, \
     {"PAPI_LST_INS", 3, 0}}}
/* clang-format on */

/* Every kernel: this ISA's (validate_kernels_<isa>.c), the memory ones, itlb_pages. */
const struct vk_kernel *vk_kernels(int *n);
/* The parts: this ISA's inline-assembly kernels (none on other ISAs), the memory ones,
 * the instruction-TLB one (code generated at run time: x86-64 and arm64 only). */
const struct vk_kernel *vk_isa_kernels(int *n);
const struct vk_kernel *vk_mem_kernels(int *n);
const struct vk_kernel *vk_itlb_kernels(int *n);
/* The pages of the instruction-TLB kernel (vk_mem_configure passes its tlb_pages). */
void vk_itlb_configure(long pages);
/* The relative tolerance of event's check in kernel k: VK_CACHE_TOL or VK_BW_TOL for the
 * memory kernels' cache, TLB and bandwidth rows, 0 for the exact classes (their
 * tolerance is the loop's overhead). */
double vk_tol_rel(const struct vk_kernel *k, const char *event);
/* The memory kernels' sizes: bytes of the level-2 and level-3 caches (0 = unknown: an
 * assumed size, which vk_mem_assumed says), pages of the TLB walk (0 = VK_TLB_PAGES). */
struct vk_mem_sizes {
    long l2, l3, tlb_pages;
    long max_set; /* the working sets' ceiling in bytes (0 = VK_SET_CEILING) */
};
/* The working sets' hard ceiling: a chase over 16 x L3 needs 7.5 GiB for a 480 MiB L3;
 * below this, the cap is a quarter of MemAvailable. */
#define VK_SET_CEILING (4L << 30)
#define VK_TLB_PAGES   32768
/* The TLB entries the TLB kernel's expectation assumes: its miss rate is 1 - this over
 * the pages walked, 0.9375 for 32768 pages; a CPU with 0 to 4096 entries is within
 * VK_CACHE_TOL of it (second-level data TLBs hold 1024 to 4096 entries). */
#define VK_TLB_ASSUMED 2048
/* 0 .. n-1 in a random order whose successive entries, the last followed by the first,
 * visit all n in one cycle (Sattolo's shuffle; the same order every run); malloc'd, NULL
 * out of memory. */
long *vk_random_order(long n);
/* Sets the sizes, once, before a memory kernel runs (their working sets are built on
 * first use). */
void vk_mem_configure(const struct vk_mem_sizes *s);
/* The working sets' cap as said in the output ("up to 4096 MiB (a quarter of
 * MemAvailable, ...)"), after vk_mem_configure. */
const char *vk_mem_cap(void);
/* What was assumed for lack of a cache size ("L2 1 MiB, L3 8 MiB assumed: ..."), or
 * NULL when the library knew both. */
const char *vk_mem_assumed(void);
/* Kernel k made ready to run: NULL, or why it cannot (its missing(), or no memory for the
 * working set or code pages, built here on first use: missing() only says whether the
 * CPU and the caps allow it, so that --list and events that cannot open build nothing). */
const char *vk_ready(const struct vk_kernel *k);
/* The parts of vk_ready: NULL for a kernel that is not theirs. */
const char *vk_mem_ready(const struct vk_kernel *k);
const char *vk_itlb_ready(const struct vk_kernel *k);
/* 1 when kernel k determines event (a non-zero count per iteration). */
int vk_determines(const struct vk_kernel *k, const char *event);
/* Per-iteration count of event in kernel k (SVE widths applied: only for a kernel
 * the CPU can run), or 0 if not determined. */
double vk_expected_per_iter(const struct vk_kernel *k, const char *event);
/* A metric's counts as kernel k determines them: known[i] is k's expected count of
 * names[i] over iterations when k determines it, else counted[i]; tol_rel the largest
 * class tolerance of those put in (0: all exact). Returns how many were put in. (A
 * kernel whose lanes() depend on its working set: after vk_ready built it.) */
int vk_known_counts(const struct vk_kernel *k, int n, const char *const names[],
                    const long long counted[], double iterations, long long known[],
                    double *tol_rel);
/* The ISA the table is for ("x86-64", "arm64", or "none"). */
const char *vk_isa(void);

#endif
