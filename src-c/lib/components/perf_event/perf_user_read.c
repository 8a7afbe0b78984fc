/* perf_user_read.c: the parts of the user-space counter read that are not inline
 * (perf_user_read.h): the variants with the instructions supplied (tests) and the arm64
 * counter read, whose register number is part of the mrs encoding. */
#include "perf_user_read.h"

int perf_user_read_clocked(const struct perf_event_mmap_page *pc,
                           uint64_t (*read_counter)(uint32_t index),
                           uint64_t (*read_clock)(void), uint64_t *count, uint64_t *enabled,
                           uint64_t *running)
{
    return perf_user_read_core(pc, read_counter, read_clock, count, enabled, running);
}

int perf_user_read_with(const struct perf_event_mmap_page *pc,
                        uint64_t (*read_counter)(uint32_t index), uint64_t *count,
                        uint64_t *enabled, uint64_t *running)
{
    return perf_user_read_core(pc, read_counter, perf_user_hw_clock, count, enabled, running);
}

#if defined(__aarch64__)
#define MRS_CASE(n)                                                                        \
    case n:                                                                                \
        __asm__ __volatile__("mrs %0, pmevcntr" #n "_el0" : "=r"(v));                      \
        break;

/* index - 1 is the counter: 31 the cycle counter, 0..30 the event counters. */
uint64_t perf_user_arm64_counter(uint32_t index)
{
    uint64_t v = 0;
    switch (index - 1) {
        MRS_CASE(0) MRS_CASE(1) MRS_CASE(2) MRS_CASE(3) MRS_CASE(4) MRS_CASE(5) MRS_CASE(6)
        MRS_CASE(7) MRS_CASE(8) MRS_CASE(9) MRS_CASE(10) MRS_CASE(11) MRS_CASE(12)
        MRS_CASE(13) MRS_CASE(14) MRS_CASE(15) MRS_CASE(16) MRS_CASE(17) MRS_CASE(18)
        MRS_CASE(19) MRS_CASE(20) MRS_CASE(21) MRS_CASE(22) MRS_CASE(23) MRS_CASE(24)
        MRS_CASE(25) MRS_CASE(26) MRS_CASE(27) MRS_CASE(28) MRS_CASE(29) MRS_CASE(30)
    case 31:
        __asm__ __volatile__("mrs %0, pmccntr_el0" : "=r"(v));
        break;
    default:
        break;
    }
    return v;
}
#endif
