/* gpu_snapshot.h: what a region saw of the GPUs (gpu_snapshot.c), for the region API, the
 * MPI wrapper's Pcontrol regions and rank rows (issue 59's later steps). Two ways, both on
 * the traces' clock:
 * - counts: gpu_snapshot_take at a region's begin and end, gpu_snapshot_diff between
 *   them. Records reach the table only when CUPTI hands a buffer back, so a snapshot
 *   counts work finished before it only after gpu_activity_flush(); without a flush at
 *   the boundaries, work is counted in the region where its buffer came back.
 * - busy time by window: gpu_table_busy_between(begin, end) after the run (or a flush):
 *   the device's busy time inside the region's interval, whenever its records came,
 *   without flushing at each boundary. */
#ifndef PAPI_GPU_SNAPSHOT_H
#define PAPI_GPU_SNAPSHOT_H

#include <stdint.h>

#include "gpu_table.h"

struct gpu_snapshot {
    uint64_t kernel_launches, kernel_ns; /* every kernel row's, and the untabled launches */
    struct gpu_sum copies[CUPTI_MEMCPY_KINDS];
    struct gpu_sum memsets; /* all devices */
    struct gpu_sum syncs;   /* all types */
    uint64_t dropped, buffers_refused;
    int ndevices;
    struct {
        uint32_t id;
        uint64_t busy_ns;
    } devices[GPU_TABLE_DEVICES];
};

/* total += d (a device new to total appended, matched by id). */
__attribute__((visibility("hidden"))) void gpu_snapshot_add(struct gpu_snapshot *total,
                                                            const struct gpu_snapshot *d);
/* Each kernel row's launches and time, by row (rows are only appended, in one order,
 * until the next start): a region's kernel table is the difference of two. */
struct gpu_kernel_count {
    uint64_t launches, ns;
};
struct gpu_kernel_counts {
    int n, cap;
    struct gpu_kernel_count *row; /* heap */
};

/* The table's sums now into s. */
__attribute__((visibility("hidden"))) void gpu_snapshot_take(const struct gpu_table *t,
                                                             struct gpu_snapshot *s);
/* end minus begin into out (a device only in end counts from 0). */
__attribute__((visibility("hidden"))) void gpu_snapshot_diff(const struct gpu_snapshot *begin,
                                                             const struct gpu_snapshot *end,
                                                             struct gpu_snapshot *out);
/* Every kernel row's counts now into k (grown as needed): 0, or -1 without memory (k is
 * then left as it was). */
__attribute__((visibility("hidden"))) int gpu_kernels_take(const struct gpu_table *t,
                                                           struct gpu_kernel_counts *k);
/* total += the table's rows now - begin, row by row (a row not in begin counts from 0),
 * read straight from the table (a region's end: no copy of the rows): 0, or -1 without
 * memory for total's new rows (total unchanged). */
__attribute__((visibility("hidden"))) int gpu_kernels_add_since(
    struct gpu_kernel_counts *total, const struct gpu_kernel_counts *begin,
    const struct gpu_table *t);
__attribute__((visibility("hidden"))) void gpu_kernels_free(struct gpu_kernel_counts *k);
/* The device's busy time inside [begin, end) (the union of its kernels, clipped). Sets
 * *exact to 0 where part of the window lies before the intervals folded away
 * (gpu_table.h: settled_until), whose time is then missing, else 1. */
__attribute__((visibility("hidden"))) uint64_t gpu_table_busy_between(const struct gpu_table *t,
                                                                      uint32_t device,
                                                                      uint64_t begin, uint64_t end,
                                                                      int *exact);

#endif
