/* perf_user_read.h: the user-space counter read of a self-monitored perf event, from its
 * mmap page (struct perf_event_mmap_page) and one counter instruction (x86 rdpmc, arm64
 * mrs PMEVCNTR<n>_EL0 / PMCCNTR_EL0), without a system call.
 *
 * The algorithm is the seqlock loop that linux/perf_event.h documents: read lock, the
 * times, index, offset and the raw counter, retry when lock changed meanwhile; the
 * count is offset plus the pmc_width-bit raw value sign-extended. The page's times were
 * last updated when the event was scheduled in, so with cap_user_time they are brought
 * up to now from the timestamp counter (x86 TSC, arm64 CNTVCT_EL0): enabled and running
 * then grow between reads as read() reports them, and multiplex scaling (deltas of
 * both since a baseline) stays right.
 *
 * perf_user_read() is the production path (static inline, no indirect call: it sits in
 * PAPI_read's hot path). It returns 1 with what read() would return for the event, or 0
 * when the caller must use read(): the page does not allow a user read (cap_user_rdpmc
 * clear, index 0: event not on a counter now), or it gives no time conversion
 * (cap_user_time clear: the stale page times would break scaling), or this architecture
 * has no user counter instruction here. Only valid for an event of the calling thread.
 * The _with / _clocked variants take the instructions as parameters (tests). */
#ifndef PERF_USER_READ_H
#define PERF_USER_READ_H

#include <linux/perf_event.h>
#include <stdint.h>

/* capabilities bits (the bitfield of struct perf_event_mmap_page, read as one word) */
#define PERF_USER_CAP_RDPMC      (UINT64_C(1) << 2)
#define PERF_USER_CAP_TIME       (UINT64_C(1) << 3)
#define PERF_USER_CAP_TIME_SHORT (UINT64_C(1) << 5)

#if defined(__x86_64__) || defined(__i386__)
#define PERF_USER_READ_ARCH 1
#define PERF_USER_MAX_INDEX UINT32_MAX
#elif defined(__aarch64__)
#define PERF_USER_READ_ARCH 1
#define PERF_USER_MAX_INDEX 32u /* 31 event counters and the cycle counter */
#else
#define PERF_USER_MAX_INDEX UINT32_MAX
#define PERF_USER_READ_ARCH 0
#endif

#define PERF_USER_HIDDEN      __attribute__((visibility("hidden")))
#define PERF_USER_BARRIER()   __asm__ __volatile__("" ::: "memory")
#define PERF_USER_ONCE(field) (*(const volatile __typeof__(field) *)&(field))

/* The raw hardware counter of a page index (index - 1 is the counter number). */
#if defined(__x86_64__) || defined(__i386__)
static inline __attribute__((always_inline)) uint64_t perf_user_hw_counter(uint32_t index)
{
    uint32_t lo, hi;
    __asm__ __volatile__("rdpmc" : "=a"(lo), "=d"(hi) : "c"(index - 1));
    return ((uint64_t)hi << 32) | lo;
}
static inline uint64_t perf_user_hw_clock(void)
{
    uint32_t lo, hi;
    __asm__ __volatile__("rdtsc" : "=a"(lo), "=d"(hi));
    return ((uint64_t)hi << 32) | lo;
}
#elif defined(__aarch64__)
/* The register number is part of the mrs encoding: one case per counter. */
#define PERF_USER_MRS(n)                                              \
    case n:                                                           \
        __asm__ __volatile__("mrs %0, pmevcntr" #n "_el0" : "=r"(v)); \
        break;
static inline __attribute__((always_inline)) uint64_t perf_user_hw_counter(uint32_t index)
{
    uint64_t v = 0;
    switch (index - 1) { /* 0..30 event counters, 31 the cycle counter */
        /* Macro calls as cases: clang-format 14 reflows them differently at each run. */
        /* clang-format off */
        PERF_USER_MRS(0) PERF_USER_MRS(1) PERF_USER_MRS(2) PERF_USER_MRS(3) PERF_USER_MRS(4)
        PERF_USER_MRS(5) PERF_USER_MRS(6) PERF_USER_MRS(7) PERF_USER_MRS(8) PERF_USER_MRS(9)
        PERF_USER_MRS(10) PERF_USER_MRS(11) PERF_USER_MRS(12) PERF_USER_MRS(13)
        PERF_USER_MRS(14) PERF_USER_MRS(15) PERF_USER_MRS(16) PERF_USER_MRS(17)
        PERF_USER_MRS(18) PERF_USER_MRS(19) PERF_USER_MRS(20) PERF_USER_MRS(21)
        PERF_USER_MRS(22) PERF_USER_MRS(23) PERF_USER_MRS(24) PERF_USER_MRS(25)
        PERF_USER_MRS(26) PERF_USER_MRS(27) PERF_USER_MRS(28) PERF_USER_MRS(29)
        PERF_USER_MRS(30)
            /* clang-format on */
            case 31 : __asm__ __volatile__("mrs %0, pmccntr_el0"
                                           : "=r"(v));
        break;
    default: /* never: the caller checked index <= PERF_USER_MAX_INDEX */
        break;
    }
    return v;
}
static inline uint64_t perf_user_hw_clock(void)
{
    uint64_t v;
    __asm__ __volatile__("isb; mrs %0, cntvct_el0" : "=r"(v)::"memory");
    return v;
}
#else
static inline __attribute__((always_inline)) uint64_t perf_user_hw_counter(uint32_t index)
{
    (void)index;
    return 0;
}
static inline uint64_t perf_user_hw_clock(void)
{
    return 0;
}
#endif

/* Nanoseconds since the page's times were written, from the clock value cyc (the
 * conversion documented beside time_offset in linux/perf_event.h). */
static inline uint64_t perf_user_time_delta(uint64_t cyc, uint64_t time_offset, uint32_t time_mult,
                                            uint16_t time_shift)
{
    uint64_t quot = cyc >> time_shift;
    uint64_t rem = cyc & ((UINT64_C(1) << time_shift) - 1);
    return time_offset + quot * time_mult + ((rem * time_mult) >> time_shift);
}

/* The sign-extended width-bit raw counter value (two's complement on the way back). */
static inline int64_t perf_user_sign_extend(uint64_t raw, uint16_t width)
{
    /* width 1..64 (0: the page says nothing, use raw): the shift is 0 for 64 and 0. */
    unsigned shift = (64u - width) & 63u;
    return (int64_t)(raw << shift) >> shift;
}

/* The count-only loop of PAPI_read (perf_read.c), the documented loop's counter part in
 * fewer instructions: the raw counter of page index into *v, or 0 when the index names
 * no counter here (0: the event is not on one). On arm64 one bounds check and a jump into
 * a table of fixed 8-byte entries (mrs, b): 8 instructions where perf_user_hw_counter's
 * switch and the loop's own index checks take 12 and two more to find their table. Not
 * where branch targets must be marked (BTI): the entries carry no landing pad. */
static inline __attribute__((always_inline)) int perf_user_counter(uint32_t index, uint64_t *v)
{
#if defined(__aarch64__) && !defined(__ARM_FEATURE_BTI_DEFAULT)
    uint64_t at;
    if (index - 1u >= PERF_USER_MAX_INDEX)
        return 0;
        /* entry index - 1: pmevcntr<index - 1>, the last (index 32) the cycle counter */
#define PERF_USER_ENTRY(n) "mrs %0, pmevcntr" #n "_el0\n\tb 2f\n\t"
    __asm__ __volatile__(
        "adr %1, 1f\n\t"
        "add %1, %1, %x2, lsl #3\n\t"
        "br %1\n"
        "1:\n\t" PERF_USER_ENTRY(0) PERF_USER_ENTRY(1) PERF_USER_ENTRY(2) PERF_USER_ENTRY(3)
            PERF_USER_ENTRY(4) PERF_USER_ENTRY(5) PERF_USER_ENTRY(6) PERF_USER_ENTRY(7)
                PERF_USER_ENTRY(8) PERF_USER_ENTRY(9) PERF_USER_ENTRY(10) PERF_USER_ENTRY(11)
                    PERF_USER_ENTRY(12) PERF_USER_ENTRY(13) PERF_USER_ENTRY(14) PERF_USER_ENTRY(15)
                        PERF_USER_ENTRY(16) PERF_USER_ENTRY(17) PERF_USER_ENTRY(18)
                            PERF_USER_ENTRY(19) PERF_USER_ENTRY(20) PERF_USER_ENTRY(21)
                                PERF_USER_ENTRY(22) PERF_USER_ENTRY(23) PERF_USER_ENTRY(24)
                                    PERF_USER_ENTRY(25) PERF_USER_ENTRY(26) PERF_USER_ENTRY(27)
                                        PERF_USER_ENTRY(28) PERF_USER_ENTRY(29)
                                            PERF_USER_ENTRY(30) "mrs %0, pmccntr_el0\n"
                                                                "2:"
        : "=r"(*v), "=&r"(at)
        : "r"((uint64_t)(index - 1u)));
#undef PERF_USER_ENTRY
    return 1;
#else
    if (index == 0 || index > PERF_USER_MAX_INDEX || !PERF_USER_READ_ARCH)
        return 0;
    *v = perf_user_hw_counter(index);
    return 1;
#endif
}

/* perf_user_sign_extend for the count-only loop: on arm64 the shift by 64 - width is a
 * negation, the register shifts taking their amount modulo 64 (3 instructions, not 5).
 * width: pmc_width in its low 16 bits; above them a multiple of 64 is harmless. */
static inline __attribute__((always_inline)) int64_t perf_user_signed(uint64_t raw, uint32_t width)
{
#if defined(__aarch64__)
    int64_t r;
    uint32_t shift;
    __asm__("neg %w1, %w3\n\t"
            "lsl %0, %2, %x1\n\t"
            "asr %0, %0, %x1"
            : "=&r"(r), "=&r"(shift)
            : "r"(raw), "r"(width));
    return r;
#else
    return perf_user_sign_extend(raw, (uint16_t)width);
#endif
}

/* The loop itself; read_counter and read_clock are constants at every call site, so
 * the compiler inlines them (no indirect call). */
static inline __attribute__((always_inline)) int perf_user_read_core(
    const struct perf_event_mmap_page *pc, uint64_t (*read_counter)(uint32_t index),
    uint64_t (*read_clock)(void), uint64_t *count, uint64_t *enabled, uint64_t *running)
{
    uint32_t seq;
    uint64_t c, e, r;
    do {
        seq = PERF_USER_ONCE(pc->lock);
        PERF_USER_BARRIER();
        uint64_t caps = PERF_USER_ONCE(pc->capabilities);
        uint32_t index = PERF_USER_ONCE(pc->index);
        if (!(caps & PERF_USER_CAP_RDPMC) || !(caps & PERF_USER_CAP_TIME) || index == 0 ||
            index > PERF_USER_MAX_INDEX)
            return 0;
        e = PERF_USER_ONCE(pc->time_enabled);
        r = PERF_USER_ONCE(pc->time_running);
        uint64_t cyc = read_clock();
        if (caps & PERF_USER_CAP_TIME_SHORT) {
            uint64_t base = PERF_USER_ONCE(pc->time_cycles);
            cyc = base + ((cyc - base) & PERF_USER_ONCE(pc->time_mask));
        }
        uint64_t delta =
            perf_user_time_delta(cyc, PERF_USER_ONCE(pc->time_offset),
                                 PERF_USER_ONCE(pc->time_mult), PERF_USER_ONCE(pc->time_shift));
        e += delta;
        r += delta;
        c = (uint64_t)PERF_USER_ONCE(pc->offset);
        c += (uint64_t)perf_user_sign_extend(read_counter(index), PERF_USER_ONCE(pc->pmc_width));
        PERF_USER_BARRIER();
    } while (PERF_USER_ONCE(pc->lock) != seq);
    *count = c;
    *enabled = e;
    *running = r;
    return 1;
}

static inline __attribute__((always_inline)) int perf_user_read(
    const struct perf_event_mmap_page *pc, uint64_t *count, uint64_t *enabled, uint64_t *running)
{
#if PERF_USER_READ_ARCH
    return perf_user_read_core(pc, perf_user_hw_counter, perf_user_hw_clock, count, enabled,
                               running);
#else
    (void)pc, (void)count, (void)enabled, (void)running;
    return 0;
#endif
}

/* The same loop with the counter instruction supplied (the clock is the real one). */
PERF_USER_HIDDEN int perf_user_read_with(const struct perf_event_mmap_page *pc,
                                         uint64_t (*read_counter)(uint32_t index), uint64_t *count,
                                         uint64_t *enabled, uint64_t *running);
/* ... and with the timestamp counter supplied too, for exact extrapolation tests. */
PERF_USER_HIDDEN int perf_user_read_clocked(const struct perf_event_mmap_page *pc,
                                            uint64_t (*read_counter)(uint32_t index),
                                            uint64_t (*read_clock)(void), uint64_t *count,
                                            uint64_t *enabled, uint64_t *running);

#endif
