/* perf_user_read.c: the variants of the user-space counter read (perf_user_read.h) with
 * the instructions supplied, for tests; the production read is inline. */
#include "perf_user_read.h"

int perf_user_read_clocked(const struct perf_event_mmap_page *pc,
                           uint64_t (*read_counter)(uint32_t index), uint64_t (*read_clock)(void),
                           uint64_t *count, uint64_t *enabled, uint64_t *running)
{
    return perf_user_read_core(pc, read_counter, read_clock, count, enabled, running);
}

int perf_user_read_with(const struct perf_event_mmap_page *pc,
                        uint64_t (*read_counter)(uint32_t index), uint64_t *count,
                        uint64_t *enabled, uint64_t *running)
{
    return perf_user_read_core(pc, read_counter, perf_user_hw_clock, count, enabled, running);
}
